"""Service fixtures: a fresh store per test module, with small records written directly."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from demo_store import demo_store_copy
from fastapi.testclient import TestClient
from service_support import seed_small_store

from gridservice.app import create_app
from gridservice.settings import Settings


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def store_backend(request: pytest.FixtureRequest) -> str:
    """Each module that uses the service runs once per store backend."""
    return request.param


@pytest.fixture(scope="module")
def small_db(
    store_backend: str, request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Path | str:
    """The small known store: a SQLite file, or the URL of a PostgreSQL database."""
    if store_backend == "postgresql":
        location: Path | str = request.getfixturevalue("postgres_cluster").new_database()
    else:
        location = tmp_path_factory.mktemp("store") / "service.db"
    seed_small_store(location)
    return location


@pytest.fixture(scope="module")
def client(small_db: Path | str) -> Iterator[TestClient]:
    settings = Settings.for_store(small_db, secret_key=b"k" * 32, rate_limit_burst=100000)
    app = create_app(settings)
    with TestClient(app, raise_server_exceptions=False) as test_client:
        yield test_client


@pytest.fixture(scope="module")
def demo_with_db(tmp_path_factory) -> Iterator[tuple[TestClient, sqlite3.Connection]]:
    """The demo store (SQLite) served in-process, rate limits out of the way, and a direct
    connection to it for checking answers against the stored rows."""
    db_path = demo_store_copy(tmp_path_factory.mktemp("demo") / "demo.db")
    app = create_app(Settings(db_path=db_path, demo=True, rate_limit_burst=10**6))
    with TestClient(app, raise_server_exceptions=False) as test_client:
        conn = sqlite3.connect(db_path)
        yield test_client, conn
        conn.close()


@pytest.fixture(scope="session")
def census_counties_store(tmp_path_factory) -> tuple[Path, dict]:
    """A store holding only the Census county outlines, harvested once per test process
    (about 10 s), and the run that loaded them: a module copies the file
    (`harvest_support.counties_store`) instead of harvesting the outlines again."""
    from gridservice.harvest import census, run_harvest
    from gridservice.store import db

    path = tmp_path_factory.mktemp("census") / "counties.db"
    conn = db.connect(path)
    try:
        db.init_schema(conn)
        run = run_harvest(conn, "census-counties", census.default_path()).run
    finally:
        conn.close()
    return path, run
