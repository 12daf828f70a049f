"""Idempotency under concurrency: 50 simultaneous creates over real HTTP (uvicorn, loopback).

One key: exactly one site is made and every answer names it, or is a 409 while the first is
still in flight. Fifty keys: fifty sites. Checked in the answers and in the store itself.
"""

from __future__ import annotations

import threading
import uuid
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
from conftest import ALPHA, site_body

from gridservice.server import start_in_thread
from gridservice.settings import Settings
from gridservice.store.db import connect

CONCURRENCY = 50


@pytest.fixture(scope="module")
def live(store_copy):
    server = start_in_thread(Settings(db_path=store_copy, demo=True))
    yield server
    server.stop()


def fire(base_url: str, requests: list[tuple[dict, dict]]) -> list[httpx.Response]:
    """Send every (headers, body) at once from its own thread and connection."""
    gate = threading.Barrier(len(requests))

    def one(request: tuple[dict, dict]) -> httpx.Response:
        headers, body = request
        with httpx.Client(base_url=base_url, timeout=60) as http:
            gate.wait()
            return http.post("/v1/sites", json=body, headers=headers)

    with ThreadPoolExecutor(max_workers=len(requests)) as pool:
        return list(pool.map(one, requests))


def sites_with_reference(db, reference: str) -> list[str]:
    conn = connect(db)
    rows = conn.execute(
        "SELECT id FROM sites WHERE json_extract(body, '$.customerReference') = ?", (reference,)
    ).fetchall()
    conn.close()
    return [r[0] for r in rows]


def test_fifty_concurrent_creates_with_one_key_make_one_site(live, store_copy):
    reference = "one-key-" + uuid.uuid4().hex
    headers = {**ALPHA, "Idempotency-Key": "concurrent-" + uuid.uuid4().hex}
    body = site_body(customerReference=reference)
    answers = fire(live.base_url, [(headers, body)] * CONCURRENCY)

    statuses = Counter(a.status_code for a in answers)
    assert set(statuses) <= {201, 409}, statuses
    created = [a for a in answers if a.status_code == 201]
    named = {a.json()["data"]["id"] for a in created}
    assert len(named) == 1
    assert sum(1 for a in created if "idempotent-replayed" not in a.headers) == 1
    for conflict in (a for a in answers if a.status_code == 409):
        assert conflict.json()["code"] == "idempotency_key_in_flight"
    assert sites_with_reference(store_copy, reference) == list(named)

    # Once settled, the key replays the one site.
    again = httpx.post(live.base_url + "/v1/sites", json=body, headers=headers)
    assert again.status_code == 201 and again.headers["idempotent-replayed"] == "true"
    assert again.json()["data"]["id"] in named


def test_fifty_concurrent_creates_with_distinct_keys_make_fifty_sites(live, store_copy):
    reference = "many-keys-" + uuid.uuid4().hex
    body = site_body(customerReference=reference)
    requests = [
        ({**ALPHA, "Idempotency-Key": f"distinct-{i}-{uuid.uuid4().hex}"}, body)
        for i in range(CONCURRENCY)
    ]
    answers = fire(live.base_url, requests)
    assert [a.status_code for a in answers] == [201] * CONCURRENCY
    ids = {a.json()["data"]["id"] for a in answers}
    assert len(ids) == CONCURRENCY
    assert set(sites_with_reference(store_copy, reference)) == ids
