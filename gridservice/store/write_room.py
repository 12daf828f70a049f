"""Room left for writes: a full disk, or the store's size cap, told apart from a crash.

SQLite answers a write it has no room for with SQLITE_FULL, PostgreSQL with SQLSTATE 53100
(`disk_full`); both roll the statement back. The service answers such a write 503
`storage_full` with `Retry-After` (`errors`), its health probe reports the store as degraded
until there is room again, and writes resume by themselves once there is. On SQLite room is
measured: free pages inside the file, then growth under the size cap
(`Settings.max_store_bytes`) and on the disk. PostgreSQL's disk cannot be seen from here, so
the store counts as full until a write commits or `Retry-After` has passed since the last
refused one.
"""

from __future__ import annotations

import errno
import shutil
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

# A full store needs an operator (or a cleanup) to make room: a minute between retries.
STORE_FULL_RETRY_SECONDS = 60
_PG_DISK_FULL = "53100"


def is_store_full(exc: BaseException) -> bool:
    """True when a store error means there was no room to write (disk or size cap)."""
    if isinstance(exc, OSError) and exc.errno == errno.ENOSPC:
        return True
    if getattr(exc, "sqlstate", None) == _PG_DISK_FULL:
        return True
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(exc, sqlite3.Error) and code is not None:
        return code & 0xFF == sqlite3.SQLITE_FULL
    return isinstance(exc, sqlite3.OperationalError) and "database or disk is full" in str(exc)


def room_bytes(conn: sqlite3.Connection, db_path: Path) -> int:
    """Return how many bytes a write may still use in a SQLite store: free pages of the file,
    then growth under the connection's page cap and on the disk, whichever is smaller."""
    page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    page_count = conn.execute("PRAGMA page_count").fetchone()[0]
    free_pages = conn.execute("PRAGMA freelist_count").fetchone()[0]
    max_pages = conn.execute("PRAGMA max_page_count").fetchone()[0]
    growth = min((max_pages - page_count) * page_size, shutil.disk_usage(db_path.parent).free)
    return free_pages * page_size + max(0, growth)


class StoreSpace:
    """Whether the store's last write failed for lack of room, until room comes back.

    `db_path`: the SQLite file, None for PostgreSQL. `needed_bytes`: the room that counts as
    back (enough for the largest write a request can make)."""

    def __init__(self, db_path: Path | None, needed_bytes: int) -> None:
        self.db_path = Path(db_path) if db_path is not None else None
        self.needed_bytes = needed_bytes
        self._full_since: float | None = None
        self._lock = threading.Lock()

    def mark_full(self) -> None:
        with self._lock:
            self._full_since = time.monotonic()

    def mark_written(self) -> None:
        """A write committed: whatever failed before, there was room for this one."""
        if self._full_since is not None:
            with self._lock:
                self._full_since = None

    def is_full(self, conn: Any) -> bool:
        """True while the last write failed for lack of room and the room is not back."""
        since = self._full_since
        if since is None:
            return False
        if self.db_path is None:
            back = time.monotonic() - since >= STORE_FULL_RETRY_SECONDS
        else:
            back = room_bytes(conn, self.db_path) >= self.needed_bytes
        if back:
            with self._lock:
                self._full_since = None
        return not back
