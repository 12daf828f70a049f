"""The served page names the app's root, so a link to a page connects at once
(`components.server.page_links`); the browser half is in tests/e2e/test_links_connect_at_the_root.py."""

from __future__ import annotations

import gzip

import pytest
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.responses import HTMLResponse, JSONResponse
from starlette.routing import Route
from starlette.testclient import TestClient

from components.server.page_links import AppRootInPages, page_paths, snippet

# what a browser sends when it opens a link
BROWSER = {"Accept": "text/html,application/xhtml+xml,*/*;q=0.8", "Accept-Encoding": "gzip"}
PAGE = "<!doctype html><html><head><title>app</title></head><body>" + "x" * 2000 + "</body></html>"


def served(pages=("generation", "assessment")) -> TestClient:
    """A stand-in for Streamlit's server: every path answers the app's HTML (its SPA
    fallback), `_stcore/health` and a JSON path answer otherwise; GZip inside, as
    Streamlit compresses what it serves."""

    async def html(request):
        return HTMLResponse(PAGE)

    async def health(request):
        return HTMLResponse("ok", media_type="text/plain")

    async def data(request):
        return JSONResponse({"head": "<head>", "rows": list(range(200))})

    app = Starlette(
        routes=[
            Route("/_stcore/health", health),
            Route("/api/data", data),
            Route("/{path:path}", html),
        ],
        middleware=[
            Middleware(AppRootInPages, pages=pages),
            Middleware(GZipMiddleware, minimum_size=100),
        ],
    )
    return TestClient(app)


@pytest.mark.parametrize("path", ["/", "/generation", "/screener/assessment"])
def test_each_page_of_the_app_carries_the_script_first_in_its_head(path):
    with served() as client:
        response = client.get(path, headers=BROWSER)
    assert response.status_code == 200
    script = snippet(["generation", "assessment"]).decode()
    assert response.text.startswith("<!doctype html><html><head>" + script + "<title>")
    assert int(response.headers["content-length"]) == len(response.content)
    assert response.text.endswith("</body></html>"), "the page arrives whole"


def test_what_is_not_a_page_passes_untouched():
    with served() as client:
        health = client.get("/_stcore/health", headers=BROWSER)
        data = client.get("/api/data", headers={"Accept-Encoding": "gzip"})
        posted = client.post("/generation", headers=BROWSER)
        fetched = client.get("/generation", headers={"Accept": "*/*", "Accept-Encoding": "gzip"})
    assert health.text == "ok"
    assert data.json()["head"] == "<head>"
    assert data.headers["content-encoding"] == "gzip", "JSON is still compressed"
    assert "__streamlit" not in posted.text
    assert "__streamlit" not in fetched.text, "only a browser's page load is changed"
    assert fetched.headers["content-encoding"] == "gzip"


def test_the_script_names_every_page_of_the_app():
    pages = page_paths()
    assert {"assessment", "generation", "screen_site", "queue"} <= set(pages)
    script = snippet(pages).decode()
    for stem in pages:
        assert f'"{stem}"' in script
    assert len(gzip.compress(script.encode())) < 1000, "a few hundred bytes on every page"
