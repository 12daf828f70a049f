"""Reads for what changed since an assessment: facts that became known after an instant."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from typing import Any


def facts_known_since(
    conn: sqlite3.Connection, markets: Iterable[str], instant: str
) -> list[tuple[str, dict[str, Any]]]:
    """Return (kind, body) of every fact of the markets first known after `instant`."""
    wanted = sorted(set(markets))
    if not wanted:
        return []
    marks = ",".join("?" for _ in wanted)
    rows = conn.execute(
        f"SELECT kind, body FROM facts WHERE market IN ({marks}) AND known_from > ? "
        "ORDER BY kind, market, known_from, id",
        [*wanted, instant],
    ).fetchall()
    return [(r[0], json.loads(r[1])) for r in rows]


def fact_known_at(conn: sqlite3.Connection, fact_key: str, instant: str) -> dict[str, Any] | None:
    """Return the version of a fact (by its factKey) that was current knowledge at `instant`."""
    row = conn.execute(
        "SELECT body FROM facts WHERE json_extract(body, '$.factKey') = ? "
        "AND known_from <= ? AND (known_to IS NULL OR known_to > ?) "
        "ORDER BY known_from DESC, id DESC LIMIT 1",
        (fact_key, instant, instant),
    ).fetchone()
    return json.loads(row[0]) if row else None


def fact_times_by_market(conn: sqlite3.Connection) -> dict[str, list[str]]:
    """Return {market (upper case): every fact's known_from, sorted}."""
    found: dict[str, list[str]] = {}
    for market, known_from in conn.execute(
        "SELECT upper(market), known_from FROM facts ORDER BY 1, 2"
    ):
        found.setdefault(market, []).append(known_from)
    return found
