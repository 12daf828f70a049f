"""The demo store built as a file in a process of its own (the app's first start) holds what
the service's own build in its store holds, record for record."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from demo_store import demo_store_copy

# Builds a demo store: seconds of a processor.
pytestmark = pytest.mark.slow
REPO_ROOT = Path(__file__).resolve().parents[3]


def statements(path) -> list[str]:
    """Return the store's content as SQL statements (schema and every row, in order)."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return list(conn.iterdump())
    finally:
        conn.close()


def test_the_demo_store_built_in_its_own_process_is_the_one_built_in_the_service(tmp_path):
    built_aside = tmp_path / "aside" / "demo.db"
    subprocess.run(
        [sys.executable, "-m", "gridservice.demo.store_file", str(built_aside)],
        cwd=REPO_ROOT,
        check=True,
    )
    in_the_service = demo_store_copy(tmp_path / "service.db")
    assert sorted(p.name for p in built_aside.parent.iterdir()) == ["demo.db"]
    assert statements(built_aside) == statements(in_the_service)
