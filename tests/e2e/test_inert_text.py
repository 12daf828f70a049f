"""Hostile text from the data shows as text: no script runs, no element or link is made of it.

A source document can carry anything: HTML, markdown links with `javascript:` targets,
emphasis. The app shows the service's text through escaped markdown; these journeys put
such text into the session's store (the service reads the live store) and look at the page.
"""

from __future__ import annotations

import re
from urllib.parse import quote, urlsplit

import pytest
from demo_store import demo_store_copy
from e2e_browser import (
    assert_no_exception_box,
    open_page,
    screenshot,
    start_streamlit,
    wait_for_run,
)
from playwright.sync_api import expect

MARKER = "zzhostile"
HOSTILE = (
    '<script>window.__pwned=1</script> <img src=x onerror="window.__pwned=2"> '
    "[click](javascript:alert(1)) **bold** " + MARKER
)
CHUNK_ID = "e2e-hostile-chunk"
QUEUE_ID = "e2e-hostile-queue-record"


def _write(db_path, write) -> None:
    from gridservice.store.db import connect

    conn = connect(db_path)
    try:
        with conn:
            write(conn)
    finally:
        conn.close()


@pytest.fixture(scope="module")
def hostile_chunk(reference_service):
    from gridservice.store import writer

    chunk = {
        "chunkId": CHUNK_ID,
        "sourceId": "e2e-hostile-source",
        "assetHash": "e" * 64,
        "tableId": None,
        "content": HOSTILE,
        "sourceLocator": "p. 1",
        "kind": "prose",
        "page": 1,
        "sectionPath": ["<b>Section</b>", "[link](javascript:alert(2))"],
    }
    _write(
        reference_service.db_path,
        lambda conn: writer.insert_evidence_chunks(
            conn,
            [chunk],
            authority="other_public_source",
            redistribution_policy="public_redistribution",
            known_from="2020-01-01T00:00:00Z",
        ),
    )
    return chunk


@pytest.fixture(scope="module")
def hostile_service(chromium_path, tmp_path_factory):
    """A demo service of its own: a record added to the session's store would change the queue
    other journeys count (the session's app keeps the queue it traversed for ten minutes)."""
    from gridservice.runtime.server import start_in_thread
    from gridservice.settings import Settings

    db_path = demo_store_copy(tmp_path_factory.mktemp("e2e-hostile") / "demo.db")
    server = start_in_thread(Settings(db_path=db_path, demo=True))
    server.db_path = db_path
    yield server
    server.stop()


@pytest.fixture(scope="module")
def hostile_queue_record(hostile_service):
    """A queue record named with the hostile text, copied from one the demo holds."""
    from gridclient import GridDataClient
    from gridservice.store import writer

    with GridDataClient(base_url=hostile_service.base_url, token="gds_demo_alpha") as client:
        model = client.queue_records.list(limit=1, max_items=1).to_list()[0].to_wire()
        details = client.queue_records.details(model["id"]).to_wire()
        evidence = client.queue_records.evidence(model["id"]).to_wire()
    record = {**model, "id": QUEUE_ID, "recordKey": "E2E-HOSTILE", "projectName": HOSTILE}
    details = {**details, "recordId": QUEUE_ID}
    evidence = {**evidence, "recordId": QUEUE_ID}
    _write(
        hostile_service.db_path,
        lambda conn: writer.insert_queue_record(conn, record, details, evidence),
    )
    return record


@pytest.fixture(scope="module")
def fresh_app_url(hostile_service, hostile_queue_record, tmp_path_factory):
    """An app process on the service that holds the hostile record."""
    log = tmp_path_factory.mktemp("e2e-inert-text") / "streamlit.log"
    env = {"GRID_API_BASE_URL": hostile_service.base_url, "GRID_API_TOKEN": "gds_demo_alpha"}
    app = start_streamlit(env, log)
    yield app.url
    app.stop()


