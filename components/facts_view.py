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
    "row",
    "factKey",
    "measure",
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
# What fits beside the sidebar at 1280 px: the numbers in one table, where and when each was
# known in a second (joined by the row number), quote and parser confidence for the chosen fact.
FACT_TABLE = ["row", "market", "measure", "period", "scenario", "value", "validFrom", "validTo"]
PROVENANCE_TABLE = ["row", "factVersion", "knownFrom", "sourceId", "sourceLocator"]


def facts_frame(facts: Iterable[Mapping[str, Any]]) -> pd.DataFrame:
    """Return facts as a flat frame with their evidence page, quote and provenance."""
    rows = []
    for number, fact in enumerate(facts, start=1):
        evidence = fact.get("evidence") or {}
        row = {c: fact.get(c) for c in FACT_COLUMNS}
        row.update(
            row=number,
            measure=measure(fact),
            page=evidence.get("page"),
            quote=evidence.get("quote"),
            parserConfidence=evidence.get("parserConfidence"),
            sourceLocator=evidence.get("sourceLocator"),
            qualityFlags=flags_text(fact.get("qualityFlags")),
        )
        rows.append(row)
    frame = pd.DataFrame(rows, columns=FACT_COLUMNS)
    frame["value"] = pd.to_numeric(frame["value"], errors="coerce")
    frame["knownFrom"] = pd.to_datetime(frame["knownFrom"], utc=True, errors="coerce")
    for column in ("validFrom", "validTo"):
        frame[column] = pd.to_datetime(frame[column], errors="coerce").dt.date
    return frame


def measure(fact: Mapping[str, Any]) -> str:
    """Return what a fact measures in words: `summer_peak_demand_forecast` -> `summer peak demand forecast`."""
    return str(fact.get("predicate") or "").replace("_", " ")


def flag_lines(facts: Iterable[Mapping[str, Any]]) -> list[str]:
    """Return one line per flagged fact: its row number, name and flags; unflagged facts omitted."""
    return [
        f"#{number} {fact_label(fact)}: {flags_text(fact.get('qualityFlags'))}"
        for number, fact in enumerate(facts, start=1)
        if fact.get("qualityFlags")
    ]


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


def value_unit(facts: Iterable[Mapping[str, Any]]) -> str:
    """Return the one unit the facts share, for the value column's title; "mixed units" if not."""
    units = {fact.get("unit") or "no unit" for fact in facts}
    return units.pop() if len(units) == 1 else "mixed units"


def table_config(unit: str = "MW") -> dict[str, Any]:
    """Column configs of the facts and provenance tables: short labels, narrow codes and numbers."""
    import streamlit as st

    from components.tables import PROVENANCE_HELP

    return {
        "row": st.column_config.NumberColumn("#", width=34, format="%d"),
        "market": st.column_config.TextColumn("Market", width=56),
        "measure": st.column_config.TextColumn("Measure", width=190),
        "period": st.column_config.TextColumn("Period", width=54),
        "scenario": st.column_config.TextColumn("Scenario", width=68),
        "value": st.column_config.NumberColumn(f"Value ({unit})", format="localized", width=96),
        "validFrom": st.column_config.DateColumn("Valid from", width=86),
        "validTo": st.column_config.DateColumn("Valid to", width=86),
        "factVersion": st.column_config.TextColumn("Version", width=64),
        "knownFrom": st.column_config.DatetimeColumn(
            "Known from (UTC)", format="YYYY-MM-DD HH:mm", width=140, help=PROVENANCE_HELP
        ),
        "sourceId": st.column_config.TextColumn("Source id", help=PROVENANCE_HELP),
        "sourceLocator": st.column_config.TextColumn("Locator", help=PROVENANCE_HELP),
    }


def picked_fact_id(selection: Any, frame: pd.DataFrame) -> str | None:
    """Return the id of the fact on the selected row of the facts table, or None."""
    rows = list(getattr(getattr(selection, "selection", None), "rows", None) or [])
    if not rows or not 0 <= rows[0] < len(frame):
        return None
    return str(frame.iloc[rows[0]]["id"])


def provenance_text(fact: Mapping[str, Any]) -> str:
    """Return one fact's provenance as a line: source, locator, page, known from/to, flags."""
    evidence = fact.get("evidence") or {}
    flags = flags_text(fact.get("qualityFlags")) or "none"
    return (
        f"Record {fact.get('id')} · source {fact.get('sourceId')} · locator "
        f"{evidence.get('sourceLocator')} · page {evidence.get('page')} · known from "
        f"{fact.get('knownFrom')} to {fact.get('knownTo') or 'now'} · quality flags: {flags}"
    )


def history_config(unit: str) -> dict[str, Any]:
    """Column configs of a fact's history table."""
    import streamlit as st

    return {
        "knownFrom": st.column_config.DatetimeColumn("Known from (UTC)", format="YYYY-MM-DD HH:mm"),
        "knownTo": st.column_config.TextColumn("Known to"),
        "value": st.column_config.NumberColumn("Value", format=f"%.0f {unit}".strip()),
        "factVersion": st.column_config.TextColumn("Version"),
    }
