"""The analyst's words for every code and field name the app shows, in one place.

`label(kind, code)` gives the plain label of a factor, readiness level, severity, status,
fuel, technology, energy source, market, predicate or scenario; an unknown code is spelt out
in words rather than shown raw. `column_label(name)` gives a table header in sentence case
with its unit. `table(frame, config)` applies both to a frame before `st.dataframe`, keeping
each column's wire name in its tooltip and each code beside its label. `when` and `mw` write
instants to the minute with their zone and numbers with units and thousands separators.

ERCOT fuel and technology codes follow the "Acronyms" sheet of ERCOT's GIS report; energy
source and prime mover codes follow EIA's code tables (as compiled by PUDL).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from functools import lru_cache, partial
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import streamlit as st

from components.distinct_values import map_distinct
from components.sources import SOURCE_NAME_HELP

FACTORS = {
    "service_territory": "Service territory",
    "queue_congestion": "Queue congestion",
    "transmission": "Transmission",
    "market_adequacy": "Market adequacy",
    "load_scale": "Load scale",
    "timeline": "Timeline",
}
READINESS = {
    "low_friction": "Low friction",
    "moderate_friction": "Moderate friction",
    "high_friction": "High friction",
    "insufficient_data": "Insufficient data",
}
SEVERITIES = {"low": "Low", "medium": "Medium", "high": "High"}
STATUSES = {
    "active": "Active",
    "withdrawn": "Withdrawn",
    "operational": "Operational",
    "suspended": "Suspended",
    "operating": "Operating",
    "planned": "Planned",
    "standby": "Standby",
    "retired": "Retired",
    "in_service": "In service",
    "under_construction": "Under construction",
    "engineering": "Engineering",
    "cancelled": "Cancelled",
    "unreviewed": "Not yet reviewed",
}
# ERCOT GIS report, sheet "Acronyms": fuel types
ERCOT_FUELS = {
    "BAT": "Battery storage",
    "BIO": "Biomass",
    "COA": "Coal",
    "GAS": "Gas",
    "GEO": "Geothermal",
    "HYD": "Hydrogen",
    "NUC": "Nuclear",
    "OIL": "Fuel oil",
    "OTH": "Other",
    "PET": "Petcoke",
    "SOL": "Solar",
    "WAT": "Water",
    "WIN": "Wind",
}
# ERCOT GIS report technology types, then EIA prime movers ERCOT does not name
TECHNOLOGIES = {
    "BA": "Battery energy storage",
    "CC": "Combined cycle",
    "CE": "Compressed air energy storage",
    "CP": "Concentrated solar power",
    "EN": "Energy storage",
    "FC": "Fuel cell",
    "GT": "Combustion (gas) turbine",
    "HY": "Hydroelectric turbine",
    "IC": "Internal combustion engine",
    "OT": "Other",
    "PV": "Photovoltaic solar",
    "ST": "Steam turbine",
    "WT": "Wind turbine",
    "CA": "Combined cycle, steam part",
    "CS": "Combined cycle, single shaft",
    "CT": "Combined cycle, combustion turbine part",
    "ES": "Other energy storage",
    "FW": "Flywheel storage",
    "PS": "Pumped storage",
    "WS": "Offshore wind turbine",
    "BT": "Binary cycle turbine",
    "HA": "Hydrokinetic, axial flow turbine",
    "HB": "Hydrokinetic, wave buoy",
    "HK": "Hydrokinetic, other",
    "UNK": "Unknown",
}
# EIA energy source codes (EIA-860), as EIA describes them
ENERGY_SOURCES = {
    "BIT": "Bituminous coal",
    "DFO": "Distillate fuel oil",
    "LIG": "Lignite coal",
    "MWH": "Electricity used for energy storage",
    "NG": "Natural gas",
    "NUC": "Nuclear",
    "OBG": "Other biomass gas",
    "OG": "Other gas",
    "PC": "Petroleum coke",
    "SUB": "Sub-bituminous coal",
    "SUN": "Solar",
    "WAT": "Water",
    "WDS": "Wood/wood waste solids",
    "WND": "Wind",
}
# Balancing authority and market codes, named the way their operators name themselves
MARKETS = {"ERCO": "ERCOT", "ERCOT": "ERCOT", "SWPP": "SPP", "SPP": "SPP", "MISO": "MISO"}
PREDICATES = {
    "summer_peak_demand_forecast": "Summer peak demand forecast",
    "summer_firm_capacity": "Summer firm capacity",
    "planning_reserve_requirement": "Planning reserve requirement",
    "total_seasonal_load_mw": "Total seasonal load",
    "firm_peak_load_mw": "Firm peak load",
    "total_capacity_mw": "Total capacity",
}
# How firm a queued project is, from the ERCOT GIS report's agreement and security columns
FIRMNESS = {
    "security_ntp": "Security posted and notice to proceed",
    "ia_signed": "Interconnection agreement signed",
    "neither": "Neither signed nor secured",
}
SCENARIOS = {
    "base": "Base case",
    "high": "High case",
    "peak_load_hour": "Peak load hour",
    "peak_net_load_hour": "Peak net load hour",
}
KINDS: dict[str, Mapping[str, str]] = {
    "factor": FACTORS,
    "readiness": READINESS,
    "severity": SEVERITIES,
    "status": STATUSES,
    "fuel": ERCOT_FUELS,
    "technology": TECHNOLOGIES,
    "energy_source": ENERGY_SOURCES,
    "market": MARKETS,
    "predicate": PREDICATES,
    "scenario": SCENARIOS,
    "firmness": FIRMNESS,
    "authority": {},  # an evidence authority (`official_filing`): spelt out in words
}
# Columns whose cells hold codes of a kind (by wire name or by the label a view gave them)
CODE_COLUMNS = {
    "status": "status",
    "Status": "status",
    "technology": "technology",
    "Technology": "technology",
    "primeMoverCode": "technology",
    "energySourceCode": "energy_source",
    "fuel": "fuel",
    "Fuel": "fuel",
    "balancingAuthorityCode": "market",
    "market": "market",
    "Market": "market",
    "predicate": "predicate",
    "Predicate": "predicate",
    "scenario": "scenario",
    "Scenario": "scenario",
    "factor": "factor",
    "Factor": "factor",
    "severity": "severity",
    "authority": "authority",
}
COLUMN_LABELS = {
    "id": "Record id",
    "generatorId": "Generator",
    "agencyPlantId": "EIA plant id",
    "balancingAuthorityCode": "Balancing authority",
    "energySourceCode": "Energy source",
    "primeMoverCode": "Prime mover",
    "nameplateCapacityMw": "Nameplate capacity (MW)",
    "summerCapacityMw": "Summer capacity (MW)",
    "winterCapacityMw": "Winter capacity (MW)",
    "requestedCapacityMw": "Requested capacity (MW)",
    "capacityMw": "Capacity (MW)",
    "serviceLevelKv": "Voltage (kV)",
    "nercRegion": "NERC region",
    "utcTime": "Hour (UTC)",
    "localTime": "Hour (local time)",
    "demandMw": "Demand (MW)",
    "demandForecastMw": "Demand forecast (MW)",
    "demandAdjustedMw": "Demand, adjusted (MW)",
    "netGenerationMw": "Net generation (MW)",
    "netGenerationAdjustedMw": "Net generation, adjusted (MW)",
    "totalInterchangeMw": "Total interchange (MW)",
    "totalInterchangeAdjustedMw": "Total interchange, adjusted (MW)",
    "sourceId": "Source id",
    "sourceUrl": "Source link",
    "evidenceUrl": "Source link",
    "documentUrl": "Document",
    "pointOfInterconnection": "Point of interconnection",
    "factKey": "Fact key",
    "parserConfidence": "Parser confidence (uncalibrated)",
    "runId": "Harvest run",
    "assetHash": "File hash (SHA-256)",
    "unchangedAsset": "File unchanged",
    "predicate": "Measure code",
    "scenario": "Scenario",
    "row": "Row",
}
# Words written in capitals or a fixed case wherever they appear in a spelt-out name
_WORD_CASE = {
    "mw": "MW", "mwh": "MWh", "kv": "kV", "id": "id", "ids": "ids", "utc": "UTC", "eia": "EIA",
    "ercot": "ERCOT", "spp": "SPP", "fips": "FIPS", "ccn": "CCN", "iso": "ISO", "rto": "RTO",
    "poi": "POI", "nerc": "NERC", "puct": "PUCT", "url": "address", "sha": "SHA",
    "eia860": "EIA-860", "eia861": "EIA-861", "eia923": "EIA-923", "eia930": "EIA-930", "gis": "GIS",
}  # fmt: skip
_FIXED_CASE = frozenset(_WORD_CASE.values())
_CODE_TOKEN = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b")
_WIRE_NAME = re.compile(r"\b[a-z]+(?:[A-Z][a-z0-9]+)+\b")


@lru_cache(maxsize=4096)  # a few hundred codes and names, each spelt out again per row
def words(name: str) -> str:
    """Return a code or wire name spelt out in sentence case: `totalCapacityMw` -> `Total
    capacity MW`, `queue_congestion` -> `Queue congestion`."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", str(name)).replace("_", " ").replace("-", " ")
    parts = [_WORD_CASE.get(part.lower(), part.lower()) for part in spaced.split()]
    if not parts:
        return ""
    first = parts[0]
    return " ".join([first[:1].upper() + first[1:], *parts[1:]])


