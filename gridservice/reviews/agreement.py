"""How far reviewers agree: share of agreement and a chance-corrected statistic, per factor.

A unit is one thing rated (a factor of one case); its answers map reviewer -> severity, None
where a reviewer gave none. Cohen's kappa (unweighted, nominal) is used when every unit has
the same two reviewers and both answered; otherwise Krippendorff's alpha at the ordinal
level over the severity scale (the `krippendorff` package), which takes any number of
reviewers and missing answers. The interval is a percentile bootstrap over units with a
fixed seed, so the same answers always give the same interval.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from itertools import combinations

import krippendorff
import numpy as np

SEVERITIES = ("low", "medium", "high")
BOOTSTRAP_RESAMPLES = 500
BOOTSTRAP_SEED = 53
CONFIDENCE_LEVEL = 0.95

Unit = dict[str, str | None]


def cohen_kappa(pairs: Sequence[tuple[str, str]]) -> float | None:
    """Return Cohen's (unweighted) kappa of two raters' labels; None when chance agreement is
    total (both raters used one same label throughout) or there are no pairs."""
    if not pairs:
        return None
    n = len(pairs)
    observed = sum(a == b for a, b in pairs) / n
    first, second = Counter(a for a, _ in pairs), Counter(b for _, b in pairs)
    expected = sum(first[label] * second[label] for label in first) / (n * n)
    if expected == 1.0:
        return None
    return (observed - expected) / (1.0 - expected)


def krippendorff_alpha(
    units: Sequence[Sequence[object | None]], domain: Sequence[object], level: str
) -> float | None:
    """Return Krippendorff's alpha of the units' answers (None = missing) on an ordered
    `domain` at `level` ('ordinal' or 'nominal'); None when it is undefined (fewer than two
    pairable answers, or no variation to measure agreement against)."""
    if not units:
        return None
    width = max(len(answers) for answers in units)
    matrix = np.full((width, len(units)), np.nan)
    position = {value: index for index, value in enumerate(domain)}
    for column, answers in enumerate(units):
        for row, answer in enumerate(a for a in answers if a is not None):
            matrix[row, column] = position[answer]
    pairable = (np.sum(~np.isnan(matrix), axis=0) >= 2).sum()
    if pairable == 0:
        return None
    values = matrix[~np.isnan(matrix)]
    if len(set(values.tolist())) < 2:
        return None
    try:
        alpha = krippendorff.alpha(
            reliability_data=matrix,
            value_domain=list(range(len(domain))),
            level_of_measurement=level,
        )
    except (ValueError, ZeroDivisionError):
        return None
    return float(alpha) if math.isfinite(alpha) else None


def share_of_agreement(units: Sequence[Unit]) -> float | None:
    """Return the share of agreeing pairs among all pairs of answers given to one unit."""
    agreeing = total = 0
    for unit in units:
        given = [a for a in unit.values() if a is not None]
        for a, b in combinations(given, 2):
            total += 1
            agreeing += a == b
    return agreeing / total if total else None


def _two_same_reviewers(units: Sequence[Unit]) -> tuple[str, str] | None:
    """Return the two reviewers who answered every unit, when exactly they did, else None."""
    names = {tuple(sorted(unit)) for unit in units}
    if len(names) != 1:
        return None
    (reviewers,) = names
    if len(reviewers) != 2 or any(a is None for unit in units for a in unit.values()):
        return None
    return reviewers[0], reviewers[1]


def _statistic(units: Sequence[Unit]) -> tuple[str, Callable[[Sequence[Unit]], float | None]]:
    """Return the method's name and the function computing it on a list of units."""
    pair = _two_same_reviewers(units)
    if pair is not None:
        first, second = pair
        return "cohen_kappa", lambda chosen: cohen_kappa(
            [(str(u[first]), str(u[second])) for u in chosen]
        )
    return "krippendorff_alpha_ordinal", lambda chosen: krippendorff_alpha(
        [list(u.values()) for u in chosen], SEVERITIES, "ordinal"
    )


def _bootstrap_interval(
    units: Sequence[Unit], statistic: Callable[[Sequence[Unit]], float | None]
) -> list[float] | None:
    """Return the percentile bootstrap interval of `statistic` over resampled units."""
    if len(units) < 2:
        return None
    rng = np.random.default_rng(BOOTSTRAP_SEED)
    draws = []
    for _ in range(BOOTSTRAP_RESAMPLES):
        chosen = [units[i] for i in rng.integers(0, len(units), len(units))]
        value = statistic(chosen)
        if value is not None:
            draws.append(value)
    if not draws:
        return None
    tail = (1.0 - CONFIDENCE_LEVEL) / 2 * 100
    low, high = np.percentile(draws, [tail, 100 - tail])
    return [round(float(low), 4), round(float(high), 4)]


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def agreement(units: Sequence[Unit]) -> dict:
    """Return the wire agreement of units: counts, share of agreement, the statistic with its
    method and bootstrap interval (null where undefined)."""
    method, statistic = _statistic(units)
    answers = sum(a is not None for unit in units for a in unit.values())
    return {
        "units": len(units),
        "answers": answers,
        "reviewers": len({name for unit in units for name in unit}),
        "shareOfAgreement": _rounded(share_of_agreement(units)),
        "method": method,
        "statistic": _rounded(statistic(units)),
        "confidenceInterval": _bootstrap_interval(units, statistic),
        "confidenceLevel": CONFIDENCE_LEVEL,
        "bootstrapResamples": BOOTSTRAP_RESAMPLES,
        "bootstrapSeed": BOOTSTRAP_SEED,
    }
