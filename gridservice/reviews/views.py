"""What a review case looks like to its analyst and to a reviewer, and its expert labels.

A unit of agreement is one factor of one case; its answers are each assigned reviewer's
latest severity (None when they gave none or have not answered). A factor's expert label
exists once its case is adjudicated: the adjudicated severity where the reviewers
disagreed, else the severity they all gave.
"""

from __future__ import annotations

import json

from gridservice.reviews.agreement import Unit, agreement
from gridservice.reviews.states import allowed_moves
from gridservice.screening.factors import FACTORS


def answers_by_factor(reviews: dict[str, str]) -> dict[str, Unit]:
    """Return {factor: {reviewer: severity}} of the reviews (reviewer -> stored body)."""
    units: dict[str, Unit] = {factor: {} for factor in FACTORS}
    for reviewer, body in sorted(reviews.items()):
        for answer in json.loads(body)["factors"]:
            units[answer["factor"]][reviewer] = answer["severity"]
    return units


def disagreements(units: dict[str, Unit]) -> list[str]:
    """Return the factors whose given answers differ, in the factors' order."""
    return [
        factor
        for factor in FACTORS
        if len({a for a in units[factor].values() if a is not None}) > 1
    ]


def screening_severities(assessment: dict) -> dict[str, str]:
    """Return {factor: the screening's severity, or 'abstained'} of an assessment."""
    findings = (assessment.get("readiness") or {}).get("findings", [])
    found = {f["factor"]: f["severity"] for f in findings}
    return {factor: found.get(factor, "abstained") for factor in FACTORS}


def expert_labels(units: dict[str, Unit], decided: dict[str, str]) -> dict[str, str]:
    """Return {factor: expert severity} of an adjudicated case (`decided`: factor -> body)."""
    labels = {}
    for factor in FACTORS:
        if factor in decided:
            labels[factor] = json.loads(decided[factor])["severity"]
            continue
        given = {a for a in units[factor].values() if a is not None}
        if len(given) == 1:
            labels[factor] = given.pop()
    return labels


def analyst_view(
    state: str, case: dict, reviews: dict[str, str], decided: dict[str, str], assessment: dict
) -> dict:
    """Return the case as its tenant's analyst reads it: every review, the agreement across
    the case's factors, each factor's answers, and what is left to adjudicate."""
    units = answers_by_factor(reviews)
    screening = screening_severities(assessment)
    for reviewer in case["reviewers"]:
        for unit in units.values():
            unit.setdefault(reviewer, None)
    return {
        **case,
        "state": state,
        "allowedMoves": allowed_moves(state),
        "reviews": [json.loads(reviews[name]) for name in sorted(reviews)],
        "agreement": agreement([units[f] for f in FACTORS]) if reviews else None,
        "factors": [
            {
                "factor": factor,
                "screeningSeverity": screening[factor],
                "answers": units[factor],
                "adjudication": json.loads(decided[factor]) if factor in decided else None,
            }
            for factor in FACTORS
        ],
        "disagreements": disagreements(units),
    }


def listed_case(state: str, case: dict, reviews: dict[str, str]) -> dict:
    """Return the case as its tenant's list shows it: the case, its state and its reviews
    (its page adds the agreement, the factors and what is left to adjudicate)."""
    return {**case, "state": state, "reviews": [json.loads(reviews[n]) for n in sorted(reviews)]}


def reviewer_view(state: str, case: dict, reviews: dict[str, str], reviewer: str) -> dict:
    """Return the case as an assigned reviewer reads it: no assessment id, tenant or other
    reviewers' names; the others' reviews only once the reviewer's own is submitted."""
    visible = reviews if reviewer in reviews else {}
    return {
        "id": case["id"],
        "state": state,
        "dueDate": case["dueDate"],
        "reviews": [json.loads(visible[name]) for name in sorted(visible)],
    }


def agreement_across_cases(case_units: list[dict[str, Unit]]) -> list[dict]:
    """Return each factor's agreement over the cases with at least one review."""
    return [
        {"factor": factor, "agreement": agreement([units[factor] for units in case_units])}
        for factor in FACTORS
    ]
