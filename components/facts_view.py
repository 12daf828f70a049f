"""Market facts (load forecasts, resource adequacy): frames, restatements, time travel.

A fact can be restated: a later report replaces a value, and the earlier version stays
known for the time before. `GET` with `known_at` returns what was known then, so walking
back from a version's `knownFrom` one second at a time gives its whole history.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable
from typing import Any

import pandas as pd
import streamlit as st

from components import glossary
from components.tables import (
    PROVENANCE_HELP,
    as_text,
    attribute,
    by_attribute,
    flags_text,
    record_source_title,
    records_frame,
)
from gridclient import Fact

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
PROVENANCE_TABLE = ["row", "factVersion", "knownFrom", "source", "sourceLocator", "sourceId"]


def facts_frame(facts: Iterable[Fact]) -> pd.DataFrame:
    """Return facts as a flat frame with their evidence page, quote and provenance."""
    facts = list(facts)
    columns: dict[str, Any] = by_attribute(FACT_COLUMNS) | {
        "measure": measure,
        "page": "evidence.page",
        "quote": "evidence.quote",
        "parserConfidence": "evidence.parser_confidence",
        "source": record_source_title,
        "sourceLocator": "evidence.source_locator",
        "qualityFlags": lambda fact: flags_text(fact.quality_flags),
    }
    frame = records_frame(facts, columns)
    frame["row"] = range(1, len(facts) + 1)
    frame["value"] = pd.to_numeric(frame["value"], errors="coerce")
    frame["knownFrom"] = pd.to_datetime(frame["knownFrom"], utc=True, errors="coerce")
    for column in ("validFrom", "validTo"):
        frame[column] = pd.to_datetime(frame[column], errors="coerce").dt.date
    return frame


def measure(fact: Fact) -> str:
    """Return what a fact measures in words: `summer_peak_demand_forecast` -> `Summer peak demand forecast`."""
    return glossary.label("predicate", fact.predicate)


def flag_lines(facts: Iterable[Fact]) -> list[str]:
    """Return one line per flagged fact: its row number, name and flags; unflagged facts omitted."""
    return [
        f"#{number} {fact_label(fact)}: {flags_text(fact.quality_flags)}"
        for number, fact in enumerate(facts, start=1)
        if fact.quality_flags
    ]


def before(known_from: dt.datetime) -> str:
    """Return the instant one second before a `known_from` date-time, in the wire's UTC form."""
    moment = known_from if known_from.tzinfo else known_from.replace(tzinfo=dt.UTC)
    earlier = (moment - dt.timedelta(seconds=1)).astimezone(dt.UTC)
    return earlier.strftime("%Y-%m-%dT%H:%M:%SZ")


def fact_history(
    fact: Fact,
    known_at: Callable[[str], Iterable[Fact]],
    *,
    max_versions: int = 20,
) -> list[Fact]:
    """Return every known version of a fact, newest first.

    `known_at(instant)` lists the facts known at that instant (the page passes a client
    call filtered by the fact's market and period); the version with the same `factKey`
    known just before the current one's `knownFrom` is the one it restated.
    """
    versions = [fact]
    while len(versions) < max_versions and versions[-1].known_from:
        instant = before(versions[-1].known_from)
        earlier = [f for f in known_at(instant) if f.fact_key == fact.fact_key]
        if not earlier or earlier[0].id in {v.id for v in versions}:
            break
        versions.append(earlier[0])
    return versions


def history_frame(versions: Iterable[Fact]) -> pd.DataFrame:
    """Return a fact's versions as (knownFrom, knownTo, value, factVersion, series) rows, oldest first."""
    frame = records_frame(
        versions,
        {
            "knownFrom": lambda v: pd.to_datetime(v.known_from, utc=True),
            "knownTo": lambda v: as_text(v.known_to) or None,
            "value": "value",
            "unit": "unit",
            "factVersion": "fact_version",
            "series": "fact_key",
            "id": "id",
        },
    )
    return frame.sort_values("knownFrom").reset_index(drop=True)


def known_at_param(day: dt.date | None, time_of_day: dt.time | None) -> str | None:
    """Return a `known_at` date-time in UTC from a date and an optional time, or None."""
    if day is None:
        return None
    moment = dt.datetime.combine(day, time_of_day or dt.time(), tzinfo=dt.UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def fact_label(fact: Fact) -> str:
    """Return a short name for a fact: predicate, period, scenario, version."""
    return (
        f"{glossary.label('market', fact.market)} · {measure(fact)} · {fact.period} · "
        f"{glossary.label('scenario', fact.scenario)} (version {fact.fact_version})"
    )


def value_unit(facts: Iterable[Fact]) -> str:
    """Return the one unit the facts share, for the value column's title; "mixed units" if not."""
    units = {fact.unit or "no unit" for fact in facts}
    return units.pop() if len(units) == 1 else "mixed units"


def table_config(unit: str = "MW") -> dict[str, Any]:
    """Column configs of the facts and provenance tables: short labels, narrow codes and numbers."""
    return {
        "row": st.column_config.NumberColumn("#", width=34, format="%d"),
        "market": st.column_config.TextColumn("Market", width=56),
        "measure": st.column_config.TextColumn("Measure", width=190),
        "period": st.column_config.TextColumn("Period", width=54),
        "scenario": st.column_config.TextColumn("Scenario", width=110),
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


def provenance_text(fact: Fact) -> str:
    """Return one fact's provenance as a line: source, locator, page, known from/to, flags."""
    flags = flags_text(fact.quality_flags) or "none"
    locator = attribute("evidence.source_locator")(fact)
    return (
        f"Record {fact.id} · {record_source_title(fact)} · locator {locator}"
        f" · page {attribute('evidence.page')(fact)}"
        f" · known from {glossary.when(fact.known_from) or 'an unstated time'}"
        f" to {glossary.when(fact.known_to) or 'now'}"
        f" · quality flags: {flags}"
    )


def history_config(unit: str) -> dict[str, Any]:
    """Column configs of a fact's history table."""
    return {
        "knownFrom": st.column_config.DatetimeColumn("Known from (UTC)", format="YYYY-MM-DD HH:mm"),
        "knownTo": st.column_config.TextColumn("Known to"),
        "value": st.column_config.NumberColumn("Value", format=f"%.0f {unit}".strip()),
        "factVersion": st.column_config.TextColumn("Version"),
    }
