"""Fictional expert reviewers and review cases, so agreement, adjudication and the screening
against its experts show out of the box.

Both reviewers are invented (their names say so) and review the seeded assessment of
demo-alpha (`portfolio.SEEDED_ASSESSMENT_ID`): one case both have reviewed, disagreeing on
two factors that the (equally fictional) lead has adjudicated; and one case still waiting
for their reviews, for a reviewer connecting with a demo reviewer token to fill.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from gridservice.demo.common import BUILT_AT
from gridservice.demo.portfolio import SEEDED_ASSESSMENT_ID, SEEDED_TENANT
from gridservice.screening.factors import FACTORS
from gridservice.store import review_cases, writer

# (token, reviewer name): the demo's reviewer credentials, of demo-alpha.
DEMO_REVIEWER_TOKENS = (
    ("gds_demo_reviewer_avery", "fictional-reviewer-avery"),
    ("gds_demo_reviewer_blake", "fictional-reviewer-blake"),
)
REVIEWERS = [name for _token, name in DEMO_REVIEWER_TOKENS]
ADJUDICATED_CASE_ID = "rvc_demo_adjudicated"
AWAITING_CASE_ID = "rvc_demo_awaiting_reviews"
LEAD = "Fictional lead reviewer (demo)"
# reviewer -> factor -> (severity, evidence supports it, confidence, comment)
ANSWERS: dict[str, dict[str, tuple[str, bool, str, str | None]]] = {
    REVIEWERS[0]: {
        "service_territory": ("medium", True, "high", None),
        "queue_congestion": ("high", True, "medium", "Several large loads queued nearby."),
        "transmission": ("medium", True, "medium", None),
        "market_adequacy": ("medium", True, "medium", None),
        "load_scale": ("high", True, "high", None),
        "timeline": ("medium", False, "low", "2029 looks tight for a 300 MW load."),
    },
    REVIEWERS[1]: {
        "service_territory": ("medium", True, "medium", None),
        "queue_congestion": ("high", True, "high", None),
        "transmission": ("low", False, "medium", "The cited upgrade relieves this corridor."),
        "market_adequacy": ("medium", True, "low", None),
        "load_scale": ("high", True, "high", None),
        "timeline": ("low", True, "medium", None),
    },
}
DECISIONS = {
    "transmission": ("medium", "The upgrade is approved but not yet in service."),
    "timeline": ("medium", "Study backlog in the area makes 2029 uncertain."),
}


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def _case(case_id: str, due_date: str) -> dict:
    return {
        "id": case_id,
        "assessmentId": SEEDED_ASSESSMENT_ID,
        "reviewers": REVIEWERS,
        "dueDate": due_date,
        "createdAt": BUILT_AT,
    }


def _review(case_id: str, reviewer: str) -> dict:
    """Return the reviewer's submitted review of a case, as a submission stores it."""
    return {
        "id": f"rev_demo_{reviewer.rsplit('-', 1)[-1]}",
        "caseId": case_id,
        "reviewer": reviewer,
        "revision": 1,
        "submittedAt": BUILT_AT,
        "source": "form",
        "factors": [
            {
                "factor": factor,
                "severity": severity,
                "evidenceSupports": supports,
                "confidence": confidence,
                "comment": comment,
            }
            for factor in FACTORS
            for severity, supports, confidence, comment in [ANSWERS[reviewer][factor]]
        ],
        "attestation": {"noConflictOfInterest": True, "evidenceChecked": True},
    }


def _insert_case(conn: sqlite3.Connection, case: dict, state: str) -> None:
    review_cases.insert_case(
        conn,
        case_id=case["id"],
        tenant_id=SEEDED_TENANT,
        assessment_id=case["assessmentId"],
        state=state,
        created_at=case["createdAt"],
        body=_dumps(case),
        reviewers=case["reviewers"],
    )


def seed_review_cases(conn: sqlite3.Connection) -> None:
    """Insert the demo's reviewer tokens, its adjudicated case and its case awaiting reviews
    (after the seeded assessment)."""
    for token, reviewer in DEMO_REVIEWER_TOKENS:
        writer.add_token(conn, token, SEEDED_TENANT, BUILT_AT, reviewer=reviewer)
    _insert_case(conn, _case(ADJUDICATED_CASE_ID, "2025-09-30"), "adjudicated")
    for reviewer in REVIEWERS:
        review = _review(ADJUDICATED_CASE_ID, reviewer)
        review_cases.insert_review(
            conn,
            review_id=review["id"],
            case_id=ADJUDICATED_CASE_ID,
            tenant_id=SEEDED_TENANT,
            reviewer=reviewer,
            revision=1,
            submitted_at=BUILT_AT,
            body=_dumps(review),
        )
    for factor, (severity, reason) in DECISIONS.items():
        decision = {
            "factor": factor,
            "severity": severity,
            "reason": reason,
            "decidedBy": LEAD,
            "decidedAt": BUILT_AT,
        }
        review_cases.insert_adjudication(
            conn, ADJUDICATED_CASE_ID, SEEDED_TENANT, factor, _dumps(decision)
        )
    _insert_case(conn, _case(AWAITING_CASE_ID, "2025-10-31"), "in_review")
