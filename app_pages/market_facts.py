"""Market facts: load forecasts and resource adequacy, with time travel through restatements."""

from __future__ import annotations

import streamlit as st

from components import charts, connection, coverage, data, facts_view, filters, glossary, tables
from components.evidence_view import draw_fact_evidence
from components.problems import problem_boundary
from components.sources import source_tooltip
from components.tables import attribute
from components.text import escape_markdown

SCOPE = "facts"
# the market and period filters' first choice: no restriction (not kept in the URL)
ANY = "any"

st.title("Market facts")
st.caption(
    "Facts as the reports stated them. `valid at` picks the period a value applies to; "
    "`known at` shows what was known at that moment, so a restated value shows its earlier self."
)

with problem_boundary():
    conn = connection.connection_key()
    kind_label = filters.selectbox("Kind", list(facts_view.KINDS), "kind", scope=SCOPE)
    collection = facts_view.KINDS[kind_label]
    coverage.draw_notice(conn, collection)
    current = data.facts(conn, collection)
    row = st.columns(5)
    with row[0]:
        markets = sorted({f.market for f in current if f.market})
        market = filters.selectbox("Market", [ANY, *markets], "market", scope=SCOPE, no_filter=ANY)
    with row[1]:
        periods = sorted({f.period for f in current if f.period}, key=glossary.season_key)
        period = filters.selectbox("Period", [ANY, *periods], "period", scope=SCOPE, no_filter=ANY)
    with row[2]:
        valid_day = filters.date_input("Valid at", "valid_at", scope=SCOPE)
    with row[3]:
        known_day = filters.date_input("Known at (UTC)", "known_at", scope=SCOPE)
    with row[4]:
        known_time = st.time_input("Known at time (UTC)", value=None, key="facts.known_time")
    selection = {
        "market": market,
        "period": period,
        "valid_at": valid_day.isoformat() if valid_day else None,
        "known_at": facts_view.known_at_param(known_day, known_time),
    }
    facts = sorted(
        data.facts(conn, collection, **selection),
        key=lambda f: (f.market or "", f.predicate or "", glossary.season_key(f.period)),
    )
    # in words ("2025-06-01 00:00 UTC"), not the wire's ISO form the URL keeps
    when = glossary.when(selection["known_at"]) or "now"
    st.markdown(f"**{len(facts):,}** facts as known **{escape_markdown(when)}**")
    if not facts:
        st.info("No fact matches these filters at that moment.")
        st.stop()
    table = facts_view.facts_frame(facts)
    config = facts_view.table_config(facts_view.value_unit(facts))
    picked = tables.show_table(
        **glossary.table(table, config),
        hide_index=True,
        column_order=facts_view.FACT_TABLE,
        on_select="rerun",
        selection_mode="single-row",
        key="facts.table",
    )
    st.caption("Select a row to follow that fact through time below, with its evidence.")
    st.markdown("**Where each fact comes from and when it was known** (rows as above)")
    tables.show_table(
        **glossary.table(table, config), hide_index=True, column_order=facts_view.PROVENANCE_TABLE
    )
    flagged = facts_view.flag_lines(facts)
    st.markdown("**Quality flags**")
    for line in flagged or ["No fact in this list carries a quality flag."]:
        st.caption(escape_markdown(line))

    st.subheader("One fact through time")
    by_id = {f.id: f for f in facts}
    picked_id = facts_view.picked_fact_id(picked, table)
    if picked_id in by_id and st.session_state.get("facts.picked") != picked_id:
        # A newly selected row picks the fact below; the box still lets the reader pick another.
        st.session_state["facts.fact"] = picked_id
    st.session_state["facts.picked"] = picked_id
    ordered = sorted(by_id, key=lambda fid: (by_id[fid].fact_version == "1", fid))
    chosen = st.selectbox(
        "Fact", ordered, format_func=lambda fid: facts_view.fact_label(by_id[fid]), key="facts.fact"
    )
    fact = by_id[chosen]
    versions = facts_view.fact_history(
        fact,
        lambda instant: data.facts(
            conn, collection, market=fact.market, period=fact.period, known_at=instant
        ),
    )
    history = facts_view.history_frame(versions)
    if len(versions) > 1:
        older, newer = versions[-1], versions[0]
        st.markdown(
            f"Restated: **{older.value:,.0f} {escape_markdown(older.unit or '')}** known from "
            f"{escape_markdown(glossary.when(older.known_from))} became "
            f"**{newer.value:,.0f} {escape_markdown(newer.unit or '')}** "
            f"from {escape_markdown(glossary.when(newer.known_from))}."
        )
        st.altair_chart(
            charts.steps(history, title="Value as it was known", unit=fact.unit or ""),
            width="stretch",
        )
    else:
        st.caption("This fact has one known version: it was never restated.")
    tables.show_table(
        **glossary.table(history, facts_view.history_config(fact.unit or "")),
        hide_index=True,
        column_order=["knownFrom", "knownTo", "value", "factVersion"],
    )
    st.caption(
        escape_markdown(facts_view.provenance_text(fact)),
        help=source_tooltip(fact.source_id, attribute("evidence.source_locator")(fact)),
    )
    st.markdown("**Evidence**")
    draw_fact_evidence(fact.evidence)
