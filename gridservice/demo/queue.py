"""Demo interconnection queue records, their details and their spreadsheet-row evidence.

Each record is first drawn as a source spreadsheet row (the original column names to
string values, as published), then normalised, then flagged by
`gridservice.catalogue.quality.queue_quality_flags`. One record in 25 is dirty on purpose, one
kind of damage each, so that every count of the quality report is non-zero.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date, timedelta

from gridservice.catalogue.quality import (
    QUEUE_COUNT_CODES,
    queue_quality_flags,
    synthesized_project_name,
)
from gridservice.demo.common import DEVELOPERS, SOURCES, WORDS, DemoContext, DemoSource, mojibake

SOURCE_BY_MARKET = {"ERCOT": "demo-ercot-gis", "SPP": "demo-spp-gi-queue"}
WORKSHEET = {"ERCOT": "Project Details - Large Gen", "SPP": "Active Queue"}
TERMS = {"ERCOT": "public_operator_publication", "SPP": "operator_terms_normalized_use"}
LAST_OBSERVED = date(2025, 9, 30)

# (technology, project type, capacity range MW, name suffix)
TECHNOLOGIES = (
    ("Solar", "generation", (50, 500), "Solar"),
    ("Wind", "generation", (100, 600), "Wind"),
    ("Battery", "storage", (20, 400), "Battery Storage"),
    ("Solar + Battery", "hybrid", (100, 600), "Solar and Storage"),
    ("Gas", "generation", (100, 900), "Gas Peaker"),
)
STATUSES = (("active", 60), ("withdrawn", 25), ("operational", 10), ("suspended", 5))
PHASES = {
    "ERCOT": (
        ("SS Started", "screening"),
        ("SS Completed, FIS Started", "facilities_study"),
        ("FIS Completed, IA Signed", "ia_executed"),
    ),
    "SPP": (
        ("DISIS Phase 1", "system_impact"),
        ("DISIS Phase 2", "facilities_study"),
        ("GIA Executed", "ia_executed"),
    ),
}
TRANSMISSION_ENTITIES = {
    "ERCOT": ("Lone Star Transmission Co. (demo)", "Brazos Valley Wires (demo)"),
    "SPP": ("Prairie Transmission Partners (demo)", "Red River Grid Co. (demo)"),
}
# Every queue count of the quality report gets dirty records, in the report's order.
DIRT = QUEUE_COUNT_CODES


@dataclass
class QueueDraft:
    """One drawn queue entry before it becomes wire records."""

    market: str
    record_key: str
    county: dict | None
    state: str | None
    project_name: str | None
    poi: str | None
    technology: tuple
    components: list[float]
    status: str
    queue_date: date
    proposed_date: date | None
    online_date: date | None
    withdrawn_date: date | None
    ia_date: date | None
    phase: tuple[str, str]
    developer: str
    transmission_entity: str
    extra: dict = field(default_factory=dict)


def _draw(ctx: DemoContext, rng: random.Random, market: str, number: int) -> QueueDraft:
    county = ctx.pick_counties(rng, market, 1)[0]
    technology = rng.choice(TECHNOLOGIES)
    low, high = technology[2]
    total = round(rng.uniform(low, high), 1)
    components = [round(total * 0.6, 1), round(total * 0.4, 1)] if "+" in technology[0] else [total]
    queue_date = date(2019, 1, 1) + timedelta(days=rng.randrange(0, 6 * 365 + 180))
    proposed = queue_date + timedelta(days=rng.randrange(540, 5 * 365))
    status = rng.choices([s for s, _ in STATUSES], weights=[w for _, w in STATUSES])[0]
    phase = rng.choice(PHASES[market])
    withdrawn = None
    if status == "withdrawn":
        withdrawn = min(LAST_OBSERVED, queue_date + timedelta(days=rng.randrange(120, 1000)))
    ia = queue_date + timedelta(days=rng.randrange(300, 700)) if phase[1] == "ia_executed" else None
    year = queue_date.year % 100 if market == "ERCOT" else queue_date.year
    key = f"{year:02d}INR{number:04d}" if market == "ERCOT" else f"GEN-{year}-{number:03d}"
    word = rng.choice(WORDS)
    kv = rng.choice((138, 345) if market == "ERCOT" else (115, 230, 345))
    return QueueDraft(
        market=market,
        record_key=key,
        county=county,
        state=county["state"],
        project_name=f"{word} {county['name']} {technology[3]} (demo)",
        poi=f"{rng.choice(WORDS)} {kv} kV Substation",
        technology=technology,
        components=components,
        status=status,
        queue_date=queue_date,
        proposed_date=proposed,
        online_date=proposed if status in ("active", "operational") else None,
        withdrawn_date=withdrawn,
        ia_date=ia,
        phase=phase,
        developer=rng.choice(DEVELOPERS),
        transmission_entity=rng.choice(TRANSMISSION_ENTITIES[market]),
    )


def _dirty(draft: QueueDraft, kind: str) -> None:
    """Damage one draft the way real queue spreadsheets are damaged."""
    before = draft.queue_date - timedelta(days=90)
    match kind:
        case "missingCounty":
            draft.county = None
        case "missingProposedDate":
            draft.proposed_date = None
        case "synthesizedProjectName":
            draft.project_name = None
            draft.extra["synthesize"] = True
        case "unresolvedProjectName":
            draft.project_name = "Confidential"
        case "missingPointOfInterconnection":
            draft.poi = None
        case "unresolvedPointOfInterconnection":
            draft.poi = "TBD"
        case "unknownPointOfInterconnection":
            draft.poi = "Unknown"
        case "missingState":
            draft.state = None
        case "unknownState":
            draft.state = "TX/OK"
        case "unknownStatus":
            draft.status = "on hold (see notes)"
        case "zeroRequestedCapacity":
            draft.components = [0.0]
        case "negativeRequestedCapacity":
            draft.components = [-abs(draft.components[0])]
        case "suspectedProjectNameEncodingDamage":
            draft.project_name = mojibake(f"Peñasco {draft.technology[3]} (demo)")
        case "suspectedPointOfInterconnectionEncodingDamage":
            draft.poi = mojibake("Cañón 345 kV Substation")
        case "suspectedEncodingDamage":
            draft.developer = mojibake("Énergie Solaire du Texas (demo)")
        case "activeWithWithdrawnDate":
            draft.status = "active"
            draft.withdrawn_date = draft.queue_date + timedelta(days=200)
        case "proposedDateBeforeQueueDate":
            draft.proposed_date = before
        case "onlineDateBeforeQueueDate":
            draft.online_date = before
        case "withdrawnDateBeforeQueueDate":
            draft.status = "withdrawn"
            draft.withdrawn_date = before
        case "interconnectionAgreementDateBeforeQueueDate":
            draft.ia_date = before


def _us_date(value: date | None) -> str:
    return value.strftime("%m/%d/%Y") if value else ""


def _source_row(draft: QueueDraft) -> dict[str, str]:
    """Return the row as the operator's spreadsheet publishes it (column -> text)."""
    county = draft.county["name"] if draft.county else ""
    capacity = f"{sum(draft.components):g}"
    if draft.market == "ERCOT":
        return {
            "INR": draft.record_key,
            "Project Name": draft.project_name or "",
            "Interconnecting Entity": draft.developer,
            "POI Location": draft.poi or "",
            "County": county,
            "State": draft.state or "",
            "Projected COD": _us_date(draft.proposed_date),
            "Fuel": draft.technology[0],
            "Capacity (MW)": capacity,
            "GIM Study Phase": draft.phase[0],
            "Screening Study Started": _us_date(draft.queue_date),
            "IA Signed": _us_date(draft.ia_date),
            "Status": draft.status,
            "Withdrawn Date": _us_date(draft.withdrawn_date),
        }
    return {
        "Generation Interconnection Number": draft.record_key,
        "Request Received": _us_date(draft.queue_date),
        "Project Name": draft.project_name or "",
        "Nearest Town or County": county,
        "State": draft.state or "",
        "Capacity": capacity,
        "Generation Type": draft.technology[0],
        "Substation or Line": draft.poi or "",
        "Status": draft.status,
        "In-Service Date": _us_date(draft.proposed_date),
        "TO at POI": draft.transmission_entity,
        "Cluster Group": f"DISIS-{draft.queue_date.year}-001",
        "Withdrawal Date": _us_date(draft.withdrawn_date),
    }


