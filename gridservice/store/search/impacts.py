"""An impact index for evidence search: the first page of a broad term without ranking
every match, with the same ranks, order and cursors as the exact path.

The exact path (`collections._ranked_keys`) scores every chunk that matches with FTS5's
`bm25` and sorts them all, which grows with the chunks a broad term is found in. This
index lets a search stop early and still prove its page is exact.

What is stored (`build`): chunks are numbered in chunk-id order (`seq`, the order ties are
broken in) and cut into blocks of `BLOCK_SIZE`. For every stemmed term found in at least
`MIN_DF` chunks (and 1/32 of them), `evidence_term_blocks` holds per (term, block) the
block's postings (rowid, seq, term frequency, chunk length, whether the chunk is current)
and `evidence_term_stats.bounds` the largest bm25 term part in each block.
`evidence_term_stats` holds every term of the stemmed index with the number of chunks it
is in; `evidence_exact_terms` every term of the unstemmed one. `meta` names the evidence
generation, FTS5's totals and the block size the index was built with; at any other
generation the search takes the exact path, so the index can be late but never wrong.

A search (`ranked_keys`) bounds each block's best possible rank by the sum of the terms'
largest parts times their IDF, plus the exact-phrase bonus; visits blocks best bound
first, scoring their chunks as FTS5's bm25 does (same formula, same order of
floating-point operations, the rank rounded by SQLite's own ROUND); and skips a block once
it cannot hold a chunk ranked before the page's last one: its bound rounds below that
rank, or to that rank while every chunk in it comes later in chunk-id order. Whenever the
fast path cannot tell a query's terms as FTS5 does (a word that is not one token, a
prefix that expands to more than one term, a term without postings), or the bounds prune
too little (a budget of blocks), it returns None and the caller ranks exactly as before.
"""

from __future__ import annotations

import sqlite3
import threading
from collections import Counter
from functools import lru_cache
from typing import Any

from gridservice.store.pg import is_postgres
from gridservice.store.search import postgres_impacts, scoring
from gridservice.store.search.scoring import (
    BOUND,
    MIN_DF,
    POSTING,
    best_of_blocks,
    block_order,
    bm25,
    idf,
    term_part,
)


def _varints(blob: bytes) -> list[int]:
    """Decode SQLite varints (as FTS5 stores its sizes and counts)."""
    out, value, i = [], 0, 0
    n = 0
    while i < len(blob):
        byte = blob[i]
        i += 1
        n += 1
        if n == 9:
            out.append((value << 8) | byte)
            value, n = 0, 0
        elif byte & 0x80:
            value = (value << 7) | (byte & 0x7F)
        else:
            out.append((value << 7) | byte)
            value, n = 0, 0
    return out


def index_totals(conn: sqlite3.Connection) -> tuple[int, int] | None:
    """(rows, tokens) of evidence_fts as bm25 reads them (the FTS5 averages record)."""
    row = conn.execute("SELECT block FROM evidence_fts_data WHERE id = 1").fetchone()
    if row is None:
        return None
    values = _varints(bytes(row[0]))
    return (values[0], sum(values[1:])) if len(values) >= 2 else None


# ------------------------------------------------------------------------------ building


def _has_index(conn: sqlite3.Connection) -> bool:
    return (
        conn.execute(
            "SELECT count(*) FROM sqlite_master WHERE name IN "
            "('evidence_term_stats', 'evidence_term_blocks', 'evidence_exact_terms')"
        ).fetchone()[0]
        == 3
    )


