"""Fixtures every suite may use: a throwaway PostgreSQL server (`postgres_cluster`)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from postgres_cluster import Cluster, start_cluster, unavailable_reason


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
