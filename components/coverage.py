"""What a page's datasets lack, said on the page: the service's dataset coverage where a
reader of that page looks, not only on Data quality & release.

The reference service lists each dataset the screening can use with its status (`held`,
`partial`, `missing`) and a note saying what is lost (`/v1/quality`, `quality.datasets`, an
extension). On the harvested public files, for instance, the transmission project list and
the docket filings are missing and the generators are a 49-row sample: a page of them must
not read as "no project matches" or as Texas's fleet.
"""

from __future__ import annotations

import logging

import streamlit as st

from components import data
from components.connection import ConnectionKey
from components.text import escape_markdown
from gridclient import GridAPIError
from gridclient.models import DatasetCoverage

log = logging.getLogger(__name__)

QUALITY_PAGE = "data_quality"
LACKING = ("missing", "partial")


def coverage(conn: ConnectionKey) -> dict[str, DatasetCoverage]:
    """Return the deployment's datasets by name; empty when it says nothing of them (a
    deployment without the extension) or its quality report cannot be read (the notice is
    secondary to the page: the failure is logged, the page goes on)."""
    try:
        report = data.quality_report(conn)
    except GridAPIError:
        log.warning("the quality report could not be read; no dataset notice", exc_info=True)
        return {}
    datasets = (report.quality.datasets if report.quality else None) or []
    return {d.dataset: d for d in datasets if d.dataset}


def notice_text(dataset: DatasetCoverage) -> str:
    """Return the sentence a page shows for a dataset it lacks (Markdown, escaped)."""
    state = "not in this store" if dataset.status == "missing" else "only in part"
    label = escape_markdown(dataset.label or dataset.dataset or "A dataset")
    note = f" {escape_markdown(dataset.note)}" if dataset.note else ""
    return f"**{label}: {state}.**{note} See [Data quality & release]({QUALITY_PAGE})."


def lacking(conn: ConnectionKey, *names: str) -> list[DatasetCoverage]:
    """Return those of the named datasets the store lacks or holds in part, in that order."""
    known = coverage(conn)
    return [known[n] for n in names if n in known and known[n].status in LACKING]


def draw_notice(conn: ConnectionKey, *names: str) -> list[DatasetCoverage]:
    """Draw a warning for each named dataset the store lacks or holds only in part; return
    them (a page may then leave out what would read as "nothing matches")."""
    found = lacking(conn, *names)
    for dataset in found:
        st.warning(notice_text(dataset), icon=":material/dataset:")
    return found