def _iso(value: date | None) -> str | None:
    return value.isoformat() if value else None


def _region(draft: QueueDraft, ctx: DemoContext) -> str | None:
    if draft.county is None:
        return None
    centroid = ctx.index.geometry(draft.county["county_fips"]).centroid
    if draft.market == "SPP":
        return "SPP-South" if centroid.y < 35.5 else "SPP-North"
    if centroid.x < -100.5:
        return "WEST"
    if centroid.y < 29.0:
        return "SOUTH" if centroid.x < -97.3 else "COASTAL"
    return "NORTH" if centroid.y > 31.5 else "HOUSTON" if centroid.x > -96.0 else "SOUTH"


def _wire(ctx: DemoContext, draft: QueueDraft, row: int) -> tuple[dict, dict, dict]:
    source = SOURCES[SOURCE_BY_MARKET[draft.market]]
    sheet = WORKSHEET[draft.market]
    locator = f"{source.file_name}#'{sheet}'!A{row}"
    record_id = f"demo-q-{draft.market.lower()}-{draft.record_key.lower()}"
    source_row = _source_row(draft)
    name = draft.project_name
    if draft.extra.get("synthesize"):
        name = synthesized_project_name(draft.record_key)
    record = {
        "id": record_id,
        "sourceId": source.source_id,
        "assetHash": ctx.asset_hash(source.source_id),
        "recordKey": draft.record_key,
        "market": draft.market,
        "projectName": name,
        "pointOfInterconnection": draft.poi,
        "state": draft.state,
        "county": draft.county["name"] if draft.county else None,
        "proposedDate": _iso(draft.proposed_date),
        "observedAt": source.observed_at,
        "sourceLocator": locator,
        "evidenceUrl": source.url,
        "status": draft.status,
        "requestedCapacityMw": round(sum(draft.components), 1),
        "qualityFlags": [],
    }
    details = {
        "recordId": record_id,
        "queueDate": _iso(draft.queue_date),
        "onlineDate": _iso(draft.online_date),
        "withdrawnDate": _iso(draft.withdrawn_date),
        "interconnectionAgreementDate": _iso(draft.ia_date),
        "studyPhaseOriginal": draft.phase[0],
        "studyPhaseNormalized": draft.phase[1],
        "countyFips": draft.county["county_fips"] if draft.county else None,
        "regionOriginal": _region(draft, ctx),
        "utilityName": None,
        "transmissionEntity": draft.transmission_entity,
        "developer": draft.developer,
        "cluster": source_row.get("Cluster Group"),
        "serviceType": "Energy Resource" if draft.market == "SPP" else None,
        "projectType": draft.technology[1],
        "technology": draft.technology[0],
        "capacityComponentsMw": draft.components,
        "evidence": {
            "assertionType": "observed",
            "authority": "officially_sponsored_synthesis",
            "sourceLocator": locator,
            "originalRecord": source_row,
        },
        "qualityFlags": [],
    }
    evidence = flag_and_cite(record, details, source, (sheet, row), source_row, TERMS[draft.market])
    return record, details, evidence


