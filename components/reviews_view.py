"""Expert review in the analyst's words: review cases, reviews side by side per factor, the
agreement with its counts and interval, the adjudication, the screening against its experts,
and the reviews as a spreadsheet.

Everything a reviewer typed (comments, reasons) reaches the page inside tables or through
`escape_markdown`, never as markdown or HTML, and the spreadsheets through the app's one
writer (`components.spreadsheets`), formula-safe.
"""

from __future__ import annotations

from collections.abc import Iterable

import altair as alt
import pandas as pd

from components import glossary, spreadsheets
from gridclient import FactorAgreement, FactorCalibration, ReviewAgreement, ReviewCase

STATES = {
    "unreviewed": "Not yet reviewed",
    "in_review": "In review",
    "reviewed": "Reviewed, to adjudicate",
    "adjudicated": "Adjudicated",
    "withdrawn": "Withdrawn",
}
METHODS = {
    "cohen_kappa": "Cohen's kappa",
    "krippendorff_alpha_ordinal": "Krippendorff's alpha (ordinal)",
}
CALIBRATION_STATUSES = {
    "unavailable_no_independent_labels": "Heuristic only: too few expert labels",
    "measured_against_adjudicated_expert_labels": "Measured against adjudicated expert labels",
}
SCREENING_RESULTS = {**glossary.SEVERITIES, "abstained": "No finding"}
CANNOT_JUDGE = "Cannot judge"


def state_words(state: str | None) -> str:
    """Return a case's state in words."""
    return STATES.get(state or "", glossary.words(state or "unknown"))


def severity_words(severity: str | None) -> str:
    """Return a severity in words; none given is the reviewer's "cannot judge"."""
    return glossary.SEVERITIES.get(severity or "", CANNOT_JUDGE)


def _percent(value: float | None) -> str:
    return "not defined" if value is None else f"{value:.0%}"


def _figure(value: float | None) -> str:
    return "not defined" if value is None else f"{value:.2f}"


def agreement_words(agreement: ReviewAgreement | None) -> str:
    """Return the agreement in a sentence: share, statistic with its interval, and counts."""
    if agreement is None:
        return "No review is in yet: agreement is measured once reviews arrive."
    method = METHODS.get(agreement.method or "", glossary.words(agreement.method or "statistic"))
    interval = agreement.confidence_interval
    level = f"{(agreement.confidence_level or 0.95):.0%}"
    spread = (
        f"{level} interval {interval[0]:.2f} to {interval[1]:.2f}"
        if interval
        else "no interval (too few factors or no variation)"
    )
    return (
        f"Reviewers agree on {_percent(agreement.share_of_agreement)} of paired answers. "
        f"{method}: {_figure(agreement.statistic)} ({spread}). Counted over {agreement.units} "
        f"factors, {agreement.answers} answers, {agreement.reviewers} reviewers."
    )


def review_status_words(cases: Iterable[ReviewCase], assessment_id: str | None) -> str:
    """Return the expert-review status of an assessment: each of its cases' state."""
    mine = [c for c in cases if c.assessment_id == assessment_id]
    if not mine:
        return "Expert review: not sent for review yet."
    states = "; ".join(f"case {c.id} {state_words(c.state).lower()}" for c in mine)
    return f"Expert review: {states}."


def cases_frame(cases: Iterable[ReviewCase]) -> pd.DataFrame:
    """Return one row per case: its state, due date, reviews in of those asked, the factors
    reviewers disagree on, then the assessment and the reviewers' names (the long cells last,
    so the state of every case reads at 1280 px without scrolling)."""
    rows = [
        {
            "Case": case.id,
            "State": state_words(case.state),
            "Due": case.due_date,
            "Reviews in": f"{len(case.reviews)} of {len(case.reviewers or [])}",
            "Disagreements": ", ".join(
                glossary.label("factor", f) for f in case.disagreements or []
            ),
            "Assessment": case.assessment_id,
            "Reviewers": ", ".join(case.reviewers or []),
        }
        for case in cases
    ]
    return pd.DataFrame(
        rows,
        columns=["Case", "State", "Due", "Reviews in", "Disagreements", "Assessment", "Reviewers"],
    )


def side_by_side_frame(case: ReviewCase) -> pd.DataFrame:
    """Return one row per factor: the screening's severity, each reviewer's, whether they
    agree, and the adjudicated severity with who decided and why."""
    rows = []
    for factor in case.factors or []:
        row = {
            "Factor": glossary.label("factor", factor.factor),
            "Screening": SCREENING_RESULTS.get(factor.screening_severity or "", "No finding"),
        }
        for reviewer, severity in factor.answers.items():
            row[reviewer] = severity_words(severity)
        given = {s for s in factor.answers.values() if s is not None}
        row["Reviewers agree"] = "Yes" if len(given) <= 1 else "No"
        decided = factor.adjudication
        row["Adjudicated"] = severity_words(decided.severity) if decided else ""
        rows.append(row)
    return pd.DataFrame(rows)


def adjudication_lines(case: ReviewCase) -> list[str]:
    """Return each adjudicated factor in a sentence: the severity, who decided and why (the
    reason as typed; escape before drawing as markdown)."""
    return [
        f"{glossary.label('factor', f.factor)}: {severity_words(f.adjudication.severity)}, "
        f"decided by {f.adjudication.decided_by}: {f.adjudication.reason}"
        for f in case.factors or []
        if f.adjudication
    ]


