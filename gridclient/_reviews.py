"""Expert review cases (an extension): models, and ``client.reviews``.

An analyst's token sends an assessment for review, reads its cases with their agreement,
withdraws or adjudicates them, and reads agreement and calibration across cases. A
reviewer's token (``gridservice tokens create --reviewer NAME``) reads the cases assigned
to it, their blinded packets, and submits or amends its review.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, datetime
from typing import Any

from pydantic import Field

from gridclient import _args as a
from gridclient._resources import _Resource
from gridclient.models import ExpertReviewPacket, GridModel, Opaque

SEVERITIES = ("low", "medium", "high")


class FactorAnswer(GridModel):
    """A reviewer's answer on one factor: ``severity`` None means they cannot judge it."""

    factor: str | None = None
    severity: str | None = None
    evidence_supports: bool | None = None
    confidence: str | None = None
    comment: str | None = None


class ReviewSubmission(GridModel):
    """What a reviewer sends: one answer per factor and the attestation."""

    factors: list[FactorAnswer] = Field(default_factory=list)
    attestation: Opaque = Field(
        default_factory=lambda: {"noConflictOfInterest": True, "evidenceChecked": True}
    )


class Review(GridModel):
    """One revision of a reviewer's review (``source``: ``form`` or ``packet``)."""

    id: str | None = None
    case_id: str | None = None
    reviewer: str | None = None
    revision: int | None = None
    submitted_at: datetime | None = None
    source: str | None = None
    factors: list[FactorAnswer] = Field(default_factory=list)
    attestation: Opaque | None = None


class ReviewAgreement(GridModel):
    """How far reviewers agree: counts, share of agreement, the chance-corrected statistic
    (``method``: Cohen's kappa or Krippendorff's alpha) and its bootstrap interval."""

    units: int | None = None
    answers: int | None = None
    reviewers: int | None = None
    share_of_agreement: float | None = None
    method: str | None = None
    statistic: float | None = None
    confidence_interval: list[float] | None = None
    confidence_level: float | None = None
    bootstrap_resamples: int | None = None
    bootstrap_seed: int | None = None


class Adjudication(GridModel):
    """The decided severity of a factor the reviewers disagreed on, who decided and why."""

    factor: str | None = None
    severity: str | None = None
    reason: str | None = None
    decided_by: str | None = None
    decided_at: datetime | None = None


class CaseFactor(GridModel):
    """One factor of a case: the screening's severity, each reviewer's, the adjudication."""

    factor: str | None = None
    screening_severity: str | None = None
    answers: dict[str, str | None] = Field(default_factory=dict)
    adjudication: Adjudication | None = None


class ReviewCase(GridModel):
    """A review case; a reviewer's view carries only id, state, due date and reviews."""

    id: str | None = None
    state: str | None = None
    due_date: date | None = None
    allowed_moves: list[str] | None = None
    assessment_id: str | None = None
    reviewers: list[str] | None = None
    created_at: datetime | None = None
    reviews: list[Review] = Field(default_factory=list)
    agreement: ReviewAgreement | None = None
    factors: list[CaseFactor] | None = None
    disagreements: list[str] | None = None


class FactorAgreement(GridModel):
    factor: str | None = None
    agreement: ReviewAgreement | None = None


class ReliabilityBin(GridModel):
    """A band of heuristic confidence: how many labels, and how often experts agreed."""

    range: list[float] | None = None
    count: int | None = None
    mean_heuristic_confidence: float | None = None
    expert_agreement_rate: float | None = None


class FactorCalibration(GridModel):
    """One factor's screening against its adjudicated expert labels."""

    factor: str | None = None
    labels: int | None = None
    minimum_labels: int | None = None
    calibration_status: str | None = None
    heuristic_confidence: float | None = None
    measured_agreement_rate: float | None = None
    brier_score: float | None = None
    # screening severity (or "abstained") -> expert severity -> count
    confusion_matrix: dict[str, dict[str, int]] = Field(default_factory=dict)
    reliability_bins: list[ReliabilityBin] = Field(default_factory=list)


class _ReviewCaseList(GridModel):
    data: list[ReviewCase] = Field(default_factory=list)


