"""Hourly balancing-authority operations, transmission projects and docket filings."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query, Request
from starlette.responses import Response

from gridservice.routers.common import (
    Cursor,
    FilterText,
    Limit,
    StrictQuery,
    page_response,
    problem_responses,
    utc_instant,
)
from gridservice.routers.models import (
    BalancingAuthorityOperation,
    DocketFiling,
    Page,
    TransmissionProject,
)

router = APIRouter(tags=["grid"], dependencies=[StrictQuery], responses=problem_responses())

Instant = Annotated[
    str | None,
    Query(
        max_length=64,
        description="ISO 8601 date-time, UTC unless an offset is given.",
        json_schema_extra={"format": "date-time"},
    ),
]


@router.get(
    "/v1/balancing-authority-operations",
    response_model=Page[BalancingAuthorityOperation],
    summary="List hourly balancing-authority operations",
)
def list_ba_operations(
    request: Request,
    ba_code: FilterText = None,
    region: FilterText = None,
    start: Instant = None,
    end: Instant = None,
    cursor: Cursor = None,
    limit: Limit = 100,
) -> Response:
    filters = {
        "ba_code": ba_code,
        "region": region,
        "start": utc_instant(start, "start"),
        "end": utc_instant(end, "end"),
    }
    return page_response(request, "balancing-authority-operations", filters, cursor, limit)


@router.get(
    "/v1/transmission-projects",
    response_model=Page[TransmissionProject],
    summary="List transmission projects",
)
def list_transmission_projects(
    request: Request,
    county: FilterText = None,
    status: FilterText = None,
    cursor: Cursor = None,
    limit: Limit = 100,
) -> Response:
    filters = {"county": county, "status": status}
    return page_response(request, "transmission-projects", filters, cursor, limit)


@router.get(
    "/v1/dockets/{controlNumber}/filings",
    response_model=Page[DocketFiling],
    summary="List a docket's filings",
)
def list_docket_filings(
    request: Request,
    control_number: Annotated[str, Path(alias="controlNumber", max_length=200)],
    cursor: Cursor = None,
    limit: Limit = 100,
) -> Response:
    return page_response(
        request, "docket-filings", {"control_number": control_number}, cursor, limit
    )
