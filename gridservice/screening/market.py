"""The market-adequacy factor: peak-load forecast against capacity and reserve requirement."""

from __future__ import annotations

import re

from gridservice.screening.outcomes import Context, Outcome, abstain, mw, number

# Margin short of this share of peak is medium when no reserve requirement is loaded.
RESERVE_MARGIN_MEDIUM = 0.15
# Forecast growth over the horizon at which market adequacy is medium without a margin.
LOAD_GROWTH_MEDIUM = 0.15
# Every rule here adds and compares megawatts; a fact in another unit is left out.
MW_UNIT = "MW"
# Large-load interconnection status figures (MW approved to energize, observed peaks of
# those loads) describe the queue of loads, not a forecast of the market's peak.
STATUS_PREDICATE_PREFIX = "large_load_"


def is_mw(fact: dict) -> bool:
    return str(fact.get("unit") or "").strip().upper() == MW_UNIT


def season(period: str) -> str:
    """'2026-summer' -> 'summer', '2026-2027-winter' -> 'winter', '2026' -> ''."""
    return re.sub(r"^[\d-]+", "", period).strip("-").lower()


def _period_word(period: str) -> str:
    return "season" if season(period) else "year" if re.fullmatch(r"\d{4}", period) else "period"


def _in_time_order(facts: list[dict]) -> list[dict]:
    return sorted(facts, key=lambda f: (str(f.get("validFrom") or ""), f["period"], f["id"]))


def _growth_series(peaks: list[dict]) -> list[dict]:
    """The peaks of one season, the one with the highest peak: growth never mixes seasons."""
    by_season: dict[str, list[dict]] = {}
    for f in peaks:
        by_season.setdefault(season(f["period"]), []).append(f)
    top = max(by_season, key=lambda s: (max(float(f["value"]) for f in by_season[s]), s))
    return _in_time_order(by_season[top])


def _series(facts: list[dict], words: tuple[str, ...]) -> list[dict]:
    """The longest series whose predicate holds one of `words`, base scenario first, by period.

    A series never mixes markets: one market's peak is never compared with another's.
    """
    groups: dict[tuple[str, str, str], list[dict]] = {}
    for f in facts:
        predicate = str(f.get("predicate") or "")
        if number(f.get("value")) is None or not f.get("period") or not is_mw(f):
            continue
        if not any(word in predicate.lower() for word in words):
            continue
        if predicate.startswith(STATUS_PREDICATE_PREFIX):
            continue
        groups.setdefault((predicate, str(f.get("scenario")), str(f.get("market"))), []).append(f)
    if not groups:
        return []

    def rank(key: tuple[str, str, str]) -> tuple[int, int, tuple[str, str, str]]:
        return (0 if key[1] == "base" else 1, -len(groups[key]), key)

    best = min(groups, key=rank)
    return _in_time_order(groups[best])


def _by_period(series: list[dict]) -> dict[str, dict]:
    return {f["period"]: f for f in series}


def _tightest_margin(peaks: list[dict], supply: list[dict], requirement: list[dict]) -> dict | None:
    """The period where capacity (or a stated margin) less peak is smallest against need."""
    supply_by_period = _by_period(supply)
    requirement_by_period = _by_period(requirement)
    rows = []
    for peak_fact in peaks:
        supply_fact = supply_by_period.get(peak_fact["period"])
        peak = float(peak_fact["value"])
        if supply_fact is None or peak <= 0:
            continue
        value = float(supply_fact["value"])
        margin = value if "margin" in str(supply_fact["predicate"]).lower() else value - peak
        needed = requirement_by_period.get(peak_fact["period"])
        need_mw = float(needed["value"]) if needed else RESERVE_MARGIN_MEDIUM * peak
        rows.append(
            {
                "margin": margin,
                "share": margin / peak,
                "need": need_mw,
                "period": peak_fact["period"],
                "peak": peak_fact,
                "supply": supply_fact,
                "requirement": needed,
            }
        )
    return min(rows, key=lambda r: (r["margin"] - r["need"], r["period"])) if rows else None


