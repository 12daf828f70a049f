"""The one lifetime policy of fetched data, and the progress-bar traversal of a collection.

Every cached fetch takes the `ConnectionKey` (deployment, token, tenant) as its first
argument, so cached data is never shared across tenants, and lives `TTL_SECONDS` (whole
public collections: while the release's data snapshot is the same, see `traverse`). A write
clears the caches of what it changes (`forget_tenant_records`), so a user sees their own
new site at once; another session's new site shows within `TTL_SECONDS`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

import streamlit as st

from components.connection import ConnectionKey, client_for
from gridclient import GridDataClient

TTL_SECONDS = 300
PAGE_SIZE = 500

Model = TypeVar("Model")


def cached(*, spinner: bool | str = False, max_entries: int | None = 1000) -> Callable:
    """Return `st.cache_data` with the one lifetime (for fetches keyed by `ConnectionKey`)."""
    return st.cache_data(ttl=TTL_SECONDS, show_spinner=spinner, max_entries=max_entries)


def shared(*, spinner: bool | str = False, max_entries: int | None = 1000) -> Callable:
    """Return a cache of the same lifetime that hands every run the one object it holds.

    For big, read-only lists: `st.cache_data` unpickles a fresh copy on every run, and 1,300
    hours of operations took 0.5 s of the grid-operations page's run that way. What such a
    fetch returns is read, never changed, by its callers; keyed by `ConnectionKey` like every
    fetch, a tenant's records are handed to that tenant's sessions only.
    """
    return st.cache_resource(ttl=TTL_SECONDS, show_spinner=spinner, max_entries=max_entries)


# Whole collections are public data, loaded again only when the release's data snapshot
# changes (`traverse`'s `version`); this lifetime only bounds the memory they hold.
COLLECTION_TTL_SECONDS = 3600


@st.cache_resource(ttl=COLLECTION_TTL_SECONDS, show_spinner=False, max_entries=256)
def _holder(conn: ConnectionKey, collection: str) -> dict[str, Any]:
    return {}


def progress_text(label: str, records: int, pages: int) -> str:
    """Return the progress bar's text while a traversal runs."""
    return f"Loading {label}: {records:,} records, {pages} page{'s' if pages != 1 else ''}"


def traverse(
    conn: ConnectionKey,
    label: str,
    pager_of: Callable[..., Iterable[Model]],
    version: str | None = None,
) -> list[Model]:
    """Return every record `pager_of(client, limit=..., on_progress=...)` yields, kept per key
    while `version` (the data snapshot the records come from) is the same.

    Streamlit's `st.cache_data` replays the elements a cached function draws and refuses
    elements created outside it, so a long traversal with a progress bar is held in a
    per-connection `st.cache_resource` holder instead. It outlives `TTL_SECONDS`: the whole
    queue at scale 100 took 25 s to load and make into the page's table, and with the
    fetches' lifetime an analyst paid it again every five minutes for the same data.
    """
    holder = _holder(conn, label)
    held = holder.get("entry")
    if held is not None and held[0] == version:
        return held[1]
    bar = st.progress(0.0, text=f"Loading {label}…")

    def on_progress(records: int, pages: int) -> None:
        bar.progress(pages / (pages + 1), text=progress_text(label, records, pages))

    records = list(pager_of(client_for(conn), limit=PAGE_SIZE, on_progress=on_progress))
    bar.empty()
    holder["entry"] = (version, records)  # one assignment: another session reads old or new
    return records


def derived(
    conn: ConnectionKey, name: str, sources: tuple[Any, ...], build: Callable[[], Model]
) -> Model:
    """Return `build()`, worked out once for these very `sources` and handed back as it is.

    For what a page derives from whole collections (`traverse` keeps one list per
    connection): while the collections are the same objects, the frame made from them is the
    same, so it is made once instead of on every run (the queue's 15,000 rows took 0.3 s to
    make and 0.5 s to relabel, every run); when a collection is loaded again it is made
    again. Callers only read what it returns.
    """
    holder = _holder(conn, f"made from {name}")
    entry = holder.get("entry")
    if (
        entry is None
        or len(entry[0]) != len(sources)
        or any(held is not source for held, source in zip(entry[0], sources, strict=True))
    ):
        entry = (sources, build())  # one assignment: another session reads old or new, whole
        holder["entry"] = entry
    return entry[1]


def with_progress(
    label: str, ids: list[str], fetch_one: Callable[[str], Model]
) -> dict[str, Model]:
    """Return `fetch_one(id)` for every id, drawing a progress bar while it runs."""
    bar = st.progress(0.0, text=f"Loading {label}…")
    fetched = {}
    for index, item in enumerate(ids, start=1):
        fetched[item] = fetch_one(item)
        bar.progress(index / len(ids), text=f"Loading {label}: {index:,} of {len(ids):,}")
    bar.empty()
    return fetched


def client(conn: ConnectionKey) -> GridDataClient:
    """Return the process's client for a connection (only this package calls it)."""
    return client_for(conn)
