"""SQL for the read-only resource collections: keyset pages, single records, evidence search.

Each collection names its table, the condition every row must meet, and one SQL fragment per
filter. Routes hand in filter values already validated and normalised (upper-case-insensitive
columns are declared COLLATE NOCASE in the schema, so `=` is case-insensitive there).
"""

from __future__ import annotations

import bisect
import re
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from gridservice.store import meta_reads
from gridservice.store.pg import is_postgres
from gridservice.store.search import impacts, postgres, postgres_impacts, scoring

Fragment = tuple[str, tuple[Any, ...]]


def _eq(column: str) -> Callable[[Any], Fragment]:
    return lambda value: (f"{column} = ?", (value,))


def _known_at(value: str | None) -> Fragment:
    if value is None:
        return "known_to IS NULL", ()
    return "known_from <= ? AND (known_to IS NULL OR known_to > ?)", (value, value)


def _archived(value: str | None) -> Fragment:
    """Archived sites leave the default list (`exclude`); `include` and `only` bring them."""
    # A body stored holding NUL (as the escape \u0000) is read with U+FFFD in its place:
    # PostgreSQL's jsonb refuses NUL, and one such site must not fail the tenant's list.
    archived = "json_extract(replace(body, '\\u0000', '\\ufffd'), '$.archivedAt') IS NOT NULL"
    if value == "include":
        return "1 = 1", ()
    return (archived if value == "only" else f"NOT ({archived})"), ()


_FACT_FILTERS: dict[str, Callable[[Any], Fragment]] = {
    "market": _eq("market"),
    "period": _eq("period"),
    "valid_at": lambda d: ("valid_from <= ? AND valid_to >= ?", (d, d)),
}


@dataclass(frozen=True)
class Collection:
    table: str
    where: str = "TRUE"
    filters: Mapping[str, Callable[[Any], Fragment]] = field(default_factory=dict)
    # Filters applied even when absent (called with None), e.g. "current knowledge".
    always: Mapping[str, Callable[[Any], Fragment]] = field(default_factory=dict)
    id_column: str = "id"


COLLECTIONS: dict[str, Collection] = {
    "load-forecasts": Collection(
        "facts", "kind = 'load_forecast'", _FACT_FILTERS, {"known_at": _known_at}
    ),
    "resource-adequacy": Collection(
        "facts", "kind = 'resource_adequacy'", _FACT_FILTERS, {"known_at": _known_at}
    ),
    "generators": Collection(
        "generators",
        filters={
            "state": _eq("state"),
            "status": _eq("status"),
            "ba_code": _eq("ba_code"),
            "technology": _eq("technology"),
            "plant_id": _eq("plant_id"),
            "min_capacity_mw": lambda v: ("capacity_mw >= ?", (v,)),
            "max_capacity_mw": lambda v: ("capacity_mw <= ?", (v,)),
        },
        always={
            "source_id": lambda v: ("is_current = 1", ()) if v is None else ("source_id = ?", (v,))
        },
    ),
    "generation-plants": Collection(
        "generation_plants",
        filters={"state": _eq("state"), "county": _eq("county"), "ba_code": _eq("ba_code")},
    ),
    "generator-operations": Collection(
        "generator_operations",
        filters={
            "plant_id": _eq("plant_id"),
            "generator_id": _eq("generator_id"),
            "ba_code": _eq("ba_code"),
            "state": _eq("state"),
            "period": _eq("period"),
        },
    ),
    "balancing-authority-operations": Collection(
        "ba_operations",
        filters={
            "ba_code": _eq("ba_code"),
            "region": _eq("region"),
            "start": lambda v: ("utc_time >= ?", (v,)),
            "end": lambda v: ("utc_time < ?", (v,)),
        },
    ),
    "transmission-projects": Collection(
        "transmission_projects",
        filters={
            "status": _eq("status"),
            "county": lambda v: (
                "id IN (SELECT project_id FROM transmission_project_counties WHERE county = ?)",
                (v,),
            ),
        },
    ),
    "docket-filings": Collection(
        "docket_filings", filters={"control_number": _eq("control_number")}
    ),
    "queue-records": Collection("queue_records"),
    "sites": Collection(
        "sites", filters={"tenant_id": _eq("tenant_id")}, always={"archived": _archived}
    ),
    "site-assessments": Collection(
        "assessments", filters={"tenant_id": _eq("tenant_id"), "site_id": _eq("site_id")}
    ),
}


def page(
    conn: sqlite3.Connection,
    name: str,
    filters: Mapping[str, Any],
    after_id: str | None,
    limit: int,
) -> list[tuple[str, str]]:
    """Return up to `limit` (id, body JSON) rows after `after_id`, in id order."""
    spec = COLLECTIONS[name]
    clauses, params = [spec.where], []
    for key, make in spec.always.items():
        sql, values = make(filters.get(key))
        clauses.append(sql)
        params.extend(values)
    for key, value in filters.items():
        if value is None or key in spec.always:
            continue
        sql, values = spec.filters[key](value)
        clauses.append(sql)
        params.extend(values)
    if after_id is not None:
        clauses.append("id > ?")
        params.append(after_id)
    sql = f"SELECT id, body FROM {spec.table} WHERE {' AND '.join(clauses)} ORDER BY id LIMIT ?"
    return conn.execute(sql, (*params, limit)).fetchall()


