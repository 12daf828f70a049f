"""The Reviews page: an analyst reads the demo's reviewed case side by side with its agreement,
adjudication and the screening against its experts; a reviewer fills the review form and
submits it once, however often the button is pressed; reviews export formula-safe."""

from __future__ import annotations

import io

import pandas as pd
import pytest
from conftest import ALPHA_TOKEN, page_path, unescape
from streamlit.testing.v1 import AppTest

from components import reviews_view, spreadsheets
from components.connection import DEMO_REVIEWER_TOKENS
from gridclient import FactorAnswer, GridDataClient, Review, ReviewCase

AVERY, BLAKE = DEMO_REVIEWER_TOKENS
SEEDED_ASSESSMENT = "asm_demo_screened_on_2025_06"


def run_page(monkeypatch, token: str, case_id: str | None = None) -> AppTest:
    monkeypatch.setenv("GRID_API_TOKEN", token)
    at = AppTest.from_file(page_path("reviews"), default_timeout=120)
    if case_id:
        at.session_state["reviews.case"] = case_id
    at.run()
    assert not at.exception
    assert [e.value for e in at.error] == []
    return at


def test_the_analyst_sees_the_reviews_side_by_side_with_agreement_and_adjudication(
    service_env, monkeypatch, alpha_client: GridDataClient
) -> None:
    case = next(c for c in alpha_client.reviews.cases() if c.state == "adjudicated")
    case = alpha_client.reviews.get(case.id)
    at = run_page(monkeypatch, ALPHA_TOKEN)
    side_by_side = next(t.value for t in at.dataframe if "Reviewers agree" in t.value.columns)
    for reviewer in case.reviewers:
        assert reviewer in side_by_side.columns
    decided = [f for f in case.factors if f.adjudication]
    disagreeing = side_by_side.loc[side_by_side["Reviewers agree"] == "No", "Adjudicated"]
    assert len(disagreeing) == len(decided) and all(disagreeing)
    captions = " ".join(str(c.value) for c in at.caption).replace("\\", "")
    for factor in decided:
        assert f"decided by {factor.adjudication.decided_by}: {factor.adjudication.reason}" in (
            captions
        )
    sentence = " ".join(str(m.value) for m in at.markdown).replace("\\", "")
    assert f"{case.agreement.statistic:.2f}" in sentence
    assert f"{case.agreement.answers} answers" in sentence
    matrix = next(t.value for t in at.dataframe if "Screening said" in t.value.columns)
    assert int(matrix.drop(columns="Screening said").to_numpy().sum()) == 1


@pytest.fixture
def waiting_case(alpha_client: GridDataClient) -> ReviewCase:
    """A case of its own for the form, so no other test sees its review."""
    names = list(DEMO_REVIEWER_TOKENS.values())
    return alpha_client.reviews.send(SEEDED_ASSESSMENT, reviewers=names, due_date="2026-12-31")


def fill_form(at: AppTest, case_id: str, comment: str) -> None:
    for radio in at.radio:
        if radio.key and radio.key.startswith(f"review.{case_id}."):
            radio.set_value(radio.options[0] if not radio.key.endswith(".e") else "Yes")
    for area in at.text_area:
        area.set_value(comment)
    for box in at.checkbox:
        box.check()


def test_a_reviewer_submits_the_form_once_and_sees_it_in(
    service_env, monkeypatch, waiting_case: ReviewCase
) -> None:
    at = run_page(monkeypatch, AVERY, waiting_case.id)
    assert "Your review queue" in [s.value for s in at.subheader]
    fill_form(at, waiting_case.id, "<b>bold</b> =1+1")
    submit = next(b for b in at.button if b.label == "Submit my review")
    submit.click().run()
    assert not at.exception
    assert any("revision 1" in str(s.value) for s in at.success)
    # the same answers sent again (a second click) replay the one review
    fill_form(at, waiting_case.id, "<b>bold</b> =1+1")
    next(b for b in at.button if b.label == "Submit my review").click().run()
    with GridDataClient(base_url=service_env, token=AVERY) as avery:
        (review,) = avery.reviews.get(waiting_case.id).reviews
    assert review.revision == 1
    assert review.factors[0].comment == "<b>bold</b> =1+1"


