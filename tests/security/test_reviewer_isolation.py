"""A reviewer's token reaches the review cases assigned to it and nothing else: every site,
assessment, public page and other tenant's record is 404; another reviewer's answers stay
hidden until its own review is in; what it reads of the assessment is the blinded packet;
a review of the wrong shape is refused naming the field. On SQLite and on PostgreSQL."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from service_calls import create_assessment, create_site, key

from gridservice.screening.factors import FACTORS
from gridservice.security.tokens import issue_token

ALPHA = {"Authorization": "Bearer gds_demo_alpha"}
BETA = {"Authorization": "Bearer gds_demo_beta"}
ATTESTED = {"noConflictOfInterest": True, "evidenceChecked": True}


def review(severity: str = "low") -> dict:
    answers = [
        {"factor": f, "severity": severity, "evidenceSupports": True, "confidence": "high"}
        for f in FACTORS
    ]
    return {"factors": answers, "attestation": dict(ATTESTED)}


@pytest.fixture(scope="module")
def tokens(store_copy: Path | str) -> dict[str, dict]:
    """Reviewers of demo-alpha (ada, bo, cy) and of demo-beta (dee), each with a token."""
    names = {"ada": "demo-alpha", "bo": "demo-alpha", "cy": "demo-alpha", "dee": "demo-beta"}
    return {
        name: {"Authorization": "Bearer " + issue_token(store_copy, tenant, reviewer=name)}
        for name, tenant in names.items()
    }


@pytest.fixture(scope="module")
def case(service: TestClient, tokens: dict) -> dict:
    """A case of demo-alpha assigned to ada and bo (not cy), with its site and assessment."""
    site = create_site(service, ALPHA, customerReference="Project Falcon")
    assessment = create_assessment(service, ALPHA, site["id"])
    body = {"assessmentId": assessment["id"], "reviewers": ["ada", "bo"], "dueDate": "2026-10-01"}
    response = service.post("/v1/review-cases", json=body, headers={**ALPHA, **key()})
    assert response.status_code == 201, response.text
    return {"id": response.json()["data"]["id"], "site": site, "assessment": assessment}


def test_a_reviewer_reaches_no_site_assessment_or_public_page(
    service: TestClient, tokens: dict, case: dict
) -> None:
    ada = tokens["ada"]
    assessment_id = case["assessment"]["id"]
    # A tenant's read first, so a cached public page is there to be (wrongly) served.
    assert service.get("/v1/generators?limit=5", headers=ALPHA).status_code == 200
    for path in (
        f"/v1/sites/{case['site']['id']}",
        "/v1/sites",
        f"/v1/assessments/{assessment_id}",
        f"/v1/assessments/{assessment_id}/expert-review.json",
        "/v1/generators?limit=5",
        "/v1/review-cases/agreement",
        "/v1/review-cases/calibration",
    ):
        response = service.get(path, headers=ada)
        assert response.status_code == 404, (path, response.text)
        assert response.headers["content-type"].startswith("application/problem+json")
    refused = service.post("/v1/sites", json={}, headers={**ada, **key()})
    assert refused.status_code == 404


def test_a_reviewer_reaches_only_the_cases_assigned_to_it(
    service: TestClient, tokens: dict, case: dict
) -> None:
    path = f"/v1/review-cases/{case['id']}"
    assert service.get(path, headers=tokens["ada"]).status_code == 200
    for outsider in (tokens["cy"], tokens["dee"], BETA):
        assert service.get(path, headers=outsider).status_code == 404
        assert service.get(path + "/packet", headers=outsider).status_code == 404
    assert submit(service, tokens["cy"], case["id"], review()).status_code == 404
    assert submit(service, tokens["dee"], case["id"], review()).status_code == 404
    listed = service.get("/v1/review-cases", headers=tokens["cy"]).json()["data"]
    assert case["id"] not in {c["id"] for c in listed}
    # A tenant's token gives no review: only reviewers do.
    assert submit(service, ALPHA, case["id"], review()).status_code == 404


def submit(service: TestClient, headers: dict, case_id: str, body: dict):
    return service.post(
        f"/v1/review-cases/{case_id}/reviews", json=body, headers={**headers, **key()}
    )


def test_another_reviewers_answers_stay_hidden_until_ones_own_is_in(
    service: TestClient, tokens: dict, case: dict
) -> None:
    path = f"/v1/review-cases/{case['id']}"
    assert submit(service, tokens["ada"], case["id"], review("high")).status_code == 201
    before = service.get(path, headers=tokens["bo"]).json()["data"]
    assert before["reviews"] == []
    assert "assessmentId" not in before and "reviewers" not in before
    assert submit(service, tokens["bo"], case["id"], review("low")).status_code == 201
    after = service.get(path, headers=tokens["bo"]).json()["data"]
    assert {r["reviewer"] for r in after["reviews"]} == {"ada", "bo"}


def test_a_reviewer_reads_the_blinded_packet_only(
    service: TestClient, tokens: dict, case: dict
) -> None:
    packet = service.get(f"/v1/review-cases/{case['id']}/packet", headers=tokens["ada"])
    assert packet.status_code == 200
    text = packet.text
    for secret in (case["site"]["id"], case["assessment"]["id"], "demo-alpha", "Project Falcon"):
        assert secret not in text
    exported = service.get(
        f"/v1/assessments/{case['assessment']['id']}/expert-review.json", headers=ALPHA
    )
    assert packet.json()["data"] == exported.json()["data"]


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda b: b["factors"][0].update(severity="extreme"), "factors.0.severity"),
        (lambda b: b["factors"].pop(), "factors"),
        (lambda b: b["attestation"].update(noConflictOfInterest=False), "attestation"),
        (lambda b: b["factors"][1].update(comment=7), "factors.1.comment"),
    ],
)
def test_a_review_of_the_wrong_shape_is_refused_naming_the_field(
    service: TestClient, tokens: dict, case: dict, change, field: str
) -> None:
    body = review()
    change(body)
    response = submit(service, tokens["ada"], case["id"], body)
    assert response.status_code == 422
    fields = [e["field"] for e in response.json()["errors"]]
    assert any(f.startswith(field) for f in fields), fields
