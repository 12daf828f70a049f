"""Evidence panels and safe search highlighting.

The service's text is data, never markup: every ASCII punctuation character is
backslash-escaped before it reaches `st.markdown` (so no link, emphasis, HTML, directive,
emoji code or formula can come from it), and matched terms are wrapped in markup this
module writes itself. `unsafe_allow_html` is never used.
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pandas as pd
import streamlit as st

from components.queue_view import locator_rows
from components.tables import flags_frame, mapping_frame

UNCALIBRATED = "uncalibrated"
_WORD = re.compile(r"\w+", re.UNICODE)
_OPERATORS = {"and", "or", "not", "near"}
_PUNCTUATION = set(string.punctuation)


def query_terms(query: str) -> list[str]:
    """Return the distinct words of a search query, folded, without search operators."""
    terms: list[str] = []
    for word in _WORD.findall(query or ""):
        folded = word.casefold()
        if folded in _OPERATORS or folded in terms:
            continue
        terms.append(folded)
    return terms


def _matches(word: str, terms: Sequence[str]) -> bool:
    folded = word.casefold()
    for term in terms:
        # The service matches prefixes and stems: "transmiss" finds "transmission",
        # "lines" finds "line".
        if folded.startswith(term) or (len(folded) >= 4 and term.startswith(folded)):
            return True
    return False


def highlight_segments(text: str, terms: Sequence[str]) -> list[tuple[str, bool]]:
    """Return the text cut into (segment, matched) pieces; joined, they give the text back."""
    segments: list[tuple[str, bool]] = []
    position = 0
    for match in _WORD.finditer(text or ""):
        if not _matches(match.group(), terms):
            continue
        if match.start() > position:
            segments.append((text[position : match.start()], False))
        segments.append((match.group(), True))
        position = match.end()
    if position < len(text or ""):
        segments.append((text[position:], False))
    return segments


def escape_markdown(text: str) -> str:
    """Return text that Streamlit's markdown shows literally: punctuation escaped, lines kept."""
    escaped = "".join("\\" + ch if ch in _PUNCTUATION else ch for ch in text)
    # Leading blanks would start a code block; a bare newline would be folded away.
    lines = [line.strip() for line in escaped.splitlines()]
    return "  \n".join(line for line in lines if line)


def highlighted_markdown(text: str, terms: Sequence[str]) -> str:
    """Return markdown for the text with matched terms bold on an orange background."""
    pieces = []
    for segment, matched in highlight_segments(text or "", terms):
        escaped = escape_markdown(segment) if not matched else escape_markdown(segment.strip())
        if matched:
            pieces.append(f":orange-background[**{escaped}**]")
        else:
            # Keep the blanks around a highlighted word, which escape_markdown strips per line.
            lead = " " if segment[:1].isspace() else ""
            trail = " " if segment[-1:].isspace() else ""
            pieces.append(f"{lead}{escaped}{trail}" if escaped else (" " if segment else ""))
    return "".join(pieces).strip()


def search_results_frame(chunks: Iterable[Mapping[str, Any]]) -> pd.DataFrame:
    """Return ranked evidence chunks as a table: rank, kind, page, source, locator, section."""
    rows = [
        {
            "rank": chunk.get("rank"),
            "kind": chunk.get("kind"),
            "page": chunk.get("page"),
            "sourceId": chunk.get("sourceId"),
            "sourceLocator": chunk.get("sourceLocator"),
            "section": " › ".join(chunk.get("sectionPath") or []),
            "chunkId": chunk.get("chunkId"),
        }
        for chunk in chunks
    ]
    columns = ["rank", "kind", "page", "sourceId", "sourceLocator", "section", "chunkId"]
    return pd.DataFrame(rows, columns=columns)


def draw_search_result(position: int, chunk: Mapping[str, Any], terms: Sequence[str]) -> None:
    """Draw one ranked evidence chunk with its matched terms highlighted."""
    with st.container(border=True):
        section = " › ".join(chunk.get("sectionPath") or [])
        st.markdown(
            f"**{position}.** {escape_markdown(section) or '(no section)'}",
        )
        st.caption(
            f"rank {chunk.get('rank', 0):.3f} · {chunk.get('kind')} · page {chunk.get('page')} · "
            f"source {chunk.get('sourceId')} · {chunk.get('sourceLocator')}"
        )
        st.markdown(highlighted_markdown(chunk.get("content") or "", terms))


