"""Review cases as an analyst sees them: send an assessment for review, read the case with its
agreement, move it (withdraw, adjudicate), and the agreement and calibration across cases.

Every route is an extension (docs/SERVICE.md, "Expert review cases"). A reviewer's token
reaches none of these but the listing and reading of its own cases (`routers.reviews`).
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from typing import Annotated

from fastapi import APIRouter, Depends, Path, Request
from starlette.responses import Response

from gridservice.reviews import views
from gridservice.reviews.calibration import Label, calibration
from gridservice.reviews.states import require_move
from gridservice.routers.common import POST_ERRORS, StrictQuery, conn_for, problem_responses
from gridservice.routers.idempotency import (
    IdempotencyKey,
    dumps,
    require_json,
    run_idempotent,
    utc_now,
)
from gridservice.routers.models import One
from gridservice.routers.review_models import (
    CaseTransition,
    FactorAgreement,
    FactorCalibration,
    ReviewCase,
    ReviewCaseRequest,
)
from gridservice.routers.sites import EXTENSION
from gridservice.runtime.errors import ApiError
from gridservice.runtime.paging import data_response
from gridservice.security.auth import Principal, Tenant
from gridservice.security.principals import Reviewer, reviewer_of
from gridservice.store import review_cases, tenancy

router = APIRouter(
    tags=["extensions"],
    dependencies=[StrictQuery],
    responses=problem_responses(),
)

CaseId = Annotated[str, Path(alias="caseId", max_length=200)]
NOT_FOUND = "review_case_not_found"


def case_not_found(case_id: str) -> ApiError:
    """Return the 404 of a case the caller may not reach (absent, or not theirs)."""
    return ApiError(404, NOT_FOUND, f"No review case {case_id!r} for this token.")


@dataclass(frozen=True)
class ReachedCase:
    """A review case the caller may reach: its state and body, and the reviewer calling
    (None for the tenant's analyst)."""

    state: str
    body: dict
    reviewer: Reviewer | None


def reached_case(request: Request, principal: Principal, case_id: CaseId) -> ReachedCase:
    """Return the case of this caller: the tenant's own, or one assigned to the calling
    reviewer; 404 otherwise, as for a case that does not exist."""
    conn = conn_for(request)
    reviewer = reviewer_of(principal)
    found = (
        review_cases.tenant_case(conn, case_id, principal)
        if reviewer is None
        else review_cases.reviewer_case(conn, case_id, reviewer.tenant, reviewer.name)
    )
    if found is None:
        raise case_not_found(case_id)
    return ReachedCase(found[0], json.loads(found[1]), reviewer)


CallersCase = Annotated[ReachedCase, Depends(reached_case)]


def _analyst_view(conn, case_id: str, state: str, case: dict, tenant: str) -> dict:
    """Return the analyst's view of a tenant's case."""
    assessment = json.loads(
        tenancy.tenant_record(conn, "assessment", case["assessmentId"], tenant) or "{}"
    )
    return views.analyst_view(
        state,
        case,
        review_cases.latest_reviews(conn, [case_id])[case_id],
        review_cases.adjudications(conn, [case_id])[case_id],
        assessment,
    )


@router.post(
    "/v1/review-cases",
    status_code=201,
    response_model=One[ReviewCase],
    summary="Send an assessment for expert review",
    openapi_extra=EXTENSION,
    responses=problem_responses(POST_ERRORS),
    dependencies=[Depends(require_json)],
)
def create_review_case(
    request: Request, tenant: Tenant, body: ReviewCaseRequest, idempotency_key: IdempotencyKey
) -> Response:
    conn = conn_for(request)
    if tenancy.tenant_record(conn, "assessment", body.assessmentId, tenant) is None:
        raise ApiError(
            404, "assessment_not_found", f"No assessment {body.assessmentId!r} for this tenant."
        )
    require_move("unreviewed", "in_review", requested=False)

    def work(conn) -> str:
        case = {
            "id": "rvc_" + secrets.token_hex(10),
            "assessmentId": body.assessmentId,
            "reviewers": body.reviewers,
            "dueDate": body.dueDate,
            "createdAt": utc_now(),
        }
        review_cases.insert_case(
            conn,
            case_id=case["id"],
            tenant_id=tenant,
            assessment_id=body.assessmentId,
            state="in_review",
            created_at=case["createdAt"],
            body=dumps(case),
            reviewers=body.reviewers,
        )
        assessment = json.loads(
            tenancy.tenant_record(conn, "assessment", body.assessmentId, tenant) or "{}"
        )
        return '{"data":' + dumps(views.analyst_view("in_review", case, {}, {}, assessment)) + "}"

    return run_idempotent(
        request,
        tenant_id=tenant,
        operation="POST /v1/review-cases",
        key=idempotency_key,
        body=body.model_dump(),
        work=work,
    )


@router.get(
    "/v1/review-cases",
    response_model=One[list[ReviewCase]],
    summary="List the review cases of a tenant, or those assigned to a reviewer",
    openapi_extra=EXTENSION,
)
def list_review_cases(request: Request, principal: Principal) -> Response:
    conn = conn_for(request)
    reviewer = reviewer_of(principal)
    if reviewer is None:
        rows = review_cases.tenant_cases(conn, principal)
        cases = [json.loads(body) for _state, body in rows]
        reviews = review_cases.latest_reviews(conn, [c["id"] for c in cases])
        listed = [
            views.listed_case(state, case, reviews[case["id"]])
            for (state, _body), case in zip(rows, cases, strict=True)
        ]
        return data_response(dumps(listed))
    rows = review_cases.reviewer_cases(conn, reviewer.tenant, reviewer.name)
    cases = [json.loads(body) for _state, body in rows]
    reviews = review_cases.latest_reviews(conn, [c["id"] for c in cases])
    listed = [
        views.reviewer_view(state, case, reviews[case["id"]], reviewer.name)
        for (state, _body), case in zip(rows, cases, strict=True)
    ]
    return data_response(dumps(listed))


@router.get(
    "/v1/review-cases/agreement",
    response_model=One[list[FactorAgreement]],
    summary="Per factor, how far reviewers agree across a tenant's review cases",
    openapi_extra=EXTENSION,
)
def agreement_across_cases(request: Request, tenant: Tenant) -> Response:
    conn = conn_for(request)
    ids = [json.loads(body)["id"] for _state, body in review_cases.tenant_cases(conn, tenant)]
    reviews = review_cases.latest_reviews(conn, ids)
    units = [views.answers_by_factor(reviews[i]) for i in ids if reviews[i]]
    return data_response(dumps(views.agreement_across_cases(units)))


@router.get(
    "/v1/review-cases/calibration",
    response_model=One[list[FactorCalibration]],
    summary="Per factor, the screening against its adjudicated expert labels",
    openapi_extra=EXTENSION,
)
def screening_calibration(request: Request, tenant: Tenant) -> Response:
    conn = conn_for(request)
    cases = [
        json.loads(body)
        for state, body in review_cases.tenant_cases(conn, tenant)
        if state == "adjudicated"
    ]
    ids = [c["id"] for c in cases]
    reviews, decided = review_cases.latest_reviews(conn, ids), review_cases.adjudications(conn, ids)
    assessments = review_cases.assessment_bodies(conn, tenant, [c["assessmentId"] for c in cases])
    labels = []
    for case in cases:
        assessment = json.loads(assessments[case["assessmentId"]])
        screening = views.screening_severities(assessment)
        confidence = float((assessment.get("confidence") or {}).get("score") or 0.0)
        expert = views.expert_labels(
            views.answers_by_factor(reviews[case["id"]]), decided[case["id"]]
        )
        labels += [Label(f, screening[f], confidence, s) for f, s in expert.items()]
    return data_response(dumps(calibration(labels)))


@router.get(
    "/v1/review-cases/{caseId}",
    response_model=One[ReviewCase],
    summary="Read a review case (a reviewer sees its own view of it)",
    openapi_extra=EXTENSION,
)
def read_review_case(
    request: Request, principal: Principal, case_id: CaseId, case: CallersCase
) -> Response:
    conn = conn_for(request)
    if case.reviewer is None:
        return data_response(dumps(_analyst_view(conn, case_id, case.state, case.body, principal)))
    reviews = review_cases.latest_reviews(conn, [case_id])[case_id]
    view = views.reviewer_view(case.state, case.body, reviews, case.reviewer.name)
    return data_response(dumps(view))


def _adjudicate(conn, case_id: str, tenant: str, move: CaseTransition, now: str) -> None:
    """Record the decisions of an adjudication; 422 unless `decidedBy` is given and every
    disagreement is decided."""
    units = views.answers_by_factor(review_cases.latest_reviews(conn, [case_id])[case_id])
    decided = {d.factor for d in move.decisions}
    undecided = [f for f in views.disagreements(units) if f not in decided]
    if not move.decidedBy or undecided:
        raise ApiError(
            422,
            "validation_failed",
            "An adjudication names who decided (decidedBy) and decides every disagreement; "
            f"undecided: {undecided}.",
            errors=[
                {
                    "field": "decidedBy" if not move.decidedBy else "decisions",
                    "message": f"undecided factors: {undecided}",
                }
            ],
        )
    for decision in move.decisions:
        record = {**decision.model_dump(), "decidedBy": move.decidedBy, "decidedAt": now}
        review_cases.insert_adjudication(conn, case_id, tenant, decision.factor, dumps(record))


@router.post(
    "/v1/review-cases/{caseId}/transitions",
    response_model=One[ReviewCase],
    summary="Move a review case: withdraw it, or adjudicate its disagreements",
    openapi_extra=EXTENSION,
    responses=problem_responses(POST_ERRORS),
    dependencies=[Depends(require_json)],
)
def move_review_case(
    request: Request,
    tenant: Tenant,
    case_id: CaseId,
    move: CaseTransition,
    idempotency_key: IdempotencyKey,
    case: CallersCase,
) -> Response:
    def work(conn) -> str:
        state = review_cases.case_for_update(conn, case_id, tenant) or ""
        require_move(state, move.to)
        now = utc_now()
        if move.to == "adjudicated":
            _adjudicate(conn, case_id, tenant, move, now)
        review_cases.set_state(conn, case_id, move.to, now)
        return '{"data":' + dumps(_analyst_view(conn, case_id, move.to, case.body, tenant)) + "}"

    return run_idempotent(
        request,
        tenant_id=tenant,
        operation=f"POST /v1/review-cases/{case_id}/transitions",
        key=idempotency_key,
        body=move.model_dump(),
        work=work,
        status_code=200,
    )
