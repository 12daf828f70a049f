"""Evidence panels and safe search highlighting.

The service's text is data, never markup: every ASCII punctuation character is
backslash-escaped before it reaches `st.markdown` (so no link, emphasis, HTML, directive,
emoji code or formula can come from it), and matched terms are wrapped in markup this
module writes itself. `unsafe_allow_html` is never used.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence

import pandas as pd
import streamlit as st

from components import glossary
from components.sources import source_title, source_tooltip
from components.tables import flags_frame, mapping_frame, show_table
from components.text import escape_markdown
from gridclient import EvidenceChunk, Page, QualityFlag, QueueRecordEvidence
from gridclient.models import EvidenceLocator, FactEvidence

UNCALIBRATED = "uncalibrated"
_WORD = re.compile(r"\w+", re.UNICODE)
_OPERATORS = {"and", "or", "not", "near"}


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


def draw_search_result(position: int, chunk: EvidenceChunk, terms: Sequence[str]) -> None:
    """Draw one ranked evidence chunk with its matched terms highlighted."""
    with st.container(border=True):
        section = " › ".join(chunk.section_path or [])
        st.markdown(
            f"**{position}.** {escape_markdown(section) or '(no section)'}",
        )
        st.caption(
            escape_markdown(
                f"{source_title(chunk, chunk.source_id)} · page {chunk.page} · "
                f"{chunk.kind} · rank {chunk.rank or 0:.3f}"
            ),
            help=source_tooltip(chunk.source_id, chunk.source_locator),
        )
        st.markdown(highlighted_markdown(chunk.content or "", terms))


def source_link(label: str, url: str | None) -> None:
    """Draw a button that opens a source address, or say that the record names none."""
    if url:
        st.link_button(label, url)
    else:
        st.caption("The record names no source address.")


def locator_rows(evidence: QueueRecordEvidence) -> list[tuple[str, str]]:
    """Return where the record sits in its source: file, worksheet and row, as labelled pairs
    (the interface's `locator` object where the service sent no source fields)."""
    locator = evidence.locator or EvidenceLocator()
    row = evidence.row if evidence.row is not None else locator.row
    return [
        ("Source", source_title(evidence, evidence.source_id)),
        ("Edition", evidence.edition or ""),
        ("Source id", evidence.source_id or ""),
        ("File", evidence.file_name or locator.file_name or ""),
        ("Worksheet", evidence.worksheet or locator.worksheet or ""),
        ("Row", "" if row is None else str(row)),
        ("Locator", evidence.source_locator or ""),
        ("Redistribution policy", glossary.words(evidence.redistribution_policy or "")),
        ("Terms", glossary.words(evidence.terms_classification or "")),
        ("Asset hash", evidence.asset_hash or ""),
    ]


def draw_queue_evidence(evidence: QueueRecordEvidence) -> None:
    """Draw where a queue record came from: source and link, locator, policy, the source row."""
    st.markdown(
        "**Source:** " + escape_markdown(source_title(evidence, evidence.source_id)),
        help=source_tooltip(evidence.source_id, evidence.source_locator),
    )
    source_link("Open the source", evidence.source_url)
    show_table(
        **glossary.table(pd.DataFrame(locator_rows(evidence), columns=["", "value"])),
        hide_index=True,
    )
    st.markdown(
        "**Redistribution policy:** "
        + escape_markdown(glossary.words(evidence.redistribution_policy or "") or "not stated")
    )
    st.markdown("**The source row as it was published**")
    show_table(
        **glossary.table(mapping_frame(evidence.source_row, key="column", value="value")),
        hide_index=True,
    )


def draw_flags(flags: Iterable[QualityFlag] | None) -> None:
    """Draw quality flags as a table, or say plainly that there are none."""
    frame = flags_frame(flags)
    st.markdown("**Quality flags**")
    if frame.empty:
        st.caption("No quality flags on this record.")
    else:
        show_table(**glossary.table(frame), hide_index=True)


def fact_evidence_rows(evidence: FactEvidence) -> list[tuple[str, str]]:
    """Return a fact's evidence as labelled pairs, the parser confidence marked uncalibrated."""
    box = evidence.bounding_box
    confidence = evidence.parser_confidence
    label = "calibrated" if evidence.parser_confidence_is_calibrated else UNCALIBRATED
    return [
        ("Page", "" if evidence.page is None else str(evidence.page)),
        ("Bounding box", ", ".join(f"{v:g}" for v in box) if box else ""),
        ("Page size", f"{_number(evidence.page_width)} × {_number(evidence.page_height)}"),
        ("Locator", evidence.source_locator or ""),
        ("Table", evidence.table_id or ""),
        ("Chunk", evidence.chunk_id or ""),
        (
            f"Parser confidence ({label})",
            "" if confidence is None else f"{confidence:.2f} — {label}, not an accuracy",
        ),
        ("Calibration status", evidence.calibration_status or ""),
        ("Route", evidence.route or ""),
    ]


def _number(value: float | None) -> str:
    """Return a size as the service wrote it (612, not 612.0); empty when missing."""
    if not value:
        return ""
    return f"{value:g}"


def draw_fact_evidence(evidence: FactEvidence | None) -> None:
    """Draw a fact's evidence quote with its page, bounding box and uncalibrated confidence."""
    evidence = evidence or FactEvidence()
    quote = evidence.quote or ""
    st.markdown("> " + (escape_markdown(quote) or "(no quote)").replace("  \n", "  \n> "))
    show_table(
        **glossary.table(pd.DataFrame(fact_evidence_rows(evidence), columns=["", "value"])),
        hide_index=True,
    )


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


def search_results(
    pages_for: Callable[[], Iterator[Page[EvidenceChunk]]], signature: tuple, *, more: bool
) -> tuple[list[EvidenceChunk], bool]:
    """Return the results fetched so far for a search and whether more pages follow.

    The search's pages iterator is kept in session state with its signature (tenant, query
    and filters); a new signature starts a new search. `more=True` pulls the next page.
    """
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
            held["results"].extend(page.data)
            held["has_more"] = bool(page.has_more)
    return held["results"], held["has_more"]
