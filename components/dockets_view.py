"""Dockets: control numbers the data mentions, and a docket's filings with document links.

The interface lists a docket's filings by control number but has no list of dockets, so
the page offers the control numbers that the evidence mentions ("Docket 55999 ...") and
still accepts any number typed in.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

import pandas as pd
import streamlit as st

from components import glossary
from components.sources import source_tooltip
from components.tables import (
    PROVENANCE_HELP,
    by_attribute,
    flags_text,
    provenance_config,
    record_source_title,
    records_frame,
    show_table,
)
from components.text import escape_markdown
from gridclient import DocketFiling, EvidenceChunk

_MENTION = re.compile(
    r"\b(?:docket|control)\s*(?:number|no\.?|#)?\s*:?\s*(\d{4,6})\b", re.IGNORECASE
)
FILING_COLUMNS = [
    "itemNumber",
    "filedAt",
    "filingParty",
    "description",
    "documentUrl",
    "sourceId",
    "sourceLocator",
    "observedAt",
    "authority",
    "qualityFlags",
    "id",
]
# What fits beside the sidebar at 1280 px: what was filed in one table, where each record
# comes from in a second (joined by item number), the whole text of the selected filing.
FILING_TABLE = ["itemNumber", "filedAt", "documentUrl", "filingParty", "filing"]
PROVENANCE_TABLE = [
    "itemNumber", "source", "sourceLocator", "observedAt", "authority", "sourceId",
]  # fmt: skip


def mentioned_control_numbers(texts: Iterable[str]) -> list[str]:
    """Return the docket control numbers named in the texts, in order of first mention."""
    found: list[str] = []
    for text in texts:
        for number in _MENTION.findall(text or ""):
            if number not in found:
                found.append(number)
    return found


def chunk_texts(chunks: Iterable[EvidenceChunk]) -> list[str]:
    """Return every text of evidence chunks where a docket may be named: content and section."""
    texts = []
    for chunk in chunks:
        texts.extend(chunk.section_path or [])
        texts.append(chunk.content or "")
    return texts


def shared_subject(descriptions: Iterable[str | None]) -> str | None:
    """Return the subject every description ends with after "kind: ", or None.

    Filings of one docket often read "<kind of filing>: <docket title>"; naming the title
    once leaves each row only the part that tells the filings apart.
    """
    subjects = {(text or "").partition(": ")[2] for text in descriptions}
    if len(subjects) != 1:
        return None
    subject = subjects.pop()
    return subject or None


def filings_frame(filings: Iterable[DocketFiling]) -> pd.DataFrame:
    """Return filings by item number with the document link, provenance and flags.

    `filing` is the description without the docket's shared subject (see `shared_subject`).
    """
    filings = list(filings)
    subject = shared_subject(f.description for f in filings) if len(filings) > 1 else None

    def filing_text(filing: DocketFiling) -> str:
        description = filing.description or ""
        return description.removesuffix(f": {subject}") if subject else description

    columns: dict[str, Any] = by_attribute(FILING_COLUMNS) | {
        "authority": "evidence.authority",
        "source": record_source_title,
        "qualityFlags": lambda filing: flags_text(filing.quality_flags),
        "filing": filing_text,
    }
    frame = records_frame(filings, columns)
    frame["filedAt"] = pd.to_datetime(frame["filedAt"], errors="coerce")
    return frame.sort_values(["itemNumber", "id"]).reset_index(drop=True)


def table_config() -> dict[str, Any]:
    """Column configs of the filings and provenance tables: narrow item and date, short link."""
    return {
        **provenance_config(),
        "itemNumber": st.column_config.NumberColumn("Item", format="%d", width=44),
        "filedAt": st.column_config.DateColumn("Filed", width=88),
        "documentUrl": st.column_config.LinkColumn("Document", display_text="Open", width=76),
        # Bounded so the row fits at 1280 px; the selected filing shows both texts whole.
        "filingParty": st.column_config.TextColumn("Filed by", width=262),
        "filing": st.column_config.TextColumn("Filing", width=230),
        "observedAt": st.column_config.TextColumn("Observed at", help=PROVENANCE_HELP),
        "authority": st.column_config.TextColumn("Authority"),
    }


def flag_lines(frame: pd.DataFrame) -> list[str]:
    """Return one line per flagged filing: its item number and flags."""
    return [
        f"Item {row.itemNumber}: {row.qualityFlags}"
        for row in frame.itertuples()
        if row.qualityFlags
    ]


def draw_filings(frame: pd.DataFrame) -> None:
    """Draw the filings (what, when, who, link), their provenance and flags, and the selected one."""
    subject = shared_subject(frame["description"]) if len(frame) > 1 else None
    if subject:
        st.markdown(f"Subject of every filing: {escape_markdown(subject)}")
    shown = glossary.table(frame, table_config())  # relabelled once, drawn twice
    # No row selection: its checkbox column would push the last column off-screen at 1280 px.
    show_table(**shown, hide_index=True, column_order=FILING_TABLE)
    st.markdown("**Where each filing comes from**")
    show_table(**shown, hide_index=True, column_order=PROVENANCE_TABLE)
    st.markdown("**Quality flags**")
    for line in flag_lines(frame) or ["No filing in this docket carries a quality flag."]:
        st.caption(escape_markdown(line))
    # each option's words worked out from two columns, not from a row read per option
    choices = [
        f"Item {item} · {filing}"
        for item, filing in zip(frame["itemNumber"], frame["filing"], strict=True)
    ]
    position = st.selectbox(
        "Read a filing in full",
        range(len(frame)),
        format_func=choices.__getitem__,
        key="dockets.filing",
    )
    draw_filing_detail(frame.iloc[position or 0])


def draw_filing_detail(row: pd.Series) -> None:
    """Draw one filing's whole description, record id and provenance as text."""
    with st.container(border=True):
        st.markdown(
            f"**Item {row['itemNumber']}**, filed {row['filedAt']:%Y-%m-%d} by "
            f"{escape_markdown(str(row['filingParty'] or 'an unnamed party'))}"
        )
        st.markdown(escape_markdown(str(row["description"] or "No description given.")))
        st.caption(
            escape_markdown(
                f"Record {row['id']} · {row['source']}"
                f" · locator {row['sourceLocator']}"
                f" · observed at {glossary.when(row['observedAt'])} · {glossary.words(row['authority'] or 'authority not stated')} · quality flags: "
                f"{row['qualityFlags'] or 'none'}"
            ),
            help=source_tooltip(row["sourceId"], row["sourceLocator"]),
        )
