"""A map's rows are served by the app at an address named by their hash
(`components.server.map_rows`), so a page's message carries an address instead of the rows and a
browser keeps the rows between tabs."""

from __future__ import annotations

import gzip
import json

import pytest
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.responses import PlainTextResponse
from starlette.routing import Route
from starlette.testclient import TestClient

from components.server.map_rows import ROUTE, Published, RowsServed, digest_of

GZIP = {"Accept-Encoding": "gzip"}
IDENTITY = {"Accept-Encoding": "identity"}


def served(store: Published) -> TestClient:
    """The middleware in front of a stand-in for Streamlit's server (one page, one route)."""

    async def page(request):
        return PlainTextResponse(f"streamlit answered {request.url.path}")

    app = Starlette(
        routes=[Route("/{path:path}", page, methods=["GET", "POST"])],
        middleware=[Middleware(RowsServed, store=store)],
    )
    return TestClient(app)


def rows_text(count: int) -> bytes:
    return json.dumps([{"from": [i, i], "to": [i + 1, i]} for i in range(count)]).encode()


def test_published_rows_are_served_whole_as_json_that_never_changes_at_that_address():
    store = Published()
    text = rows_text(500)
    address = store.publish(text)
    assert address.startswith(ROUTE) and address.endswith(".json")
    assert not address.startswith("/")  # relative: under the page's own prefix
    answer = served(store).get(f"/{address}", headers=IDENTITY)
    assert answer.status_code == 200
    assert answer.content == text
    assert answer.headers["content-type"] == "application/json"
    assert "immutable" in answer.headers["cache-control"]
    assert answer.headers["content-length"] == str(len(text))
    assert "content-encoding" not in answer.headers


def test_the_same_rows_get_the_same_address_and_other_rows_another():
    store = Published()
    assert store.publish(rows_text(3)) == store.publish(rows_text(3))
    assert store.publish(rows_text(3)) != store.publish(rows_text(4))


def test_a_browser_that_takes_gzip_gets_the_rows_compressed_the_same_each_time():
    store = Published()
    text = rows_text(2_000)
    address = store.publish(text)
    client = served(store)
    answer = client.get(f"/{address}", headers=GZIP)
    assert answer.headers["content-encoding"] == "gzip"
    assert answer.headers["vary"] == "Accept-Encoding"
    assert answer.content == text
    assert int(answer.headers["content-length"]) < len(text) // 4
    raws = []
    for _ in range(2):
        with client.stream("GET", f"/{address}", headers=GZIP) as raw:
            raws.append(b"".join(raw.iter_raw()))
    assert raws[0] == raws[1] and gzip.decompress(raws[0]) == text


@pytest.mark.parametrize(
    "page", ["/", "/generation", "/generation/", "/screener/generation", "/component/x/i.html"]
)
def test_the_address_is_served_wherever_the_page_it_is_read_from_resolves_it(page):
    # the browser resolves the relative address against the page's own path: a page behind
    # a proxy's prefix, with a trailing slash, or a component's frame
    store = Published()
    address = store.publish(rows_text(2))
    folder = page.rsplit("/", 1)[0]
    answer = served(store).get(f"{folder}/{address}")
    assert answer.status_code == 200
    assert answer.json() == json.loads(rows_text(2))


def test_an_address_no_longer_kept_is_not_found_and_other_paths_pass_to_the_app():
    store = Published()
    client = served(store)
    gone = client.get(f"/{ROUTE}{'0' * 32}.json")
    assert gone.status_code == 404
    for path in ("/generation", f"/{ROUTE}short.json", f"/{ROUTE}{'0' * 32}.json/x"):
        answer = client.get(path)
        assert answer.status_code == 200
        assert answer.text == f"streamlit answered {path}"
    assert client.post(f"/{store.publish(b'[]')}").text.startswith("streamlit answered")


def test_a_head_asks_for_the_headers_alone():
    store = Published()
    address = store.publish(rows_text(10))
    answer = served(store).head(f"/{address}", headers=IDENTITY)
    assert answer.status_code == 200
    assert answer.content == b""
    assert answer.headers["content-length"] == str(len(rows_text(10)))


def test_the_store_drops_the_rows_used_longest_ago_once_it_holds_too_much():
    store = Published(kept_bytes=2_500)
    first, second = store.publish(b"1" * 1_000), store.publish(b"2" * 1_000)
    assert store.get(digest_of(first)) is not None  # used: kept longer than the second
    third = store.publish(b"3" * 1_000)
    assert store.get(digest_of(second)) is None
    assert store.get(digest_of(first)) == b"1" * 1_000
    assert store.get(digest_of(third)) == b"3" * 1_000
    # rows bigger than the whole store are still kept, alone, until the next are published
    big = store.publish(b"4" * 5_000)
    assert store.get(digest_of(big)) == b"4" * 5_000
    assert store.get(digest_of(first)) is None
