"""Tenant-scoped sites: create (idempotent), read, and list the tenant's sites."""

from __future__ import annotations

import hashlib
import json
import secrets
import sqlite3
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Header, Path, Query, Request
from starlette.responses import Response

from gridservice.geography.markets import market_at
from gridservice.geography.polygon_index import outside_united_states
from gridservice.routers.bounds import servable_body
from gridservice.routers.common import (
    POST_ERRORS,
    Cursor,
    Limit,
    StrictQuery,
    conn_for,
    page_response,
    problem_responses,
)
from gridservice.routers.idempotency import (
    IdempotencyKey,
    dumps,
    require_json,
    run_idempotent,
    utc_now,
)
from gridservice.routers.models import One, Page, Site, SiteWithLatestAssessment
from gridservice.routers.requests import SiteDefinition
from gridservice.routers.summary_models import SiteWithAssessmentSummary
from gridservice.runtime.errors import ApiError
from gridservice.runtime.paging import data_response
from gridservice.screening.assessment_summary import latest_summaries
from gridservice.screening.site_changes import newer_data_since
from gridservice.security.auth import Tenant
from gridservice.store import tenancy

router = APIRouter(tags=["sites"], dependencies=[StrictQuery], responses=problem_responses())
EXTENSION = {"x-extension": True}

SiteId = Annotated[str, Path(alias="siteId", max_length=200)]
LATEST_ASSESSMENT = "latest_assessment"
LATEST_SUMMARY = "latest_assessment_summary"
Include = Annotated[
    Literal["latest_assessment", "latest_assessment_summary"] | None,
    Query(
        description="`latest_assessment`: each site also carries `latestAssessment`, its newest "
        "assessment or null; `latest_assessment_summary`: `latestAssessmentSummary` instead, "
        "the few figures a portfolio table shows of it (about 1 KiB a site, not the whole "
        "assessment). Both add `newerDataSinceAssessment` (an extension: one request instead "
        "of one per site).",
        json_schema_extra={"x-extension": True},
    ),
]

Archived = Annotated[
    Literal["exclude", "include", "only"],
    Query(
        description="Archived sites (PATCH `archived: true`): `exclude` (default) leaves them "
        "out, `include` lists them too, `only` lists just them (an extension).",
        json_schema_extra={"x-extension": True},
    ),
]


