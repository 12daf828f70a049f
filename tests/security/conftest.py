"""Security and reliability fixtures: one demo store built per session, copied where written.

The demo store (scale 1) holds two tenants, `demo-alpha` and `demo-beta`, with the tokens
`gds_demo_alpha` and `gds_demo_beta`. Modules that write get their own copy of the file.
Helpers live in `security_support.py`.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from security_support import copy_store

from gridservice.app import create_app
from gridservice.demo import build_demo_database
from gridservice.settings import Settings
from gridservice.store.db import connect, init_schema


@pytest.fixture(scope="session")
def demo_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo store, built once and checkpointed into one file (copy it before writing)."""
    path = tmp_path_factory.mktemp("demo-template") / "demo.db"
    conn = connect(path)
    init_schema(conn)
    build_demo_database(conn)
    conn.commit()
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    return path


@pytest.fixture(scope="module")
def store_copy(demo_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A module's own copy of the demo store."""
    return copy_store(demo_template, tmp_path_factory.mktemp("store"))


@pytest.fixture(scope="module")
def service(store_copy: Path) -> Iterator[TestClient]:
    """The service in-process over the module's store (demo: no rate limit)."""
    app = create_app(Settings(db_path=store_copy, demo=True, secret_key=b"s" * 32))
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client
