"""Fixtures every suite may use: a throwaway PostgreSQL server (`postgres_cluster`); and the
`slow` mark, given here to whole kinds of test so that `-m "not slow"` is a fast subset."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from postgres_cluster import Cluster, start_cluster, unavailable_reason


TESTS = Path(__file__).parent
# Browser journeys and the benchmarks' own checks start whole apps and browsers.
SLOW_FOLDERS = {"e2e", "benchmarks"}
# A test on the PostgreSQL store waits for a server and copies of the demo store.
SLOW_FIXTURES = {"postgres_cluster"}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the slow kinds of test `slow` (a module marks its own slow tests as well)."""
    for item in items:
        folder = item.path.relative_to(TESTS).parts[0]
        if folder in SLOW_FOLDERS or SLOW_FIXTURES & set(item.fixturenames):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[Cluster]:
    """One PostgreSQL server for the session, removed at its end; skips when none can run."""
    reason = unavailable_reason()
    if reason is not None:
        pytest.skip(reason)
    cluster = start_cluster()
    try:
        yield cluster
    finally:
        cluster.remove()


@pytest.fixture
def postgres_url(postgres_cluster: Cluster) -> str:
    """The URL of a new, empty database on the session's server."""
    return postgres_cluster.new_database()


@pytest.fixture(scope="session")
def postgres_demo_template(postgres_cluster: Cluster) -> str:
    """The name of a database holding the demo store (scale 1); copy it before writing."""
    from gridservice.demo import build_demo_database
    from gridservice.store.db import connect, init_schema

    url = postgres_cluster.new_database()
    conn = connect(url)
    try:
        init_schema(conn)
        build_demo_database(conn)
        conn.commit()
    finally:
        conn.close()
    return url.rsplit("/", 1)[1]