def site_record(
    definition: SiteDefinition,
    *,
    site_id: str,
    tenant_id: str,
    created_at: str,
    market: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Return the wire site: every documented field present, null when not given, and the
    market region its point is in (an extension)."""
    d = definition.model_dump()
    return {
        "id": site_id,
        "tenantId": tenant_id,
        "customerReference": d["customerReference"],
        "createdAt": created_at,
        "metadata": d["metadata"],
        "requestedPeakLoadMw": d["requestedPeakLoadMw"],
        "averageLoadMw": d["averageLoadMw"],
        "serviceVoltageKv": d["serviceVoltageKv"],
        "curtailableMw": d["curtailableMw"],
        "targetInServiceDate": d["targetInServiceDate"],
        "loadProfile": d["loadProfile"],
        "redundancy": d["redundancy"],
        "rampProfile": d["rampProfile"],
        "onSiteGeneration": d["onSiteGeneration"],
        "energyStorage": d["energyStorage"],
        "location": d["location"],
        "address": d["address"],
        "market": market,
        "archivedAt": None,
    }


def refuse_point_abroad(conn: sqlite3.Connection, latitude: float, longitude: float) -> None:
    """Refuse (422) a point in no US state outline, when the store holds the whole country's."""
    if outside_united_states(conn, latitude, longitude):
        raise ApiError(
            422,
            "location_outside_united_states",
            f"The point (latitude {latitude:g}, longitude {longitude:g}) is outside the United "
            "States (in no US state or territory, or at sea): the data covers US sites only. "
            "Check the latitude and longitude, and their signs.",
            errors=[
                {"field": "location.latitude", "message": "outside the United States"},
                {"field": "location.longitude", "message": "outside the United States"},
            ],
        )


def tenant_site(request: Request, site_id: str, tenant_id: str) -> str:
    """Return the JSON of a tenant's site as served (degraded where its stored form breaks
    the bounds, `routers.bounds`), or 404 (also for another tenant's site)."""
    body = tenancy.tenant_record(conn_for(request), "site", site_id, tenant_id)
    if body is None:
        raise ApiError(404, "site_not_found", f"No site {site_id!r} for this tenant.")
    return servable_body(body)


@router.post(
    "/v1/sites",
    status_code=201,
    response_model=One[Site],
    summary="Create a site",
    responses=problem_responses(POST_ERRORS),
    dependencies=[Depends(require_json)],
)
def create_site(
    request: Request,
    tenant: Tenant,
    definition: SiteDefinition,
    idempotency_key: IdempotencyKey,
) -> Response:
    raw = definition.model_dump(exclude_unset=True)
    latitude, longitude = definition.location.latitude, definition.location.longitude
    refuse_point_abroad(conn_for(request), latitude, longitude)
    market = market_at(conn_for(request), latitude, longitude)

    def work(conn) -> str:
        site = site_record(
            definition,
            site_id="site_" + secrets.token_hex(10),
            tenant_id=tenant,
            created_at=utc_now(),
            market=market,
        )
        text = dumps(site)
        tenancy.insert_site(conn, site["id"], tenant, site["createdAt"], text)
        return '{"data":' + text + "}"

    return run_idempotent(
        request,
        tenant_id=tenant,
        operation="POST /v1/sites",
        key=idempotency_key,
        body=raw,
        work=work,
    )


@router.get(
    "/v1/sites",
    response_model=Page[Site] | Page[SiteWithLatestAssessment] | Page[SiteWithAssessmentSummary],
    summary="List the tenant's sites",
    tags=["extensions"],
    openapi_extra=EXTENSION,
)
def list_sites(
    request: Request,
    tenant: Tenant,
    cursor: Cursor = None,
    limit: Limit = 100,
    include: Include = None,
    archived: Archived = "exclude",
) -> Response:
    bodies_of = _served_bodies
    if include == LATEST_ASSESSMENT:

        def bodies_of(rows: list[tuple[str, str]]) -> list[str]:
            conn = conn_for(request)
            latest = tenancy.latest_assessments(conn, tenant, [r[0] for r in rows])
            newer = newer_data_since(conn, {k: json.loads(v) for k, v in latest.items()})
            return [
                with_latest_assessment(servable_body(body), latest.get(site_id), newer.get(site_id))
                for site_id, body in rows
            ]

    elif include == LATEST_SUMMARY:

        def bodies_of(rows: list[tuple[str, str]]) -> list[str]:
            conn = conn_for(request)
            latest = latest_summaries(conn, tenant, [r[0] for r in rows])
            newer = newer_data_since(conn, {k: basis for k, (_, basis) in latest.items()})
            return [
                with_members(
                    servable_body(body),
                    latestAssessmentSummary=latest.get(site_id, ("null",))[0],
                    newerDataSinceAssessment=_compact(newer.get(site_id)),
                )
                for site_id, body in rows
            ]

    filters = {"tenant_id": tenant, "archived": archived}
    return page_response(request, "sites", filters, cursor, limit, bodies_of)


def _served_bodies(rows: list[tuple[str, str]]) -> list[str]:
    """Return the page's site bodies as served: one that breaks the bounds is degraded, not
    allowed to fail the page."""
    return [servable_body(body) for _, body in rows]


def _compact(value: object) -> str:
    return json.dumps(value, separators=(",", ":"))


def with_members(site_body: str, **members: str) -> str:
    """Return the stored site JSON with each member (name: its JSON text) spliced in."""
    return site_body.rstrip()[:-1] + "".join(f',"{k}":{v}' for k, v in members.items()) + "}"


def with_latest_assessment(
    site_body: str, assessment_body: str | None, newer_data: dict | None = None
) -> str:
    """Return the stored site JSON with `latestAssessment` and `newerDataSinceAssessment`
    spliced in (null when there is no assessment)."""
    return with_members(
        site_body,
        latestAssessment=assessment_body or "null",
        newerDataSinceAssessment=_compact(newer_data),
    )


IfMatch = Annotated[
    str | None,
    Header(
        alias="If-Match",
        description="The `ETag` of the site as you read it (GET or a PATCH's answer): the "
        "change is applied only if the site is still that version, else 412 "
        "`precondition_failed` (an extension). `*` or no header: applied to whatever is there.",
        json_schema_extra={"x-extension": True},
    ),
]
# The 200 answer of GET and PATCH of one site: its ETag header (an extension).
SITE_ETAG_RESPONSE = {
    200: {
        "headers": {
            "ETag": {
                "description": "The version of the site (a strong entity tag, a hash of the "
                "answer's bytes); send it back in `If-Match` to PATCH only that version.",
                "schema": {"type": "string"},
                "x-extension": True,
            }
        }
    }
}


def answer_etag(answer: bytes) -> str:
    """Return the strong ETag of a site's answer (`{"data": site}`): its SHA-256, quoted."""
    return '"' + hashlib.sha256(answer).hexdigest()[:32] + '"'


def site_etag(site_json: str) -> str:
    """Return the ETag a site stored as `site_json` is answered with (GET, PATCH)."""
    return answer_etag(('{"data":' + site_json + "}").encode("utf-8"))


def if_match_holds(if_match: str, etag: str) -> bool:
    """Return whether an `If-Match` value lets a change of the version `etag` go ahead:
    `*`, or one of its comma-separated tags equal to it (strong comparison, RFC 9110)."""
    tags = [tag.strip() for tag in if_match.split(",")]
    return "*" in tags or etag in tags


@router.get(
    "/v1/sites/{siteId}",
    response_model=One[Site],
    summary="Read a site",
    responses=SITE_ETAG_RESPONSE,
)
def read_site(request: Request, tenant: Tenant, site_id: SiteId) -> Response:
    response = data_response(tenant_site(request, site_id, tenant))
    response.headers["ETag"] = answer_etag(response.body)
    return response
