"""Evidence search through the impact index (store/search/impacts.py on SQLite,
store/search/postgres_impacts.py on PostgreSQL) ranks exactly as ranking every match does: the
same chunks, ranks, order and cursors, page after page. Every test runs on both backends."""

from __future__ import annotations

import pytest
from demo_store import demo_store_copy
from fastapi.testclient import TestClient
from harvest_support import data_file

from gridservice.app import create_app
from gridservice.demo.builder import DEMO_TOKENS
from gridservice.harvest import run_harvest
from gridservice.settings import Settings
from gridservice.store import collections, writer
from gridservice.store.db import connect
from gridservice.store.search import impacts, scoring

# Terms found in most demo chunks, two-term and phrase searches, prefixes: the index answers.
FAST = [
    "interconnection",
    "battery storage",
    "interconnection request",
    "transmission project",
    "project status",
    "mw battery",
    "storag",
]
# A prefix of several terms ("load*": load, loads, ...), rarer words: ranked the exact way.
DEMO_TOKEN = {"Authorization": f"Bearer {DEMO_TOKENS[0][0]}"}
QUERIES = [*FAST, "load forecast", "queue", "wichita"]
FILTERS = [
    {},
    {"kind": "prose"},
    {"kind": "table"},
    {"source_id": "DEMO-ERCOT-GIS"},
    {"source_id": "demo-ercot-tpit", "kind": "prose"},
    {"authority": "official_operator_dataset"},
    {"redistribution_policy": "public_redistribution"},
    {"page": 3},
    {"known_at": "2025-06-01T00:00:00Z"},
]


@pytest.fixture(autouse=True)
def small_store_uses_the_index(monkeypatch):
    """The demo store here is small: let the index answer for terms in few chunks too."""
    monkeypatch.setattr(scoring, "FAST_MIN_MATCHES", 0)


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def store(request, tmp_path_factory):
    if request.param == "postgresql":
        cluster = request.getfixturevalue("postgres_cluster")
        return cluster.new_database(template=request.getfixturevalue("postgres_demo_template"))
    return demo_store_copy(tmp_path_factory.mktemp("impacts") / "demo.db")


@pytest.fixture
def copy_of(request, tmp_path):
    """A copy of the demo store to write to (a file copy; on PostgreSQL a database made from
    the demo template, which the module's store is an unchanged copy of)."""

    def copy(store) -> str:
        if str(store).startswith("postgresql://"):
            cluster = request.getfixturevalue("postgres_cluster")
            return cluster.new_database(template=request.getfixturevalue("postgres_demo_template"))
        path = tmp_path / "copy.db"
        source = connect(store)
        source.execute("VACUUM INTO ?", (str(path),))
        source.close()
        return str(path)

    return copy


@pytest.fixture
def conn(store):
    conn = connect(store, readonly=True)
    yield conn
    conn.close()


@pytest.fixture
def small_blocks(store, monkeypatch):
    """The index rebuilt with blocks of 16 chunks, so a search has many blocks to skip."""
    monkeypatch.setattr(scoring, "BLOCK_SIZE", 16)
    writable = connect(store)
    assert impacts.build(writable)
    yield
    monkeypatch.undo()
    assert impacts.build(writable)
    writable.close()


def walk(conn, q, limit, fast, filters=None):
    """Every (chunk id, rank, body) of a search, page by page from the cursor of the last."""
    scoring.ENABLED = fast
    try:
        out, after = [], None
        while True:
            rows = collections.evidence_search(conn, q, filters or {}, after, limit + 1)
            out.append([(chunk_id, rank, body) for chunk_id, body, rank in rows[:limit]])
            if len(rows) <= limit:
                return out
            after = (rows[limit - 1][2], rows[limit - 1][0])
    finally:
        scoring.ENABLED = True


def test_the_demo_store_is_built_with_a_current_index(conn):
    assert impacts.is_current(conn)
    common = conn.execute("SELECT count(DISTINCT term) FROM evidence_term_blocks").fetchone()[0]
    assert common > 10


@pytest.mark.parametrize("q", QUERIES)
def test_every_page_is_the_same_with_the_index_and_without(store, conn, q):
    scoring.USES.clear()
    # Every filter changes the query on both backends; a second page size only moves where
    # the cursors fall, so PostgreSQL (five times slower here) walks its pages at one size.
    limits = (20,) if str(store).startswith("postgresql://") else (7, 20)
    for filters in FILTERS:
        for limit in limits:
            assert walk(conn, q, limit, True, filters) == walk(conn, q, limit, False, filters)
    assert (scoring.USES["fast"] > 0) == (q in FAST)


