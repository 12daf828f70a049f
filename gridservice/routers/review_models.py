"""Review cases on the wire: what an analyst and a reviewer send, and what they get back."""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    field_validator,
    model_validator,
)

from gridservice.routers.bounds import NulFree, Text200
from gridservice.routers.requests import FORBID, CalendarDate
from gridservice.screening.factors import FACTORS

# A reviewer's name is what `gridservice tokens create --reviewer` was given.
ReviewerName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")]
Severity = Literal["low", "medium", "high"]
Comment = Annotated[str, StringConstraints(max_length=4000), NulFree]
Factor = Literal[FACTORS]  # type: ignore[valid-type]
Opaque = dict[str, Any]


class ReviewCaseRequest(BaseModel):
    """An assessment sent for review to two or more named reviewers by a due date."""

    model_config = FORBID
    assessmentId: Annotated[str, StringConstraints(max_length=200), NulFree]
    reviewers: list[ReviewerName] = Field(
        min_length=2, max_length=12, json_schema_extra={"uniqueItems": True}
    )
    dueDate: CalendarDate

    @model_validator(mode="after")
    def _distinct_reviewers_and_real_date(self) -> ReviewCaseRequest:
        if len(set(self.reviewers)) != len(self.reviewers):
            raise ValueError("reviewers: each reviewer is named once")
        try:
            dt.date.fromisoformat(self.dueDate)
        except ValueError as error:
            raise ValueError(f"dueDate: not a calendar date ({error})") from None
        return self


class FactorAnswer(BaseModel):
    """A reviewer's answer on one factor of the assessment."""

    model_config = FORBID
    factor: Factor
    severity: Severity | None = Field(description="Null: the reviewer cannot judge it.")
    evidenceSupports: bool
    confidence: Literal["low", "medium", "high"]
    comment: Comment | None = None


class ReviewAttestation(BaseModel):
    model_config = FORBID
    noConflictOfInterest: Literal[True]
    evidenceChecked: Literal[True]


def _one_answer_per_factor(factors: list[str]) -> None:
    """Raise ValueError naming the factors missing or repeated."""
    missing = [f for f in FACTORS if f not in factors]
    repeated = sorted({f for f in factors if factors.count(f) > 1})
    if missing or repeated:
        raise ValueError(
            f"factors: one answer per factor of the assessment; missing {missing}, "
            f"repeated {repeated}"
        )


class ReviewSubmission(BaseModel):
    """A reviewer's review: one answer per factor and the attestation."""

    model_config = FORBID
    factors: list[FactorAnswer] = Field(min_length=1, max_length=len(FACTORS))
    attestation: ReviewAttestation

    @field_validator("factors")
    @classmethod
    def _every_factor_once(cls, factors: list[FactorAnswer]) -> list[FactorAnswer]:
        # A field validator, so the refusal names `factors`.
        _one_answer_per_factor([a.factor for a in factors])
        return factors


class PacketRubricItem(BaseModel):
    """A rubric item of a completed packet; items other than the factors are not answers."""

    model_config = ConfigDict(extra="ignore", strict=True, allow_inf_nan=False)
    criterion: Annotated[str, StringConstraints(max_length=64), NulFree]
    severity: Severity | None = None
    evidenceSupports: bool | None = None
    confidence: Literal["low", "medium", "high"] | None = None
    comment: Comment | None = None


class PacketAttestation(BaseModel):
    model_config = ConfigDict(extra="ignore", strict=True)
    noConflictOfInterest: Literal[True]
    evidenceChecked: Literal[True]


class CompletedPacket(BaseModel):
    """A completed expert-review packet, in the packet's own shape (other members ignored)."""

    model_config = ConfigDict(extra="ignore", strict=True, allow_inf_nan=False)
    caseId: Annotated[str, StringConstraints(max_length=64), NulFree]
    rubric: list[PacketRubricItem] = Field(max_length=32)
    attestation: PacketAttestation

    @field_validator("rubric")
    @classmethod
    def _every_factor_answered(cls, rubric: list[PacketRubricItem]) -> list[PacketRubricItem]:
        _one_answer_per_factor([i.criterion for i in rubric if i.criterion in FACTORS])
        for index, item in enumerate(rubric):
            if item.criterion in FACTORS and (
                item.evidenceSupports is None or item.confidence is None
            ):
                raise ValueError(
                    f"item {index}: evidenceSupports and confidence are required "
                    f"for {item.criterion}"
                )
        return rubric

    def as_submission(self) -> ReviewSubmission:
        """Return the review this packet carries."""
        return ReviewSubmission(
            factors=[
                FactorAnswer(
                    factor=item.criterion,
                    severity=item.severity,
                    evidenceSupports=bool(item.evidenceSupports),
                    confidence=item.confidence or "low",
                    comment=item.comment,
                )
                for item in self.rubric
                if item.criterion in FACTORS
            ],
            attestation=ReviewAttestation(noConflictOfInterest=True, evidenceChecked=True),
        )


class AdjudicationDecision(BaseModel):
    model_config = FORBID
    factor: Factor
    severity: Severity
    reason: Annotated[str, StringConstraints(min_length=1, max_length=4000), NulFree]


class CaseTransition(BaseModel):
    """A move of a review case; to `adjudicated` it carries who decided and the decisions."""

    model_config = FORBID
    to: Literal["unreviewed", "in_review", "reviewed", "adjudicated", "withdrawn"]
    decidedBy: Text200 | None = None
    decisions: list[AdjudicationDecision] = Field(default_factory=list, max_length=len(FACTORS))


class Review(BaseModel):
    id: str
    caseId: str
    reviewer: str
    revision: int
    submittedAt: str
    source: str
    factors: list[Opaque]
    attestation: Opaque


class Agreement(BaseModel):
    units: int
    answers: int
    reviewers: int
    shareOfAgreement: float | None
    method: str
    statistic: float | None
    confidenceInterval: list[float] | None
    confidenceLevel: float
    bootstrapResamples: int
    bootstrapSeed: int


class ReviewCase(BaseModel):
    id: str
    state: str
    dueDate: str
    allowedMoves: list[str] | None = None
    assessmentId: str | None = None
    reviewers: list[str] | None = None
    createdAt: str | None = None
    reviews: list[Review]
    agreement: Agreement | None = None
    factors: list[Opaque] | None = None
    disagreements: list[str] | None = None


class FactorAgreement(BaseModel):
    factor: str
    agreement: Agreement


class FactorCalibration(BaseModel):
    factor: str
    labels: int
    minimumLabels: int
    calibrationStatus: str
    heuristicConfidence: float | None
    measuredAgreementRate: float | None
    brierScore: float | None
    confusionMatrix: Opaque
    reliabilityBins: list[Opaque]
