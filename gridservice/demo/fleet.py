"""Demo plants, generators (two source releases) and monthly generator operations."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from gridservice.catalogue.quality import flag
from gridservice.demo.common import MARKET_BA, SOURCES, WORDS, DemoContext

OLD_RELEASE = "demo-eia860m-2025-06"
CURRENT_RELEASE = "demo-eia860m-2025-09"
OPERATIONS_SOURCE = "demo-eia923-2025"
MONTHS = tuple(
    f"{y}-{m:02d}" for y, m in [(2024, m) for m in (10, 11, 12)] + [(2025, m) for m in range(1, 10)]
)
FIRST_PLANT_ID = 60001
ORPHAN_PLANT_ID = 69001  # generators whose plant the plant file does not list


@dataclass(frozen=True)
class PlantKind:
    name: str
    weight: int
    technology: str
    energy_source: str
    prime_movers: tuple[str, ...]
    unit_mw: tuple[float, float]
    capacity_factor: float
    suffix: str


KINDS = (
    PlantKind("solar", 30, "Solar Photovoltaic", "SUN", ("PV",), (20, 250), 0.26, "Solar"),
    PlantKind("wind", 24, "Onshore Wind Turbine", "WND", ("WT",), (50, 300), 0.36, "Wind"),
    PlantKind("battery", 15, "Batteries", "MWH", ("BA",), (10, 200), -0.02, "Storage"),
    PlantKind(
        "gas_cc",
        9,
        "Natural Gas Fired Combined Cycle",
        "NG",
        ("CT", "CA"),
        (150, 400),
        0.55,
        "Energy Center",
    ),
    PlantKind(
        "gas_ct",
        10,
        "Natural Gas Fired Combustion Turbine",
        "NG",
        ("GT",),
        (40, 200),
        0.12,
        "Peaking",
    ),
    PlantKind(
        "gas_st", 4, "Natural Gas Steam Turbine", "NG", ("ST",), (100, 450), 0.2, "Steam Station"
    ),
    PlantKind(
        "coal", 3, "Conventional Steam Coal", "SUB", ("ST",), (400, 850), 0.5, "Power Station"
    ),
    PlantKind("nuclear", 1, "Nuclear", "NUC", ("ST",), (1150, 1300), 0.92, "Nuclear Station"),
    PlantKind("hydro", 4, "Conventional Hydroelectric", "WAT", ("HY",), (10, 60), 0.3, "Dam"),
)
UTILITIES = (
    (91001, "Bluebonnet Renewables LLC (demo)"),
    (91002, "Caprock Energy Partners (demo)"),
    (91003, "Gulf Prairie Generation (demo)"),
    (91004, "Red Dirt Wind Holdings (demo)"),
    (91005, "Lone Mesa Storage LLC (demo)"),
    (91006, "Lone Star Metro Electric (demo)"),
    (91007, "Permian Basin Electric Cooperative (demo)"),
)


def _evidence(ctx: DemoContext, source_id: str, locator: str) -> dict:
    source = SOURCES[source_id]
    return {
        "sourceId": source_id,
        "assetHash": ctx.asset_hash(source_id),
        "sourceLocator": locator,
        "observedAt": source.observed_at,
    }


def build_plants(ctx: DemoContext) -> list[dict]:
    """Return 400 x scale plant records, each at a point inside its county."""
    rng = ctx.rng("plants")
    count = 400 * ctx.scale
    markets = rng.choices(["ERCOT", "SPP"], weights=[80, 20], k=count)
    plants = []
    for n, market in enumerate(markets):
        county = ctx.pick_counties(rng, market, 1)[0]
        kind = rng.choices(KINDS, weights=[k.weight for k in KINDS])[0]
        latitude, longitude = ctx.point_in(county, rng)
        utility_id, utility_name = rng.choice(UTILITIES)
        plant_id = FIRST_PLANT_ID + n
        plants.append(
            {
                "id": f"demo-plant-{plant_id}",
                "plantName": f"{county['name']} {rng.choice(WORDS)} {kind.suffix} (demo)",
                "utilityName": utility_name,
                "state": county["state"],
                "county": county["name"],
                "balancingAuthorityCode": MARKET_BA[market],
                "nercRegion": "TRE" if market == "ERCOT" else "MRO",
                "sectorName": "IPP Non-CHP" if utility_id < 91006 else "Electric Utility",
                "agencyPlantId": plant_id,
                "utilityId": utility_id,
                "latitude": latitude,
                "longitude": longitude,
                # the plant file's own MW: the demo's is left empty, its generators give it
                "installedMw": None,
                "totalMw": None,
                "preliminary": False,
                "evidence": _evidence(
                    ctx, CURRENT_RELEASE, f"{SOURCES[CURRENT_RELEASE].file_name}#Plants!A{n + 2}"
                ),
                "qualityFlags": [],
                "_kind": kind.name,
            }
        )
    return plants


def _units_per_plant(rng: random.Random, plants: int, generators: int) -> list[int]:
    units = [1] * plants
    for _ in range(generators - plants):
        units[rng.randrange(plants)] += 1
    return units


def _generator(ctx, rng, plant, kind, unit, row) -> dict:
    prime_mover = kind.prime_movers[unit % len(kind.prime_movers)]
    capacity = round(rng.uniform(*kind.unit_mw), 1)
    status = rng.choices(["operating", "standby", "planned", "retired"], weights=[82, 5, 9, 4])[0]
    year = rng.randint(1975 if kind.name in ("coal", "nuclear", "gas_st", "hydro") else 2008, 2024)
    return {
        "id": "",
        "generatorId": f"{prime_mover}{unit + 1}",
        "plantName": plant["plantName"],
        "utilityName": plant["utilityName"],
        "state": plant["state"],
        "county": plant["county"],
        "balancingAuthorityCode": plant["balancingAuthorityCode"],
        "status": status,
        "technology": kind.technology,
        "energySourceCode": kind.energy_source,
        "primeMoverCode": prime_mover,
        "agencyPlantId": plant["agencyPlantId"],
        "utilityId": plant["utilityId"],
        "nameplateCapacityMw": capacity,
        "summerCapacityMw": round(capacity * rng.uniform(0.88, 1.0), 1),
        "winterCapacityMw": round(capacity * rng.uniform(0.9, 1.05), 1),
        "operatingDate": None if status == "planned" else f"{year}-{rng.randint(1, 12):02d}",
        "plannedOperationDate": f"{rng.randint(2026, 2028)}-{rng.randint(1, 12):02d}"
        if status == "planned"
        else None,
        "retirementDate": f"{rng.randint(2019, 2025)}-{rng.randint(1, 12):02d}"
        if status == "retired"
        else None,
        "preliminary": status == "planned",
        "evidence": _evidence(
            ctx, CURRENT_RELEASE, f"{SOURCES[CURRENT_RELEASE].file_name}#Generators!A{row}"
        ),
        "qualityFlags": [],
    }


def _with_id(generator: dict, release: str) -> dict:
    tag = release.removeprefix("demo-eia860m-")
    generator["id"] = f"demo-gen-{generator['agencyPlantId']}-{generator['generatorId']}-{tag}"
    return generator


def _older_version(ctx: DemoContext, rng: random.Random, current: dict, row: int) -> dict:
    """Return the June release of a generator: planned then, or a different rating."""
    old = dict(current)
    if current["status"] == "operating" and rng.random() < 0.5:
        old.update(status="planned", operatingDate=None, plannedOperationDate="2025-08")
        old["preliminary"] = True
    else:
        old["nameplateCapacityMw"] = round(current["nameplateCapacityMw"] * 0.9, 1)
    old["evidence"] = _evidence(
        ctx, OLD_RELEASE, f"{SOURCES[OLD_RELEASE].file_name}#Generators!A{row}"
    )
    return _with_id(old, OLD_RELEASE)


def build_generators(ctx: DemoContext, plants: list[dict]) -> tuple[list[dict], list[dict]]:
    """Return (current generators, older versions): 1,000 x scale current generators.

    A few current generators name a plant the plant file lacks (a join gap the quality
    report counts); about one in ten has an older version from the June release.
    """
    rng = ctx.rng("generators")
    kinds = {k.name: k for k in KINDS}
    current, older = [], []
    units = _units_per_plant(rng, len(plants), 1000 * ctx.scale - 3 * ctx.scale)
    for plant, unit_count in zip(plants, units, strict=True):
        for unit in range(unit_count):
            generator = _generator(ctx, rng, plant, kinds[plant["_kind"]], unit, len(current) + 2)
            current.append(_with_id(generator, CURRENT_RELEASE))
            if rng.random() < 0.1:
                older.append(_older_version(ctx, rng, generator, len(older) + 2))
    for n in range(3 * ctx.scale):
        plant = plants[n]
        orphan = _generator(ctx, rng, plant, kinds["gas_ct"], 0, len(current) + 2)
        orphan.update(
            agencyPlantId=ORPHAN_PLANT_ID + n,
            plantName=f"Unlisted Peaker {n + 1} (demo)",
            status="operating",
            operatingDate="2016-06",
            plannedOperationDate=None,
            retirementDate=None,
            preliminary=False,
        )
        orphan["qualityFlags"] = [
            flag("plantNotInPlantFile", "agencyPlantId", "No plant with this id in the plant file.")
        ]
        current.append(_with_id(orphan, CURRENT_RELEASE))
    return current, older


def _monthly_mwh(kind: str, capacity: float, factor: float, month: str, rng) -> float:
    hours = 730
    season = 1 + 0.25 * math.sin((int(month[5:]) - 4) / 12 * 2 * math.pi)
    if kind == "solar":
        factor *= season
    return round(capacity * hours * factor * rng.uniform(0.85, 1.1), 1)


def build_operations(ctx: DemoContext, plants: list[dict], generators: list[dict]) -> list[dict]:
    """Return monthly operations of every generator that ran, Oct 2024 - Sep 2025.

    Dirty on purpose: a few plants report a unit ('RET1') the generator file no longer
    lists, and the orphan generators report under a plant the plant file lacks.
    """
    rng = ctx.rng("operations")
    kind_of = {p["agencyPlantId"]: p["_kind"] for p in plants}
    factor = {k.name: k.capacity_factor for k in KINDS}
    first_unit = {}
    for generator in generators:
        first_unit.setdefault(generator["agencyPlantId"], generator)
    ghosts = [
        dict(g, generatorId="RET1", status="operating")
        for g in list(first_unit.values())[: 4 * ctx.scale]
    ]
    operations = []
    for generator in [*generators, *ghosts]:
        if generator["status"] not in ("operating", "standby"):
            continue
        kind = kind_of.get(generator["agencyPlantId"], "gas_ct")
        for month in MONTHS:
            row = len(operations) + 2
            operations.append(
                {
                    "id": f"demo-op-{generator['agencyPlantId']}-{generator['generatorId']}-{month}",
                    "generatorId": generator["generatorId"],
                    "primeMoverCode": generator["primeMoverCode"],
                    "balancingAuthorityCode": generator["balancingAuthorityCode"],
                    "state": generator["state"],
                    "agencyPlantId": generator["agencyPlantId"],
                    "period": month,
                    "netGenerationMwh": _monthly_mwh(
                        kind, generator["nameplateCapacityMw"], factor[kind], month, rng
                    ),
                    "preliminary": month >= "2025-07",
                    "evidence": _evidence(
                        ctx,
                        OPERATIONS_SOURCE,
                        f"{SOURCES[OPERATIONS_SOURCE].file_name}#Page 1 Generation!A{row}",
                    ),
                    "qualityFlags": [],
                }
            )
    return operations


def wire_plants(plants: list[dict]) -> list[dict]:
    """Return the plants without the builder's private `_kind` key."""
    return [{k: v for k, v in p.items() if not k.startswith("_")} for p in plants]
