"""Dockets: control numbers the data mentions, and a docket's filings with document links.

The interface lists a docket's filings by control number but has no list of dockets, so
the page offers the control numbers that the evidence mentions ("Docket 55999 ...") and
still accepts any number typed in.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

import pandas as pd
import streamlit as st

from components.tables import flags_text, link_column, provenance_config

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


def mentioned_control_numbers(texts: Iterable[str]) -> list[str]:
    """Return the docket control numbers named in the texts, in order of first mention."""
    found: list[str] = []
    for text in texts:
        for number in _MENTION.findall(text or ""):
            if number not in found:
                found.append(number)
    return found


def chunk_texts(chunks: Iterable[Mapping[str, Any]]) -> list[str]:
    """Return every text of evidence chunks where a docket may be named: content and section."""
    texts = []
    for chunk in chunks:
        texts.extend(chunk.get("sectionPath") or [])
        texts.append(chunk.get("content") or "")
    return texts


def filings_frame(filings: Iterable[Mapping[str, Any]]) -> pd.DataFrame:
    """Return filings by item number with the document link, provenance and flags."""
    rows = []
    for filing in filings:
        row = {c: filing.get(c) for c in FILING_COLUMNS}
        row["authority"] = (filing.get("evidence") or {}).get("authority")
        row["qualityFlags"] = flags_text(filing.get("qualityFlags"))
        rows.append(row)
    frame = pd.DataFrame(rows, columns=FILING_COLUMNS)
    frame["filedAt"] = pd.to_datetime(frame["filedAt"], errors="coerce")
    return frame.sort_values(["itemNumber", "id"]).reset_index(drop=True)


def table_config() -> dict[str, Any]:
    """Column configs of the filings table."""
    return {
        **provenance_config(),
        "itemNumber": st.column_config.NumberColumn("Item", format="%d"),
        "filedAt": st.column_config.DateColumn("Filed"),
        "filingParty": st.column_config.TextColumn("Filed by"),
        "documentUrl": link_column("Document", display_text="Open document"),
    }