def in_sentence(text: str) -> str:
    """Return spelt-out words for the middle of a sentence: the first letter lowered, unless
    the first word keeps a fixed case (`EIA-861 county listing`, `ERCOT`)."""
    first = text.split(" ", 1)[0]
    if not text or first in _FIXED_CASE:
        return text
    return text[:1].lower() + text[1:]


def label(kind: str, code: Any) -> str:
    """Return the analyst's label of a code of `kind`; an unknown code spelt out in words."""
    if code is None or (isinstance(code, float) and pd.isna(code)):
        return ""
    text = str(code)
    known = KINDS[kind].get(text) or KINDS[kind].get(text.upper())
    if known:
        return known
    return words(text) if ("_" in text or text.islower()) else text


def label_with_code(kind: str, code: Any) -> str:
    """Return `Label (CODE)` for a short capitalised code (`PV`, `ERCO`), else the label alone
    (a spelt-out code such as `in_service` stays in the column's tooltip)."""
    text = label(kind, code)
    if not text or not str(code).isupper() or text.lower() == str(code).lower():
        return text
    return f"{text} ({code})"


def column_label(name: str) -> str:
    """Return a column header in sentence case, with its unit where it has one."""
    if name in COLUMN_LABELS:
        return COLUMN_LABELS[name]
    if re.fullmatch(r"[A-Za-z0-9]+(?:_[A-Za-z0-9]+)*", name) and name != name.capitalize():
        spelt = words(name)
        return re.sub(r" (MW|MWh|kV)$", r" (\1)", spelt)
    return name


