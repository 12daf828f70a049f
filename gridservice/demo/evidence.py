"""Demo evidence chunks: prose, tables and figure captions that mention the records.

The text is written the way operator reports and filings read, naming queue requests,
projects, counties, dockets and facts, so a search such as "battery storage Travis"
finds the chunks about those records.
"""

from __future__ import annotations

from gridservice.demo.common import SOURCES, DemoContext
from gridservice.demo.projects import DOCKETS


def _chunk(ctx, source_id, chunk_id, kind, content, page, section, locator=None, table_id=None):
    source = SOURCES[source_id]
    return (
        {
            "chunkId": chunk_id,
            "sourceId": source_id,
            "assetHash": ctx.asset_hash(source_id),
            "tableId": table_id,
            "content": content,
            "sourceLocator": locator or f"{source.file_name}#page={page}",
            "kind": kind,
            "page": page,
            "sectionPath": section,
        },
        source.observed_at,
    )


def _queue_prose(ctx, record: dict, details: dict, n: int):
    capacity = record["requestedCapacityMw"]
    where = (
        f"{record['county']} County, {record['state']}"
        if record["county"]
        else "an unstated county"
    )
    technology = (details["technology"] or "").lower().replace("battery", "battery energy storage")
    text = (
        f"Interconnection request {record['recordKey']}, {record['projectName']}, is a "
        f"{capacity:g} MW {technology} project in {where}, developed by {details['developer']}. "
        f"It requested interconnection at {record['pointOfInterconnection'] or 'an unnamed point'} "
        f"on {details['queueDate']} and is {record['status']} in the {details['studyPhaseOriginal']} "
        f"phase, with a proposed commercial operation date of {record['proposedDate'] or 'not stated'}."
    )
    section = [
        f"{record['market']} interconnection queue (demo)",
        details["regionOriginal"] or "Unassigned",
    ]
    return _chunk(
        ctx, record["sourceId"], f"demo-chunk-q-{n:06d}", "prose", text, 3 + n % 40, section
    )


def _queue_table(ctx, rows: list[tuple[dict, dict]], n: int):
    lines = ["Request | Project | County | Technology | MW | Status"]
    for record, details in rows:
        lines.append(
            f"{record['recordKey']} | {record['projectName']} | {record['county'] or ''} | "
            f"{details['technology']} | {record['requestedCapacityMw']:g} | {record['status']}"
        )
    market = rows[0][0]["market"]
    table_id = f"demo-table-queue-{n:05d}"
    return _chunk(
        ctx,
        rows[0][0]["sourceId"],
        f"demo-chunk-{table_id}",
        "table",
        "\n".join(lines),
        50 + n % 30,
        [f"{market} interconnection queue (demo)", "Summary of requests"],
        table_id=table_id,
    )


def _project_prose(ctx, project: dict, n: int):
    text = (
        f"Transmission project {project['projectNumber']}, {project['title']}, by "
        f"{project['transmissionOwner']}: {project['description']} Status: "
        f"{project['status'].replace('_', ' ')}; projected in service "
        f"{project['projectedInServiceDate'] or 'not stated'}."
    )
    return _chunk(
        ctx,
        project["sourceId"],
        f"demo-chunk-tp-{n:06d}",
        "prose",
        text,
        5 + n % 60,
        ["Transmission plan (demo)", ", ".join(project["counties"])],
    )


def _figure(ctx, project: dict, related: list[dict], n: int):
    names = ", ".join(r["projectName"] or r["recordKey"] for r in related)
    counties = ", ".join(project["counties"])
    text = (
        f"Figure {n + 1}: Map of {project['title']} and nearby interconnection requests in "
        f"{counties} County ({project['serviceLevelKv']:g} kV). Requests shown: {names or 'none'}."
    )
    return _chunk(
        ctx,
        project["sourceId"],
        f"demo-chunk-fig-{n:06d}",
        "figure",
        text,
        80 + n % 20,
        ["Transmission plan (demo)", "Figures"],
    )


def _docket_prose(ctx, control_number: str, title: str, filings: list[dict]):
    chunks = []
    for filing in filings:
        text = (
            f"Docket {control_number} (demo), item {filing['itemNumber']}, filed "
            f"{filing['filedAt']} by {filing['filingParty']}: {filing['description']}."
        )
        chunks.append(
            _chunk(
                ctx,
                "demo-puct-interchange",
                f"demo-chunk-docket-{control_number}-{filing['itemNumber']:04d}",
                "prose",
                text,
                1,
                [f"Docket {control_number}", title],
                locator=filing["sourceLocator"],
            )
        )
    return chunks


def _territory_prose(ctx, candidate: dict):
    evidence = candidate["evidence"]
    text = (
        f"{candidate['utility']} ({candidate['companyType'].replace('_', ' ')}, "
        f"{candidate['isoRto']}) is certificated to serve {', '.join(evidence['counties'])}. "
        f"Certificate {candidate['ccnNumber'] or 'not applicable'}. {evidence['note']}"
    )
    return _chunk(
        ctx,
        "demo-puct-ccn",
        f"demo-chunk-ccn-{candidate['utilityId']}",
        "prose",
        text,
        2,
        ["Certificated service areas (demo)"],
        locator=evidence["sourceLocator"],
    )


def build_chunks(
    ctx: DemoContext, queue, projects, filings, territories, fact_chunks
) -> list[tuple[dict, str]]:
    """Return 500 x scale chunks (and a few more) as (wire record, known_from)."""
    target = 500 * ctx.scale
    chunks = list(fact_chunks)
    chunks += [_territory_prose(ctx, candidate) for _, candidate, _ in territories]
    for control_number, title in DOCKETS:
        chunks += _docket_prose(
            ctx, control_number, title, [f for f in filings if f["controlNumber"] == control_number]
        )
    n_projects = min(len(projects), target // 8)
    chunks += [_project_prose(ctx, projects[i], i) for i in range(n_projects)]
    by_county: dict[str, list[dict]] = {}
    for record, _, _ in queue:
        by_county.setdefault(record["county"] or "", []).append(record)
    for i in range(target // 10):
        project = projects[i % len(projects)]
        related = by_county.get(project["counties"][0], [])[:3]
        chunks.append(_figure(ctx, project, related, i))
    for i in range(target // 10):
        rows = [(r, d) for r, d, _ in queue[i * 5 : i * 5 + 5]]
        if rows:
            chunks.append(_queue_table(ctx, rows, i))
    n = 0
    while len(chunks) < target and n < len(queue):
        record, details, _ = queue[n]
        chunks.append(_queue_prose(ctx, record, details, n))
        n += 1
    return chunks
