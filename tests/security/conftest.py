"""Security and reliability fixtures: one demo store built per session, copied where written.

The demo store (scale 1) holds two tenants, `demo-alpha` and `demo-beta`, with the tokens
`gds_demo_alpha` and `gds_demo_beta`. Modules that write get their own copy of the file.
Helpers live in `security_support.py`.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from demo_store import demo_store_copy
from fastapi.testclient import TestClient
from security_support import copy_store

from gridservice.app import create_app
from gridservice.settings import Settings


@pytest.fixture(scope="session")
def demo_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo store, built once and checkpointed into one file (copy it before writing)."""
    return demo_store_copy(tmp_path_factory.mktemp("demo-template") / "demo.db")


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def store_backend(request: pytest.FixtureRequest) -> str:
    """Each module that uses the demo store runs once per store backend."""
    return request.param


@pytest.fixture(scope="module")
def store_copy(
    store_backend: str,
    request: pytest.FixtureRequest,
    demo_template: Path,
    tmp_path_factory: pytest.TempPathFactory,
) -> Path | str:
    """A module's own copy of the demo store: a SQLite file, or a PostgreSQL database's URL."""
    if store_backend == "postgresql":
        cluster = request.getfixturevalue("postgres_cluster")
        return cluster.new_database(template=request.getfixturevalue("postgres_demo_template"))
    return copy_store(demo_template, tmp_path_factory.mktemp("store"))


@pytest.fixture(scope="module")
def service(store_copy: Path | str) -> Iterator[TestClient]:
    """The service in-process over the module's store (demo: no rate limit)."""
    app = create_app(Settings.for_store(store_copy, demo=True, secret_key=b"s" * 32))
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client
