"""Generators and plants: frames for the tables, the plant map layer, monthly net generation."""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable, Mapping
from typing import Any

import pandas as pd
import pydeck as pdk

from components.tables import source_evidence_columns

GENERATOR_COLUMNS = [
    "generatorId",
    "plantName",
    "agencyPlantId",
    "utilityName",
    "state",
    "county",
    "balancingAuthorityCode",
    "status",
    "technology",
    "energySourceCode",
    "primeMoverCode",
    "nameplateCapacityMw",
    "summerCapacityMw",
    "winterCapacityMw",
    "operatingDate",
    "plannedOperationDate",
    "retirementDate",
    "preliminary",
    "id",
]
PROVENANCE = ["sourceId", "sourceLocator", "observedAt", "qualityFlags"]
PLANT_COLUMNS = [
    "agencyPlantId",
    "plantName",
    "utilityName",
    "state",
    "county",
    "balancingAuthorityCode",
    "nercRegion",
    "sectorName",
    "latitude",
    "longitude",
    "preliminary",
    "id",
]


def generators_frame(generators: Iterable[Mapping[str, Any]]) -> pd.DataFrame:
    """Return generators as a flat frame with provenance and quality flags as text."""
    rows = [
        {**{c: g.get(c) for c in GENERATOR_COLUMNS}, **source_evidence_columns(g)}
        for g in generators
    ]
    return pd.DataFrame(rows, columns=GENERATOR_COLUMNS + PROVENANCE)


def plant_capacity(generators: pd.DataFrame) -> pd.DataFrame:
    """Return each plant's nameplate MW and its technology with the most MW."""
    if generators.empty:
        return pd.DataFrame(columns=["agencyPlantId", "capacityMw", "technology"])
    by_tech = (
        generators.assign(technology=generators["technology"].fillna("unknown"))
        .groupby(["agencyPlantId", "technology"])["nameplateCapacityMw"]
        .sum()
        .reset_index()
        .sort_values(
            ["agencyPlantId", "nameplateCapacityMw", "technology"], ascending=[True, False, True]
        )
    )
    main = by_tech.drop_duplicates("agencyPlantId")[["agencyPlantId", "technology"]]
    total = by_tech.groupby("agencyPlantId")["nameplateCapacityMw"].sum().rename("capacityMw")
    return main.merge(total.reset_index(), on="agencyPlantId")[
        ["agencyPlantId", "capacityMw", "technology"]
    ]


def plants_frame(plants: Iterable[Mapping[str, Any]], generators: pd.DataFrame) -> pd.DataFrame:
    """Return plants with their capacity and main technology from the generators, and provenance."""
    rows = [{**{c: p.get(c) for c in PLANT_COLUMNS}, **source_evidence_columns(p)} for p in plants]
    frame = pd.DataFrame(rows, columns=PLANT_COLUMNS + PROVENANCE)
    merged = frame.merge(plant_capacity(generators), on="agencyPlantId", how="left")
    merged["capacityMw"] = merged["capacityMw"].fillna(0.0)
    merged["technology"] = merged["technology"].fillna("unknown")
    return merged


def technology_color(technology: str) -> list[int]:
    """Return a stable RGBA colour for a technology name (the same name, the same colour)."""
    digest = hashlib.sha256(str(technology).casefold().encode()).digest()
    return [60 + digest[0] % 180, 60 + digest[1] % 180, 60 + digest[2] % 180, 200]


def technology_hex(technology: str) -> str:
    """Return a technology's map colour as `#rrggbb`."""
    red, green, blue, _ = technology_color(technology)
    return f"#{red:02x}{green:02x}{blue:02x}"


def plant_radius_m(capacity_mw: float) -> float:
    """Return a marker radius in metres that grows with the square root of capacity."""
    return 1500.0 + 400.0 * math.sqrt(max(capacity_mw or 0.0, 0.0))


def plant_layer(plants: pd.DataFrame) -> pdk.Layer:
    """A pickable scatter layer: one circle per located plant, sized by MW, coloured by technology."""
    located = plants.dropna(subset=["latitude", "longitude"]).copy()
    located["color"] = located["technology"].map(technology_color)
    located["radius"] = located["capacityMw"].map(plant_radius_m)
    data = located[
        [
            "plantName",
            "technology",
            "capacityMw",
            "agencyPlantId",
            "latitude",
            "longitude",
            "color",
            "radius",
        ]
    ].to_dict("records")
    return pdk.Layer(
        "ScatterplotLayer",
        data=data,
        id="plants",
        get_position=["longitude", "latitude"],
        get_radius="radius",
        get_fill_color="color",
        get_line_color=[30, 30, 30, 220],
        line_width_min_pixels=1,
        stroked=True,
        pickable=True,
    )


def technology_legend(plants: pd.DataFrame) -> pd.DataFrame:
    """Return each technology on the map with its colour as hex and its plants and MW."""
    if plants.empty:
        return pd.DataFrame(columns=["technology", "color", "plants", "capacityMw"])
    grouped = (
        plants.groupby("technology")
        .agg(plants=("id", "count"), capacityMw=("capacityMw", "sum"))
        .reset_index()
        .sort_values("capacityMw", ascending=False)
    )
    grouped.insert(1, "color", grouped["technology"].map(technology_hex))
    return grouped.reset_index(drop=True)


def monthly_generation(operations: Iterable[Mapping[str, Any]]) -> pd.DataFrame:
    """Return monthly net generation per generator as (month, generatorId, netGenerationMwh)."""
    rows = [
        {
            "month": op.get("period"),
            "generatorId": op.get("generatorId"),
            "primeMoverCode": op.get("primeMoverCode"),
            "netGenerationMwh": op.get("netGenerationMwh"),
            "preliminary": op.get("preliminary"),
            **source_evidence_columns(op),
        }
        for op in operations
    ]
    frame = pd.DataFrame(
        rows,
        columns=["month", "generatorId", "primeMoverCode", "netGenerationMwh", "preliminary"]
        + PROVENANCE,
    )
    frame["month"] = pd.to_datetime(frame["month"], format="%Y-%m", errors="coerce")
    frame["netGenerationMwh"] = pd.to_numeric(frame["netGenerationMwh"], errors="coerce")
    return frame.sort_values(["month", "generatorId"]).reset_index(drop=True)
