"""Running a harvest: hash the file, skip unchanged bytes, parse, store in one transaction.

A run is recorded for every harvest, including one whose bytes are unchanged
(`unchangedAsset: true`; its counts repeat those of the run that read those bytes and
no data row changes). A file that cannot be read as its source raises `HarvestError`
before the transaction starts, and any failure inside it rolls everything back.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gridservice.catalogue import queue_status
from gridservice.catalogue.dataset_declarations import declared
from gridservice.harvest import (
    census,
    eia861,
    eia930,
    eia_fleet,
    ercot_cdr,
    ercot_gis,
    ercot_gis_archive,
    ercot_gis_extract,
    ercot_large_load,
    hifld,
    lbnl,
)
from gridservice.harvest._base import Asset, Harvest, HarvestError
from gridservice.harvest.held import HeldBack, transaction
from gridservice.harvest.iso_queues import ISO_QUEUES
from gridservice.store import (
    harvest_store,
    history_store,
    surroundings_summary,
    writer,
)
from gridservice.store.search import impacts


@dataclass(frozen=True)
class Source:
    """A harvestable source: how to parse it and which file names it recognises."""

    name: str
    source_id: str
    parse: Callable[[Asset, sqlite3.Connection], Harvest]
    file_patterns: tuple[str, ...]
    description: str
    order: int  # build order: geography first, then what looks counties up


SOURCES: dict[str, Source] = {
    "census-counties": Source(
        "census-counties",
        census.SOURCE_ID,
        census.parse,
        ("cb_2016_us_county_500k.shp",),
        "Census 2016 county and state geometry shipped by plotly-geo (PATH optional)",
        10,
    ),
    "eia861": Source(
        "eia861",
        eia861.SOURCE_ID,
        eia861.parse,
        ("Service_Territory_*.xlsx",),
        "EIA-861 service territories: utility-by-county territory candidates",
        20,
    ),
    "hifld-territories": Source(
        "hifld-territories",
        hifld.TERRITORIES_SOURCE_ID,
        hifld.parse_territories,
        ("hifld_electric_retail_service_territories*.geojson",),
        "HIFLD Electric Retail Service Territories (CommonGrid, ODbL 1.0): territory polygons",
        21,
    ),
    "hifld-iso": Source(
        "hifld-iso",
        hifld.MARKETS_SOURCE_ID,
        hifld.parse_markets,
        ("hifld_independent_system_operators*.geojson",),
        "HIFLD ISO boundaries (CommonGrid, ODbL 1.0): the market region of a point",
        22,
    ),
    "ercot-cdr": Source(
        "ercot-cdr",
        ercot_cdr.SOURCE_ID,
        ercot_cdr.parse,
        ("CapacityDemandandReservesReport_*.xlsx",),
        "ERCOT CDR workbook: load-forecast and resource-adequacy facts, evidence chunks",
        40,
    ),
    "lbnl-queued-up": Source(
        "lbnl-queued-up",
        lbnl.SOURCE_ID,
        lbnl.parse,
        ("lbnl_queued_up*.csv", "lbnl_ix_queue*.csv"),
        "LBNL Queued Up queue extract (codebook columns): queue records and details",
        60,
    ),
    "eia-plants": Source(
        "eia-plants",
        eia_fleet.PLANTS_SOURCE_ID,
        eia_fleet.parse_plants,
        ("eia_power_plants*.csv", "Power_Plants*.csv"),
        "EIA Energy Atlas power plants (plant level)",
        30,
    ),
    "eia860": Source(
        "eia860",
        eia_fleet.GENERATORS_FAMILY,
        eia_fleet.parse_generators,
        ("eia860*.csv",),
        "EIA-860 generators (Schedule 3.1 with Schedule 2 plant columns), versioned",
        31,
    ),
    "eia930-demand-forecast": Source(
        "eia930-demand-forecast",
        eia930.DEMAND_FORECAST,
        eia930.parse_demand_forecast,
        ("eia930_*demand_forecast*.csv",),
        "EIA-930 ERCO hourly demand and day-ahead demand forecast",
        70,
    ),
    "eia930-subregion-demand": Source(
        "eia930-subregion-demand",
        eia930.SUBREGION_DEMAND,
        eia930.parse_subregion_demand,
        ("eia930_*subregions_hourly_demand*.csv",),
        "EIA-930 hourly demand of ERCO and its weather-zone subregions",
        71,
    ),
    "eia930-fuel-mix": Source(
        "eia930-fuel-mix",
        eia930.FUEL_MIX,
        eia930.parse_fuel_mix,
        ("eia930_*net_generation_by_fuel*.csv",),
        "EIA-930 ERCO hourly net generation by fuel",
        72,
    ),
    "ercot-gis": Source(
        "ercot-gis",
        ercot_gis.SOURCE_ID,
        ercot_gis.parse,
        ("GIS_Report_*.xlsx",),
        "ERCOT GIS report workbook: queue records, details, spreadsheet-row evidence, "
        "the month's queue history",
        50,
    ),
    "ercot-large-load": Source(
        "ercot-large-load",
        ercot_large_load.SOURCE_ID,
        ercot_large_load.parse,
        ("ercot_lli_queue_*.pdf",),
        "ERCOT Large Load Interconnection Status Update (PDF): evidence chunks with page "
        "boxes, headline MW figures as facts",
        45,
    ),
    "ercot-gis-history": Source(
        "ercot-gis-history",
        ercot_gis_extract.EXTRACT_SOURCE_ID,
        ercot_gis_extract.parse,
        ("ercot_gis_monthly_history_*.csv",),
        "ERCOT GIS monthly history extract (key columns): queue history of months "
        "not held from a workbook",
        55,
    ),
}


# The other ISOs' queues: after the counties, before ERCOT's GIS report.
SOURCES.update(
    (name, Source(name, layout.source_id, layout.parse, patterns,
                  f"{layout.source_name}: queue records, details, spreadsheet-row evidence", 48))
    for name, (layout, patterns) in ISO_QUEUES.items()
)  # fmt: skip

# Sources whose records speak of queue projects (those declared to load the queue): after
# their run every queue record's `statusNow` is recomputed, whichever was harvested last.
QUEUE_SOURCES = frozenset(
    SOURCES[name].source_id for name in declared("interconnection_queue").harvests
)


@dataclass(frozen=True)
class HarvestResult:
    """What one run did; `run` is the run record as /v1/quality publishes it."""

    source: str
    path: Path
    run: dict[str, Any]

    @property
    def unchanged(self) -> bool:
        return bool(self.run["unchangedAsset"])


def run_harvest(
    conn: sqlite3.Connection,
    source: str,
    path: str | Path,
    *,
    harvested_at: str | None = None,
    on_step: Callable[[str], None] | None = None,
    refresh_search_index: bool = True,
    parse: Callable[[Asset, sqlite3.Connection], Harvest] | None = None,
    held: HeldBack | None = None,
) -> HarvestResult:
    """Harvest one file of `source` into the store and return the recorded run.

    `on_step` is told each stage as it starts ('hash', 'parse', 'store'), for progress.
    When the harvest changed the evidence, the search's impact index is rebuilt
    (`store.search.impacts`), and when it changed the queue history the surroundings'
    summary (`store.surroundings_summary`), unless `refresh_search_index` is False.
    `parse` stands in for the source's own (a build hands in workbooks read ahead), and a
    build hands in `held` to write a source's queue records and statusNow later (`held`).
    """
    step = on_step or (lambda _stage: None)
    spec = _source(source)
    step("hash")
    asset = Asset.from_path(path, harvested_at)
    previous = harvest_store.latest_run(conn, spec.source_id)
    if (
        previous is not None
        and previous["assetHash"] == asset.sha256
        and not previous.get("rejectedAsset")
    ):
        run = _run_record(conn, spec, asset, previous, unchanged=True)
        with transaction(conn):
            writer.insert_harvest_run(conn, run)
        return HarvestResult(source, asset.path, run)
    step("parse")
    harvest = (parse or spec.parse)(asset, conn)
    step("store")
    counts = {
        "inputRecords": harvest.input_records,
        "acceptedRecords": harvest.accepted_records,
        "rejectedRecords": harvest.rejected_records,
        "rejections": harvest.rejections,
    }
    run = {**_run_record(conn, spec, asset, counts, unchanged=False), **harvest.run_fields}
    deferred = held is not None and harvest.store_queue_records is not None
    with transaction(conn):
        (harvest.store_rest if deferred else harvest.store)(conn)
        history_store.link_reports_to_run(conn, asset.sha256, run["runId"])
        if spec.source_id in QUEUE_SOURCES and held is None:
            queue_status.refresh_status_now(conn)
        writer.insert_harvest_run(conn, run)
        writer.set_meta(conn, "data_kind", "harvest")
        writer.set_meta(conn, "built_at", asset.harvested_at)
    if held is not None:
        # Held back only once committed: a file rolled back leaves what is held as it was.
        if deferred:
            held.hold(spec.source_id, harvest.store_queue_records)
        if spec.source_id in QUEUE_SOURCES:
            held.queue_source_stored()
    if refresh_search_index:
        impacts.refresh(conn)
        surroundings_summary.refresh(conn)
    return HarvestResult(source, asset.path, run)


def recognise(path: Path) -> str | None:
    """Return the source name whose file pattern matches `path`'s name, or None."""
    for spec in sorted(SOURCES.values(), key=lambda s: s.order):
        if any(path.match(pattern) for pattern in spec.file_patterns):
            return spec.name
    return None


