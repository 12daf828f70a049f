"""The dockets page: control numbers the evidence mentions, a docket's filings and links."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "dockets.py")


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
        f"**{len(filings):,}** filings in docket **{control_number}**"
    )
    table = at.dataframe[0].value
    assert table["documentUrl"].tolist() == [
        f.document_url for f in sorted(filings, key=lambda f: (f.item_number, f.id))
    ]


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
    message = at.error[0].value
    assert "The token was refused" in message and "GRID_API_TOKEN" in message
    assert "Request id:" in message
