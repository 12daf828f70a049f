"""The surroundings' summary: what a site's dropout rates and interconnection points need of
the queue history, kept per county so a request reads its counties' few rows.

The dropout rates count every project queued in any harvested report of a market, with the
month each status was first or last listed; the interconnection points cite, per point and
county, the newest row naming the point and every project naming it. Read from the history
itself, both grow with every report harvested (at demo scale 100 they read 60,000 to 86,000
rows for one site and took about two thirds of the answer's time). Summarised per county:

- `queue_project_counties`: per market, county and project (upper-case id), the newest month
  its rows there list it as queued (and whether on the large-gen sheet), that row's fuel, its
  first queued month, and the newest month each of the inactive, cancellation and
  commissioning sheets lists it there. The two tables below are made from it.
- `queue_county_outcomes`: per market, county, fuel and outcome, how many of the projects
  named in that county alone were queued there and went inactive, were cancelled or were
  commissioned. A radius adds its counties' counts up (`outcome_counts`), so the dropout
  rates read a few rows per county, not a row per project (7,400 at the dual-certified
  point, demo scale 100). `queue_multi_county_keys` names the few projects named in
  several counties: their rows above are combined within a radius.
- `interconnection_point_counties`: per county and point, its newest naming row and the ids
  of every project naming it there.

The summary is rebuilt when the demo store is built, after a harvest and when the service
opens a store (`refresh`); any change to the four queue-history tables deletes
`meta.surroundings_summary` (triggers), and without it every read below answers from the
history itself, as before. So the summary can be missing but never stale.
"""

from __future__ import annotations

import sqlite3
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from gridservice.store import meta_reads, surroundings_reads, writer
from gridservice.store.pg import is_postgres

Row = dict[str, Any]
SUMMARY_KEY = "surroundings_summary"
SUMMARY_VERSION = "5"  # a change to what the tables hold changes this: they are rebuilt
WATCHED_TABLES = (
    "queue_reports", "queue_history", "interconnection_points", "interconnection_point_projects",
)  # fmt: skip
OUTCOME_COLUMNS = (
    "project_key", "fuel", "county_fips", "first_active", "last_inactive", "last_cancelled",
    "last_commissioned",
)  # fmt: skip


def invalidation_sql() -> str:
    """SQLite triggers that forget the summary when any queue-history table changes (the
    PostgreSQL ones are migration 0009's)."""
    return "\n".join(
        f"CREATE TRIGGER IF NOT EXISTS {table}_summary_{suffix} AFTER {event} ON {table} "
        f"BEGIN DELETE FROM meta WHERE key = '{SUMMARY_KEY}'; END;"
        for table in WATCHED_TABLES
        for event, suffix in (("INSERT", "ai"), ("UPDATE", "au"), ("DELETE", "ad"))
    )


def is_current(conn: sqlite3.Connection) -> bool:
    """Return whether the summary holds what the queue history says now."""
    return meta_reads.get_meta(conn, SUMMARY_KEY) == SUMMARY_VERSION


def refresh(conn: sqlite3.Connection) -> bool:
    """Build the summary when it is missing or behind the history; True when rebuilt. A
    read-only store is left as it is (its reads answer from the history)."""
    if is_current(conn):
        return False
    try:
        return build(conn)
    except sqlite3.OperationalError as error:
        if "readonly" not in str(error):
            raise
        conn.rollback()
        return False


# Per market, county and project: its newest queued row there and its statuses' months.
_OUTCOMES_SQL = (
    "INSERT INTO queue_project_counties (market, county_fips, project_key, newest_active, "
    "fuel, first_active, last_inactive, last_cancelled, last_commissioned) "
    "SELECT market, county_fips, project_key, "
    "CASE WHEN status = 'active' THEN newest END, CASE WHEN status = 'active' THEN fuel END, "
    "first_active, last_inactive, last_cancelled, last_commissioned FROM ("
    + surroundings_reads.ranked_history_sql(
        "upper(r.market), h.county_fips, upper(h.project_id)", "h.county_fips IS NOT NULL"
    )
    + ") AS ranked WHERE place = 1"
)

