"""What an expert reviewer sees: the queue of their blinded packets and the review form;
and the analyst's form that sends an assessment to reviewers.

The form asks, factor by factor, the reviewer's own severity, whether the finding's evidence
supports it, their confidence and a comment, then the attestation. A submission's
Idempotency-Key is the session's and the answers': a second click on the same answers
replays the one review; changed answers are an amendment (the next revision).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import re
import uuid
from typing import Any

import pandas as pd
import streamlit as st

from components import connection, data, glossary
from components.problems import show_problem
from components.reviews_view import CANNOT_JUDGE, reviews_frame, state_words
from components.tables import show_table
from components.text import escape_markdown
from gridclient import (
    ExpertReviewPacket,
    FactorAnswer,
    GridAPIError,
    ReviewCase,
    ReviewSubmission,
)

SEVERITY_CHOICES = [*glossary.SEVERITIES.values(), CANNOT_JUDGE]
CONFIDENCE_CHOICES = list(glossary.SEVERITIES.values())
NONCE_KEY = "reviews.session_nonce"
SUBMITTED_KEY = "reviews.submitted"
_CODES = {words: code for code, words in glossary.SEVERITIES.items()}


def queue_frame(cases: list[ReviewCase]) -> pd.DataFrame:
    """Return the reviewer's queue: each assigned case, its state, due date, and whether the
    reviewer's review is in."""
    return pd.DataFrame(
        [
            {
                "Case": case.id,
                "State": state_words(case.state),
                "Due": case.due_date,
                "Your review": "Submitted" if case.reviews else "Not yet",
            }
            for case in cases
        ],
        columns=["Case", "State", "Due", "Your review"],
    )


def packet_factors(packet: ExpertReviewPacket) -> list[str]:
    """Return the factors the packet's rubric asks about, in its order."""
    criteria = [str(item.get("criterion")) for item in packet.rubric or []]
    return [c for c in criteria if c in glossary.FACTORS] or list(glossary.FACTORS)


def screening_finding(packet: ExpertReviewPacket, factor: str) -> str:
    """Return what the blinded screening found on a factor, in words."""
    readiness = (packet.service_assessment.readiness if packet.service_assessment else None) or {}
    for finding in readiness.get("findings") or []:
        if finding.get("factor") == factor:
            severity = glossary.label("severity", finding.get("severity")) or "Unstated"
            return f"Screening: {severity} severity. {glossary.plain(finding.get('finding') or '')}"
    return "Screening: no finding on this factor (it abstained)."


def idempotency_key(case_id: str, body: dict[str, Any]) -> str:
    """Return the key of one submission of these answers from this session."""
    nonce = st.session_state.setdefault(NONCE_KEY, uuid.uuid4().hex)
    answers = json.dumps([case_id, body], sort_keys=True, default=str).encode("utf-8")
    return f"review-{nonce[:16]}-{hashlib.sha256(answers).hexdigest()[:32]}"


def _answer_fields(case_id: str, factor: str, packet: ExpertReviewPacket) -> dict[str, Any]:
    """Draw one factor's questions; return what the reviewer chose."""
    st.markdown(f"**{escape_markdown(glossary.label('factor', factor))}**")
    st.caption(escape_markdown(screening_finding(packet, factor)))
    severity, supports, confidence = st.columns(3)
    key = f"review.{case_id}.{factor}"
    return {
        "severity": severity.radio("Your severity", SEVERITY_CHOICES, index=None, key=key + ".s"),
        "supports": supports.radio(
            "Does the evidence support the finding?", ["Yes", "No"], index=None, key=key + ".e"
        ),
        "confidence": confidence.radio(
            "Your confidence", CONFIDENCE_CHOICES, index=None, key=key + ".c"
        ),
        "comment": st.text_area("Comment (optional)", max_chars=4000, key=key + ".t"),
    }


def _submission(chosen: dict[str, dict[str, Any]]) -> ReviewSubmission:
    return ReviewSubmission(
        factors=[
            FactorAnswer(
                factor=factor,
                severity=_CODES.get(answers["severity"]),
                evidence_supports=answers["supports"] == "Yes",
                confidence=_CODES[answers["confidence"]],
                comment=answers["comment"].strip() or None,
            )
            for factor, answers in chosen.items()
        ]
    )