_SINGLE = {
    "queue_record_details": ("queue_record_details", "record_id"),
    "queue_record_evidence": ("queue_record_evidence", "record_id"),
    "queue_record": ("queue_records", "id"),
}


def record_body(conn: sqlite3.Connection, kind: str, record_id: str) -> str | None:
    """Return the stored JSON of one public record, or None."""
    table, key = _SINGLE[kind]
    row = conn.execute(f"SELECT body FROM {table} WHERE {key} = ?", (record_id,)).fetchone()
    return row[0] if row else None


_TERM = re.compile(r"\w+", re.UNICODE)


# A shorter last term would expand to every indexed token it begins, walking much of the
# index for one keystroke; it is matched as a whole word instead.
MIN_PREFIX_CHARS = 3


def fts_query(text: str) -> str | None:
    """Return an FTS5 MATCH expression with every user term quoted; the last is a prefix
    when it has at least MIN_PREFIX_CHARS characters."""
    terms = _TERM.findall(text)
    if not terms:
        return None
    quoted = ['"' + t.replace('"', '""') + '"' for t in terms]
    if len(terms[-1]) >= MIN_PREFIX_CHARS:
        quoted[-1] += "*"
    return " ".join(quoted)


def exact_phrase_query(text: str) -> str | None:
    """Return an FTS5 phrase of every user term in order (the last one a prefix, as in
    fts_query), matched against the unstemmed index for the exact-phrase bonus."""
    terms = _TERM.findall(text)
    if not terms:
        return None
    phrase = '"' + " ".join(terms).replace('"', '""') + '"'
    return phrase + "*" if len(terms[-1]) >= MIN_PREFIX_CHARS else phrase


# bm25 is negated so that larger is better; the user's words as an exact phrase (unstemmed,
# adjacent, in order) add a bonus so it outranks the same words scattered through a chunk.
_PHRASE_BONUS = 10.0

# How many leading positions of a ranking are kept per query: ten pages of the default 20.
RANKED_POSITIONS_KEPT = 200

RankedKey = tuple[float, str, int]  # rank, chunk id, rowid


class RankedSearchCache:
    """Rankings of recent searches, so that a query asked again, or its next page, does
    not rank every match again.

    An entry holds the leading RANKED_POSITIONS_KEPT positions of one query with its
    filters, and whether they are all there is. It is valid while
    `meta.evidence_generation` is unchanged: every insert, update or delete of an evidence
    chunk bumps it (schema triggers), so a harvest makes every entry stale at once.
    Bounded (least recently used out first); safe to share between threads.
    """

    def __init__(self, max_queries: int = 128) -> None:
        self._max_queries = max_queries
        self._entries: OrderedDict[tuple[Any, ...], tuple[str, list[RankedKey], bool]] = (
            OrderedDict()
        )
        self._lock = threading.Lock()
        self.hits = self.misses = 0

    def get(self, key: tuple[Any, ...], generation: str) -> tuple[list[RankedKey], bool] | None:
        with self._lock:
            entry = self._entries.get(key)
            if entry is None or entry[0] != generation:
                self.misses += 1
                return None
            self._entries.move_to_end(key)
            self.hits += 1
            return entry[1], entry[2]

    def put(
        self, key: tuple[Any, ...], generation: str, ranked: list[RankedKey], complete: bool
    ) -> None:
        with self._lock:
            self._entries[key] = (generation, ranked, complete)
            self._entries.move_to_end(key)
            while len(self._entries) > self._max_queries:
                self._entries.popitem(last=False)