def plain(text: str) -> str:
    """Return service prose with the codes it names (factors, levels, measures) and the wire
    names it quotes (`queueHistory`) in words."""

    def replace(match: re.Match[str]) -> str:
        code = match.group(0)
        for kind in ("factor", "readiness", "predicate", "status", "scenario"):
            if code in KINDS[kind]:
                return KINDS[kind][code].lower()
        # a record id (`asm_01hx`, `census_cb_2016_500k`) is cited as it is
        return code if re.search(r"\d", code) else code.replace("_", " ")

    spelt = _CODE_TOKEN.sub(replace, str(text))
    return _WIRE_NAME.sub(lambda match: words(match.group(0)).lower(), spelt)


def when(value: Any) -> str:
    """Return an instant to the minute with its zone (`2025-11-30 14:05 UTC`); a date as is."""
    if value is None or value == "":
        return ""
    if isinstance(value, str):
        try:
            value = dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            return value
    if isinstance(value, dt.datetime):
        if value.tzinfo is None:
            return value.strftime("%Y-%m-%d %H:%M")
        if value.utcoffset() == dt.timedelta(0):
            return value.strftime("%Y-%m-%d %H:%M UTC")
        return value.strftime("%Y-%m-%d %H:%M UTC%z")
    if isinstance(value, dt.date):
        return value.isoformat()
    return str(value)


