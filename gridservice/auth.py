"""Bearer tokens to tenants, and a token-bucket rate limit per token.

Tokens are never compared as text. The store keeps SHA-256(token) only, and the lookup is an
equality search on that digest, so the time a lookup takes depends on the digest of the
guess, which an attacker cannot steer towards a stored digest without a SHA-256 preimage:
timing reveals nothing usable about a real token. No token or digest is ever logged; the
429 bucket is keyed by the digest.
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


def current_tenant(
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer_scheme)],
) -> str:
    """Return the tenant of the bearer token, or raise 401 / 429."""
    if credentials is None or credentials.scheme.lower() != "bearer" or not credentials.credentials:
        if request.headers.get("authorization", "").strip():
            raise ApiError(
                401,
                "malformed_authorization",
                "The Authorization header is not `Bearer <token>`.",
            )
        raise ApiError(401, "missing_token", "Send `Authorization: Bearer <token>`.")
    token = credentials.credentials
    tenant = tenant_for_token(request.app.state.connections.get(), token)
    if tenant is None:
        raise ApiError(
            401, "invalid_token", "The bearer token is not known to this service (or revoked)."
        )
    limiter: RateLimiter | SharedRateLimiter | None = request.app.state.rate_limiter
    if limiter is None:
        request.state.tenant_id = tenant
        return tenant
    wait = limiter.retry_after(hashlib.sha256(token.encode()).hexdigest())
    if wait:
        raise ApiError(
            429,
            "rate_limited",
            f"Too many requests for this token; retry after {wait} s.",
            headers={"Retry-After": str(wait)},
        )
    request.state.tenant_id = tenant
    return tenant


Tenant = Annotated[str, Depends(current_tenant)]