def build_from_dir(
    conn: sqlite3.Connection, directory: str | Path, *, progress: BuildProgress | None = None
) -> list[HarvestResult]:
    """Harvest every recognised file under `directory` into one store.

    Census county geometry (from plotly-geo) comes first, then the sources that are
    placed on counties; reports of one source load oldest first, so the newest stays.
    A file that cannot be read as its source (a changed layout, a missing sheet) gets a
    rejected run naming the reason, and the build goes on with the other files.
    """
    directory = Path(directory)
    if not directory.is_dir():
        raise HarvestError(f"{directory}: not a folder")
    found = [(recognise(p), p) for p in sorted(directory.rglob("*")) if p.is_file()]
    if not any(name == "census-counties" for name, _ in found):
        # Every database gets the county geometry the other sources are placed on.
        found.append(("census-counties", census.default_path()))
    plan = sorted(
        ((SOURCES[name].order, str(p), name, p) for name, p in found if name),
        key=lambda item: (item[0], _release_key(item[3]), item[1]),
    )
    progress = progress or BuildProgress()
    workbooks = [p for _, _, name, p in plan if name == "ercot-gis"]
    superseded = ercot_gis_archive.superseded_by(workbooks)
    readings = ercot_gis_archive.ReadAhead([p for p in workbooks if p not in superseded])
    held = HeldBack(QUEUE_SOURCES)
    results = []
    try:
        for number, (_, _, name, path) in enumerate(plan, 1):
            held.release(conn, SOURCES[name].source_id)
            progress.start(number, len(plan), path)
            if path in superseded:
                result = _superseded_run(conn, SOURCES[name], path, superseded[path])
            else:
                result = _build_one(conn, name, path, progress, readings, held)
            progress.done(result)
            results.append(result)
        held.release(conn, None)
    except BaseException:
        # An interrupted build still leaves what its stored files left one by one: the
        # newest stored workbook's queue records and their statusNow (see docs/HARVEST.md).
        with contextlib.suppress(Exception):
            held.release(conn, None)
        raise
    finally:
        readings.close()
    impacts.refresh(conn)
    surroundings_summary.refresh(conn)
    return results


