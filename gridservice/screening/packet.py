"""The blinded expert-review packet of an assessment.

Blinding: the packet carries no tenant id, customer reference, metadata, street address,
site id or assessment id. The site keeps its engineering fields with its coordinates
rounded to one decimal (about 10 km: to two, a cell of about 1 km with the county and the
load's MW can single out a campus, SECURITY.md section 8); `caseId` is an HMAC-SHA256 of the
assessment id under the service's secret, so only the service can link a packet back. The
assessment's own text is computed from public records and the site's numbers, never from
the caller's strings; what it says about distances from the exact point (the nearest plant
and its `distanceKm`) is left out, since a distance to a public plant narrows the rounded
cell to an arc. The site's free-form engineering objects (ramp profile, on-site generation,
storage) are scrubbed of every identifying value the site has ever had (its revision log
too, so clearing a reference later does not reveal its copies), compared in the form
`comparable_text` gives (NFKC, case folding, invisible characters removed, look-alikes
folded) and, for a value that spells a number, as a number too.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from gridservice.screening.comparable_text import (
    FOLDS,
    as_number,
    comparable,
    comparable_characters,
    is_invisible,
)
from gridservice.screening.factors import FACTORS, SEVERITY_ORDER

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
# The site members a caller names itself with; their past values come from the revision log.
IDENTIFYING_MEMBERS = ("customerReference", "metadata", "address")
# Members of the assessment measured from the exact point: a distance (or which plant is
# nearest, or what lies within a radius) with the public location of what it is measured to
# narrows the rounded cell far below its ~100 km2, so the packet leaves them out (null).
DISTANCE_MEMBER = re.compile(r"distance|nearest|radius", re.IGNORECASE)
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


@dataclass(frozen=True)
class Secrets:
    """The identifying values a packet must not carry: as comparable text (in each fold, longest
    first, so a value containing another is removed whole), and as numbers."""

    texts: dict[str, list[str]]
    numbers: frozenset[float]


def _blinded_site(site: dict, secrets: Secrets) -> dict:
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
        value = site.get(name)
        # The typed numbers (MW, kV) are the engineering itself and bounded; only text and
        # the free-form objects can carry a copy.
        blinded[name] = _scrub(value, secrets) if isinstance(value, str | list | dict) else value
    return blinded


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def former_identifying_values(revisions: Iterable[list[dict]]) -> list[str]:
    """Return every value a site's identifying members held, from its revision log's changes."""
    return [
        text
        for changes in revisions
        for change in changes
        if change.get("field") in IDENTIFYING_MEMBERS
        for text in _strings([change.get("from"), change.get("to")])
    ]


def _identifying_values(assessment: dict, site: dict, former: Iterable[str]) -> Secrets:
    values = [
        assessment.get("id"),
        assessment.get("tenantId"),
        assessment.get("siteId"),
        site.get("id"),
        site.get("tenantId"),
        *_strings([site.get(name) for name in IDENTIFYING_MEMBERS]),
        *former,
    ]
    strings = [v.strip() for v in values if isinstance(v, str)]
    texts = {}
    for fold in FOLDS:
        folded = {comparable(v, fold) for v in strings}
        folded = {v for v in folded if len(v) >= MIN_SCRUB_LENGTH}
        texts[fold] = sorted(folded, key=lambda v: (-len(v), v))
    numbers = {as_number(v) for v in strings if len(v) >= MIN_SCRUB_LENGTH} - {None}
    return Secrets(texts, frozenset(numbers))


def _scrub_text(text: str, secrets: dict[str, list[str]]) -> str:
    """Return the text (NFKC-normalised, invisible characters dropped) with every comparable
    match of a secret redacted."""
    hidden: set[int] = set()
    for fold, folded_secrets in secrets.items():
        text, pieces = comparable_characters(text, fold)
        hidden |= _matched_positions(pieces, folded_secrets)
    kept: list[str] = []
    for position, character in enumerate(text):
        # Invisible characters carry nothing a reviewer needs, and tag characters can spell
        # a whole value that no comparison sees: none is passed on.
        if is_invisible(character):
            continue
        if position not in hidden:
            kept.append(character)
        elif position - 1 not in hidden:
            kept.append(REDACTED)
    return "".join(kept)


def _matched_positions(pieces: list[str], secrets: list[str]) -> set[int]:
    """Return the positions of the characters whose folded pieces spell a secret."""
    # Each character folds to zero or more characters ("ß" -> "ss", a zero width space ->
    # ""), so matches are found in the folded text and mapped back to the characters they
    # came from; a match hides every character from its first to its last, invisible ones too.
    origin = [position for position, piece in enumerate(pieces) for _ in piece]
    haystack = "".join(pieces)
    hidden: set[int] = set()
    for secret in secrets:
        start = haystack.find(secret)
        while start != -1:
            hidden.update(range(origin[start], origin[start + len(secret) - 1] + 1))
            start = haystack.find(secret, start + len(secret))
    return hidden


def _scrub(value: Any, secrets: Secrets) -> Any:
    if isinstance(value, str):
        return _scrub_text(value, secrets.texts)
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float):
        return REDACTED if value in secrets.numbers else value
    if isinstance(value, dict):
        return {_scrub(k, secrets): _scrub(v, secrets) for k, v in value.items()}
    if isinstance(value, list):
        return [_scrub(v, secrets) for v in value]
    return value


def _without_distances(value: Any) -> Any:
    """Return the value with every distance-like member (at any depth) set to null."""
    if isinstance(value, dict):
        return {
            k: None if DISTANCE_MEMBER.search(k) else _without_distances(v)
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [_without_distances(v) for v in value]
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
            # What a review case records of each factor (POST /v1/review-cases/{caseId}/
            # reviews/packet): the expert's severity on the screening's scale, whether the
            # cited evidence supports the finding, and how sure the expert is.
            "severity": None,
            "severityScale": list(SEVERITY_ORDER),
            "evidenceSupports": None,
            "confidence": None,
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
    assessment: dict,
    site: dict,
    *,
    secret: bytes,
    submitted_at: str,
    former_values: Iterable[str] = (),
) -> dict:
    """Return the blinded expert-review packet (`data` of the export) of an assessment.

    `former_values` are the values the site's identifying members held before (see
    `former_identifying_values`); they are scrubbed like the current ones.
    """
    service_assessment = _without_distances(assessment)
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
        "site": _blinded_site(site, _identifying_values(assessment, site, former_values)),
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
            "noConflictOfInterest": None,
            "evidenceChecked": None,
            "signedAt": None,
            "signature": None,
        },
    }
    return packet
