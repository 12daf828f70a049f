"""Hourly balancing-authority operations shaped for the demand and fuel-mix charts."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

import pandas as pd

from components import data, glossary
from components.connection import ConnectionKey
from components.tables import PROVENANCE_COLUMNS, by_attribute, records_frame
from gridclient import BalancingAuthorityOperation

SERIES = {
    "demandMw": "Demand",
    "demandForecastMw": "Demand forecast",
    "netGenerationMw": "Net generation",
    "totalInterchangeMw": "Total interchange",
}
OPERATION_COLUMNS = [
    "utcTime",
    "localTime",
    "balancingAuthorityCode",
    "region",
    "demandMw",
    "demandForecastMw",
    "demandAdjustedMw",
    "netGenerationMw",
    "netGenerationAdjustedMw",
    "totalInterchangeMw",
    "totalInterchangeAdjustedMw",
    "sourceId",
    "sourceLocator",
    "observedAt",
    "qualityFlags",
]


WHOLE_AUTHORITY = "Whole balancing authority"
# The longest window the page reads and draws, in days: every hour of it, of the whole
# authority and each subregion (EIA-930 lists ERCOT's 8 weather zones beside it: about
# 20,000 records for 93 days), while a chart of hours stays readable.
MAX_WINDOW_DAYS = 93


def authority_codes(*record_lists: Iterable[Any]) -> list[str]:
    """Return the distinct balancing-authority codes the records name, upper-case, sorted."""
    codes = {
        str(record.balancing_authority_code).strip().upper()
        for records in record_lists
        for record in records
        if str(record.balancing_authority_code or "").strip()
    }
    return sorted(codes)


def authority_choices(conn: ConnectionKey) -> tuple[list[str], list[str]]:
    """Return (codes with hourly operations, codes named elsewhere without any).

    Plants, generators and the first page of operations name the candidates (a harvested
    plants file may carry no code at all); one single-record request per candidate keeps
    only those with data, without walking hundreds of thousands of hours.
    """
    named = authority_codes(data.all_generation_plants(conn), data.all_generators(conn))
    first_page = data.balancing_authority_operations(conn, max_items=500)
    listed = authority_codes(first_page)
    candidates = sorted(set(named) | set(listed))
    with_data = [c for c in candidates if c in listed or data.has_operations_from(conn, c, None)]
    return with_data, [c for c in candidates if c not in with_data]


def latest_week(last_day: dt.date) -> tuple[dt.date, dt.date]:
    """Return the default window: the seven UTC days that end with the last day of data."""
    return last_day - dt.timedelta(days=6), last_day


def region_label(region: Any) -> str:
    """Return how a region is offered: its code, or the whole authority when it has none."""
    return str(region) if region not in (None, "") else WHOLE_AUTHORITY


def region_options(operations: Iterable[BalancingAuthorityOperation]) -> list[str]:
    """Return the regions in the window, the whole authority first (EIA-930 lists both)."""
    labels = {region_label(op.region) for op in operations}
    return sorted(labels, key=lambda label: (label != WHOLE_AUTHORITY, label))


def in_region(
    operations: Iterable[BalancingAuthorityOperation], label: str
) -> list[BalancingAuthorityOperation]:
    """Return the operations of one region label (so hours of subregions are not mixed in)."""
    return [op for op in operations if region_label(op.region) == label]


def operations_frame(operations: Iterable[BalancingAuthorityOperation]) -> pd.DataFrame:
    """Return hourly operations as a frame sorted by UTC time, with provenance and flags."""
    frame = records_frame(operations, by_attribute(OPERATION_COLUMNS[:11]) | PROVENANCE_COLUMNS)
    frame["utcTime"] = pd.to_datetime(frame["utcTime"], utc=True, errors="coerce")
    for column in OPERATION_COLUMNS[4:11]:
        frame[column] = pd.to_numeric(frame[column], errors="coerce")
    return frame.sort_values("utcTime").reset_index(drop=True)


def demand_long(frame: pd.DataFrame) -> pd.DataFrame:
    """Return demand, its forecast, net generation and interchange as (utcTime, series, value)."""
    long = frame.melt(
        id_vars=["utcTime"], value_vars=list(SERIES), var_name="series", value_name="value"
    )
    long["series"] = long["series"].map(SERIES)
    return long.dropna(subset=["value"]).reset_index(drop=True)


def fuel_mix_long(operations: Iterable[BalancingAuthorityOperation]) -> pd.DataFrame:
    """Return generation by fuel as (utcTime, series, value) for a stacked area."""
    rows = [
        {"utcTime": op.utc_time, "series": glossary.words(fuel), "value": mw}
        for op in operations
        for fuel, mw in (op.generation_by_fuel_mw or {}).items()
        if mw is not None
    ]
    frame = pd.DataFrame(rows, columns=["utcTime", "series", "value"])
    frame["utcTime"] = pd.to_datetime(frame["utcTime"], utc=True, errors="coerce")
    frame["value"] = pd.to_numeric(frame["value"], errors="coerce")
    return frame.sort_values(["utcTime", "series"]).reset_index(drop=True)


def bounded_window(start: dt.date, end: dt.date) -> tuple[dt.date, dt.date, bool]:
    """Return the window's first and last day in order, cut to its first `MAX_WINDOW_DAYS`
    days, and whether it was cut."""
    if end < start:
        start, end = end, start
    last = start + dt.timedelta(days=MAX_WINDOW_DAYS - 1)
    return start, min(end, last), end > last


def coverage_note(frame: pd.DataFrame, start: dt.date, end: dt.date) -> str | None:
    """Return a line saying which part of the window [start, end] (whole UTC days) the hours
    cover, or None when they run from its first hour to its last: "Hours 720" over a 93-day
    window reads as a gap-free month otherwise."""
    first, last = frame["utcTime"].min(), frame["utcTime"].max()
    opens = pd.Timestamp(start, tz="UTC")
    closes = pd.Timestamp(end, tz="UTC") + pd.Timedelta(hours=23)
    if first <= opens and last >= closes:
        return None
    return (
        f"Hourly data in this window runs from {first:%Y-%m-%d %H:%M} to {last:%Y-%m-%d %H:%M} "
        f"UTC; the window is {start} to {end}."
    )


def window_bounds(start: dt.date, end: dt.date) -> tuple[str, str]:
    """Return the service's `start` and `end` for whole UTC days, `end` exclusive the day after."""
    if end < start:
        start, end = end, start
    first = dt.datetime.combine(start, dt.time(), tzinfo=dt.UTC)
    after = dt.datetime.combine(end + dt.timedelta(days=1), dt.time(), tzinfo=dt.UTC)
    return first.strftime("%Y-%m-%dT%H:%M:%SZ"), after.strftime("%Y-%m-%dT%H:%M:%SZ")


def summary(frame: pd.DataFrame) -> dict[str, float | None]:
    """Return peak demand, mean forecast error and hours in the window for the metrics row."""
    if frame.empty:
        return {"hours": 0, "peakDemandMw": None, "meanForecastErrorMw": None}
    error = (frame["demandMw"] - frame["demandForecastMw"]).abs()
    return {
        "hours": int(len(frame)),
        "peakDemandMw": None if frame["demandMw"].isna().all() else float(frame["demandMw"].max()),
        "meanForecastErrorMw": None if error.dropna().empty else float(error.mean()),
    }
