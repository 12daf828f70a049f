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

On PostgreSQL the buckets are rows of the database, shared by every instance
(`SharedRateLimiter`); an instance leases a small batch of a token's requests at once and
spends it itself for at most `LEASE_SECONDS`, so no token ever exceeds its limit across
instances, but up to (instances x batch) requests may sit leased on other instances while
one instance answers 429.
"""

from __future__ import annotations

import hashlib
import math
import threading
import time
from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from gridservice.runtime.errors import ApiError
from gridservice.security.principals import Reviewer, reviewer_of
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


LEASE_SECONDS = 1.0
"""How long requests drawn from a shared bucket may wait on one instance to be spent."""

MAX_LEASE = 50
"""The most requests one draw takes, however generous the limit."""


def lease_batch(rate: float, burst: int) -> int:
    """How many requests an instance draws from a shared bucket at once.

    At most a twentieth of the burst (so other instances' unspent leases hold back little of
    it), at most a tenth of a second of refill (a lease is small beside what the bucket
    regains), at most `MAX_LEASE`, and at least 1. The default 50/s, burst 100 draws 5; a
    burst under 40 or a rate under 20/s draws 1, exactly as without leases."""
    return max(1, min(int(burst) // 20, int(rate * 0.1), MAX_LEASE))


class _Lease:
    """Requests drawn from one shared bucket and not yet spent, until `expires`."""

    __slots__ = ("left", "expires", "drawing")

    def __init__(self) -> None:
        self.left = 0
        self.expires = 0.0
        self.drawing = threading.Lock()  # one draw per bucket at a time on this instance


class SharedRateLimiter:
    """The same token buckets kept in the PostgreSQL store, so that every instance on one
    database draws from one bucket per token (`store.rate_limits`).

    To spare most requests a database statement, an instance draws `batch` requests at once
    (`lease_batch`) and spends them itself for up to `lease_seconds`; unspent ones are then
    dropped, never put back. A request is only let through once it was taken from the shared
    bucket, so a token never gets more than its limit across instances; the price is that up
    to (instances x batch) requests may sit leased on other instances while this one answers
    429. A refusal (and its `Retry-After`) always comes from the shared bucket itself.

    Leases live in this process, guarded by a lock that is never held across a database
    statement; a per-bucket lock keeps this instance's threads from drawing the same bucket
    at once (they would queue on its row lock anyway), while other buckets go on."""

    def __init__(
        self,
        connections,
        rate: float,
        burst: int,
        *,
        batch: int | None = None,
        lease_seconds: float = LEASE_SECONDS,
        clock=time.monotonic,
    ) -> None:
        self.rate = rate
        self.burst = burst
        self.batch = lease_batch(rate, burst) if batch is None else max(1, int(batch))
        self.lease_seconds = lease_seconds
        self._connections = connections
        self._clock = clock
        self._leases: dict[str, _Lease] = {}
        self._lock = threading.Lock()
        self._prune_at = 1024

    def _lease(self, key: str) -> _Lease:
        """The lease of `key`, made if new (under `_lock`); spent and idle ones are dropped
        now and then so that the map does not grow with every address ever seen."""
        lease = self._leases.get(key)
        if lease is None:
            if len(self._leases) >= self._prune_at:
                now = self._clock()
                for stale in [
                    k
                    for k, held in self._leases.items()
                    if (held.left == 0 or now >= held.expires) and not held.drawing.locked()
                ]:
                    del self._leases[stale]
                self._prune_at = max(1024, 2 * len(self._leases))
            lease = self._leases[key] = _Lease()
        return lease

    def _spend(self, lease: _Lease) -> bool:
        """Spend one leased request if one is left and the lease is live (under `_lock`)."""
        if lease.left > 0 and self._clock() < lease.expires:
            lease.left -= 1
            return True
        lease.left = 0
        return False

    def retry_after(self, key: str) -> int:
        """Take one request from the bucket; return 0 if allowed, else seconds to wait."""
        with self._lock:
            lease = self._lease(key)
            if self._spend(lease):
                return 0
        with lease.drawing:
            with self._lock:
                if self._spend(lease):  # another thread drew while this one waited
                    return 0
            started = self._clock()
            granted, wait = rate_limits.draw(
                self._connections.get(), key, rate=self.rate, burst=self.burst, wanted=self.batch
            )
            if granted == 0:
                return wait
            with self._lock:
                lease.left = granted - 1
                lease.expires = started + self.lease_seconds
            return 0


def limiter_for(connections, limit: tuple[float, int] | None, *, batch: int | None = None):
    """Return the bucket keeper for `limit`: in the database for a pooled (PostgreSQL) store,
    so every instance shares it (drawing `batch` requests at a time, `lease_batch` when
    None); in memory for SQLite; None when the limit is off."""
    if limit is None:
        return None
    if isinstance(connections, PooledConnections):
        return SharedRateLimiter(connections, *limit, batch=batch)
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


def current_principal(
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer_scheme)],
) -> str:
    """Return who the bearer token speaks for: a tenant id or a reviewer's principal
    (`principals`); raise 401 / 429 (`authenticate`)."""
    client_address = request.client.host if request.client else None
    principal = authenticate(
        request.app.state, request.headers.get("authorization"), client_address
    )
    request.state.tenant_id = principal
    return principal


def current_tenant(principal: Annotated[str, Depends(current_principal)]) -> str:
    """Return the tenant of the bearer token; a reviewer's token reaches nothing a tenant
    reads (404, as for a record that is not there), only its review cases."""
    if reviewer_of(principal) is not None:
        raise ApiError(404, "not_found", "No such resource for this credential.")
    return principal


def current_reviewer(principal: Annotated[str, Depends(current_principal)]) -> Reviewer:
    """Return the reviewer of the bearer token; a tenant's token has no review to give (404)."""
    reviewer = reviewer_of(principal)
    if reviewer is None:
        raise ApiError(404, "review_case_not_found", "No review case is assigned to this token.")
    return reviewer


Principal = Annotated[str, Depends(current_principal)]
Tenant = Annotated[str, Depends(current_tenant)]
ReviewerToken = Annotated[Reviewer, Depends(current_reviewer)]
