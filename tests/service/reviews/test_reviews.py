"""Expert review cases: agreement statistics against published worked examples, the service's
figures against them, the state table, idempotent submission, amendment, packet upload and
calibration; on SQLite and on PostgreSQL."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from service_calls import create_assessment, create_site, key

from gridservice.reviews.agreement import agreement, cohen_kappa, krippendorff_alpha
from gridservice.reviews.calibration import MINIMUM_LABELS, Label, factor_calibration
from gridservice.reviews.states import MOVES, STATES, allowed_moves
from gridservice.screening.factors import FACTORS
from gridservice.security.tokens import issue_token

ALPHA = {"Authorization": "Bearer tok_alpha_test"}
# Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", the worked example with
# missing answers: four observers (rows), twelve units (columns), values 1 to 5.
KRIPPENDORFF_DATA = (
    (1, 2, 3, 3, 2, 1, 4, 1, 2, None, None, None),
    (1, 2, 3, 3, 2, 2, 4, 1, 2, 5, None, 3),
    (None, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, None),
    (1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, None),
)
# His published results for these data.
KRIPPENDORFF_NOMINAL, KRIPPENDORFF_ORDINAL = 0.743, 0.815
# The textbook two-rater example (Wikipedia, "Cohen's kappa"): of 50 applications both
# readers said yes to 20 and no to 15; A yes and B no 5, A no and B yes 10: kappa = 0.4.
KAPPA_TABLE = {("yes", "yes"): 20, ("yes", "no"): 5, ("no", "yes"): 10, ("no", "no"): 15}
KAPPA_PUBLISHED = 0.4


def _units(rows) -> list[list]:
    return [list(column) for column in zip(*rows, strict=True)]


def test_alpha_matches_krippendorffs_worked_example() -> None:
    units = _units(KRIPPENDORFF_DATA)
    domain = [1, 2, 3, 4, 5]
    assert round(krippendorff_alpha(units, domain, "nominal"), 3) == KRIPPENDORFF_NOMINAL
    assert round(krippendorff_alpha(units, domain, "ordinal"), 3) == KRIPPENDORFF_ORDINAL


def test_kappa_matches_the_textbook_example() -> None:
    pairs = [pair for pair, count in KAPPA_TABLE.items() for _ in range(count)]
    assert math.isclose(cohen_kappa(pairs), KAPPA_PUBLISHED)


def test_agreement_picks_alpha_for_missing_answers_and_its_interval_is_reproducible() -> None:
    units = [{"a": "low", "b": "high", "c": None}, {"a": "high", "b": "high", "c": "high"}] * 3
    first, again = agreement(units), agreement(units)
    assert first["method"] == "krippendorff_alpha_ordinal"
    assert first["confidenceInterval"] == again["confidenceInterval"]
    low, high = first["confidenceInterval"]
    assert low <= first["statistic"] <= high


def test_state_table_allows_only_its_moves() -> None:
    assert set(MOVES) == set(STATES)
    assert allowed_moves("adjudicated") == [] and allowed_moves("withdrawn") == []
    assert "reviewed" not in allowed_moves("in_review")  # made by the last review only


def test_calibration_shows_a_measured_rate_only_from_the_minimum_labels() -> None:
    labels = [Label("timeline", "low", 0.8, "low")] * (MINIMUM_LABELS - 1)
    below = factor_calibration("timeline", labels)
    assert below["calibrationStatus"] == "unavailable_no_independent_labels"
    assert below["measuredAgreementRate"] is None
    enough = factor_calibration("timeline", [*labels, Label("timeline", "low", 0.8, "high")])
    assert enough["calibrationStatus"] == "measured_against_adjudicated_expert_labels"
    assert enough["measuredAgreementRate"] == round((MINIMUM_LABELS - 1) / MINIMUM_LABELS, 4)
    assert enough["confusionMatrix"]["low"] == {"low": MINIMUM_LABELS - 1, "medium": 0, "high": 1}


@pytest.fixture(scope="module")
def reviewers(small_db: Path | str) -> dict[str, dict]:
    """Two reviewers of tenant-alpha, each with their own token."""
    return {
        name: {"Authorization": "Bearer " + issue_token(small_db, "tenant-alpha", reviewer=name)}
        for name in ("ada", "bo")
    }


@pytest.fixture(scope="module")
def assessment_id(client: TestClient) -> str:
    site = create_site(client, ALPHA)
    return create_assessment(client, ALPHA, site["id"])["id"]


def open_case(client: TestClient, assessment_id: str) -> str:
    body = {"assessmentId": assessment_id, "reviewers": ["ada", "bo"], "dueDate": "2026-09-30"}
    response = client.post("/v1/review-cases", json=body, headers={**ALPHA, **key()})
    assert response.status_code == 201, response.text
    assert response.json()["data"]["state"] == "in_review"
    return response.json()["data"]["id"]


def review(severities: dict[str, str] | str = "low") -> dict:
    """A complete review: `severities` per factor (one severity for every factor)."""
    chosen = severities if isinstance(severities, dict) else dict.fromkeys(FACTORS, severities)
    return {
        "factors": [
            {
                "factor": factor,
                "severity": chosen.get(factor, "low"),
                "evidenceSupports": True,
                "confidence": "medium",
                "comment": None,
            }
            for factor in FACTORS
        ],
        "attestation": {"noConflictOfInterest": True, "evidenceChecked": True},
    }


def submit(client: TestClient, headers: dict, case_id: str, body: dict, idem: dict | None = None):
    return client.post(
        f"/v1/review-cases/{case_id}/reviews", json=body, headers={**headers, **(idem or key())}
    )


def move(client: TestClient, case_id: str, **body):
    return client.post(
        f"/v1/review-cases/{case_id}/transitions", json=body, headers={**ALPHA, **key()}
    )


def test_the_services_kappa_across_cases_is_the_textbook_figure(
    client: TestClient, reviewers: dict, assessment_id: str
) -> None:
    # The textbook table at a fifth of its size (kappa depends on its proportions only):
    # each case one unit of the timeline factor, yes as high and no as low.
    severity = {"yes": "high", "no": "low"}
    for (first, second), count in KAPPA_TABLE.items():
        for _ in range(count // 5):
            case_id = open_case(client, assessment_id)
            submit(client, reviewers["ada"], case_id, review({"timeline": severity[first]}))
            submit(client, reviewers["bo"], case_id, review({"timeline": severity[second]}))
    report = client.get("/v1/review-cases/agreement", headers=ALPHA)
    assert report.status_code == 200, report.text
    timeline = next(f for f in report.json()["data"] if f["factor"] == "timeline")["agreement"]
    assert timeline["method"] == "cohen_kappa"
    assert timeline["units"] == sum(KAPPA_TABLE.values()) // 5
    assert math.isclose(timeline["statistic"], KAPPA_PUBLISHED, abs_tol=1e-4)
    assert timeline["shareOfAgreement"] == 0.7


def test_a_case_moves_by_its_table_through_review_and_adjudication(
    client: TestClient, reviewers: dict, assessment_id: str
) -> None:
    case_id = open_case(client, assessment_id)
    early = move(client, case_id, to="adjudicated", decidedBy="lead")
    assert early.status_code == 409
    assert early.json()["allowedMoves"] == ["withdrawn"]
    assert "withdrawn" in early.json()["detail"]
    assert submit(client, reviewers["ada"], case_id, review("low")).status_code == 201
    assert submit(client, reviewers["bo"], case_id, review({"timeline": "high"})).status_code == 201
    case = client.get(f"/v1/review-cases/{case_id}", headers=ALPHA).json()["data"]
    assert case["state"] == "reviewed"
    assert case["disagreements"] == ["timeline"]
    assert case["agreement"]["shareOfAgreement"] == round(5 / 6, 4)
    undecided = move(client, case_id, to="adjudicated", decidedBy="lead", decisions=[])
    assert undecided.status_code == 422
    decision = {"factor": "timeline", "severity": "medium", "reason": "Study backlog."}
    done = move(client, case_id, to="adjudicated", decidedBy="lead", decisions=[decision])
    assert done.status_code == 200, done.text
    timeline = next(f for f in done.json()["data"]["factors"] if f["factor"] == "timeline")
    assert timeline["adjudication"]["decidedBy"] == "lead"
    assert timeline["adjudication"]["reason"] == "Study backlog."
    assert move(client, case_id, to="withdrawn").status_code == 409
    late = submit(client, reviewers["ada"], case_id, review("high"))
    assert late.status_code == 409
    calibration = client.get("/v1/review-cases/calibration", headers=ALPHA).json()["data"]
    timeline_labels = next(f for f in calibration if f["factor"] == "timeline")
    assert timeline_labels["labels"] >= 1
    assert (
        sum(
            timeline_labels["confusionMatrix"][s]["medium"]
            for s in timeline_labels["confusionMatrix"]
        )
        >= 1
    )


def test_one_key_makes_one_review_and_a_later_submission_amends_it(
    client: TestClient, reviewers: dict, assessment_id: str
) -> None:
    case_id = open_case(client, assessment_id)
    same_key = key()
    first = submit(client, reviewers["ada"], case_id, review("low"), same_key)
    again = submit(client, reviewers["ada"], case_id, review("low"), same_key)
    assert first.status_code == again.status_code == 201
    assert again.headers.get("Idempotent-Replayed") == "true"
    assert again.json() == first.json()
    amended = submit(client, reviewers["ada"], case_id, review("medium"))
    assert amended.json()["data"]["revision"] == 2
    case = client.get(f"/v1/review-cases/{case_id}", headers=ALPHA).json()["data"]
    assert [r["revision"] for r in case["reviews"]] == [2]
    assert case["state"] == "in_review"


def test_a_completed_packet_uploads_as_the_review(
    client: TestClient, reviewers: dict, assessment_id: str
) -> None:
    case_id = open_case(client, assessment_id)
    packet = client.get(f"/v1/review-cases/{case_id}/packet", headers=reviewers["bo"])
    assert packet.status_code == 200, packet.text
    completed = packet.json()["data"]
    for item in completed["rubric"]:
        if item["criterion"] in FACTORS:
            item.update(severity="high", evidenceSupports=False, confidence="low", comment="<b>x")
    completed["attestation"].update(noConflictOfInterest=True, evidenceChecked=True)
    uploaded = client.post(
        f"/v1/review-cases/{case_id}/reviews/packet",
        json=completed,
        headers={**reviewers["bo"], **key()},
    )
    assert uploaded.status_code == 201, uploaded.text
    data = uploaded.json()["data"]
    assert data["source"] == "packet"
    assert {a["severity"] for a in data["factors"]} == {"high"}
    assert data["factors"][0]["comment"] == "<b>x"  # kept as text, as sent
    other = {**completed, "caseId": "case_" + "0" * 20}
    wrong = client.post(
        f"/v1/review-cases/{case_id}/reviews/packet",
        json=other,
        headers={**reviewers["bo"], **key()},
    )
    assert wrong.status_code == 422
    assert wrong.json()["errors"][0]["field"] == "caseId"


def test_the_tenants_list_of_cases_carries_each_cases_reviews(
    client: TestClient, reviewers: dict, assessment_id: str
) -> None:
    """The list answers in the declared shape (a case's `reviews` is required), each case
    with the reviews its own page shows."""
    case_id = open_case(client, assessment_id)
    assert submit(client, reviewers["ada"], case_id, review("low")).status_code == 201
    listed = client.get("/v1/review-cases", headers=ALPHA)
    assert listed.status_code == 200, listed.text
    by_id = {case["id"]: case for case in listed.json()["data"]}
    alone = client.get(f"/v1/review-cases/{case_id}", headers=ALPHA).json()["data"]
    assert by_id[case_id]["reviews"] == alone["reviews"]
    assert [r["reviewer"] for r in by_id[case_id]["reviews"]] == ["ada"]
    assert all("reviews" in case for case in by_id.values())
