"""Reviews as a reviewer gives them: read the blinded packet of an assigned case, submit the
review (once per Idempotency-Key; a later submission is an amendment, its next revision),
or upload the completed packet in the packet's own shape.

Only a reviewer's token reaches these, and only for the cases assigned to it: any other
case is 404, as one that does not exist.
"""

from __future__ import annotations

import secrets

from fastapi import APIRouter, Depends, Request
from starlette.responses import Response

from gridservice.reviews.states import require_move, require_open
from gridservice.routers.assessments import expert_review_packet, packet_secret
from gridservice.routers.common import POST_ERRORS, StrictQuery, problem_responses
from gridservice.routers.idempotency import (
    IdempotencyKey,
    dumps,
    require_json,
    run_idempotent,
    utc_now,
)
from gridservice.routers.models import ExpertReviewPacket, One
from gridservice.routers.review_cases import CallersCase, CaseId, ReachedCase
from gridservice.routers.review_models import CompletedPacket, Review, ReviewSubmission
from gridservice.routers.sites import EXTENSION
from gridservice.runtime.errors import ApiError
from gridservice.runtime.paging import data_response
from gridservice.screening.packet import case_id as packet_case_id
from gridservice.security.auth import ReviewerToken
from gridservice.security.principals import Reviewer, reviewer_principal
from gridservice.store import review_cases

router = APIRouter(tags=["extensions"], dependencies=[StrictQuery], responses=problem_responses())


@router.get(
    "/v1/review-cases/{caseId}/packet",
    response_model=One[ExpertReviewPacket],
    summary="Read the blinded expert-review packet of an assigned case",
    openapi_extra=EXTENSION,
)
def read_case_packet(
    request: Request, reviewer: ReviewerToken, case_id: CaseId, case: CallersCase
) -> Response:
    return data_response(
        dumps(expert_review_packet(request, reviewer.tenant, case.body["assessmentId"]))
    )


def _submit(
    request: Request,
    reviewer: Reviewer,
    case: ReachedCase,
    submission: ReviewSubmission,
    idempotency_key: str,
    source: str,
) -> Response:
    """Store the reviewer's next revision of their review; the case becomes reviewed when
    every assigned reviewer has submitted."""
    case_id = case.body["id"]

    def work(conn) -> str:
        state = review_cases.case_for_update(conn, case_id, reviewer.tenant) or ""
        require_open(state)
        now = utc_now()
        review = {
            "id": "rev_" + secrets.token_hex(10),
            "caseId": case_id,
            "reviewer": reviewer.name,
            "revision": review_cases.next_revision(conn, case_id, reviewer.name),
            "submittedAt": now,
            "source": source,
            **submission.model_dump(),
        }
        review_cases.insert_review(
            conn,
            review_id=review["id"],
            case_id=case_id,
            tenant_id=reviewer.tenant,
            reviewer=reviewer.name,
            revision=review["revision"],
            submitted_at=now,
            body=dumps(review),
        )
        answered = review_cases.latest_reviews(conn, [case_id])[case_id]
        if state == "in_review" and set(case.body["reviewers"]) <= set(answered):
            require_move(state, "reviewed", requested=False)
            review_cases.set_state(conn, case_id, "reviewed", now)
        return '{"data":' + dumps(review) + "}"

    return run_idempotent(
        request,
        tenant_id=reviewer_principal(reviewer.tenant, reviewer.name),
        operation=f"POST /v1/review-cases/{case_id}/reviews",
        key=idempotency_key,
        body=[source, submission.model_dump()],
        work=work,
    )


@router.post(
    "/v1/review-cases/{caseId}/reviews",
    status_code=201,
    response_model=One[Review],
    summary="Submit (or amend) the review of an assigned case",
    openapi_extra=EXTENSION,
    responses=problem_responses(POST_ERRORS),
    dependencies=[Depends(require_json)],
)
def submit_review(
    request: Request,
    reviewer: ReviewerToken,
    case_id: CaseId,
    submission: ReviewSubmission,
    idempotency_key: IdempotencyKey,
    case: CallersCase,
) -> Response:
    return _submit(request, reviewer, case, submission, idempotency_key, "form")


@router.post(
    "/v1/review-cases/{caseId}/reviews/packet",
    status_code=201,
    response_model=One[Review],
    summary="Upload the completed expert-review packet of an assigned case as its review",
    openapi_extra=EXTENSION,
    responses=problem_responses(POST_ERRORS),
    dependencies=[Depends(require_json)],
)
def upload_packet(
    request: Request,
    reviewer: ReviewerToken,
    case_id: CaseId,
    packet: CompletedPacket,
    idempotency_key: IdempotencyKey,
    case: CallersCase,
) -> Response:
    if packet.caseId != packet_case_id(case.body["assessmentId"], packet_secret(request)):
        raise ApiError(
            422,
            "validation_failed",
            "caseId: the packet is not this review case's packet.",
            errors=[{"field": "caseId", "message": "not this review case's packet"}],
        )
    return _submit(request, reviewer, case, packet.as_submission(), idempotency_key, "packet")
