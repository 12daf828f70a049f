"""Which markets the partially covering datasets hold, read from the store by index: every
surroundings answer outside ERCOT asks, so the read must not grow with the hours loaded."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator

import pytest
from sqlite_steps import vm_steps

from gridservice.store import coverage_reads, db, writer

AREAS = ("ERCO", "COAS", "SWPP")


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


def test_the_areas_of_the_hourly_operations_are_read_without_walking_every_hour(stores):
    day_hours, months_hours = sorted(stores)
    day, months = (coverage_reads.operations_areas(stores[h]) for h in (day_hours, months_hours))
    day_steps, months_steps = (
        vm_steps(stores[h], lambda h=h: coverage_reads.operations_areas(stores[h]))
        for h in (day_hours, months_hours)
    )
    newest = max(o["utcTime"] for o in hourly("ERCO", 24 * 28 * 4))
    assert months == [(code, newest) for code in sorted(AREAS)]
    assert [code for code, _ in day] == sorted(AREAS)
    # 112 times the hours: a read that walks them takes hundreds of times the steps; index
    # seeks take a few more (a deeper B-tree), whatever the machine's speed.
    assert months_steps <= 3 * max(day_steps, 1)
