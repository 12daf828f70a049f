"""The page cache (`gridservice.runtime.page_cache`): what a client could notice of it, on both stores.

Each answer of the cached service is compared with the full path's (the same store, the
cache turned off), with the clock held still so that both sign the same cursor.
"""

from __future__ import annotations

import types
from collections.abc import Iterator
from pathlib import Path

import pytest
import service_records as rec
from fastapi.testclient import TestClient
from harvest_support import data_file
from service_support import ALPHA, BETA

from gridservice import cli
from gridservice.app import create_app
from gridservice.runtime import paging
from gridservice.runtime.page_cache import CachedPage, PageCache
from gridservice.settings import Settings
from gridservice.store import tenancy, writer
from gridservice.store.db import connect

KEY = b"k" * 32
LBNL = "lbnl_queued_up/lbnl_queued_up_thru2024_ercot_q2023_ge100mw.csv"
NOW = 1_900_000_000.0


def _app(location: Path | str, **fields):
    settings = Settings.for_store(location, secret_key=KEY, rate_limit_burst=100000, **fields)
    return create_app(settings)


@pytest.fixture(scope="module")
def cached(small_db: Path | str) -> Iterator[TestClient]:
    with TestClient(_app(small_db), raise_server_exceptions=False) as client:
        yield client


@pytest.fixture(scope="module")
def full_path(small_db: Path | str) -> Iterator[TestClient]:
    with TestClient(_app(small_db, page_cache_bytes=0), raise_server_exceptions=False) as client:
        yield client


@pytest.fixture(autouse=True)
def still_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """Cursors carry an expiry from the clock: both services sign at the same instant."""
    monkeypatch.setattr(paging, "time", types.SimpleNamespace(time=lambda: NOW))


def _cache(client: TestClient) -> PageCache:
    return client.app.state.page_cache


def _write(location: Path | str, work) -> None:
    """Change the store through a connection of its own (another process, in effect)."""
    conn = connect(location)
    try:
        with conn:
            work(conn)
    finally:
        conn.close()


def _same_answer(mine, theirs) -> None:
    """Same status, body and headers, but for the request id each answer has its own of."""
    assert mine.status_code == theirs.status_code, mine.text
    if mine.status_code < 400:
        assert mine.content == theirs.content
    else:  # a problem names its request id in the body too
        assert {**mine.json(), "requestId": ""} == {**theirs.json(), "requestId": ""}
    ignore = {"x-request-id", "content-length"} if mine.status_code >= 400 else {"x-request-id"}
    assert {k: v for k, v in mine.headers.items() if k not in ignore} == {
        k: v for k, v in theirs.headers.items() if k not in ignore
    }
    assert mine.headers["x-request-id"].startswith("req_")
    if mine.status_code >= 400:
        assert mine.json()["requestId"] == mine.headers["x-request-id"]


CACHEABLE = [
    "/v1/generators?limit=500",
    "/v1/generators",
    "/v1/generators?limit=5",
    "/v1/generators?state=TX&min_capacity_mw=100&limit=4",
    "/v1/generators?limit=3&technology=Solar%20Photovoltaic&ba_code=ERCO",
    "/v1/generators?source_id=eia860-2023&limit=500",
    "/v1/generation-plants?limit=2&state=TX",
    "/v1/generator-operations?limit=500",
    "/v1/generator-operations?period=2024-01&limit=2",
]


@pytest.mark.parametrize("url", CACHEABLE)
def test_a_cached_page_is_the_bytes_the_full_path_sends(cached, full_path, url):
    first = cached.get(url, headers=ALPHA)
    hits = _cache(cached).hits
    again = cached.get(url, headers={**ALPHA, "Service-Version": "2025-06-01"})
    assert _cache(cached).hits == hits + 1, "the second asking is answered from the cache"
    reference = full_path.get(url, headers=ALPHA)
    assert reference.status_code == 200
    _same_answer(first, reference)
    _same_answer(again, reference)
    assert again.headers["service-version"] == "2025-06-01"
    assert again.headers["x-request-id"] != first.headers["x-request-id"]


@pytest.mark.parametrize("path", ["/v1/generators", "/v1/generator-operations"])
def test_every_page_of_a_traversal_is_the_same_from_the_cache(cached, full_path, path):
    for _ in range(2):  # the second traversal is answered from the cache
        url, pages = f"{path}?limit=4", 0
        while url:
            mine, theirs = cached.get(url, headers=ALPHA), full_path.get(url, headers=ALPHA)
            _same_answer(mine, theirs)
            cursor = mine.json()["meta"]["nextCursor"]
            url = f"{path}?limit=4&cursor={cursor}" if cursor else None
            pages += 1
        assert pages > 2


