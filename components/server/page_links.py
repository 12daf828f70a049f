"""A link to one of the app's pages connects at once: the served HTML names the app's root.

Streamlit's JavaScript does not know where the app is served: opened at `/generation`, it
first asks `/generation/_stcore/health` (the app could be served under that path), gets a 404
and, after its retry delay, asks `/_stcore/health`: every shared link to a page (an
assessment's link above all) waited for that. Streamlit reads the address of its
server from `window.__streamlit.BACKEND_BASE_URL` when the page sets it; this middleware puts a
short script into the HTML of every page that sets it to the path with the page's own last
segment taken off, so a reverse proxy serving the app under a prefix (`/screener/generation`)
still works. A page that already sets `window.__streamlit` (a host embedding the app) keeps
its own value.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from components.server.rewritten_answers import Message, Scope, serve_rewritten, with_length

PAGES_FOLDER = Path(__file__).resolve().parents[2] / "app_pages"

# the JavaScript that takes the page's own segment off a path; kept apart so a test can run
# it in a browser on paths of its choosing
APP_ROOT_JS = """function (path, pages) {
  var parts = path.replace(/\\/+$/, "").split("/");
  if (parts.length > 1 && pages.indexOf(parts[parts.length - 1]) >= 0) parts.pop();
  return parts.join("/") + "/";
}"""


def page_paths(folder: Path = PAGES_FOLDER) -> list[str]:
    """Return the url paths of the app's pages: each page script's stem (`screener.page`
    serves `app_pages/<stem>.py` at `/<stem>`)."""
    return sorted(path.stem for path in folder.glob("*.py"))


def snippet(pages: Iterable[str]) -> bytes:
    """Return the `<script>` that sets Streamlit's server address to the app's root."""
    script = (
        "(function () {"
        "if (window.__streamlit && window.__streamlit.BACKEND_BASE_URL) return;"
        f"var root = ({APP_ROOT_JS})(window.location.pathname, {json.dumps(sorted(pages))});"
        "window.__streamlit = Object.assign({}, window.__streamlit,"
        " {BACKEND_BASE_URL: window.location.origin + root});"
        "})();"
    )
    return f"<script>{script}</script>".encode()


def _is_html(start: Message) -> bool:
    headers = dict(start.get("headers", []))
    return headers.get(b"content-type", b"").split(b";")[0].strip() == b"text/html"


class AppRootInPages:
    """ASGI middleware: put `snippet` at the top of `<head>` of every HTML page served.

    Only a browser's GET for a page (it accepts `text/html`) outside Streamlit's own routes
    (`_stcore/`, `static/`, `media/`, `component/`) can be the app's page; it is asked for
    unencoded (the page is 8 KB), so the script can go in, and its length is set again.
    Everything else passes untouched, compressed as before.
    """

    # Streamlit's own routes (`/app/static/` is under `/static/`)
    SKIPPED = ("/_stcore/", "/static/", "/media/", "/component/")

    def __init__(self, app: Any, pages: Iterable[str] | None = None) -> None:
        self.app = app
        self.script = snippet(page_paths() if pages is None else pages)

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        path = scope.get("path", "")
        if (
            scope["type"] != "http"
            or scope.get("method") != "GET"
            or any(part in path for part in self.SKIPPED)
            or b"text/html" not in dict(scope.get("headers", [])).get(b"accept", b"")
        ):
            await self.app(scope, receive, send)
            return
        await serve_rewritten(
            self.app, scope, receive, send, holds=_is_html, rewrite=self._with_script
        )

    def _with_script(self, start: Message, page: bytes) -> tuple[Message, bytes]:
        page = page.replace(b"<head>", b"<head>" + self.script, 1)
        return {**start, "headers": with_length(start.get("headers", []), page)}, page