def draw_form(conn: connection.ConnectionKey, case: ReviewCase) -> None:
    """Draw the review form of a case; submit it when every factor is answered and attested."""
    packet = data.review_packet(conn, case.id)
    with st.form(f"review.{case.id}"):
        chosen = {f: _answer_fields(case.id, f, packet) for f in packet_factors(packet)}
        st.markdown("**Attestation**")
        no_conflict = st.checkbox("I have no conflict of interest in this site.")
        checked = st.checkbox("I checked the evidence cited for each finding.")
        if not st.form_submit_button("Submit my review", type="primary"):
            return
    missing = [
        glossary.label("factor", f)
        for f, answers in chosen.items()
        if answers["severity"] is None or answers["supports"] is None or not answers["confidence"]
    ]
    if missing or not (no_conflict and checked):
        st.error(
            escape_markdown(
                "Not submitted: "
                + (f"answer every question of {', '.join(missing)}. " if missing else "")
                + ("" if no_conflict and checked else "Tick both attestations.")
            )
        )
        return
    key = idempotency_key(case.id, chosen)
    review = data.submit_review(conn, case.id, _submission(chosen), key)
    st.session_state[SUBMITTED_KEY] = (
        f"Your review of case {case.id} is in (revision {review.revision})."
    )
    st.rerun()


def draw_reviewer(conn: connection.ConnectionKey) -> None:
    """Draw the reviewer's queue, the chosen case's form, and the reviews once theirs is in."""
    if SUBMITTED_KEY in st.session_state:
        st.success(escape_markdown(st.session_state.pop(SUBMITTED_KEY)))
    cases = data.review_cases(conn)
    st.subheader("Your review queue")
    if not cases:
        st.info("No review case is assigned to you.")
        return
    # the cases still waiting for this reviewer's answers first
    cases = sorted(cases, key=lambda c: (bool(c.reviews), c.id or ""))
    show_table(queue_frame(cases), hide_index=True, width="stretch")
    by_id = {c.id: c for c in cases}
    case_id = st.selectbox("Case to review", list(by_id), key="reviews.case")
    case = data.review_case(conn, case_id) or by_id[case_id]
    if case.reviews:
        st.subheader("Reviews so far")
        st.caption("Your review is in; the other reviewers' show once they submit theirs.")
        answers = reviews_frame([case]).drop(columns=["Case", "Assessment"])
        show_table(answers, hide_index=True, width="stretch")
    if case.state in ("in_review", "reviewed"):
        st.subheader("Your review" if not case.reviews else "Amend your review")
        st.caption(
            "The packet is blinded: no client, site name, address or assessment id. Answer "
            "each factor from the evidence the screening cites."
        )
        draw_form(conn, case)
    else:
        st.caption(
            escape_markdown(
                f"This case is {state_words(case.state).lower()}: reviews can no longer be "
                "submitted."
            )
        )


REVIEWER_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")  # as tokens name reviewers
REVIEW_DAYS = 14  # the due date offered: two weeks from today


def reviewer_names(text: str) -> list[str]:
    """Return the reviewer names typed (commas, semicolons or spaces between them), once each,
    in the order typed."""
    return list(dict.fromkeys(n for n in re.split(r"[,;\s]+", text.strip()) if n))


def draw_send_form(conn: connection.ConnectionKey, assessment_id: str) -> None:
    """Draw the analyst's form sending the assessment to two or more reviewers by a date."""
    with st.expander("Send for expert review"):
        with st.form(f"send.{assessment_id}"):
            typed = st.text_input(
                "Reviewers",
                max_chars=400,
                help="Two or more reviewer names, separated by commas: the names their "
                "reviewer credentials were issued under by the service's administrator.",
            )
            due = st.date_input(
                "Due by",
                value=dt.date.today() + dt.timedelta(days=REVIEW_DAYS),
                min_value=dt.date.today(),
            )
            if not st.form_submit_button("Send for review"):
                return
        names = reviewer_names(typed)
        bad = [n for n in names if not REVIEWER_NAME.match(n)]
        if len(names) < 2 or bad:
            st.error(
                escape_markdown(
                    "Not sent: "
                    + (f"these are not reviewer names: {', '.join(bad)}. " if bad else "")
                    + ("Name at least two reviewers." if len(names) < 2 else "")
                )
            )
            return
        key = idempotency_key(assessment_id, {"reviewers": names, "due": due.isoformat()})
        try:
            case = data.send_for_review(conn, assessment_id, names, due.isoformat(), key)
        except GridAPIError as exc:  # the service's refusal, in the app's words
            show_problem(exc)
            return
        st.success(
            escape_markdown(
                f"Sent to {', '.join(names)} as case {case.id}, due {due.isoformat()}. "
                "It is listed on the Expert reviews page."
            )
        )