ODD = [
    "/v1/generators?state=tx&limit=2",  # case-insensitive filter: its own key, same rows
    "/v1/generators?min_capacity_mw=1e2&limit=2",
    "/v1/generators?min_capacity_mw=100.0&limit=2",
    "/v1/generators?limit=05",
    "/v1/generators?limit=501",
    "/v1/generators?limit=0",
    "/v1/generators?limit=2&limit=3",
    "/v1/generators?colour=red",
    "/v1/generators?state=",
    "/v1/generators?min_capacity_mw=-1",
    "/v1/generators?min_capacity_mw=nan",
    "/v1/generators?plant_id=99999999999",
    "/v1/generators?cursor=not-a-cursor",
    "/v1/generators?state=" + "X" * 201,
    "/v1/generator-operations?period=2024-13",
    "/v1/generators?state=%FF&limit=2",  # not UTF-8
    "/v1/generators?state=%EF%BF%BD&limit=2",  # U+FFFD itself
]


@pytest.mark.parametrize("url", ODD)
def test_odd_and_malformed_queries_get_the_full_paths_answer(cached, full_path, url):
    for _ in range(2):
        _same_answer(cached.get(url, headers=ALPHA), full_path.get(url, headers=ALPHA))


def test_a_cursor_of_other_filters_is_refused_as_before(cached, full_path):
    cursor = cached.get("/v1/generators?limit=2", headers=ALPHA).json()["meta"]["nextCursor"]
    url = f"/v1/generators?limit=2&state=TX&cursor={cursor}"
    mine = cached.get(url, headers=ALPHA)
    _same_answer(mine, full_path.get(url, headers=ALPHA))
    assert mine.json()["code"] == "cursor_filter_mismatch"


@pytest.fixture
def checking(small_db: Path | str) -> Iterator[TestClient]:
    """A service that reads the data snapshot hash on every request (as always on SQLite)."""
    with TestClient(_app(small_db, data_check_seconds=0), raise_server_exceptions=False) as client:
        yield client


def test_a_change_of_public_data_is_never_answered_from_the_cache(checking, full_path, small_db):
    url = "/v1/generators?limit=500"
    cached = checking
    cached.get(url, headers=ALPHA)
    before = cached.get(url, headers=ALPHA)
    new = rec.generator(0, version="new")  # id gen-000-new sorts first
    _write(small_db, lambda c: writer.insert_generators(
        c, [new], source_id="eia860-2024", is_current=True
    ))  # fmt: skip
    after = cached.get(url, headers=ALPHA)
    assert after.json()["data"][0]["id"] == "gen-000-new"
    assert before.json()["data"][0]["id"] != "gen-000-new"
    _same_answer(after, full_path.get(url, headers=ALPHA))

    # Another instance starting on the store takes the new snapshot hash: this one caches
    # pages of the new data from then on, and never the old ones.
    with TestClient(_app(small_db)) as other:
        other.get("/v1/release")
    cached.get(url, headers=ALPHA)
    hits = _cache(cached).hits
    again = cached.get(url, headers=ALPHA)
    assert _cache(cached).hits == hits + 1
    _same_answer(again, full_path.get(url, headers=ALPHA))
    assert again.json()["data"][0]["id"] == "gen-000-new"


def test_a_revoked_or_wrong_token_is_refused_on_a_cached_page(cached, full_path, small_db):
    url = "/v1/generators?limit=2"
    token = "tok_gamma_page_cache"
    gamma = {"Authorization": f"Bearer {token}"}
    _write(small_db, lambda c: writer.add_token(c, token, "tenant-gamma", "2025-01-01T00:00:00Z"))
    cached.get(url, headers=ALPHA)
    hits = _cache(cached).hits
    assert cached.get(url, headers=gamma).status_code == 200
    assert _cache(cached).hits == hits + 1
    _write(small_db, lambda c: tenancy.revoke_token(c, token))
    for headers, code in [
        (gamma, "invalid_token"),
        ({"Authorization": "Bearer tok_never_issued"}, "invalid_token"),
        ({"Authorization": "Basic dXNlcjpwYXNz"}, "malformed_authorization"),
        ({"Authorization": "Bearer "}, "malformed_authorization"),
        ({}, "missing_token"),
    ]:
        refused = cached.get(url, headers=headers)
        _same_answer(refused, full_path.get(url, headers=headers))
        assert refused.status_code == 401
        assert refused.json()["code"] == code


