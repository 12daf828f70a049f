"""The datasets that cover only some markets, and what an answer for a site outside them
says in their place (`abstentions`): the dataset, the markets it covers and as of when, and
the site's markets it is missing for; never a zero that reads as "nothing there".

ERCOT's CDR reserve margins (with any other market's load-forecast and adequacy facts), the
monthly queue reports behind the queue history and dropout rates, and EIA-930's hourly
operations are each loaded for a few markets; which ones is read from the store, so a store
that loads another market's rows covers it without a change here.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import Any

from gridservice.geography.markets import BALANCING_AUTHORITY_MARKETS
from gridservice.store import coverage_reads

# A source this much older than the newest of the answer is said to be dated.
STALE_AFTER_DAYS = 365


@dataclass(frozen=True)
class PartialDataset:
    """A dataset loaded for some markets only, and how to read which."""

    dataset: str
    title: str
    # What an answer lacks where the dataset does not reach.
    lacking: str
    markets: Callable[[sqlite3.Connection], list[tuple[str, str | None]]]


def _operations_markets(conn: sqlite3.Connection) -> list[tuple[str, str | None]]:
    by_market: dict[str, str | None] = {}
    for code, newest in coverage_reads.operations_areas(conn):
        market = BALANCING_AUTHORITY_MARKETS.get(code, code)
        by_market[market] = max(filter(None, (by_market.get(market), newest)), default=None)
    return sorted(by_market.items())


RESERVE_MARGINS = PartialDataset(
    "reserve_margins",
    "Reserve margins (load forecasts and resource adequacy, as ERCOT's CDR report gives them)",
    "no reserve margin or load-growth finding",
    coverage_reads.fact_markets,
)
QUEUE_HISTORY = PartialDataset(
    "queue_history",
    "ERCOT monthly GIS queue reports (queue history, firmness, changes, dropout)",
    "no changes, firmness or dropout rates",
    coverage_reads.report_markets,
)
OPERATIONS = PartialDataset(
    "balancing_authority_operations",
    "Balancing-authority hourly operations (EIA-930)",
    "no hourly demand or fuel mix",
    _operations_markets,
)
PARTIAL_DATASETS = (RESERVE_MARGINS, QUEUE_HISTORY, OPERATIONS)


def coverage(conn: sqlite3.Connection, declared: PartialDataset) -> dict[str, str | None]:
    """Return the markets (upper case) a dataset holds rows for, each with its newest date."""
    return dict(declared.markets(conn))


def abstention(
    declared: PartialDataset,
    covered: dict[str, str | None],
    missing: list[str],
    outside: str | None = None,
) -> dict[str, Any]:
    """Return the abstention of a dataset for the markets it is `missing` (none named: a site
    outside every ISO, `outside` its region's label, or else one whose market is not known)."""
    covers = ", ".join(covered) if covered else "no market (not loaded)"
    unnamed = f"a site in {outside}" if outside else "a site whose market is not known"
    where = ", ".join(missing) or unnamed
    as_of = max(filter(None, covered.values()), default=None)
    return {
        "dataset": declared.dataset,
        "title": declared.title,
        "coversMarkets": sorted(covered),
        "missingForMarkets": missing,
        "asOf": as_of[:10] if as_of else None,
        "statement": f"{declared.title}: loaded for {covers} only, not for {where}: "
        f"{declared.lacking} here.",
    }


def dataset_abstentions(
    conn: sqlite3.Connection,
    markets: list[str],
    datasets: tuple[PartialDataset, ...],
    *,
    outside: str | None = None,
) -> list[dict[str, Any]]:
    """Return an abstention for each dataset that covers none of a site's markets (`outside`:
    the label of the region of a site in no ISO, "no ISO: West")."""
    wanted = [m.upper() for m in markets]
    found = []
    for declared in datasets:
        covered = coverage(conn, declared)
        if not any(m in covered for m in wanted):
            found.append(abstention(declared, covered, sorted(set(wanted)), outside))
    return found


def is_dated(as_of: str | None, newest: str | None) -> bool:
    """Return whether a source of `as_of` is more than a year older than `newest`."""
    if not as_of or not newest:
        return False
    later, earlier = date.fromisoformat(newest[:10]), date.fromisoformat(as_of[:10])
    return (later - earlier).days > STALE_AFTER_DAYS
