"""Hourly balancing-authority operations with fuel mix and demand forecasts (demo)."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

from gridservice.catalogue.quality import ba_operation_quality_flags
from gridservice.demo.common import SOURCES, DemoContext

SOURCE_ID = "demo-eia930"
START = datetime(2025, 8, 1, 5, tzinfo=UTC)  # midnight Central Daylight Time
LOCAL_OFFSET = timedelta(hours=-5)

# (BA code, region, peak demand MW, fuel capacities MW)
AUTHORITIES = (
    (
        "ERCO",
        "TEX",
        82000.0,
        {"nuclear": 4900, "coal": 12000, "wind": 38000, "solar": 28000, "hydro": 300},
    ),
    (
        "SWPP",
        "CENT",
        54000.0,
        {"nuclear": 2000, "coal": 20000, "wind": 33000, "solar": 3000, "hydro": 2500},
    ),
)
# Hours (index from START) whose forecast is implausible on purpose: the quality report
# quarantines them.
EXTREME_HOURS = {37: 4.2, 205: 0.1, 530: 3.6}


def _demand(peak: float, local_hour: int, day: int, rng) -> float:
    diurnal = 0.5 - 0.5 * math.cos((local_hour - 5) / 24 * 2 * math.pi)
    weekly = 0.95 if day % 7 in (1, 2) else 1.0  # Aug 2 and 3, 2025 are a weekend
    return round(peak * (0.62 + 0.36 * diurnal) * weekly * rng.uniform(0.97, 1.03), 1)


def _fuel_mix(capacity: dict, demand: float, local_hour: int, rng) -> dict[str, float]:
    sun = max(0.0, math.sin((local_hour - 7) / 13 * math.pi)) if 7 <= local_hour <= 20 else 0.0
    mix = {
        "nuclear": round(capacity["nuclear"] * rng.uniform(0.95, 1.0), 1),
        "coal": round(capacity["coal"] * rng.uniform(0.55, 0.8), 1),
        "wind": round(capacity["wind"] * rng.uniform(0.1, 0.55), 1),
        "solar": round(capacity["solar"] * 0.85 * sun, 1),
        "hydro": round(capacity["hydro"] * rng.uniform(0.2, 0.6), 1),
        "battery_storage": round(rng.uniform(-1500, 2500) if 17 <= local_hour <= 21 else 0.0, 1),
        "other": round(rng.uniform(200, 600), 1),
    }
    mix["natural_gas"] = round(max(0.0, demand - sum(mix.values())) * rng.uniform(0.98, 1.02), 1)
    return mix


def build_ba_operations(ctx: DemoContext) -> list[dict]:
    """Return hourly operations of both balancing authorities, 30 x scale days from Aug 1, 2025."""
    rng = ctx.rng("ba-operations")
    source = SOURCES[SOURCE_ID]
    hours = 24 * 30 * ctx.scale
    operations = []
    for ba_code, region, peak, capacity in AUTHORITIES:
        for hour in range(hours):
            utc = START + timedelta(hours=hour)
            local = utc + LOCAL_OFFSET
            demand = _demand(peak, local.hour, (local - START - LOCAL_OFFSET).days, rng)
            mix = _fuel_mix(capacity, demand, local.hour, rng)
            net_generation = round(sum(mix.values()), 1)
            forecast = round(demand * rng.uniform(0.96, 1.04), 1)
            if hour in EXTREME_HOURS:
                forecast = round(demand * EXTREME_HOURS[hour], 1)
            interchange = round(net_generation - demand, 1)
            operation = {
                "id": f"demo-bao-{ba_code.lower()}-{utc:%Y%m%dT%H}",
                "balancingAuthorityCode": ba_code,
                "utcTime": f"{utc:%Y-%m-%dT%H:%M:%SZ}",
                "localTime": f"{local:%Y-%m-%dT%H:%M:%S}-05:00",
                "region": region,
                "demandForecastMw": forecast,
                "demandMw": demand,
                "demandAdjustedMw": demand,
                "netGenerationMw": net_generation,
                "netGenerationAdjustedMw": net_generation,
                "totalInterchangeMw": interchange,
                "totalInterchangeAdjustedMw": interchange,
                "generationByFuelMw": mix,
                "evidence": {
                    "sourceId": SOURCE_ID,
                    "assetHash": ctx.asset_hash(SOURCE_ID),
                    "sourceLocator": f"{source.file_name}#row={len(operations) + 2}",
                    "observedAt": source.observed_at,
                },
                "qualityFlags": [],
            }
            operation["qualityFlags"] = ba_operation_quality_flags(operation)
            operations.append(operation)
    return operations
