"""Market facts (load forecasts, resource adequacy): frames, restatements, time travel.

A fact can be restated: a later report replaces a value, and the earlier version stays
known for the time before. `GET` with `known_at` returns what was known then, so walking
back from a version's `knownFrom` one second at a time gives its whole history.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import pandas as pd

from components.tables import flags_text

FACT_COLUMNS = [
    "factKey",
    "market",
    "predicate",
    "period",
    "scenario",
    "value",
    "unit",
    "validFrom",
    "validTo",
    "knownFrom",
    "knownTo",
    "factVersion",
    "assertionType",
    "page",
    "quote",
    "parserConfidence",
    "sourceId",
    "sourceLocator",
    "qualityFlags",
    "id",
]
KINDS = {"Load forecasts": "load_forecasts", "Resource adequacy": "resource_adequacy"}


def facts_frame(facts: Iterable[Mapping[str, Any]]) -> pd.DataFrame:
    """Return facts as a flat frame with their evidence page, quote and provenance."""
    rows = []
    for fact in facts:
        evidence = fact.get("evidence") or {}
        row = {c: fact.get(c) for c in FACT_COLUMNS}
        row.update(
            page=evidence.get("page"),
            quote=evidence.get("quote"),
            parserConfidence=evidence.get("parserConfidence"),
            sourceLocator=evidence.get("sourceLocator"),
            qualityFlags=flags_text(fact.get("qualityFlags")),
        )
        rows.append(row)
    frame = pd.DataFrame(rows, columns=FACT_COLUMNS)
    frame["value"] = pd.to_numeric(frame["value"], errors="coerce")
    return frame


def before(known_from: str) -> str:
    """Return the instant one second before a `knownFrom` date-time, in the wire's UTC form."""
    moment = dt.datetime.fromisoformat(known_from.replace("Z", "+00:00"))
    earlier = (moment - dt.timedelta(seconds=1)).astimezone(dt.UTC)
    return earlier.strftime("%Y-%m-%dT%H:%M:%SZ")


def fact_history(
    fact: Mapping[str, Any],
    known_at: Callable[[str], Iterable[Mapping[str, Any]]],
    *,
    max_versions: int = 20,
) -> list[dict[str, Any]]:
    """Return every known version of a fact, newest first.

    `known_at(instant)` lists the facts known at that instant (the page passes a client
    call filtered by the fact's market and period); the version with the same `factKey`
    known just before the current one's `knownFrom` is the one it restated.
    """
    versions = [dict(fact)]
    while len(versions) < max_versions and versions[-1].get("knownFrom"):
        instant = before(versions[-1]["knownFrom"])
        earlier = [f for f in known_at(instant) if f.get("factKey") == fact.get("factKey")]
        if not earlier or earlier[0].get("id") in {v.get("id") for v in versions}:
            break
        versions.append(dict(earlier[0]))
    return versions


def history_frame(versions: Iterable[Mapping[str, Any]]) -> pd.DataFrame:
    """Return a fact's versions as (knownFrom, knownTo, value, factVersion, series) rows, oldest first."""
    rows = [
        {
            "knownFrom": pd.to_datetime(v.get("knownFrom"), utc=True),
            "knownTo": v.get("knownTo"),
            "value": v.get("value"),
            "unit": v.get("unit"),
            "factVersion": v.get("factVersion"),
            "series": v.get("factKey"),
            "id": v.get("id"),
        }
        for v in versions
    ]
    frame = pd.DataFrame(
        rows, columns=["knownFrom", "knownTo", "value", "unit", "factVersion", "series", "id"]
    )
    return frame.sort_values("knownFrom").reset_index(drop=True)


def known_at_param(day: dt.date | None, time_of_day: dt.time | None) -> str | None:
    """Return a `known_at` date-time in UTC from a date and an optional time, or None."""
    if day is None:
        return None
    moment = dt.datetime.combine(day, time_of_day or dt.time(), tzinfo=dt.UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def fact_label(fact: Mapping[str, Any]) -> str:
    """Return a short name for a fact: predicate, period, scenario, version."""
    predicate = str(fact.get("predicate") or "").replace("_", " ")
    return (
        f"{fact.get('market')} · {predicate} · {fact.get('period')} · "
        f"{fact.get('scenario')} (version {fact.get('factVersion')})"
    )


def table_config() -> dict[str, Any]:
    """Column configs of the facts table: MW, dates, the uncalibrated parser confidence."""
    import streamlit as st

    from components.tables import mw_column, provenance_config

    return {
        **provenance_config(),
        "value": mw_column("Value"),
        "parserConfidence": st.column_config.NumberColumn(
            "Parser confidence (uncalibrated)",
            format="%.2f",
            help="How sure the document parser was: uncalibrated, not an accuracy.",
        ),
        "quote": st.column_config.TextColumn("Evidence quote", width="medium"),
        "page": st.column_config.NumberColumn("Page", format="%d"),
    }