def test_reviews_export_formula_safe_in_csv_and_xlsx() -> None:
    answer = FactorAnswer(
        factor="timeline",
        severity=None,
        evidence_supports=False,
        confidence="low",
        comment='=HYPERLINK("http://x")',
    )
    case = ReviewCase(id="rvc_1", reviews=[Review(reviewer="r", revision=1, factors=[answer])])
    frame = reviews_view.reviews_frame([case])
    assert frame.loc[0, "Severity"] == reviews_view.CANNOT_JUDGE
    text = reviews_view.reviews_csv(frame).decode("utf-8-sig")
    assert "'=HYPERLINK" in text
    book = pd.read_excel(io.BytesIO(reviews_view.reviews_xlsx(frame, frame)), sheet_name=None)
    assert book["Reviews"].loc[0, "Comment"] == spreadsheets.safe_cell(answer.comment)


def test_the_cases_table_leads_with_each_case_state_and_reviews_in() -> None:
    """At 1280 px the table shows about five columns: the state, due date, how many of the
    asked reviewers have answered and the disagreements come before the long names."""
    case = ReviewCase(
        id="rvc_1",
        state="in_review",
        reviewers=["fictional-reviewer-with-a-long-name", "fictional-reviewer-two"],
        reviews=[Review(reviewer="fictional-reviewer-two", revision=1, factors=[])],
    )
    frame = reviews_view.cases_frame([case])
    assert list(frame.columns[:5]) == ["Case", "State", "Due", "Reviews in", "Disagreements"]
    assert frame.loc[0, "Reviews in"] == "1 of 2"


def test_the_assessment_shows_its_review_status(service_env, alpha_client: GridDataClient) -> None:
    cases = [c for c in alpha_client.reviews.cases() if c.assessment_id == SEEDED_ASSESSMENT]
    at = AppTest.from_file(page_path("assessment"), default_timeout=120)
    at.query_params["assessment"] = SEEDED_ASSESSMENT
    at.run()
    assert not at.exception
    status = next(str(c.value) for c in at.caption if "Expert review" in str(c.value))
    status = status.replace("\\", "")
    for case in cases:
        assert f"case {case.id} {reviews_view.state_words(case.state).lower()}" in status


def test_an_analyst_sends_the_assessment_for_review_from_its_page(
    service_env, alpha_client: GridDataClient
) -> None:
    """Two reviewers and a due date sent from the assessment page make one case; a second
    click on the same answers replays it; one name alone is refused in words."""
    before = {c.id for c in alpha_client.reviews.cases()}
    at = AppTest.from_file(page_path("assessment"), default_timeout=120)
    at.query_params["assessment"] = SEEDED_ASSESSMENT
    at.run()
    field = next(t for t in at.text_input if t.label == "Reviewers")
    field.input("fictional-reviewer-avery")
    next(b for b in at.button if b.label == "Send for review").click()
    at.run()
    assert any("Name at least two reviewers" in e.value for e in at.error)
    assert {c.id for c in alpha_client.reviews.cases()} == before

    field = next(t for t in at.text_input if t.label == "Reviewers")
    field.input("fictional-reviewer-avery, fictional-reviewer-blake")
    for _ in range(2):
        next(b for b in at.button if b.label == "Send for review").click()
        at.run()
        assert not at.exception and [e.value for e in at.error] == []
    new = [c for c in alpha_client.reviews.cases() if c.id not in before]
    assert len(new) == 1
    assert new[0].assessment_id == SEEDED_ASSESSMENT
    assert sorted(new[0].reviewers) == ["fictional-reviewer-avery", "fictional-reviewer-blake"]
    assert any(new[0].id in unescape(s.value) for s in at.success)
