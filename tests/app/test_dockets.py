"""The dockets page: control numbers the evidence mentions, a docket's filings and links."""

from __future__ import annotations

import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

from components import glossary
from components.dockets_view import filings_frame, shared_subject
from components.sources import source_title
from components.text import escape_markdown
from gridclient import DocketFiling

PAGE = str(Path(__file__).resolve().parents[2] / "app_pages" / "dockets.py")


def test_offered_dockets_show_their_filings(service_env, alpha_client):
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    assert not at.exception and not at.error
    offered = at.selectbox(key="filter:dockets:control_number").options
    assert len(offered) >= 2 and offered[-1] == "Another control number…"
    control_number = offered[1]
    at.selectbox(key="filter:dockets:control_number").select(control_number).run()
    filings = alpha_client.dockets.filings(control_number).to_list()
    assert filings, "an offered docket must have filings"
    assert at.markdown[0].value.startswith(
        f"**{len(filings):,}** filings in docket **{escape_markdown(control_number)}**"
    )
    ordered = sorted(filings, key=lambda f: (f.item_number, f.id))
    table = at.dataframe[0].value
    assert table["documentUrl"].tolist() == [f.document_url for f in ordered]
    assert {"itemNumber", "filedAt", "filingParty", "filing", "documentUrl"} == set(
        at.dataframe[0].proto.column_order
    )
    # The docket's shared subject is said once; each row keeps what tells the filings apart.
    subject = ordered[0].description.partition(": ")[2]
    assert f"Subject of every filing: {subject}" in [unescape(m.value) for m in at.markdown]
    assert table["filing"].tolist() == [f.description.partition(": ")[0] for f in ordered]
    provenance = at.dataframe[1]
    assert {"sourceId", "sourceLocator", "observedAt"} <= set(provenance.proto.column_order)
    assert provenance.value["sourceLocator"].tolist() == [f.source_locator for f in ordered]
    # the evidence's authority in words (`official_filing` reads "Official filing")
    authorities = provenance.value["authority"].tolist()
    assert authorities == [glossary.words(f.evidence.authority) for f in ordered]
    assert all(a and "_" not in a for a in authorities)
    captions = [unescape(c.value) for c in at.caption]
    assert "No filing in this docket carries a quality flag." in captions
    # The filing read in full: its whole description, record id and provenance.
    last = ordered[-1]
    at.selectbox(key="dockets.filing").select(len(ordered) - 1).run()
    assert last.description in [unescape(m.value) for m in at.markdown]
    detail = unescape(at.caption[-1].value)
    named = source_title(last.evidence, last.source_id)
    assert "(demo)" in named and "_" not in named
    assert f"Record {last.id} · {named} · locator {last.source_locator}" in detail
    assert f"Source id: {last.source_id}" in at.caption[-1].proto.help


def unescape(markdown: str) -> str:
    return re.sub(r"\\(.)", r"\1", markdown)


def test_the_shared_subject_is_named_once_only_when_every_filing_has_it():
    same = ["Order: Rulemaking on loads", "Comments: Rulemaking on loads"]
    assert shared_subject(same) == "Rulemaking on loads"
    assert shared_subject([*same, "Order without a subject"]) is None
    assert shared_subject(["A: one", "B: two"]) is None
    frame = filings_frame(
        [
            DocketFiling(id="a", item_number=1, filed_at="2024-06-03", description=same[0]),
            DocketFiling(id="b", item_number=2, filed_at="2024-06-04", description=same[1]),
        ]
    )
    assert frame["filing"].tolist() == ["Order", "Comments"]
    assert frame["description"].tolist() == same


def test_a_typed_unknown_number_says_so(service_env):
    at = AppTest.from_file(PAGE, default_timeout=60)
    at.query_params["control_number"] = "Another control number…"
    at.query_params["typed"] = "10101"
    at.run()
    assert not at.exception and not at.error
    assert at.info[0].value == "No filings under control number 10101."


def test_a_refused_token_is_a_readable_message(service_env, monkeypatch):
    monkeypatch.setenv("GRID_API_TOKEN", "not-a-token")
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    assert not at.exception
    message = re.sub(r"\\(.)", r"\1", at.error[0].value)  # as the reader sees it
    assert "The token was refused" in message and "GRID_API_TOKEN" in message
    assert "Request id:" in message
