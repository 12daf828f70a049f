"""Reads for a site's surroundings: harvested queue reports, their rows, points and plants.

Rows come back as plain dicts keyed by column name (or tuples, where a function says so), in
the order each function states.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from gridservice.store.pg import is_postgres

Row = dict[str, Any]

# A report row as the surroundings' figures and comparisons read it: its project, sheet
# (with the commissioning milestone: the row's key), status, county, row number and the
# values figures are made of. The rest, read only for a row described in full:
# DESCRIPTION_COLUMNS (`describe_rows`).
HISTORY_COLUMNS = (
    "report_id", "project_id", "sheet", "milestone", "status", "row", "county_fips", "fuel",
    "capacity_mw", "study_phase", "projected_cod", "ia_signed", "security_ntp",
)  # fmt: skip
DESCRIPTION_COLUMNS = (
    "file_name", "worksheet", "project_name", "county", "technology", "event_date",
)  # fmt: skip


def _marks(values: Sequence[Any]) -> str:
    return ",".join("?" for _ in values)


def _chunks(values: Sequence[Any], size: int = 500) -> Iterator[Sequence[Any]]:
    """Yield `values` a few hundred at a time (one query each: SQLite caps a query's
    parameters)."""
    for start in range(0, len(values), size):
        yield values[start : start + size]


def _read_in(
    conn: sqlite3.Connection,
    head: str,
    column: str,
    values: Sequence[Any],
    params: Sequence[Any] = (),
) -> list[tuple]:
    """Return the rows (tuples) of `{head} {column} IN (values)`, `params` bound before the
    values, read a chunk of values at a time."""
    found: list[tuple] = []
    for chunk in _chunks(values):
        found += tuples(conn, f"{head} {column} IN ({_marks(chunk)})", [*params, *chunk])
    return found


def tuples(conn: sqlite3.Connection, sql: str, params: Sequence[Any] = ()) -> sqlite3.Cursor:
    """Execute with plain tuples for rows (the store's sqlite3.Row costs here)."""
    if not isinstance(conn, sqlite3.Connection):
        return conn.execute(sql, params)  # PostgreSQL's rows read by position too
    cursor = conn.cursor()
    cursor.row_factory = None
    return cursor.execute(sql, params)


def _dicts(cursor: sqlite3.Cursor, names: list[str]) -> list[Row]:
    # Not `strict`: `names` are the columns the query selects (a fifth of the time, 13,000
    # rows at demo scale 100).
    return [dict(zip(names, row, strict=False)) for row in cursor.fetchall()]


def queue_reports(conn: sqlite3.Connection) -> list[Row]:
    """Return every harvested queue report, oldest month first (then market)."""
    names = ["report_id", "market", "report_month", "report_date", "file_name", "sha256", "sheets"]
    return _dicts(
        conn.execute(
            f"SELECT {', '.join(names)} FROM queue_reports ORDER BY report_month, market, report_id"
        ),
        names,
    )


def history_rows(
    conn: sqlite3.Connection,
    report_ids: Sequence[str],
    county_fips: Sequence[str],
    *,
    described: bool = False,
) -> list[Row]:
    """Return the rows of some reports in some counties, in no stated order (each reader
    keys them by project; `queue_history.others_by_project` puts a project's rows in order).

    A row holds HISTORY_COLUMNS; `described`: DESCRIPTION_COLUMNS too (for a caller that
    describes every row; others fill in the few they describe with `describe_rows`).
    """
    if not report_ids or not county_fips:
        return []
    names = [*HISTORY_COLUMNS, *(DESCRIPTION_COLUMNS if described else ())]
    # The county index, both its columns: a seek per county and report. Left to itself
    # SQLite may walk the primary key of whole reports instead; with `+report_id` it read
    # every report's rows of the counties (a third slower at demo scale 100).
    hint = "" if is_postgres(conn) else " INDEXED BY queue_history_county"
    cursor = tuples(
        conn,
        f"SELECT {', '.join(names)} FROM queue_history{hint} "
        f"WHERE county_fips IN ({_marks(county_fips)}) AND report_id IN ({_marks(report_ids)})",
        [*county_fips, *report_ids],
    )
    # Not sorted: SQLite's sorter copied every wide row once more (a fifth of the read), and
    # a sort here cost as much again in Python (12 to 28 ms at demo scale 100).
    return _dicts(cursor, names)


def describe_rows(conn: sqlite3.Connection, rows: Iterable[Row]) -> None:
    """Fill in, in place, the DESCRIPTION_COLUMNS (names, technology, file and worksheet) of
    `history_rows` rows that lack them, by each row's key (report, project, sheet and
    milestone): one read per report of the projects described.

    A site's surroundings compare about 13,000 rows at demo scale 100 and describe a few
    hundred; reading every row whole cost a third more than reading what they compare.

    A row replaced since it was read (a harvest committed in between) is a LookupError,
    never a row left without its source cell. The service reads both in one
    `read_snapshot`, where no harvest comes in between.
    """
    wanted: dict[str, dict[tuple, list[Row]]] = {}
    for row in rows:
        if "file_name" not in row:
            key = (row["project_id"], row["sheet"], row["milestone"])
            wanted.setdefault(row["report_id"], {}).setdefault(key, []).append(row)
    names = ["project_id", "sheet", "milestone", *DESCRIPTION_COLUMNS]
    for report_id, by_key in wanted.items():
        head = f"SELECT {', '.join(names)} FROM queue_history WHERE report_id = ? AND"
        ids = sorted({key[0] for key in by_key})
        for found in _read_in(conn, head, "project_id", ids, [report_id]):
            for row in by_key.get(tuple(found[:3]), ()):
                row.update(zip(DESCRIPTION_COLUMNS, found[3:], strict=True))
        missing = [key for key, listed in by_key.items() if "file_name" not in listed[0]]
        if missing:
            raise LookupError(
                f"{len(missing)} rows of report {report_id} were replaced while being read "
                f"(first: {missing[0]}); ask again."
            )


# A project's fuel for grouping, from a history row `h`: 'BAT' for battery storage whatever
# code a report gave it (fuel 'OTH' with technology 'BA' on the project sheets until 2024
# and again after mid-2025; 'BAT' with 'BA', 'BL' or 'BO' in between; 'BAT' or the word
# 'Battery' on the event sheets), else the report's fuel as written (NULL when none).
FUEL_GROUP_SQL = (
    "CASE WHEN upper(trim(h.fuel)) IN ('BAT', 'BATTERY') OR (upper(trim(h.fuel)) = 'OTH' "
    "AND upper(trim(h.technology)) = 'BA') THEN 'BAT' ELSE h.fuel END"
)


def ranked_history_sql(partition: str, where: str) -> str:
    """Return a query of queue-history rows (`where`) ranked within each `partition`: its
    place-1 row is its newest queued row (its newest month, the large-gen sheet first; never
    queued: any row), beside the partition's first queued month and the newest month each of
    the inactive, cancellation and commissioning sheets lists it. Columns: market (upper
    case), county_fips, project_key (upper case), status, fuel (`FUEL_GROUP_SQL`), newest
    (that row's month and
    '1' for large-gen, '0' else), place, first_active, last_inactive, last_cancelled,
    last_commissioned."""
    # Reaching commercial operation is the commissioning sheet's COD approval only: an
    # approval for energization or synchronisation is an earlier, separate milestone.
    listed = {
        "inactive": "h.status = 'inactive'",
        "cancelled": "h.status = 'cancelled'",
        "commissioned": "h.status = 'commissioned' AND h.milestone = 'commercial_operation'",
    }
    outcomes = ", ".join(
        f"max(CASE WHEN {condition} THEN r.report_month END) OVER project AS last_{status}"
        for status, condition in listed.items()
    )
    return (
        "SELECT upper(r.market) AS market, h.county_fips, upper(h.project_id) AS project_key, "
        f"h.status, {FUEL_GROUP_SQL} AS fuel, r.report_month || CASE WHEN h.sheet = 'large_gen' THEN '1' "
        f"ELSE '0' END AS newest, row_number() OVER (PARTITION BY {partition} ORDER BY "
        "CASE WHEN h.status = 'active' THEN 0 ELSE 1 END, r.report_month DESC, "
        "CASE WHEN h.sheet = 'large_gen' THEN 0 ELSE 1 END) AS place, "
        "min(CASE WHEN h.status = 'active' THEN r.report_month END) OVER project AS first_active, "
        f"{outcomes} FROM queue_history h JOIN queue_reports r ON r.report_id = h.report_id "
        f"WHERE {where} WINDOW project AS (PARTITION BY {partition})"
    )


def project_outcome_rows(
    conn: sqlite3.Connection, report_ids: Sequence[str], county_fips: Sequence[str]
) -> list[Row]:
    """Return, per project queued in some reports and counties, its newest queued row's fuel
    and county, its first queued month and the newest month each other sheet lists it.

    One row per project (by upper-case id), computed by the database: the dropout rates need
    these few values, not every row of every report (which cost most of a surroundings
    answer). A project's newest queued row is its newest month, the large-gen sheet first.
    """
    if not report_ids or not county_fips:
        return []
    names = [
        "project_key", "fuel", "county_fips", "first_active", "last_inactive", "last_cancelled",
        "last_commissioned",
    ]  # fmt: skip
    ranked = ranked_history_sql(
        "upper(h.project_id)",
        f"h.county_fips IN ({_marks(county_fips)}) AND +h.report_id IN ({_marks(report_ids)})",
    )
    cursor = tuples(
        conn,
        f"SELECT {', '.join(names)} FROM ({ranked}) AS ranked "
        "WHERE place = 1 AND status = 'active' ORDER BY project_key",
        [*county_fips, *report_ids],
    )
    return _dicts(cursor, names)


def project_event_rows(
    conn: sqlite3.Connection, report_ids: Sequence[str], project_ids: Sequence[str]
) -> list[Row]:
    """Return the inactive, cancellation and commissioning rows of some projects in some
    reports (any county), by report and project: what says why a project left the queue
    (its status, event date and source cell)."""
    if not report_ids or not project_ids:
        return []
    names = ["report_id", "project_id", "sheet", "status", "file_name", "worksheet", "row",
             "event_date"]  # fmt: skip
    rows: list[Row] = []
    ids = sorted(set(project_ids))
    for chunk in _chunks(ids):
        cursor = tuples(
            conn,
            f"SELECT {', '.join(names)} FROM queue_history "
            f"WHERE project_id IN ({_marks(chunk)}) AND +report_id IN ({_marks(report_ids)}) "
            "AND status <> 'active'",
            [*chunk, *report_ids],
        )
        rows += _dicts(cursor, names)
    return sorted(rows, key=lambda r: (r["report_id"], r["project_id"].upper(), r["sheet"]))


def still_queued(conn: sqlite3.Connection, report_id: str, project_ids: Sequence[str]) -> set[str]:
    """Return the ids (upper case) of those projects a report still lists on a large- or
    small-generation sheet, in any county: a project gone from one county but queued in
    another changed county, it did not leave the queue."""
    found: set[str] = set()
    for chunk in _chunks(sorted(set(project_ids))):
        cursor = tuples(
            conn,
            f"SELECT DISTINCT upper(project_id) FROM queue_history WHERE project_id IN "
            f"({_marks(chunk)}) AND +report_id = ? AND status = 'active'",
            [*chunk, report_id],
        )
        found.update(key for (key,) in cursor.fetchall())
    return found


POINT_COLUMNS = [
    "point_id", "kind", "kv", "bus_number", "bus_name", "from_bus_number", "from_bus_name",
    "to_bus_number", "to_bus_name", "circuit", "raw", "quality_flags",
]  # fmt: skip


def point_namings(conn: sqlite3.Connection, county_fips: Sequence[str] | None) -> list[tuple]:
    """Return each (point, county) named in some counties (None: every county), by point
    and county: (point id, county, the newest naming row's report id, file, worksheet and
    row, the ids of every project naming it there, comma-separated and sorted).

    Of several rows of the newest report naming a point, the highest row is cited.
    """
    if county_fips is not None and not county_fips:
        return []
    where = (
        f"x.county_fips IN ({_marks(county_fips)})"
        if county_fips is not None
        else "x.county_fips IS NOT NULL"
    )
    # Grouped here rather than with SQLite's bare columns beside max(), which PostgreSQL
    # refuses: per point and county, the newest naming row is cited, with every project.
    cursor = tuples(
        conn,
        "SELECT x.point_id, x.county_fips, x.report_id, x.file_name, x.worksheet, x.row, "
        f"x.project_id FROM interconnection_point_projects x WHERE {where} "
        "ORDER BY x.point_id, x.county_fips, x.report_id, x.row, x.worksheet",
        list(county_fips or ()),
    )
    newest: dict[tuple, tuple] = {}
    projects: dict[tuple, set[str]] = {}
    for row in cursor:
        key = (row[0], row[1])
        newest[key] = row  # rows come oldest report first: the last one read is cited
        projects.setdefault(key, set()).add(str(row[6]))
    return [(*row[:6], ",".join(sorted(projects[key]))) for key, row in newest.items()]


def with_point_columns(conn: sqlite3.Connection, named: list[tuple]) -> list[Row]:
    """Return point namings (`point_namings`' tuples) with their points' own columns, each
    point's read once; a naming whose point is missing is left out."""
    head = f"SELECT {', '.join(POINT_COLUMNS)} FROM interconnection_points WHERE"
    ids = sorted({naming[0] for naming in named})
    points = {row[0]: row for row in _read_in(conn, head, "point_id", ids)}
    names = [*POINT_COLUMNS, "county_fips", "report_id", "file_name", "worksheet", "row",
             "project_ids"]  # fmt: skip
    return [
        dict(zip(names, (*points[naming[0]], *naming[1:]), strict=True))
        for naming in named
        if naming[0] in points
    ]


def cited_poi_texts(
    conn: sqlite3.Connection, cells: Sequence[tuple[str, str, int]], county_fips: Sequence[str]
) -> dict[tuple[str, str, int], str]:
    """Return the 'POI Location' text of each cited row (report id, worksheet, row) of some
    counties: what the cell itself says, not another row's text of the same point."""
    wanted = set(cells)
    reports = sorted({report for report, _, _ in wanted})
    if not wanted or not county_fips:
        return {}
    cursor = tuples(
        conn,
        "SELECT report_id, worksheet, row, poi_location FROM queue_history WHERE "
        f"county_fips IN ({_marks(county_fips)}) AND report_id IN ({_marks(reports)}) "
        "AND poi_location IS NOT NULL",
        [*county_fips, *reports],
    )
    return {(r, w, n): text for r, w, n, text in cursor.fetchall() if (r, w, n) in wanted}


def points_in_counties(conn: sqlite3.Connection, county_fips: Sequence[str]) -> list[Row]:
    """Return each (point, county) named in some counties, read from every naming row: the
    point, the projects naming it there (comma-separated) and its newest naming row."""
    return with_point_columns(conn, point_namings(conn, county_fips))


def plant_positions_in_bbox(
    conn: sqlite3.Connection, bbox: tuple[float, float, float, float]
) -> list[tuple[str, float, float]]:
    """Return (id, latitude, longitude) of the plants with coordinates inside a lon/lat box."""
    min_lon, min_lat, max_lon, max_lat = bbox
    cursor = tuples(
        conn,
        "SELECT p.id, p.latitude, p.longitude FROM generation_plants p "
        "WHERE p.latitude IS NOT NULL AND p.longitude IS NOT NULL "
        "AND p.longitude BETWEEN ? AND ? AND p.latitude BETWEEN ? AND ? ORDER BY p.id",
        (min_lon, max_lon, min_lat, max_lat),
    )
    return [tuple(row) for row in cursor.fetchall()]


def plants_with_ids(conn: sqlite3.Connection, ids: Sequence[str]) -> list[Row]:
    """Return plants by id, with their current generators' nameplate MW and technologies (a
    plant with no loaded generator has neither), by id."""
    names = ["id", "plant_id", "body", "latitude", "longitude", "capacity_mw", "technologies"]
    found: list[Row] = []
    wanted = sorted(set(ids))
    for chunk in _chunks(wanted):
        cursor = conn.execute(
            "SELECT p.id, p.plant_id, p.body, p.latitude, p.longitude, "
            "(SELECT sum(g.capacity_mw) FROM generators g "
            " WHERE g.plant_id = p.plant_id AND g.is_current = 1), "
            "(SELECT group_concat(t, '|') FROM (SELECT DISTINCT g.technology AS t "
            " FROM generators g WHERE g.plant_id = p.plant_id AND g.is_current = 1 "
            " AND g.technology IS NOT NULL ORDER BY t) AS plant_technologies) "
            f"FROM generation_plants p WHERE p.id IN ({_marks(chunk)}) "
            "ORDER BY p.id",
            chunk,
        )
        found += _dicts(cursor, names)
    return found


def report_has_security_dates(conn: sqlite3.Connection, report_id: str) -> bool:
    """Return whether any row of a report carries a financial-security / NTP date."""
    row = conn.execute(
        "SELECT 1 FROM queue_history WHERE report_id = ? AND security_ntp IS NOT NULL LIMIT 1",
        (report_id,),
    ).fetchone()
    return row is not None


def counties_in_history(conn: sqlite3.Connection, county_fips: Sequence[str]) -> set[str]:
    """Return the counties of `county_fips` that any harvested report's row names (one seek
    in the county index each)."""
    hint = "" if is_postgres(conn) else " INDEXED BY queue_history_county"
    return {
        fips
        for fips in county_fips
        if conn.execute(
            f"SELECT 1 FROM queue_history{hint} WHERE county_fips = ? LIMIT 1", (fips,)
        ).fetchone()
    }


def queue_markets_in_county(conn: sqlite3.Connection, state: str, county: str) -> list[str]:
    """Return the markets (upper case, alphabetically) of the queue records in a county."""
    rows = conn.execute(
        "SELECT DISTINCT upper(market) FROM queue_records WHERE state = ? AND county IN (?, ?) "
        "AND market IS NOT NULL ORDER BY 1",
        (state, county, f"{county} County"),
    ).fetchall()
    return [r[0] for r in rows]


def queue_has_market(conn: sqlite3.Connection, market: str) -> bool:
    """Return whether any queue record of a market is loaded (one row read, by index)."""
    row = conn.execute("SELECT 1 FROM queue_records WHERE market = ? LIMIT 1", (market,))
    return row.fetchone() is not None


def queue_record_bodies_in_county(
    conn: sqlite3.Connection, state: str, county: str, markets: Sequence[str]
) -> list[str]:
    """Return the bodies (JSON text) of a county's queue records of some markets, by id."""
    rows = conn.execute(
        "SELECT body FROM queue_records WHERE state = ? AND county IN (?, ?) "
        f"AND upper(market) IN ({_marks(markets)}) ORDER BY id",
        (state, county, f"{county} County", *markets),
    ).fetchall()
    return [r[0] for r in rows]
