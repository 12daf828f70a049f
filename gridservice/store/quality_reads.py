"""Reads behind the /v1/quality report (the rules themselves live in gridservice.catalogue.quality)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator

from gridservice.store.pg import is_postgres


def queue_bodies(conn: sqlite3.Connection) -> Iterator[tuple[dict, dict]]:
    """Yield (queue record body, details body) of every stored queue record, by id.

    A record without a details row yields an empty details object.
    """
    cursor = conn.execute(
        "SELECT q.body, d.body FROM queue_records q "
        "LEFT JOIN queue_record_details d ON d.record_id = q.id ORDER BY q.id"
    )
    for record, details in cursor:
        yield json.loads(record), json.loads(details) if details else {}


def ba_forecasts(conn: sqlite3.Connection) -> list[tuple[object, object]]:
    """Return (demandForecastMw, demandMw) of every balancing-authority operation."""
    if is_postgres(conn):  # its json_extract gives text; these are numbers
        return conn.execute(
            "SELECT (body::jsonb ->> 'demandForecastMw')::float8, "
            "(body::jsonb ->> 'demandMw')::float8 FROM ba_operations"
        ).fetchall()
    return conn.execute(
        "SELECT json_extract(body, '$.demandForecastMw'), json_extract(body, '$.demandMw') "
        "FROM ba_operations"
    ).fetchall()


_JOIN_COUNTS = """
WITH current_generators AS MATERIALIZED (
    SELECT plant_id, json_extract(body, '$.generatorId') AS generator_id
    FROM generators WHERE is_current = 1
),
plants AS MATERIALIZED (SELECT DISTINCT plant_id FROM generation_plants)
SELECT
    (SELECT count(*) FROM current_generators) AS generator_rows,
    (SELECT count(*) FROM current_generators g
        WHERE g.plant_id IS NULL OR g.plant_id NOT IN (SELECT plant_id FROM plants))
        AS generators_without_plant,
    (SELECT count(*) FROM generator_operations) AS operation_rows,
    (SELECT count(*) FROM generator_operations o WHERE NOT EXISTS (
        SELECT 1 FROM current_generators g
        WHERE g.plant_id = o.plant_id AND g.generator_id = o.generator_id))
        AS operations_without_generator,
    (SELECT count(*) FROM generator_operations o
        WHERE o.plant_id IS NULL OR o.plant_id NOT IN (SELECT plant_id FROM plants))
        AS operations_without_plant
"""


def join_counts(conn: sqlite3.Connection) -> dict[str, int]:
    """Return the raw row counts of the generator/plant/operation joins."""
    cursor = conn.execute(_JOIN_COUNTS)
    names = [d[0] for d in cursor.description]
    return dict(zip(names, cursor.fetchone(), strict=True))


# Dataset -> the count that says whether the store holds it (same order as the report).
DATASET_COUNTS = {
    "interconnection_queue": "SELECT count(*) FROM queue_records",
    "queue_history": "SELECT count(*) FROM queue_history",
    "interconnection_points": "SELECT count(*) FROM interconnection_points",
    "transmission_projects": "SELECT count(*) FROM transmission_projects",
    "generators": "SELECT count(*) FROM generators WHERE is_current = 1",
    "generation_plants": "SELECT count(*) FROM generation_plants",
    "generator_operations": "SELECT count(*) FROM generator_operations",
    "balancing_authority_operations": "SELECT count(*) FROM ba_operations",
    "load_forecasts": "SELECT count(*) FROM facts WHERE kind = 'load_forecast' AND known_to IS NULL",
    "resource_adequacy": (
        "SELECT count(*) FROM facts WHERE kind = 'resource_adequacy' AND known_to IS NULL"
    ),
    "service_territories": "SELECT count(*) FROM service_territories",
    "retail_territory_polygons": "SELECT count(*) FROM retail_territory_polygons",
    "market_regions": "SELECT count(*) FROM market_regions",
    "docket_filings": "SELECT count(*) FROM docket_filings",
    "evidence_chunks": "SELECT count(*) FROM evidence_chunks WHERE known_to IS NULL",
    "counties": "SELECT count(*) FROM counties",
}


def dataset_rows(conn: sqlite3.Connection) -> dict[str, int]:
    """Return the row count of every dataset the quality report lists."""
    return {name: conn.execute(sql).fetchone()[0] for name, sql in DATASET_COUNTS.items()}


def territory_methods(conn: sqlite3.Connection) -> list[str]:
    """Return the distinct resolution methods of the stored service territories."""
    return [
        r[0]
        for r in conn.execute(
            "SELECT DISTINCT json_extract(body, '$.resolutionMethod') FROM service_territories "
            "WHERE json_extract(body, '$.resolutionMethod') IS NOT NULL ORDER BY 1"
        )
    ]


# a queue history row's statuses other than active (the table's check names these four)
_NOT_ACTIVE = ("inactive", "cancelled", "commissioned")


def queue_report_months(conn: sqlite3.Connection) -> list[dict]:
    """Return every harvested report month with its file, run and rows per status.

    Counted from two indexes rather than the rows: each report's rows from the primary key
    (whose first column is the report) and its rows that are not active from
    `queue_history_events` (a tenth of them); the active rows are the difference, as a
    row's status is one of four. Counting per report and status would read every row of
    every report four times.
    """
    reports = conn.execute(
        "SELECT report_id, market, report_month, report_date, file_name, sha256, run_id, sheets "
        "FROM queue_reports ORDER BY market, report_month"
    ).fetchall()
    rows = dict(conn.execute("SELECT report_id, count(*) FROM queue_history GROUP BY report_id"))
    hint = "" if is_postgres(conn) else " INDEXED BY queue_history_events"
    others: dict[str, dict[str, int]] = {}
    for report_id, status, count in conn.execute(
        f"SELECT report_id, status, count(*) FROM queue_history{hint} "
        "WHERE status <> 'active' GROUP BY report_id, status"
    ):
        others.setdefault(report_id, {})[status] = count
    keys = ("reportId", "market", "reportMonth", "reportDate", "fileName", "sha256", "runId",
            "sheets")  # fmt: skip
    months = []
    for report in reports:
        counts = others.get(report[0], {})
        months.append(
            {
                **dict(zip(keys, report, strict=True)),
                "active": rows.get(report[0], 0) - sum(counts.values()),
                **{status: counts.get(status, 0) for status in _NOT_ACTIVE},
            }
        )
    return months


def interconnection_point_counts(conn: sqlite3.Connection) -> dict[str, int]:
    """Return points by kind, the links to projects, and history rows without a county."""
    kinds = dict(conn.execute("SELECT kind, count(*) FROM interconnection_points GROUP BY kind"))
    return {
        "bus": kinds.get("bus", 0),
        "tap": kinds.get("tap", 0),
        "unparsed": kinds.get("unparsed", 0),
        "missingVoltage": conn.execute(
            "SELECT count(*) FROM interconnection_points WHERE kv IS NULL AND kind != 'unparsed'"
        ).fetchone()[0],
        "projectLinks": conn.execute(
            "SELECT count(*) FROM interconnection_point_projects"
        ).fetchone()[0],
        "unparsedProjectLinks": conn.execute(
            "SELECT count(*) FROM interconnection_point_projects l JOIN interconnection_points p "
            "USING (point_id) WHERE p.kind = 'unparsed'"
        ).fetchone()[0],
    }


def history_rows_without_county(conn: sqlite3.Connection) -> int:
    return conn.execute("SELECT count(*) FROM queue_history WHERE county_fips IS NULL").fetchone()[
        0
    ]