_OUTCOME_TABLES = ("queue_project_counties", "queue_multi_county_keys", "queue_county_outcomes")
# The projects a market names in more than one county.
_MULTI_COUNTY_SQL = (
    "INSERT INTO queue_multi_county_keys (market, project_key) SELECT market, project_key "
    "FROM queue_project_counties GROUP BY market, project_key HAVING count(*) > 1"
)
# The others, counted per county, fuel and outcome (an outcome listed from the project's
# first queued month on), those queued in their county only.
_COUNTY_COUNTS_SQL = (
    "INSERT INTO queue_county_outcomes (market, county_fips, fuel, inactive, cancelled, "
    "commissioned, projects) SELECT market, county_fips, coalesce(fuel, ''), "
    + ", ".join(
        f"CASE WHEN last_{status} >= first_active AND {newest} THEN 1 ELSE 0 END"
        for status, newest in (
            # Counted once, by the newest word (a tie goes to the later step).
            (
                "inactive",
                "last_inactive > coalesce(last_cancelled, '') "
                "AND last_inactive > coalesce(last_commissioned, '')",
            ),
            (
                "cancelled",
                "last_cancelled >= coalesce(last_inactive, '') "
                "AND last_cancelled > coalesce(last_commissioned, '')",
            ),
            (
                "commissioned",
                "last_commissioned >= coalesce(last_inactive, '') "
                "AND last_commissioned >= coalesce(last_cancelled, '')",
            ),
        )
    )
    + ", count(*) FROM queue_project_counties WHERE newest_active IS NOT NULL "
    "AND (market, project_key) NOT IN (SELECT market, project_key FROM "
    "queue_multi_county_keys) GROUP BY 1, 2, 3, 4, 5, 6"
)


def build(conn: sqlite3.Connection) -> bool:
    """Rebuild both summary tables from the queue history, in one transaction that holds
    the store's write lock (on PostgreSQL its advisory lock: instances opening the store at
    once build it one at a time, and a later one finds it built); True when rebuilt."""
    with conn:
        conn.execute("BEGIN IMMEDIATE")
        if is_current(conn):
            return False
        named = surroundings_reads.point_namings(conn, None)
        for table in (*_OUTCOME_TABLES, "interconnection_point_counties"):
            conn.execute(f"DELETE FROM {table}")
        conn.execute(_OUTCOMES_SQL)
        conn.execute(_MULTI_COUNTY_SQL)
        conn.execute(_COUNTY_COUNTS_SQL)
        conn.executemany(
            "INSERT INTO interconnection_point_counties (point_id, county_fips, report_id, "
            "file_name, worksheet, row, project_ids) VALUES (?, ?, ?, ?, ?, ?, ?)",
            named,
        )
        writer.set_meta(conn, SUMMARY_KEY, SUMMARY_VERSION)
    if is_postgres(conn):
        for table in (*_OUTCOME_TABLES, "interconnection_point_counties"):
            conn.execute(f"ANALYZE {table}")
        conn.commit()
    return True


def _whole_market(conn: sqlite3.Connection, report_ids: Sequence[str]) -> str | None:
    """Return the market (upper case) whose reports are exactly `report_ids`, or None."""
    reports = surroundings_reads.queue_reports(conn)
    wanted = set(report_ids)
    markets = {r["market"].upper() for r in reports if r["report_id"] in wanted}
    if len(markets) != 1:
        return None
    market = markets.pop()
    whole = {r["report_id"] for r in reports if r["market"].upper() == market}
    return market if whole == wanted else None


Outcomes = Counter[tuple[str, str, bool, bool, bool]]


def _count(alike: Outcomes, rows: Iterable[Sequence[Any]]) -> None:
    """Count projects' outcome rows (OUTCOME_COLUMNS' order) by fuel ('unknown' for none),
    county and outcome: a status counts when a report from the project's first queued
    month on lists it."""
    for _, fuel, county, first, *lasts in rows:
        alike[(fuel or "unknown", county, *final_outcome(first, lasts))] += 1


def final_outcome(first: str | None, lasts: Sequence[str | None]) -> tuple[bool, bool, bool]:
    """Return (inactive, cancelled, commissioned) with at most one True: the status whose
    sheet lists the project newest, from its first queued month on (a tie goes to the later
    step), so a project inactive and then cancelled is counted once, as cancelled."""
    listed = [(m, i) for i, m in enumerate(lasts) if m is not None and first and m >= first]
    if not listed:
        return False, False, False
    _, newest = max(listed)
    inactive, cancelled, commissioned = (i == newest for i in range(3))
    return inactive, cancelled, commissioned


