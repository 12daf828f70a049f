"""Several reads that answer one request, all of one state of the store.

A connection outside a transaction runs each statement on its own: on SQLite each sees
the store as it is when it starts, on PostgreSQL (read committed) each sees what has been
committed by then. An answer built from several statements (a site's surroundings read
a report's rows, then describes some of them by key, then reads why projects left) can
then mix the store from before and after a harvest that commits in between.
`read_snapshot` runs them in one read-only transaction instead: SQLite in WAL mode keeps
the state of its first read for the whole transaction (writers go on, into the WAL), and
PostgreSQL's repeatable read keeps the state of its first statement. Nothing is written,
so the transaction is rolled back at the end.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator

from gridservice.store.pg import is_postgres

# PostgreSQL: one snapshot for every statement, and a write refused rather than kept
SNAPSHOT_BEGIN = "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY"


@contextlib.contextmanager
def read_snapshot(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """Run the reads inside on one state of the store (see the module's docstring).

    A connection already in a transaction is left as it is: its transaction decides what
    its reads see, and its owner ends it."""
    if conn.in_transaction:
        yield conn
        return
    conn.execute(SNAPSHOT_BEGIN if is_postgres(conn) else "BEGIN")
    try:
        yield conn
    finally:
        conn.rollback()
