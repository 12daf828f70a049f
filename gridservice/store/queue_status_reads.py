"""SQL behind a queue record's status now (the rule itself lives in gridservice.catalogue.queue_status)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from typing import Any

from gridservice.store import writer


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
    """Store each record's `statusNow` in its body where it changed; return how many changed.

    The body is rewritten in Python rather than with SQLite's json_set, so the same statement
    runs on both backends."""
    changed = []
    for record_id, body in conn.execute("SELECT id, body FROM queue_records ORDER BY id"):
        value = status_now.get(record_id)
        if value is None:
            continue
        record = json.loads(body)
        if record.get("statusNow") == value:
            continue
        record["statusNow"] = value
        changed.append((writer.dump_record(record), record_id))
    conn.executemany("UPDATE queue_records SET body = ? WHERE id = ?", changed)
    return len(changed)