def _ranked_keys(
    conn: sqlite3.Connection,
    q: str,
    match: str,
    exact: str,
    filters: Mapping[str, Any],
    after: tuple[float, str] | None,
    limit: int,
) -> list[RankedKey]:
    """Return the first `limit` matches after `after`: by way of the impact index when it
    can answer (`search.impacts`), else ranking every match on the narrow key table."""
    if is_postgres(conn):
        terms = postgres.search_terms(q)
        prefix_last = bool(terms) and len(terms[-1]) >= MIN_PREFIX_CHARS
        page = (after, limit)
        fast = postgres_impacts.ranked_keys(conn, terms, prefix_last, filters, page, _PHRASE_BONUS)
        if fast is not None:
            return fast
        return postgres.ranked_keys(
            conn, terms, prefix_last, filters, page, phrase_bonus=_PHRASE_BONUS
        )
    clauses, params = postgres.filter_clauses(filters, "k", "?")
    words = _TERM.findall(q)
    # What was known at another instant is asked rarely, and by each chunk's dates, which
    # the impact index does not hold: ranked the exact way.
    fast = (
        None
        if filters.get("known_at")
        else impacts.ranked_keys(
            conn,
            words,
            len(words[-1]) >= MIN_PREFIX_CHARS,
            exact,
            (clauses, params),
            after,
            limit,
            phrase_bonus=_PHRASE_BONUS,
        )
    )
    if fast is not None:
        return fast
    scoring.USES["exact"] += 1
    clauses, params = ["evidence_fts MATCH ?", *clauses], [match, *params]
    inner = (
        "SELECT k.rowid AS rid, k.chunk_id AS id, ROUND(-bm25(evidence_fts) + CASE WHEN "
        "evidence_fts.rowid IN (SELECT rowid FROM evidence_exact WHERE evidence_exact MATCH ?) "
        "THEN ? ELSE 0 END, 6) AS rank "
        "FROM evidence_fts JOIN evidence_keys k ON k.rowid = evidence_fts.rowid "
        f"WHERE {' AND '.join(clauses)}"
    )
    sql = f"SELECT rank, id, rid FROM ({inner})"
    outer_params: list[Any] = []
    if after is not None:
        sql += " WHERE rank < ? OR (rank = ? AND id > ?)"
        outer_params = [after[0], after[0], after[1]]
    sql += " ORDER BY rank DESC, id ASC LIMIT ?"
    rows = conn.execute(sql, (exact, _PHRASE_BONUS, *params, *outer_params, limit)).fetchall()
    return [(float(r[0]), r[1], r[2]) for r in rows]


def _page_of_kept(
    conn: sqlite3.Connection,
    q: str,
    queries: tuple[str, str],
    filters: Mapping[str, Any],
    after: tuple[float, str] | None,
    limit: int,
    kept: tuple[list[RankedKey], bool],
) -> tuple[list[RankedKey], tuple[list[RankedKey], bool] | None] | None:
    """Return the page after `after` from a query's kept positions, extending them to all
    RANKED_POSITIONS_KEPT when the page reaches past them (with the longer kept positions
    to store, or None when unchanged); None when the cursor lies past them."""
    ranked, complete = kept
    # First position strictly after the cursor in (rank desc, id asc) order.
    start = 0
    if after is not None:
        start = bisect.bisect_right(ranked, (-after[0], after[1]), key=lambda r: (-r[0], r[1]))
    if complete or start + limit <= len(ranked):
        return ranked[start : start + limit], None
    past_end = start == len(ranked) and (
        not ranked or after is None or (ranked[-1][0], ranked[-1][1]) != after
    )
    if past_end or len(ranked) >= RANKED_POSITIONS_KEPT:
        return None
    # The rest of the kept positions at once, from the top: ranking from deeper in the order
    # costs about as much as ranking down to there, so once beats a cursor per page.
    longer = _ranked_keys(conn, q, *queries, filters, None, RANKED_POSITIONS_KEPT + 1)
    complete = len(longer) <= RANKED_POSITIONS_KEPT
    return longer[start : start + limit], (longer[:RANKED_POSITIONS_KEPT], complete)


def evidence_search(
    conn: sqlite3.Connection,
    q: str,
    filters: Mapping[str, Any],
    after: tuple[float, str] | None,
    limit: int,
    cache: RankedSearchCache | None = None,
) -> list[tuple[str, str, float]]:
    """Return up to `limit` (chunk id, body JSON, rank) by rank descending, then chunk id.

    With a cache, the leading positions of each query's ranking are kept and pages inside
    them are answered without ranking again. A first asking ranks only the page it needs
    (a broad term's later positions cost the most); the first page past it ranks all
    RANKED_POSITIONS_KEPT; a page past those is ranked from the cursor.
    """
    match, exact = fts_query(q), exact_phrase_query(q)
    if match is None or exact is None:
        return []
    page: list[RankedKey] | None = None
    if cache is not None and limit <= RANKED_POSITIONS_KEPT:
        key = (match, exact, tuple(sorted(filters.items())))
        generation = meta_reads.get_meta(conn, "evidence_generation") or "0"
        cached = cache.get(key, generation)
        if cached is None and after is None:
            ranked = _ranked_keys(conn, q, match, exact, filters, None, limit + 1)
            cached = ranked[:RANKED_POSITIONS_KEPT], len(ranked) <= limit
            cache.put(key, generation, *cached)
        found = None
        if cached is not None:
            found = _page_of_kept(conn, q, (match, exact), filters, after, limit, cached)
        if found is not None:
            page, longer = found
            if longer is not None:
                cache.put(key, generation, *longer)
    if page is None:
        page = _ranked_keys(conn, q, match, exact, filters, after, limit)
    if not page:
        return []
    marks = ",".join("?" * len(page))
    bodies = {
        row[0]: row[1]
        for row in conn.execute(
            f"SELECT rowid, body FROM evidence_chunks WHERE rowid IN ({marks})",
            [rid for _rank, _id, rid in page],
        )
    }
    return [(chunk_id, bodies[rid], rank) for rank, chunk_id, rid in page]
