"""Reads the screening logic needs: territories, queue records, projects, facts, geography.

Every function returns wire records (dicts decoded from `body`) in a deterministic order,
so the same data always gives the same assessment.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence
from typing import Any

from gridservice.store.pg import is_postgres

Record = dict[str, Any]


def _county_name_variants(names: Iterable[str]) -> list[str]:
    """Both spellings a source may use: 'Travis' and 'Travis County' (matched NOCASE)."""
    variants: list[str] = []
    for name in names:
        base = name.removesuffix(" County").removesuffix(" county")
        variants.extend([base, f"{base} County"])
    return sorted(set(variants))


def _placeholders(values: Sequence[Any]) -> str:
    return ",".join("?" for _ in values)


def database_path(conn: sqlite3.Connection) -> str:
    """Return the file of the main database ('' for an in-memory one); on PostgreSQL the
    server's address and the database's name."""
    if is_postgres(conn):
        row = conn.execute(
            "SELECT concat_ws(':', 'postgresql', inet_server_addr(), inet_server_port(), "
            "current_database())"
        ).fetchone()
        return row[0]
    row = conn.execute("PRAGMA database_list").fetchone()
    return row[2] or ""


def geography_signature(conn: sqlite3.Connection) -> tuple[int, float]:
    """Return (county count, sum of bounding boxes): changes when the loaded counties change.

    Bounding boxes rather than the GeoJSON text, so the check stays cheap on every call.
    """
    row = conn.execute(
        "SELECT count(*), coalesce(sum(min_lon + 2 * min_lat + 3 * max_lon + 4 * max_lat), 0) "
        "FROM counties"
    ).fetchone()
    return int(row[0]), round(float(row[1]), 6)


def meta_value(conn: sqlite3.Connection, key: str) -> str | None:
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    return None if row is None else row[0]


def state_name(conn: sqlite3.Connection, state: str) -> str | None:
    """Return the full name of a state abbreviation, if its geometry is loaded."""
    row = conn.execute("SELECT name FROM states WHERE state = ?", (state,)).fetchone()
    return None if row is None else row[0]


def counties_overlapping_bbox(
    conn: sqlite3.Connection, bbox: tuple[float, float, float, float]
) -> list[Record]:
    """Return counties (county_fips, name, state) whose bounding box meets `bbox`, by FIPS."""
    min_lon, min_lat, max_lon, max_lat = bbox
    rows = conn.execute(
        "SELECT county_fips, name, state FROM counties WHERE max_lon >= ? AND min_lon <= ? "
        "AND max_lat >= ? AND min_lat <= ? ORDER BY county_fips",
        (min_lon, max_lon, min_lat, max_lat),
    ).fetchall()
    return [{"county_fips": r[0], "name": r[1], "state": r[2]} for r in rows]


def territories_for_county(conn: sqlite3.Connection, county_fips: str) -> list[Record]:
    """Return the territories covering a county: territoryId, countyCount, candidate template."""
    rows = conn.execute(
        "SELECT st.territory_id, st.body, "
        "(SELECT count(*) FROM territory_counties tc2 WHERE tc2.territory_id = st.territory_id) "
        "FROM territory_counties tc JOIN service_territories st "
        "ON st.territory_id = tc.territory_id WHERE tc.county_fips = ? "
        "ORDER BY st.utility_id, st.territory_id",
        (county_fips,),
    ).fetchall()
    return [
        {"territoryId": r[0], "countyCount": int(r[2]), "candidate": json.loads(r[1])} for r in rows
    ]


def _queue_rows(
    conn: sqlite3.Connection, where: str, params: Sequence[Any], limit: int | None = None
) -> list[Record]:
    """Return entries `{"record": ...}`; their details and evidence are read on demand
    (`expand_queue_entries`): a county of thousands of records lists 25 of them in full."""
    limit_sql = "" if limit is None else f" LIMIT {int(limit)}"
    rows = conn.execute(
        f"SELECT q.body FROM queue_records q WHERE {where} ORDER BY q.id{limit_sql}", params
    ).fetchall()
    return [{"record": json.loads(r[0])} for r in rows]


def expand_queue_entries(conn: sqlite3.Connection, entries: Iterable[Record]) -> None:
    """Give each entry lacking them its record's `details` and `evidence` (None when absent)."""
    wanted: dict[str, list[Record]] = {}
    for entry in entries:
        if "details" not in entry:
            entry["details"] = entry["evidence"] = None
            wanted.setdefault(entry["record"]["id"], []).append(entry)
    ids = sorted(wanted)
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        for table, key in (
            ("queue_record_details", "details"),
            ("queue_record_evidence", "evidence"),
        ):
            rows = conn.execute(
                f"SELECT record_id, body FROM {table} WHERE record_id IN ({_placeholders(chunk)})",
                chunk,
            ).fetchall()
            for record_id, body in rows:
                for entry in wanted[record_id]:
                    entry[key] = json.loads(body)


def queue_records_in_counties(
    conn: sqlite3.Connection, state: str, county_names: Iterable[str]
) -> list[Record]:
    """Return queue records located in the named counties (entries as `_queue_rows`)."""
    names = _county_name_variants(county_names)
    if not names:
        return []
    return _queue_rows(
        conn, f"q.state = ? AND q.county IN ({_placeholders(names)})", [state, *names]
    )


