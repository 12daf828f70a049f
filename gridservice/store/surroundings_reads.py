"""Reads for a site's surroundings: harvested queue reports, their rows, points and plants.

Rows come back as plain dicts keyed by column name, in a deterministic order.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any

Row = dict[str, Any]

HISTORY_COLUMNS = (
    "report_id, project_id, sheet, status, file_name, worksheet, row, project_name, county, "
    "county_fips, fuel, technology, capacity_mw, study_phase, projected_cod, ia_signed, "
    "security_ntp, event_date"
)
_HISTORY_NAMES = [c.strip() for c in HISTORY_COLUMNS.split(",")]


def _marks(values: Sequence[Any]) -> str:
    return ",".join("?" for _ in values)


def _tuples(conn: sqlite3.Connection, sql: str, params: Sequence[Any] = ()) -> sqlite3.Cursor:
    """Execute with plain tuples for rows (the store's sqlite3.Row costs here)."""
    if not isinstance(conn, sqlite3.Connection):
        return conn.execute(sql, params)  # PostgreSQL's rows read by position too
    cursor = conn.cursor()
    cursor.row_factory = None
    return cursor.execute(sql, params)


def _dicts(cursor: sqlite3.Cursor, names: list[str]) -> list[Row]:
    return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]


def queue_reports(conn: sqlite3.Connection) -> list[Row]:
    """Return every harvested queue report, oldest month first (then market)."""
    names = ["report_id", "market", "report_month", "report_date", "file_name", "sha256", "sheets"]
    return _dicts(
        conn.execute(
            f"SELECT {', '.join(names)} FROM queue_reports ORDER BY report_month, market, report_id"
        ),
        names,
    )


def history_covers_state(conn: sqlite3.Connection, state_fips: str) -> bool:
    """Return whether any harvested report names a county of a state (by its FIPS prefix)."""
    row = conn.execute(
        "SELECT 1 FROM queue_history WHERE county_fips >= ? AND county_fips < ? LIMIT 1",
        (state_fips, f"{int(state_fips) + 1:02d}"),
    ).fetchone()
    return row is not None


def history_states(conn: sqlite3.Connection) -> list[str]:
    """Return the states (two letters) of the counties any harvested report names."""
    rows = conn.execute(
        "SELECT DISTINCT c.state FROM counties c WHERE EXISTS (SELECT 1 FROM queue_history h "
        "WHERE h.county_fips = c.county_fips) ORDER BY c.state"
    ).fetchall()
    return [r[0] for r in rows]


def history_rows(
    conn: sqlite3.Connection, report_ids: Sequence[str], county_fips: Sequence[str]
) -> list[Row]:
    """Return the rows of some reports in some counties, by report, project and sheet."""
    if not report_ids or not county_fips:
        return []
    cursor = _tuples(
        conn,
        f"SELECT {HISTORY_COLUMNS} FROM queue_history "
        # `+report_id`: the county index is the selective one; without the plus SQLite walks
        # the primary key of whole reports instead.
        f"WHERE county_fips IN ({_marks(county_fips)}) AND +report_id IN ({_marks(report_ids)}) "
        "ORDER BY report_id, project_id, sheet",
        [*county_fips, *report_ids],
    )
    return _dicts(cursor, _HISTORY_NAMES)


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
    cursor = _tuples(
        conn,
        f"SELECT {', '.join(names)} "
        "FROM (SELECT upper(h.project_id) AS project_key, h.status, h.fuel, "
        "h.county_fips, row_number() OVER (PARTITION BY upper(h.project_id) ORDER BY "
        "CASE WHEN h.status = 'active' THEN 0 ELSE 1 END, r.report_month DESC, "
        "CASE WHEN h.sheet = 'large_gen' THEN 0 ELSE 1 END) AS place, "
        "min(CASE WHEN h.status = 'active' THEN r.report_month END) OVER project AS first_active, "
        "max(CASE WHEN h.status = 'inactive' THEN r.report_month END) OVER project "
        "AS last_inactive, "
        "max(CASE WHEN h.status = 'cancelled' THEN r.report_month END) OVER project "
        "AS last_cancelled, "
        "max(CASE WHEN h.status = 'commissioned' THEN r.report_month END) OVER project "
        "AS last_commissioned "
        "FROM queue_history h JOIN queue_reports r ON r.report_id = h.report_id "
        f"WHERE h.county_fips IN ({_marks(county_fips)}) "
        f"AND +h.report_id IN ({_marks(report_ids)}) "
        "WINDOW project AS (PARTITION BY upper(h.project_id))) AS ranked "
        "WHERE place = 1 AND status = 'active' ORDER BY project_key",
        [*county_fips, *report_ids],
    )
    return _dicts(cursor, names)


