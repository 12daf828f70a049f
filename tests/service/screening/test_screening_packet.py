"""The blinded expert-review packet: nothing that identifies the requester, a fillable rubric."""

from __future__ import annotations

import hashlib
import hmac
import json

import pytest
from screening_support import SITE_ID, TENANT_ID, build_world, site

from gridservice.screening import build_expert_review_packet, screen_site
from gridservice.screening.packet import former_identifying_values

ASSESSMENT_ID = "asm_9b1c77d0e4"
SECRET = b"packet-test-secret"
SUBMITTED_AT = "2025-07-03T09:00:00Z"


@pytest.fixture(scope="module")
def conn(tmp_path_factory):
    connection = build_world(tmp_path_factory.mktemp("packet") / "world.db")
    yield connection
    connection.close()


@pytest.fixture(scope="module")
def the_site() -> dict:
    # A caller who put identifying text into a free-form engineering object.
    return site(
        "dual",
        location={"latitude": 30.512345, "longitude": -97.487654},
        rampProfile=[{"phase": "ACME-DEAL-4471 phase 1", "mw": 200}],
        energyStorage={"owner": "jane.doe@acme.example", "mwh": 400},
    )


@pytest.fixture(scope="module")
def assessment(conn, the_site) -> dict:
    return screen_site(
        conn,
        the_site,
        assessment_id=ASSESSMENT_ID,
        tenant_id=TENANT_ID,
        created_at="2025-07-02T10:00:00Z",
    )


@pytest.fixture(scope="module")
def packet(assessment, the_site) -> dict:
    return build_expert_review_packet(
        assessment, the_site, secret=SECRET, submitted_at=SUBMITTED_AT
    )


def test_packet_has_the_interface_fields(packet):
    assert packet["protocolVersion"] == "1.2"
    assert packet["reviewKind"] == "expert_assessment"
    assert packet["reviewStatus"] == "unreviewed"
    assert packet["submittedAt"] == SUBMITTED_AT
    assert packet["submissionId"] and packet["instructions"]
    for name in ("researchCompression", "outcome", "reviewer", "attestation"):
        assert isinstance(packet[name], dict) and packet[name]


def test_nothing_identifying_appears_anywhere_in_the_packet(packet, the_site):
    text = json.dumps(packet, ensure_ascii=False)
    forbidden = [
        TENANT_ID,
        SITE_ID,
        ASSESSMENT_ID,
        the_site["customerReference"],
        *the_site["metadata"].values(),
        *the_site["address"].values(),
    ]
    forbidden = [value for value in forbidden if value not in ("US", "TX")]
    for value in forbidden:
        assert value not in text, value
    # The metadata keys are the caller's too.
    assert "projectCode" not in text


def test_site_keeps_engineering_fields_with_rounded_coordinates(packet, the_site):
    blinded = packet["site"]
    for name in ("id", "tenantId", "customerReference", "metadata", "address"):
        assert blinded[name] is None
    assert blinded["location"] == {"latitude": 30.5, "longitude": -97.5}
    assert "1 decimal place" in packet["instructions"]
    assert blinded["requestedPeakLoadMw"] == the_site["requestedPeakLoadMw"]
    assert blinded["serviceVoltageKv"] == the_site["serviceVoltageKv"]
    assert blinded["targetInServiceDate"] == the_site["targetInServiceDate"]
    assert blinded["rampProfile"] == [{"phase": "[redacted] phase 1", "mw": 200}]


def test_service_assessment_keeps_every_key_with_identity_nulled(packet, assessment):
    nested = packet["serviceAssessment"]
    assert set(nested) == set(assessment)
    assert nested["id"] is None and nested["siteId"] is None and nested["tenantId"] is None
    assert nested["readiness"] == assessment["readiness"]
    assert nested["relevantQueueRecords"] == assessment["relevantQueueRecords"]
    assert assessment["id"] == ASSESSMENT_ID  # the caller's assessment is left untouched


def test_case_id_is_a_keyed_hash_of_the_assessment_id(packet, assessment, the_site):
    expected = hmac.new(SECRET, ASSESSMENT_ID.encode(), hashlib.sha256).hexdigest()[:20]
    assert packet["caseId"] == f"case_{expected}"
    again = build_expert_review_packet(
        assessment, the_site, secret=SECRET, submitted_at=SUBMITTED_AT
    )
    assert again["caseId"] == packet["caseId"]
    other_key = build_expert_review_packet(
        assessment, the_site, secret=b"another", submitted_at=SUBMITTED_AT
    )
    assert other_key["caseId"] != packet["caseId"]


def test_rubric_has_one_blank_item_per_factor_and_overall(packet, assessment):
    rubric = packet["rubric"]
    criteria = [item["criterion"] for item in rubric]
    assert criteria == [
        "service_territory",
        "queue_congestion",
        "transmission",
        "market_adequacy",
        "load_scale",
        "timeline",
        "overall",
    ]
    for item in rubric:
        assert item["question"].endswith("?")
        assert item["scale"]["min"] == 1 and item["scale"]["max"] == 5
        assert item["score"] is None and item["comment"] is None
    results = {item["criterion"]: item["screeningResult"] for item in rubric}
    assert results["overall"] == assessment["readiness"]["level"]


def test_a_value_stored_padded_or_held_before_is_scrubbed_unpadded(assessment, the_site):
    """Sites stored before references were trimmed keep their padding; a copy without it, or
    a copy of a value the site no longer holds, is still scrubbed."""
    padded = {
        **the_site,
        "customerReference": "\tACME-REF-77311\n",
        "rampProfile": [{"note": "ACME-REF-77311"}, {"note": "ORION-LEGACY-9"}],
    }
    packet = build_expert_review_packet(
        assessment,
        padded,
        secret=SECRET,
        submitted_at=SUBMITTED_AT,
        former_values=former_identifying_values(
            [[{"field": "metadata", "from": {"deal": "ORION-LEGACY-9"}, "to": None}]]
        ),
    )
    assert packet["site"]["rampProfile"] == [{"note": "[redacted]"}, {"note": "[redacted]"}]