def tightest_reserve_margin(facts: list[dict]) -> dict | None:
    """Return the tightest period's margin as the market-adequacy finding reads it, or None.

    `facts` carry their kind under `_kind` (as `screening_reads.current_facts` gives them).
    """
    peaks = _series([f for f in facts if f["_kind"] == "load_forecast"], ("peak", "demand", "load"))
    if not peaks:
        return None
    return _tightest_of(peaks, [f for f in facts if f["_kind"] == "resource_adequacy"])


def _tightest_of(peaks: list[dict], adequacy: list[dict]) -> dict | None:
    """The tightest margin of the peaks' market (a margin never mixes markets)."""
    market = str(peaks[0].get("market"))
    adequacy = [f for f in adequacy if str(f.get("market")) == market]
    supply = _series(adequacy, ("margin",)) or _series(adequacy, ("capacity", "resource"))
    return _tightest_margin(peaks, supply, _series(adequacy, ("requirement", "target")))


def market_adequacy(ctx: Context) -> Outcome:
    factor = "market_adequacy"
    if not ctx.markets:
        return abstain(
            factor, "The point's market is unknown (no territory or queue data names one)."
        )
    market = "/".join(ctx.markets)
    loads = [f for f in ctx.facts if f["_kind"] == "load_forecast"]
    adequacy = [f for f in ctx.facts if f["_kind"] == "resource_adequacy"]
    peaks = _series(loads, ("peak", "demand", "load"))
    if not loads and not adequacy:
        return abstain(factor, f"No current load-forecast or resource-adequacy facts for {market}.")
    if not peaks:
        units = sorted({str(f.get("unit")) for f in loads if not is_mw(f)})
        unit_note = f" (facts in {', '.join(units)} are not used as MW)" if units else ""
        return abstain(
            factor,
            f"{market} has no current peak-load forecast in MW to judge adequacy "
            f"against{unit_note}.",
        )
    # The finding names the market its figures come from, not every market of the site.
    market = str(peaks[0].get("market"))
    adequacy = [f for f in adequacy if str(f.get("market")) == market]
    growth_series = _growth_series(peaks)
    first, last = growth_series[0], growth_series[-1]
    start = float(first["value"])
    growth = (float(last["value"]) - start) / start if start else 0.0
    text = (
        f"{market} {first['predicate']} ({first['scenario']}) goes from {mw(start)} "
        f"({first['period']}) to {mw(float(last['value']))} ({last['period']}), {growth:+.0%}."
    )
    others = [m for m in ctx.markets if m.upper() != market.upper()]
    if others:
        text += (
            f" The site's territory also lists {'/'.join(others)}, whose figures are not in "
            f"this finding."
        )
    cited = {first["id"], last["id"]}
    tightest = _tightest_of(peaks, adequacy)
    if tightest is None:
        severity = "medium" if growth >= LOAD_GROWTH_MEDIUM else "low"
        text += " No resource-adequacy fact shares a period with the forecast, so no margin is computed."
        return Outcome(factor, severity, text + same_for_the_market(market), sorted(cited))
    margin, need = tightest["margin"], tightest["need"]
    severity = "high" if margin < 0 else "medium" if margin < need else "low"
    need_text = (
        f"the {mw(need)} {tightest['requirement']['predicate']}"
        if tightest["requirement"]
        else f"a {RESERVE_MARGIN_MEDIUM:.0%} screening reserve"
    )
    text += (
        f" The tightest {_period_word(tightest['period'])} is {tightest['period']}: {tightest['supply']['predicate']} leaves a "
        f"{mw(margin) if margin >= 0 else '-' + mw(-margin)} margin ({tightest['share']:.1%} of peak) "
        f"against {need_text}."
    )
    cited |= {tightest["peak"]["id"], tightest["supply"]["id"]}
    if tightest["requirement"]:
        cited.add(tightest["requirement"]["id"])
    return Outcome(factor, severity, text + same_for_the_market(market), sorted(cited))


def same_for_the_market(market: str) -> str:
    """Return the sentence saying the finding is market-wide, and so weighs less."""
    return (
        f" The same for every site in {market}, so it weighs less in the readiness than the "
        "site's local factors."
    )
