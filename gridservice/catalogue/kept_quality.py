"""The quality report kept in the store beside the data it counts.

Counting the report reads every queue record and its details: 0.2 processor-seconds on the
demo store, about 6 on the full national build, and every service start needs it (the
release hashes it; /v1/quality serves it). The counts depend only on the public data tables
(`meta_reads.DATA_TABLES`, any change to which forgets the kept snapshot hash) and on this
package's code. So a report, once counted, is kept in `meta` with the snapshot hash and the
build artifact's hash it was counted from, and a start over the same data and code serves
it. Its `generatedAt` stays the moment it was counted.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from typing import Any

from gridservice.catalogue.quality import compute_quality
from gridservice.catalogue.release import build_artifact_sha256
from gridservice.store import meta_reads

QUALITY_KEY = "quality_report"


def _kept(conn: sqlite3.Connection, snapshot: str, artifact: str) -> dict[str, Any] | None:
    """Return the kept report if it was counted from this snapshot by this code, else None."""
    text = meta_reads.get_meta(conn, QUALITY_KEY)
    try:
        entry = json.loads(text) if text else None
    except ValueError:
        return None
    if not isinstance(entry, dict) or not isinstance(entry.get("report"), dict):
        return None
    if entry.get("snapshot") != snapshot or entry.get("artifact") != artifact:
        return None
    return entry["report"]


def quality_report(conn: sqlite3.Connection) -> dict[str, Any]:
    """Return the store's quality report (`compute_quality`): the kept one when it was
    counted from the store's present data by this code, else counted now and kept.

    The report is kept only if the data did not change while it was counted (the snapshot
    hash is still there and the same) and the store takes writes; otherwise it is served
    as counted and counted again at the next start.
    """
    snapshot = meta_reads.data_snapshot_sha256(conn)
    artifact = build_artifact_sha256()
    kept = _kept(conn, snapshot, artifact)
    if kept is not None:
        return kept
    report = compute_quality(conn)
    if meta_reads.get_meta(conn, meta_reads.SNAPSHOT_KEY) == snapshot:
        entry = {"snapshot": snapshot, "artifact": artifact, "report": report}
        # a store that takes no writes serves the report without keeping it
        with contextlib.suppress(sqlite3.OperationalError):
            meta_reads.set_meta(conn, QUALITY_KEY, json.dumps(entry, separators=(",", ":")))
    return report
