"""ERCOT "Large Load Interconnection Status Update" (PDF slides): evidence and headline facts.

Every page's text layer becomes evidence chunks, one per title or bullet (a bullet keeps
its '–' sub-points), each with its page and bounding box. The deck's headline figures
become facts (kind `load_forecast`, market ERCOT, unit MW) whose evidence points to the
page, the line's box and the sentence quoted. The queue charts are images without a text
layer: their figures are not read. A figure the text no longer states is a rejection of
the run; the chunks are still stored.

Boxes are PDF points from the page's top-left corner: [x0, top, x1, bottom], with the
page's width and height beside them.
"""

from __future__ import annotations

import datetime as dt
import re
import sqlite3
from dataclasses import dataclass
from typing import Any

from gridservice.harvest._base import (
    ASSERTION_OBSERVED,
    Asset,
    Harvest,
    HarvestError,
    rejection,
    uncalibrated_parser,
)
from gridservice.store import harvest_store, writer

SOURCE_ID = "ercot_large_load_status"
AUTHORITY = "official_operator_dataset"
REDISTRIBUTION = "review_before_redistribution"
EXPECTED = "an ERCOT Large Load Interconnection Status Update (PDF)"
TITLE = "Large Load Interconnection Status Update"
# The figures are read off a sentence; the reading is a heuristic, not calibrated.
PARSER_CONFIDENCE = 0.8
FOOTER = re.compile(r"^PUBLIC\s+\d+$")
BULLET = "\u2022"
DECK_DATE = re.compile(r"\b([A-Z][a-z]{2}) (\d{1,2}), (\d{4})\b")


@dataclass(frozen=True)
class Figure:
    """A headline figure: its predicate, subject, and the sentence pattern that states it."""

    predicate: str
    subject: str
    pattern: str
    past_year: bool = False


FIGURES = [
    Figure("large_load_queue_change_since_previous_update_mw", "market:ERCOT",
           r"increased total queue capacity by ([\d,]+) MW"),
    Figure("large_load_approved_to_energize_mw", "market:ERCOT",
           r"Of the total ([\d,]+) MW Approved to Energize"),
    Figure("large_load_approved_to_energize_mw", "load_zone:LZ_WEST",
           r"([\d,]+) MW resides in LZ_WEST"),
    Figure("large_load_approved_to_energize_mw", "load_zones:LZ_NORTH+LZ_SOUTH+LZ_HOUSTON",
           r"([\d,]+) MW resides in the other load zones"),
    Figure("large_load_approved_to_energize_standalone_mw", "market:ERCOT",
           r"([\d,]+) MW consists? of standalone projects"),
    Figure("large_load_approved_to_energize_co_located_mw", "market:ERCOT",
           r"([\d,]+) MW consists? of co-located projects"),
    Figure("large_load_approved_to_energize_past_year_mw", "market:ERCOT",
           r"past year has seen (?:of )?([\d,]+) MW of load approved to energize", past_year=True),
    Figure("large_load_observed_non_simultaneous_peak_mw", "market:ERCOT",
           r"non-simultaneous peak consumption of ([\d,]+) MW"),
    Figure("large_load_observed_simultaneous_peak_mw", "market:ERCOT",
           r"observed a simultaneous peak consumption of ([\d,]+) MW"),
]  # fmt: skip


def parse(asset: Asset, conn: sqlite3.Connection) -> Harvest:
    """Read the deck and return its chunks and headline facts (nothing is written yet)."""
    pages = _pages(asset)
    deck_date = _deck_date(pages, asset)
    known_from = f"{deck_date}T00:00:00Z"
    release = f"{deck_date}-{asset.sha256[:8]}"
    chunks = [
        _chunk(asset, release, page_number, n, block, page, _heading(page))
        for page_number, page in enumerate(pages, 1)
        for n, block in enumerate(page["blocks"], 1)
    ]
    facts, rejections = [], []
    for figure in FIGURES:
        found = _find(figure, chunks)
        if found is None:
            rejections.append(
                rejection(
                    asset.file_name,
                    f"{figure.predicate} ({figure.subject}): the text "
                    f"no longer states it (looked for /{figure.pattern}/)",
                )  # fmt: skip
            )
            continue
        facts.append(_fact(asset, release, known_from, deck_date, figure, *found))

    def store(conn: sqlite3.Connection) -> None:
        harvest_store.close_facts(conn, SOURCE_ID, known_from)
        harvest_store.close_evidence_chunks(conn, SOURCE_ID, known_from)
        writer.insert_facts(conn, "load_forecast", facts)
        stored = [{k: v for k, v in c.items() if k != "_lines"} for c in chunks]
        writer.insert_evidence_chunks(
            conn, stored, authority=AUTHORITY, redistribution_policy=REDISTRIBUTION,
            known_from=known_from,
        )  # fmt: skip

    return Harvest(SOURCE_ID, len(FIGURES), len(facts), rejections, store,
                   observed_at=known_from, notes={"chunks": len(chunks)})  # fmt: skip