class _FactorAgreementList(GridModel):
    data: list[FactorAgreement] = Field(default_factory=list)


class _FactorCalibrationList(GridModel):
    data: list[FactorCalibration] = Field(default_factory=list)


class Reviews(_Resource):
    """Expert review cases and reviews (extension operations)."""

    def _case_path(self, case_id: str, tail: str = "") -> str:
        return f"/v1/review-cases/{a.path_segment('case_id', case_id)}{tail}"

    def _list(self, path: str, wrapper: type[Any]) -> list[Any]:
        response = self._transport.request("GET", path)
        return self._transport.parse_record(response, wrapper, member=None).data

    def send(
        self,
        assessment_id: str,
        *,
        reviewers: Iterable[str],
        due_date: date | str,
        idempotency_key: str | None = None,
    ) -> ReviewCase:
        """Send an assessment for review to two or more reviewers; return the new case."""
        body = {
            "assessmentId": a.check_text("assessment_id", assessment_id, required=True),
            "reviewers": list(reviewers),
            "dueDate": due_date.isoformat() if isinstance(due_date, date) else due_date,
        }
        return self._post("/v1/review-cases", body, ReviewCase, idempotency_key)

    def cases(self) -> list[ReviewCase]:
        """The tenant's review cases, or (for a reviewer's token) those assigned to it."""
        return self._list("/v1/review-cases", _ReviewCaseList)

    def get(self, case_id: str) -> ReviewCase:
        """One review case, as the caller may see it."""
        return self._get(self._case_path(case_id), ReviewCase)

    def move(
        self,
        case_id: str,
        to: str,
        *,
        decided_by: str | None = None,
        decisions: Iterable[Adjudication | dict[str, Any]] = (),
        idempotency_key: str | None = None,
    ) -> ReviewCase:
        """Move a case (``withdrawn``, or ``adjudicated`` with who decided and a decision
        per disagreement); a move the state table forbids raises ``ConflictError``."""
        body: dict[str, Any] = {"to": a.check_text("to", to, required=True)}
        if decided_by is not None:
            body["decidedBy"] = decided_by
        chosen = [
            d if isinstance(d, dict) else d.model_dump(include={"factor", "severity", "reason"})
            for d in decisions
        ]
        if chosen:
            body["decisions"] = chosen
        return self._post(
            self._case_path(case_id, "/transitions"), body, ReviewCase, idempotency_key
        )

    def agreement(self) -> list[FactorAgreement]:
        """Per factor, how far reviewers agree across the tenant's cases."""
        return self._list("/v1/review-cases/agreement", _FactorAgreementList)

    def calibration(self) -> list[FactorCalibration]:
        """Per factor, the screening against its adjudicated expert labels."""
        return self._list("/v1/review-cases/calibration", _FactorCalibrationList)

    def packet(self, case_id: str) -> ExpertReviewPacket:
        """The blinded expert-review packet of a case assigned to the calling reviewer."""
        return self._get(self._case_path(case_id, "/packet"), ExpertReviewPacket)

    def submit(
        self,
        case_id: str,
        submission: ReviewSubmission | dict[str, Any],
        *,
        idempotency_key: str | None = None,
    ) -> Review:
        """Submit the calling reviewer's review; one key makes one review, a later
        submission is an amendment (the next revision)."""
        body = (
            submission
            if isinstance(submission, dict)
            else {
                "factors": [
                    answer.model_dump(
                        by_alias=True,
                        include={
                            "factor",
                            "severity",
                            "evidence_supports",
                            "confidence",
                            "comment",
                        },
                    )
                    for answer in submission.factors
                ],
                "attestation": submission.attestation,
            }
        )
        return self._post(self._case_path(case_id, "/reviews"), body, Review, idempotency_key)

    def upload_packet(
        self, case_id: str, packet: dict[str, Any], *, idempotency_key: str | None = None
    ) -> Review:
        """Submit a completed expert-review packet (in the packet's own shape) as the review."""
        return self._post(
            self._case_path(case_id, "/reviews/packet"), packet, Review, idempotency_key
        )
