"""Bearer token to tenant, remembered for a few seconds by a service on PostgreSQL.

Every request names its tenant by a bearer token, looked up by its SHA-256 in the store's
`tokens` table. On SQLite that lookup is a few microseconds in the process; on PostgreSQL it
is a network round trip on every request, cached pages included (`page_cache`). A
`TokenCache` keeps the tenants of tokens it has seen for at most `ttl` seconds
(`Settings.token_cache_seconds`, 2 by default), so a client's requests within that time
ask the database once.

Revocation: a token revoked through `gridservice tokens revoke` (another process) is
refused by every instance at the latest `ttl` seconds later: the bound SECURITY.md states.
A token revoked in this process (`tokens.revoke_token`, `tokens.revoke_tenant`) is
refused at once here: revoking forgets every cache of the process. Only known tokens are
kept (an unknown token is asked about every time, and refused by the full path, which
counts refusals per client address), digests only, never the token; at most
`max_entries`, the oldest forgotten first.
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from gridservice.store import tenancy

DEFAULT_TTL_SECONDS = 2.0


class TokenCache:
    """Tenants of recently seen token digests, each kept for at most `ttl` seconds."""

    def __init__(
        self,
        ttl: float = DEFAULT_TTL_SECONDS,
        max_entries: int = 10000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.ttl = ttl
        self.max_entries = max_entries
        self.clock = clock
        self._entries: OrderedDict[str, tuple[str, float]] = OrderedDict()
        self._lock = threading.Lock()
        self._generation = 0  # bumped by forget: a lookup begun before is not kept
        self.hits = self.misses = 0
        tenancy.enrol_token_cache(self)

    def _fresh(self, digest: str, now: float) -> str | None:
        """The tenant kept for a digest while fresh, counted as a hit (hold the lock)."""
        entry = self._entries.get(digest)
        if entry is None or entry[1] <= now:
            return None
        self.hits += 1
        return entry[0]

    def known(self, token: str) -> str | None:
        """The token's tenant while the cache holds it fresh, else None (ask `tenant`)."""
        digest = hashlib.sha256(token.encode("utf-8")).hexdigest()
        with self._lock:
            return self._fresh(digest, self.clock())

    def tenant(self, conn_for: Callable[[], Any], token: str) -> str | None:
        """The token's tenant, from the cache while fresh, else from the store
        (`conn_for()` gives the connection, asked for only then); None when unknown."""
        digest = hashlib.sha256(token.encode("utf-8")).hexdigest()
        now = self.clock()
        with self._lock:
            if (found := self._fresh(digest, now)) is not None:
                return found
            self.misses += 1
            generation = self._generation
        tenant = tenancy.tenant_for_digest(conn_for(), digest)
        with self._lock:
            if generation != self._generation:
                pass  # forgotten meanwhile (a revocation here): answer, keep nothing
            elif tenant is None:
                self._entries.pop(digest, None)
            else:
                self._entries[digest] = (tenant, now + self.ttl)
                self._entries.move_to_end(digest)
                while len(self._entries) > self.max_entries:
                    self._entries.popitem(last=False)
        return tenant

    def forget(self) -> None:
        with self._lock:
            self._entries.clear()
            self._generation += 1
