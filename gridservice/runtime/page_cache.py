"""Encoded pages of public reference collections, kept in memory and served on a lean path.

A page of public data is the same bytes for everyone until that data changes, and the full
path spends milliseconds building it. `PageCacheMiddleware` answers such a page from
`PageCache` when it safely can (the same token, rate-limit and snapshot checks as the full
path) and hands every other request to the full path unchanged. What it may answer, how an
entry stays valid and when the snapshot is read: docs/ARCHITECTURE.md, "The page cache".
"""

from __future__ import annotations

import hashlib
import math
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl

import anyio.to_thread
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from gridservice.catalogue.dataset_declarations import DATASETS
from gridservice.runtime.errors import ApiError
from gridservice.runtime.paging import ORDER_ID_ASC, filters_digest, meta_bytes
from gridservice.security.auth import tenant_of
from gridservice.security.principals import reviewer_of
from gridservice.store import meta_reads
from gridservice.store.backend import PooledConnections

DEFAULT_PAGE_CACHE_BYTES = 64 * 2**20
MAX_ID = 2147483647  # as routers.common.MAX_ID

# Where the full path leaves the parts of a page it built (`routers.common.page_response`).
PAGE_PARTS = "page_parts"

_NUMBER = re.compile(r"[0-9]{1,15}(\.[0-9]{1,15})?")
_POSITIVE_INT = re.compile(r"[1-9][0-9]{0,9}")
_PERIOD = re.compile(r"[0-9]{4}-(0[1-9]|1[0-2])")


def _text(value: str) -> str | None:
    return value if 0 < len(value) <= 200 else None


def _capacity(value: str) -> float | None:
    return float(value) if _NUMBER.fullmatch(value) else None


def _plant_id(value: str) -> int | None:
    return int(value) if _POSITIVE_INT.fullmatch(value) and int(value) <= MAX_ID else None


def _period(value: str) -> str | None:
    return value if _PERIOD.fullmatch(value) else None


def _limit(value: str) -> int | None:
    return int(value) if _POSITIVE_INT.fullmatch(value) and int(value) <= 500 else None


def _cursor(value: str) -> str | None:
    return value if 0 < len(value) <= 4096 else None


@dataclass(frozen=True)
class PublicPage:
    """A listing of public data the lean path may answer: its collection and parameters,
    each with the strict form of its value both paths read the same way (None: not sure,
    the full path decides)."""

    collection: str
    filters: dict[str, Callable[[str], Any]]
    default_limit: int = 100

    def parse(
        self, query_string: bytes
    ) -> tuple[tuple[tuple[str, Any], ...], str | None, int] | None:
        """Return (filters, cursor, limit), or None when the full path must decide."""
        seen: set[str] = set()
        filters: list[tuple[str, Any]] = []
        cursor, limit = None, self.default_limit
        # As Starlette reads a query string (`QueryParams`).
        for name, raw in parse_qsl(query_string.decode("latin-1"), keep_blank_values=True):
            if name in seen or "\ufffd" in raw:  # repeated, or bytes that are not UTF-8
                return None
            seen.add(name)
            if name == "limit":
                value = _limit(raw)
                limit = value
            elif name == "cursor":
                value = cursor = _cursor(raw)
            elif name in self.filters:
                value = self.filters[name](raw)
                filters.append((name, value))
            else:
                return None
            if value is None:
                return None
        return tuple(sorted(filters)), cursor, limit


# The strict form of every filter of each page the declarations cache (`cached_pages`).
PAGE_FILTERS: dict[str, dict[str, Callable[[str], Any]]] = {
    "/v1/generators": {
        "state": _text,
        "status": _text,
        "ba_code": _text,
        "source_id": _text,
        "technology": _text,
        "plant_id": _plant_id,
        "min_capacity_mw": _capacity,
        "max_capacity_mw": _capacity,
    },
    "/v1/generation-plants": {"state": _text, "county": _text, "ba_code": _text},
    "/v1/generator-operations": {
        "plant_id": _plant_id,
        "generator_id": _text,
        "ba_code": _text,
        "state": _text,
        "period": _period,
    },
}

