"""Facts: load forecasts and resource adequacy, selectable by validity and knowledge time."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from starlette.responses import Response

from gridservice.routers.common import (
    Cursor,
    FilterText,
    Limit,
    StrictQuery,
    as_date,
    page_response,
    problem_responses,
    utc_instant,
)
from gridservice.routers.models import Fact, Page

router = APIRouter(tags=["facts"], dependencies=[StrictQuery], responses=problem_responses())

ValidAt = Annotated[
    str | None,
    Query(
        max_length=64,
        description="Date or date-time; facts whose [validFrom, validTo] contains it.",
        pattern=r"^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])"
        r"([Tt ]([01]\d|2[0-3]):[0-5]\d(:([0-5]\d|60)(\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})?)?$",
    ),
]
KnownAt = Annotated[
    str | None,
    Query(
        max_length=64,
        description="Date-time (UTC if no offset): facts known then. Default: current knowledge.",
        json_schema_extra={"format": "date-time"},
    ),
]


def _facts(request: Request, collection: str, market, period, valid_at, known_at, cursor, limit):
    filters = {
        "market": market,
        "period": period,
        "valid_at": as_date(valid_at, "valid_at"),
        "known_at": utc_instant(known_at, "known_at"),
    }
    return page_response(request, collection, filters, cursor, limit)


@router.get("/v1/load-forecasts", response_model=Page[Fact], summary="List load-forecast facts")
def list_load_forecasts(
    request: Request,
    market: FilterText = None,
    period: FilterText = None,
    valid_at: ValidAt = None,
    known_at: KnownAt = None,
    cursor: Cursor = None,
    limit: Limit = 100,
) -> Response:
    return _facts(request, "load-forecasts", market, period, valid_at, known_at, cursor, limit)


@router.get(
    "/v1/resource-adequacy", response_model=Page[Fact], summary="List resource-adequacy facts"
)
def list_resource_adequacy(
    request: Request,
    market: FilterText = None,
    period: FilterText = None,
    valid_at: ValidAt = None,
    known_at: KnownAt = None,
    cursor: Cursor = None,
    limit: Limit = 100,
) -> Response:
    return _facts(request, "resource-adequacy", market, period, valid_at, known_at, cursor, limit)
