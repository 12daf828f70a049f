"""A site's surroundings (extension): the counties within a radius, their queue, grid and
plants, how the queue moved between two harvested reports, and dropout rates."""

from __future__ import annotations

import json
import re
from typing import Annotated

from fastapi import APIRouter, Query, Request
from starlette.responses import Response

from gridservice.auth import Tenant
from gridservice.errors import ApiError
from gridservice.paging import data_response
from gridservice.routers.common import StrictQuery, conn_for, problem_responses
from gridservice.routers.models import OneWithMeta
from gridservice.routers.sites import EXTENSION, SiteId, tenant_site
from gridservice.routers.surroundings_models import SiteSurroundings
from gridservice.screening.surroundings import (
    DEFAULT_RADIUS_KM,
    MAX_RADIUS_KM,
    SurroundingsInputError,
    site_surroundings,
)

router = APIRouter(tags=["extensions"], dependencies=[StrictQuery], responses=problem_responses())

_MONTH = re.compile(r"^\d{4}-(0[1-9]|1[0-2])$")
MONTH_SCHEMA = {"pattern": r"^\d{4}-(0[1-9]|1[0-2])$"}

RadiusKm = Annotated[
    float | None,
    Query(
        description=f"Radius in km, 0 to {MAX_RADIUS_KM:g} (default {DEFAULT_RADIUS_KM:g}); "
        "a radius outside that range is refused with 422 `radius_out_of_range`.",
        json_schema_extra={"minimum": 0, "maximum": MAX_RADIUS_KM},
    ),
]
FromMonth = Annotated[
    str | None,
    Query(
        alias="from",
        max_length=7,
        description="Earlier harvested report month, YYYY-MM (default: twelve months before "
        "`to`, or the oldest harvested month after that).",
        json_schema_extra=MONTH_SCHEMA,
    ),
]
ToMonth = Annotated[
    str | None,
    Query(
        alias="to",
        max_length=7,
        description="Later harvested report month, YYYY-MM (default: the newest).",
        json_schema_extra=MONTH_SCHEMA,
    ),
]


def _month(value: str | None, name: str) -> str | None:
    if value is not None and not _MONTH.match(value):
        raise ApiError(
            400,
            "invalid_parameter",
            f"{name} must be a month, YYYY-MM (e.g. 2025-11).",
            errors=[{"field": name, "message": "not a YYYY-MM month"}],
        )
    return value


@router.get(
    "/v1/sites/{siteId}/surroundings",
    response_model=OneWithMeta[SiteSurroundings],
    summary="A site's surroundings: nearby counties' queue, grid, plants, changes, dropout",
    description="Counties whose Census boundary lies within `radius_km` of the site, each with "
    "the queue of the newest harvested report (count and MW by fuel and firmness), the "
    "interconnection points the queue names by kV, and the nearest plants; the projects that "
    "entered, left and changed between two harvested reports, each change citing both source "
    "cells; dropout rates by fuel and county. Queue figures are placed by county "
    "(`locationBasis: county`), plants by coordinates.",
    openapi_extra=EXTENSION,
)
def read_surroundings(
    request: Request,
    tenant: Tenant,
    site_id: SiteId,
    radius_km: RadiusKm = None,
    from_month: FromMonth = None,
    to_month: ToMonth = None,
) -> Response:
    site = json.loads(tenant_site(request, site_id, tenant))
    try:
        surroundings = site_surroundings(
            conn_for(request),
            site,
            radius_km=radius_km,
            from_month=_month(from_month, "from"),
            to_month=_month(to_month, "to"),
        )
    except SurroundingsInputError as error:
        errors = [{"field": error.field, "message": error.code}] if error.field else None
        raise ApiError(error.status, error.code, error.detail, errors=errors) from None
    meta = {
        "extension": True,
        "locationBasis": {"queue": "county", "plants": "coordinates"},
    }
    return data_response(json.dumps(surroundings, separators=(",", ":")), meta=meta)
