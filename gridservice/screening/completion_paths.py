"""Each project's path through a market's harvested reports, read once per store edition.

Completion for a radius of twenty counties used to ask the database for every month of each
of their projects (about 15,000 rows ranked per answer, two seconds). The paths and each
project's newest queued row per county change only when the history does, so they are read
for the whole market once and kept in memory, keyed like the polygon layers on the store's
data snapshot hash (or, while none is kept, the history's own signature): an answer picks its
counties' projects from memory. A harvest changes the key, so nothing stale is answered.
"""

from __future__ import annotations

import sqlite3
import threading
from collections import OrderedDict
from typing import Any

from gridservice.geography.polygon_index import snapshot_key
from gridservice.store import completion_reads

Row = dict[str, Any]
_CACHE_SIZE = 4
_cache: OrderedDict[tuple[Any, ...], MarketPaths] = OrderedDict()
_lock = threading.Lock()


class MarketPaths:
    """The paths of one market's projects (by upper-case id) and, per county, each project's
    newest queued row there."""

    def __init__(self, paths: list[Row], places: list[Row]) -> None:
        self.paths = {path["project_key"]: path for path in paths}
        self.places: dict[str, list[Row]] = {}
        for place in places:
            self.places.setdefault(place["county_fips"], []).append(place)

    def in_counties(self, county_fips: list[str]) -> list[Row]:
        """Return, per project queued in some counties, its path and its newest queued row
        among them (newest month, the large-gen sheet first; of a tie, the first county),
        by project id."""
        newest: dict[str, Row] = {}
        for fips in sorted(county_fips):
            for place in self.places.get(fips, ()):
                kept = newest.get(place["project_key"])
                if kept is None or place["newest"] > kept["newest"]:
                    newest[place["project_key"]] = place
        return [{**self.paths[key], **newest[key]} for key in sorted(newest)]


def market_paths(conn: sqlite3.Connection, market: str) -> MarketPaths:
    """Return the kept paths of a market for this store edition, reading them when missing."""
    key = snapshot_key(
        conn, f"completion:{market.upper()}", lambda: completion_reads.history_signature(conn)
    )
    with _lock:
        found = _cache.get(key)
        if found is not None:
            _cache.move_to_end(key)
            return found
    found = MarketPaths(
        completion_reads.market_paths(conn, market), completion_reads.market_places(conn, market)
    )
    with _lock:
        _cache[key] = found
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)
    return found


def project_paths(conn: sqlite3.Connection, market: str, county_fips: list[str]) -> list[Row]:
    """Return, per project a report of `market` queues in some counties, its path (first and
    last queued month, IA date, first month with security, the newest month each event sheet
    lists it, COD approval date) and its newest queued row in those counties."""
    return market_paths(conn, market).in_counties(county_fips)
