"""Idempotency under concurrency: 50 simultaneous creates over real HTTP (uvicorn, loopback).

One key: exactly one site is made and every answer names it, or is a 409 while the first is
still in flight. Fifty keys: fifty sites. Checked in the answers and in the store itself.
A claim left by a process that died mid-request is taken over after its lease; a request
that outlived its claim cannot commit beside the one that took it over.
"""

from __future__ import annotations

import datetime as dt
import threading
import uuid
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
from security_support import ALPHA, site_body

from gridservice.routers.idempotency import request_hash
from gridservice.runtime.server import start_in_thread
from gridservice.settings import Settings
from gridservice.store import tenancy
from gridservice.store.db import connect

CONCURRENCY = 50


def utc_now_micro() -> str:
    return dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


@pytest.fixture(scope="module")
def live(store_copy):
    server = start_in_thread(Settings.for_store(store_copy, demo=True))
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


def plant_claim(db, idempotency_key: str, claimed_at: str) -> None:
    """Leave an in-flight claim as a process killed mid-request would."""
    conn = connect(db)
    body = site_body(customerReference="abandoned")
    with conn:
        conn.execute(
            "INSERT INTO idempotency_keys(tenant_id, operation, key, request_hash, state, "
            "created_at) VALUES ('demo-alpha', 'POST /v1/sites', ?, ?, 'in_flight', ?)",
            (idempotency_key, request_hash("POST /v1/sites", body), claimed_at),
        )
    conn.close()


def test_an_abandoned_claim_is_taken_over_and_a_live_one_is_not(live, store_copy):
    body = site_body(customerReference="abandoned")
    stale, fresh = "stale-" + uuid.uuid4().hex, "fresh-" + uuid.uuid4().hex
    plant_claim(store_copy, stale, "2020-01-01T00:00:00.000000Z")
    plant_claim(store_copy, fresh, utc_now_micro())
    with httpx.Client(base_url=live.base_url) as http:
        taken = http.post("/v1/sites", json=body, headers={**ALPHA, "Idempotency-Key": stale})
        busy = http.post("/v1/sites", json=body, headers={**ALPHA, "Idempotency-Key": fresh})
    assert taken.status_code == 201
    assert busy.status_code == 409 and busy.json()["code"] == "idempotency_key_in_flight"


def test_a_request_that_outlived_its_claim_cannot_also_commit(store_copy):
    conn = connect(store_copy)
    claim = {
        "tenant_id": "demo-alpha",
        "operation": "POST /v1/sites",
        "key": "k-" + uuid.uuid4().hex,
    }
    first = tenancy.claim_idempotency_key(
        conn,
        **claim,
        request_hash="h",
        now="2020-01-01T00:00:00.000000Z",
        expired_before="2000-01-01",
        abandoned_before="2000-01-01",
    )
    second = tenancy.claim_idempotency_key(
        conn,
        **claim,
        request_hash="h",
        now="2020-01-01T00:01:00.000000Z",
        expired_before="2000-01-01",
        abandoned_before="2020-01-01T00:00:30.000000Z",
    )
    assert (first.state, second.state) == ("claimed", "claimed")
    late = tenancy.complete_idempotency_key(
        conn, **claim, claimed_at="2020-01-01T00:00:00.000000Z", status_code=201, response="{}"
    )
    current = tenancy.complete_idempotency_key(
        conn, **claim, claimed_at="2020-01-01T00:01:00.000000Z", status_code=201, response="{}"
    )
    conn.commit()
    conn.close()
    assert (late, current) == (False, True)
