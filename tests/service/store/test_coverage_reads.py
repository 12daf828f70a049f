"""Which markets the partially covering datasets hold, read from the store by index: every
surroundings answer outside ERCOT asks, so the read must not grow with the hours loaded."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator

import pytest

from gridservice.store import coverage_reads, db, writer

AREAS = ("ERCO", "COAS", "SWPP")
# The progress handler is called every this many SQLite virtual-machine steps.
STEPS = 100


def hourly(code: str, hours: int) -> Iterator[dict]:
    """Yield `hours` hourly operations of a balancing area, the newest last."""
    for hour in range(hours):
        day, at = divmod(hour, 24)
        yield {
            "id": f"{code}-{hour}",
            "balancingAuthorityCode": code,
            "region": None,
            "utcTime": f"2024-{1 + day // 28:02d}-{1 + day % 28:02d}T{at:02d}:00:00Z",
            "demandMw": 1.0,
        }


@pytest.fixture(scope="module")
def stores(tmp_path_factory) -> Iterator[dict[int, sqlite3.Connection]]:
    """Two stores, a day and four months of hours of each area, by hours per area."""
    connections = {}
    for hours in (24, 24 * 28 * 4):
        conn = db.connect(tmp_path_factory.mktemp("coverage") / f"{hours}.db")
        db.init_schema(conn)
        with conn:
            for code in AREAS:
                writer.insert_ba_operations(conn, hourly(code, hours))
        connections[hours] = conn
    yield connections
    for conn in connections.values():
        conn.close()


def steps_of(conn: sqlite3.Connection) -> tuple[list[tuple[str, str | None]], int]:
    """Return the areas read and how many hundreds of SQLite steps reading them took."""
    counted = [0]

    def count() -> int:
        counted[0] += 1
        return 0

    conn.set_progress_handler(count, STEPS)
    try:
        areas = coverage_reads.operations_areas(conn)
    finally:
        conn.set_progress_handler(None, STEPS)
    return areas, counted[0]


def test_the_areas_of_the_hourly_operations_are_read_without_walking_every_hour(stores):
    (day, day_steps), (year, year_steps) = (steps_of(stores[h]) for h in sorted(stores))
    newest = max(o["utcTime"] for o in hourly("ERCO", 24 * 28 * 4))
    assert year == [(code, newest) for code in sorted(AREAS)]
    assert [code for code, _ in day] == sorted(AREAS)
    # 112 times the hours: a read that walks them takes hundreds of times the steps; index
    # seeks take a few more (a deeper B-tree), whatever the machine's speed.
    assert year_steps <= 3 * max(day_steps, 1)