@pytest.mark.parametrize("q", ["interconnection", "battery storage", "transmission project"])
def test_small_blocks_skip_work_and_keep_the_ranking(conn, small_blocks, q):
    scoring.USES.clear()
    for filters in FILTERS[:3]:
        assert walk(conn, q, 20, True, filters) == walk(conn, q, 20, False, filters)
    scoring.USES.clear()
    first_page = collections.evidence_search(conn, q, {}, None, 21)
    assert len(first_page) == 21 and scoring.USES["fast"] == 1
    blocks = conn.execute(
        "SELECT count(*) FROM evidence_term_blocks WHERE term = ?",
        (impacts.stems(q.split()[0])[0],),
    ).fetchone()[0]
    assert 0 < scoring.USES["fast_blocks"] < blocks  # stopped early


def _pages(client, q, limit):
    pages, cursor = [], None
    while True:
        params = {"q": q, "limit": limit, **({"cursor": cursor} if cursor else {})}
        response = client.get("/v1/evidence-search", params=params, headers=DEMO_TOKEN)
        assert response.status_code == 200
        page = response.json()
        # A cursor is sealed afresh each time; the page it leads to is what must agree.
        cursor = page["meta"].pop("nextCursor")
        pages.append(page)
        if cursor is None:
            return pages


def test_the_service_answers_the_same_pages(store):
    settings = Settings.for_store(store, secret_key=b"k" * 32, rate_limit_burst=100000)
    answers = {}
    for fast in (True, False):
        scoring.ENABLED = fast
        try:
            with TestClient(create_app(settings)) as client:  # a fresh ranking cache
                answers[fast] = [_pages(client, q, 30) for q in QUERIES[:3]]
                # Pages after the first come from the ranking cache (on either backend).
                cache = client.app.state.search_cache
                assert cache.hits >= sum(len(pages) - 1 for pages in answers[fast]) - 3
        finally:
            scoring.ENABLED = True
    assert answers[True] == answers[False]
    assert sum(len(pages) for pages in answers[True]) > 10  # cursors past the kept positions


def test_new_evidence_leaves_a_stale_index_unused_until_it_is_rebuilt(store, copy_of):
    conn = connect(copy_of(store))
    with conn:
        writer.insert_evidence_chunks(
            conn,
            [
                {
                    "chunkId": "zz-new-interconnection",
                    "sourceId": "demo-ercot-gis",
                    "assetHash": "b" * 64,
                    "tableId": None,
                    "content": "Interconnection interconnection interconnection request.",
                    "sourceLocator": "new.pdf#page=1",
                    "kind": "prose",
                    "page": 1,
                    "sectionPath": ["New"],
                }
            ],
            authority="official_operator_dataset",
            redistribution_policy="public_redistribution",
            known_from="2025-12-01T00:00:00Z",
        )
    assert not impacts.is_current(conn)
    scoring.USES.clear()
    stale = walk(conn, "interconnection", 20, True)
    assert scoring.USES["fast"] == 0 and scoring.USES["exact"] > 0
    assert stale == walk(conn, "interconnection", 20, False)
    assert stale[0][0][0] == "zz-new-interconnection"
    assert impacts.refresh(conn)
    scoring.USES.clear()
    assert walk(conn, "interconnection", 20, True) == stale
    assert scoring.USES["fast"] > 0
    conn.close()


def test_a_harvest_keeps_the_index_in_step(store, copy_of):
    cdr = data_file("ercot_cdr/CapacityDemandandReservesReport_May2025.xlsx")
    conn = connect(copy_of(store))
    before = conn.execute("SELECT count(*) FROM evidence_chunks").fetchone()[0]
    run_harvest(conn, "ercot-cdr", cdr)
    assert conn.execute("SELECT count(*) FROM evidence_chunks").fetchone()[0] > before
    assert impacts.is_current(conn)
    for q in ("load forecast", "interconnection", "capacity reserves"):
        for filters in ({}, {"source_id": "ercot_cdr"}):
            assert walk(conn, q, 10, True, filters) == walk(conn, q, 10, False, filters)
    conn.close()
