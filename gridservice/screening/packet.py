"""The blinded expert-review packet of an assessment.

Blinding: the packet carries no tenant id, customer reference, metadata, street address,
site id or assessment id. The site keeps its engineering fields with its coordinates
rounded to one decimal (about 10 km: to two, a cell of about 1 km with the county and the
load's MW can single out a campus, SECURITY.md section 8); `caseId` is an HMAC-SHA256 of the assessment id
under the service's secret, so only the service can link a packet back. The assessment's
own text is computed from public records and the site's numbers, never from the caller's
strings; the site's free-form engineering objects (ramp profile, on-site generation,
storage) are scrubbed of the identifying values in case a caller put one there, matched
after Unicode compatibility normalisation (NFKC) and case folding, so `acme-ref-77310` or a
full-width copy of `ACME-REF-77310` goes too.
"""

from __future__ import annotations

import copy
import hashlib
import hmac
import unicodedata
from typing import Any

from gridservice.screening.factors import FACTORS

PROTOCOL_VERSION = "1.2"
COORDINATE_DECIMALS = 1
REDACTED = "[redacted]"
# Shorter values cannot identify anyone and would corrupt ordinary text if scrubbed.
MIN_SCRUB_LENGTH = 4
ENGINEERING_FIELDS = (
    "requestedPeakLoadMw",
    "averageLoadMw",
    "serviceVoltageKv",
    "curtailableMw",
    "targetInServiceDate",
    "loadProfile",
    "redundancy",
    "rampProfile",
    "onSiteGeneration",
    "energyStorage",
)
INSTRUCTIONS = (
    "You are reviewing a blinded, non-capacity screening of a site for a large electric "
    "load. The requester's identity, references, metadata and street address are removed, "
    "and the site's coordinates are rounded to 1 decimal place (about 10 km). For each "
    "rubric item, judge whether the screening's finding or abstention for that factor is "
    "supported by the cited records and reasonable for the site; give a score from 1 to 5 "
    "and a comment. Then fill in researchCompression, outcome, reviewer and attestation. "
    "Do not try to identify the requester."
)
SCALE = {
    "min": 1,
    "max": 5,
    "labels": {
        "1": "wrong or unsupported",
        "2": "mostly unsupported",
        "3": "partly supported",
        "4": "supported, minor issues",
        "5": "fully supported",
    },
}
FACTOR_QUESTIONS = {
    "service_territory": "Are the utility and territory candidates, and their heuristic confidence, right for this point?",
    "queue_congestion": "Do the cited queue records fairly describe interconnection activity near the site?",
    "transmission": "Do the cited transmission projects and their timing matter for this site as stated?",
    "market_adequacy": "Does the market-adequacy finding follow from the cited load-forecast and resource-adequacy facts?",
    "load_scale": "Is the judgement of the load's size and service voltage sound?",
    "timeline": "Is the target in-service date judged realistically against typical study and construction times?",
}


def case_id(assessment_id: str, secret: bytes) -> str:
    """Return the keyed, one-way case id of an assessment: `case_` + 20 hex of HMAC-SHA256."""
    digest = hmac.new(secret, assessment_id.encode("utf-8"), hashlib.sha256).hexdigest()
    return f"case_{digest[:20]}"


def _blinded_site(site: dict, identifying: list[str]) -> dict:
    location = site.get("location") or {}
    blinded: dict[str, Any] = {
        "id": None,
        "tenantId": None,
        "customerReference": None,
        "createdAt": None,
        "metadata": None,
        "address": None,
        "location": {
            "latitude": round(float(location["latitude"]), COORDINATE_DECIMALS),
            "longitude": round(float(location["longitude"]), COORDINATE_DECIMALS),
        }
        if location
        else None,
    }
    for name in ENGINEERING_FIELDS:
        blinded[name] = _scrub(copy.deepcopy(site.get(name)), identifying)
    return blinded


def _identifying_values(assessment: dict, site: dict) -> list[str]:
    values = [
        assessment.get("id"),
        assessment.get("tenantId"),
        assessment.get("siteId"),
        site.get("id"),
        site.get("tenantId"),
        site.get("customerReference"),
        *(site.get("metadata") or {}).values(),
        *(site.get("address") or {}).values(),
    ]
    strings = {_fold(v) for v in values if isinstance(v, str)}
    strings = {v for v in strings if len(v.strip()) >= MIN_SCRUB_LENGTH}
    # Longest first, so a value containing another is removed whole.
    return sorted(strings, key=lambda v: (-len(v), v))


