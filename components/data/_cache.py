"""The one lifetime policy of fetched data, and the shared, shown traversal of a collection.

Every cached fetch takes the `ConnectionKey` (deployment, token, tenant) as its first
argument, so cached data is never shared across tenants, and lives `TTL_SECONDS` (whole
public collections: while the release's data snapshot is the same, see `traverse`). A write
clears the caches of what it changes (`forget_tenant_records`), so a user sees their own
new site at once; another session's new site shows within `TTL_SECONDS`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, TypeVar

import streamlit as st

from components.connection import ConnectionKey, client_for
from gridclient import GridDataClient

TTL_SECONDS = 300
PAGE_SIZE = 500
# how often a page waiting for a whole collection redraws its count of records so far
PROGRESS_SECONDS = 0.1

Model = TypeVar("Model")


def cached(*, spinner: bool | str = False, max_entries: int | None = 1000) -> Callable:
    """Return `st.cache_data` with the one lifetime (for fetches keyed by `ConnectionKey`)."""
    return st.cache_data(ttl=TTL_SECONDS, show_spinner=spinner, max_entries=max_entries)


def shared(*, spinner: bool | str = False, max_entries: int | None = 1000) -> Callable:
    """Return a cache of the same lifetime that hands every run the one object it holds.

    For big, read-only lists, which `st.cache_data` would unpickle afresh on every run. What
    such a fetch returns is read, never changed, by its callers; keyed by `ConnectionKey`
    like every fetch, a tenant's records are handed to that tenant's sessions only.
    """
    return st.cache_resource(ttl=TTL_SECONDS, show_spinner=spinner, max_entries=max_entries)


# Whole collections are public data, loaded again only when the release's data snapshot
# changes (`traverse`'s `version`); this lifetime only bounds the memory they hold.
COLLECTION_TTL_SECONDS = 3600


@st.cache_resource(ttl=COLLECTION_TTL_SECONDS, show_spinner=False, max_entries=256)
def _holder(conn: ConnectionKey, collection: str) -> dict[str, Any]:
    return {}


def progress_text(label: str, records: int, pages: int) -> str:
    """Return what a page waiting for a whole collection says while it loads."""
    return f"Loading {label}: {records:,} records so far ({pages} page{'s' if pages != 1 else ''})"


class PageRuns:
    """How many page runs are under way in this process: a load no page waits for pauses
    between its pages of records while any is, so preloading never slows a page down."""

    def __init__(self) -> None:
        self._under_way = 0
        self._changed = threading.Condition()

    @contextlib.contextmanager
    def running(self) -> Iterator[None]:
        """Count the run inside this block (app.py wraps the sidebar and the page in it)."""
        with self._changed:
            self._under_way += 1
        try:
            yield
        finally:
            with self._changed:
                self._under_way -= 1
                self._changed.notify_all()

    def wait_while_running(self, unless: Callable[[], bool], check_seconds: float) -> None:
        """Return once no page runs, or at once when `unless()` (a page waits for this)."""
        with self._changed:
            while self._under_way and not unless():
                self._changed.wait(check_seconds)


PAGE_RUNS = PageRuns()


_STARTING = threading.Lock()  # held only to read or replace a holder's load or its waiters

# A whole collection at scale 100 is about two million objects the garbage collector tracks,
# and each of its full collections scanned them all: 1.4 to 1.7 s with the app's every
# thread stopped, several times while the lists loaded and now and then after, in the middle
# of a page's run. Records loaded are kept and only read, so a load moves what it has read to
# the collector's permanent generation (`gc.freeze`) every this many records, and once more
# when it ends; a load of fewer (scale 1) leaves the collector as it is. Reference counting
# still frees frozen objects no longer used. A collection loaded again (a new data snapshot,
# an expired holder) first hands everything back to the collector (`gc.unfreeze`), so what a
# freeze caught in passing (an ended session's objects, say) is collected then at the latest.
FREEZE_EVERY_RECORDS = 10_000
_LOADED_BEFORE: set[tuple[ConnectionKey, str]] = set()  # read and changed under _STARTING


def _freeze() -> None:
    """Move every object the collector tracks to its permanent generation, once its youngest
    generation is collected: cyclic garbage made since the last collection, by any thread
    (a session that just ended, a page's run), is freed then rather than frozen with the
    records. Only the youngest: collecting older ones too costs far more for little."""
    gc.collect(0)
    gc.freeze()


@dataclasses.dataclass
class Load:
    """One traversal of a whole collection, in a thread of its own: every session that needs
    the collection meanwhile waits for this one, reading its progress."""

    version: str | None
    records: int = 0
    pages: int = 0
    result: list[Any] | None = None
    error: BaseException | None = None
    done: threading.Event = dataclasses.field(default_factory=threading.Event)
    waiting: int = 0  # the page runs waiting for it now
    ended: float | None = None  # time.monotonic() when it ended

    def wait(self, label: str) -> None:
        """Wait for the load (a page's run), saying how many records have come so far.

        A spinner, not a bar: the interface tells no collection's size before its last
        page, and a bar drawn as pages / (pages + 1) read "almost done" from its first
        pages (90% at the 9th of the queue's 300 at scale 100).
        """
        with _STARTING:
            self.waiting += 1
        try:
            slot = st.empty()
            status = slot.status(f"Loading {label}…", state="running")
            said = None
            while not self.done.wait(PROGRESS_SECONDS):
                text = progress_text(label, self.records, self.pages)
                if text != said:
                    status.update(label=text)
                    said = text
            slot.empty()
        finally:
            with _STARTING:
                self.waiting -= 1


def _loaded(conn: ConnectionKey, label: str, version: str | None) -> bool:
    held = _holder(conn, label).get("entry")
    return held is not None and held[0] == version


def _load(conn: ConnectionKey, label: str, pager_of: Callable[..., Iterable[Any]], version):
    """Return the collection's load of this `version`, started when there is none (or the
    last one failed: asking again is trying again)."""
    holder = _holder(conn, label)
    with _STARTING:
        load = holder.get("load")
        if load is None or load.version != version or load.error is not None:
            if (conn, label) in _LOADED_BEFORE:
                gc.unfreeze()  # what it replaces, and all else a freeze held, is collectable
            load = Load(version)
            holder["load"] = load
            threading.Thread(
                target=_run,
                args=(load, holder, conn, label, pager_of),
                name=f"load {label}",
                daemon=True,
            ).start()
    return load


def _run(
    load: Load,
    holder: dict[str, Any],
    conn: ConnectionKey,
    label: str,
    pager_of: Callable[..., Iterable],
) -> None:
    frozen_at = 0  # records read when this load last froze them

    def on_progress(records: int, pages: int) -> None:
        nonlocal frozen_at
        load.records, load.pages = records, pages
        if records - frozen_at >= FREEZE_EVERY_RECORDS:
            _freeze()
            frozen_at = records
        PAGE_RUNS.wait_while_running(lambda: load.waiting > 0, PROGRESS_SECONDS)

    try:
        load.result = list(pager_of(client_for(conn), limit=PAGE_SIZE, on_progress=on_progress))
        if len(load.result) >= FREEZE_EVERY_RECORDS:
            _freeze()
        holder["entry"] = (load.version, load.result)  # one assignment: read old or new, whole
        with _STARTING:
            _LOADED_BEFORE.add((conn, label))
    except BaseException as exc:  # handed to the session that waits for it
        load.error = exc
    finally:
        load.ended = time.monotonic()
        load.done.set()


def traverse(
    conn: ConnectionKey,
    label: str,
    pager_of: Callable[..., Iterable[Model]],
    version: str | None = None,
) -> list[Model]:
    """Return every record `pager_of(client, limit=..., on_progress=...)` yields, kept per key
    while `version` (the data snapshot the records come from) is the same.

    The traversal runs once in a thread of its own (`preload` may have started it); the
    session waits for it under a status counting its records, and a second session asking
    meanwhile waits for the same one. Streamlit's `st.cache_data` replays the elements a
    cached function draws, so the list is held in a per-connection `st.cache_resource`
    holder instead. It outlives `TTL_SECONDS`: loading a whole collection is slow, and with
    the fetches' lifetime an analyst would pay it again every few minutes for the same data.
    """
    if _loaded(conn, label, version):
        return _holder(conn, label)["entry"][1]
    load = _load(conn, label, pager_of, version)
    if not load.done.is_set():
        load.wait(label)
    if load.error is not None:
        raise load.error
    return load.result


def preload(
    conn: ConnectionKey,
    collections: Mapping[str, Callable[..., Iterable[Any]]],
    version: str | None = None,
) -> None:
    """Load the collections (label: pager) not loaded yet, one after another, in one
    background thread: a page that needs one later finds it there or waits for the rest of
    its load. One at a time, so the first is ready soonest; a page that asks for one not
    begun starts it at once, beside the one under way.
    """
    holder = _holder(conn, "preloading")
    with _STARTING:
        running = holder.get("thread")
        if running is not None and running.is_alive():
            return
        wanted = {
            label: pager_of
            for label, pager_of in collections.items()
            if not _loaded(conn, label, version) and not _failed_lately(conn, label, version)
        }
        if not wanted:
            return
        holder["thread"] = threading.Thread(
            target=_load_each, args=(conn, wanted, version), name="preload", daemon=True
        )
        holder["thread"].start()


# A list whose load failed is not preloaded again for this long (a page that needs it asks
# again at once): every page run would otherwise send a failing service a whole traversal.
PRELOAD_RETRY_SECONDS = 60.0


def _failed_lately(conn: ConnectionKey, label: str, version: str | None) -> bool:
    load = _holder(conn, label).get("load")
    return (
        load is not None
        and load.version == version
        and load.error is not None
        and load.ended is not None
        and time.monotonic() - load.ended < PRELOAD_RETRY_SECONDS
    )


def _load_each(
    conn: ConnectionKey, collections: Mapping[str, Callable[..., Iterable[Any]]], version
) -> None:
    for label, pager_of in collections.items():
        # a load that fails is left for the page that needs it to report and try again
        _load(conn, label, pager_of, version).done.wait()


def derived(
    conn: ConnectionKey,
    name: str,
    sources: tuple[Any, ...],
    build: Callable[[], Model],
    *,
    spinner: str | None = None,
) -> Model:
    """Return `build()`, worked out once for these very `sources` and handed back as it is.

    For what a page derives from whole collections (`traverse` keeps one list per
    connection): while the collections are the same objects, the frame made from them is the
    same, so it is made once instead of on every run; when a collection is loaded again it
    is made again, under `spinner` when given. Callers only read what it returns.
    """
    holder = _holder(conn, f"made from {name}")
    entry = holder.get("entry")
    if (
        entry is None
        or len(entry[0]) != len(sources)
        or any(held is not source for held, source in zip(entry[0], sources, strict=True))
    ):
        with st.spinner(spinner) if spinner else contextlib.nullcontext():
            made = build()
        entry = (sources, made)  # one assignment: another session reads old or new, whole
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
