"""Typed records and the resource of queue history (extensions): completion
(``/v1/queue-history/completion``), how the projects a county's or radius's harvested
monthly reports queued ended, and the Kaplan-Meier months from entry, IA and notice to
proceed to commercial operation, every count listing its projects (``project_ids``); and one
project's timeline across the reports (``/v1/queue-history/projects/{projectId}``)."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from gridclient import _args as a
from gridclient._base import GridModel
from gridclient._resources import _Resource
from gridclient._surroundings import SourceCell


class OutcomeShare(GridModel):
    count: int | None = None
    share: float | None = None
    project_ids: list[str] = Field(default_factory=list)


class CompletionGroup(GridModel):
    """A group's projects by outcome: reached operation, dropped out (inactive or cancelled),
    still queued, left unstated; and the median months from entry to operation."""

    projects: int | None = None
    reached_operation: OutcomeShare | None = None
    dropped_out: OutcomeShare | None = None
    still_queued: OutcomeShare | None = None
    left_unstated: OutcomeShare | None = None
    median_months_from_entry: int | None = None
    # The group's key: one of these is set, by the list it is in.
    cohort: str | None = None
    fuel: str | None = None
    county_fips: str | None = None
    county: str | None = None
    phase: str | None = None


class SurvivalStep(GridModel):
    months: int | None = None
    at_risk: int | None = None
    events: int | None = None
    censored: int | None = None
    not_yet_operating: float | None = None


class SurvivalCurve(GridModel):
    projects: int | None = None
    reached_operation: int | None = None
    censored: int | None = None
    median_months: int | None = None
    steps: list[SurvivalStep] = Field(default_factory=list)
    project_ids: list[str] = Field(default_factory=list)


class TimeToOperation(GridModel):
    entry: SurvivalCurve | None = None
    interconnection_agreement: SurvivalCurve | None = None
    notice_to_proceed: SurvivalCurve | None = None


class MonthsMeasured(GridModel):
    months: int | None = None
    reached_operation: bool | None = None


class MonthsFrom(GridModel):
    entry: MonthsMeasured | None = None
    interconnection_agreement: MonthsMeasured | None = None
    notice_to_proceed: MonthsMeasured | None = None


class CompletionProject(GridModel):
    project_id: str | None = None
    project_name: str | None = None
    county_fips: str | None = None
    county: str | None = None
    fuel: str | None = None
    capacity_mw: float | None = None
    projected_cod: str | None = None
    cohort: str | None = None
    phase_reached: str | None = None
    outcome: str | None = None
    outcome_month: str | None = None
    synchronised_month: str | None = None
    months_from: MonthsFrom | None = None
    source: SourceCell | None = None


class LikelyGroup(GridModel):
    fuel: str | None = None
    phase: str | None = None
    queued_mw: float | None = None
    project_ids: list[str] = Field(default_factory=list)
    completion_share: float | None = None
    share_basis: str | None = None
    ended_projects: int | None = None
    weighted_mw: float | None = None


class FlaggedProjects(GridModel):
    projects: int | None = None
    mw: float | None = None
    project_ids: list[str] = Field(default_factory=list)


class LikelyToBuild(GridModel):
    """Queued MW weighted by the historical completion of the same fuel and phase: a
    heuristic (``label``), with its ``basis``; and the two flags."""

    label: str | None = None
    queued_mw: float | None = None
    weighted_mw: float | None = None
    unweighted_mw: float | None = None
    by_group: list[LikelyGroup] = Field(default_factory=list)
    synchronised_still_queued: FlaggedProjects | None = None
    projected_cod_past: FlaggedProjects | None = None
    as_of: str | None = None
    basis: str | None = None


class CompletionWindow(GridModel):
    first_month: str | None = None
    last_month: str | None = None
    reports: int | None = None


class QueueCompletion(GridModel):
    """Completion of a county's or radius's queued projects, every figure with its projects."""

    market: str | None = None
    place: dict | None = None
    filters: dict | None = None
    window: CompletionWindow | None = None
    as_of: str | None = None
    all: CompletionGroup | None = None
    by_cohort: list[CompletionGroup] = Field(default_factory=list)
    by_fuel: list[CompletionGroup] = Field(default_factory=list)
    by_county: list[CompletionGroup] = Field(default_factory=list)
    by_phase: list[CompletionGroup] = Field(default_factory=list)
    time_to_operation: TimeToOperation | None = None
    likely_to_build: LikelyToBuild | None = None
    projects: list[CompletionProject] = Field(default_factory=list)
    basis: str | None = None


class TimelineRow(GridModel):
    """One row a monthly report holds for the project (queued, inactive, cancelled or an
    approval), with its cell."""

    month: str | None = None
    sheet: str | None = None
    status: str | None = None
    milestone: str | None = None
    county: str | None = None
    county_fips: str | None = None
    fuel: str | None = None
    capacity_mw: float | None = None
    study_phase: str | None = None
    projected_cod: str | None = None
    ia_signed: str | None = None
    firmness: str | None = None
    event_date: str | None = None
    source: SourceCell | None = None


class TimelineChange(GridModel):
    """A value that changed from one report to the next, with the row giving the new one."""

    month: str | None = None
    field: str | None = None
    before: Any = None
    after: Any = None
    source: SourceCell | None = None


class TimelineOutcome(GridModel):
    outcome: str | None = None
    month: str | None = None
    source: SourceCell | None = None


class QueueProjectTimeline(GridModel):
    """One project across the harvested monthly reports: its rows, changes and outcome."""

    project_id: str | None = None
    project_name: str | None = None
    market: str | None = None
    window: CompletionWindow | None = None
    as_of: str | None = None
    months_listed: int | None = None
    rows: list[TimelineRow] = Field(default_factory=list)
    changes: list[TimelineChange] = Field(default_factory=list)
    outcome: TimelineOutcome | None = None


class QueueHistory(_Resource):
    def completion(
        self,
        *,
        county: str | None = None,
        latitude: float | None = None,
        longitude: float | None = None,
        radius_km: float | None = None,
        fuel: str | None = None,
        cohort: str | int | None = None,
    ) -> QueueCompletion:
        """How the projects queued in a county (``county``, a FIPS code) or within
        ``radius_km`` of a point ended, and how long operation took (extension operation).

        ``fuel`` (a code: ``SOL``, ``WIN``, ``BAT`` for battery storage…) and ``cohort``
        (an entry year) narrow the projects.
        """
        params = a.query(
            county=a.check_text("county", county),
            latitude=None if latitude is None else a.check_coordinate("latitude", latitude, 90),
            longitude=(
                None if longitude is None else a.check_coordinate("longitude", longitude, 180)
            ),
            radius_km=a.check_number("radius_km", radius_km),
            fuel=a.check_text("fuel", fuel),
            cohort=None if cohort is None else a.check_text("cohort", str(cohort)),
        )
        response = self._transport.request("GET", "/v1/queue-history/completion", params=params)
        return self._transport.parse_record(response, QueueCompletion)

    def project_timeline(self, project_id: str) -> QueueProjectTimeline:
        """Return one project (its queue id, any case) across every harvested monthly report:
        each row listing it, what changed from report to report, and how it ended (extension
        operation); a project no report lists raises ``NotFoundError``."""
        segment = a.path_segment("project_id", project_id)
        response = self._transport.request("GET", f"/v1/queue-history/projects/{segment}")
        return self._transport.parse_record(response, QueueProjectTimeline)


__all__ = [
    "CompletionGroup",
    "CompletionProject",
    "LikelyToBuild",
    "QueueCompletion",
    "QueueHistory",
    "QueueProjectTimeline",
    "SurvivalCurve",
    "TimelineRow",
]
