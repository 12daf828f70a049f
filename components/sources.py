"""Sources named the way their publishers name them: "ERCOT GIS report, November 2025".

The service identifies a source by a stable id (`ercot_gis_report`, `demo-ercot-gis`) and a
record by a locator inside one file of it; beside the locator each evidence carries the
source in fields (`publisher`, `edition`, `file_name`, `worksheet`, `row`), computed by the
service. `source_title(evidence, source_id)` shows those, and the pages keep the id itself in
a tooltip or a details column for whoever needs to quote it. Nothing here takes a locator
apart: a record whose service sent no publisher is named by its id.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

SOURCE_NAME_HELP = (
    "The source as its publisher names it, with the edition its file states; "
    "its id is in the Source id column"
)


def _field(evidence: Any, attribute: str, wire_name: str) -> Any:
    """One source field of a client model or of an opaque evidence dict (wire names)."""
    if isinstance(evidence, Mapping):
        return evidence.get(wire_name)
    return getattr(evidence, attribute, None)


def source_title(evidence: Any, source_id: str | None = None) -> str:
    """Return the source as its publisher names it, with its edition: "ERCOT GIS report,
    November 2025"; a demo title keeps its "(demo)" after the edition.

    `evidence` is a client model carrying the service's source fields, or an evidence dict.
    """
    publisher = _field(evidence, "publisher", "publisher")
    if not publisher:
        return source_name(source_id)
    return _title(str(publisher), _field(evidence, "edition", "edition"))


@functools.lru_cache(maxsize=4096)  # ~100 distinct sources behind 150,000 queue records
def _title(publisher: str, edition: str | None) -> str:
    if not edition:
        return publisher
    if publisher.endswith(" (demo)"):
        return f"{publisher.removesuffix(' (demo)')}, {edition} (demo)"
    return f"{publisher}, {edition}"


def source_name(source_id: str | None, given_name: str | None = None) -> str:
    """Return a source's name where no record of it says its publisher: the name given,
    else its id."""
    return (given_name or "").strip() or str(source_id or "").strip() or "an unnamed source"


def source_tooltip(source_id: str | None, locator: str | None = None) -> str:
    """The ids behind a source name, for its tooltip: source id and locator."""
    parts = [f"Source id: {source_id or 'not given'}"]
    if locator:
        parts.append(f"Locator: {locator}")
    return "  \n".join(parts)
