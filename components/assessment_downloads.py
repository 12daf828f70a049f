"""The assessment's downloads: the site report (PDF) and its blinded variant, the spreadsheet
and the wide table the app builds, and the two files the service sends byte for byte (the
expert-review packet and its CSV export).

Files the app builds are built when their button is clicked, not on every run of the page.
"""

from __future__ import annotations

import streamlit as st

from components import assessment_workbook as workbook
from components import connection, data, downloads, report, spreadsheets
from components.site_names import site_name
from gridclient import Assessment, Capabilities, Site


def report_file_name(assessment_id: str, *, blinded: bool = False) -> str:
    """Return the site report's file name: by its assessment, or by its case when blinded."""
    kind = "blinded-site-report" if blinded else "site-report"
    return f"{kind}-{downloads.safe_name(assessment_id)}.pdf"


def draw_report_button(assessment: Assessment, site: Site | None, *, key: str) -> None:
    """Draw the site report's download button (A4; `key` tells apart the buttons of a page)."""
    st.download_button(
        "Site report (PDF)",
        lambda: report.report_pdf(assessment, site),
        report_file_name(assessment.id or "assessment"),
        report.PDF_MIME,
        key=key,
        icon=":material/picture_as_pdf:",
    )


def _draw_handover(conn: connection.ConnectionKey, assessment: Assessment, site: Site | None):
    report_column, blinded_column, packet_column = st.columns(3)
    with report_column:
        draw_report_button(assessment, site, key=f"report.{assessment.id}")
    report_column.caption(
        f"`{report_file_name(assessment.id or '')}`: the summary, findings, map, sources and "
        "disclaimer, ready to print (A4)."
    )
    packet = downloads.packet_download(data.packet_bytes(conn, assessment.id))
    case_id = packet.file_name.removesuffix(".json")
    blinded_column.download_button(
        "Blinded report (PDF)",
        lambda: report.blinded_report_pdf(packet.data),
        report_file_name(case_id, blinded=True),
        report.PDF_MIME,
        icon=":material/picture_as_pdf:",
    )
    blinded_column.caption(
        "For expert review: what the blinded packet carries and nothing more (no name, "
        "reference or ids; coordinates rounded to about 10 km)."
    )
    packet_column.download_button(
        "Expert-review packet (.json)", packet.data, packet.file_name, packet.mime
    )
    packet_column.caption(
        f"`{packet.file_name}`, named by its case id. Blinded: no tenant, customer reference, "
        "address or assessment id."
    )


def _draw_tables(
    conn: connection.ConnectionKey, assessment: Assessment, site: Site | None, caps: Capabilities
) -> None:
    sheets_column, table_column, csv_column = st.columns(3)
    # short labels, the rest in the captions: at 1280 px a column is too narrow for more
    name = f"assessment-{downloads.safe_name(assessment.id or '')}"
    sheets_column.download_button(
        "Spreadsheet (.xlsx)",
        lambda: workbook.assessment_xlsx(assessment, site),
        f"{name}-tables.xlsx",
        spreadsheets.XLSX_MIME,
    )
    sheets_column.caption(
        f"`{name}-tables.xlsx`: the site's inputs and every table, one sheet per section, "
        "numbers as numbers and dates as dates; opens in any spreadsheet."
    )
    table_column.download_button(
        "Table (.csv)",
        lambda: workbook.assessment_csv(assessment, site),
        f"{name}-table.csv",
        downloads.CSV_MIME,
    )
    table_column.caption(
        f"`{name}-table.csv`: one row per finding and record, the site's inputs on every "
        "row, labels in words with their codes beside them."
    )
    export_key = f"export.{assessment.id}"
    if st.session_state.get(export_key):
        export = downloads.csv_download(data.export(conn, st.session_state[export_key]))
        csv_column.download_button("CSV export (.csv)", export.data, export.file_name, export.mime)
        csv_column.caption(f"`{export.file_name}`: the service's export, as the interface gives it")
    elif caps.create_export and csv_column.button("Prepare the CSV export"):
        st.session_state[export_key] = data.create_export(conn, assessment.id).id
        st.rerun()
    typed = csv_column.text_input("Or open an export by id", key=f"{export_key}.typed")
    if typed.strip() and typed.strip() != st.session_state.get(export_key):
        st.session_state[export_key] = typed.strip()
        st.rerun()


def draw_downloads(
    conn: connection.ConnectionKey, assessment: Assessment, site: Site | None, caps: Capabilities
) -> None:
    """Draw the downloads: what to hand over first (reports, packet), then the tables."""
    st.subheader("Downloads")
    _draw_handover(conn, assessment, site)
    _draw_tables(conn, assessment, site, caps)


def draw_site_report(conn: connection.ConnectionKey, sites: list[Site]) -> None:
    """Draw the site report's download for one of the sites shown, chosen by name: the report
    of its latest assessment, fetched and built when the button is clicked (the page itself
    reads no whole assessment)."""
    st.subheader("Site report")
    screened = {s.id: s for s in sites if s.latest_assessment_summary is not None}
    if not screened:
        st.caption("No site shown has been screened yet: screen one to get its report.")
        return
    choice, button = st.columns([3, 1], vertical_alignment="bottom")
    chosen = choice.selectbox(
        "Site to report on", list(screened), format_func=lambda i: f"{site_name(screened[i])} ({i})"
    )
    site = screened[chosen]
    assessment_id = site.latest_assessment_summary.assessment_id

    def latest_report() -> bytes:
        # the summary names an assessment of this tenant: it is there unless deleted since
        assessment = data.assessment(conn, assessment_id) or Assessment(id=assessment_id)
        return report.report_pdf(assessment, site)

    button.download_button(
        "Site report (PDF)",
        latest_report,
        report_file_name(assessment_id or chosen),
        report.PDF_MIME,
        key="portfolio.report",
        icon=":material/picture_as_pdf:",
    )
    st.caption(
        "The latest assessment of the site as a PDF to print or hand over: its summary, "
        "findings, abstentions and limitations, map, sources and disclaimer."
    )
