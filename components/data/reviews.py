"""Expert review cases: an analyst's cases, agreement and calibration; a reviewer's queue,
blinded packets and submitted reviews."""

from __future__ import annotations

from components.connection import ConnectionKey
from components.data._cache import cached, client
from components.data.service import capabilities
from gridclient import (
    ExpertReviewPacket,
    FactorAgreement,
    FactorCalibration,
    NotFoundError,
    Review,
    ReviewCase,
    ReviewSubmission,
)


def acting_as_reviewer(conn: ConnectionKey) -> bool:
    """Return True when the session's token is a reviewer's: the deployment offers review
    cases and the analysts' agreement across them answers 404 to it (to no tenant)."""
    # Asked of the review routes, never of the site listing: a deployment that lists no
    # sites answers that 404 to tenants too, and a tenant's page would pay one more
    # listing. The agreement is the analysts' Reviews page's own cached fetch.
    if not capabilities(conn).supports("GET", "/v1/review-cases/agreement"):
        return False
    try:
        review_agreement(conn)
    except NotFoundError:
        return True
    return False


@cached()
def review_cases(conn: ConnectionKey) -> list[ReviewCase]:
    """Return the tenant's review cases, or the cases assigned to the session's reviewer;
    an empty list where the deployment offers no expert review (404)."""
    try:
        return client(conn).reviews.cases()
    except NotFoundError:
        return []


@cached()
def review_case(conn: ConnectionKey, case_id: str) -> ReviewCase | None:
    """Return one review case as the session may see it, or None when it may not."""
    try:
        return client(conn).reviews.get(case_id)
    except NotFoundError:
        return None


@cached()
def review_agreement(conn: ConnectionKey) -> list[FactorAgreement]:
    """Return per factor how far reviewers agree across the tenant's cases."""
    return client(conn).reviews.agreement()


@cached()
def review_calibration(conn: ConnectionKey) -> list[FactorCalibration]:
    """Return per factor the screening against its adjudicated expert labels."""
    return client(conn).reviews.calibration()


@cached()
def review_packet(conn: ConnectionKey, case_id: str) -> ExpertReviewPacket:
    """Return the blinded packet of a case assigned to the session's reviewer."""
    return client(conn).reviews.packet(case_id)


def submit_review(
    conn: ConnectionKey, case_id: str, submission: ReviewSubmission, idempotency_key: str
) -> Review:
    """Submit the reviewer's review (the same key replays the one review); forget the
    cached cases, whose state and reviews it changes."""
    submitted = client(conn).reviews.submit(case_id, submission, idempotency_key=idempotency_key)
    review_cases.clear()
    review_case.clear()
    return submitted


def send_for_review(
    conn: ConnectionKey, assessment_id: str, reviewers: list[str], due_date: str, key: str
) -> ReviewCase:
    """Send the assessment to the named reviewers by the due date (the same key replays the
    one case); forget the cached cases, which now hold it."""
    case = client(conn).reviews.send(
        assessment_id, reviewers=reviewers, due_date=due_date, idempotency_key=key
    )
    review_cases.clear()
    return case
