"""Response schema of the queue-completion extension (every field present, null when unknown)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from gridservice.routers.surroundings_models import Firmness, SourceCell

Outcome = Literal["reachedOperation", "droppedOut", "stillQueued", "leftUnstated"]


class OutcomeShare(BaseModel):
    count: int
    share: float | None = Field(description="count / projects; null for a group of none.")
    projectIds: list[str]


class CompletionGroup(BaseModel):
    projects: int
    reachedOperation: OutcomeShare
    droppedOut: OutcomeShare = Field(description="Went inactive or was cancelled.")
    stillQueued: OutcomeShare
    leftUnstated: OutcomeShare = Field(description="Gone from the queue, no event sheet says why.")
    medianMonthsFromEntry: int | None = Field(
        description="Kaplan-Meier median months from entry to commercial operation; null "
        "while fewer than half are estimated to have reached it."
    )


class CohortGroup(CompletionGroup):
    cohort: str = Field(description="Year of entry, or 'by YYYY-MM' when already queued then.")


class FuelGroup(CompletionGroup):
    fuel: str = Field(
        description="Fuel code; 'BAT' is battery storage whatever code a report used."
    )


class CountyGroup(CompletionGroup):
    countyFips: str | None
    county: str | None


class PhaseGroup(CompletionGroup):
    phase: Firmness = Field(description="The furthest step the project's rows show.")


class SurvivalStep(BaseModel):
    months: int
    atRisk: int
    events: int
    censored: int
    notYetOperating: float = Field(description="Estimated share not yet in operation.")


class SurvivalCurve(BaseModel):
    projects: int
    reachedOperation: int
    censored: int
    medianMonths: int | None
    steps: list[SurvivalStep]
    projectIds: list[str]


class TimeToOperation(BaseModel):
    entry: SurvivalCurve
    interconnectionAgreement: SurvivalCurve
    noticeToProceed: SurvivalCurve


class MonthsMeasured(BaseModel):
    months: int
    reachedOperation: bool


class MonthsFrom(BaseModel):
    entry: MonthsMeasured | None
    interconnectionAgreement: MonthsMeasured | None
    noticeToProceed: MonthsMeasured | None


class CompletionProject(BaseModel):
    projectId: str
    projectName: str | None
    countyFips: str | None
    county: str | None
    fuel: str
    capacityMw: float | None
    projectedCod: str | None
    cohort: str
    phaseReached: Firmness
    outcome: Outcome
    outcomeMonth: str = Field(description="Month of the report with the project's final word.")
    synchronisedMonth: str | None = Field(
        description="Newest month a commissioning sheet approves it for synchronisation."
    )
    monthsFrom: MonthsFrom
    source: SourceCell = Field(description="The project's newest queued row in these counties.")


class LikelyGroup(BaseModel):
    fuel: str
    phase: Firmness
    queuedMw: float
    projectIds: list[str]
    completionShare: float | None = Field(
        description="Share of the place's ended projects of this fuel (and phase, by "
        "`shareBasis`) that reached commercial operation; null when too few have ended."
    )
    shareBasis: Literal["fuel_and_phase", "fuel", "too_few_ended"]
    endedProjects: int
    weightedMw: float | None


class FlaggedProjects(BaseModel):
    projects: int
    mw: float
    projectIds: list[str]


class LikelyToBuild(BaseModel):
    label: Literal["heuristic"]
    queuedMw: float
    weightedMw: float = Field(description="Queued MW weighted by historical completion.")
    unweightedMw: float = Field(description="Queued MW of fuels too few of which have ended.")
    byGroup: list[LikelyGroup]
    synchronisedStillQueued: FlaggedProjects = Field(
        description="Approved for synchronisation, yet still listed queued."
    )
    projectedCodPast: FlaggedProjects = Field(
        description="Still queued with a projected COD before the data's as-of date."
    )
    asOf: str
    basis: str


class CompletionPlace(BaseModel):
    basis: Literal["county", "radius"]
    countyFips: list[str]
    latitude: float | None = None
    longitude: float | None = None
    radiusKm: float | None = None


class CompletionWindow(BaseModel):
    firstMonth: str
    lastMonth: str
    reports: int


class CompletionFilters(BaseModel):
    fuel: str | None
    cohort: str | None


class QueueCompletion(BaseModel):
    market: str
    place: CompletionPlace
    filters: CompletionFilters
    window: CompletionWindow
    asOf: str = Field(description="The newest report's date: the 'now' of every figure.")
    all: CompletionGroup
    byCohort: list[CohortGroup]
    byFuel: list[FuelGroup]
    byCounty: list[CountyGroup]
    byPhase: list[PhaseGroup]
    timeToOperation: TimeToOperation
    likelyToBuild: LikelyToBuild
    projects: list[CompletionProject]
    basis: str
