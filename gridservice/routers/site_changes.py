"""What changed near a site since one of its assessments (extension)."""

from __future__ import annotations

import json
from typing import Annotated

from fastapi import APIRouter, Query, Request
from starlette.responses import Response

from gridservice.routers.common import GET_ERRORS, StrictQuery, conn_for, problem_responses
from gridservice.routers.idempotency import dumps
from gridservice.routers.models import One, SiteChanges
from gridservice.routers.sites import EXTENSION, SiteId, tenant_site
from gridservice.runtime.errors import ApiError
from gridservice.runtime.paging import data_response
from gridservice.screening.site_changes import site_changes
from gridservice.screening.surroundings import SurroundingsInputError
from gridservice.security.auth import Tenant
from gridservice.store import tenancy
from gridservice.store.read_snapshot import read_snapshot

router = APIRouter(tags=["extensions"], dependencies=[StrictQuery], responses=problem_responses())

Since = Annotated[
    str | None,
    Query(
        max_length=200,
        description="An assessment of this site (default: its newest). Changes are counted "
        "from the queue report it was made on and the instant it was made.",
    ),
]


def _since_assessment(request: Request, tenant: str, site_id: str, since: str | None) -> dict:
    """Return the assessment to compare with, or a problem saying why there is none."""
    conn = conn_for(request)
    if since is None:
        since = tenancy.latest_assessments(conn, tenant, [site_id]).get(site_id)
        if since is None:
            raise ApiError(
                409,
                "site_not_assessed",
                f"Site {site_id!r} has no assessment yet, so there is nothing to compare with. "
                "Screen the site first.",
                errors=[{"field": "since", "message": "the site has no assessment"}],
            )
        return json.loads(since)
    body = tenancy.tenant_record(conn, "assessment", since, tenant)
    if body is None:
        # Another tenant's assessment reads exactly as one that never existed.
        raise ApiError(
            404,
            "since_not_found",
            f"No assessment {since!r} for this tenant; `since` must name an assessment of "
            "this site.",
            errors=[{"field": "since", "message": "no such assessment for this tenant"}],
        )
    assessment = json.loads(body)
    if assessment.get("siteId") != site_id:
        raise ApiError(
            404,
            "since_other_site",
            f"Assessment {since!r} is of site {assessment.get('siteId')!r}, not of {site_id!r}.",
            errors=[{"field": "since", "message": "an assessment of another site"}],
        )
    return assessment


@router.get(
    "/v1/sites/{siteId}/changes",
    response_model=One[SiteChanges],
    summary="What changed near a site since one of its assessments",
    responses=problem_responses((*GET_ERRORS, 409)),
    description="Queue projects in the counties near the site that entered, left or changed "
    "between the harvested report the assessment was made on and the newest one (each citing "
    "its source cells), and the market facts first known after the assessment (restated or "
    "new). `changedSinceAssessment` is true when any did. A `since` this store can no longer "
    "compare with (its report was replaced, or it predates every report) is a 422 saying why.",
    openapi_extra=EXTENSION,
)
def read_changes(
    request: Request, tenant: Tenant, site_id: SiteId, since: Since = None
) -> Response:
    site = json.loads(tenant_site(request, site_id, tenant))
    assessment = _since_assessment(request, tenant, site_id, since)
    try:
        with read_snapshot(conn_for(request)) as conn:
            latest_id = tenancy.latest_assessment_id(conn, tenant, site_id)
            changes = site_changes(conn, site, assessment, latest_id)
    except SurroundingsInputError as error:
        errors = [{"field": error.field, "message": error.code}] if error.field else None
        raise ApiError(error.status, error.code, error.detail, errors=errors) from None
    return data_response(dumps(changes))
