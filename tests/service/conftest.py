"""Service fixtures: a fresh store per test module, with small records written directly."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import service_records as records
from fastapi.testclient import TestClient

from gridservice.app import create_app
from gridservice.settings import Settings
from gridservice.store import writer
from gridservice.store.db import connect, init_schema

ALPHA = {"Authorization": "Bearer tok_alpha_test"}
BETA = {"Authorization": "Bearer tok_beta_test"}


def seed_small_store(db_path: Path) -> None:
    """Write a small, known set of records of every kind (and two tenants' tokens)."""
    conn = connect(db_path)
    init_schema(conn)
    with conn:
        writer.add_token(conn, "tok_alpha_test", "tenant-alpha", "2025-01-01T00:00:00Z")
        writer.add_token(conn, "tok_beta_test", "tenant-beta", "2025-01-01T00:00:00Z")
        records.write_all(conn)
    conn.close()


@pytest.fixture(scope="module")
def small_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db_path = tmp_path_factory.mktemp("store") / "service.db"
    seed_small_store(db_path)
    return db_path


@pytest.fixture(scope="module")
def client(small_db: Path) -> Iterator[TestClient]:
    app = create_app(Settings(db_path=small_db, secret_key=b"k" * 32, rate_limit_burst=100000))
    with TestClient(app, raise_server_exceptions=False) as test_client:
        yield test_client
