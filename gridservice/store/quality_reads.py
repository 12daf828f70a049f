"""Reads behind the /v1/quality report (the rules themselves live in gridservice.quality)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator


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
