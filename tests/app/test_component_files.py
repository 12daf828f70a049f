"""A component's scripts carry an ETag and are answered 304 while the browser's copy is current
(`components.component_files`), so a new tab does not fetch deck.gl (4.3 MB) again."""

from __future__ import annotations

import gzip
import threading

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route
from starlette.testclient import TestClient

from components.component_files import ComponentFilesRevalidated, etag, matches
from components.held_answers import serve_rewritten, takes_gzip

BUNDLE = "/component/components.click_map.deck_bundle/index.js"
PAGE = "/component/components.click_map.click_map/index.html"
GZIP = {"Accept-Encoding": "gzip"}


def served(files: dict[str, bytes]) -> TestClient:
    """A stand-in for Streamlit's server: a component's files as Streamlit answers them (a
    script `Cache-Control: public` and no validator, an HTML page `no-cache`, a file it does
    not hold 404), another route, and GZip inside, as Streamlit compresses what it serves."""

    async def component(request):
        path = request.url.path
        if path not in files:
            return Response("read error", status_code=404)
        if path.endswith(".html"):
            return HTMLResponse(files[path], headers={"Cache-Control": "no-cache"})
        return Response(
            files[path], media_type="text/javascript", headers={"Cache-Control": "public"}
        )

    async def other(request):
        return Response(b"y" * 5000, media_type="text/javascript")

    app = Starlette(
        routes=[Route("/component/{path:path}", component), Route("/static/app.js", other)],
        middleware=[
            Middleware(ComponentFilesRevalidated),
            Middleware(GZipMiddleware, minimum_size=100),
        ],
    )
    return TestClient(app)


def test_a_script_carries_its_etag_and_the_browser_must_ask_again_before_using_its_copy():
    script = b"var deck = {};" + b"x" * 10_000
    answer = served({BUNDLE: script}).get(BUNDLE, headers={"Accept-Encoding": "identity"})
    assert answer.status_code == 200
    assert answer.content == script
    assert answer.headers["etag"] == etag(script).decode()
    assert answer.headers["cache-control"] == "no-cache"
    assert "content-encoding" not in answer.headers  # a client that takes no gzip
    assert answer.headers["content-length"] == str(len(script))


def test_a_browser_that_takes_gzip_gets_the_same_compressed_bytes_every_time():
    script = b"var deck = {};" + b"x" * 10_000
    client = served({BUNDLE: script})
    first, second = (client.get(BUNDLE, headers=GZIP) for _ in range(2))
    for answer in (first, second):
        assert answer.headers["content-encoding"] == "gzip"
        assert answer.headers["vary"] == "Accept-Encoding"
        assert answer.content == script  # decoded by the client
        assert int(answer.headers["content-length"]) < len(script) // 10
    # compressed once for the file's version: Streamlit's gzip stamped each answer anew
    assert first.headers["etag"] == second.headers["etag"] == etag(script).decode()
    raw = _raw(client, BUNDLE)
    assert raw == _raw(client, BUNDLE)
    assert gzip.decompress(raw) == script


def _raw(client: TestClient, path: str) -> bytes:
    """The answer's bytes as sent, not decoded."""
    with client.stream("GET", path, headers=GZIP) as answer:
        return b"".join(answer.iter_raw())


def test_a_browser_holding_the_same_file_gets_not_modified_and_no_bytes():
    script = b"var deck = {};" + b"x" * 10_000
    client = served({BUNDLE: script})
    tag = client.get(BUNDLE).headers["etag"]
    again = client.get(BUNDLE, headers={**GZIP, "If-None-Match": tag})
    assert again.status_code == 304
    assert again.content == b""
    assert again.headers["etag"] == tag
    assert again.headers["cache-control"] == "no-cache"


def test_a_changed_file_is_sent_whole_with_its_new_etag():
    files = {BUNDLE: b"var deck = 1;" * 100}
    client = served(files)
    old = client.get(BUNDLE).headers["etag"]
    files[BUNDLE] = b"var deck = 2;" * 100  # pydeck upgraded, or the app's script edited
    answer = client.get(BUNDLE, headers={"If-None-Match": old})
    assert answer.status_code == 200
    assert answer.content == files[BUNDLE]
    assert answer.headers["etag"] != old


def test_the_component_page_a_missing_file_and_other_routes_pass_untouched():
    client = served({PAGE: b"<!doctype html><html><head></head><body>" + b"p" * 500})
    page = client.get(PAGE, headers=GZIP)
    assert page.status_code == 200
    assert "etag" not in page.headers
    assert page.headers["cache-control"] == "no-cache"
    assert page.headers["content-encoding"] == "gzip"  # compressed by the server as before
    missing = client.get(BUNDLE, headers={"If-None-Match": '"abc"'})
    assert missing.status_code == 404
    assert "etag" not in missing.headers
    other = client.get("/static/app.js", headers=GZIP)
    assert "etag" not in other.headers
    assert other.headers["content-encoding"] == "gzip"
    assert other.content == b"y" * 5000


def test_if_none_match_lists_and_weak_tags_are_read_as_browsers_send_them():
    tag = etag(b"file")
    assert tag.startswith(b'W/"')
    assert matches(tag, tag)
    assert matches(b'"other", ' + tag, tag)
    assert matches(tag.removeprefix(b"W/"), tag)
    assert matches(b"*", tag)
    assert not matches(b'"other"', tag)
    assert not matches(b"", tag)


def test_accept_encoding_is_read_with_its_qualities():
    assert takes_gzip(b"gzip, deflate, br, zstd")
    assert takes_gzip(b"br;q=1.0, GZIP;q=0.5")
    assert takes_gzip(b"*")
    assert not takes_gzip(b"")
    assert not takes_gzip(b"br, deflate")
    assert not takes_gzip(b"gzip;q=0")
    assert not takes_gzip(b"gzip;q=nonsense")


def test_a_slow_rewrite_leaves_the_server_free_to_answer_other_requests():
    # an answer is rewritten in a worker thread (`held_answers.serve_rewritten`): hashing
    # and gzipping deck.gl on the event loop held up every session's WebSocket meanwhile
    started, other_answered, finished = threading.Event(), threading.Event(), threading.Event()

    def slow(start, body):
        started.set()
        # held until the other request is answered: a rewrite on the event loop never is
        other_answered.wait(10)
        finished.set()
        return start, body

    class Held:
        def __init__(self, app):
            self.app = app

        async def __call__(self, scope, receive, send):
            if scope["type"] == "http" and scope["path"] == "/held":
                await serve_rewritten(
                    self.app, scope, receive, send, holds=lambda start: True, rewrite=slow
                )
            else:
                await self.app(scope, receive, send)

    async def answer(request):
        return Response(b"whole", media_type="text/plain")

    app = Starlette(
        routes=[Route("/held", answer), Route("/other", answer)], middleware=[Middleware(Held)]
    )
    with TestClient(app) as client:  # one event loop serves both requests
        held = threading.Thread(target=client.get, args=("/held",))
        held.start()
        assert started.wait(10)
        assert client.get("/other").content == b"whole"
        assert not finished.is_set(), "the other request waited for the rewrite"
        other_answered.set()
        held.join(10)
    assert finished.is_set()