PUBLIC_PAGES: dict[str, PublicPage] = {
    path: PublicPage(dataset.collections[path], PAGE_FILTERS[path])
    for dataset in DATASETS
    for path in dataset.cached_pages
}

PageKey = tuple[Any, ...]
_UNREAD = object()  # no hash read from the store for this request yet


@dataclass(frozen=True)
class CachedPage:
    tag: str
    data: bytes  # `{"data":[...]` up to and including the closing bracket
    has_more: bool
    last_id: str | None
    digest: str = ""  # the cursor's binding to endpoint and filters (`paging.filters_digest`)


class PageCache:
    """Encoded pages, least recently used out first once past `max_bytes`; thread-safe."""

    def __init__(self, max_bytes: int = DEFAULT_PAGE_CACHE_BYTES) -> None:
        self.max_bytes = max_bytes
        self._entries: OrderedDict[PageKey, CachedPage] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()
        self.hits = self.misses = 0

    @property
    def size_bytes(self) -> int:
        return self._bytes

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, key: PageKey, tag: str) -> CachedPage | None:
        with self._lock:
            entry = self._entries.get(key)
            if entry is None or entry.tag != tag:
                self.misses += 1
                return None
            self._entries.move_to_end(key)
            self.hits += 1
            return entry

    def put(self, key: PageKey, page: CachedPage) -> None:
        size = len(page.data)
        if size > self.max_bytes // 4:
            return
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self._bytes -= len(old.data)
            self._entries[key] = page
            self._bytes += size
            while self._bytes > self.max_bytes:
                _, dropped = self._entries.popitem(last=False)
                self._bytes -= len(dropped.data)


class SnapshotTag:
    """The store's data snapshot hash as this process last read it, kept `interval` seconds
    after the read began (0: read on every request); thread-safe."""

    def __init__(self, interval: float = 0.0, clock: Callable[[], float] = time.monotonic):
        self.interval = interval
        self.clock = clock
        self.reads = 0
        self._value: str | None = None
        self._read_at = -math.inf
        self._lock = threading.Lock()

    def known(self) -> tuple[bool, str | None]:
        """(True, hash) while the last read is recent enough to answer on, else (False, None)."""
        with self._lock:
            if self.interval > 0 and self.clock() < self._read_at + self.interval:
                return True, self._value
        return False, None

    def read(self, conn: Any) -> str | None:
        """Read the hash from the store now and keep it."""
        started = self.clock()
        value = meta_reads.get_meta(conn, meta_reads.SNAPSHOT_KEY)
        with self._lock:
            self.reads += 1
            if started >= self._read_at:  # a read begun earlier may end later: keep the newer
                self._value, self._read_at = value, started
        return value


def _authorization(scope: Scope) -> str | None:
    """The first Authorization header, as Starlette's `request.headers.get` returns it."""
    for name, value in scope["headers"]:
        if name.lower() == b"authorization":
            return value.decode("latin-1")
    return None


def _bearer_token(authorization: str | None) -> str | None:
    """The token as `HTTPBearer` and `auth.current_tenant` read it, or None (full path)."""
    if not authorization:
        return None
    scheme, _, credentials = authorization.partition(" ")
    if scheme.lower() != "bearer" or not credentials:
        return None
    return credentials


