"""The blinded packet against copies of a site's identity that try to outlive or outwit the
scrub, and against distances that would place the site inside its rounded cell; each attack
goes through the HTTP API (create the site, screen it, read the packet)."""

from __future__ import annotations

import json
import re

from security_support import ALPHA, create_assessment, create_site, key

from gridservice.screening.comparable_text import FOLDS, comparable

REDACTED = "[redacted]"


def packet_of(service, assessment_id: str) -> dict:
    response = service.get(f"/v1/assessments/{assessment_id}/expert-review.json", headers=ALPHA)
    assert response.status_code == 200, response.text
    return response.json()["data"]


def leaks(packet: dict, value: str) -> bool:
    """Return whether a value is in the packet's text, in any disguise the scrubber folds."""
    text = json.dumps(packet, ensure_ascii=False)
    return any(comparable(value, fold) in comparable(text, fold) for fold in FOLDS)


def test_a_reference_cleared_after_screening_stays_scrubbed(service):
    """Scrubbing with today's values only would show the copy once the reference is cleared:
    the packet uses every value in the site's revision log."""
    site = create_site(
        service,
        ALPHA,
        customerReference="PROJECT-HERON-4",
        metadata={"deal": "Kestrel Ridge Partners"},
        rampProfile=[{"note": "PROJECT-HERON-4"}, {"note": "for Kestrel Ridge Partners"}],
    )
    assessment = create_assessment(service, ALPHA, site["id"])
    assert not leaks(packet_of(service, assessment["id"]), "PROJECT-HERON-4")

    cleared = service.patch(
        f"/v1/sites/{site['id']}",
        json={"customerReference": None, "metadata": None},
        headers={**ALPHA, **key()},
    )
    assert cleared.status_code == 200, cleared.text
    # The packet made before, and one of an assessment made after the change (which a
    # packet frozen at its first reading would not cover).
    later = create_assessment(service, ALPHA, site["id"])
    for assessment_id in (assessment["id"], later["id"]):
        packet = packet_of(service, assessment_id)
        assert packet["site"]["rampProfile"] == [
            {"note": REDACTED},
            {"note": f"for {REDACTED}"},
        ]
        assert not leaks(packet, "PROJECT-HERON-4")
        assert not leaks(packet, "Kestrel Ridge Partners")


def distance_members(value, path: str = "") -> list[str]:
    """Return the paths of every non-null member whose name speaks of a distance."""
    found = []
    if isinstance(value, dict):
        for name, member in value.items():
            if re.search("distance|nearest|radius|km$", name, re.IGNORECASE) and member:
                found.append(f"{path}.{name}")
            found += distance_members(member, f"{path}.{name}")
    elif isinstance(value, list):
        for index, member in enumerate(value):
            found += distance_members(member, f"{path}[{index}]")
    return found


def test_the_packet_gives_no_distance_from_the_exact_point(service):
    """A public plant's id with the distance to it shrinks the rounded cell to an arc."""
    site = create_site(service, ALPHA)
    assessment = create_assessment(service, ALPHA, site["id"])
    nearest = assessment["keyFigures"]["nearestPlant"]
    assert nearest and nearest["distanceKm"] is not None  # the attack has something to use
    packet = packet_of(service, assessment["id"])
    assert distance_members(packet) == []
    assert packet["serviceAssessment"]["keyFigures"]["nearestPlant"] is None
    assert nearest["id"] not in json.dumps(packet)
    # The rest of the key figures is kept for the reviewer.
    figures = packet["serviceAssessment"]["keyFigures"]
    assert figures["tightestReserveMargin"] == assessment["keyFigures"]["tightestReserveMargin"]


def test_a_number_copy_of_a_numeric_value_is_scrubbed(service):
    site = create_site(
        service,
        ALPHA,
        address={"postalCode": "97403"},
        metadata={"account": "0088112"},
        energyStorage={"z": 97403, "zf": 97403.0, "mwh": 400},
        onSiteGeneration=[{"code": 88112, "mw": 10}],
    )
    packet = packet_of(service, create_assessment(service, ALPHA, site["id"])["id"])["site"]
    assert packet["energyStorage"] == {"z": REDACTED, "zf": REDACTED, "mwh": 400}
    assert packet["onSiteGeneration"] == [{"code": REDACTED, "mw": 10}]


def test_a_padded_value_is_stored_trimmed_and_its_copies_scrubbed(service):
    site = create_site(
        service,
        ALPHA,
        customerReference="\tACME-REF-77311",
        metadata={"owner": "Bluebird Holdings\n"},
        address={"locality": "  Secretville  "},
        rampProfile=[{"note": "ACME-REF-77311"}, {"note": "Bluebird Holdings"}],
        energyStorage={"site": "Secretville"},
    )
    assert site["customerReference"] == "ACME-REF-77311"
    assert site["metadata"] == {"owner": "Bluebird Holdings"}
    assert site["address"]["locality"] == "Secretville"
    packet = packet_of(service, create_assessment(service, ALPHA, site["id"])["id"])["site"]
    assert packet["rampProfile"] == [{"note": REDACTED}, {"note": REDACTED}]
    assert packet["energyStorage"] == {"site": REDACTED}

    renamed = service.patch(
        f"/v1/sites/{site['id']}",
        json={"customerReference": " ACME-REF-90001\n"},
        headers={**ALPHA, **key()},
    )
    assert renamed.json()["data"]["customerReference"] == "ACME-REF-90001"


DISGUISED_COPIES = {
    "zero width space": "ACME\u200b-REF-77\u200b311",
    "zero width joiner": "AC\u200dME-REF-77311",
    "soft hyphen": "AC\u00adME-REF-773\u00ad11",
    "word joiner": "ACME\u2060-\u2060REF-77311",
    "bidi isolates": "\u2066ACME\u2069-\u2067REF\u2069-\u206877311\u2069",
    "variation selectors": "A\ufe0fCME-RE\ufe0eF-7\U000e01007311",
    "tag characters": "ACME-\U000e0041\U000e0042REF-77311\U000e007f",
    "non-breaking hyphen": "ACME\u2011REF\u201177311",
    "en dash": "ACME\u2013REF\u201377311",
    "cyrillic capitals": "\u0410\u0421\u041c\u0415-REF-77311",
    "cyrillic small letters": "\u0430\u0441m\u0435-ref-77311",
}


def spelled_in_tags(text: str) -> str:
    """Return the text spelled in tag characters, which draw as nothing."""
    return "".join(chr(0xE0000 + ord(c)) for c in text)


def test_invisible_and_look_alike_copies_are_scrubbed(service):
    site = create_site(
        service,
        ALPHA,
        customerReference="ACME-REF-77311",
        rampProfile=[
            *({"kind": kind, "note": f"for {copy}"} for kind, copy in DISGUISED_COPIES.items()),
            {"kind": "spelled in tags", "note": "phase 2" + spelled_in_tags("ACME-REF-77311")},
        ],
    )
    packet = packet_of(service, create_assessment(service, ALPHA, site["id"])["id"])
    notes = {step["kind"]: step["note"] for step in packet["site"]["rampProfile"]}
    assert notes == {
        **{kind: f"for {REDACTED}" for kind in DISGUISED_COPIES},
        "spelled in tags": "phase 2",
    }
    assert not leaks(packet, "ACME-REF-77311")
