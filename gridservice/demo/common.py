"""What every family of demo records shares: sources, provenance, markets and county picks.

Everything here is fictional demo data placed on real Census counties. Nothing reads
the clock: every timestamp is a fixed instant, and every random draw comes from a
`random.Random` seeded by the build seed and the family name, so a build is
byte-for-byte repeatable.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from functools import cached_property
from itertools import accumulate

from gridservice.geography import geo

DEMO_STATES = ("TX", "OK", "NM", "LA")
BUILT_AT = "2025-10-01T00:00:00Z"
DEMO_URL = "https://example.com/gridservice-demo"

MARKET_BA = {"ERCOT": "ERCO", "SPP": "SWPP"}


@dataclass(frozen=True)
class DemoSource:
    source_id: str
    file_name: str
    observed_at: str
    authority: str
    redistribution_policy: str
    title: str

    @property
    def url(self) -> str:
        return f"{DEMO_URL}/{self.source_id}/{self.file_name}"


def _source(*args: str) -> DemoSource:
    return DemoSource(*args)


SOURCES = {
    s.source_id: s
    for s in (
        _source(
            "demo-eia860m-2025-06",
            "generator_inventory_2025_06_demo.xlsx",
            "2025-07-25T14:00:00Z",
            "federal_aggregated_dataset",
            "public_redistribution",
            "Monthly generator inventory, June 2025 (demo)",
        ),
        _source(
            "demo-eia860m-2025-09",
            "generator_inventory_2025_09_demo.xlsx",
            "2025-10-24T14:00:00Z",
            "federal_aggregated_dataset",
            "public_redistribution",
            "Monthly generator inventory, September 2025 (demo)",
        ),
        _source(
            "demo-eia923-2025",
            "generation_and_fuel_2025_demo.xlsx",
            "2025-10-27T14:00:00Z",
            "federal_aggregated_dataset",
            "public_redistribution",
            "Monthly generation by generator, Oct 2024 - Sep 2025 (demo)",
        ),
        _source(
            "demo-eia930",
            "balance_2025_aug_demo.csv",
            "2025-10-02T06:00:00Z",
            "federal_aggregated_dataset",
            "public_redistribution",
            "Hourly balancing-authority operations (demo)",
        ),
        _source(
            "demo-ercot-gis",
            "GIS_Report_September2025_demo.xlsx",
            "2025-09-30T18:00:00Z",
            "official_operator_dataset",
            "public_redistribution",
            "ERCOT generation interconnection status report (demo)",
        ),
        _source(
            "demo-spp-gi-queue",
            "GI-Active-Queue_2025-09_demo.xlsx",
            "2025-09-29T16:00:00Z",
            "official_operator_dataset",
            "normalized_records_only",
            "SPP generation interconnection queue (demo)",
        ),
        _source(
            "demo-ercot-tpit",
            "TPIT_2025_Q3_demo.xlsx",
            "2025-09-15T12:00:00Z",
            "official_operator_dataset",
            "public_redistribution",
            "ERCOT transmission project tracking (demo)",
        ),
        _source(
            "demo-spp-itp",
            "SPP_ITP_projects_2025_demo.xlsx",
            "2025-09-10T12:00:00Z",
            "official_operator_dataset",
            "normalized_records_only",
            "SPP transmission expansion projects (demo)",
        ),
        _source(
            "demo-puct-interchange",
            "interchange_filings_demo.json",
            "2025-09-28T09:00:00Z",
            "official_filing",
            "links_only",
            "State regulator filing interchange (demo)",
        ),
        _source(
            "demo-puct-ccn",
            "ccn_service_areas_demo.zip",
            "2025-08-01T09:00:00Z",
            "regulatory_order",
            "public_redistribution",
            "Certificated service areas (demo)",
        ),
        _source(
            "demo-market-forecasts",
            "long_term_load_forecasts_demo.pdf",
            "2025-09-15T00:00:00Z",
            "official_planning_report",
            "review_before_redistribution",
            "Long-term load forecast reports (demo)",
        ),
        _source(
            "demo-market-adequacy",
            "resource_adequacy_reports_demo.pdf",
            "2025-05-15T00:00:00Z",
            "official_planning_report",
            "review_before_redistribution",
            "Resource adequacy reports (demo)",
        ),
    )
}

_WORDS_TEXT = (
    "Bluebonnet Mesquite Caprock Brazos Longhorn Prairie Cedar Llano Sandhill Pecan Redbud "
    "Yucca Canyon Sabine Trinity Guadalupe Comal Nueces Pecan Agave Roadrunner Sotol Mustang "
    "Blackland Escarpment Hackberry Redbud Sagebrush Lark Cottonwood Juniper Bison "
    "Coyote Wildcat Ocotillo Chaparral Pinon Tumbleweed Goldenrod Lantana"
)
WORDS = tuple(_WORDS_TEXT.split())

DEVELOPERS = (
    "Bluebonnet Renewables LLC (demo)",
    "Caprock Energy Partners (demo)",
    "Gulf Prairie Power Development (demo)",
    "Red Dirt Wind Holdings (demo)",
    "Lone Mesa Storage LLC (demo)",
    "Pecos Valley Solar Co. (demo)",
    "Brazos Basin Generation (demo)",
    "Northstar Grid Ventures (demo)",
)

# Counties that draw more records, as real load and interconnection activity would.
HOT_COUNTIES = {
    ("TX", "Travis"): 10,
    ("TX", "Harris"): 8,
    ("TX", "Dallas"): 6,
    ("TX", "Bexar"): 5,
    ("TX", "Tarrant"): 5,
    ("TX", "Williamson"): 6,
    ("TX", "Hays"): 5,
    ("TX", "Midland"): 4,
    ("TX", "Ector"): 4,
    ("TX", "Pecos"): 4,
    ("TX", "Reeves"): 3,
    ("TX", "Potter"): 5,
    ("OK", "Oklahoma"): 5,
    ("NM", "Lea"): 4,
}
SPP_NEW_MEXICO = {"Lea", "Eddy", "Chaves", "Roosevelt", "Curry", "Quay"}


def asset_hash(source: DemoSource, seed: int, scale: int) -> str:
    """Return the SHA-256 of the demo asset's descriptor (what the build generated it from)."""
    descriptor = f"gridservice-demo-asset\n{source.source_id}\n{source.file_name}\n{seed}\n{scale}"
    return hashlib.sha256(descriptor.encode("utf-8")).hexdigest()