class PageCacheMiddleware:
    """Answer registered public pages from the cache; everything else goes on unchanged."""

    def __init__(self, app: ASGIApp, cache: PageCache, snapshot: SnapshotTag | None = None):
        self.app = app
        self.cache = cache
        self.snapshot = snapshot if snapshot is not None else SnapshotTag()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        page = PUBLIC_PAGES.get(scope.get("path", "")) if scope["type"] == "http" else None
        if page is None or scope["method"] != "GET":
            await self.app(scope, receive, send)
            return
        parsed = page.parse(scope.get("query_string", b""))
        token = _bearer_token(_authorization(scope))
        if parsed is None or token is None:
            await self.app(scope, receive, send)
            return
        filters, cursor, limit = parsed
        state = scope["app"].state
        endpoint = scope["path"]
        after = None
        if cursor is not None:
            try:
                position = state.cursor_codec.decode(cursor, endpoint, dict(filters))
            except ApiError:
                position = None
            if position is None or len(position) != 1 or not isinstance(position[0], str):
                await self.app(scope, receive, send)
                return
            after = position[0]
        key = (page.collection, filters, after, limit)
        connections = state.connections
        snapshot = self.snapshot

        def tag_now() -> str | None:
            return snapshot.read(connections.get())

        # What this process knows already (PostgreSQL: a recent hash, a token seen lately)
        # is not asked of the store: a cached page then makes no round trip at all.
        tag_known, tag = snapshot.known()
        token_cache = getattr(state, "token_cache", None)
        tenant = token_cache.known(token) if token_cache is not None and tag_known else None
        in_pool = isinstance(connections, PooledConnections)
        if tenant is None:

            def lookup() -> tuple[str | None, str | None]:
                return (tag if tag_known else tag_now()), tenant_of(state, token)

            try:
                tag, tenant = await _blocking(lookup, in_pool)
            except Exception:
                # The store failed before anything was counted: the full path meets the same
                # failure and answers it as it always does (503 when the store is down).
                await self.app(scope, receive, send)
                return
        entry = self.cache.get(key, tag) if tag is not None else None
        # A reviewer's token reaches no page a tenant reads: the full path refuses it.
        if entry is None or tenant is None or reviewer_of(tenant) is not None:
            # A hash kept from an earlier read is not one to keep a new page under.
            await self._fill(
                scope, receive, send, key, _UNREAD if tag_known else tag, tag_now, in_pool
            )
            return
        limiter = state.rate_limiter
        if limiter is not None:
            # The token's bucket, keyed as `auth.current_tenant` keys it. A refusal takes
            # nothing from the bucket, so on a 429 (or a store failure) the full path draws
            # again and answers as it always does: the request is counted once.
            bucket = hashlib.sha256(token.encode()).hexdigest()
            try:
                wait = await _blocking(lambda: limiter.retry_after(bucket), in_pool)
            except Exception:
                wait = None
            if wait != 0:
                await self.app(scope, receive, send)
                return
        scope.setdefault("state", {})["tenant_id"] = tenant
        next_cursor = (
            state.cursor_codec.encode(endpoint, {}, [entry.last_id], digest=entry.digest)
            if entry.has_more
            else None
        )
        body = entry.data + meta_bytes(
            limit=limit, has_more=entry.has_more, next_cursor=next_cursor, order=ORDER_ID_ASC
        )
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [
                    (b"content-length", str(len(body)).encode("latin-1")),
                    (b"content-type", b"application/json"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})

    async def _fill(
        self,
        scope: Scope,
        receive: Receive,
        send: Send,
        key: PageKey,
        tag: str | None | object,
        tag_now: Callable[[], str | None],
        in_pool: bool,
    ) -> None:
        """Let the full path answer; keep the page it built if the data did not change.

        `tag`: the hash read from the store just before, or `_UNREAD` to read it here first."""
        if tag is _UNREAD:
            try:
                tag = await _blocking(tag_now, in_pool)
            except Exception:  # the full path meets the same failure and answers it
                tag = None
        status: list[int] = []

        async def watch(message: Message) -> None:
            if message["type"] == "http.response.start":
                status.append(message["status"])
            await send(message)

        await self.app(scope, receive, watch)
        parts = scope.get("state", {}).get(PAGE_PARTS)
        if tag is None or status != [200] or parts is None or parts[0] != key:
            return
        try:
            unchanged = await _blocking(tag_now, in_pool) == tag
        except Exception:  # the answer is sent; a page not kept is only a later miss
            return
        if not unchanged:
            return
        _, data, has_more, last_id = parts
        digest = filters_digest(scope["path"], dict(key[1]))
        self.cache.put(key, CachedPage(tag, data, has_more, last_id, digest))


async def _blocking(fn: Callable[[], Any], in_pool: bool) -> Any:
    """Run store work: inline on SQLite (a few microseconds on this thread's own
    connection), in a worker thread on PostgreSQL (a network round trip)."""
    if in_pool:
        return await anyio.to_thread.run_sync(fn)
    return fn()
