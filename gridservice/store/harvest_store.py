"""SQL the harvest needs beyond `writer`: earlier runs, replacing what a source said.

Rows that are not versioned by the interface (queue records, plants, hourly operations,
territories) are replaced when a source publishes a new asset; facts and evidence chunks
keep their older versions, closed with `knownTo`; generators keep theirs by `source_id`.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from typing import Any


def latest_run(conn: sqlite3.Connection, source_id: str) -> dict[str, Any] | None:
    """Return the body of the most recent run of a source, or None."""
    row = conn.execute(
        "SELECT body FROM harvest_runs WHERE source_id = ? ORDER BY rowid DESC LIMIT 1",
        (source_id,),
    ).fetchone()
    return json.loads(row[0]) if row else None


def run_count(conn: sqlite3.Connection, source_id: str) -> int:
    return conn.execute(
        "SELECT count(*) FROM harvest_runs WHERE source_id = ?", (source_id,)
    ).fetchone()[0]


def harvest_runs(conn: sqlite3.Connection) -> list[dict[str, Any]]:
    """Return every run body in the order the runs were recorded."""
    return [json.loads(r[0]) for r in conn.execute("SELECT body FROM harvest_runs ORDER BY rowid")]


def delete_queue_records(conn: sqlite3.Connection, source_id: str) -> int:
    """Delete a source's queue records with their details and evidence; return how many."""
    ids = [
        (r[0],)
        for r in conn.execute(
            "SELECT id FROM queue_records WHERE json_extract(body, '$.sourceId') = ?",
            (source_id,),
        )
    ]
    conn.executemany("DELETE FROM queue_record_details WHERE record_id = ?", ids)
    conn.executemany("DELETE FROM queue_record_evidence WHERE record_id = ?", ids)
    conn.executemany("DELETE FROM queue_records WHERE id = ?", ids)
    return len(ids)


def replace_queue_status_listings(
    conn: sqlite3.Connection, source_id: str, listings: list[dict[str, Any]]
) -> None:
    """Replace a source's status listings (its report's inactive, cancelled, commissioned)."""
    conn.execute("DELETE FROM queue_status_listings WHERE source_id = ?", (source_id,))
    conn.executemany(
        "INSERT OR REPLACE INTO queue_status_listings(source_id, market, record_key, status, body) "
        "VALUES (?, ?, ?, ?, ?)",
        [
            (source_id, x["market"], x["recordKey"], x["status"], json.dumps(x, sort_keys=True))
            for x in listings
        ],
    )


def county_fips_by_name(conn: sqlite3.Connection, state: str) -> dict[str, str]:
    """Return lower-cased county name -> FIPS for the loaded counties of a state."""
    return {
        r[0].lower(): r[1]
        for r in conn.execute(
            "SELECT name, county_fips FROM counties WHERE state = ? COLLATE NOCASE", (state,)
        )
    }


def county_names_by_state(conn: sqlite3.Connection) -> dict[tuple[str, str], str]:
    """Return (state, lower-cased county name) -> FIPS for every loaded county."""
    return {
        (r[0].upper(), r[1].lower()): r[2]
        for r in conn.execute("SELECT state, name, county_fips FROM counties")
    }


def county_rows(conn: sqlite3.Connection) -> list[tuple[str, str, str]]:
    """Return (state, county name as Census spells it, FIPS) of every loaded county."""
    return conn.execute(
        "SELECT state, name, county_fips FROM counties ORDER BY county_fips"
    ).fetchall()


def close_facts(conn: sqlite3.Connection, source_id: str, known_to: str) -> int:
    """Close the still-known facts of a source at `known_to`; return how many."""
    rows = conn.execute(
        "SELECT id, body FROM facts WHERE known_to IS NULL "
        "AND json_extract(body, '$.sourceId') = ?",
        (source_id,),
    ).fetchall()
    for fact_id, body in rows:
        record = json.loads(body)
        record["knownTo"] = known_to
        conn.execute(
            "UPDATE facts SET known_to = ?, body = ? WHERE id = ?",
            (known_to, json.dumps(record, ensure_ascii=False, separators=(",", ":")), fact_id),
        )
    return len(rows)


def close_evidence_chunks(conn: sqlite3.Connection, source_id: str, known_to: str) -> int:
    """Close the still-known evidence chunks of a source at `known_to`."""
    return conn.execute(
        "UPDATE evidence_chunks SET known_to = ? WHERE source_id = ? AND known_to IS NULL",
        (known_to, source_id),
    ).rowcount


def delete_territories(conn: sqlite3.Connection, source_id: str) -> int:
    """Delete the service territories a source stated (by their evidence's sourceId)."""
    ids = [
        (r[0],)
        for r in conn.execute(
            "SELECT territory_id FROM service_territories "
            "WHERE json_extract(body, '$.evidence.sourceId') = ?",
            (source_id,),
        )
    ]
    conn.executemany("DELETE FROM territory_counties WHERE territory_id = ?", ids)
    conn.executemany("DELETE FROM service_territories WHERE territory_id = ?", ids)
    return len(ids)


def delete_plants(conn: sqlite3.Connection, source_id: str, states: Sequence[str]) -> int:
    """Return how many plants of a source in some states were deleted."""
    marks = ",".join("?" for _ in states)
    return conn.execute(
        "DELETE FROM generation_plants WHERE json_extract(body, '$.evidence.sourceId') = ? "
        f"AND state IN ({marks})",
        (source_id, *states),
    ).rowcount


def delete_ba_operations(conn: sqlite3.Connection, source_id: str) -> int:
    return conn.execute(
        "DELETE FROM ba_operations WHERE json_extract(body, '$.evidence.sourceId') = ?",
        (source_id,),
    ).rowcount


def retire_generators(conn: sqlite3.Connection, source_family: str) -> int:
    """Mark a source family's generators as no longer current (their rows stay)."""
    return conn.execute(
        "UPDATE generators SET is_current = 0 WHERE source_id LIKE ? AND is_current = 1",
        (source_family + "%",),
    ).rowcount


def delete_generators(conn: sqlite3.Connection, source_id: str) -> int:
    """Delete the generators of one source release (re-harvesting that same release)."""
    return conn.execute("DELETE FROM generators WHERE source_id = ?", (source_id,)).rowcount


def table_counts(conn: sqlite3.Connection) -> dict[str, int]:
    """Return the row count of every data table (what a harvest may change)."""
    tables = [
        "counties", "states", "service_territories", "territory_counties", "facts",
        "generators", "generation_plants", "ba_operations", "queue_records",
        "queue_record_details", "queue_record_evidence", "evidence_chunks", "queue_reports",
        "queue_history", "interconnection_points", "interconnection_point_projects",
    ]  # fmt: skip
    return {t: conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in tables}
