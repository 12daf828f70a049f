"""Cached fetches for the data pages, keyed by deployment and tenant (`ConnectionKey`).

Two kinds:
- `traverse(...)`: a whole collection, drawn with a progress bar while it loads and kept
  for `TRAVERSAL_TTL` seconds per connection and filters. Streamlit's `st.cache_data` replays
  the elements a cached function draws and refuses elements created outside it, so a long
  traversal with a progress bar is held in a per-key `st.cache_resource` holder instead.
- `cached_*` functions: small calls through `st.cache_data` with a `ttl`.

Every function returns wire-shaped dicts (camelCase), so cached values pickle and the view
modules shape them the same way whether they came from the client's models or raw JSON.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import streamlit as st

from components.connection import ConnectionKey, client_for
from components.tables import as_wire, as_wire_list

TRAVERSAL_TTL = 600
FETCH_TTL = 300
PAGE_SIZE = 500


@st.cache_resource(ttl=TRAVERSAL_TTL, show_spinner=False, max_entries=256)
def _holder(key: ConnectionKey, collection: str, params: tuple[tuple[str, Any], ...]) -> dict:
    return {}


def _pager(client: Any, collection: str, params: dict[str, Any], **kwargs: Any) -> Any:
    resource = getattr(client, collection)
    return resource.list(**params, **kwargs)


def progress_text(label: str, records: int, pages: int) -> str:
    """Return the progress bar's text while a traversal runs."""
    return f"Loading {label}: {records:,} records, {pages} page{'s' if pages != 1 else ''}"


def traverse(
    key: ConnectionKey,
    collection: str,
    label: str,
    *,
    max_items: int | None = None,
    **params: Any,
) -> list[dict[str, Any]]:
    """Return every record of `client.<collection>.list(**params)`, with a progress bar."""
    params = {name: value for name, value in params.items() if value not in (None, "")}
    holder = _holder(key, collection, tuple(sorted((k, str(v)) for k, v in params.items())))
    cache_name = f"records:{max_items}"
    if cache_name in holder:
        return holder[cache_name]
    bar = st.progress(0.0, text=f"Loading {label}…")

    def on_progress(records: int, pages: int) -> None:
        bar.progress(pages / (pages + 1), text=progress_text(label, records, pages))

    pager = _pager(
        client_for(key),
        collection,
        params,
        limit=PAGE_SIZE,
        max_items=max_items,
        on_progress=on_progress,
    )
    records = as_wire_list(pager)
    bar.empty()
    holder[cache_name] = records
    return records


def with_progress(label: str, ids: list[str], fetch_one: Callable[[str], Any]) -> dict[str, Any]:
    """Return `fetch_one(id)` for every id, drawing a progress bar while it runs."""
    bar = st.progress(0.0, text=f"Loading {label}…")
    fetched = {}
    for index, item in enumerate(ids, start=1):
        fetched[item] = fetch_one(item)
        bar.progress(index / len(ids), text=f"Loading {label}: {index:,} of {len(ids):,}")
    bar.empty()
    return fetched


@st.cache_data(ttl=FETCH_TTL, show_spinner=False, max_entries=5000)
def queue_details(key: ConnectionKey, record_id: str) -> dict[str, Any]:
    """Return one queue record's details."""
    return as_wire(client_for(key).queue_records.details(record_id))


@st.cache_data(ttl=FETCH_TTL, show_spinner=False, max_entries=1000)
def queue_evidence(key: ConnectionKey, record_id: str) -> dict[str, Any]:
    """Return one queue record's source evidence."""
    return as_wire(client_for(key).queue_records.evidence(record_id))


@st.cache_data(ttl=FETCH_TTL, show_spinner="Loading…", max_entries=500)
def listing(
    key: ConnectionKey, collection: str, params: tuple[tuple[str, Any], ...], max_items: int
) -> list[dict[str, Any]]:
    """Return up to `max_items` records of a filtered collection (one cached call)."""
    pager = _pager(client_for(key), collection, dict(params), limit=PAGE_SIZE, max_items=max_items)
    return as_wire_list(pager)


def list_records(
    key: ConnectionKey, collection: str, *, max_items: int = 5000, **params: Any
) -> list[dict[str, Any]]:
    """Return a filtered collection through the cache; empty filters are not sent."""
    kept = tuple(sorted((k, v) for k, v in params.items() if v not in (None, "", [])))
    return listing(key, collection, kept, max_items)


@st.cache_data(ttl=FETCH_TTL, show_spinner=False, max_entries=2000)
def has_operations_from(key: ConnectionKey, ba_code: str, start: str | None) -> bool:
    """Return whether the authority has any hourly operation at or after `start` (one record)."""
    pager = client_for(key).balancing_authority_operations.list(
        ba_code=ba_code, start=start, limit=1, max_items=1
    )
    return bool(as_wire_list(pager))


@st.cache_data(ttl=FETCH_TTL, show_spinner="Finding the latest operations…", max_entries=200)
def latest_operations_day(key: ConnectionKey, ba_code: str) -> dt.date | None:
    """Return the last UTC day with an hourly operation of the authority, or None."""
    from components.operations_view import latest_day

    def has_data_from(day: dt.date) -> bool:
        return has_operations_from(key, ba_code, f"{day.isoformat()}T00:00:00Z")

    return latest_day(has_data_from, dt.datetime.now(dt.UTC).date())


@st.cache_data(ttl=FETCH_TTL, show_spinner="Loading filings…", max_entries=200)
def docket_filings(key: ConnectionKey, control_number: str) -> list[dict[str, Any]]:
    """Return every filing of one docket."""
    pager = client_for(key).dockets.filings(control_number, limit=PAGE_SIZE)
    return as_wire_list(pager)


@st.cache_data(ttl=FETCH_TTL, show_spinner="Loading the quality report…")
def quality_report(key: ConnectionKey) -> dict[str, Any]:
    """Return the harvest-quality report as wire JSON."""
    return as_wire(client_for(key).quality())


@st.cache_data(ttl=FETCH_TTL, show_spinner=False)
def release(key: ConnectionKey) -> dict[str, Any]:
    """Return the release identity as wire JSON."""
    return as_wire(client_for(key).release())
