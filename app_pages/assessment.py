"""An assessment (`?assessment=<id>`, shareable): disclaimer first, then everything it found."""

from __future__ import annotations

import streamlit as st

from components import assessment_summary as summary
from components import assessment_view as view
from components import assessment_workbook as workbook
from components import (
    connection,
    data,
    downloads,
    glossary,
    reviews_view,
    spreadsheets,
    surroundings_view,
)
from components.problems import problem_boundary
from components.text import escape_markdown
from gridclient import Assessment, Capabilities, Site

OPEN_KEY = "assessment.open_id"


def open_typed_id() -> None:
    """Put the typed id in the URL (a callback: it runs before the page, so the run that
    follows the click draws the assessment; no second run)."""
    typed = (st.session_state.get(OPEN_KEY) or "").strip()
    if typed:
        st.query_params["assessment"] = typed


def choose_assessment() -> None:
    with st.form("open_assessment"):
        st.text_input("Assessment id", key=OPEN_KEY)
        st.form_submit_button("Open", on_click=open_typed_id)


def draw_downloads(
    conn: connection.ConnectionKey, assessment: Assessment, site: Site | None, caps: Capabilities
) -> None:
    st.subheader("Downloads")
    assessment_id = assessment.id
    sheets_column, packet_column, csv_column = st.columns(3)
    # short labels, the rest in the captions: at 1280 px a column is too narrow for more
    sheet_name = f"assessment-{downloads.safe_name(assessment_id)}-tables.xlsx"
    sheets_column.download_button(
        "Spreadsheet (.xlsx)",
        # built when clicked, not on every run (0.8 s of the page's run under load)
        lambda: workbook.assessment_xlsx(assessment, site),
        sheet_name,
        spreadsheets.XLSX_MIME,
    )
    sheets_column.caption(
        f"`{sheet_name}`: the site's inputs and every table, one sheet per section, headers in "
        "words; opens in any spreadsheet."
    )
    packet = downloads.packet_download(data.packet_bytes(conn, assessment_id))
    packet_column.download_button(
        "Expert-review packet (.json)", packet.data, packet.file_name, packet.mime
    )
    packet_column.caption(
        f"`{packet.file_name}`, named by its case id. Blinded: no tenant, customer reference, "
        "address or assessment id."
    )
    export_key = f"export.{assessment_id}"
    if st.session_state.get(export_key):
        export = downloads.csv_download(data.export(conn, st.session_state[export_key]))
        csv_column.download_button("CSV export (.csv)", export.data, export.file_name, export.mime)
        csv_column.caption(f"`{export.file_name}`")
    elif caps.create_export and csv_column.button("Prepare the CSV export"):
        st.session_state[export_key] = data.create_export(conn, assessment_id).id
        st.rerun()
    typed = csv_column.text_input("Or open an export by id", key=f"{export_key}.typed")
    if typed.strip() and typed.strip() != st.session_state.get(export_key):
        st.session_state[export_key] = typed.strip()
        st.rerun()


with problem_boundary():
    assessment_id = st.query_params.get("assessment")
    conn = connection.connection_key()
    assessment = data.assessment(conn, assessment_id) if assessment_id else None
    if assessment is None:
        st.title("Assessment")
    if not assessment_id:
        st.info("No assessment chosen. Screen a site, or open an assessment by its id.")
        choose_assessment()
    elif assessment is None:
        # The id comes from the URL: shown as text, so a shared link cannot write the page.
        st.error(f"Assessment '{escape_markdown(assessment_id)}' was not found for this tenant.")
        choose_assessment()
    else:
        site = data.site(conn, assessment.site_id) if assessment.site_id else None
        # the title names the site; the ids a support request needs stay in the caption
        st.title(
            f"Assessment of {escape_markdown(summary.site_title(assessment, site))}", anchor=False
        )
        disclaimer = escape_markdown(assessment.disclaimer or "No disclaimer was given.")
        st.warning(disclaimer, icon=":material/warning:")
        st.caption(
            escape_markdown(
                f"Created {glossary.when(assessment.created_at)}; assessment {assessment.id} "
                f"of site {assessment.site_id}."
            )
            + " Share this page's URL to share it."
        )
        cases = data.review_cases(conn)
        st.caption(escape_markdown(reviews_view.review_status_words(cases, assessment.id)))
        location = site.location if site else None
        point = (location.latitude, location.longitude) if location else None
        summary.draw_band(
            assessment,
            summary.headlines(assessment),
            view.readiness_label(assessment.readiness),
            site,
        )
        view.draw_readiness(assessment)
        view.draw_actions(assessment)
        view.draw_place(assessment)
        view.draw_candidates(assessment)
        view.draw_records(assessment)
        # the maps wait folded, each built when opened and drawn last in its fold
        st.subheader("Map", anchor=summary.ANCHORS["map"])
        view.draw_site_map(assessment, point)
        surroundings_view.draw_surroundings(conn, assessment.site_id)
        draw_downloads(conn, assessment, site, data.capabilities(conn))
