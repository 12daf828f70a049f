"""Where the service's connections come from: one SQLite connection per thread, or a pool."""

from __future__ import annotations

import contextlib
import sqlite3
import threading
import weakref
from pathlib import Path
from typing import Any

from gridservice.store.backend import PooledConnections
from gridservice.store.db import connect


class ConnectionPerThread:
    """Hands each thread its own connection to the store (sqlite3 objects are not shared).

    A connection is closed when its thread ends: the server's worker threads come and go,
    and a connection kept past its thread is memory (page cache, mmap) never given back.
    """

    # Each thread's SQLite page cache; the operating system's file cache is behind it.
    CACHE_KIB = 8000

    def __init__(self, path: Path, mmap_bytes: int = 0, max_bytes: int | None = None) -> None:
        """`mmap_bytes`: SQLite's memory-mapped window per connection (0: off). A window makes
        large pages faster (no read() per page) but every connection maps the file on its
        own, so the process's resident memory counts the pages it touched once per
        connection: a window is a trade of memory for speed, off by default.
        `max_bytes`: the store file may not grow past this (SQLite's page cap, applied on
        every connection); a write past it fails as on a full disk."""
        self.path = path
        self.mmap_bytes = mmap_bytes
        self.max_bytes = max_bytes
        self._local = threading.local()
        self._lock = threading.Lock()
        self._opened: list[sqlite3.Connection] = []

    def get(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = connect(self.path)
            conn.execute(f"PRAGMA cache_size=-{self.CACHE_KIB}")
            conn.execute(f"PRAGMA mmap_size={int(self.mmap_bytes)}")
            if self.max_bytes is not None:
                page_size = conn.execute("PRAGMA page_size").fetchone()[0]
                conn.execute(f"PRAGMA max_page_count={max(1, int(self.max_bytes) // page_size)}")
            self._local.conn = conn
            with self._lock:
                self._opened.append(conn)
            weakref.finalize(threading.current_thread(), self._retire, conn)
        return conn

    @property
    def open_count(self) -> int:
        """How many connections are open now (one per live thread that has used the store)."""
        with self._lock:
            return len(self._opened)

    def _retire(self, conn: sqlite3.Connection) -> None:
        with self._lock:
            if conn in self._opened:
                self._opened.remove(conn)
        with contextlib.suppress(sqlite3.ProgrammingError):
            conn.close()

    def close_all(self) -> None:
        with self._lock:
            for conn in self._opened:
                with contextlib.suppress(sqlite3.ProgrammingError):
                    conn.close()
            self._opened.clear()
        self._local = threading.local()


def connection_source(settings: Any) -> ConnectionPerThread | PooledConnections:
    """Return the service's source of connections for `settings` (pool or per-thread)."""
    if settings.database_url:
        return PooledConnections(
            settings.database_url,
            max_size=settings.pool_size,
            timeout=settings.pool_timeout_seconds,
        )
    return ConnectionPerThread(
        settings.db_path, settings.mmap_bytes, max_bytes=settings.max_store_bytes
    )
