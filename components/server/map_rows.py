"""A map's rows fetched by the browser from the app, at an address named by their hash,
instead of written into the page's message.

A layer whose rows travel inside the deck's JSON (a `data:` URL, `maps.json_url`) sends them
with the page's run, over the app's WebSocket: the Generation page's deck was 1 MB (the
region's 8,229 county edges and 2,000 plants), read on the browser's main thread while the
page was still coming in, and sent again in every tab. Published here, the rows leave the
message for a short relative address (`ROUTE` + hash + `.json`) that deck.gl fetches once
the page is drawn; the answer is `immutable` (its address changes with its bytes), so every
later tab takes the region's outlines from the browser's cache.

`publish` keeps the rows in memory, the last `KEPT_BYTES` published or fetched, for every
session of the process. What is published today is public data, the same for every tenant
(county outlines from the Census, plants from the public generator records); an address is
the hash of its rows, so it cannot be guessed by anyone who has not been sent it.
`RowsServed` is the ASGI middleware that answers for them; like a Streamlit media file, an
address is served by the process that ran the page (several processes behind one address
need sticky sessions, as Streamlit's own media files do; docs/APP.md).
"""

from __future__ import annotations

import asyncio
import hashlib
import re
import threading
from collections import OrderedDict
from typing import Any

from components.server.rewritten_answers import GzippedOnce, Scope, takes_gzip, with_length

# a path's last two segments; relative, so it resolves under the page's own prefix (a reverse
# proxy serving the app under `/screener/`) and in any page's folder
ROUTE = "_map_rows/"
ADDRESS = re.compile(r"(?:^|/)_map_rows/([0-9a-f]{32})\.json$")

# the rows kept, in bytes of JSON: the region's outlines are 0.3 MB, a Generation map's
# plants 0.6 MB; a store that holds more drops the rows used longest ago
KEPT_BYTES = 64 * 1024 * 1024

IMMUTABLE = b"public, max-age=31536000, immutable"
# a gzipped answer is built only for rows at least this long; the last so many kept
GZIP_FROM = 1024
GZIPPED_KEPT = 32


class Published:
    """The rows published, by hash, the most recently used last; safe across threads (the
    page's runs publish, the server's event loop reads)."""

    def __init__(self, kept_bytes: int = KEPT_BYTES) -> None:
        self.kept_bytes = kept_bytes
        self._rows: OrderedDict[str, bytes] = OrderedDict()
        self.gzipped = GzippedOnce(GZIPPED_KEPT)
        self._size = 0
        self._lock = threading.Lock()

    def publish(self, data: bytes) -> str:
        """Keep `data` (JSON text) and return the relative address that serves it."""
        digest = hashlib.blake2b(data, digest_size=16).hexdigest()
        with self._lock:
            if digest in self._rows:
                self._rows.move_to_end(digest)
            else:
                self._rows[digest] = data
                self._size += len(data)
                self._drop_oldest()
        return f"{ROUTE}{digest}.json"

    def _drop_oldest(self) -> None:
        while self._size > self.kept_bytes and len(self._rows) > 1:
            _, data = self._rows.popitem(last=False)
            self._size -= len(data)

    def get(self, digest: str) -> bytes | None:
        """Return the rows of a hash (and keep them longer), or None if none are kept."""
        with self._lock:
            data = self._rows.get(digest)
            if data is not None:
                self._rows.move_to_end(digest)
            return data


STORE = Published()


def publish(data: bytes | str) -> str:
    """Publish JSON text to the process's store; return the relative address of its rows."""
    return STORE.publish(data.encode() if isinstance(data, str) else data)


def digest_of(address: str) -> str | None:
    """Return the hash an address (relative or a request's path) names, or None."""
    found = ADDRESS.search(address.split("?", 1)[0])
    return found.group(1) if found else None


def read(address: str) -> bytes | None:
    """Return the JSON text a published address serves, or None (not an address, or gone)."""
    digest = digest_of(address)
    return STORE.get(digest) if digest else None


class RowsServed:
    """ASGI middleware: answer a GET (or HEAD) for a published address from `STORE`, under
    whatever prefix the page's path gave it; everything else passes to the app."""

    def __init__(self, app: Any, store: Published | None = None) -> None:
        self.app = app
        self.store = store

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        digest = digest_of(scope.get("path", "")) if scope["type"] == "http" else None
        if digest is None or scope.get("method") not in ("GET", "HEAD"):
            await self.app(scope, receive, send)
            return
        store = self.store or STORE
        data = store.get(digest)
        if data is None:
            gone = b"Not found"
            await _answer(send, 404, with_length([(b"content-type", b"text/plain")], gone), gone)
            return
        headers = [
            (b"content-type", b"application/json"),
            (b"cache-control", IMMUTABLE),
            (b"etag", b'"%s"' % digest.encode()),
            (b"vary", b"Accept-Encoding"),
        ]
        accepted = dict(scope.get("headers", [])).get(b"accept-encoding", b"")
        if len(data) >= GZIP_FROM and takes_gzip(accepted):
            packed = store.gzipped.kept_for(digest)
            if packed is None:  # compressed once, off the event loop (600 KB: about 10 ms)
                packed = await asyncio.to_thread(store.gzipped, digest, data)
            data = packed
            headers.append((b"content-encoding", b"gzip"))
        headers = with_length(headers, data)  # a HEAD is told the length of the GET's body
        await _answer(send, 200, headers, b"" if scope["method"] == "HEAD" else data)


async def _answer(send: Any, status: int, headers: list[tuple[bytes, bytes]], body: bytes) -> None:
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
