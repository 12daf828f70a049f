"""Evidence ranking on PostgreSQL, computed as SQLite's FTS5 computes it.

SQLite ranks a match by `-bm25(evidence_fts)` (k1 = 1.2, b = 0.75; per term an IDF of
ln((N - n + 0.5) / (n + 0.5)), at least 1e-6), plus a bonus when the user's words appear as
an exact phrase, rounded to 6 decimals (`collections._ranked_keys`). This module computes the
same figure from the stored tsvectors (schema migration 0001): every term must match (the
last one as a prefix when it is long enough), N and n count every chunk as the FTS5 index
does, term frequencies and document lengths come from the tsvector positions. The same data
therefore gets the same ranks, and the same cursors, on both backends.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from gridservice.store.search import scoring

_TERM = re.compile(r"[^\W_]+", re.UNICODE)  # FTS5 unicode61: letters and digits only

FILTER_COLUMNS = ("source_id", "authority", "redistribution_policy", "kind", "page")


def filter_clauses(
    filters: Mapping[str, Any], alias: str, mark: str
) -> tuple[list[str], list[Any]]:
    """The conditions a search's filters make on the chunk columns under `alias`, with
    `mark` for a parameter: what is known now unless `known_at` asks for another instant
    (chunks a newer harvest of their source closed are left out, as for facts)."""
    clauses: list[str] = []
    params: list[Any] = []
    for key, value in filters.items():
        if value is None or key == "known_at":
            continue
        if key not in FILTER_COLUMNS:
            raise KeyError(key)
        clauses.append(f"{alias}.{key} = {mark}")
        params.append(value)
    known_at = filters.get("known_at")
    if known_at is None:
        clauses.append(f"{alias}.known_to IS NULL")
    else:
        clauses.append(
            f"{alias}.known_from <= {mark} AND ({alias}.known_to IS NULL "
            f"OR {alias}.known_to > {mark})"
        )
        params += [known_at, known_at]
    return clauses, params


# A chunk's rank: its bm25 summed term by term in numeric arithmetic, plus the phrase bonus,
# rounded to 6 decimals. `{freq}` is the term's frequency in the chunk (a query on `w`, `c`).
_SCORE = """round((
        (SELECT sum(w.idf * f.freq * 2.2
                    / (f.freq + 1.2 * (0.25 + 0.75 * c.token_count / corpus.avgdl)))
         FROM weights w CROSS JOIN LATERAL ({freq}) f)
        + CASE WHEN c.search_exact @@ to_tsquery('gds_exact', %s) THEN %s ELSE 0 END
    )::numeric, 6)::float8"""

_RANKED = (
    """
WITH terms AS MATERIALIZED (
    SELECT t.position, t.prefix,
           (tsvector_to_array(to_tsvector('gds_stemmed', t.term)))[1] AS lexeme
    FROM unnest(%s::text[], %s::boolean[]) WITH ORDINALITY AS t(term, prefix, position)
),
corpus AS MATERIALIZED (SELECT count(*) AS n, avg(token_count) AS avgdl FROM evidence_chunks),
weights AS MATERIALIZED (
    SELECT terms.*, greatest(ln((corpus.n - hits.n + 0.5) / (hits.n + 0.5)), 1e-6) AS idf
    FROM terms CROSS JOIN corpus CROSS JOIN LATERAL (
        SELECT count(*) AS n FROM evidence_chunks e
        WHERE e.search_stemmed @@ to_tsquery('simple', quote_literal(terms.lexeme)
            || CASE WHEN terms.prefix THEN ':*' ELSE '' END)
    ) hits
),
matched AS (
    SELECT c.rowid AS rid, c.chunk_id AS id, """
    + _SCORE.format(
        freq="SELECT coalesce(sum(array_length(u.positions, 1)), 0) AS freq "
        "FROM unnest(c.search_stemmed) u "
        "WHERE u.lexeme = w.lexeme OR (w.prefix AND starts_with(u.lexeme, w.lexeme))"
    )
    + """ AS rank
    FROM evidence_chunks c CROSS JOIN corpus
    WHERE c.search_stemmed @@ to_tsquery('gds_stemmed', %s)
      AND {filters}
)
SELECT rank, id, rid FROM matched {after} ORDER BY rank DESC, id ASC LIMIT %s
"""
)

# The same rank for given chunks, their term frequencies (comma-separated, term by term),
# each term's chunk count and the corpus totals given (store/search/postgres_impacts.py): the
# same expression on the same values, so the same figure as ranking every match.
SCORE_GIVEN = (
    """
WITH corpus AS MATERIALIZED (SELECT %s::bigint AS n, %s::numeric AS avgdl),
weights AS MATERIALIZED (
    SELECT t.position, greatest(ln((corpus.n - t.n + 0.5) / (t.n + 0.5)), 1e-6) AS idf
    FROM unnest(%s::bigint[]) WITH ORDINALITY AS t(n, position) CROSS JOIN corpus
),
matched AS (
    SELECT c.rowid AS rid, c.chunk_id AS id, """
    + _SCORE.format(freq="SELECT g.tfs[w.position] AS freq")
    + """ AS rank
    FROM unnest(%s::bigint[], %s::text[]) AS given(rid, tfs_text)
    CROSS JOIN LATERAL (SELECT string_to_array(given.tfs_text, ',')::bigint[] AS tfs) g
    JOIN evidence_chunks c ON c.rowid = given.rid CROSS JOIN corpus
    WHERE {filters}
)
SELECT rank, id, rid FROM matched WHERE TRUE {after}
"""
)


def search_terms(text: str) -> list[str]:
    """The user's words as FTS5's unicode61 tokeniser splits them."""
    return _TERM.findall(text)


def ranked_keys(
    conn: Any,
    terms: list[str],
    prefix_last: bool,
    filters: Mapping[str, Any],
    page: tuple[tuple[float, str] | None, int],
    *,
    phrase_bonus: float,
) -> list[tuple[float, str, int]]:
    """Return (rank, chunk id, rowid) of the first matches after the cursor, ranking every match.

    `page` is the cursor's (rank, chunk id) or None, and how many matches to return; the
    impact index (`search.postgres_impacts`) is asked first by the caller."""
    if not terms:
        return []
    after, limit = page
    prefix = [False] * len(terms)
    prefix[-1] = prefix_last
    scoring.USES["exact"] += 1
    star = ":*" if prefix[-1] else ""
    match = " & ".join(f"'{t}'" for t in terms) + star
    phrase = " <-> ".join(f"'{t}'" for t in terms) + star
    clauses, params = filter_clauses(filters, "c", "%s")
    after_sql, after_params = "", []
    if after is not None:
        after_sql = "WHERE rank < %s OR (rank = %s AND id > %s)"
        after_params = [after[0], after[0], after[1]]
    sql = _RANKED.format(filters=" AND ".join(clauses), after=after_sql)
    rows = conn.raw.execute(
        sql, (terms, prefix, phrase, phrase_bonus, match, *params, *after_params, limit)
    ).fetchall()
    return [(float(r[0]), r[1], r[2]) for r in rows]