def project_rows(
    conn: sqlite3.Connection, report_ids: Sequence[str], project_ids: Sequence[str]
) -> list[Row]:
    """Return the rows of some projects in some reports (any county), by report and project."""
    if not report_ids or not project_ids:
        return []
    rows: list[Row] = []
    ids = sorted(set(project_ids))
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        cursor = _tuples(
            conn,
            f"SELECT {HISTORY_COLUMNS} FROM queue_history "
            f"WHERE project_id IN ({_marks(chunk)}) AND +report_id IN ({_marks(report_ids)})",
            [*chunk, *report_ids],
        )
        rows += _dicts(cursor, _HISTORY_NAMES)
    return sorted(rows, key=lambda r: (r["report_id"], r["project_id"].upper(), r["sheet"]))


def points_in_counties(conn: sqlite3.Connection, county_fips: Sequence[str]) -> list[Row]:
    """Return each (point, county) named in some counties: the point, the projects naming it
    there (comma-separated) and the newest row that names it (SQLite takes the bare columns
    from the row holding max(report_id))."""
    if not county_fips:
        return []
    point_names = [
        "point_id", "kind", "kv", "bus_number", "bus_name", "from_bus_number", "from_bus_name",
        "to_bus_number", "to_bus_name", "circuit", "raw", "quality_flags",
    ]  # fmt: skip
    # Grouped here rather than with SQLite's bare columns beside max(), which PostgreSQL
    # refuses: per point and county, the newest naming row is cited, with every project.
    # Only the naming rows' own columns are read per row; each point's once, after.
    cursor = _tuples(
        conn,
        "SELECT x.point_id, x.county_fips, x.report_id, x.file_name, x.worksheet, x.row, "
        "x.project_id FROM interconnection_point_projects x "
        f"WHERE x.county_fips IN ({_marks(county_fips)}) "
        "ORDER BY x.point_id, x.county_fips, x.report_id",
        list(county_fips),
    )
    newest: dict[tuple, tuple] = {}
    projects: dict[tuple, set[str]] = {}
    for row in cursor:
        key = (row[0], row[1])
        newest[key] = row  # rows come oldest report first: the last one read is cited
        projects.setdefault(key, set()).add(str(row[6]))
    points = {}
    ids = sorted({point_id for point_id, _ in newest})
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        cursor = _tuples(
            conn,
            f"SELECT {', '.join(point_names)} FROM interconnection_points "
            f"WHERE point_id IN ({_marks(chunk)})",
            chunk,
        )
        points.update((row[0], row) for row in cursor)
    return [
        {
            **dict(zip(point_names, points[key[0]], strict=True)),
            "county_fips": row[1],
            "report_id": row[2],
            "file_name": row[3],
            "worksheet": row[4],
            "row": row[5],
            "project_ids": ",".join(sorted(projects[key])),
        }
        for key, row in newest.items()
        if key[0] in points
    ]


def plant_positions_in_bbox(
    conn: sqlite3.Connection, bbox: tuple[float, float, float, float]
) -> list[tuple[str, float, float]]:
    """Return (id, latitude, longitude) of the plants with coordinates inside a lon/lat box."""
    min_lon, min_lat, max_lon, max_lat = bbox
    rows = conn.execute(
        "SELECT p.id, p.latitude, p.longitude FROM generation_plants p "
        "WHERE p.latitude IS NOT NULL AND p.longitude IS NOT NULL "
        "AND p.longitude BETWEEN ? AND ? AND p.latitude BETWEEN ? AND ? ORDER BY p.id",
        (min_lon, max_lon, min_lat, max_lat),
    ).fetchall()
    return [(r[0], r[1], r[2]) for r in rows]


def plants_with_ids(conn: sqlite3.Connection, ids: Sequence[str]) -> list[Row]:
    """Return plants by id, with their current generators' nameplate MW and technologies (a
    plant with no loaded generator has neither), by id."""
    names = ["id", "plant_id", "body", "latitude", "longitude", "capacity_mw", "technologies"]
    found: list[Row] = []
    wanted = sorted(set(ids))
    for start in range(0, len(wanted), 500):
        chunk = wanted[start : start + 500]
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