def flag_and_cite(
    record: dict,
    details: dict,
    source: DemoSource,
    cell: tuple[str, int],
    source_row: dict[str, str],
    terms: str,
) -> dict:
    """Set the quality flags of a record and its details (in place); return the evidence of
    its spreadsheet row (`cell`: worksheet, row)."""
    flags = queue_quality_flags(record, details)
    record["qualityFlags"] = flags
    details["qualityFlags"] = [f for f in flags if f["field"] in details]
    sheet, row = cell
    return {
        "recordId": record["id"],
        "sourceId": source.source_id,
        "assetHash": record["assetHash"],
        "sourceLocator": record["sourceLocator"],
        "sourceName": source.title,
        "termsClassification": terms,
        "sourceUrl": source.url,
        "locator": {
            "type": "spreadsheet_row",
            "fileName": source.file_name,
            "worksheet": sheet,
            "row": row,
        },
        "sourceRow": source_row,
        "redistributionPolicy": source.redistribution_policy,
    }


def build_queue(ctx: DemoContext) -> tuple[list[tuple[dict, dict, dict]], dict[str, list[dict]]]:
    """Return (1,500 x scale (record, details, evidence) triples, rejections by source id).

    Row numbers follow the spreadsheet: header on row 1; every 400th row is a malformed
    row the loader rejected (no key), so accepted + rejected = the rows read.
    """
    rng = ctx.rng("queue")
    triples: list[tuple[dict, dict, dict]] = []
    rejections: dict[str, list[dict]] = {s: [] for s in SOURCE_BY_MARKET.values()}
    rows = {"ERCOT": 1, "SPP": 1}
    numbers = {"ERCOT": 0, "SPP": 0}
    for n in range(1500 * ctx.scale):
        market = "ERCOT" if rng.random() < 0.8 else "SPP"
        rows[market] += 1
        if rows[market] % 400 == 0:
            source = SOURCES[SOURCE_BY_MARKET[market]]
            rejections[source.source_id].append(
                {
                    "sourceLocator": f"{source.file_name}#'{WORKSHEET[market]}'!A{rows[market]}",
                    "reasons": ["missing record key", "row has fewer columns than the header"],
                }
            )
            rows[market] += 1
        numbers[market] += 1
        draft = _draw(ctx, rng, market, numbers[market])
        if n % 25 == 7:
            _dirty(draft, DIRT[(n // 25) % len(DIRT)])
        triples.append(_wire(ctx, draft, rows[market]))
    return triples, rejections
