"""One SQLite connection per thread for a store file."""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from pathlib import Path

from gridservice.store.db import connect


class ConnectionPerThread:
    """Hands each thread its own connection to the store (sqlite3 objects are not shared)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._local = threading.local()
        self._lock = threading.Lock()
        self._opened: list[sqlite3.Connection] = []

    def get(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = connect(self.path)
            conn.execute("PRAGMA cache_size=-32000")
            conn.execute("PRAGMA mmap_size=268435456")
            self._local.conn = conn
            with self._lock:
                self._opened.append(conn)
        return conn

    def close_all(self) -> None:
        with self._lock:
            for conn in self._opened:
                with contextlib.suppress(sqlite3.ProgrammingError):
                    conn.close()
            self._opened.clear()
        self._local = threading.local()
