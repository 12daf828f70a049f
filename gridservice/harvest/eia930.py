"""EIA-930 hourly balancing-authority operations for ERCOT (ERCO), from the EIA files.

Three shapes of file are read, each its own source (a newer file of one shape replaces
that shape's rows only): hourly demand with the day-ahead forecast, hourly demand of ERCO
and its weather-zone subregions, and hourly net generation by fuel. `MISSING` and
blanks are null. Forecasts far from demand are flagged by `gridservice.catalogue.quality`.
"""

from __future__ import annotations

import datetime as dt
import sqlite3
from functools import lru_cache
from zoneinfo import ZoneInfo

from gridservice.catalogue.quality import ba_operation_quality_flags
from gridservice.harvest._base import Asset, Harvest, rejection
from gridservice.harvest._csv import csv_rows, number
from gridservice.store import harvest_store, writer

BA = "ERCO"
LOCAL = ZoneInfo("America/Chicago")
SUBREGIONS = ["COAS", "EAST", "FWES", "NCEN", "NRTH", "SCEN", "SOUT", "WEST"]
FUELS = ["battery_storage", "coal", "hydro", "natural_gas", "nuclear", "other", "solar", "wind"]

DEMAND_FORECAST = "eia930_demand_forecast"
SUBREGION_DEMAND = "eia930_subregion_demand"
FUEL_MIX = "eia930_generation_by_fuel"


def _utc(text: str) -> dt.datetime | None:
    try:
        value = dt.datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        return None
    return value.replace(tzinfo=dt.UTC) if value.tzinfo is None else value.astimezone(dt.UTC)


@lru_cache(maxsize=16)
def _times(moment: dt.datetime) -> tuple[str, str]:
    """Return an hour's UTC and Central time texts; a subregion file's line gives nine
    operations of the same hour, so each hour is formatted once, not nine times."""
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ"), moment.astimezone(LOCAL).isoformat()


def _operation(source_id, asset, line, moment, region, **values) -> dict:
    utc, local = _times(moment)
    operation = {
        "id": f"eia930-{BA}{'-' + region if region else ''}-{utc}",
        "balancingAuthorityCode": BA,
        "utcTime": utc,
        "localTime": local,
        "region": region,
        "demandForecastMw": values.get("demandForecastMw"),
        "demandMw": values.get("demandMw"),
        "demandAdjustedMw": None,
        "netGenerationMw": values.get("netGenerationMw"),
        "netGenerationAdjustedMw": None,
        "totalInterchangeMw": None,
        "totalInterchangeAdjustedMw": None,
        "generationByFuelMw": values.get("generationByFuelMw"),
        "evidence": {
            "sourceId": source_id,
            "assetHash": asset.sha256,
            "sourceLocator": f"{asset.file_name}#R{line}",
            "observedAt": asset.harvested_at,
        },
        "qualityFlags": [],
    }
    operation["qualityFlags"] = ba_operation_quality_flags(operation)
    return operation


def _harvest(source_id: str, asset: Asset, columns: list[str], expected: str, build) -> Harvest:
    operations, rejections, read = [], [], 0
    for line, row in csv_rows(asset, columns, expected):
        read += 1
        moment = _utc(row[columns[0]] or "")
        if moment is None:
            rejections.append(
                rejection(f"{asset.file_name}#R{line}", f"{columns[0]} is not a date-time")
            )
            continue
        operations += build(asset, line, moment, row)

    def store(conn: sqlite3.Connection) -> None:
        harvest_store.delete_ba_operations(conn, source_id)
        writer.insert_ba_operations(conn, operations)

    return Harvest(source_id, read, read - len(rejections), rejections, store,
                   notes={"operations": len(operations)})  # fmt: skip


def parse_demand_forecast(asset: Asset, conn: sqlite3.Connection) -> Harvest:
    def build(asset, line, moment, row):
        values = {
            "demandMw": number(row["demand_mw"]),
            "demandForecastMw": number(row["demand_forecast_mw"]),
        }
        return [_operation(DEMAND_FORECAST, asset, line, moment, None, **values)]

    columns = ["utc_time", "demand_mw", "demand_forecast_mw"]
    return _harvest(
        DEMAND_FORECAST, asset, columns, "EIA-930 ERCO hourly demand and forecast", build
    )


def parse_subregion_demand(asset: Asset, conn: sqlite3.Connection) -> Harvest:
    def build(asset, line, moment, row):
        ops = [_operation(SUBREGION_DEMAND, asset, line, moment, None, demandMw=number(row[BA]))]
        for sub in SUBREGIONS:
            ops.append(_operation(SUBREGION_DEMAND, asset, line, moment, sub,
                                  demandMw=number(row[f"{BA}-{sub}"])))  # fmt: skip
        return ops

    columns = ["utc_time", BA, *(f"{BA}-{s}" for s in SUBREGIONS)]
    return _harvest(SUBREGION_DEMAND, asset, columns, "EIA-930 ERCO subregion hourly demand", build)


def parse_fuel_mix(asset: Asset, conn: sqlite3.Connection) -> Harvest:
    def build(asset, line, moment, row):
        extra = [k for k in row if k not in ("utc_period", *FUELS) and k]
        by_fuel = {f: number(row[f]) for f in [*FUELS, *extra] if number(row.get(f)) is not None}
        total = sum(by_fuel.values()) if by_fuel else None
        return [_operation(FUEL_MIX, asset, line, moment, None,
                           netGenerationMw=total, generationByFuelMw=by_fuel)]  # fmt: skip

    columns = ["utc_period", *FUELS]
    return _harvest(FUEL_MIX, asset, columns, "EIA-930 ERCO hourly net generation by fuel", build)
