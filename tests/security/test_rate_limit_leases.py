"""Leases from the shared (PostgreSQL) rate-limit bucket: an instance draws a few requests at
once and spends them itself, so most requests cost no database statement, and across
instances a token still never gets more than its limit."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import psycopg
import pytest
from fastapi.testclient import TestClient
from security_support import BETA

from gridservice.app import create_app
from gridservice.security.auth import SharedRateLimiter, lease_batch
from gridservice.settings import Settings
from gridservice.store import rate_limits
from gridservice.store.backend import PooledConnections


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class FakeBucket:
    """Stands in for `rate_limits.draw`: grants from a count of whole requests."""

    def __init__(self, tokens: int, wait: int = 7) -> None:
        self.tokens = tokens
        self.wait = wait
        self.draws: list[int] = []

    def __call__(self, conn, bucket, *, rate, burst, wanted):
        self.draws.append(wanted)
        granted = min(wanted, self.tokens)
        self.tokens -= granted
        return (granted, 0) if granted else (0, self.wait)


def fake_limiter(monkeypatch, bucket: FakeBucket, *, rate=50.0, burst=100, batch=None):
    monkeypatch.setattr(rate_limits, "draw", bucket)
    clock = FakeClock()

    class NoConnections:
        def get(self):
            return None

    limiter = SharedRateLimiter(NoConnections(), rate, burst, batch=batch, clock=clock)
    return limiter, clock


def test_the_batch_is_small_beside_the_bucket():
    assert lease_batch(50.0, 100) == 5  # the default per-token limit
    assert lease_batch(20.0, 100) == 2  # the default refused-credential limit's numbers
    assert lease_batch(0.01, 6) == 1  # a small limit is drawn one request at a time
    assert lease_batch(0.5, 1000) == 1  # a slow refill too
    assert lease_batch(1e6, 1e6) == 50  # however generous, a lease stays bounded
    assert lease_batch(0.0, 0) == 1


def test_one_draw_serves_a_batch_of_requests(monkeypatch):
    bucket = FakeBucket(tokens=100)
    limiter, _ = fake_limiter(monkeypatch, bucket)
    assert [limiter.retry_after("t") for _ in range(10)] == [0] * 10
    assert bucket.draws == [5, 5]
    assert bucket.tokens == 90  # nothing spent that was not drawn first


def test_a_lease_ends_and_its_unspent_requests_are_dropped(monkeypatch):
    bucket = FakeBucket(tokens=100)
    limiter, clock = fake_limiter(monkeypatch, bucket)
    assert [limiter.retry_after("t") for _ in range(3)] == [0, 0, 0]
    clock.now += limiter.lease_seconds  # two requests left on the lease, which has ended
    assert limiter.retry_after("t") == 0
    assert bucket.draws == [5, 5]
    assert bucket.tokens == 90  # the two were not put back in the bucket


def test_a_partial_grant_is_spent_then_the_bucket_refuses_with_its_wait(monkeypatch):
    bucket = FakeBucket(tokens=2, wait=3)
    limiter, _ = fake_limiter(monkeypatch, bucket)
    assert [limiter.retry_after("t") for _ in range(4)] == [0, 0, 3, 3]
    assert bucket.draws == [5, 5, 5]  # each refusal asks the shared bucket again
    lease = limiter._leases["t"]
    assert lease.left == 0  # never negative after refusals
    bucket.tokens = 1
    assert limiter.retry_after("t") == 0 and lease.left == 0


def test_buckets_lease_apart(monkeypatch):
    bucket = FakeBucket(tokens=6)
    limiter, _ = fake_limiter(monkeypatch, bucket)
    assert limiter.retry_after("a") == 0 and limiter.retry_after("b") == 0
    assert limiter._leases["a"].left == 4 and limiter._leases["b"].left == 0
    assert limiter.retry_after("b") == 7  # b's draw got 1; a's lease is not b's


def test_threads_on_one_instance_spend_no_more_than_drawn(monkeypatch):
    bucket = FakeBucket(tokens=37)
    limiter, _ = fake_limiter(monkeypatch, bucket)
    allowed = []

    def attempt() -> None:
        for _ in range(20):
            allowed.append(limiter.retry_after("t") == 0)

    threads = [threading.Thread(target=attempt) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sum(allowed) == 37 and len(allowed) == 160


@pytest.fixture
def bucket_database(postgres_cluster, postgres_demo_template) -> str:
    return postgres_cluster.new_database(template=postgres_demo_template)


def count_bucket_writes(url: str) -> None:
    """Count every row written to `rate_limit_buckets`, in the database itself."""
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE TABLE bucket_writes (n BIGINT NOT NULL)")
        conn.execute("INSERT INTO bucket_writes VALUES (0)")
        conn.execute(
            "CREATE FUNCTION count_bucket_write() RETURNS trigger LANGUAGE plpgsql AS $$ "
            "BEGIN UPDATE bucket_writes SET n = n + 1; RETURN NEW; END $$"
        )
        conn.execute(
            "CREATE TRIGGER counted AFTER INSERT OR UPDATE ON rate_limit_buckets "
            "FOR EACH ROW EXECUTE FUNCTION count_bucket_write()"
        )


def bucket_writes(url: str) -> int:
    with psycopg.connect(url, autocommit=True) as conn:
        return conn.execute("SELECT n FROM bucket_writes").fetchone()[0]


def test_a_generous_limit_writes_the_bucket_once_per_batch_not_per_request(bucket_database):
    count_bucket_writes(bucket_database)
    settings = Settings.for_store(
        bucket_database,
        secret_key=b"s" * 32,
        rate_limit_per_second=1000.0,
        rate_limit_burst=1000,
    )
    with TestClient(create_app(settings), raise_server_exceptions=False) as client:
        answers = [client.get("/v1/sites", headers=BETA).status_code for _ in range(40)]
    assert answers == [200] * 40
    # A batch of 50 is drawn at once: one write serves all forty (one per request before).
    assert 1 <= bucket_writes(bucket_database) <= 4


@pytest.fixture
def two_pools(bucket_database) -> Iterator[tuple[PooledConnections, PooledConnections]]:
    pools = (PooledConnections(bucket_database), PooledConnections(bucket_database))
    try:
        yield pools
    finally:
        for pool in pools:
            pool.close_all()


def test_two_instances_leasing_one_bucket_never_exceed_its_burst(two_pools):
    """Two limiters with their own connections (two instances), four threads each, drawing
    five at a time from one bucket of 100 that barely refills: no more than 100 get through,
    and only the last unspent leases are missing."""
    limiters = [
        SharedRateLimiter(pool, 0.001, 100, batch=5, lease_seconds=3600.0) for pool in two_pools
    ]
    waits: list[int] = []
    lock = threading.Lock()

    def attempt(limiter: SharedRateLimiter) -> None:
        for _ in range(50):
            wait = limiter.retry_after("one-token")
            with lock:
                waits.append(wait)

    threads = [threading.Thread(target=attempt, args=(limiters[i % 2],)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    allowed = waits.count(0)
    assert len(waits) == 400
    assert 100 - 2 * 4 <= allowed <= 100
    # A refusal's Retry-After comes from the shared bucket: a whole request is ~1000 s away.
    assert all(wait >= 1 for wait in waits if wait)
    leased = sum(limiter._leases["one-token"].left for limiter in limiters)
    assert allowed + leased == 100
