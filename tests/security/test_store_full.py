"""A store with no room for a write is not a crash: each write is refused 503
`storage_full` with `Retry-After`, the health probe says the store is degraded, nothing is
half-written, and writes resume by themselves once room is made, without a restart.

On SQLite the full disk is the store's size cap (`Settings.max_store_bytes`, `serve
--max-store-mb`), which SQLite enforces with the same SQLITE_FULL as a full disk. On
PostgreSQL a full disk cannot be made in the suite: the database's own disk-full error
(SQLSTATE 53100) is raised inside a real write instead.
"""

from __future__ import annotations

import secrets
import sqlite3
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from security_support import ALPHA, copy_store, key, site_body

from gridservice.app import create_app
from gridservice.runtime.server import start_in_thread
from gridservice.settings import Settings
from gridservice.store import tenancy
from gridservice.store.db import connect

BULKY = "bulky-"  # customer reference prefix of the sites made to fill the store


def bulky_site() -> dict:
    """A site of about 20 kB: 50 metadata values of 400 random characters."""
    metadata = {f"k{i}": secrets.token_hex(200) for i in range(50)}
    return site_body(customerReference=BULKY + secrets.token_hex(4), metadata=metadata)


def store_counts(location: Path | str) -> tuple[int, int]:
    """Return the number of sites and of Idempotency-Key claims still in flight."""
    conn = connect(location)
    try:
        sites = conn.execute("SELECT count(*) FROM sites").fetchone()[0]
        in_flight = conn.execute(
            "SELECT count(*) FROM idempotency_keys WHERE state = 'in_flight'"
        ).fetchone()[0]
        return sites, in_flight
    finally:
        conn.close()


def assert_storage_full(response: httpx.Response) -> None:
    assert response.status_code == 503, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    assert response.json()["code"] == "storage_full"
    assert int(response.headers["retry-after"]) > 0


@pytest.fixture(scope="module")
def capped(demo_template, tmp_path_factory):
    """The service on a copy of the demo store capped at its size plus 1.2 MB."""
    db = copy_store(demo_template, tmp_path_factory.mktemp("store-full"))
    cap = db.stat().st_size + 1200 * 1024
    server = start_in_thread(Settings(db_path=db, demo=True, max_store_bytes=cap))
    server.db_path = db
    yield server
    server.stop()


def test_a_full_store_refuses_writes_with_503_and_resumes_when_room_returns(capped):
    db = capped.db_path
    sites_before, _ = store_counts(db)
    with httpx.Client(base_url=capped.base_url, headers=ALPHA, timeout=60) as http:
        assert http.get("/v1/health").json() == {"status": "ok"}

        def create(_: int) -> tuple[httpx.Response, dict]:
            headers = key()
            return http.post("/v1/sites", json=bulky_site(), headers=headers), headers

        # Eight clients at once until the store is full: every one gets an HTTP answer.
        with ThreadPoolExecutor(8) as pool:
            answers = list(pool.map(create, range(96)))
        statuses = [response.status_code for response, _ in answers]
        assert set(statuses) <= {201, 503}, statuses
        assert 201 in statuses and 503 in statuses, statuses
        refused = [(r, h) for r, h in answers if r.status_code == 503]
        for response, _ in refused:
            assert_storage_full(response)
        health = http.get("/v1/health")
        assert health.status_code == 200
        assert health.json() == {"status": "degraded", "store": "full"}
        assert http.get("/v1/sites", params={"limit": 1}).status_code == 200  # reads work

        # Nothing half-written: one site per 201, no claim left in flight, an intact file.
        sites, in_flight = store_counts(db)
        assert (sites - sites_before, in_flight) == (statuses.count(201), 0)
        conn = sqlite3.connect(db)
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        conn.close()

        # The operator makes room (here: removes the bulky sites); no restart.
        conn = connect(db)
        with conn:
            conn.execute("DELETE FROM idempotency_keys WHERE operation = 'POST /v1/sites'")
            conn.execute("DELETE FROM sites WHERE body LIKE ?", (f'%"{BULKY}%',))
        conn.close()
        assert http.get("/v1/health").json() == {"status": "ok"}
        response, headers = refused[0]
        retried = http.post("/v1/sites", json=bulky_site(), headers=headers)
        assert retried.status_code == 201, retried.text