def build(conn: sqlite3.Connection, *, min_df: int = MIN_DF) -> bool:
    """Rebuild the impact index for the evidence as it is now (one transaction).

    Returns False, leaving the index empty, when chunk ids are not unique (ties could not
    be broken by a numbering then). On PostgreSQL: `postgres_impacts.build`.
    """
    if is_postgres(conn):
        return postgres_impacts.build(conn, min_df=min_df)
    if not _has_index(conn):
        return False
    with conn:
        conn.execute("DELETE FROM evidence_term_blocks")
        conn.execute("DELETE FROM evidence_term_stats")
        conn.execute("DELETE FROM evidence_exact_terms")
        conn.execute("DELETE FROM meta WHERE key LIKE 'evidence_impacts_%'")
        totals = index_totals(conn)
        order = conn.execute(
            "SELECT rowid, chunk_id, known_to IS NULL FROM evidence_keys ORDER BY chunk_id"
        ).fetchall()
        ids = [r[1] for r in order]
        if totals is None or len(set(ids)) != len(ids):
            return False
        rows, tokens = totals
        avgdl = tokens / rows if rows else 1.0
        seq = {r[0]: (i, 1 if r[2] else 0) for i, r in enumerate(order)}
        length = {
            r[0]: _varints(bytes(r[1]))[0] if r[1] else 0
            for r in conn.execute("SELECT id, sz FROM evidence_fts_docsize")
        }
        conn.execute(
            "CREATE VIRTUAL TABLE IF NOT EXISTS temp.gds_vocab_row "
            "USING fts5vocab(main, evidence_fts, row)"
        )
        conn.execute(
            "CREATE VIRTUAL TABLE IF NOT EXISTS temp.gds_vocab_instance "
            "USING fts5vocab(main, evidence_fts, instance)"
        )
        conn.execute(
            "CREATE VIRTUAL TABLE IF NOT EXISTS temp.gds_exact_vocab_row "
            "USING fts5vocab(main, evidence_exact, row)"
        )
        conn.execute("INSERT INTO evidence_exact_terms SELECT term FROM temp.gds_exact_vocab_row")
        vocab = conn.execute("SELECT term, doc FROM temp.gds_vocab_row").fetchall()
        conn.executemany("INSERT INTO evidence_term_stats VALUES (?, ?, NULL)", vocab)
        for term, df in vocab:
            if df < max(min_df, rows // 32):
                continue
            tfs = Counter(
                r[0]
                for r in conn.execute(
                    "SELECT doc FROM temp.gds_vocab_instance WHERE term = ?", (term,)
                )
            )
            blocks: dict[int, list[tuple[int, int, int, int, int]]] = {}
            for rowid, tf in tfs.items():
                if rowid not in seq:
                    continue
                s, current = seq[rowid]
                blocks.setdefault(s // scoring.BLOCK_SIZE, []).append(
                    (rowid, s, tf, length.get(rowid, 0), current)
                )
            conn.executemany(
                "INSERT INTO evidence_term_blocks VALUES (?, ?, ?)",
                [
                    (
                        term,
                        block,
                        b"".join(POSTING.pack(*p) for p in sorted(postings, key=lambda p: p[1])),
                    )
                    for block, postings in blocks.items()
                ],
            )
            bounds = b"".join(
                BOUND.pack(block, max(term_part(p[2], p[3], avgdl) for p in postings))
                for block, postings in sorted(blocks.items())
            )
            conn.execute("UPDATE evidence_term_stats SET bounds = ? WHERE term = ?", (bounds, term))
        generation = conn.execute(
            "SELECT value FROM meta WHERE key = 'evidence_generation'"
        ).fetchone()
        conn.executemany(
            "INSERT INTO meta(key, value) VALUES (?, ?) "
            "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            [
                ("evidence_impacts_generation", generation[0] if generation else "0"),
                ("evidence_impacts_totals", f"{rows} {tokens}"),
                ("evidence_impacts_block_size", str(scoring.BLOCK_SIZE)),
            ],
        )
    return True


def current_block_size(conn: sqlite3.Connection) -> int | None:
    """The block size the impact index was built with, when it was built at the evidence
    generation the store is at (and FTS5's totals agree); else None."""
    if not _has_index(conn):
        return None
    meta = dict(
        conn.execute(
            "SELECT key, value FROM meta WHERE key IN ('evidence_generation', "
            "'evidence_impacts_generation', 'evidence_impacts_totals', "
            "'evidence_impacts_block_size')"
        ).fetchall()
    )
    totals = index_totals(conn)
    current = (
        meta.get("evidence_impacts_generation") == meta.get("evidence_generation", "0")
        and totals is not None
        and meta.get("evidence_impacts_totals") == f"{totals[0]} {totals[1]}"
    )
    size = meta.get("evidence_impacts_block_size")
    return int(size) if current and size else None


def is_current(conn: sqlite3.Connection) -> bool:
    """Whether the impact index was built at the evidence generation the store is at."""
    if is_postgres(conn):
        return postgres_impacts.is_current(conn)
    return current_block_size(conn) is not None


def refresh(conn: sqlite3.Connection) -> bool:
    """Build the index when it is missing or behind the evidence; True when rebuilt.

    On PostgreSQL the same tables are built from the tsvectors (`search.postgres_impacts`)."""
    if is_postgres(conn):
        return postgres_impacts.refresh(conn)
    if is_current(conn):
        return False
    return build(conn)


# ------------------------------------------------------------------------------ searching

_local = threading.local()


