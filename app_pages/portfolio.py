"""Portfolio: every site of the tenant with its latest screening, filtered, charted, compared side
by side, with what changed near each since it was screened. Filters and comparison are in the URL."""

from __future__ import annotations

import uuid

import streamlit as st

from components import connection, data, filters, sites_view, spreadsheets
from components import portfolio_view as view
from components.assessment_downloads import draw_site_report
from components.column_chooser import draw_column_chooser
from components.problems import problem_boundary
from components.site_changes_view import draw_changes
from components.tables import show_table
from components.text import escape_markdown
from gridclient import Site

SCOPE = "portfolio"

st.title("Portfolio")
st.caption(
    "Your sites side by side, each with its latest screening. The figures are screening "
    "figures: they describe friction, never available capacity."
)


def draw_filters(frame) -> view.PortfolioFilter:
    text_column, readiness_column, peak_column = st.columns([2, 2, 1])
    with text_column:
        text = filters.text_input("Find a site (name or id)", "q", scope=SCOPE)
    with readiness_column:
        readiness = filters.multiselect(
            "Readiness", list(view.READINESS_WORDS.values()), "readiness", scope=SCOPE
        )
    with peak_column:
        peak = filters.number_input("Peak load at least (MW)", "min_mw", scope=SCOPE, min_value=0.0)
    return view.PortfolioFilter(text=text, readiness=tuple(readiness), min_peak_mw=peak)


def draw_comparison(conn: connection.ConnectionKey, sites: list[Site]) -> None:
    st.subheader("Compare sites side by side")
    by_id = {s.id: s for s in sites}
    chosen = filters.multiselect(
        "Sites to compare (2 to 5)",
        list(by_id),
        "compare",
        scope=SCOPE,
        format_func=lambda i: f"{view.site_name(by_id[i])} ({i})",
    )
    problem = view.selection_problem(chosen)
    if problem:
        (st.error if len(chosen) > view.MAX_COMPARED else st.info)(problem)
        return
    compared = [by_id[i] for i in chosen]
    assessments = data.latest_assessments(conn, compared)
    frame = view.comparison_frame(compared, assessments)
    show_table(frame, hide_index=True, width="stretch")
    show_table(
        view.evidence_frame(compared, assessments),
        hide_index=True,
        width="stretch",
        column_config=view.EVIDENCE_COLUMN_CONFIG,
    )
    left, right = st.columns(2)
    left.download_button(
        "Download the comparison (CSV)",
        view.comparison_csv(frame),
        "site-comparison.csv",
        "text/csv",
    )
    right.download_button(
        "Download the comparison (Excel)",
        view.comparison_xlsx(frame, compared),
        "site-comparison.xlsx",
        spreadsheets.XLSX_MIME,
    )


def draw_changed(conn: connection.ConnectionKey, sites: list[Site]) -> None:
    marked = [s for s in sites if view.changed_since_assessment(s)]
    st.subheader(f"Changed since assessment ({len(marked)})")
    if not marked:
        st.caption("Nothing newer than each site's latest screening is held.")
    for site in marked:
        # what changed is fetched when its expander is opened: one request per site read,
        # not one per marked site on every run of the page
        label = f"⚠ {escape_markdown(view.site_name(site))}: changed since assessment"
        with st.expander(label, key=view.changes_key(site.id), on_change="rerun") as box:
            since = site.latest_assessment_summary.assessment_id
            st.caption(
                escape_markdown(f"Newer than its assessment: {view.newer_data_words(site)}.")
            )
            if box.open:
                draw_changes(data.site_changes(conn, site.id, since))
            if st.button("Screen this site again", key=f"rescreen.{site.id}"):
                screened = data.screen_site(conn, site.id, f"rescreen-{uuid.uuid4()}")
                st.success(
                    escape_markdown(
                        f"Screened again: assessment {screened.id}. The earlier assessment "
                        f"{since} is kept."
                    )
                )


def draw_tidy(conn: connection.ConnectionKey, sites: list[Site]) -> None:
    with st.expander("Rename or archive a site"), st.form("portfolio.tidy"):
        by_id = {s.id: s for s in sites}
        site_id = st.selectbox(
            "Site", list(by_id), format_func=lambda i: f"{view.site_name(by_id[i])} ({i})"
        )
        name = st.text_input("New name (customer reference)", max_chars=200)
        archive = st.radio("Archive", ["Keep as is", "Archive", "Bring back"], horizontal=True)
        if st.form_submit_button("Save") and site_id:
            archived = {"Archive": True, "Bring back": False}.get(archive)
            if name.strip() or archived is not None:
                data.update_site(
                    conn,
                    site_id,
                    idempotency_key=f"tidy-{uuid.uuid4()}",
                    customer_reference=name.strip() or None,
                    archived=archived,
                )
                st.rerun()


with problem_boundary():
    conn = connection.connection_key()
    offered = data.capabilities(conn)
    if not data.lists_sites_with_assessments(offered):
        st.info("This deployment does not list sites with their assessments.")
        st.stop()
    show_archived = filters.toggle("Show archived sites", "archived", scope=SCOPE)
    sites = data.portfolio_sites(conn, archived=show_archived)
    sites_view.draw_unreadable(sites)
    frame = view.portfolio_frame(sites)
    shown = view.filtered(frame, draw_filters(frame))
    st.caption(f"{len(shown)} of {len(frame)} sites shown.")
    column_config = view.portfolio_column_config(shown)
    order = draw_column_chooser(
        "portfolio.sites", view.KEY_PORTFOLIO_COLUMNS, list(frame.columns), column_config
    )
    show_table(
        shown, hide_index=True, width="stretch", column_config=column_config, column_order=order
    )
    if shown["Queued MW in the county"].notna().any():
        st.altair_chart(view.comparison_chart(shown), width="stretch")
    elif not shown.empty:
        st.caption("No site shown has a screening with queued MW in its county to chart yet.")
    shown_ids = set(shown["Site id"])
    kept = [s for s in sites if s.id in shown_ids]
    draw_site_report(conn, kept)
    draw_comparison(conn, kept)
    draw_changed(conn, kept)
    if sites:
        draw_tidy(conn, sites)
    else:
        st.caption(escape_markdown("This tenant has no sites yet: screen one first."))
