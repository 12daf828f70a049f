"""Two service instances on one PostgreSQL database act as one service.

Each instance is its own `gridservice serve` process with its own connection pool, as two
machines behind a load balancer would be.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import httpx
import psycopg
import pytest
from security_support import ALPHA, BETA, Instance, key, site_body, start_instance


@pytest.fixture(scope="module")
def demo_database(postgres_cluster, postgres_demo_template) -> str:
    return postgres_cluster.new_database(template=postgres_demo_template)


@pytest.fixture(scope="module")
def two_instances(demo_database: str) -> Iterator[tuple[Instance, Instance]]:
    first = start_instance(demo_database, "--no-rate-limit")
    second = start_instance(demo_database, "--no-rate-limit")
    try:
        yield first, second
    finally:
        first.stop()
        second.stop()


@pytest.fixture(scope="module")
def limited_instances(demo_database: str) -> Iterator[tuple[Instance, Instance]]:
    """Two instances with a small shared rate limit (six requests per token) and an
    Idempotency-Key lease of one second."""
    options = ("--rate-limit", "0.01", "--rate-burst", "6", "--idempotency-lease", "1")
    first = start_instance(demo_database, *options)
    second = start_instance(demo_database, *options)
    try:
        yield first, second
    finally:
        first.stop()
        second.stop()


def test_fifty_concurrent_creates_with_one_key_over_both_instances_make_one_site(
    two_instances, demo_database
):
    headers = {**ALPHA, **key()}
    body = site_body(metadata={"label": "one site, fifty tries"})
    barrier = threading.Barrier(50)

    def create(attempt: int) -> httpx.Response:
        instance = two_instances[attempt % 2]
        barrier.wait()
        return httpx.post(instance.base_url + "/v1/sites", json=body, headers=headers, timeout=60)

    with ThreadPoolExecutor(max_workers=50) as pool:
        responses = list(pool.map(create, range(50)))

    statuses = {r.status_code for r in responses}
    assert statuses <= {201, 409}, [r.text for r in responses if r.status_code not in (201, 409)]
    created = [r for r in responses if r.status_code == 201]
    assert len({r.json()["data"]["id"] for r in created}) == 1
    assert sum(r.headers.get("Idempotent-Replayed") != "true" for r in created) == 1
    with psycopg.connect(demo_database) as conn:
        named = conn.execute(
            "SELECT count(*) FROM sites WHERE body::jsonb -> 'metadata' ->> 'label' = %s",
            (body["metadata"]["label"],),
        ).fetchone()[0]
    assert named == 1
    # Once done, the key replays the one site on either instance.
    for instance in two_instances:
        replay = httpx.post(instance.base_url + "/v1/sites", json=body, headers=headers)
        assert replay.status_code == 201 and replay.headers["Idempotent-Replayed"] == "true"
        assert replay.json()["data"]["id"] == created[0].json()["data"]["id"]


def test_a_site_created_on_one_instance_is_read_on_the_other(two_instances):
    first, second = two_instances
    created = httpx.post(first.base_url + "/v1/sites", json=site_body(), headers={**ALPHA, **key()})
    assert created.status_code == 201
    site_id = created.json()["data"]["id"]
    read = httpx.get(f"{second.base_url}/v1/sites/{site_id}", headers=ALPHA)
    assert read.status_code == 200 and read.json()["data"] == created.json()["data"]
    listed = httpx.get(f"{second.base_url}/v1/sites", params={"limit": 500}, headers=ALPHA)
    assert site_id in {s["id"] for s in listed.json()["data"]}
    # Tenant isolation holds across instances too.
    assert httpx.get(f"{second.base_url}/v1/sites/{site_id}", headers=BETA).status_code == 404


def test_both_instances_publish_one_release(two_instances):
    first, second = (httpx.get(i.base_url + "/v1/release").json()["data"] for i in two_instances)
    same = ("releaseId", "dataSnapshotSha256", "migrationHead", "contentFingerprint")
    assert {k: first[k] for k in same} == {k: second[k] for k in same}
    assert first["deploymentId"] == second["deploymentId"]


def test_an_in_flight_key_on_one_instance_is_seen_by_the_other_until_its_lease_ends(
    limited_instances, demo_database
):
    """A claim made by an instance that died mid-request holds on the other instance for
    the lease (here one second), then is taken over."""
    first, second = limited_instances
    headers = {**ALPHA, **key()}
    body = site_body(metadata={"label": "claimed elsewhere"})
    assert httpx.post(first.base_url + "/v1/sites", json=body, headers=headers).status_code == 201
    with psycopg.connect(demo_database) as conn:  # as if the first were still mid-request
        conn.execute(
            "UPDATE idempotency_keys SET state = 'in_flight', "
            "created_at = to_char(now() AT TIME ZONE 'UTC', "
            '\'YYYY-MM-DD"T"HH24:MI:SS.US"Z"\') WHERE key = %s',
            (headers["Idempotency-Key"],),
        )
    again = httpx.post(second.base_url + "/v1/sites", json=body, headers=headers)
    assert again.status_code == 409 and again.json()["code"] == "idempotency_key_in_flight"
    time.sleep(1.5)  # the lease of the dead claim ends
    taken_over = httpx.post(second.base_url + "/v1/sites", json=body, headers=headers)
    assert taken_over.status_code == 201


def test_the_rate_limit_is_one_bucket_across_instances(limited_instances):
    token = {"Authorization": "Bearer gds_demo_beta"}
    answers = [
        httpx.get(instance.base_url + "/v1/sites", headers=token).status_code
        for instance in limited_instances * 4
    ]
    # Six requests in all, whichever instance answers; the rest wait.
    assert answers == [200] * 6 + [429] * 2
    refused = httpx.get(limited_instances[0].base_url + "/v1/sites", headers=token)
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1


def test_killing_an_instance_during_writes_loses_no_acknowledged_write(two_instances):
    """Runs last in this module: it kills the first of the pair."""
    victim, survivor = two_instances
    acknowledged: list[str] = []
    stop = threading.Event()

    def write() -> None:
        with httpx.Client(base_url=victim.base_url, timeout=30) as http:
            while not stop.is_set():
                try:
                    response = http.post("/v1/sites", json=site_body(), headers={**ALPHA, **key()})
                except httpx.TransportError:
                    return  # the instance is gone
                if response.status_code == 201:
                    acknowledged.append(response.json()["data"]["id"])

    writers = [threading.Thread(target=write) for _ in range(4)]
    try:
        for writer in writers:
            writer.start()
        deadline = time.monotonic() + 60
        while len(acknowledged) < 40 and time.monotonic() < deadline:
            time.sleep(0.05)
        victim.process.send_signal(signal.SIGKILL)
        victim.process.wait(timeout=30)
    finally:
        stop.set()
        for writer in writers:
            writer.join(timeout=60)
    assert len(acknowledged) >= 40
    for site_id in acknowledged:
        read = httpx.get(f"{survivor.base_url}/v1/sites/{site_id}", headers=ALPHA)
        assert read.status_code == 200, site_id
