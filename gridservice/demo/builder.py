"""Building the demo database: every family of records, in one transaction."""

from __future__ import annotations

import sqlite3
from collections import defaultdict

from gridservice.catalogue import queue_status
from gridservice.demo import (
    DEMO_TOKENS,
    balancing,
    evidence,
    facts,
    fleet,
    markets,
    pjm,
    portfolio,
    projects,
    queue,
    queue_releases,
    reviews,
    territories,
    territory_polygons,
)
from gridservice.demo.common import BUILT_AT, DEMO_STATES, SOURCES, DemoContext
from gridservice.demo.edition import demo_edition
from gridservice.geography import geo
from gridservice.store import history_store, surroundings_summary, writer
from gridservice.store.search import impacts

DEFAULT_SEED = 20261121


def _harvest_run(ctx: DemoContext, source_id: str, accepted: int, rejections: list[dict]) -> dict:
    source = SOURCES[source_id]
    return {
        "runId": f"demo-run-{source_id}",
        "sourceId": source_id,
        "assetHash": ctx.asset_hash(source_id),
        "observedAt": source.observed_at,
        "inputRecords": accepted + len(rejections),
        "acceptedRecords": accepted,
        "rejectedRecords": len(rejections),
        "unchangedAsset": False,
        "rejections": rejections,
    }


def _row_rejections(source_id: str, sheet: str, rows: list[int], reason: str) -> list[dict]:
    file_name = SOURCES[source_id].file_name
    return [{"sourceLocator": f"{file_name}#'{sheet}'!A{r}", "reasons": [reason]} for r in rows]


def _load_geography(conn: sqlite3.Connection) -> geo.CountyIndex:
    writer.insert_states(conn, geo.load_states(DEMO_STATES))
    writer.insert_counties(conn, geo.load_counties(DEMO_STATES))
    return geo.CountyIndex.from_conn(conn)


def _load_fleet(conn, ctx: DemoContext, counts: dict, runs: list) -> None:
    plants = fleet.build_plants(ctx)
    current, older = fleet.build_generators(ctx, plants)
    operations = fleet.build_operations(ctx, plants, current)
    writer.insert_plants(conn, fleet.wire_plants(plants))
    writer.insert_generators(conn, current, source_id=fleet.CURRENT_RELEASE, is_current=True)
    writer.insert_generators(conn, older, source_id=fleet.OLD_RELEASE, is_current=False)
    writer.insert_generator_operations(conn, operations)
    bad_capacity = "nameplate capacity is not a number"
    runs.append(
        _harvest_run(
            ctx,
            fleet.CURRENT_RELEASE,
            len(current) + len(plants),
            _row_rejections(fleet.CURRENT_RELEASE, "Generators", [len(current) + 2], bad_capacity),
        )
    )
    runs.append(_harvest_run(ctx, fleet.OLD_RELEASE, len(older), []))
    runs.append(
        _harvest_run(
            ctx,
            fleet.OPERATIONS_SOURCE,
            len(operations),
            _row_rejections(
                fleet.OPERATIONS_SOURCE,
                "Page 1 Generation",
                [len(operations) + 2, len(operations) + 3],
                "period is not a month (YYYY-MM)",
            ),
        )
    )
    counts.update(plants=len(plants), generators=len(current) + len(older))


def _load_queue(conn, ctx: DemoContext, runs: list) -> list:
    triples, rejections = queue.build_queue(ctx)
    per_source: dict[str, int] = defaultdict(int)
    for record, details, row_evidence in triples:
        writer.insert_queue_record(conn, record, details, row_evidence)
        per_source[record["sourceId"]] += 1
    queue_status.refresh_status_now(conn)
    for source_id, accepted in sorted(per_source.items()):
        runs.append(_harvest_run(ctx, source_id, accepted, rejections[source_id]))
    return triples


def _load_queue_releases(conn, releases: dict[str, list]) -> None:
    for report in releases["reports"]:
        report_id = report["report_id"]
        history_store.replace_report(
            conn,
            report,
            [r for r in releases["rows"] if r["report_id"] == report_id],
            releases["points"],
            [n for n in releases["namings"] if n["report_id"] == report_id],
        )