def assert_inert(page) -> None:
    """The hostile text is on the page as text, and nothing of it became markup or ran."""
    main = page.locator('[data-testid="stMain"]')
    expect(main.get_by_text("<script>window.__pwned=1</script>", exact=False).first).to_be_visible()
    expect(main.get_by_text("[click](javascript:alert(1))", exact=False).first).to_be_visible()
    expect(main.get_by_text("**bold**", exact=False).first).to_be_visible()
    assert page.evaluate("() => typeof window.__pwned") == "undefined", "the chunk's script ran"
    assert main.locator("script").count() == 0, "a <script> element was made from the data"
    assert page.locator('img[src="x"], [onerror]').count() == 0, "an <img> was made from the data"
    assert page.locator('a[href^="javascript:" i]').count() == 0, "a javascript: link was made"
    assert main.get_by_role("link", name=re.compile(r"^(click|link)$")).count() == 0
    assert main.locator("strong", has_text=re.compile(r"^bold$")).count() == 0
    assert main.locator("b", has_text=re.compile(r"^Section$")).count() == 0
    assert_no_exception_box(page)


def test_hostile_evidence_text_is_shown_as_text(page, app_url, hostile_chunk, alpha_client):
    served = alpha_client.evidence.search(MARKER, limit=10).to_list()
    assert [chunk.to_wire()["chunkId"] for chunk in served] == [CHUNK_ID]

    open_page(page, app_url, "evidence_search")
    box = page.get_by_role("textbox", name="Search the source evidence")
    box.fill(MARKER)
    box.press("Enter")
    wait_for_run(page)
    expect(page.get_by_text(re.compile(r"^1 results?(, best first| so far)"))).to_be_visible()
    # The search term is highlighted by the app: the one piece of markup the text may get.
    expect(page.locator('[data-testid="stMain"] strong', has_text=MARKER)).to_be_visible()
    screenshot(page, "inert-00-evidence")
    assert_inert(page)


def test_hostile_queue_project_name_is_shown_as_text(page, fresh_app_url, hostile_queue_record):
    open_page(page, fresh_app_url, f"queue?record={QUEUE_ID}")
    heading = page.locator('[data-testid="stMain"] h3', has_text=MARKER)
    expect(heading).to_be_visible()
    screenshot(page, "inert-01-queue-record")
    assert_inert(page)


# At most 16 search terms, so that evidence search echoes it rather than refusing it.
PHISH = "x'. [Sign in again](https://phish.example/login) **now** ![](http://beacon.example/p)"
OTHER_DOCKET = quote("Another control number…")
# Every free-text query parameter a page reads (the others are kept only when they name one
# of the page's own choices or parse as a number or date, `components/filters.py`), and
# whether the page echoes it in a message.
SHARED_URLS = {
    "assessment?assessment=": True,
    "queue?record=": True,
    "evidence_search?q=": True,
    f"dockets?control_number={OTHER_DOCKET}&typed=": True,
    "evidence_search?source_id=": False,
    "generation?source_id=": False,
    "portfolio?q=": False,
}


@pytest.mark.parametrize("path", sorted(SHARED_URLS))
def test_a_shared_url_cannot_put_a_disguised_link_on_the_page(page, app_url, path):
    """A URL parameter echoed in a message (no match, unknown record or assessment) stays
    text, so a crafted shared link cannot show a link under words of its choosing, emphasis,
    or an image that makes the browser call an address of its choosing (a beacon), and the
    addresses it names are shown in code spans, never as links.
    """
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    open_page(page, app_url, path + quote(PHISH))
    main = page.locator('[data-testid="stMain"]')
    if SHARED_URLS[path]:
        expect(main.get_by_text("[Sign in again](", exact=False).first).to_be_visible()
        expect(main.get_by_text("![](", exact=False).first).to_be_visible()
    assert main.get_by_role("link", name="Sign in again").count() == 0, "a disguised link"
    links = page.locator('a[href*="phish.example"], a[href*="beacon.example"]')
    assert links.count() == 0, "an address of the URL became a link"
    assert main.locator("strong", has_text=re.compile(r"^now$")).count() == 0
    assert page.locator('img[src*="beacon.example"]').count() == 0, "an image made of the URL"
    beacon = [url for url in requested if urlsplit(url).netloc == "beacon.example"]
    assert not beacon, "the browser called the beacon"
    assert_no_exception_box(page)
