"""The floor under each layer: the service's own SQL in raw sqlite3, JSON encoding alone, and
one page through the whole ASGI app in this process (full path, and a page cache hit).

Timed in this process on one thread, with the statements the service's store runs
(`gridservice.store.collections`), on a connection opened as the service opens its own.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from bench.peers.scenarios import FILTER, PAGE, SEARCH_LIMIT, SEARCHES
from gridservice.runtime.paging import envelope_bytes
from gridservice.settings import Settings
from gridservice.store import collections
from gridservice.store.connections import ConnectionPerThread
from gridservice.store.db import connect, init_schema
from gridservice.store.search import impacts


def time_call(fn: Callable[[], object], *, budget: float = 1.0, at_least: int = 5) -> dict:
    """Run `fn` repeatedly for about `budget` seconds; return median and best in ms."""
    fn()  # warm the page cache and statement cache
    samples: list[float] = []
    stop = time.perf_counter() + budget
    while len(samples) < at_least or time.perf_counter() < stop:
        start = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - start) * 1000)
    return {
        "median_ms": round(statistics.median(samples), 3),
        "best_ms": round(min(samples), 3),
        "runs": len(samples),
    }


def percentiles(fn: Callable[[], object], *, runs: int = 60) -> dict:
    """Run `fn` `runs` times after one warm-up call; return p50 and p95 in ms."""
    fn()
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - start) * 1000)
    samples.sort()
    return {
        "p50_ms": round(statistics.median(samples), 3),
        "p95_ms": round(samples[int(0.95 * (len(samples) - 1))], 3),
        "runs": runs,
    }


def second_pages(conn, text: str, runs: int = 30) -> dict:
    """The second page of a search just asked for the first time (as the service pages:
    into the ranking cache its first page filled), p50 and p95 in ms."""
    samples = []
    for _ in range(runs + 1):
        cache = collections.RankedSearchCache()
        rows = collections.evidence_search(conn, text, {}, None, SEARCH_LIMIT + 1, cache)
        if len(rows) <= SEARCH_LIMIT:
            return {"p50_ms": 0.0, "p95_ms": 0.0, "runs": 0}
        after = (rows[SEARCH_LIMIT - 1][2], rows[SEARCH_LIMIT - 1][0])
        start = time.perf_counter()
        collections.evidence_search(conn, text, {}, after, SEARCH_LIMIT + 1, cache)
        samples.append((time.perf_counter() - start) * 1000)
    samples = sorted(samples[1:])  # the first run warms the store's pages
    return {
        "p50_ms": round(statistics.median(samples), 3),
        "p95_ms": round(samples[int(0.95 * (len(samples) - 1))], 3),
        "runs": runs,
    }


def first_asking(conn) -> dict:
    """Each search asked as if for the first time (nothing kept from an earlier asking):
    its first page alone, as the service ranks it (into a fresh ranking cache), and the
    second page after it (which ranks the leading positions kept for the pages after)."""
    out = {}
    for name, text in SEARCHES.items():
        out[name] = {
            "page": percentiles(
                lambda text=text: collections.evidence_search(
                    conn, text, {}, None, SEARCH_LIMIT + 1
                )
            ),
            "service": percentiles(
                lambda text=text: collections.evidence_search(
                    conn, text, {}, None, SEARCH_LIMIT + 1, collections.RankedSearchCache()
                )
            ),
            "next": second_pages(conn, text),
        }
    return out


def _last_page_after(conn, filters: dict) -> str | None:
    """The id after which the last page starts (the position a last-page cursor holds)."""
    ids = [r[0] for r in collections.page(conn, "generators", filters, None, 10**9)]
    full_pages = (len(ids) - 1) // PAGE
    return ids[full_pages * PAGE - 1] if full_pages else None


def measure(db: Path) -> dict:
    """Time each scenario's SQL, and encoding a 500-record page three ways."""
    writable = connect(db)  # as the service does on opening a store: the schema, and the
    init_schema(writable)  # search's impact index built if a store written earlier lacks it
    impacts.refresh(writable)
    writable.close()
    conn = connect(db, readonly=True)
    # As the service opens its connections (default settings: no mmap window).
    conn.execute(f"PRAGMA cache_size=-{ConnectionPerThread.CACHE_KIB}")
    conn.execute("PRAGMA mmap_size=0")
    no_filter = {"source_id": None}
    last_after = _last_page_after(conn, no_filter)
    sql = {
        "generators_first": lambda: collections.page(conn, "generators", no_filter, None, PAGE + 1),
        "generators_last": lambda: collections.page(
            conn, "generators", no_filter, last_after, PAGE + 1
        ),
        "generators_filtered": lambda: collections.page(
            conn, "generators", {"source_id": None, **FILTER}, None, PAGE + 1
        ),
    }
    for name, text in SEARCHES.items():
        sql[name] = lambda text=text: collections.evidence_search(
            conn, text, {}, None, SEARCH_LIMIT + 1
        )
    out = {"sql": {name: time_call(fn) for name, fn in sql.items()}}
    out["first_asking"] = first_asking(conn)
    out["search_matches"] = {
        name: conn.execute(
            "SELECT count(*) FROM evidence_fts WHERE evidence_fts MATCH ?",
            (collections.fts_query(text),),
        ).fetchone()[0]
        for name, text in SEARCHES.items()
    }

    rows = collections.page(conn, "generators", no_filter, None, PAGE)
    bodies = [r[1] for r in rows]
    records = [json.loads(b) for b in bodies]
    meta = {"limit": PAGE, "has_more": True, "next_cursor": "x" * 180, "order": "id_asc"}
    out["encode"] = {
        # what the service does: splice the stored JSON text into the envelope
        "splice_stored_json": time_call(lambda: envelope_bytes(bodies, **meta)),
        # what a service that parses and re-serialises each record would pay
        "dumps_records": time_call(
            lambda: json.dumps({"data": records, "meta": meta}, separators=(",", ":")).encode()
        ),
        # what Datasette pays for this page: each body is a string column to escape
        "dumps_rows_with_body_strings": time_call(
            lambda: json.dumps(
                {"rows": [{"id": r[0], "body": r[1]} for r in rows]}, separators=(",", ":")
            ).encode()
        ),
        "parse_stored_json": time_call(lambda: [json.loads(b) for b in bodies]),
    }
    conn.close()
    out["asgi"] = measure_asgi(db)
    return out


