"""Assessments (screen a site, read, list), expert-review packets and CSV exports."""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from typing import Annotated

from fastapi import APIRouter, Depends, Path, Request
from starlette.responses import Response

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
from gridservice.routers.models import (
    Assessment,
    AssessmentExport,
    ExpertReviewPacket,
    One,
    OneWithMeta,
    Page,
)
from gridservice.routers.requests import ExportRequest, refuse_screening_body
from gridservice.routers.sites import EXTENSION, SiteId, tenant_site
from gridservice.runtime.errors import ApiError
from gridservice.runtime.paging import data_response
from gridservice.screening import assessment_csv, build_expert_review_packet, screen_site
from gridservice.screening.assessment_summary import store_assessment
from gridservice.screening.packet import former_identifying_values
from gridservice.security.auth import Tenant
from gridservice.store import tenancy
from gridservice.store.read_snapshot import read_snapshot

router = APIRouter(tags=["assessments"], dependencies=[StrictQuery], responses=problem_responses())

AssessmentId = Annotated[str, Path(alias="assessmentId", max_length=200)]
ExportId = Annotated[str, Path(alias="exportId", max_length=200)]
CSV_CONTENT_TYPE = "text/csv; charset=utf-8"


def packet_secret(request: Request) -> bytes:
    """Return the key that blinds packet case ids, derived from the service secret."""
    return hmac.new(request.app.state.secret_key, b"expert-review-packet", hashlib.sha256).digest()


def _tenant_assessment(request: Request, assessment_id: str, tenant: str) -> str:
    body = tenancy.tenant_record(conn_for(request), "assessment", assessment_id, tenant)
    if body is None:
        raise ApiError(
            404, "assessment_not_found", f"No assessment {assessment_id!r} for this tenant."
        )
    return body


@router.get(
    "/v1/assessments/exports/{exportId}",
    response_model=One[AssessmentExport],
    summary="Read an assessment export",
)
def read_export(request: Request, tenant: Tenant, export_id: ExportId) -> Response:
    body = tenancy.tenant_record(conn_for(request), "export", export_id, tenant)
    if body is None:
        raise ApiError(404, "export_not_found", f"No export {export_id!r} for this tenant.")
    return data_response(body)


@router.post(
    "/v1/sites/{siteId}/assessments",
    status_code=201,
    response_model=One[Assessment],
    summary="Screen a site into a new assessment",
    tags=["extensions"],
    openapi_extra=EXTENSION,
    responses=problem_responses(POST_ERRORS),
    dependencies=[Depends(refuse_screening_body)],
)
def create_assessment(
    request: Request, tenant: Tenant, site_id: SiteId, idempotency_key: IdempotencyKey
) -> Response:
    site = json.loads(tenant_site(request, site_id, tenant))

    def work(conn) -> str:
        assessment_id = "asm_" + secrets.token_hex(10)
        created_at = utc_now()
        # read on one state of the store (a harvest committing meanwhile is not half seen),
        # then stored in a transaction of its own
        with read_snapshot(conn):
            assessment = screen_site(
                conn, site, assessment_id=assessment_id, tenant_id=tenant, created_at=created_at
            )
        text = dumps(assessment)
        store_assessment(conn, assessment, text)
        return '{"data":' + text + "}"

    operation = f"POST /v1/sites/{site_id}/assessments"
    return run_idempotent(
        request, tenant_id=tenant, operation=operation, key=idempotency_key, body=None, work=work
    )


@router.get(
    "/v1/sites/{siteId}/assessments",
    response_model=Page[Assessment],
    summary="List a site's assessments",
    tags=["extensions"],
    openapi_extra=EXTENSION,
)
def list_site_assessments(
    request: Request, tenant: Tenant, site_id: SiteId, cursor: Cursor = None, limit: Limit = 100
) -> Response:
    tenant_site(request, site_id, tenant)
    filters = {"tenant_id": tenant, "site_id": site_id}
    return page_response(request, "site-assessments", filters, cursor, limit)


@router.get(
    "/v1/assessments/{assessmentId}", response_model=One[Assessment], summary="Read an assessment"
)
def read_assessment(request: Request, tenant: Tenant, assessment_id: AssessmentId) -> Response:
    return data_response(_tenant_assessment(request, assessment_id, tenant))


@router.get(
    "/v1/assessments/{assessmentId}/expert-review.json",
    response_model=OneWithMeta[ExpertReviewPacket],
    summary="Export the blinded expert-review packet of an assessment",
)
def read_expert_review_packet(
    request: Request, tenant: Tenant, assessment_id: AssessmentId
) -> Response:
    packet = expert_review_packet(request, tenant, assessment_id)
    meta = {"blinded": True, "reviewStatus": packet.get("reviewStatus")}
    return data_response(dumps(packet), meta=meta)


def expert_review_packet(request: Request, tenant: str, assessment_id: str) -> dict:
    """Return the blinded expert-review packet of a tenant's assessment (404 if not theirs)."""
    assessment = json.loads(_tenant_assessment(request, assessment_id, tenant))
    site = json.loads(tenant_site(request, assessment["siteId"], tenant))
    # The day only: a timestamp to the millisecond would let whoever holds the tenant's
    # assessment list match a blinded packet back to its assessment.
    submitted_at = assessment["createdAt"][:10] + "T00:00:00Z"
    # Every value the site was ever named by: a reference cleared after its copy went into
    # an engineering object must not reappear in clear.
    revisions = tenancy.site_change_log(conn_for(request), tenant, assessment["siteId"])
    return build_expert_review_packet(
        assessment,
        site,
        secret=packet_secret(request),
        submitted_at=submitted_at,
        former_values=former_identifying_values(json.loads(row[2]) for row in revisions),
    )


@router.post(
    "/v1/assessments/{assessmentId}/exports",
    status_code=201,
    response_model=One[AssessmentExport],
    summary="Create a CSV export of an assessment",
    tags=["extensions"],
    openapi_extra=EXTENSION,
    responses=problem_responses(POST_ERRORS),
    dependencies=[Depends(require_json)],
)
def create_export(
    request: Request,
    tenant: Tenant,
    assessment_id: AssessmentId,
    export_request: ExportRequest,
    idempotency_key: IdempotencyKey,
) -> Response:
    assessment = json.loads(_tenant_assessment(request, assessment_id, tenant))

    def work(conn) -> str:
        record = {
            "id": "exp_" + secrets.token_hex(10),
            "tenantId": tenant,
            "assessmentId": assessment_id,
            "format": export_request.format,
            "contentType": CSV_CONTENT_TYPE,
            "content": assessment_csv(assessment),
            "createdAt": utc_now(),
        }
        text = dumps(record)
        tenancy.insert_export(conn, record["id"], tenant, assessment_id, record["createdAt"], text)
        return '{"data":' + text + "}"

    operation = f"POST /v1/assessments/{assessment_id}/exports"
    return run_idempotent(
        request,
        tenant_id=tenant,
        operation=operation,
        key=idempotency_key,
        body=export_request.model_dump(),
        work=work,
    )