def _fold(text: str) -> str:
    """Return the text as it is compared: NFKC-normalised, then case-folded."""
    return unicodedata.normalize("NFKC", text).casefold()


def _scrub_text(text: str, folded_secrets: list[str]) -> str:
    """Return the text (NFKC-normalised) with every folded match of a secret redacted."""
    text = unicodedata.normalize("NFKC", text)
    # Fold character by character, remembering where each folded character came from:
    # folding can lengthen text ("ß" -> "ss"), so positions are mapped back, not reused.
    folded, origin = [], []
    for position, character in enumerate(text):
        for piece in character.casefold():
            folded.append(piece)
            origin.append(position)
    haystack = "".join(folded)
    hidden = [False] * len(text)
    for secret in folded_secrets:
        start = haystack.find(secret)
        while start != -1:
            for position in origin[start : start + len(secret)]:
                hidden[position] = True
            start = haystack.find(secret, start + len(secret))
    pieces: list[str] = []
    for position, character in enumerate(text):
        if not hidden[position]:
            pieces.append(character)
        elif position == 0 or not hidden[position - 1]:
            pieces.append(REDACTED)
    return "".join(pieces)


def _scrub(value: Any, secrets: list[str]) -> Any:
    if isinstance(value, str):
        return _scrub_text(value, secrets)
    if isinstance(value, dict):
        return {_scrub(k, secrets): _scrub(v, secrets) for k, v in value.items()}
    if isinstance(value, list):
        return [_scrub(v, secrets) for v in value]
    return value


def _rubric(assessment: dict) -> list[dict]:
    readiness = assessment.get("readiness") or {}
    severity = {f["factor"]: f["severity"] for f in readiness.get("findings", [])}
    items = [
        {
            "criterion": factor,
            "question": FACTOR_QUESTIONS[factor],
            "screeningResult": severity.get(factor, "abstained"),
            "scale": SCALE,
            "score": None,
            "comment": None,
        }
        for factor in FACTORS
    ]
    items.append(
        {
            "criterion": "overall",
            "question": "Is the overall readiness level, with its risks, next actions and "
            "limitations, a fair non-capacity screening of this site?",
            "screeningResult": readiness.get("level"),
            "scale": SCALE,
            "score": None,
            "comment": None,
        }
    )
    return items


def build_expert_review_packet(
    assessment: dict, site: dict, *, secret: bytes, submitted_at: str
) -> dict:
    """Return the blinded expert-review packet (`data` of the export) of an assessment."""
    service_assessment = copy.deepcopy(assessment)
    service_assessment.update({"id": None, "siteId": None, "tenantId": None, "createdAt": None})
    submission = hmac.new(
        secret, f"submission:{assessment['id']}:{submitted_at}".encode(), hashlib.sha256
    ).hexdigest()
    packet = {
        "protocolVersion": PROTOCOL_VERSION,
        "reviewKind": "expert_assessment",
        "submissionId": f"sub_{submission[:20]}",
        "submittedAt": submitted_at,
        "caseId": case_id(assessment["id"], secret),
        "instructions": INSTRUCTIONS,
        "reviewStatus": "unreviewed",
        "site": _blinded_site(site, _identifying_values(assessment, site)),
        "serviceAssessment": service_assessment,
        "rubric": _rubric(assessment),
        "researchCompression": {
            "manualResearchHoursEstimate": None,
            "reviewHoursSpent": None,
            "sourcesConsultedBeyondPacket": None,
            "note": None,
        },
        "outcome": {
            "agreesWithReadinessLevel": None,
            "revisedReadinessLevel": None,
            "materialErrors": None,
            "missingConsiderations": None,
            "recommendation": None,
        },
        "reviewer": {
            "name": None,
            "organization": None,
            "credentials": None,
            "conflictsOfInterest": None,
        },
        "attestation": {
            "statement": "I reviewed this packet independently, did not try to identify the "
            "requester, and my scores reflect my professional judgement.",
            "attested": None,
            "signedAt": None,
            "signature": None,
        },
    }
    return packet
