"""Helpers shared by the security tests (a uniquely named module: several test folders have a
conftest.py, so tests never import `conftest` by name)."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import httpx
from fastapi.testclient import TestClient
from service_calls import create_assessment, create_site, key, site_body

ALPHA_TOKEN = "gds_demo_alpha"
BETA_TOKEN = "gds_demo_beta"
ALPHA = {"Authorization": f"Bearer {ALPHA_TOKEN}"}
BETA = {"Authorization": f"Bearer {BETA_TOKEN}"}
__all__ = ["create_assessment", "create_site", "key", "site_body"]  # shared with other suites


def copy_store(template: Path, directory: Path) -> Path:
    """Copy the demo store into `directory` (as store.db) and return its path."""
    directory.mkdir(parents=True, exist_ok=True)
    target = directory / "store.db"
    shutil.copyfile(template, target)
    return target


def create_export(client: TestClient, headers: dict, assessment_id: str) -> dict:
    response = client.post(
        f"/v1/assessments/{assessment_id}/exports",
        json={"format": "csv"},
        headers={**headers, **key()},
    )
    assert response.status_code == 201, response.text
    return response.json()["data"]


def free_port() -> int:
    """Return a loopback port free now, for a server a test starts and restarts on it."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def store_text(location: Path | str) -> str:
    """Return every row of every table of a store as text (SQLite's dump; on PostgreSQL
    each row of each table of the store's schema)."""
    from gridservice.store.db import connect
    from gridservice.store.pg import is_postgres

    conn = connect(location)
    try:
        if not is_postgres(conn):
            return "\n".join(conn.iterdump())
        tables = [
            r[0]
            for r in conn.execute(
                "SELECT table_name FROM information_schema.tables "
                "WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"
            )
        ]
        return "\n".join(
            str(row[0])
            for table in tables
            for row in conn.execute(f'SELECT t::text FROM "{table}" t')
        )
    finally:
        conn.close()


def set_in_bodies(conn, table: str, key_column: str, field: str, value: str) -> None:
    """Set one top-level field of every stored record body of `table` (either backend)."""
    rows = conn.execute(f"SELECT {key_column}, body FROM {table}").fetchall()
    conn.executemany(
        f"UPDATE {table} SET body = ? WHERE {key_column} = ?",
        [(json.dumps({**json.loads(body), field: value}), key) for key, body in rows],
    )


@dataclass
class Instance:
    process: subprocess.Popen
    base_url: str

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def start_instance(store: Path | str, *extra: str, port: int | None = None) -> Instance:
    """Start `gridservice serve` on the store, a PostgreSQL URL or a SQLite file (one
    process, as one machine of a deployment would run it); return once it answers its
    health probe."""
    port = port or free_port()
    env = {k: v for k, v in os.environ.items() if k != "GRIDSERVICE_DATABASE_URL"}
    if str(store).startswith(("postgresql://", "postgres://")):
        env["GRIDSERVICE_DATABASE_URL"] = str(store)
    else:
        extra = ("--db", str(store), *extra)
    process = subprocess.Popen(
        [sys.executable, "-m", "gridservice", "serve", "--port", str(port), *extra],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 90
    while True:
        try:
            if httpx.get(base + "/v1/health", timeout=2).status_code == 200:
                return Instance(process, base)
        except httpx.TransportError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            stderr = process.stderr.read().decode() if process.stderr else ""
            raise AssertionError(f"gridservice serve did not start: {stderr[-2000:]}")
        time.sleep(0.2)