def _pages(asset: Asset) -> list[dict[str, Any]]:
    """Return each page's size and its text blocks (lines grouped by title or bullet)."""
    # Deferred: pdfplumber (and pdfminer under it) load only to read a PDF.
    import pdfplumber
    from pdfminer.psexceptions import PSException
    from pdfplumber.utils.exceptions import PdfminerException

    try:
        with pdfplumber.open(asset.path) as pdf:
            pages = [
                {
                    "width": float(page.width),
                    "height": float(page.height),
                    "blocks": _blocks(page.extract_text_lines(strip=True, return_chars=False)),
                }
                for page in pdf.pages
            ]
    except (PdfminerException, PSException, ValueError, KeyError, TypeError, OSError) as exc:
        raise HarvestError(
            f"{asset.file_name}: not a readable PDF (expected {EXPECTED}): {exc}"
        ) from exc
    if not any(page["blocks"] for page in pages):
        raise HarvestError(f"{asset.file_name}: the PDF has no text layer (expected {EXPECTED})")
    return pages


def _blocks(lines: list[dict]) -> list[list[dict]]:
    """Group a page's lines: a bullet or a wide gap starts a block; '–' sub-points stay."""
    blocks: list[list[dict]] = []
    for line in lines:
        text = line["text"].strip()
        if not text or FOOTER.match(text) or text == "*":
            continue
        previous = blocks[-1][-1] if blocks else None
        gap = line["top"] - previous["bottom"] if previous else 0.0
        height = line["bottom"] - line["top"]
        if previous is None or text.startswith(BULLET) or gap > height:
            blocks.append([line])
        else:
            blocks[-1].append(line)
    return blocks


def _heading(page: dict) -> str:
    """The page's first line: the slide's title."""
    return page["blocks"][0][0]["text"].strip() if page["blocks"] else ""


def _deck_date(pages: list[dict], asset: Asset) -> str:
    """The date on the title page ('Sep 6, 2024'): when ERCOT presented the figures."""
    for block in pages[0]["blocks"] if pages else []:
        for line in block:
            match = DECK_DATE.search(line["text"])
            if match:
                day = dt.datetime.strptime(f"{match[1]} {match[2]} {match[3]}", "%b %d %Y")
                return day.date().isoformat()
    raise HarvestError(f"{asset.file_name}: no date on the title page (expected {EXPECTED})")


def _box(lines: list[dict]) -> list[float]:
    return [
        round(min(line["x0"] for line in lines), 2),
        round(min(line["top"] for line in lines), 2),
        round(max(line["x1"] for line in lines), 2),
        round(max(line["bottom"] for line in lines), 2),
    ]


def _chunk(
    asset: Asset, release: str, page: int, n: int, lines: list[dict], size: dict, heading: str
) -> dict:
    content = ""
    for line in lines:
        text = " ".join(line["text"].split())
        # A word broken at the line's end ('non-' / 'simultaneous') is joined again.
        glue = "" if not content or (content.endswith("-") and content[-2:-1] != " ") else " "
        content += glue + text
    return {
        "chunkId": f"ercot-lli-{release}-p{page}-b{n}",
        "sourceId": SOURCE_ID,
        "assetHash": asset.sha256,
        "tableId": None,
        "content": content,
        "sourceLocator": f"{asset.file_name}#page={page}",
        "kind": "prose",
        "page": page,
        "sectionPath": [TITLE, f"page {page}: {heading}"],
        # Extension members: where on the page the text stands.
        "boundingBox": _box(lines),
        "pageWidth": size["width"],
        "pageHeight": size["height"],
        "_lines": lines,  # not stored: the lines a fact's box is taken from
    }


def _find(figure: Figure, chunks: list[dict]) -> tuple[dict, str, float, list[dict]] | None:
    """Return (chunk, quote, value, the lines stating it) of the first chunk that states it."""
    for chunk in chunks:
        match = re.search(figure.pattern, chunk["content"])
        if match:
            value = float(match.group(1).replace(",", ""))
            number = match.group(1)
            lines = [line for line in chunk["_lines"] if number in line["text"]] or chunk["_lines"]
            return chunk, match.group(0), value, lines
    return None


def _fact(asset, release, known_from, deck_date, figure, chunk, quote, value, lines) -> dict:
    valid_from = deck_date
    if figure.past_year:
        day = dt.date.fromisoformat(deck_date)
        valid_from = day.replace(year=day.year - 1).isoformat()
    subject = figure.subject.split(":", 1)[1]
    return {
        "id": f"ercot-lli-{release}-{figure.predicate}-{subject.lower().replace('+', '-')}",
        "factKey": f"ERCOT|{figure.predicate}|{deck_date[:7]}|{subject}",
        "factVersion": release,
        "sourceId": SOURCE_ID,
        "assetHash": asset.sha256,
        "subjectId": figure.subject,
        "market": "ERCOT",
        "predicate": figure.predicate,
        "period": deck_date[:7],
        "scenario": "status_update",
        "value": value,
        "unit": "MW",
        "assertionType": ASSERTION_OBSERVED,
        "validFrom": valid_from,
        "validTo": deck_date,
        "knownFrom": known_from,
        "knownTo": None,
        "evidence": {
            "chunkId": chunk["chunkId"],
            "tableId": None,
            "quote": quote,
            "sourceLocator": chunk["sourceLocator"],
            "blockId": chunk["chunkId"].removeprefix(f"ercot-lli-{release}-"),
            "sourceText": chunk["content"],
            "page": chunk["page"],
            "boundingBox": _box(lines),
            "pageWidth": chunk["pageWidth"],
            "pageHeight": chunk["pageHeight"],
            "readingOrder": float(chunk["chunkId"].rsplit("-b", 1)[-1]),
            **uncalibrated_parser(PARSER_CONFIDENCE),
        },
        "qualityFlags": [],
    }
