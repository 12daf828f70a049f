"""Hourly balancing-authority operations shaped for the demand and fuel-mix charts."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from typing import Any

import pandas as pd

from components.tables import source_evidence_columns

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


def operations_frame(operations: Iterable[Mapping[str, Any]]) -> pd.DataFrame:
    """Return hourly operations as a frame sorted by UTC time, with provenance and flags."""
    rows = [
        {
            **{c: op.get(c) for c in OPERATION_COLUMNS[:11]},
            **source_evidence_columns(op),
        }
        for op in operations
    ]
    frame = pd.DataFrame(rows, columns=OPERATION_COLUMNS)
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


def fuel_mix_long(operations: Iterable[Mapping[str, Any]]) -> pd.DataFrame:
    """Return generation by fuel as (utcTime, series, value) for a stacked area."""
    rows = [
        {"utcTime": op.get("utcTime"), "series": fuel, "value": mw}
        for op in operations
        for fuel, mw in (op.get("generationByFuelMw") or {}).items()
        if mw is not None
    ]
    frame = pd.DataFrame(rows, columns=["utcTime", "series", "value"])
    frame["utcTime"] = pd.to_datetime(frame["utcTime"], utc=True, errors="coerce")
    frame["value"] = pd.to_numeric(frame["value"], errors="coerce")
    return frame.sort_values(["utcTime", "series"]).reset_index(drop=True)


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
        "peakDemandMw": float(frame["demandMw"].max()),
        "meanForecastErrorMw": None if error.dropna().empty else float(error.mean()),
    }
