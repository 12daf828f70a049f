"""What a build holds back while a later file of the build would replace it anyway.

Harvesting a workbook of ERCOT's monthly GIS report replaces all of ERCOT's queue
records, and harvesting any queue source recomputes every queue record's `statusNow`.
Harvested one by one, 84 monthly workbooks write 84 months of records of which only the
last survives, and recompute statusNow 84 times of which only the last answer survives.
A build (`runner.build_from_dir`) instead holds the newest stored month's records back and
writes them when the build moves on to another source, and recomputes statusNow once,
before the first file that is not a queue source and at the end. What the build leaves is
what harvesting the same files one by one leaves; the test is
tests/service/harvest/test_harvest_build_deferral.py.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Callable, Collection, Iterator

from gridservice.catalogue import queue_status


@contextlib.contextmanager
def transaction(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """Yield the connection inside one explicit transaction: commit on success, roll back on
    any exception."""
    if conn.in_transaction:
        conn.commit()
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
    except BaseException:
        conn.rollback()
        raise
    conn.commit()


class HeldBack:
    """A build's held-back writes: one source's queue records and a stale `statusNow`."""

    def __init__(self, queue_sources: Collection[str]) -> None:
        self.queue_sources = queue_sources
        self.source_id: str | None = None
        self.records: Callable[[sqlite3.Connection], None] | None = None
        self.status_stale = False

    def hold(self, source_id: str, store_records: Callable[[sqlite3.Connection], None]) -> None:
        """Hold a stored file's queue records back (they replace any held of the source)."""
        self.source_id, self.records = source_id, store_records

    def queue_source_stored(self) -> None:
        """Note that a queue source stored a file, so every record's statusNow is stale."""
        self.status_stale = True

    def release(self, conn: sqlite3.Connection, next_source_id: str | None) -> None:
        """Write what the file of `next_source_id` that comes next (None: the build ends)
        would not replace: held records of another source, statusNow before a file that is
        not a queue source."""
        records = self.records if self.source_id != next_source_id else None
        refresh = self.status_stale and next_source_id not in self.queue_sources
        if records is None and not refresh:
            return
        with transaction(conn):
            if records is not None:
                records(conn)
            if refresh:
                queue_status.refresh_status_now(conn)
        if records is not None:
            self.source_id, self.records = None, None
        if refresh:
            self.status_stale = False