@lru_cache(maxsize=4096)
def stems(word: str, tokenizer: str = "porter unicode61") -> tuple[str, ...]:
    """The tokens FTS5's tokeniser (the stemmed index's by default) makes of `word`,
    asked of FTS5 itself in a scratch in-memory table."""
    conn = getattr(_local, "conn", None)
    if conn is None:
        conn = sqlite3.connect(":memory:")
        for name, spec in (("stemmed", "porter unicode61"), ("exact", "unicode61")):
            conn.execute(f"CREATE VIRTUAL TABLE {name} USING fts5(content, tokenize='{spec}')")
            conn.execute(f"CREATE VIRTUAL TABLE {name}_v USING fts5vocab({name}, instance)")
        _local.conn = conn
    table = "stemmed" if tokenizer == "porter unicode61" else "exact"
    with conn:
        conn.execute(f"INSERT INTO {table}(rowid, content) VALUES (1, ?)", (word,))
        out = tuple(r[0] for r in conn.execute(f"SELECT term FROM {table}_v ORDER BY offset"))
        conn.execute(f"DELETE FROM {table}")
    return out


MAX_PHRASE_EXPANSIONS = 16
MAX_BATCH = 8  # blocks scored together once the page is under way


def phrase_without_prefix(conn: sqlite3.Connection, words: list[str], exact: str) -> str:
    """The exact-phrase query with its last word's prefix spelt out as the terms of the
    unstemmed index it stands for (`"a b" OR "a bs"` for `"a b"*`): the same chunks
    match, and FTS5 no longer merges every expansion's whole doclist on each call."""
    if not exact.endswith("*"):
        return exact
    tokens = stems(words[-1], "unicode61")
    if len(tokens) != 1:
        return exact
    rows = conn.execute(
        "SELECT term FROM evidence_exact_terms WHERE term >= ? ORDER BY term LIMIT ?",
        (tokens[0], MAX_PHRASE_EXPANSIONS + 1),
    ).fetchall()
    expansions = [r[0] for r in rows if r[0].startswith(tokens[0])]
    if not expansions or len(expansions) > MAX_PHRASE_EXPANSIONS:
        return exact
    return " OR ".join('"' + " ".join([*words[:-1], term]) + '"' for term in expansions)


def _index_term(
    conn: sqlite3.Connection, word: str, prefix: bool
) -> tuple[str, int, bytes | None] | None:
    """The one index term a query word matches (with its chunk count and block bounds),
    or None."""
    tokens = stems(word)
    if len(tokens) != 1:
        return None
    token = tokens[0]
    if not prefix:
        found = conn.execute(
            "SELECT term, df, bounds FROM evidence_term_stats WHERE term = ?", (token,)
        ).fetchone()
        return (found[0], found[1], found[2]) if found else None
    rows = conn.execute(
        "SELECT term, df, bounds FROM evidence_term_stats WHERE term >= ? ORDER BY term LIMIT 2",
        (token,),
    ).fetchall()
    matching = [r for r in rows if r[0].startswith(token)]
    return (matching[0][0], matching[0][1], matching[0][2]) if len(matching) == 1 else None


def _rounded(conn: sqlite3.Connection, values: list[float]) -> list[float]:
    """SQLite's ROUND(value, 6) of each value, as the exact path's SQL rounds ranks."""
    out: list[float] = []
    for start in range(0, len(values), 500):
        part = values[start : start + 500]
        sql = "SELECT " + ", ".join(["ROUND(?, 6)"] * len(part))
        out.extend(float(v) for v in conn.execute(sql, part).fetchone())
    return out