def mojibake(text: str) -> str:
    """Return `text` as UTF-8 misread as Windows-1252 (the encoding damage real files show)."""
    return text.encode("utf-8").decode("cp1252", errors="replace")


@dataclass
class DemoContext:
    seed: int
    scale: int
    index: geo.CountyIndex

    def rng(self, family: str) -> random.Random:
        """Return the random stream of one family of records (independent of the others)."""
        return random.Random(f"{self.seed}:{family}")

    def asset_hash(self, source_id: str) -> str:
        return asset_hash(SOURCES[source_id], self.seed, self.scale)

    @cached_property
    def market_counties(self) -> dict[str, list[dict]]:
        """Return the counties where each market's demo records are placed."""
        markets: dict[str, list[dict]] = {"ERCOT": [], "SPP": []}
        for county in self.index.counties():
            market = self.market_of(county)
            if market:
                markets[market].append(county)
        return markets

    def market_of(self, county: dict) -> str | None:
        """Return the market ('ERCOT', 'SPP') of a county, None outside both."""
        centroid = self.index.geometry(county["county_fips"]).centroid
        if county["state"] == "TX":
            if centroid.x < -104.1:  # El Paso and Hudspeth sit in the western interconnection
                return None
            return "SPP" if centroid.y > 34.3 and centroid.x < -99.9 else "ERCOT"
        if county["state"] == "OK" or (
            county["state"] == "NM" and county["name"] in SPP_NEW_MEXICO
        ):
            return "SPP"
        return None

    @cached_property
    def market_cum_weights(self) -> dict[str, list[int]]:
        """Return the running totals of each market's county weights (busy counties weigh
        more), in the order of `market_counties`."""
        return {
            market: list(accumulate(HOT_COUNTIES.get((c["state"], c["name"]), 1) for c in counties))
            for market, counties in self.market_counties.items()
        }

    def pick_counties(self, rng: random.Random, market: str, k: int) -> list[dict]:
        """Return k counties of a market, busy counties more often."""
        # The same draw as `weights=`, whose running totals `choices` recomputed over every
        # county at each of the build's thousands of picks.
        return rng.choices(
            self.market_counties[market], cum_weights=self.market_cum_weights[market], k=k
        )

    def county_named(self, state: str, name: str) -> dict:
        for county in self.index.counties(state):
            if county["name"] == name:
                return county
        raise KeyError(f"{name}, {state} is not a loaded county")

    def point_in(self, county: dict, rng: random.Random) -> tuple[float, float]:
        return geo.random_point_in(self.index.geometry(county["county_fips"]), rng)