def _load_chunks(conn, chunks: list[tuple[dict, str]]) -> None:
    groups: dict[tuple[str, str, str], list[dict]] = defaultdict(list)
    for chunk, known_from in chunks:
        source = SOURCES[chunk["sourceId"]]
        groups[(source.authority, source.redistribution_policy, known_from)].append(chunk)
    for (authority, policy, known_from), group in groups.items():
        writer.insert_evidence_chunks(
            conn, group, authority=authority, redistribution_policy=policy, known_from=known_from
        )


def _count_by_source(records: list[dict]) -> dict[str, int]:
    counts: dict[str, int] = defaultdict(int)
    for record in records:
        counts[record["sourceId"]] += 1
    return counts


def build_demo_database(
    conn: sqlite3.Connection, *, scale: int = 1, seed: int = DEFAULT_SEED
) -> None:
    """Fill an initialised, empty store with the demo database (one transaction)."""
    if scale < 1:
        raise ValueError("scale must be at least 1")
    with conn:
        index = _load_geography(conn)
        ctx = DemoContext(seed=seed, scale=scale, index=index)
        runs: list[dict] = []
        counts: dict[str, int] = {}
        territory_rows = territories.territory_candidates(ctx)
        for territory_id, candidate, fips in territory_rows:
            writer.insert_territory(conn, territory_id, candidate, fips)
        runs.append(_harvest_run(ctx, "demo-puct-ccn", len(territory_rows), []))
        _load_fleet(conn, ctx, counts, runs)
        ba_operations = balancing.build_ba_operations(ctx)
        writer.insert_ba_operations(conn, ba_operations)
        runs.append(_harvest_run(ctx, balancing.SOURCE_ID, len(ba_operations), []))
        triples = _load_queue(conn, ctx, runs)
        # The releases after the seeded site's screening month load once it is screened.
        held, later = portfolio.split_releases(
            queue_releases.build_releases(ctx, triples), portfolio.SCREENED_ON_MONTH
        )
        _load_queue_releases(conn, held)
        transmission, project_states = projects.build_projects(ctx)
        writer.insert_transmission_projects(conn, transmission, state_of=project_states)
        filings = projects.build_docket_filings(ctx)
        writer.insert_docket_filings(conn, filings)
        for source_id, n in sorted(
            {**_count_by_source(transmission), **_count_by_source(filings)}.items()
        ):
            runs.append(_harvest_run(ctx, source_id, n, []))
        fact_set = facts.build_facts(ctx)
        for kind, kind_facts in fact_set.facts.items():
            writer.insert_facts(conn, kind, kind_facts)
            for source_id, n in sorted(_count_by_source(kind_facts).items()):
                runs.append(_harvest_run(ctx, source_id, n, []))
        chunks = evidence.build_chunks(
            ctx, triples, transmission, filings, territory_rows, fact_set.chunks
        )
        _load_chunks(conn, chunks)
        for run in runs:
            writer.insert_harvest_run(conn, run)
        for token, tenant in DEMO_TOKENS:
            writer.add_token(conn, token, tenant, BUILT_AT)
        # the market regions (drawn on every demo state's outline) come before the seeded
        # site: it and its assessment name their market as a site the service creates does
        pjm.load_geography(conn)
        markets.load_market_regions(conn)
        portfolio.seed_screened_site(conn)
        reviews.seed_review_cases(conn)
        _load_queue_releases(conn, later)
        pjm.load_records(conn, ctx)
        territory_polygons.load_territory_polygons(conn, ctx)
        _set_meta(conn, seed, scale)
    impacts.refresh(conn)
    surroundings_summary.refresh(conn)


def _set_meta(conn: sqlite3.Connection, seed: int, scale: int) -> None:
    writer.set_meta(conn, "data_kind", "demo")
    writer.set_meta(conn, "demo_edition", demo_edition())
    writer.set_meta(conn, "release_id", f"demo-2025-10-01-seed{seed}-scale{scale}")
    writer.set_meta(conn, "built_at", BUILT_AT)
    writer.set_meta(conn, "demo_seed", str(seed))
    writer.set_meta(conn, "demo_scale", str(scale))
    writer.set_meta(conn, "geometry_source", geo.GEOMETRY_SOURCE)
