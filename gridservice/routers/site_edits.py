"""Tidy a portfolio (extension): rename and archive a site, and read who changed what when.

A PATCH is idempotent with `Idempotency-Key` like every write; each one that changes
something leaves a revision (when, which tenant and token, each member's old and new value).
It reads, changes and writes the site in one transaction with the site locked, so concurrent
PATCHes apply one after the other and none is lost. The answers carry the site's `ETag`;
`If-Match` makes a PATCH apply only to the version its sender read (else 412).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from fastapi import APIRouter, Depends, Request
from starlette.responses import Response

from gridservice.routers.bounds import DEGRADED_FIELDS, servable_record
from gridservice.routers.common import (
    POST_ERRORS,
    StrictQuery,
    conn_for,
    problem_responses,
)
from gridservice.routers.idempotency import (
    IdempotencyKey,
    dumps,
    require_json,
    run_idempotent,
    utc_now,
)
from gridservice.routers.models import One, Site, SiteRevision
from gridservice.routers.requests import SitePatch
from gridservice.routers.sites import (
    EXTENSION,
    SITE_ETAG_RESPONSE,
    IfMatch,
    SiteId,
    answer_etag,
    if_match_holds,
    site_etag,
    tenant_site,
)
from gridservice.runtime.errors import ApiError
from gridservice.runtime.paging import data_response
from gridservice.security.auth import Tenant
from gridservice.store import tenancy

router = APIRouter(tags=["extensions"], dependencies=[StrictQuery], responses=problem_responses())


def changed_by(request: Request, tenant: str) -> str:
    """Return who made a request: the tenant and a short fingerprint of its token.

    The fingerprint (12 hex digits of the token's SHA-256) tells two tokens of a tenant apart
    without storing anything a caller could use.
    """
    token = request.headers.get("authorization", "").partition(" ")[2].strip()
    fingerprint = hashlib.sha256(token.encode("utf-8")).hexdigest()[:12]
    return f"tenant:{tenant} token:sha256:{fingerprint}"


def patched_site(site: dict[str, Any], patch: SitePatch, now: str) -> list[dict[str, Any]]:
    """Apply a patch to a wire site in place; return each member's change (from, to)."""
    changes = []
    wanted = patch.model_dump(include=patch.model_fields_set)
    if "archived" in wanted:
        archived_at = (site.get("archivedAt") or now) if wanted.pop("archived") else None
        wanted["archivedAt"] = archived_at
    for member, value in wanted.items():
        if site.get(member) != value:
            changes.append({"field": member, "from": site.get(member), "to": value})
            site[member] = value
    return changes


@router.patch(
    "/v1/sites/{siteId}",
    response_model=One[Site],
    summary="Rename or archive a site (customer reference, metadata, archived)",
    description="Members left out stay as they are. `archived: true` sets `archivedAt` and the "
    "site leaves the default list of sites (it stays readable by id, and "
    "`GET /v1/sites?archived=include|only` lists it); `archived: false` clears it. Each "
    "request that changes something is recorded (GET /v1/sites/{siteId}/revisions). "
    "Concurrent PATCHes of one site apply one after the other, each to what the one before "
    "left. `If-Match` with the site's `ETag` applies the change only to that version (else "
    "412 `precondition_failed`).",
    responses={**problem_responses((*POST_ERRORS, 412)), **SITE_ETAG_RESPONSE},
    dependencies=[Depends(require_json)],
    openapi_extra=EXTENSION,
)
def patch_site(
    request: Request,
    tenant: Tenant,
    site_id: SiteId,
    patch: SitePatch,
    idempotency_key: IdempotencyKey,
    if_match: IfMatch = None,
) -> Response:
    tenant_site(request, site_id, tenant)  # 404 before claiming a key for another's site

    def work(conn) -> str:
        stored = tenancy.site_for_update(conn, site_id, tenant) or "{}"
        if if_match is not None and not if_match_holds(if_match, site_etag(stored)):
            raise ApiError(
                412,
                "precondition_failed",
                f"Site {site_id!r} has changed since the version your If-Match names was "
                f"read (it is now {site_etag(stored)}); read it again and reapply your change.",
            )
        # A member stored before the bounds (served degraded) is written back null.
        site = servable_record(stored) or json.loads(stored)
        site.pop(DEGRADED_FIELDS, None)
        now = utc_now()
        changes = patched_site(site, patch, now)
        text = dumps(site)
        if changes:
            tenancy.update_site(conn, site_id, tenant, text)
            tenancy.insert_site_change(
                conn,
                site_id=site_id,
                tenant_id=tenant,
                changed_at=now,
                changed_by=changed_by(request, tenant),
                changes=dumps(changes),
            )
        return '{"data":' + text + "}"

    response = run_idempotent(
        request,
        tenant_id=tenant,
        operation=f"PATCH /v1/sites/{site_id}",
        key=idempotency_key,
        body=patch.model_dump(include=patch.model_fields_set),
        work=work,
        status_code=200,
    )
    response.headers["ETag"] = answer_etag(response.body)
    return response


@router.get(
    "/v1/sites/{siteId}/revisions",
    response_model=One[list[SiteRevision]],
    summary="Who changed a site's reference, metadata or archive state, and when",
    openapi_extra=EXTENSION,
)
def site_revisions(request: Request, tenant: Tenant, site_id: SiteId) -> Response:
    tenant_site(request, site_id, tenant)
    revisions = [
        {"changedAt": at, "changedBy": by, "changes": json.loads(changes)}
        for at, by, changes in tenancy.site_change_log(conn_for(request), tenant, site_id)
    ]
    return data_response(dumps(revisions))
