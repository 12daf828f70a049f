"""Evidence search: a query with every filter of the interface, ranked, highlighted safely."""

from __future__ import annotations

import streamlit as st

from components import connection, coverage, data, evidence_view, filters, glossary
from components.facts_view import known_at_param
from components.problems import problem_boundary
from components.text import escape_markdown

ANY = "any"
MORE = "evidence.more"

st.title("Evidence search")
st.caption(
    "Ranked by the service (weighted lexical, exact and prefix matching). Matched words are "
    "highlighted; the source text is shown as text."
)


def _want_more() -> None:
    st.session_state[MORE] = True


def code_filter(label: str, codes: list[str], param: str) -> str | None:
    """A choice of "any" or one of `codes`, offered in words ("Official filing"); the code
    itself is what the address keeps and the service is sent."""
    return filters.selectbox(
        label, [ANY, *codes], param, scope="evidence", no_filter=ANY, format_func=glossary.words
    )


with problem_boundary():
    coverage.draw_notice(connection.connection_key(), "evidence_chunks")
    query = filters.text_input(
        "Search the source evidence", "q", placeholder="e.g. transmission", scope="evidence"
    )
    row = st.columns(6)
    with row[0]:
        source_id = filters.text_input("Source id", "source_id", scope="evidence")
    with row[1]:
        authority = code_filter("Authority", evidence_view.AUTHORITIES, "authority")
    with row[2]:
        policy = code_filter(
            "Redistribution policy", evidence_view.REDISTRIBUTION_POLICIES, "redistribution_policy"
        )
    with row[3]:
        kind = code_filter("Kind", evidence_view.KINDS, "kind")
    with row[4]:
        page = filters.number_input(
            "Page", "page", min_value=1.0, step=1.0, format="%.0f", scope="evidence"
        )
    with row[5]:
        known_day = filters.date_input("Known at", "known_at", scope="evidence")
    if not query:
        st.info("Type a few words to search the evidence behind the records.")
        st.stop()
    search = {
        "source_id": source_id or None,
        "authority": authority,
        "redistribution_policy": policy,
        "kind": kind,
        "page": int(page) if page else None,
        "known_at": known_at_param(known_day, None),
    }
    conn = connection.connection_key()
    signature = (conn, query, tuple(sorted(search.items())))
    results, has_more = evidence_view.search_results(
        lambda: data.evidence_pages(conn, query, **search),
        signature,
        more=st.session_state.pop(MORE, False),
    )
    terms = evidence_view.query_terms(query)
    if not results:
        st.info(f"No evidence matches “{escape_markdown(query)}” with these filters.")
    else:
        st.markdown(f"**{len(results)}** results{' so far' if has_more else ''}, best first")
    for position, chunk in enumerate(results, start=1):
        evidence_view.draw_search_result(position, chunk, terms)
    if has_more:
        st.button("More results", on_click=_want_more)
