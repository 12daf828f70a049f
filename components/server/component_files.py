"""A custom component's scripts are kept by the browser between tabs: each carries an ETag,
and a browser that holds the same file gets "304 Not Modified" instead of the file again.

Streamlit serves a component's files with `Cache-Control: public` and no validator (no ETag,
no Last-Modified), so a browser cannot tell whether its copy is current and fetches the file
again every time a page draws the component: the site map (`components/click_map.py`)
loads deck.gl from pydeck's package, megabytes fetched again on every new tab and visit
(what that cost, and what this saves: docs/benchmarks/history.md).

This middleware gives each component file but its HTML page an ETag (a hash of its bytes) and
`Cache-Control: no-cache`: the browser keeps the file, asks each time whether it changed, and
gets a 304 while it has not, so a new version of a component (pydeck upgraded, the app's
own script edited) is fetched at once. A browser that takes gzip gets the file gzipped, as
before, compressed once per version of the file rather than on every request; the tag is
weak (`W/"..."`), one tag for the file's bytes however they are encoded. The component's HTML
page passes untouched.
"""

from __future__ import annotations

import hashlib
from typing import Any

from components.server.rewritten_answers import (
    GzippedOnce,
    Message,
    Scope,
    serve_rewritten,
    takes_gzip,
    with_length,
    without,
)

# Streamlit's route for a (v1) custom component's files: `<base>/component/<name>/<file>`
COMPONENT_ROUTE = "/component/"


# the gzipped bytes of the files last sent, by tag: each version compressed once
GZIPPED_KEPT = 16


def etag(body: bytes) -> bytes:
    """Return the weak ETag of a file's bytes (as HTTP writes it): the same for the file
    gzipped, which holds the same bytes."""
    return b'W/"%s"' % hashlib.md5(body, usedforsecurity=False).hexdigest().encode()


def matches(if_none_match: bytes, tag: bytes) -> bool:
    """Whether an `If-None-Match` header names `tag` (or is `*`), by the weak comparison
    HTTP asks of it: `W/"x"` and `"x"` name the same bytes."""
    named = [part.strip().removeprefix(b"W/") for part in if_none_match.split(b",")]
    return b"*" in named or tag.removeprefix(b"W/") in named


class ComponentFilesRevalidated:
    """ASGI middleware: a GET of a component's file that is not its HTML page is answered
    with its ETag and `Cache-Control: no-cache` (gzipped, once per version of the file, for a
    browser that takes gzip), or with 304 when the browser's copy has that ETag. Anything
    else (another route, an HTML page, an answer other than 200) passes untouched."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.compressed = GzippedOnce(GZIPPED_KEPT)

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        path = scope.get("path", "")
        if (
            scope["type"] != "http"
            or scope.get("method") != "GET"
            or COMPONENT_ROUTE not in path
            or path.endswith(("/", ".html"))
        ):
            await self.app(scope, receive, send)
            return
        request = dict(scope.get("headers", []))
        asked = request.get(b"if-none-match", b"")
        gzipped = takes_gzip(request.get(b"accept-encoding", b""))

        def revalidated(start: Message, data: bytes) -> tuple[Message, bytes]:
            tag = etag(data)
            kept = without(start.get("headers", []), b"cache-control", b"etag", b"vary")
            validators = [
                (b"etag", tag),
                (b"cache-control", b"no-cache"),
                (b"vary", b"Accept-Encoding"),
            ]
            if matches(asked, tag):
                unchanged = without(kept, b"content-length", b"content-type")
                return {**start, "status": 304, "headers": [*unchanged, *validators]}, b""
            if gzipped:
                data = self.compressed(tag, data)
                validators.append((b"content-encoding", b"gzip"))
            return {**start, "headers": [*with_length(kept, data), *validators]}, data

        # asked unencoded (serve_rewritten): the tag is the file's own bytes, where
        # Streamlit's gzip compressed the file again, with a new timestamp, on every request
        await serve_rewritten(
            self.app,
            scope,
            receive,
            send,
            holds=lambda start: start.get("status") == 200,
            rewrite=revalidated,
        )
