"""`client.reviews` against the reference service in-process: an analyst sends an assessment
for review, two reviewers read their blinded packets and submit, the analyst reads the
agreement and adjudicates, and the screening meets its expert labels (typed all the way)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import gridclient as gc
from gridservice.app import create_app
from gridservice.demo import DEMO_POINTS
from gridservice.screening.factors import FACTORS
from gridservice.security.tokens import issue_token
from gridservice.settings import Settings
from gridservice.store import db

TENANT = "tenant-alpha"
BASE_URL = "http://grid.test"


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An empty store with the service's schema (screening there abstains on most factors)."""
    path = tmp_path_factory.mktemp("reviews") / "service.db"
    conn = db.connect(path)
    try:
        db.init_schema(conn)
    finally:
        conn.close()
    return path


@pytest.fixture(scope="module")
def http(store: Path) -> Iterator[TestClient]:
    settings = Settings.for_store(store, secret_key=b"k" * 32, rate_limit_burst=100000)
    with TestClient(create_app(settings), base_url=BASE_URL) as test_client:
        yield test_client


def client_of(http: TestClient, token: str) -> gc.GridDataClient:
    return gc.GridDataClient(base_url=BASE_URL, token=token, http_client=http)


@pytest.fixture(scope="module")
def analyst(store: Path, http: TestClient) -> gc.GridDataClient:
    return client_of(http, issue_token(store, TENANT))


@pytest.fixture(scope="module")
def reviewers(store: Path, http: TestClient) -> dict[str, gc.GridDataClient]:
    return {
        name: client_of(http, issue_token(store, TENANT, reviewer=name)) for name in ("ada", "bo")
    }


@pytest.fixture(scope="module")
def assessment_id(analyst: gc.GridDataClient) -> str:
    latitude, longitude = DEMO_POINTS["dual_certified"]
    site = analyst.sites.create(
        gc.SiteDefinition(
            requested_peak_load_mw=80,
            location=gc.SiteLocation(latitude=latitude, longitude=longitude),
        )
    )
    return analyst.assessments.create(site.id).id


def submission(severities: dict[str, str], comment: str | None = None) -> gc.ReviewSubmission:
    return gc.ReviewSubmission(
        factors=[
            gc.FactorAnswer(
                factor=factor,
                severity=severities.get(factor, "low"),
                evidence_supports=True,
                confidence="medium",
                comment=comment,
            )
            for factor in FACTORS
        ]
    )


def test_a_case_goes_round_trip_through_the_client(
    analyst: gc.GridDataClient, reviewers: dict[str, gc.GridDataClient], assessment_id: str
) -> None:
    case = analyst.reviews.send(assessment_id, reviewers=["ada", "bo"], due_date="2026-12-01")
    assert case.state == "in_review" and case.allowed_moves == ["withdrawn"]
    assert [c.id for c in reviewers["ada"].reviews.cases()] == [case.id]
    packet = reviewers["ada"].reviews.packet(case.id)
    assert packet.review_status == "unreviewed" and packet.rubric

    reviewers["ada"].reviews.submit(case.id, submission({}, comment="=1+1"))
    # Before its own review, bo sees none of ada's answers.
    assert reviewers["bo"].reviews.get(case.id).reviews == []
    reviewers["bo"].reviews.submit(case.id, submission({"timeline": "high"}))

    read = analyst.reviews.get(case.id)
    assert read.state == "reviewed" and read.disagreements == ["timeline"]
    assert read.agreement.share_of_agreement == round(5 / 6, 4)
    assert read.agreement.units == len(FACTORS) and read.agreement.reviewers == 2
    assert [r.reviewer for r in read.reviews] == ["ada", "bo"]
    assert read.reviews[0].factors[0].comment == "=1+1"
    timeline = next(f for f in read.factors if f.factor == "timeline")
    assert timeline.answers == {"ada": "low", "bo": "high"}

    decided = analyst.reviews.move(
        case.id,
        "adjudicated",
        decided_by="lead",
        decisions=[gc.Adjudication(factor="timeline", severity="medium", reason="Backlog.")],
    )
    adjudication = next(f for f in decided.factors if f.factor == "timeline").adjudication
    assert (adjudication.severity, adjudication.decided_by) == ("medium", "lead")

    calibration = {c.factor: c for c in analyst.reviews.calibration()}
    timeline_labels = calibration["timeline"]
    assert timeline_labels.labels == 1
    screened = timeline.screening_severity
    assert timeline_labels.confusion_matrix[screened]["medium"] == 1
    assert sum(b.count for b in timeline_labels.reliability_bins) == 1
    agreement = {a.factor: a.agreement for a in analyst.reviews.agreement()}
    assert agreement["timeline"].share_of_agreement == 0.0


def test_one_key_makes_one_review_and_a_forbidden_move_says_which_are_allowed(
    analyst: gc.GridDataClient, reviewers: dict[str, gc.GridDataClient], assessment_id: str
) -> None:
    case = analyst.reviews.send(assessment_id, reviewers=["ada", "bo"], due_date="2026-12-02")
    ada = reviewers["ada"].reviews
    first = ada.submit(case.id, submission({}), idempotency_key="review-key-0001")
    again = ada.submit(case.id, submission({}), idempotency_key="review-key-0001")
    assert again.id == first.id and again.revision == 1
    assert ada.submit(case.id, submission({"timeline": "high"})).revision == 2
    with pytest.raises(gc.ConflictError) as refused:
        analyst.reviews.move(case.id, "adjudicated", decided_by="lead")
    assert "withdrawn" in str(refused.value)
    with pytest.raises(gc.NotFoundError):
        reviewers["ada"].sites.get("site_anything")
