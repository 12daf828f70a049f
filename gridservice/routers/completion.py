"""Queue completion (extension): how the projects of a county or radius ended and how long
those that reached commercial operation took, from every harvested monthly report."""

from __future__ import annotations

import json
from typing import Annotated

from fastapi import APIRouter, Path, Query, Request
from starlette.responses import Response

from gridservice.routers.common import StrictQuery, conn_for, problem_responses
from gridservice.routers.completion_models import QueueCompletion
from gridservice.routers.models import OneWithMeta
from gridservice.routers.project_timeline_models import QueueProjectTimeline
from gridservice.routers.sites import EXTENSION
from gridservice.routers.surroundings import RadiusKm
from gridservice.runtime.errors import ApiError
from gridservice.runtime.paging import data_response
from gridservice.screening.completion import queue_completion
from gridservice.screening.project_timeline import project_timeline
from gridservice.screening.surroundings import SurroundingsInputError
from gridservice.store.read_snapshot import read_snapshot

router = APIRouter(tags=["extensions"], dependencies=[StrictQuery], responses=problem_responses())

County = Annotated[
    str | None,
    Query(description="A county's 5-digit FIPS code.", pattern=r"^\d{5}$", max_length=5),
]
Latitude = Annotated[float | None, Query(ge=-90, le=90, description="The site's latitude.")]
Longitude = Annotated[float | None, Query(ge=-180, le=180, description="The site's longitude.")]
Fuel = Annotated[
    str | None,
    Query(max_length=8, description="A fuel code (SOL, WIN, GAS, BAT for battery storage…)."),
]
Cohort = Annotated[
    str | None,
    Query(max_length=16, description="An entry cohort as `byCohort` names it (e.g. 2021)."),
]


@router.get(
    "/v1/queue-history/completion",
    response_model=OneWithMeta[QueueCompletion],
    summary="How a county's or radius's queued projects ended and how long operation took",
    description="Every project a harvested monthly report queues in the county (`county`) or "
    "in the counties within `radius_km` of a point (`latitude`, `longitude`), counted once by "
    "its final word: reached commercial operation, dropped out (inactive or cancelled), still "
    "queued or left unstated; by entry cohort, fuel, county and phase reached, with the "
    "projects behind every count; and Kaplan-Meier curves of the months from entry, from the "
    "IA and from notice to proceed to commercial operation, projects still queued censored.",
    openapi_extra=EXTENSION,
)
def read_queue_completion(
    request: Request,
    county: County = None,
    latitude: Latitude = None,
    longitude: Longitude = None,
    radius_km: RadiusKm = None,
    fuel: Fuel = None,
    cohort: Cohort = None,
) -> Response:
    with read_snapshot(conn_for(request)) as conn:
        try:
            completion = queue_completion(
                conn,
                county=county,
                latitude=latitude,
                longitude=longitude,
                radius_km=radius_km,
                fuel=fuel,
                cohort=cohort,
            )
        except SurroundingsInputError as error:
            errors = [{"field": error.field, "message": error.code}] if error.field else None
            raise ApiError(error.status, error.code, error.detail, errors=errors) from None
    meta = {"extension": True, "locationBasis": "county"}
    return data_response(json.dumps(completion, separators=(",", ":")), meta=meta)


ProjectId = Annotated[
    str,
    Path(
        alias="projectId",
        description="The operator's queue id (ERCOT's INR), in any case.",
        max_length=32,
    ),
]


@router.get(
    "/v1/queue-history/projects/{projectId}",
    response_model=OneWithMeta[QueueProjectTimeline],
    summary="One queued project's timeline across every harvested monthly report",
    description="Every row a harvested monthly report holds for the project (queued, "
    "inactive, cancelled, approved), oldest month first, each with its cell; what changed "
    "from one report to the next (status, county, MW, study phase, projected COD, firmness); "
    "and how it ended, by the same rule as the completion figures.",
    openapi_extra=EXTENSION,
)
def read_project_timeline(request: Request, project_id: ProjectId) -> Response:
    with read_snapshot(conn_for(request)) as conn:
        try:
            timeline = project_timeline(conn, project_id)
        except SurroundingsInputError as error:
            raise ApiError(error.status, error.code, error.detail) from None
    return data_response(json.dumps(timeline, separators=(",", ":")), meta={"extension": True})
