"""A site's surroundings (extension): the counties within a radius, their queue, grid and
plants, how the queue moved between two harvested reports, and dropout rates."""

from __future__ import annotations

import json
import re
from typing import Annotated, Literal

from fastapi import APIRouter, Query, Request
from starlette.responses import Response

from gridservice.geography.markets import market_at
from gridservice.routers.common import (
    Cursor,
    Limit,
    StrictQuery,
    codec,
    conn_for,
    cursor_after,
    problem_responses,
)
from gridservice.routers.models import OneWithMeta, Page
from gridservice.routers.sites import EXTENSION, SiteId, tenant_site
from gridservice.routers.surroundings_models import (
    ChangedProject,
    EnteredProject,
    LeftProject,
    QueueProject,
    SiteSurroundings,
)
from gridservice.runtime.errors import ApiError
from gridservice.runtime.paging import (
    ORDER_ID_ASC,
    data_response,
    envelope_bytes,
    json_bytes_response,
)
from gridservice.screening.surroundings import (
    DEFAULT_RADIUS_KM,
    MAX_RADIUS_KM,
    SurroundingsInputError,
    site_surroundings,
)
from gridservice.screening.surroundings_lists import (
    LIST_LIMIT,
    add_record_ids,
    bound_surroundings,
    listed_projects,
    page_after,
    project_key,
    project_list,
)
from gridservice.security.auth import Tenant
from gridservice.store.read_snapshot import read_snapshot

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


ListName = Annotated[
    Literal["queue", "entered", "left", "changed"],
    Query(
        alias="list",
        description="`queue`: a county's active projects in the newest report (needs `county`); "
        "`entered`, `left`, `changed`: the changes between the `from` and `to` reports.",
    ),
]
CountyFips = Annotated[
    str | None,
    Query(
        alias="county",
        max_length=5,
        description="A county's FIPS code: the list's projects in that county only (`queue`: "
        "default the site's county; a county outside the radius lists none).",
    ),
]
PROJECTS_PATH = "/v1/sites/{siteId}/surroundings/projects"


def _month(value: str | None, name: str) -> str | None:
    if value is not None and not _MONTH.match(value):
        raise ApiError(
            400,
            "invalid_parameter",
            f"{name} must be a month, YYYY-MM (e.g. 2025-11).",
            errors=[{"field": name, "message": "not a YYYY-MM month"}],
        )
    return value


def _surroundings(
    request: Request,
    site: dict,
    radius_km: float | None,
    from_month: str | None,
    to_month: str | None,
    summaries: int | None = None,
) -> dict:
    """Return the full (unbounded) surroundings, the first `summaries` of each list
    described (None: all), or the problem the input is."""
    try:
        return site_surroundings(
            conn_for(request),
            site,
            radius_km=radius_km,
            from_month=_month(from_month, "from"),
            to_month=_month(to_month, "to"),
            summaries=summaries,
        )
    except SurroundingsInputError as error:
        errors = [{"field": error.field, "message": error.code}] if error.field else None
        raise ApiError(error.status, error.code, error.detail, errors=errors) from None


def _list_filters(
    site_id: str, tenant: str, name: str, county: str | None, query: dict
) -> dict[str, object]:
    """Return what a list's cursor is bound to: the site, tenant, list and the query."""
    return {"site": site_id, "tenant": tenant, "list": name, "county": county, **query}


def _point(site: dict) -> tuple[float, float]:
    return float(site["location"]["latitude"]), float(site["location"]["longitude"])


def _states(surroundings: dict) -> dict[str, str]:
    return {c["countyFips"]: c["state"] for c in surroundings["counties"]}


@router.get(
    "/v1/sites/{siteId}/surroundings",
    response_model=OneWithMeta[SiteSurroundings],
    summary="A site's surroundings: nearby counties' queue, grid, plants, changes, dropout",
    description="Counties whose Census boundary lies within `radius_km` of the site, each with "
    "the queue of the newest harvested report (count and MW by fuel and firmness), the "
    "interconnection points the queue names by kV, and the nearest plants; the projects that "
    "entered, left and changed between two harvested reports, each change citing both source "
    "cells; dropout rates by fuel and county. Queue figures are placed by county "
    "(`locationBasis: county`), plants by coordinates. Each project list names its first "
    "25 projects by queue id (`lists` says how many there are and where the rest is: "
    "`/v1/sites/{siteId}/surroundings/projects`); every count and MW figure counts them all.",
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
    cursors = codec(request)
    with read_snapshot(conn_for(request)) as conn:
        # Only the listed projects are described: the rest are counted and paged past.
        surroundings = _surroundings(request, site, radius_km, from_month, to_month, LIST_LIMIT)
        query = {"radius_km": surroundings["radiusKm"], "from": from_month, "to": to_month}

        def sign(name: str, county: str | None, last_key: str) -> str:
            filters = _list_filters(site_id, tenant, name, county, query)
            return cursors.encode(PROJECTS_PATH, filters, [last_key])

        bound_surroundings(surroundings, query, sign)
        projects = listed_projects(surroundings)
        add_record_ids(conn, surroundings["market"], projects, _states(surroundings))
        surroundings["marketRegion"] = market_at(conn, *_point(site))
    meta = {
        "extension": True,
        "locationBasis": {"queue": "county", "plants": "coordinates"},
    }
    return data_response(json.dumps(surroundings, separators=(",", ":")), meta=meta)


@router.get(
    PROJECTS_PATH,
    response_model=Page[EnteredProject | LeftProject | ChangedProject | QueueProject],
    summary="One list of a site's surroundings, page by page",
    description="Every project of one list of `GET /v1/sites/{siteId}/surroundings` (with the "
    "same `radius_km`, `from` and `to`), keyset-paged by queue id: the surroundings list the "
    "first 25 and give the `nextCursor` of the page after them. `queue` is one county's active "
    "projects in the newest report (`county`, default the site's); `entered`, `left` and `changed` the changes between the "
    "two reports. Each project carries its `recordId` (null when no queue record is held).",
    openapi_extra=EXTENSION,
)
def read_surroundings_projects(
    request: Request,
    tenant: Tenant,
    site_id: SiteId,
    list_name: ListName = "queue",
    county: CountyFips = None,
    radius_km: RadiusKm = None,
    from_month: FromMonth = None,
    to_month: ToMonth = None,
    cursor: Cursor = None,
    limit: Limit = 100,
) -> Response:
    site = json.loads(tenant_site(request, site_id, tenant))
    with read_snapshot(conn_for(request)) as conn:
        surroundings = _surroundings(request, site, radius_km, from_month, to_month)
        query = {"radius_km": surroundings["radiusKm"], "from": from_month, "to": to_month}
        filters = _list_filters(site_id, tenant, list_name, county, query)
        after = cursor_after(request, cursor, PROJECTS_PATH, filters)
        page, has_more = page_after(project_list(surroundings, list_name, county), after, limit)
        add_record_ids(conn, surroundings["market"], page, _states(surroundings))
    next_cursor = (
        codec(request).encode(PROJECTS_PATH, filters, [project_key(page[-1])]) if has_more else None
    )
    bodies = [json.dumps(p, separators=(",", ":")) for p in page]
    return json_bytes_response(
        envelope_bytes(
            bodies, limit=limit, has_more=has_more, next_cursor=next_cursor, order=ORDER_ID_ASC
        )
    )