def _combined(rows: Iterable[Sequence[Any]]) -> list[tuple]:
    """Return one outcome row per project (OUTCOME_COLUMNS' order) from its rows of several
    counties (project_key, newest_active, fuel, county_fips, first_active and the three last
    months): its newest queued row's fuel and county, its first queued month, the newest
    month of each status; a project never queued in these counties is left out."""
    combined: dict[str, list] = {}
    for key, *place in rows:
        found = combined.get(key)
        if found is None:
            combined[key] = place
            continue
        if place[0] is not None and (found[0] is None or place[0] > found[0]):
            found[:3] = place[:3]  # a newer queued row: its fuel and county
        firsts = [m for m in (found[3], place[3]) if m is not None]
        found[3] = min(firsts) if firsts else None
        for i in range(4, 7):
            lasts = [m for m in (found[i], place[i]) if m is not None]
            found[i] = max(lasts) if lasts else None
    return [
        (key, *place[1:])
        for key, place in sorted(combined.items())
        if place[0] is not None  # never queued in these counties: not in the cohort
    ]


def outcome_counts(
    conn: sqlite3.Connection, report_ids: Sequence[str], county_fips: Sequence[str]
) -> Outcomes:
    """Return how many projects queued in some reports and counties went inactive, were
    cancelled or were commissioned, by fuel, county (of each project's newest queued row)
    and outcome: what `surroundings_reads.project_outcome_rows` counts to, project by
    project. From the summary when the reports are all of one market's and it is current:
    the counties' counts added up, and the few projects named in several counties combined
    from their rows here; else from the history."""
    alike: Outcomes = Counter()
    market = _whole_market(conn, report_ids) if report_ids and county_fips else None
    if market is None or not is_current(conn):
        rows = surroundings_reads.project_outcome_rows(conn, report_ids, county_fips)
        _count(alike, (tuple(row[name] for name in OUTCOME_COLUMNS) for row in rows))
        return alike
    marks = ",".join("?" for _ in county_fips)
    counted = surroundings_reads.tuples(
        conn,
        "SELECT fuel, county_fips, inactive, cancelled, commissioned, projects "
        f"FROM queue_county_outcomes WHERE market = ? AND county_fips IN ({marks})",
        [market, *county_fips],
    )
    for fuel, county, inactive, cancelled, commissioned, projects in counted.fetchall():
        alike[(fuel or "unknown", county, bool(inactive), bool(cancelled), bool(commissioned))] += (
            projects
        )
    several = surroundings_reads.tuples(
        conn,
        "SELECT p.project_key, p.newest_active, p.fuel, p.county_fips, p.first_active, "
        "p.last_inactive, p.last_cancelled, p.last_commissioned FROM queue_multi_county_keys k "
        # the few keys first, each sought in the counties (SQLite keeps a CROSS JOIN's order)
        "CROSS JOIN queue_project_counties p WHERE k.market = ? AND p.market = k.market "
        f"AND p.county_fips IN ({marks}) AND p.project_key = k.project_key",
        [market, *county_fips],
    )
    _count(alike, _combined(several.fetchall()))
    return alike


def points_in_counties(conn: sqlite3.Connection, county_fips: Sequence[str]) -> list[Row]:
    """Return `surroundings_reads.points_in_counties` (each point named in some counties,
    with its newest naming row and every project naming it there): from the summary when
    it is current, else from every naming row."""
    if not county_fips:
        return []
    if not is_current(conn):
        return surroundings_reads.points_in_counties(conn, county_fips)
    marks = ",".join("?" for _ in county_fips)
    named = surroundings_reads.tuples(
        conn,
        "SELECT point_id, county_fips, report_id, file_name, worksheet, row, project_ids "
        f"FROM interconnection_point_counties WHERE county_fips IN ({marks}) "
        "ORDER BY point_id, county_fips",
        list(county_fips),
    ).fetchall()
    return surroundings_reads.with_point_columns(conn, [tuple(r) for r in named])