def reviews_frame(cases: Iterable[ReviewCase]) -> pd.DataFrame:
    """Return one row per answer of every review of the cases: the reviews as exported."""
    rows = [
        {
            "Case": case.id,
            "Assessment": case.assessment_id,
            "Reviewer": review.reviewer,
            "Revision": review.revision,
            "Submitted": glossary.when(review.submitted_at),
            "Factor": glossary.label("factor", answer.factor),
            "Severity": severity_words(answer.severity),
            "Evidence supports the finding": "Yes" if answer.evidence_supports else "No",
            "Confidence": glossary.SEVERITIES.get(answer.confidence or "", ""),
            "Comment": answer.comment or "",
        }
        for case in cases
        for review in case.reviews
        for answer in review.factors
    ]
    return pd.DataFrame(rows)


def reviews_csv(frame: pd.DataFrame) -> bytes:
    """Return the reviews as a formula-safe CSV."""
    return spreadsheets.csv_bytes(frame)


def reviews_xlsx(frame: pd.DataFrame, agreement: pd.DataFrame) -> bytes:
    """Return the reviews and the agreement per factor as a formula-safe workbook."""
    return spreadsheets.workbook_bytes({"Reviews": frame, "Agreement": agreement})


def agreement_frame(factors: Iterable[FactorAgreement]) -> pd.DataFrame:
    """Return per factor, across cases: share of agreement, statistic, interval, counts."""
    rows = []
    for item in factors:
        figures = item.agreement or ReviewAgreement()
        interval = figures.confidence_interval or [None, None]
        rows.append(
            {
                "Factor": glossary.label("factor", item.factor),
                "Share of agreement": _percent(figures.share_of_agreement),
                "Statistic": METHODS.get(figures.method or "", figures.method or ""),
                "Value": figures.statistic,
                "Interval low": interval[0],
                "Interval high": interval[1],
                "Cases": figures.units,
                "Answers": figures.answers,
                "Reviewers": figures.reviewers,
            }
        )
    return pd.DataFrame(rows)


def calibration_frame(factors: Iterable[FactorCalibration]) -> pd.DataFrame:
    """Return per factor: expert labels, the heuristic, the measured rate and Brier score."""
    return pd.DataFrame(
        [
            {
                "Factor": glossary.label("factor", item.factor),
                "Expert labels": item.labels,
                "Needed to measure": item.minimum_labels,
                "Confidence rests on": CALIBRATION_STATUSES.get(
                    item.calibration_status or "", glossary.words(item.calibration_status or "")
                ),
                "Heuristic confidence": item.heuristic_confidence,
                "Measured agreement": item.measured_agreement_rate,
                "Brier score": item.brier_score,
            }
            for item in factors
        ]
    )


def confusion_frame(item: FactorCalibration) -> pd.DataFrame:
    """Return the screening's severity (rows) against the experts' (columns), as counts."""
    rows = [
        {
            "Screening said": SCREENING_RESULTS.get(screening, screening),
            **{
                f"Experts: {glossary.SEVERITIES.get(expert, expert)}": count
                for expert, count in experts.items()
            },
        }
        for screening, experts in item.confusion_matrix.items()
    ]
    return pd.DataFrame(rows)


def reliability_frame(factors: Iterable[FactorCalibration]) -> pd.DataFrame:
    """Return every factor's bands of heuristic confidence that hold labels."""
    return pd.DataFrame(
        [
            {
                "Factor": glossary.label("factor", item.factor),
                "Confidence band": f"{band.range[0]:.1f} to {band.range[1]:.1f}"
                if band.range
                else "",
                "Labels": band.count,
                "Heuristic confidence": band.mean_heuristic_confidence,
                "Experts agreed": band.expert_agreement_rate,
            }
            for item in factors
            for band in item.reliability_bins
            if band.count
        ],
        columns=["Factor", "Confidence band", "Labels", "Heuristic confidence", "Experts agreed"],
    )


def reliability_chart(frame: pd.DataFrame) -> alt.Chart:
    """Return the reliability chart: heuristic confidence against how often experts agreed,
    one point per factor and band sized by its labels, the diagonal where they would match."""
    diagonal = (
        alt.Chart(pd.DataFrame({"x": [0.0, 1.0], "y": [0.0, 1.0]}))
        .mark_line(strokeDash=[4, 4], color="gray")
        .encode(x="x:Q", y="y:Q")
    )
    points = (
        alt.Chart(frame, title="Heuristic confidence against expert agreement")
        .mark_circle(opacity=0.8)
        .encode(
            x=alt.X("Heuristic confidence:Q", scale=alt.Scale(domain=[0, 1])),
            y=alt.Y("Experts agreed:Q", scale=alt.Scale(domain=[0, 1]), title="Experts agreed"),
            size=alt.Size("Labels:Q", legend=alt.Legend(title="Labels")),
            color=alt.Color("Factor:N", legend=alt.Legend(orient="bottom", columns=3)),
            tooltip=[alt.Tooltip(c) for c in frame.columns],
        )
    )
    return diagonal + points
