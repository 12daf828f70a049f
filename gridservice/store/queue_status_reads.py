"""SQL behind a queue record's status now (the rule itself lives in gridservice.queue_status)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from typing import Any


def queue_words(conn: sqlite3.Connection) -> list[dict[str, Any]]:
    """Return what every stored queue record says of its project, by id.

    Each item: id, sourceId, market, recordKey, status, observedAt, sourceLocator, and from
    the details' evidence `authority` and `dataThrough` (None when absent).
    """
    rows = conn.execute(
        "SELECT q.id, json_extract(q.body, '$.sourceId'), q.market, "
        "json_extract(q.body, '$.recordKey'), json_extract(q.body, '$.status'), "
        "json_extract(q.body, '$.observedAt'), json_extract(q.body, '$.sourceLocator'), "
        "json_extract(d.body, '$.evidence.authority'), "
        "json_extract(d.body, '$.evidence.dataThrough') "
        "FROM queue_records q LEFT JOIN queue_record_details d ON d.record_id = q.id "
        "ORDER BY q.id"
    ).fetchall()
    names = (
        "id", "sourceId", "market", "recordKey", "status", "observedAt", "sourceLocator",
        "authority", "dataThrough",
    )  # fmt: skip
    return [dict(zip(names, row, strict=True)) for row in rows]


def status_listings(conn: sqlite3.Connection) -> list[dict[str, Any]]:
    """Return every stored status listing body (inactive, cancelled, commissioned)."""
    rows = conn.execute(
        "SELECT body FROM queue_status_listings ORDER BY source_id, record_key, status"
    ).fetchall()
    return [json.loads(r[0]) for r in rows]


def queue_record_bodies(conn: sqlite3.Connection) -> list[dict[str, Any]]:
    """Return every queue record body, by id."""
    return [json.loads(r[0]) for r in conn.execute("SELECT body FROM queue_records ORDER BY id")]


def write_status_now(conn: sqlite3.Connection, status_now: Mapping[str, Mapping[str, Any]]) -> int:
    """Store each record's `statusNow` in its body where it changed; return how many changed."""
    changed = [
        (json.dumps(value, sort_keys=True), record_id, json.dumps(value, sort_keys=True))
        for record_id, value in status_now.items()
    ]
    cursor = conn.executemany(
        "UPDATE queue_records SET body = json_set(body, '$.statusNow', json(?)) "
        "WHERE id = ? AND json_extract(body, '$.statusNow') IS NOT json(?)",
        changed,
    )
    return cursor.rowcount
