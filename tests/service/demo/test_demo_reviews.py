"""The demo ships expert review out of the box: a case two fictional reviewers reviewed, with
its agreement and adjudication, the screening against those experts, and a case waiting for
a reviewer connecting with a demo reviewer token."""

from __future__ import annotations

import math

from fastapi.testclient import TestClient

from gridservice.demo.reviews import DEMO_REVIEWER_TOKENS
from gridservice.reviews.agreement import cohen_kappa

ALPHA = {"Authorization": "Bearer gds_demo_alpha"}
BETA = {"Authorization": "Bearer gds_demo_beta"}


def as_reviewer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def cases(service: TestClient, headers: dict) -> list[dict]:
    response = service.get("/v1/review-cases", headers=headers)
    assert response.status_code == 200, response.text
    return response.json()["data"]


def test_a_demo_case_is_reviewed_by_two_reviewers_and_adjudicated(demo_with_db) -> None:
    service, _conn = demo_with_db
    listed = {c["state"]: c for c in cases(service, ALPHA)}
    assert set(listed) == {"adjudicated", "in_review"}
    case = service.get(f"/v1/review-cases/{listed['adjudicated']['id']}", headers=ALPHA)
    case = case.json()["data"]
    first, second = case["reviewers"]
    assert [r["reviewer"] for r in case["reviews"]] == [first, second]
    pairs = [(f["answers"][first], f["answers"][second]) for f in case["factors"]]
    assert case["agreement"]["method"] == "cohen_kappa"
    assert math.isclose(case["agreement"]["statistic"], round(cohen_kappa(pairs), 4))
    assert case["agreement"]["units"] == len(pairs) and case["agreement"]["reviewers"] == 2
    assert case["disagreements"], "the demo shows a disagreement and its adjudication"
    decided = {f["factor"]: f["adjudication"] for f in case["factors"] if f["adjudication"]}
    assert set(decided) == set(case["disagreements"])
    assert all(d["decidedBy"] and d["reason"] for d in decided.values())
    named = [*case["reviewers"], *(d["decidedBy"] for d in decided.values())]
    assert all("fictional" in name.lower() for name in named), named


def test_the_demo_screening_meets_its_expert_labels(demo_with_db) -> None:
    service, _conn = demo_with_db
    (case,) = [c for c in cases(service, ALPHA) if c["state"] == "adjudicated"]
    case = service.get(f"/v1/review-cases/{case['id']}", headers=ALPHA).json()["data"]
    calibration = service.get("/v1/review-cases/calibration", headers=ALPHA).json()["data"]
    for factor, figures in zip(case["factors"], calibration, strict=True):
        expert = (factor["adjudication"] or {}).get("severity") or next(
            iter(set(factor["answers"].values()))
        )
        assert figures["labels"] == 1
        assert figures["confusionMatrix"][factor["screeningSeverity"]][expert] == 1


def test_a_demo_reviewer_finds_a_case_waiting_for_its_review(demo_with_db) -> None:
    service, _conn = demo_with_db
    for token, _name in DEMO_REVIEWER_TOKENS:
        mine = {c["state"]: c for c in cases(service, as_reviewer(token))}
        assert mine["in_review"]["reviews"] == []
        packet = service.get(
            f"/v1/review-cases/{mine['in_review']['id']}/packet", headers=as_reviewer(token)
        )
        assert packet.status_code == 200, packet.text
        assert packet.json()["data"]["reviewStatus"] == "unreviewed"
    assert cases(service, BETA) == []