def test_another_tenant_never_gets_a_tenants_page(cached, full_path):
    made = cached.post(
        "/v1/sites",
        json={"requestedPeakLoadMw": 5, "location": {"latitude": 31, "longitude": -97}},
        headers={**ALPHA, "Idempotency-Key": "page-cache-site-1"},
    )
    assert made.status_code == 201, made.text
    site_id = made.json()["data"]["id"]
    size = len(_cache(cached))
    for _ in range(2):
        mine = cached.get("/v1/sites?limit=500", headers=ALPHA)
        assert site_id in [s["id"] for s in mine.json()["data"]]
        theirs = cached.get("/v1/sites?limit=500", headers=BETA)
        assert theirs.status_code == 200
        assert site_id not in [s["id"] for s in theirs.json()["data"]]
        _same_answer(theirs, full_path.get("/v1/sites?limit=500", headers=BETA))
    assert len(_cache(cached)) == size, "a tenant's listing is never kept"


def test_rate_limits_count_cache_hits(small_db):
    token = "tok_page_cache_rate"
    headers = {"Authorization": f"Bearer {token}"}
    _write(small_db, lambda c: writer.add_token(c, token, "tenant-rate", "2025-01-01T00:00:00Z"))
    app = create_app(
        Settings.for_store(
            small_db, secret_key=KEY, rate_limit_per_second=0.001, rate_limit_burst=3
        )
    )
    with TestClient(app, raise_server_exceptions=False) as client:
        url = "/v1/generators?limit=3"
        answers = [client.get(url, headers=headers) for _ in range(4)]
        assert [a.status_code for a in answers] == [200, 200, 200, 429]
        assert app.state.page_cache.hits >= 2, "the second and third were cache hits"
        limited = answers[3]
        assert limited.headers["content-type"] == "application/problem+json"
        assert limited.json()["code"] == "rate_limited"
        assert limited.json()["requestId"] == limited.headers["x-request-id"]
        assert int(limited.headers["Retry-After"]) >= 1
        assert limited.json()["instance"] == "/v1/generators"


def test_the_cache_keeps_to_its_memory_bound():
    cache = PageCache(max_bytes=4000)
    for i in range(10):
        cache.put(("generators", (), str(i), 500), CachedPage("t", b"x" * 900, False, None, ""))
        assert cache.size_bytes <= 4000
    assert len(cache) == 4
    assert cache.get(("generators", (), "9", 500), "t") is not None
    assert cache.get(("generators", (), "0", 500), "t") is None  # least recently used: out
    assert cache.get(("generators", (), "9", 500), "other tag") is None  # stale: not served
    cache.put(("generators", (), "big", 500), CachedPage("t", b"x" * 2000, False, None, ""))
    assert cache.get(("generators", (), "big", 500), "t") is None  # past a quarter: not kept


def test_a_change_elsewhere_is_answered_from_the_cache_at_most_data_check_seconds(
    full_path, small_db
):
    """PostgreSQL keeps the hash it read for `data_check_seconds` (1 s); SQLite reads it on
    every request. Either way a page of changed data is answered no later than that."""
    url = "/v1/generators?limit=500"
    now = [5000.0]
    with TestClient(_app(small_db)) as service:
        tag = service.app.state.snapshot_tag
        tag.clock = lambda: now[0]
        bound = tag.interval
        assert bound == (1.0 if isinstance(small_db, str) else 0.0)
        first = service.get(url, headers=ALPHA)
        service.get(url, headers=ALPHA)
        new = rec.generator(0, version="elsewhere")  # id gen-000-elsewhere sorts first
        _write(small_db, lambda c: writer.insert_generators(
            c, [new], source_id="eia860-2024", is_current=True
        ))  # fmt: skip
        hits = _cache(service).hits
        if bound:
            now[0] += bound * 0.99
            still = service.get(url, headers=ALPHA)  # within the bound: the page kept
            assert _cache(service).hits == hits + 1
            assert still.content == first.content
            now[0] += bound * 0.01
        changed = service.get(url, headers=ALPHA)  # past it: the data as it is now
        assert changed.json()["data"][0]["id"] == "gen-000-elsewhere"
        _same_answer(changed, full_path.get(url, headers=ALPHA))


def test_after_a_harvest_elsewhere_pages_are_answered_from_the_cache_again(
    full_path, small_db, capsys
):
    """A harvest (another process, here `gridservice harvest`) takes the new snapshot hash:
    a running service answers pages from its cache again, of the harvested data, without
    a restart. (Before, each page was built by the full path until the service restarted.)"""
    url = "/v1/generators?limit=3"
    with TestClient(_app(small_db, data_check_seconds=0)) as service:
        service.get(url, headers=ALPHA)
        service.get(url, headers=ALPHA)
        assert (
            cli.main(["harvest", "lbnl-queued-up", str(data_file(LBNL)), "--db", str(small_db)])
            == 0
        )
        assert "harvested lbnl-queued-up" in capsys.readouterr().out
        service.get(url, headers=ALPHA)  # built by the full path under the new hash, and kept
        hits = _cache(service).hits
        again = service.get(url, headers=ALPHA)
        assert _cache(service).hits == hits + 1
        _same_answer(again, full_path.get(url, headers=ALPHA))
