"""The impact index of evidence search on PostgreSQL: the first page of a broad term without
ranking every match, with the same ranks, order and cursors as ranking them all.

Ranking every match (`postgres.ranked_keys`) unnests the stemmed tsvector of each chunk
that matches and sums its bm25 in numeric arithmetic: for a term found in most of 50,000
chunks that is seconds. This module keeps SQLite's impact index (`search.impacts`: the
same tables, migration 0008, the same block size and bounds) and searches it the same way:
blocks best bound first, a block skipped once it cannot hold a chunk ranked before the
page's last one.

What differs from SQLite is how a chunk is scored. The chunks of the visited blocks that
match every term are scored by the same SQL expression as the exact path
(`postgres.score_sql`) with the same inputs: the term frequencies the postings hold are
the ones the exact path counts from the tsvector, each term's chunk count the one it counts
with the GIN index, and the corpus totals the ones it averages (kept in `meta` when the
index is built, checked by generation). The ranks are therefore the exact path's to the
last digit, and so are the cursors. The bounds are floating point and only decide what to
skip, with a margin far above their rounding error.

The index is rebuilt (`build`) in one transaction under an advisory lock, so two instances
opening the store at once build it once. It is used only while `meta` says it was built at
the evidence generation the store is at: a late index is never a wrong one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from gridservice.store.search import postgres, scoring
from gridservice.store.search.scoring import BOUND, POSTING, bm25, idf, term_part

# Advisory lock key of the index build ("gds" + 7): one builder at a time across instances.
BUILD_LOCK_KEY = 0x67647307
# Round trips cost more than on SQLite (a socket, not a function call): more blocks a batch.
MAX_BATCH = 16


def _has_index(conn: Any) -> bool:
    row = conn.raw.execute(
        "SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema() "
        "AND table_name IN ('evidence_term_stats', 'evidence_term_blocks')"
    ).fetchone()
    return row[0] == 2


def _meta(conn: Any) -> dict[str, str]:
    return dict(
        conn.raw.execute(
            "SELECT key, value FROM meta WHERE key IN ('evidence_generation', "
            "'evidence_impacts_generation', 'evidence_impacts_totals', "
            "'evidence_impacts_block_size')"
        ).fetchall()
    )


def current_state(conn: Any) -> tuple[int, int, str] | None:
    """(block size, chunks, average length as exact text) of an index built at the evidence
    generation the store is at; else None."""
    meta = _meta(conn)
    if meta.get("evidence_impacts_generation") != meta.get("evidence_generation", "0"):
        return None
    totals, size = meta.get("evidence_impacts_totals"), meta.get("evidence_impacts_block_size")
    if not totals or not size:
        return None
    rows, avgdl = totals.split(" ", 1)
    return int(size), int(rows), avgdl


def is_current(conn: Any) -> bool:
    return _has_index(conn) and current_state(conn) is not None


def build(conn: Any, *, min_df: int | None = None) -> bool:
    """Rebuild the index for the evidence as it is now; False (index left empty) when chunk
    ids are not unique or the schema has no index tables."""
    if not _has_index(conn):
        return False
    min_df = scoring.MIN_DF if min_df is None else min_df
    block_size = scoring.BLOCK_SIZE
    conn.commit()
    raw = conn.raw
    with raw.transaction():
        raw.execute("SELECT pg_advisory_xact_lock(%s)", (BUILD_LOCK_KEY,))
        raw.execute("DELETE FROM evidence_term_blocks")
        raw.execute("DELETE FROM evidence_term_stats")
        raw.execute("DELETE FROM meta WHERE key LIKE 'evidence_impacts_%%'")
        rows, avgdl = raw.execute(
            "SELECT count(*), coalesce(avg(token_count), 1)::text FROM evidence_chunks"
        ).fetchone()
        order = raw.execute(
            "SELECT rowid, chunk_id, known_to IS NULL FROM evidence_chunks ORDER BY chunk_id"
        ).fetchall()
        ids = [r[1] for r in order]
        if len(set(ids)) != len(ids):
            return False
        seq = {r[0]: (i, 1 if r[2] else 0) for i, r in enumerate(order)}
        vocab = raw.execute(
            "SELECT word, ndoc FROM ts_stat('SELECT search_stemmed FROM evidence_chunks')"
        ).fetchall()
        _copy(raw, "evidence_term_stats (term, df)", vocab)
        frequent = [term for term, df in vocab if df >= max(min_df, rows // 32)]
        postings: dict[str, dict[int, list[tuple[int, int, int, int, int]]]] = {}
        if frequent:
            found = raw.execute(
                "SELECT u.lexeme, c.rowid, coalesce(array_length(u.positions, 1), 0), "
                "c.token_count FROM evidence_chunks c, unnest(c.search_stemmed) u "
                "WHERE u.lexeme = ANY(%s)",
                (frequent,),
            )
            for term, rowid, tf, length in found:
                s, current = seq[rowid]
                postings.setdefault(term, {}).setdefault(s // block_size, []).append(
                    (rowid, s, tf, length, current)
                )
        average = float(avgdl)
        for blocks in postings.values():
            for entries in blocks.values():
                entries.sort(key=lambda p: p[1])
        _copy(
            raw,
            "evidence_term_blocks (term, block, postings)",
            (
                (term, block, b"".join(POSTING.pack(*p) for p in entries))
                for term, blocks in postings.items()
                for block, entries in blocks.items()
            ),
        )
        for term, blocks in postings.items():
            bounds = b"".join(
                BOUND.pack(block, max(term_part(p[2], p[3], average) for p in entries))
                for block, entries in sorted(blocks.items())
            )
            raw.execute(
                "UPDATE evidence_term_stats SET bounds = %s WHERE term = %s", (bounds, term)
            )
        generation = raw.execute(
            "SELECT value FROM meta WHERE key = 'evidence_generation'"
        ).fetchone()
        for key, value in (
            ("evidence_impacts_generation", generation[0] if generation else "0"),
            ("evidence_impacts_totals", f"{rows} {avgdl}"),
            ("evidence_impacts_block_size", str(block_size)),
        ):
            raw.execute(
                "INSERT INTO meta(key, value) VALUES (%s, %s) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
            )
    return True


def _copy(raw: Any, target: str, rows: Iterable[tuple[Any, ...]]) -> None:
    """Load rows into `target` ("table (columns)") with COPY: one statement for them all."""
    with raw.cursor() as cursor, cursor.copy(f"COPY {target} FROM STDIN") as copy:
        for row in rows:
            copy.write_row(row)


def refresh(conn: Any) -> bool:
    """Build the index when it is missing or behind the evidence; True when rebuilt."""
    if not _has_index(conn) or current_state(conn) is not None:
        return False
    return build(conn)


# ------------------------------------------------------------------------------ searching


def _lexemes(conn: Any, words: list[str]) -> list[str] | None:
    """Each word's one stemmed lexeme as the exact path makes it, or None when a word makes
    none or several (the exact path then answers)."""
    rows = conn.raw.execute(
        "SELECT tsvector_to_array(to_tsvector('gds_stemmed', w)) "
        "FROM unnest(%s::text[]) WITH ORDINALITY AS t(w, i) ORDER BY i",
        (words,),
    ).fetchall()
    out = [r[0] for r in rows]
    return [lex[0] for lex in out] if all(len(lex) == 1 for lex in out) else None


def _index_terms(
    conn: Any, lexemes: list[str], prefix_last: bool
) -> list[tuple[str, int, bytes | None]] | None:
    """(term, chunk count, bounds) of each lexeme (the last one's only expansion when it is a
    prefix), or None when one is missing or a prefix expands to several terms."""
    out = []
    for i, lexeme in enumerate(lexemes):
        if prefix_last and i == len(lexemes) - 1:
            rows = conn.raw.execute(
                "SELECT term, df, bounds FROM evidence_term_stats WHERE term >= %s "
                "ORDER BY term LIMIT 2",
                (lexeme,),
            ).fetchall()
            rows = [r for r in rows if r[0].startswith(lexeme)]
            if len(rows) != 1:
                return None
        else:
            rows = conn.raw.execute(
                "SELECT term, df, bounds FROM evidence_term_stats WHERE term = %s", (lexeme,)
            ).fetchall()
            if not rows:
                return None
        out.append((rows[0][0], rows[0][1], rows[0][2]))
    return out


def ranked_keys(
    conn: Any,
    words: list[str],
    prefix_last: bool,
    filters: Mapping[str, Any],
    page: tuple[tuple[float, str] | None, int],
    phrase_bonus: float,
) -> list[tuple[float, str, int]] | None:
    """The exact path's answer by way of the impact index, or None when it cannot say.

    `page` is the cursor's (rank, chunk id) or None, and how many matches to return."""
    after, limit = page
    if not scoring.ENABLED or not words or limit < 1 or filters.get("known_at"):
        return None
    state = current_state(conn) if _has_index(conn) else None
    if state is None:
        return None
    block_size, rows, avgdl_text = state
    lexemes = _lexemes(conn, words)
    if lexemes is None:
        return None
    found = _index_terms(conn, lexemes, prefix_last)
    if found is None or rows == 0:
        return None
    if any(bounds is None or df < scoring.FAST_MIN_MATCHES for _t, df, bounds in found):
        return None  # a rare term: few matches, ranked quickly the exact way
    terms = [(term, df) for term, df, _b in found]
    blocks = [dict(BOUND.iter_unpack(bounds)) for _t, _df, bounds in found]
    weights = [idf(rows, df) for _term, df in terms]
    query = (words, prefix_last, phrase_bonus)
    scorer = _Scorer(conn, terms, weights, (rows, avgdl_text), query, filters, after)
    order = scoring.block_order(blocks, weights, phrase_bonus)
    filtered = any(v is not None for v in filters.values())
    budget = max(4 * MAX_BATCH, len(order) // (4 if filtered else 8))
    best = scoring.best_of_blocks(
        order, block_size, limit, scorer.score, budget=budget, max_batch=MAX_BATCH
    )
    if best is None:
        return None
    return [(rank, chunk_id, rowid) for rank, _s, rowid, chunk_id in best]


class _Scorer:
    """Scores the matching chunks of some blocks by the exact path's own SQL expression."""

    def __init__(
        self,
        conn: Any,
        terms: list[tuple[str, int]],
        weights: list[float],
        totals: tuple[int, str],
        query: tuple[list[str], bool, float],
        filters: Mapping[str, Any],
        after: tuple[float, str] | None,
    ) -> None:
        """`totals` are the chunks and their average length (exact text); `query` the
        user's words, whether the last is a prefix, and the exact-phrase bonus."""
        words, prefix_last, self.phrase_bonus = query
        self.conn, self.terms, self.weights = conn, terms, weights
        self.avgdl = float(totals[1])
        clauses, params = postgres.filter_clauses(filters, "c", "%s")
        phrase = " <-> ".join(f"'{t}'" for t in words) + (":*" if prefix_last else "")
        after_sql, after_params = "", []
        if after is not None:
            after_sql = "AND (rank < %s OR (rank = %s AND id > %s))"
            after_params = [after[0], after[0], after[1]]
        self.sql = postgres.SCORE_GIVEN.format(filters=" AND ".join(clauses), after=after_sql)
        self.head = [*totals, [df for _t, df in terms], phrase, self.phrase_bonus]
        self.tail = [*params, *after_params]

    def score(self, blocks: list[int], floor: float) -> list[tuple[float, int, int, str]]:
        """(rank, -seq, rowid, chunk id) of the blocks' chunks that match, at least `floor`."""
        postings: list[dict[int, tuple[int, int, int, int]]] = []
        for term, _df in self.terms:
            rows = self.conn.raw.execute(
                "SELECT postings FROM evidence_term_blocks WHERE term = %s AND block = ANY(%s)",
                (term, blocks),
            ).fetchall()
            postings.append({p[0]: p[1:] for row in rows for p in POSTING.iter_unpack(row[0])})
        # Current knowledge only (a search with known_at takes the exact path): the flag says.
        rowids = [r for r in set(postings[0]).intersection(*postings[1:]) if postings[0][r][3]]
        # A chunk below the floor even with the phrase bonus is not scored in SQL.
        live = [
            r
            for r in rowids
            if bm25(self.weights, postings, r, self.avgdl) + self.phrase_bonus >= floor
        ]
        if not live:
            return []
        tfs = [",".join(str(p[r][1]) for p in postings) for r in live]
        found = self.conn.raw.execute(self.sql, (*self.head, live, tfs, *self.tail)).fetchall()
        return [
            (float(rank), -postings[0][rowid][0], rowid, chunk_id)
            for rank, chunk_id, rowid in found
            if float(rank) >= floor
        ]