def queue_records_in_state(
    conn: sqlite3.Connection, state: str, *, exclude_counties: Iterable[str], limit: int
) -> list[Record]:
    """Return up to `limit` queue records of a state outside the excluded counties, by id."""
    names = _county_name_variants(exclude_counties)
    where = "q.state = ? AND q.county IS NOT NULL"
    if names:
        where += f" AND q.county NOT IN ({_placeholders(names)})"
    return _queue_rows(conn, where, [state, *names], limit)


def queue_record_ids(
    conn: sqlite3.Connection, market: str, places: dict[str, set[str]], keys: list[str]
) -> dict[str, str]:
    """Return queue id (upper case) -> the first record id (by id) of that market listing it
    in one of the places (state -> county names)."""
    # Found by the index `queue_records_key` (market, the key): the state and county terms
    # are kept off their own indexes (`+`), which would read every record of the counties
    # (or of the state's market) to extract its key.
    key_sql = (
        "upper(body::jsonb ->> 'recordKey')"
        if is_postgres(conn)
        else "upper(json_extract(body, '$.recordKey'))"
    )
    found: dict[str, str] = {}
    for state, counties in sorted(places.items()):
        names = _county_name_variants(counties)
        rows = conn.execute(
            f"SELECT id, {key_sql} FROM queue_records WHERE +state = ? "
            f"AND +county IN ({_placeholders(names)}) AND market = ? "
            f"AND {key_sql} IN ({_placeholders(keys)}) ORDER BY id",
            [state, *names, market, *keys],
        ).fetchall()
        for record_id, key in rows:
            found.setdefault(key, record_id)
    return found


def queue_market_counts(conn: sqlite3.Connection, state: str) -> list[tuple[str, int]]:
    """Return (market, record count) of a state's queue records, most records first."""
    rows = conn.execute(
        "SELECT market, count(*) FROM queue_records WHERE state = ? AND market IS NOT NULL "
        "GROUP BY market COLLATE NOCASE ORDER BY count(*) DESC, market",
        (state,),
    ).fetchall()
    return [(r[0], int(r[1])) for r in rows]


def has_transmission_projects(conn: sqlite3.Connection) -> bool:
    """Return whether any transmission project is loaded (one row read)."""
    return conn.execute("SELECT 1 FROM transmission_projects LIMIT 1").fetchone() is not None


def queue_states(conn: sqlite3.Connection) -> list[str]:
    """Return the states that have any queue record loaded, alphabetically."""
    # One seek in the state index per state, from the least upward (a `DISTINCT` walked the
    # whole index: 17 ms of every screening at demo scale 100, for a handful of states).
    rows = conn.execute(
        "WITH RECURSIVE found(state) AS ("
        "SELECT min(state) FROM queue_records "
        "UNION ALL SELECT (SELECT min(q.state) FROM queue_records q WHERE q.state > found.state) "
        "FROM found WHERE found.state IS NOT NULL"
        ") SELECT state FROM found WHERE state IS NOT NULL"
    ).fetchall()
    return [r[0] for r in rows]


def transmission_projects_for_county(
    conn: sqlite3.Connection, county_name: str, state: str
) -> list[Record]:
    """Return transmission projects whose `counties` list names the county, by id."""
    names = _county_name_variants([county_name])
    rows = conn.execute(
        "SELECT DISTINCT p.id, p.body FROM transmission_project_counties c "
        "JOIN transmission_projects p ON p.id = c.project_id "
        f"WHERE c.county IN ({_placeholders(names)}) AND (c.state IS NULL OR c.state = ?) "
        "ORDER BY p.id",
        [*names, state],
    ).fetchall()
    return [json.loads(r[1]) for r in rows]


def current_facts(conn: sqlite3.Connection, markets: Iterable[str]) -> list[Record]:
    """Return the current version (knownTo null) of every fact of the markets.

    Each record carries its kind under the key `_kind` ('load_forecast' or
    'resource_adequacy'); callers strip it before the record leaves the service.
    """
    wanted = sorted(set(markets))
    if not wanted:
        return []
    rows = conn.execute(
        "SELECT kind, body FROM facts WHERE known_to IS NULL "
        f"AND market IN ({_placeholders(wanted)}) ORDER BY kind, id",
        wanted,
    ).fetchall()
    return [{"_kind": r[0], **json.loads(r[1])} for r in rows]


def data_as_of(conn: sqlite3.Connection) -> str | None:
    """Return the date of the newest source report in the store (YYYY-MM-DD), or None.

    The screening measures timelines from this date rather than the wall clock, so the
    same site and data always give the same assessment. It is when the sources spoke (a
    report's run date, a fact's or an evidence chunk's knownFrom), never when the store
    was built: a harvest run's time only stands in when no source states a date.
    """
    candidates = [
        meta_value(conn, "data_as_of"),
        conn.execute("SELECT max(known_from) FROM facts").fetchone()[0],
        conn.execute("SELECT max(report_date) FROM queue_reports").fetchone()[0],
        conn.execute("SELECT max(known_from) FROM evidence_chunks").fetchone()[0],
    ]
    dates = [c[:10] for c in candidates if c]
    if not dates:
        built = conn.execute("SELECT max(observed_at) FROM harvest_runs").fetchone()[0]
        dates = [built[:10]] if built else []
    return max(dates) if dates else None
