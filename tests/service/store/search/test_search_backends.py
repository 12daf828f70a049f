"""Evidence search ranks the same data the same way on SQLite (FTS5) and PostgreSQL.

Both stores hold the demo data; the queries are drawn from its evidence text: common words,
a prefix, a phrase copied from one chunk (the exact-phrase bonus), and filters.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from demo_store import demo_store_copy
from fastapi.testclient import TestClient

from gridservice.app import create_app
from gridservice.settings import Settings
from gridservice.store import collections
from gridservice.store.db import connect
from gridservice.store.search import scoring

DEMO = {"Authorization": "Bearer gds_demo_alpha"}


@pytest.fixture(scope="module")
def stores(postgres_cluster, postgres_demo_template, tmp_path_factory) -> dict[str, object]:
    sqlite_path = demo_store_copy(tmp_path_factory.mktemp("ranking") / "demo.db")
    return {
        "sqlite": sqlite_path,
        "postgresql": postgres_cluster.new_database(template=postgres_demo_template),
    }


def _queries(sqlite_path: Path) -> list[tuple[str, dict]]:
    conn = connect(sqlite_path)
    contents = [r[0] for r in conn.execute("SELECT content FROM evidence_chunks ORDER BY rowid")]
    conn.close()
    words = Counter(w.lower() for text in contents for w in re.findall(r"[A-Za-z]{4,}", text))
    common = [w for w, _count in words.most_common(8)]
    rare = [w for w, count in words.items() if count == 2][:2]
    phrase = " ".join(re.findall(r"[A-Za-z]+", contents[len(contents) // 2])[2:5])
    return [
        *((word, {}) for word in common),
        *((word, {}) for word in rare),
        (f"{common[0]} {common[1]}", {}),
        (common[2][:3], {}),  # a prefix
        (phrase, {}),
        (phrase.lower()[:-1], {}),  # the phrase with its last word cut: a prefix phrase
        (common[0], {"kind": "table"}),
        (common[1], {"known_at": "2020-01-01T00:00:00Z"}),
    ]


def _ranking(location, q: str, filters: dict) -> list[tuple[str, float]]:
    conn = connect(location)
    try:
        found = collections.evidence_search(conn, q, filters, None, 500)
    finally:
        conn.close()
    return [(chunk_id, rank) for chunk_id, _body, rank in found]


def test_both_backends_rank_the_same_chunks_in_the_same_order_with_the_same_ranks(stores):
    queries = _queries(stores["sqlite"])
    matched = 0
    for q, filters in queries:
        on_sqlite = _ranking(stores["sqlite"], q, filters)
        on_postgres = _ranking(stores["postgresql"], q, filters)
        assert on_postgres == on_sqlite, (q, filters)
        matched += bool(on_sqlite)
    assert matched >= 10  # most queries find evidence: the comparison is not of empty lists


def _first_pages(location, word: str, limit: int, count: int) -> list[list[tuple[str, float]]]:
    """The first `count` pages of a search through the service, each from the last's cursor."""
    settings = Settings.for_store(
        location, demo=True, secret_key=b"r" * 32, rate_limit_burst=100000
    )
    found, params = [], {"q": word, "limit": limit}
    with TestClient(create_app(settings)) as client:
        while len(found) < count:
            page = client.get("/v1/evidence-search", params=params, headers=DEMO).json()
            found.append([(item["chunkId"], item["rank"]) for item in page["data"]])
            if page["meta"]["nextCursor"] is None:
                break
            params = {**params, "cursor": page["meta"]["nextCursor"]}
    return found


def test_paging_a_search_gives_the_same_pages_on_both_backends(stores):
    word = _queries(stores["sqlite"])[5][0]
    on_sqlite = _first_pages(stores["sqlite"], word, 7, 5)
    assert len(on_sqlite) > 1
    assert _first_pages(stores["postgresql"], word, 7, 5) == on_sqlite


@pytest.mark.parametrize("word", ["interconnection", "battery storage"])
def test_a_broad_term_pages_alike_on_both_backends_through_the_impact_index(
    stores, word, monkeypatch
):
    """A term in most chunks: each backend's impact index answers (the demo store is small,
    so the index is let answer for it), page after page past the ranking cache's kept
    positions, with the same chunks, ranks and order as on the other backend."""
    monkeypatch.setattr(scoring, "FAST_MIN_MATCHES", 0)
    pages = {}
    for backend, location in stores.items():
        scoring.USES.clear()
        pages[backend] = _first_pages(location, word, 60, 6)
        # The first page, and any past the ranking cache's kept positions, by the index.
        assert scoring.USES["fast"] >= 1, backend
    assert sum(len(page) for page in pages["sqlite"]) > 100  # several pages
    assert pages["postgresql"] == pages["sqlite"]