def mw(value: Any, digits: int = 0) -> str:
    """Return megawatts with thousands separators: `12,345 MW`; empty when unknown."""
    if value is None or (isinstance(value, float) and pd.isna(value)):
        return ""
    return f"{float(value):,.{digits}f} MW"


SEASON_ORDER = {"spring": 1, "summer": 2, "fall": 3, "autumn": 3, "winter": 4}
_PERIOD = re.compile(r"^(\d{4})(?:-(\d{4}))?(?:-([a-z]+))?$", re.I)


def season_key(period: Any) -> tuple[int, int, str]:
    """Return a sort key that puts periods in time order: 2026, 2026-summer, 2026-fall,
    2026-2027-winter, 2027-spring (text sorting would put the winter before the fall)."""
    text = str(period or "")
    match = _PERIOD.match(text.strip())
    if not match:
        return (9999, 9, text)
    return (int(match.group(1)), SEASON_ORDER.get((match.group(3) or "").lower(), 0), text)


def season_text(period: Any) -> str:
    """Return a period in words: `2026-2027-winter` -> `winter 2026–2027`."""
    text = str(period or "")
    match = _PERIOD.match(text.strip())
    if not match or not match.group(3):
        return text
    years = match.group(1) + (f"–{match.group(2)}" if match.group(2) else "")
    return f"{match.group(3).lower()} {years}"


_INSTANT = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}")


def _cell(value: Any) -> Any:
    if isinstance(value, dt.datetime) or (isinstance(value, str) and _INSTANT.match(value)):
        return when(value)
    return value


def _may_hold_instants(column: pd.Series) -> bool:
    """False for text none of whose cells is an instant (checked in C), which `_cell` would
    hand back as it is: the ids, names and locators of 150,000 queue records, each cell
    distinct, were mapped one by one. Matched by Arrow itself: through pandas' `str.match`
    the 14 text columns of that queue took 0.30 to 0.36 s, in Arrow 0.13 s."""
    if str(column.dtype) != "str":
        return True
    matched = pc.match_substring_regex(pa.array(column.array), _INSTANT.pattern)
    return bool(pc.any(matched).as_py())


def in_words(cells: pd.Series, column: str) -> pd.Series:
    """Return the cells of a column of codes (`CODE_COLUMNS`, by the column's name) as the
    tables show them, `Label (CODE)` or the label; the cells of any other column as they are."""
    kind = CODE_COLUMNS.get(column)
    return cells if kind is None else map_distinct(cells, partial(label_with_code, kind))


def table(frame: pd.DataFrame, config: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Return `st.dataframe` arguments (data, column_config) in the analyst's words.

    Code columns show `Label (CODE)`, instants are to the minute with their zone, and every
    header without a label of its own gets one, with its wire name in the tooltip.
    """
    shown = frame.copy()
    filled: dict[str, Any] = dict(config or {})
    for column in shown.columns:
        if column in ("source", "Source") and column not in filled:
            filled[column] = st.column_config.TextColumn("Source", help=SOURCE_NAME_HELP)
        if column in CODE_COLUMNS:
            shown[column] = in_words(shown[column], column)
        elif pd.api.types.is_datetime64_any_dtype(shown[column]) and column not in filled:
            zone = " z" if getattr(shown[column].dt, "tz", None) is not None else ""
            filled[column] = st.column_config.DatetimeColumn(
                column_label(str(column)), format=f"YYYY-MM-DD HH:mm{zone}"
            )
        elif (
            pd.api.types.is_object_dtype(shown[column])
            or pd.api.types.is_string_dtype(shown[column])
        ) and _may_hold_instants(shown[column]):
            shown[column] = map_distinct(shown[column], _cell)
    return {"data": shown, "column_config": column_config(shown, filled)}


def column_config(frame: pd.DataFrame, config: Mapping[str, Any] | None = None) -> dict:
    """Return `config` with a sentence-case label for every column of `frame` lacking one."""
    filled: dict[str, Any] = dict(config or {})
    for column in frame.columns:
        name = str(column)
        header = column_label(name)
        if name not in filled:
            if header != name:
                filled[name] = st.column_config.Column(header, help=f"Field {name}")
            continue
        given = filled[name]
        if isinstance(given, dict) and not given.get("label"):
            filled[name] = {**given, "label": header}
    return filled
