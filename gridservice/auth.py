"""Bearer tokens to tenants, a token-bucket rate limit per token, and one per client address
for refused credentials.

Tokens are never compared as text. The store keeps SHA-256(token) only, and the lookup is an
equality search on that digest, so the time a lookup takes depends on the digest of the
guess, which an attacker cannot steer towards a stored digest without a SHA-256 preimage:
timing reveals nothing usable about a real token. No token or digest is ever logged; the
429 bucket is keyed by the digest.

A request refused with 401 (no token, a malformed header, an unknown token) is first taken
from the bucket of its client address, the connection's peer (forwarded headers are not
trusted: a client could pick its bucket): a guesser is slowed to 429 without costing any
tenant its own limit.
"""

from __future__ import annotations

import hashlib
import math
import threading
import time
from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from gridservice.errors import ApiError
from gridservice.store import rate_limits
from gridservice.store.backend import PooledConnections
from gridservice.store.tenancy import tenant_for_token

bearer_scheme = HTTPBearer(
    auto_error=False, description="A token issued by `gridservice tokens create`."
)


class RateLimiter:
    """A token bucket per key: `burst` requests at once, refilled at `rate` per second."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = burst
        self._buckets: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def retry_after(self, key: str) -> int:
        """Take one request from the bucket; return 0 if allowed, else seconds to wait."""
        now = time.monotonic()
        with self._lock:
            tokens, stamp = self._buckets.get(key, (float(self.burst), now))
            tokens = min(float(self.burst), tokens + (now - stamp) * self.rate)
            if tokens >= 1.0:
                self._buckets[key] = (tokens - 1.0, now)
                return 0
            self._buckets[key] = (tokens, now)
            return max(1, math.ceil((1.0 - tokens) / self.rate))


class SharedRateLimiter:
    """The same token buckets kept in the PostgreSQL store, so that every instance on one
    database draws from one bucket per token (`store.rate_limits`)."""

    def __init__(self, connections, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = burst
        self._connections = connections

    def retry_after(self, key: str) -> int:
        """Take one request from the bucket; return 0 if allowed, else seconds to wait."""
        conn = self._connections.get()
        return rate_limits.take(conn, key, rate=self.rate, burst=self.burst)


def limiter_for(connections, limit: tuple[float, int] | None):
    """Return the bucket keeper for `limit`: in the database for a pooled (PostgreSQL) store,
    so every instance shares it; in memory for SQLite; None when the limit is off."""
    if limit is None:
        return None
    if isinstance(connections, PooledConnections):
        return SharedRateLimiter(connections, *limit)
    return RateLimiter(*limit)


def _limit(limiter: RateLimiter | SharedRateLimiter | None, key: str, whose: str) -> None:
    """Take one request from `key`'s bucket, or raise 429 with `Retry-After`."""
    wait = limiter.retry_after(key) if limiter is not None else 0
    if wait:
        raise ApiError(
            429,
            "rate_limited",
            f"Too many requests {whose}; retry after {wait} s.",
            headers={"Retry-After": str(wait)},
        )


def _refused(state, client_address: str | None, code: str, detail: str) -> ApiError:
    """Return the 401 to raise, after taking it from the client address's bucket (429 once
    that is empty)."""
    address = "address:" + (client_address or "unknown")
    _limit(state.refused_limiter, address, "with a refused credential from this address")
    return ApiError(401, code, detail)


def tenant_of(state, token: str) -> str | None:
    """The tenant of a bearer token: from the app's token cache when it has one (PostgreSQL:
    revocation by another process takes effect within its time, `token_cache`), else
    asked of the store."""
    cache = getattr(state, "token_cache", None)
    if cache is None:
        return tenant_for_token(state.connections.get(), token)
    return cache.tenant(state.connections.get, token)


def authenticate(state, authorization: str | None, client_address: str | None) -> str:
    """Return the tenant of an `Authorization` header's bearer token, or raise 401 / 429.

    `state`: the app's state (store connections and limiters); `client_address`: the
    connection's peer. Any fast path answering a tenant's request calls this first."""
    scheme, _, token = (authorization or "").strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        if (authorization or "").strip():
            raise _refused(
                state,
                client_address,
                "malformed_authorization",
                "The Authorization header is not `Bearer <token>`.",
            )
        raise _refused(
            state, client_address, "missing_token", "Send `Authorization: Bearer <token>`."
        )
    tenant = tenant_of(state, token)
    if tenant is None:
        raise _refused(
            state,
            client_address,
            "invalid_token",
            "The bearer token is not known to this service (or revoked).",
        )
    _limit(state.rate_limiter, hashlib.sha256(token.encode()).hexdigest(), "for this token")
    return tenant


def current_tenant(
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer_scheme)],
) -> str:
    """Return the tenant of the bearer token, or raise 401 / 429 (`authenticate`)."""
    client_address = request.client.host if request.client else None
    tenant = authenticate(request.app.state, request.headers.get("authorization"), client_address)
    request.state.tenant_id = tenant
    return tenant


Tenant = Annotated[str, Depends(current_tenant)]
