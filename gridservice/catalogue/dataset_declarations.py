"""Every public dataset the service holds, declared once: where it is stored, what harvests
it, which routes serve it, what the quality report says without it, and who reads it.

Built from these declarations: the coverage list of the /v1/quality report
(`datasets.CATALOGUE`), the page cache's pages (`page_cache.PUBLIC_PAGES`) and the sources
after whose run queue statuses are recomputed (`harvest.runner.QUEUE_SOURCES`). The
registries that stay where their layer keeps them (the snapshot hash's tables and the
triggers that forget it, the store's collections and dataset counts, the routes and their
filters, the harvest sources and their publishers' names, the client's resources and
models, the app's fetches, the demo store) are checked against them by
tests/test_dataset_declarations.py, which names the registry that disagrees.
docs/ARCHITECTURE.md ("Adding a dataset") gives the recipe.

Names of things outside the service (the client's resource attribute, the app's fetch
functions) are plain strings: the service never imports the client or the app.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType


@dataclass(frozen=True)
class DatasetDeclaration:
    """One dataset of public data and every place that stores, serves or reads it."""

    # The dataset's key in the quality report's coverage list.
    name: str
    # The coverage entry: the analyst's label and what is lost while the store lacks it.
    label: str
    when_missing: str
    # Store tables holding it; each is in the snapshot hash and forgotten by triggers.
    tables: tuple[str, ...]
    # `harvest.runner.SOURCES` entries that load it (none: demo data only).
    harvests: tuple[str, ...] = ()
    # GET list routes -> the `store.collections.COLLECTIONS` entry each pages through.
    collections: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    # Other routes that read it (single records, search, resolutions), as OpenAPI paths.
    routes: tuple[str, ...] = ()
    # Collection routes answered from the page cache (`page_cache.PUBLIC_PAGES`).
    cached_pages: tuple[str, ...] = ()
    # The `GridDataClient` attribute whose resource calls those routes.
    client_resource: str | None = None
    # Functions of `components.data` ("module.function") that fetch it for the pages.
    app_fetches: tuple[str, ...] = ()
    # Whether the demo store holds rows of it (False only with the reason beside it).
    in_demo: bool = True


# In the order the quality report lists them.
DATASETS: tuple[DatasetDeclaration, ...] = (
    DatasetDeclaration(
        "interconnection_queue",
        "Interconnection queue (current records)",
        "No queue records: queue crowding and timeline findings abstain.",
        tables=("queue_records", "queue_record_details", "queue_record_evidence"),
        harvests=(
            "lbnl-queued-up",
            "ercot-gis",
            "pjm-queue",
            "miso-queue",
            "spp-queue",
            "caiso-queue",
            "nyiso-queue",
            "isone-queue",
        ),
        collections=MappingProxyType({"/v1/queue-records": "queue-records"}),
        routes=("/v1/queue-records/{recordId}/details", "/v1/queue-records/{recordId}/evidence"),
        client_resource="queue_records",
        app_fetches=(
            "records.all_queue_records",
            "records.queue_details",
            "records.queue_evidence",
        ),
    ),
    DatasetDeclaration(
        "queue_history",
        "Queue history (monthly operator reports)",
        "No monthly reports: what changed and dropout rates cannot be computed.",
        tables=("queue_reports", "queue_history"),
        harvests=("ercot-gis", "ercot-gis-history"),
        routes=("/v1/queue-history/completion", "/v1/queue-history/projects/{projectId}"),
        client_resource="queue_history",
        app_fetches=("records.queue_completion", "records.queue_project_timeline"),
    ),
    DatasetDeclaration(
        "interconnection_points",
        "Interconnection points named by the queue",
        "No parsed points of interconnection: buses and line taps near a site are unknown.",
        tables=("interconnection_points", "interconnection_point_projects"),
        harvests=("ercot-gis",),
    ),
    DatasetDeclaration(
        "transmission_projects",
        "Transmission projects",
        "No transmission project list (such as ERCOT's TPIT or RPG lists) is loaded: "
        "planned lines and upgrades near a site are unknown.",
        tables=("transmission_projects",),
        collections=MappingProxyType({"/v1/transmission-projects": "transmission-projects"}),
        client_resource="transmission_projects",
        app_fetches=("records.all_transmission_projects",),
    ),
    DatasetDeclaration(
        "generators",
        "Generators (EIA-860)",
        "No generator inventory: unit-level capacity and status are unknown.",
        tables=("generators",),
        harvests=("eia860",),
        collections=MappingProxyType({"/v1/generators": "generators"}),
        cached_pages=("/v1/generators",),
        client_resource="generators",
        app_fetches=("records.all_generators", "records.generators"),
    ),
    DatasetDeclaration(
        "generation_plants",
        "Generation plants with coordinates",
        "No plant locations: nearest existing plants cannot be found.",
        tables=("generation_plants",),
        harvests=("eia-plants",),
        collections=MappingProxyType({"/v1/generation-plants": "generation-plants"}),
        cached_pages=("/v1/generation-plants",),
        client_resource="generation_plants",
        app_fetches=("records.all_generation_plants",),
    ),
    DatasetDeclaration(
        "generator_operations",
        "Generator operations (EIA-923)",
        "No monthly generator output (EIA-923 is not loaded).",
        tables=("generator_operations",),
        collections=MappingProxyType({"/v1/generator-operations": "generator-operations"}),
        cached_pages=("/v1/generator-operations",),
        client_resource="generator_operations",
        app_fetches=("records.generator_operations",),
    ),
    DatasetDeclaration(
        "balancing_authority_operations",
        "Balancing-authority hourly operations (EIA-930)",
        "No hourly demand or fuel mix.",
        tables=("ba_operations",),
        harvests=("eia930-demand-forecast", "eia930-subregion-demand", "eia930-fuel-mix"),
        collections=MappingProxyType(
            {"/v1/balancing-authority-operations": "balancing-authority-operations"}
        ),
        client_resource="balancing_authority_operations",
        app_fetches=("records.balancing_authority_operations", "records.operations_from"),
    ),
    DatasetDeclaration(
        "load_forecasts",
        "Load forecasts",
        "No load forecast: market adequacy abstains.",
        tables=("facts",),
        harvests=("ercot-cdr", "ercot-large-load"),
        collections=MappingProxyType({"/v1/load-forecasts": "load-forecasts"}),
        client_resource="load_forecasts",
        app_fetches=("records.facts",),
    ),
    DatasetDeclaration(
        "resource_adequacy",
        "Resource adequacy",
        "No capacity or reserve figures: no margin is computed.",
        tables=("facts",),
        harvests=("ercot-cdr",),
        collections=MappingProxyType({"/v1/resource-adequacy": "resource-adequacy"}),
        client_resource="resource_adequacy",
        app_fetches=("records.facts",),
    ),
    DatasetDeclaration(
        "service_territories",
        "Service territories",
        "No service territories: the serving utility is unknown.",
        tables=("service_territories", "territory_counties"),
        harvests=("eia861",),
        routes=("/v1/service-territory-resolutions",),
        client_resource="service_territories",
        app_fetches=("search.territory_resolution",),
    ),
    DatasetDeclaration(
        "retail_territory_polygons",
        "Retail service territory polygons (HIFLD)",
        "No territory polygons: a point resolves by the EIA-861 county listing alone.",
        tables=("retail_territory_polygons",),
        harvests=("hifld-territories",),
        routes=("/v1/service-territory-resolutions",),
        client_resource="service_territories",
    ),
    DatasetDeclaration(
        "market_regions",
        "ISO/RTO market boundaries (HIFLD)",
        "No market boundaries: the market a point is in is not named.",
        tables=("market_regions",),
        harvests=("hifld-iso",),
        routes=("/v1/service-territory-resolutions",),
        client_resource="service_territories",
    ),
    DatasetDeclaration(
        "docket_filings",
        "Regulatory docket filings",
        "No docket filings (such as PUCT control numbers) are loaded: regulatory history "
        "is unknown.",
        tables=("docket_filings",),
        collections=MappingProxyType({"/v1/dockets/{controlNumber}/filings": "docket-filings"}),
        client_resource="dockets",
        app_fetches=("records.docket_filings",),
    ),
    DatasetDeclaration(
        "evidence_chunks",
        "Searchable evidence",
        "No searchable source text.",
        tables=("evidence_chunks",),
        harvests=("ercot-cdr", "ercot-large-load"),
        routes=("/v1/evidence-search",),
        client_resource="evidence",
        app_fetches=("search.evidence_pages", "search.evidence_chunks"),
    ),
    DatasetDeclaration(
        "counties",
        "County boundaries",
        "No county geometry: a point cannot be placed.",
        tables=("counties", "states"),
        harvests=("census-counties",),
    ),
)

# Public tables that belong to no one dataset: every harvest's run record, its provenance.
PROVENANCE_TABLES = ("harvest_runs",)

# Public tables forgotten by a PostgreSQL trigger but neither hashed nor forgotten on SQLite.
# The ERCOT GIS harvest writes them in the transaction that rewrites the queue records, so
# the hash is forgotten with those; hashing them would change every store's snapshot hash.
UNHASHED_TABLES = ("queue_status_listings",)


def hashed_tables() -> frozenset[str]:
    """Return every table the data snapshot hash reads: the datasets' and provenance."""
    return frozenset(t for d in DATASETS for t in d.tables) | frozenset(PROVENANCE_TABLES)


def declared(name: str) -> DatasetDeclaration:
    """Return the declaration of the dataset `name` (KeyError when none is declared)."""
    for dataset in DATASETS:
        if dataset.name == name:
            return dataset
    raise KeyError(name)