def ranked_keys(
    conn: sqlite3.Connection,
    words: list[str],
    prefix_last: bool,
    exact: str,
    key_clauses: tuple[list[str], list[Any]],
    after: tuple[float, str] | None,
    limit: int,
    *,
    phrase_bonus: float,
) -> list[tuple[float, str, int]] | None:
    """The exact path's answer by way of the impact index, or None when it cannot say.

    `key_clauses` are the exact path's conditions on `evidence_keys k` (filters and what
    is known when); when they are only "current knowledge", the postings' flag answers.
    """
    block_size = current_block_size(conn) if scoring.ENABLED and words and limit >= 1 else None
    if block_size is None:
        return None
    terms, blocks = [], []
    for i, word in enumerate(words):
        found = _index_term(conn, word, prefix_last and i == len(words) - 1)
        if found is None or found[2] is None:
            return None  # no such term, or a rare one (few matches: the exact path is quick)
        if found[1] < scoring.FAST_MIN_MATCHES:
            return None
        terms.append(found[:2])
        blocks.append(dict(BOUND.iter_unpack(found[2])))
    rows, tokens = index_totals(conn) or (0, 0)
    if rows == 0:
        return None
    exact = phrase_without_prefix(conn, words, exact)
    avgdl = tokens / rows
    weights = [idf(rows, df) for _term, df in terms]
    # Filters are checked chunk by chunk against evidence_keys: a shorter budget.
    filtered = key_clauses[0] != ["k.known_to IS NULL"]

    def score(blocks: list[int], floor: float) -> list[tuple[float, int, int]]:
        scored = _score_blocks(
            conn, terms, weights, avgdl, blocks, exact, key_clauses, phrase_bonus, floor
        )
        return scored if after is None else _after(conn, scored, after)

    order = block_order(blocks, weights, phrase_bonus)
    budget = 3 * MAX_BATCH if filtered else max(8 * MAX_BATCH, len(order) // 8)
    heap = best_of_blocks(order, block_size, limit, score, budget=budget, max_batch=MAX_BATCH)
    if heap is None:
        return None
    ranked = heap
    if not ranked:
        return []
    marks = ",".join("?" * len(ranked))
    ids = dict(
        conn.execute(
            f"SELECT rowid, chunk_id FROM evidence_keys WHERE rowid IN ({marks})",
            [e[2] for e in ranked],
        ).fetchall()
    )
    return [(rank, ids[rowid], rowid) for rank, _seq, rowid in ranked]


def _score_blocks(
    conn, terms, weights, avgdl, blocks, exact, keys, phrase_bonus, floor
) -> list[tuple[float, int, int]]:
    """(rank, -seq, rowid) of the blocks' chunks that match every term and the filters and
    whose score is at least `floor` (below it a chunk ranks after the page's last)."""
    postings: list[dict[int, tuple[int, int, int, int]]] = []
    marks = ",".join("?" * len(blocks))
    for term, _df in terms:
        postings.append(
            {
                p[0]: p[1:]
                for row in conn.execute(
                    "SELECT postings FROM evidence_term_blocks "
                    f"WHERE term = ? AND block IN ({marks})",
                    (term, *blocks),
                )
                for p in POSTING.iter_unpack(row[0])
            }
        )
    rowids = set(postings[0]).intersection(*postings[1:])
    clauses, params = keys
    if clauses == ["k.known_to IS NULL"]:  # current knowledge: the postings' flag says
        rowids = {r for r in rowids if postings[0][r][3]}
    elif rowids:
        marks = ",".join("?" * len(rowids))
        rowids = {
            r[0]
            for r in conn.execute(
                f"SELECT k.rowid FROM evidence_keys k WHERE k.rowid IN ({marks}) "
                f"AND {' AND '.join(clauses)}",
                [*rowids, *params],
            )
        }
    scores = {rowid: bm25(weights, postings, rowid, avgdl) for rowid in rowids}
    # A chunk below the floor even with the phrase bonus is not asked about the phrase.
    live = sorted(r for r, score in scores.items() if score + phrase_bonus >= floor)
    if not live:
        return []
    phrase = _phrase_rowids(conn, exact, live)
    scored = [(r, scores[r] + phrase_bonus if r in phrase else scores[r]) for r in live]
    scored = [(r, score) for r, score in scored if score >= floor]
    ranks = _rounded(conn, [score for _r, score in scored])
    return [(rank, -postings[0][r][0], r) for rank, (r, _score) in zip(ranks, scored, strict=True)]


def _phrase_rowids(conn: sqlite3.Connection, exact: str, order: list[int]) -> set[int]:
    """Which of the chunks (sorted rowids) hold the exact phrase, asked of the unstemmed
    index over the few rowid runs they fall in (not one lookup per chunk: FTS5 would
    parse and seek the query again for each)."""
    runs, start = [], order[0]
    for previous, rowid in zip(order, order[1:], strict=False):
        if rowid - previous > 64:
            runs.append((start, previous))
            start = rowid
    runs.append((start, order[-1]))
    sql = " UNION ALL ".join(
        [
            "SELECT rowid FROM evidence_exact WHERE evidence_exact MATCH ? "
            "AND rowid >= ? AND rowid <= ?"
        ]
        * len(runs)
    )
    return {r[0] for r in conn.execute(sql, [v for lo, hi in runs for v in (exact, lo, hi)])}


def _after(conn, scored, after):
    """Keep the entries after the cursor (rank descending, then chunk id)."""
    rank, chunk_id = after
    kept = [e for e in scored if e[0] < rank]
    tied = [e for e in scored if e[0] == rank]
    if tied:
        marks = ",".join("?" * len(tied))
        later = {
            r[0]
            for r in conn.execute(
                f"SELECT rowid FROM evidence_keys WHERE rowid IN ({marks}) AND chunk_id > ?",
                [e[2] for e in tied] + [chunk_id],
            )
        }
        kept += [e for e in tied if e[2] in later]
    return kept