def source_link(label: str, url: str | None) -> None:
    """Draw a button that opens a source address, or say that the record names none."""
    if url:
        st.link_button(label, url)
    else:
        st.caption("The record names no source address.")


def draw_queue_evidence(evidence: Mapping[str, Any]) -> None:
    """Draw where a queue record came from: source and link, locator, policy, the source row."""
    st.markdown(f"**Source:** {escape_markdown(evidence.get('sourceName') or '')}")
    source_link("Open the source", evidence.get("sourceUrl"))
    st.dataframe(pd.DataFrame(locator_rows(evidence), columns=["", "value"]), hide_index=True)
    st.markdown(
        "**Redistribution policy:** "
        + escape_markdown(evidence.get("redistributionPolicy") or "not stated")
    )
    st.markdown("**The source row as it was published**")
    st.dataframe(
        mapping_frame(evidence.get("sourceRow"), key="column", value="value"), hide_index=True
    )


def draw_flags(flags: Iterable[Mapping[str, Any]] | None) -> None:
    """Draw quality flags as a table, or say plainly that there are none."""
    frame = flags_frame(flags)
    st.markdown("**Quality flags**")
    if frame.empty:
        st.caption("No quality flags on this record.")
    else:
        st.dataframe(frame, hide_index=True)


def fact_evidence_rows(evidence: Mapping[str, Any]) -> list[tuple[str, str]]:
    """Return a fact's evidence as labelled pairs, the parser confidence marked uncalibrated."""
    box = evidence.get("boundingBox")
    confidence = evidence.get("parserConfidence")
    calibrated = evidence.get("parserConfidenceIsCalibrated")
    label = "calibrated" if calibrated else UNCALIBRATED
    return [
        ("Page", "" if evidence.get("page") is None else str(evidence.get("page"))),
        ("Bounding box", ", ".join(f"{v:g}" for v in box) if box else ""),
        (
            "Page size",
            f"{evidence.get('pageWidth') or ''} × {evidence.get('pageHeight') or ''}",
        ),
        ("Locator", evidence.get("sourceLocator") or ""),
        ("Table", evidence.get("tableId") or ""),
        ("Chunk", evidence.get("chunkId") or ""),
        (
            f"Parser confidence ({label})",
            "" if confidence is None else f"{confidence:.2f} — {label}, not an accuracy",
        ),
        ("Calibration status", evidence.get("calibrationStatus") or ""),
        ("Route", evidence.get("route") or ""),
    ]


def draw_fact_evidence(evidence: Mapping[str, Any]) -> None:
    """Draw a fact's evidence quote with its page, bounding box and uncalibrated confidence."""
    quote = evidence.get("quote") or ""
    st.markdown("> " + (escape_markdown(quote) or "(no quote)").replace("  \n", "  \n> "))
    st.dataframe(pd.DataFrame(fact_evidence_rows(evidence), columns=["", "value"]), hide_index=True)


AUTHORITIES = [
    "federal_regulator",
    "regulatory_order",
    "approved_tariff",
    "official_operator_dataset",
    "official_utility_dataset",
    "official_filing",
    "official_planning_report",
    "federal_aggregated_dataset",
    "officially_sponsored_synthesis",
    "customer_supplied",
    "other_public_source",
]
REDISTRIBUTION_POLICIES = [
    "normalized_records_only",
    "public_redistribution",
    "links_only",
    "review_before_redistribution",
    "internal_analysis_only_pending_terms_review",
]
KINDS = ["prose", "table", "figure"]
_SEARCH = "evidence.search"


def search_results(pages_for: Any, signature: tuple, *, more: bool) -> tuple[list[dict], bool]:
    """Return the results fetched so far for a search and whether more pages follow.

    The search's `pages()` iterator is kept in session state with its signature (query and
    filters); a new signature starts a new search. `more=True` pulls the next page.
    """
    from components.tables import as_wire_list

    held = st.session_state.get(_SEARCH)
    if held is None or held["signature"] != signature:
        held = {"signature": signature, "pages": pages_for(), "results": [], "has_more": True}
        st.session_state[_SEARCH] = held
        more = True
    if more and held["has_more"]:
        page = next(held["pages"], None)
        if page is None:
            held["has_more"] = False
        else:
            held["results"].extend(as_wire_list(page.data))
            held["has_more"] = bool(page.has_more)
    return held["results"], held["has_more"]
