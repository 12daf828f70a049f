"""How late a revoked token is refused (SECURITY.md, "Tokens"): at once on SQLite and on the
instance whose process revoked it; on PostgreSQL, by an instance that did not, within its
token cache's time (`gridservice.security.token_cache`, 2 s by default) and never later.

The cache's clock is the test's, so "later" is a step of it, not a sleep. Both the full
path (`/v1/sites`) and a page the page cache answers (`/v1/generators`) are asked.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from gridservice.app import create_app
from gridservice.security import tokens
from gridservice.settings import Settings
from gridservice.store.db import connect

PATHS = ("/v1/sites", "/v1/generators?limit=2")


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def client(store_copy: Path | str) -> Iterator[tuple[TestClient, Clock]]:
    app = create_app(Settings.for_store(store_copy, demo=True, secret_key=b"t" * 32))
    clock = Clock()
    with TestClient(app, raise_server_exceptions=False) as client:
        if client.app.state.token_cache is not None:
            client.app.state.token_cache.clock = clock
        yield client, clock


def _codes(client: TestClient, token: str) -> list[int]:
    headers = {"Authorization": f"Bearer {token}"}
    return [client.get(path, headers=headers).status_code for path in PATHS]


def _revoke_elsewhere(location: Path | str, token: str) -> None:
    """Delete the token as another process (the CLI, another instance) does: in the store
    only, with nothing in this process told."""
    conn = connect(location)
    with conn:
        digest = hashlib.sha256(token.encode()).hexdigest()
        assert conn.execute("DELETE FROM tokens WHERE token_sha256 = ?", (digest,)).rowcount == 1
    conn.close()


def test_a_token_revoked_elsewhere_is_refused_within_the_stated_bound(
    client, store_copy, store_backend
):
    service, clock = client
    token = tokens.issue_token(store_copy, "acme-revoked-elsewhere")
    assert _codes(service, token) == [200, 200]
    hits = service.app.state.page_cache.hits
    assert _codes(service, token) == [200, 200]
    assert service.app.state.page_cache.hits == hits + 1  # the lean path was asked too
    _revoke_elsewhere(store_copy, token)
    cache = service.app.state.token_cache
    if store_backend == "sqlite":
        assert cache is None  # one machine, a lookup of microseconds: asked every time
        assert _codes(service, token) == [401, 401]
        return
    assert cache.ttl == 2.0  # the bound SECURITY.md states
    clock.now += cache.ttl - 0.1  # within the bound it may still be accepted here
    assert _codes(service, token) == [200, 200]
    clock.now += 0.2  # past it, never
    assert _codes(service, token) == [401, 401]
    assert _codes(service, "gds_demo_alpha") == [200, 200]  # other tokens unaffected


def test_a_token_revoked_in_this_process_is_refused_at_once(client, store_copy):
    service, _clock = client
    token = tokens.issue_token(store_copy, "acme-revoked-here")
    assert _codes(service, token) == [200, 200]
    assert tokens.revoke_token(store_copy, token) == 1
    assert _codes(service, token) == [401, 401]
    other = tokens.issue_token(store_copy, "acme-revoked-here")
    assert _codes(service, other) == [200, 200]
    assert tokens.revoke_tenant(store_copy, "acme-revoked-here") == 1
    assert _codes(service, other) == [401, 401]


def test_the_database_is_asked_once_per_token_within_the_cache_time(
    postgres_cluster, postgres_demo_template
):
    location = postgres_cluster.new_database(template=postgres_demo_template)
    app = create_app(Settings.for_store(location, demo=True, secret_key=b"t" * 32))
    clock = Clock()
    with TestClient(app, raise_server_exceptions=False) as service:
        cache = service.app.state.token_cache
        cache.clock = clock
        misses = cache.misses
        for _ in range(5):
            assert _codes(service, "gds_demo_beta") == [200, 200]
        assert cache.misses == misses + 1
        clock.now += cache.ttl + 0.1
        assert _codes(service, "gds_demo_beta") == [200, 200]
        assert cache.misses == misses + 2  # asked again once the time is up
