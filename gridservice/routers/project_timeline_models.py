"""Response schema of one project's timeline across the harvested monthly reports (an
extension; every field present, null when unknown)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from gridservice.routers.completion_models import CompletionWindow, Outcome
from gridservice.routers.surroundings_models import Firmness, SourceCell


class TimelineRow(BaseModel):
    month: str = Field(description="The report's month (YYYY-MM).")
    sheet: Literal["large_gen", "small_gen", "inactive", "cancellation", "commissioning"]
    status: Literal["active", "inactive", "cancelled", "commissioned"]
    milestone: Literal["energization", "synchronization", "commercial_operation"] | None = Field(
        description="The approval a commissioning row names; null elsewhere."
    )
    county: str | None
    countyFips: str | None
    fuel: str | None = Field(description="Fuel code; 'BAT' is battery storage.")
    capacityMw: float | None
    studyPhase: str | None
    projectedCod: str | None
    iaSigned: str | None
    firmness: Firmness
    eventDate: str | None = Field(description="The inactive, cancellation or approval date.")
    source: SourceCell


class TimelineChange(BaseModel):
    month: str = Field(description="The month of the report that first says the new value.")
    field: Literal["status", "county", "capacityMw", "studyPhase", "projectedCod", "firmness"]
    before: Any
    after: Any
    source: SourceCell = Field(description="The row (and column) giving the new value.")


class TimelineOutcome(BaseModel):
    outcome: Outcome
    month: str = Field(description="The month of the report with the project's final word.")
    source: SourceCell = Field(description="The row that gives the final word.")


class QueueProjectTimeline(BaseModel):
    projectId: str
    projectName: str | None
    market: str
    window: CompletionWindow = Field(description="The market's harvested reports.")
    asOf: str = Field(description="The newest report's date: the 'now' of the outcome.")
    monthsListed: int = Field(description="How many monthly reports list the project queued.")
    rows: list[TimelineRow] = Field(description="Every row listing it, oldest month first.")
    changes: list[TimelineChange]
    outcome: TimelineOutcome
