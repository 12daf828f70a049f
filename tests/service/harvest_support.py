"""Shared helpers of the harvest tests: where the real files are, fresh stores, bad copies.

The real files are read in place from the shared data folder beside the repository and
never copied into it; bad files are made in a temporary folder from the real ones.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

from gridservice.store import db, harvest_store

DATA = Path(__file__).resolve().parents[2] / ".." / "shared" / "data"


def data_file(relative: str) -> Path:
    """Return a real file of the shared data folder, or skip the test saying why."""
    path = DATA / relative
    if not path.is_file():
        pytest.skip(f"shared data file not present: {relative} (looked in {DATA.resolve()})")
    return path


def fresh_store(path: Path) -> sqlite3.Connection:
    conn = db.connect(path)
    db.init_schema(conn)
    return conn


def counties_store(template: tuple[Path, dict], path: Path) -> sqlite3.Connection:
    """Copy the counties-only store of the `census_counties_store` fixture to `path` and
    return a connection to the copy."""
    shutil.copyfile(template[0], path)
    return db.connect(path)


def store_snapshot(conn: sqlite3.Connection) -> dict:
    """Everything a harvest may change: table counts, runs, meta and a digest of bodies."""
    bodies = {}
    for table, key in [
        ("queue_records", "id"),
        ("queue_record_evidence", "record_id"),
        ("facts", "id"),
        ("service_territories", "territory_id"),
        ("generators", "id"),
        ("generation_plants", "id"),
        ("ba_operations", "id"),
        ("evidence_chunks", "chunk_id"),
    ]:
        rows = conn.execute(f"SELECT {key}, body FROM {table} ORDER BY {key}").fetchall()
        bodies[table] = hash(tuple((r[0], r[1]) for r in rows))
    return {
        "counts": harvest_store.table_counts(conn),
        "runs": json.dumps(harvest_store.harvest_runs(conn)),
        "meta": dict(conn.execute("SELECT key, value FROM meta").fetchall()),
        "bodies": bodies,
    }


def rewrite_xlsx(src: Path, dst: Path, member: str, edit: Callable[[str], str]) -> Path:
    """Copy a workbook to `dst` with one XML member edited as text."""
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            data = zin.read(info.filename)
            if info.filename == member:
                text = data.decode("utf-8")
                edited = edit(text)
                assert edited != text, f"edit did not change {member}"
                data = edited.encode("utf-8")
            zout.writestr(info, data)
    return dst


def truncated_copy(src: Path, dst: Path) -> Path:
    """Copy the first half of a file's bytes (a download cut short)."""
    data = src.read_bytes()
    dst.write_bytes(data[: len(data) // 2])
    return dst
