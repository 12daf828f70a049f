"""An HTTP answer held whole by an ASGI middleware, then sent rewritten: how the app's
middleware (`page_links`, `component_files`) changes what Streamlit's server answers."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
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
    session's WebSocket: hashing deck.gl's 4.3 MB took 8 ms, and gzipping it 0.1 s."""
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
