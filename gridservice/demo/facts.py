"""Demo load-forecast and resource-adequacy facts for ERCOT and SPP, with one restatement.

Each fact cites a table chunk of its (fictional) report; the chunks are returned too,
so evidence search finds the numbers the facts carry.
"""

from __future__ import annotations

from dataclasses import dataclass

from gridservice.demo.common import SOURCES, DemoContext

# (market, kind, predicate, scenario, first-year value MW, yearly growth)
SERIES = (
    ("ERCOT", "load_forecast", "summer_peak_demand_forecast", "base", 89500.0, 0.055),
    ("ERCOT", "load_forecast", "summer_peak_demand_forecast", "high", 93000.0, 0.08),
    ("SPP", "load_forecast", "summer_peak_demand_forecast", "base", 56200.0, 0.018),
    ("SPP", "load_forecast", "summer_peak_demand_forecast", "high", 57500.0, 0.03),
    ("ERCOT", "resource_adequacy", "summer_firm_capacity", "base", 101000.0, 0.03),
    ("ERCOT", "resource_adequacy", "planning_reserve_requirement", "base", 12900.0, 0.05),
    ("SPP", "resource_adequacy", "summer_firm_capacity", "base", 64800.0, 0.012),
    ("SPP", "resource_adequacy", "planning_reserve_requirement", "base", 9100.0, 0.02),
)
YEARS = range(2026, 2031)
PUBLISHED = {
    "load_forecast": ("demo-market-forecasts", "2025-04-01T00:00:00Z"),
    "resource_adequacy": ("demo-market-adequacy", "2025-05-15T00:00:00Z"),
}
# The ERCOT 2027 base forecast is restated in September: old version known until then.
RESTATED = ("ERCOT", "summer_peak_demand_forecast", "2027", "base")
RESTATED_AT = "2025-09-15T00:00:00Z"
RESTATEMENT_FACTOR = 1.071


@dataclass
class FactSet:
    facts: dict[str, list[dict]]  # kind -> facts
    chunks: list[tuple[dict, str]]  # (chunk wire record, known_from)


def _table_id(market: str, kind: str, restated: bool) -> str:
    return f"demo-table-{market.lower()}-{kind.replace('_', '-')}{'-restated' if restated else ''}"


def _label(predicate: str) -> str:
    return predicate.replace("_", " ").capitalize()


def _fact(ctx, series, year, value, version, known_from, known_to, row, restated) -> dict:
    market, kind, predicate, scenario, _, _ = series
    source_id, _ = PUBLISHED[kind]
    source = SOURCES[source_id]
    page = 12 if kind == "load_forecast" else 27
    page += 30 if restated else 0
    table_id = _table_id(market, kind, restated)
    quote = f"{year} {_label(predicate)} ({scenario}): {value:,.0f} MW"
    key = f"{market}|{predicate}|{year}|{scenario}"
    top = 140.0 + 18.0 * row
    return {
        "id": f"demo-fact-{market.lower()}-{predicate.replace('_', '-')}-{year}-{scenario}-v{version}",
        "factKey": key,
        "factVersion": str(version),
        "sourceId": source_id,
        "assetHash": ctx.asset_hash(source_id),
        "subjectId": f"market:{market}",
        "market": market,
        "predicate": predicate,
        "period": str(year),
        "scenario": scenario,
        "value": value,
        "unit": "MW",
        "assertionType": "observed",
        "validFrom": f"{year}-06-01",
        "validTo": f"{year}-09-30",
        "knownFrom": known_from,
        "knownTo": known_to,
        "evidence": {
            "chunkId": f"demo-chunk-{table_id}",
            "tableId": table_id,
            "quote": quote,
            "sourceLocator": f"{source.file_name}#page={page}",
            "blockId": f"p{page}-t1-r{row}",
            "sourceText": f"{market} | {_label(predicate)} | {scenario} | {year} | {value:,.0f}",
            "page": page,
            "boundingBox": [72.0, top, 540.0, top + 14.0],
            "pageWidth": 612.0,
            "pageHeight": 792.0,
            "readingOrder": float(row),
            "parserConfidence": round(0.84 + (row % 7) * 0.019, 3),
            "parserConfidenceIsCalibrated": False,
            "calibratedErrorProbability": None,
            "calibrationStatus": "unavailable_no_independent_labels",
            "route": "review_required_uncalibrated",
        },
        "qualityFlags": [],
    }


def _chunk(ctx, market: str, kind: str, restated: bool, facts: list[dict]) -> dict:
    source_id, _ = PUBLISHED[kind]
    title = "Long-term load forecast" if kind == "load_forecast" else "Resource adequacy outlook"
    lines = [f"{market} {title} (demo){' - September 2025 restatement' if restated else ''}"]
    lines.append("Market | Item | Scenario | Year | MW")
    lines += [f["evidence"]["sourceText"] for f in facts]
    first = facts[0]["evidence"]
    return {
        "chunkId": first["chunkId"],
        "sourceId": source_id,
        "assetHash": ctx.asset_hash(source_id),
        "tableId": first["tableId"],
        "content": "\n".join(lines),
        "sourceLocator": first["sourceLocator"],
        "kind": "table",
        "page": first["page"],
        "sectionPath": [f"{market} {title} (demo)", "Summary tables"],
    }


def build_facts(ctx: DemoContext) -> FactSet:
    """Return the facts of both kinds and the table chunks they cite."""
    facts: dict[str, list[dict]] = {"load_forecast": [], "resource_adequacy": []}
    tables: dict[tuple[str, str, bool], list[dict]] = {}
    for series in SERIES:
        market, kind, predicate, scenario, first, growth = series
        _, known_from = PUBLISHED[kind]
        for offset, year in enumerate(YEARS):
            value = round(first * (1 + growth) ** offset, 0)
            table = tables.setdefault((market, kind, False), [])
            restated = (market, predicate, str(year), scenario) == RESTATED
            known_to = RESTATED_AT if restated else None
            fact = _fact(ctx, series, year, value, 1, known_from, known_to, len(table) + 1, False)
            if restated:
                fact["qualityFlags"] = [
                    {
                        "code": "supersededByRestatement",
                        "severity": "info",
                        "field": "value",
                        "message": f"Restated on {RESTATED_AT}; see factVersion 2.",
                    }
                ]
            table.append(fact)
            facts[kind].append(fact)
            if restated:
                new_table = tables.setdefault((market, kind, True), [])
                new_value = round(value * RESTATEMENT_FACTOR, 0)
                facts[kind].append(
                    _fact(ctx, series, year, new_value, 2, RESTATED_AT, None, 1, True)
                )
                new_table.append(facts[kind][-1])
    chunks = [
        (_chunk(ctx, market, kind, restated, rows), RESTATED_AT if restated else PUBLISHED[kind][1])
        for (market, kind, restated), rows in tables.items()
    ]
    return FactSet(facts=facts, chunks=chunks)
