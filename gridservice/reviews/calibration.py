"""The screening against its experts: per factor, its severity against the adjudicated expert
severity, and its heuristic confidence against how often the experts agreed with it.

Below `MINIMUM_LABELS` adjudicated labels of a factor the confidence stays a heuristic
(`unavailable_no_independent_labels`); from there on the measured agreement rate is shown
beside it, and `calibrationStatus` names the labels it rests on.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gridservice.reviews.agreement import SEVERITIES
from gridservice.screening.factors import FACTORS

MINIMUM_LABELS = 30
UNCALIBRATED = "unavailable_no_independent_labels"
MEASURED = "measured_against_adjudicated_expert_labels"
SCREENING_RESULTS = (*SEVERITIES, "abstained")
BIN_EDGES = (0.0, 0.2, 0.4, 0.6, 0.8, 1.0)


@dataclass(frozen=True)
class Label:
    """One adjudicated factor of one case: what the screening said, with what heuristic
    confidence, and the experts' severity."""

    factor: str
    screening: str
    confidence: float
    expert: str

    @property
    def agrees(self) -> bool:
        return self.screening == self.expert


def _bins(labels: Sequence[Label]) -> list[dict]:
    """Return the reliability bins: per band of heuristic confidence, its count, mean
    confidence and how often the experts' severity was the screening's."""
    bins = []
    for low, high in zip(BIN_EDGES, BIN_EDGES[1:], strict=False):
        inside = [
            label
            for label in labels
            if low <= label.confidence < high or (high == 1.0 and label.confidence == 1.0)
        ]
        bins.append(
            {
                "range": [low, high],
                "count": len(inside),
                "meanHeuristicConfidence": _mean([label.confidence for label in inside]),
                "expertAgreementRate": _mean([float(label.agrees) for label in inside]),
            }
        )
    return bins


def _mean(values: Sequence[float]) -> float | None:
    return round(sum(values) / len(values), 4) if values else None


def factor_calibration(factor: str, labels: Sequence[Label]) -> dict:
    """Return one factor's calibration against its experts' labels."""
    mine = [label for label in labels if label.factor == factor]
    matrix = {s: {e: 0 for e in SEVERITIES} for s in SCREENING_RESULTS}
    for label in mine:
        matrix[label.screening][label.expert] += 1
    enough = len(mine) >= MINIMUM_LABELS
    brier = _mean([(label.confidence - float(label.agrees)) ** 2 for label in mine])
    return {
        "factor": factor,
        "labels": len(mine),
        "minimumLabels": MINIMUM_LABELS,
        "calibrationStatus": MEASURED if enough else UNCALIBRATED,
        "heuristicConfidence": _mean([label.confidence for label in mine]),
        "measuredAgreementRate": _mean([float(label.agrees) for label in mine]) if enough else None,
        "brierScore": brier,
        "confusionMatrix": matrix,
        "reliabilityBins": _bins(mine),
    }


def calibration(labels: Sequence[Label]) -> list[dict]:
    """Return every factor's calibration, in the factors' order."""
    return [factor_calibration(factor, labels) for factor in FACTORS]
