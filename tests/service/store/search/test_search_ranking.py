"""Evidence ranking: the narrow key table, the unstemmed exact-phrase index, the cache of
rankings, and filling those tables in a store written before they existed."""

from __future__ import annotations

import json
import random

import pytest

from gridservice.store import collections, writer
from gridservice.store.db import connect, init_schema

WORDS = [
    "grid",
    "load",
    "battery",
    "storage",
    "transmission",
    "substation",
    "capacity",
    "queue",
    "study",
    "report",
]
N_CHUNKS = 450


def chunk(i: int, content: str) -> dict:
    return {
        "chunkId": f"chunk-{i:04d}",
        "sourceId": "src-a" if i % 3 else "src-b",
        "assetHash": "a" * 64,
        "tableId": None,
        "content": content,
        "sourceLocator": f"p. {i}",
        "kind": ("prose", "table", "figure")[i % 3],
        "page": 1 + i % 4,
        "sectionPath": ["Report"],
    }


@pytest.fixture
def conn(tmp_path):
    rng = random.Random(7)
    conn = connect(tmp_path / "store.db")
    init_schema(conn)
    chunks = [chunk(i, " ".join(rng.choices(WORDS, k=rng.randint(4, 30)))) for i in range(N_CHUNKS)]
    with conn:
        writer.insert_evidence_chunks(
            conn,
            chunks,
            authority="official_planning_report",
            redistribution_policy="public_redistribution",
            known_from="2024-01-01T00:00:00Z",
        )
    yield conn
    conn.close()


def walk(conn, q, limit, cache=None, **filters):
    """Every result of a search, page after page, as the router asks for them."""
    out, after = [], None
    while True:
        rows = collections.evidence_search(conn, q, filters, after, limit + 1, cache)
        out += rows[:limit]
        if len(rows) <= limit:
            return out
        after = (rows[limit - 1][2], rows[limit - 1][0])


@pytest.mark.parametrize("q", ["battery", "storage capacity", "gri"])
def test_pages_from_the_cache_equal_pages_ranked_afresh(conn, q):
    cache = collections.RankedSearchCache()
    fresh = walk(conn, q, 7)
    # Far more matches than the positions kept, so the walk crosses from kept positions
    # to ranking from the cursor.
    assert len(fresh) > collections.RANKED_POSITIONS_KEPT
    assert walk(conn, q, 7, cache) == fresh
    assert walk(conn, q, 7, cache) == fresh
    assert cache.hits > 0
    ranks = [(-rank, chunk_id) for chunk_id, _body, rank in fresh]
    assert ranks == sorted(ranks)


def test_the_exact_phrase_outranks_the_same_words_apart(conn):
    with conn:
        writer.insert_evidence_chunks(
            conn,
            [
                chunk(9001, "zeta storage report on omega battery rooms"),
                chunk(9002, "the battery storage omega of zeta"),
            ],
            authority="official_filing",
            redistribution_policy="links_only",
            known_from="2024-01-01T00:00:00Z",
        )
    rows = collections.evidence_search(conn, "battery storage omega", {}, None, 5)
    rank = {chunk_id: rank for chunk_id, _body, rank in rows}
    assert rows[0][0] == "chunk-9002"
    assert rank["chunk-9002"] - rank["chunk-9001"] >= 9  # the bonus, not a bm25 difference


def test_a_change_to_the_evidence_makes_cached_rankings_stale(conn):
    cache = collections.RankedSearchCache()
    assert collections.evidence_search(conn, "xylophone", {}, None, 5, cache) == []
    with conn:
        writer.insert_evidence_chunks(
            conn,
            [chunk(9100, "substation xylophone")],
            authority="official_filing",
            redistribution_policy="links_only",
            known_from="2025-01-01T00:00:00Z",
        )
    after = collections.evidence_search(conn, "xylophone", {}, None, 5, cache)
    assert [chunk_id for chunk_id, _body, _rank in after] == ["chunk-9100"]

    # Closing chunks (an update, as a re-harvest does) changes what a known_at filter sees.
    known_at = {"known_at": "2026-01-01T00:00:00Z"}
    seen = walk(conn, "substation", 50, cache, **known_at)
    with conn:
        conn.execute("UPDATE evidence_chunks SET known_to = '2025-06-01T00:00:00Z'")
    assert seen and walk(conn, "substation", 50, cache, **known_at) == []
    # Without known_at a search sees current knowledge only: nothing is current now.
    assert walk(conn, "substation", 50, cache) == []
    assert walk(conn, "substation", 50, cache, known_at="2025-01-01T00:00:00Z")


def test_filters_apply_to_cached_and_fresh_rankings_alike(conn):
    cache = collections.RankedSearchCache()
    for filters in ({"source_id": "SRC-B"}, {"kind": "table"}, {"page": 2}):
        fresh = walk(conn, "capacity", 9, **filters)
        assert fresh and walk(conn, "capacity", 9, cache, **filters) == fresh
        for _id, body, _rank in fresh:
            record = json.loads(body)
            if "source_id" in filters:
                assert record["sourceId"] == "src-b"
            if "kind" in filters:
                assert record["kind"] == "table"
            if "page" in filters:
                assert record["page"] == 2


def test_a_store_written_before_the_ranking_tables_is_filled_on_open(conn, tmp_path):
    expected = walk(conn, "battery storage", 20)
    # What an older file looks like: chunks and the stemmed index, nothing else.
    with conn:
        conn.execute("DROP TRIGGER evidence_chunks_ai")
        conn.execute("DROP TRIGGER evidence_chunks_au")
        conn.execute("DROP TRIGGER evidence_chunks_ad")
        conn.execute("DROP TABLE evidence_keys")
        conn.execute("DROP TABLE evidence_exact")
    conn.close()

    reopened = connect(tmp_path / "store.db")
    init_schema(reopened)
    try:
        assert reopened.execute("SELECT count(*) FROM evidence_keys").fetchone()[0] == N_CHUNKS
        assert walk(reopened, "battery storage", 20) == expected
    finally:
        reopened.close()


def test_a_first_asking_ranks_one_page_and_the_next_page_ranks_the_kept_positions(
    conn, monkeypatch
):
    asked: list[int] = []
    rank = collections._ranked_keys
    monkeypatch.setattr(
        collections, "_ranked_keys", lambda *args: asked.append(args[-1]) or rank(*args)
    )
    cache = collections.RankedSearchCache()

    def first_pages(count: int, limit: int = 7) -> list:
        out, after = [], None
        for _ in range(count):
            rows = collections.evidence_search(conn, "battery", {}, after, limit + 1, cache)
            out += rows[:limit]
            after = (rows[limit - 1][2], rows[limit - 1][0])
        return out

    first_pages(1)
    # One page and the row that tells whether there is more, plus one: not 200 positions.
    assert asked == [9]
    asked.clear()
    shown = first_pages(5)
    # The first page past the one ranked ranks every kept position, once.
    assert asked == [collections.RANKED_POSITIONS_KEPT + 1]
    asked.clear()
    assert first_pages(5) == shown
    assert asked == [], "pages already seen are answered from the kept positions"
    monkeypatch.setattr(collections, "_ranked_keys", rank)
    assert shown == walk(conn, "battery", 7)[:35]
