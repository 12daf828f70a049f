"""An HTTP answer held whole by an ASGI middleware, then sent rewritten: how the app's
middleware (`page_links`, `component_files`) changes what Streamlit's server answers; and
what the middlewares that compress share (`takes_gzip`, `GzippedOnce`, with `map_rows`)."""

from __future__ import annotations

import asyncio
import gzip
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable
from typing import Any

# Starlette's ASGI types, spelled out: the app's code imports no server framework.
Scope = dict[str, Any]
Message = dict[str, Any]
Headers = list[tuple[bytes, bytes]]
# (the answer's start, its whole body) -> (the start to send, the body to send)
Rewrite = Callable[[Message, bytes], tuple[Message, bytes]]


def without(headers: Iterable[tuple[bytes, bytes]], *names: bytes) -> Headers:
    """Return the headers but those named (lower-case, as ASGI gives them)."""
    return [(k, v) for k, v in headers if k not in names]


def with_length(headers: Iterable[tuple[bytes, bytes]], body: bytes) -> Headers:
    """Return the headers with their content-length set to the body's."""
    return [*without(headers, b"content-length"), (b"content-length", b"%d" % len(body))]


def takes_gzip(accept_encoding: bytes) -> bool:
    """Whether an `Accept-Encoding` header takes gzip (named, or `*`, and not at `q=0`)."""
    for part in accept_encoding.lower().split(b","):
        coding, _, params = part.partition(b";")
        if coding.strip() not in (b"gzip", b"*"):
            continue
        quality = params.strip()
        if not quality.startswith(b"q="):
            return True
        try:
            return float(quality[2:]) > 0
        except ValueError:
            return False
    return False


class GzippedOnce:
    """Bodies gzipped once each, by a key naming their bytes (an ETag, a hash), the last
    `kept` of them kept; safe across threads (answers are compressed in worker threads)."""

    def __init__(self, kept: int) -> None:
        self.kept = kept
        self._packed: OrderedDict[Hashable, bytes] = OrderedDict()
        self._lock = threading.Lock()

    def kept_for(self, key: Hashable) -> bytes | None:
        """Return the body gzipped if it was compressed before, else None."""
        with self._lock:
            packed = self._packed.get(key)
            if packed is not None:
                self._packed.move_to_end(key)
            return packed

    def __call__(self, key: Hashable, data: bytes) -> bytes:
        """Return `data` gzipped: compressed the first time its key is asked for."""
        packed = self.kept_for(key)
        if packed is None:
            packed = gzip.compress(data, compresslevel=6, mtime=0)
            with self._lock:
                self._packed[key] = packed
                while len(self._packed) > self.kept:
                    self._packed.popitem(last=False)
        return packed


async def serve_rewritten(
    app: Any,
    scope: Scope,
    receive: Any,
    send: Any,
    *,
    holds: Callable[[Message], bool],
    rewrite: Rewrite,
) -> None:
    """Call `app`, asking for an unencoded answer (its body is read); an answer whose start
    `holds` is held until its body is whole, then sent as `rewrite` returns it; any other
    answer passes as it comes.

    `rewrite` runs in a worker thread, not on the server's event loop, which carries every
    session's WebSocket: hashing and gzipping a large script would hold every session up."""
    start: Message | None = None
    body: list[bytes] = []

    async def send_held(message: Message) -> None:
        nonlocal start
        if message["type"] == "http.response.start" and holds(message):
            start = message
            return
        if start is None or message["type"] != "http.response.body":
            await send(message)
            return
        body.append(message.get("body", b""))
        if message.get("more_body", False):
            return
        sent, data = await asyncio.to_thread(rewrite, start, b"".join(body))
        await send(sent)
        await send({"type": "http.response.body", "body": data})

    unencoded = without(scope.get("headers", []), b"accept-encoding")
    await app({**scope, "headers": unencoded}, receive, send_held)