def _asgi_timing(app, path: str, query: str, *, budget: float = 1.0, at_least: int = 5) -> dict:
    """Median and best ms of one GET through the ASGI app in this process (no socket), one
    request at a time, all inside one running event loop as under uvicorn (the thread pool's
    workers, and their store connections, live as long as the loop's main task)."""
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
        "scheme": "http", "path": path, "raw_path": path.encode(), "root_path": "",
        "query_string": query.encode(), "server": ("127.0.0.1", 80),
        "client": ("127.0.0.1", 50000),
        "headers": [(b"host", b"127.0.0.1"), (b"authorization", b"Bearer gds_demo_alpha")],
    }  # fmt: skip

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def one() -> None:
        sent: list[dict] = []

        async def send(message):
            sent.append(message)

        await app(dict(scope, state={}), receive, send)
        if sent[0]["status"] != 200:
            raise RuntimeError(f"{path}?{query}: {sent[0]['status']}")

    async def timed() -> list[float]:
        await one()  # warm: the page cache is filled, the worker thread's connection opened
        samples: list[float] = []
        stop = time.perf_counter() + budget
        while len(samples) < at_least or time.perf_counter() < stop:
            start = time.perf_counter()
            await one()
            samples.append((time.perf_counter() - start) * 1000)
        return samples

    samples = asyncio.run(timed())
    return {
        "median_ms": round(statistics.median(samples), 3),
        "best_ms": round(min(samples), 3),
        "runs": len(samples),
    }


def measure_asgi(db: Path) -> dict:
    """One 500-row page through the whole ASGI app in this process, one request at a time:
    by the full path (page cache off) and as a page cache hit. What is left above these
    under load is uvicorn, the socket and waiting for a core."""
    from gridservice.app import create_app  # deferred: FastAPI loads only for this part

    out = {}
    for name, cache_bytes in (("full_path", 0), ("page_cache_hit", 64 * 2**20)):
        settings = Settings(
            db_path=db, rate_limit_per_second=1e9, rate_limit_burst=10**9,
            page_cache_bytes=cache_bytes,
        )  # fmt: skip
        out[name] = _asgi_timing(create_app(settings), "/v1/generators", f"limit={PAGE}")
    return out
