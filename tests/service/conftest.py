"""Service fixtures: a fresh store per test module, with small records written directly."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from service_support import seed_small_store

from gridservice.app import create_app
from gridservice.settings import Settings


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