def _build_one(
    conn: sqlite3.Connection,
    name: str,
    path: Path,
    progress: BuildProgress,
    readings: ercot_gis_archive.ReadAhead,
    held: HeldBack,
) -> HarvestResult:
    """Harvest one file of a build; one that cannot be read gets a rejected run."""
    parse = readings.parser(path) if name == "ercot-gis" else None
    try:
        return run_harvest(
            conn,
            name,
            path,
            on_step=progress.step,
            refresh_search_index=False,
            parse=parse,
            held=held,
        )
    except HarvestError as exc:
        return _rejected_run(conn, SOURCES[name], path, str(exc))
    finally:
        if parse is not None:
            readings.forget(path)


class BuildProgress:
    """Told what a build does, file by file; this one stays silent (see harvest.cli)."""

    def start(self, number: int, total: int, path: Path) -> None:
        pass

    def step(self, stage: str) -> None:
        pass

    def done(self, result: HarvestResult) -> None:
        pass


def _rejected_run(conn: sqlite3.Connection, spec: Source, path: Path, reason: str) -> HarvestResult:
    """Record that a whole file was rejected, with the reason; nothing else changes."""
    asset = Asset.from_path(path)
    counts = {
        "inputRecords": 0,
        "acceptedRecords": 0,
        "rejectedRecords": 0,
        "rejections": [{"sourceLocator": asset.file_name, "reasons": [reason]}],
    }
    run = {**_run_record(conn, spec, asset, counts, unchanged=False), "rejectedAsset": True}
    with transaction(conn):
        writer.insert_harvest_run(conn, run)
    return HarvestResult(spec.name, asset.path, run)


def _superseded_run(conn: sqlite3.Connection, spec: Source, path: Path, by: Path) -> HarvestResult:
    """Record that a file was superseded by a re-issue of its month and not read."""
    asset = Asset.from_path(path)
    counts = {"inputRecords": 0, "acceptedRecords": 0, "rejectedRecords": 0, "rejections": []}
    run = {
        **_run_record(conn, spec, asset, counts, unchanged=False),
        "supersededAsset": True,
        "supersededBy": by.name,
    }
    with transaction(conn):
        writer.insert_harvest_run(conn, run)
    return HarvestResult(spec.name, asset.path, run)


def _release_key(path: Path) -> tuple[int, int]:
    """Year and month named in a file name, so older reports load first and the newest is
    the one that stays current."""
    return ercot_gis_archive.release_key(path)


def _source(name: str) -> Source:
    try:
        return SOURCES[name]
    except KeyError:
        known = ", ".join(sorted(SOURCES))
        raise HarvestError(f"unknown source {name!r}; known sources: {known}") from None


def _run_record(
    conn: sqlite3.Connection, spec: Source, asset: Asset, counts: dict, *, unchanged: bool
) -> dict[str, Any]:
    number = harvest_store.run_count(conn, spec.source_id) + 1
    return {
        "runId": f"{spec.source_id}-{number:04d}-{asset.sha256[:12]}",
        "sourceId": spec.source_id,
        "assetHash": asset.sha256,
        "observedAt": asset.harvested_at,
        "inputRecords": counts["inputRecords"],
        "acceptedRecords": counts["acceptedRecords"],
        "rejectedRecords": counts["rejectedRecords"],
        "unchangedAsset": unchanged,
        "rejections": counts["rejections"],
    }