def disk_full_error(store_backend: str) -> Exception:
    """Return the error the store raises when its disk is full."""
    if store_backend == "postgresql":
        import psycopg.errors  # only where PostgreSQL runs: psycopg is its driver

        return psycopg.errors.DiskFull("could not extend file: No space left")
    return sqlite3.OperationalError("database or disk is full")


def test_the_disk_full_error_of_either_store_is_a_503_and_nothing_is_kept(
    store_copy, store_backend, monkeypatch
):
    """The store's own disk-full error, raised after the site's row is inserted in the
    write's transaction: 503 `storage_full`, no site and no claim kept; the same key
    succeeds once the store has room again."""
    full = disk_full_error(store_backend)
    real_insert = tenancy.insert_site

    def insert_then_full(conn, *args) -> None:
        real_insert(conn, *args)
        raise full

    settings = Settings.for_store(store_copy, demo=True, secret_key=b"s" * 32)
    with TestClient(create_app(settings), raise_server_exceptions=False) as client:
        sites_before, _ = store_counts(store_copy)
        headers = {**ALPHA, **key()}
        with monkeypatch.context() as patch:
            patch.setattr(tenancy, "insert_site", insert_then_full)
            assert_storage_full(client.post("/v1/sites", json=site_body(), headers=headers))
        assert store_counts(store_copy) == (sites_before, 0)
        health = client.get("/v1/health").json()
        if store_backend == "postgresql":
            # PostgreSQL's disk cannot be measured from here: degraded until a write commits.
            assert health == {"status": "degraded", "store": "full"}
        else:
            # SQLite's room is measured, and this store has room (the error was injected).
            assert health == {"status": "ok"}
        retried = client.post("/v1/sites", json=site_body(), headers=headers)
        assert retried.status_code == 201, retried.text
        assert client.get("/v1/health").json() == {"status": "ok"}


def test_a_claim_whose_release_cannot_be_written_lapses_at_its_lease(
    service, store_copy, store_backend, monkeypatch
):
    """On a disk so full that even releasing the claim fails: the write is 503
    `storage_full`, the claim stays in flight, so the same key is 409
    `idempotency_key_in_flight` until the lease passes; then it is taken over and succeeds."""
    full = disk_full_error(store_backend)

    def raise_full(*_args, **_kwargs) -> None:
        raise full

    sites_before, in_flight_before = store_counts(store_copy)
    headers = {**ALPHA, **key()}
    with monkeypatch.context() as patch:
        patch.setattr(tenancy, "insert_site", raise_full)
        patch.setattr(tenancy, "release_idempotency_key", raise_full)
        assert_storage_full(service.post("/v1/sites", json=site_body(), headers=headers))
    assert store_counts(store_copy) == (sites_before, in_flight_before + 1)
    busy = service.post("/v1/sites", json=site_body(), headers=headers)
    assert busy.status_code == 409 and busy.json()["code"] == "idempotency_key_in_flight"
    # The lease passes (the claim is dated back past it, as the clock would).
    conn = connect(store_copy)
    with conn:
        conn.execute(
            "UPDATE idempotency_keys SET created_at = '2020-01-01T00:00:00.000000Z' "
            "WHERE key = ? AND state = 'in_flight'",
            (headers["Idempotency-Key"],),
        )
    conn.close()
    taken = service.post("/v1/sites", json=site_body(), headers=headers)
    assert taken.status_code == 201, taken.text
    assert store_counts(store_copy) == (sites_before + 1, in_flight_before)
