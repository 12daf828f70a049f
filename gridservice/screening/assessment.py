"""screen_site: a non-capacity screening-friction assessment of a site's point."""

from __future__ import annotations

import sqlite3

from shapely.geometry.base import BaseGeometry

from gridservice.geography.markets import market_at, market_codes
from gridservice.screening import factors
from gridservice.screening.completion import queue_history_with_completion
from gridservice.screening.dataset_coverage import PARTIAL_DATASETS, dataset_abstentions
from gridservice.screening.key_figures import key_figures
from gridservice.screening.narrative import next_actions, risks
from gridservice.screening.outcomes import Context, Outcome, county_label, mw, number
from gridservice.screening.readiness import readiness
from gridservice.screening.surroundings_lists import bound_queue_history
from gridservice.screening.territory import (
    attribution_of,
    county_at,
    county_index,
    is_county_listing,
    service_territory_candidates,
)
from gridservice.screening.territory_polygons import is_hifld, is_polygon, polygon_name
from gridservice.store import screening_reads

RELEVANT_QUEUE_LIMIT = 25
OPERATOR_AUTHORITY = "official_operator_dataset"
MARKET_SIGNAL_LIMIT = 25
DISCLAIMER = (
    "This is a non-capacity screening of friction for a site, computed from the loaded "
    "records. It is not a load-flow, interconnection, facility or capacity study, and it "
    "does not say whether capacity is available at the site. Confidence values are "
    "heuristics, not measured accuracy. Confirm every finding with the serving utility."
)
STATE_REGULATORS = {
    "TX": ("PUCT", "Public Utility Commission of Texas"),
    "OK": ("OCC", "Oklahoma Corporation Commission"),
    "NM": ("NMPRC", "New Mexico Public Regulation Commission"),
    "LA": ("LPSC", "Louisiana Public Service Commission"),
    "AR": ("APSC", "Arkansas Public Service Commission"),
    "KS": ("KCC", "Kansas Corporation Commission"),
}
COUNTY_LEVEL_LIMITATION = (
    "Service territories are resolved at county level; a boundary inside a county is not "
    "modelled, so the serving utility must be confirmed."
)
POLYGON_LIMITATION = (
    "Service territories are HIFLD retail service territory polygons (utility-reported "
    "boundaries, compiled and simplified; not a regulator's certificate map), with the EIA-861 "
    "county listing beside them; the serving utility must be confirmed."
)
# The demo's polygons are fictional: the same limitation without HIFLD's name.
OTHER_POLYGON_LIMITATION = (
    "Service territories are territory polygons (not a regulator's certificate map), with "
    "the county listing beside them; the serving utility must be confirmed."
)
BASE_LIMITATIONS = (
    "Non-capacity screening: no load-flow, short-circuit, stability or deliverability "
    "analysis was run.",
    COUNTY_LEVEL_LIMITATION,
    "Queue records are interconnection requests; they show activity near the site, not "
    "available or committed capacity.",
    "Transmission projects are matched by the county names they list; a project near but "
    "outside the county is not counted.",
    "Confidence values are heuristics, not a measured accuracy or probability.",
)

COUNTY_LISTING_LIMITATION = (
    "Service territories here are county listings (EIA-861: the counties each utility reports "
    "serving), not territory polygons: every utility listing the site's county is a candidate, "
    "and which one serves the point itself cannot be resolved from this data."
)


def _neighbour_counties(conn: sqlite3.Connection, county: dict) -> list[dict]:
    """Counties whose shapes touch the site's county (any state), by FIPS."""
    index = county_index(conn)
    shape: BaseGeometry = index.geometry(county["fips"])
    neighbours = []
    for row in screening_reads.counties_overlapping_bbox(conn, shape.bounds):
        if row["county_fips"] != county["fips"] and index.geometry(row["county_fips"]).intersects(
            shape
        ):
            neighbours.append(row)
    return neighbours


def _gather_queue(conn: sqlite3.Connection, county: dict | None) -> tuple[list[dict], list[dict]]:
    """Return (records in the county, nearby records: neighbours then same state), by id."""
    if county is None:
        return [], []
    in_county = screening_reads.queue_records_in_counties(conn, county["state"], [county["name"]])
    if len(in_county) >= RELEVANT_QUEUE_LIMIT:
        return in_county, []
    neighbours = _neighbour_counties(conn, county)
    nearby: list[dict] = []
    for state in sorted({n["state"] for n in neighbours}):
        names = [n["name"] for n in neighbours if n["state"] == state]
        nearby += screening_reads.queue_records_in_counties(conn, state, names)
    nearby.sort(key=lambda e: e["record"]["id"])
    missing = RELEVANT_QUEUE_LIMIT - len(in_county) - len(nearby)
    if missing > 0:
        same_state_names = [county["name"]] + [
            n["name"] for n in neighbours if n["state"] == county["state"]
        ]
        nearby += screening_reads.queue_records_in_state(
            conn, county["state"], exclude_counties=same_state_names, limit=missing
        )
    return in_county, nearby


def _by_source_preference(entries: list[dict]) -> list[dict]:
    """Return entries with the operator's own report first, then newest observed, then id."""
    ordered = sorted(entries, key=lambda e: e["record"]["id"])
    ordered.sort(key=lambda e: str(e["record"].get("observedAt") or ""), reverse=True)
    ordered.sort(
        key=lambda e: (
            ((e.get("details") or {}).get("evidence") or {}).get("authority") != OPERATOR_AUTHORITY
        )
    )
    return ordered


def _request_key(entry: dict) -> tuple[str, str] | None:
    record = entry["record"]
    key = str(record.get("recordKey") or "").strip().upper()
    return (str(record.get("market") or "").upper(), key) if key else None


def _dedupe_queue(
    conn: sqlite3.Connection, in_county: list[dict], nearby: list[dict]
) -> tuple[list[dict], list[dict], list[dict]]:
    """Return (in county, nearby, dropped in county): one record per request across sources.

    Two sources (an operator's report and a national synthesis) can list the same request
    under the same queue id; counting both would double its MW. Only the records sharing an
    id with another are read in full to choose between them.
    """
    by_key: dict[tuple[str, str], list[dict]] = {}
    for entry in in_county + nearby:
        key = _request_key(entry)
        if key is not None:
            by_key.setdefault(key, []).append(entry)
    shared = [e for group in by_key.values() if len(group) > 1 for e in group]
    screening_reads.expand_queue_entries(conn, shared)
    kept_ids = {_by_source_preference(group)[0]["record"]["id"] for group in by_key.values()}

    def keep(entry: dict) -> bool:
        return _request_key(entry) is None or entry["record"]["id"] in kept_ids

    dropped = [e for e in in_county if not keep(e)]
    return [e for e in in_county if keep(e)], [e for e in nearby if keep(e)], dropped


def _markets(
    conn: sqlite3.Connection, county: dict | None, candidates: list[dict], market: dict | None
) -> list[str]:
    # The ISO boundary holding the point decides: a utility's RTO memberships in EIA-861 name
    # every market it trades in (at Phoenix, outside every ISO, WAPA's read "CAISO, MISO, SPP").
    if market is not None:
        return [market["code"]] if market["isIso"] else []
    # Without boundaries, the territories' markets; a territory spanning two names both.
    markets = sorted({m for c in candidates for m in market_codes(c.get("isoRto"))})
    if markets or county is None:
        return markets
    counts = screening_reads.queue_market_counts(conn, county["state"])
    return [counts[0][0]] if counts else []


def _jurisdictions(conn: sqlite3.Connection, county: dict | None, markets: list[str]) -> list[dict]:
    if county is None:
        return []
    state = county["state"]
    state_name = screening_reads.state_name(conn, state) or state
    regulator_id, regulator = STATE_REGULATORS.get(
        state, (f"{state}-regulator", f"{state_name} state utility regulator")
    )
    return [
        {"level": "state", "id": state, "name": state_name},
        {"level": "county", "id": county["fips"], "name": f"{county['name']} County"},
        *({"level": "iso_rto", "id": m, "name": m} for m in markets),
        {"level": "regulator", "id": regulator_id, "name": regulator},
    ]


def _utility_candidates(candidates: list[dict], county: dict | None) -> list[dict]:
    by_utility: dict[str, list[dict]] = {}
    for c in candidates:
        by_utility.setdefault(str(c["utilityId"]), []).append(c)
    overlap = f"; {len(candidates)} territories overlap there." if len(candidates) > 1 else "."
    by_county = f"Its service territory covers {county_label(county)}{overlap}" if county else ""
    utilities = []
    for group in by_utility.values():
        first = group[0]
        held = any(is_polygon(c) for c in group)
        basis = f"Its {polygon_name(group)} holds the site's point." if held else by_county
        utilities.append(
            {
                "utilityId": first["utilityId"],
                "utility": first["utility"],
                "companyType": first["companyType"],
                "confidence": round(min(1.0, sum(c["confidence"] for c in group)), 3),
                "confidenceBasis": first["confidenceBasis"],
                "basis": basis,
            }
        )
    return sorted(utilities, key=lambda u: (-u["confidence"], str(u["utilityId"])))


def _tariff_candidates(utilities: list[dict], site: dict) -> list[dict]:
    peak = number(site.get("requestedPeakLoadMw")) or 0.0
    voltage = number(site.get("serviceVoltageKv"))
    transmission_level = peak > 10 or (voltage is not None and voltage >= 60)
    slug, service = (
        ("large-load-transmission", "Large-load transmission-voltage service")
        if transmission_level
        else ("general-service-primary", "General service at primary voltage")
    )
    applicability = f"Requested peak {mw(peak)}" + (f" at {voltage:g} kV" if voltage else "")
    return [
        {
            "utilityId": u["utilityId"],
            "tariffId": f"{u['utilityId']}:candidate:{slug}",
            "name": f"{service} (candidate to confirm with {u['utility']})",
            "applicability": applicability + "; the schedule that applies must be confirmed.",
            "basis": "Derived from the utility candidate and the site's size and voltage; no "
            "approved tariff schedule is matched in the data.",
        }
        for u in utilities
    ]


def _market_signals(facts: list[dict], outcomes: list[Outcome]) -> list[dict]:
    """Full fact records, kind then id: every cited fact, filled up to MARKET_SIGNAL_LIMIT per kind.

    A finding's citations must resolve inside the assessment, so the facts a finding cites are
    never cut by the limit.
    """
    cited = {c for o in outcomes for c in o.citations}
    signals: list[dict] = []
    for kind in ("load_forecast", "resource_adequacy"):
        of_kind = [f for f in facts if f["_kind"] == kind]
        chosen = [f for f in of_kind if f["id"] in cited]
        room = max(0, MARKET_SIGNAL_LIMIT - len(chosen))
        chosen += [f for f in of_kind if f["id"] not in cited][:room]
        chosen.sort(key=lambda f: f["id"])
        signals += [{k: v for k, v in f.items() if k != "_kind"} for f in chosen]
    return signals


def _relevant_queue(in_county: list[dict], nearby: list[dict]) -> list[dict]:
    """Entries by relevance - active in the county, others in the county, nearby - then id."""
    active = [e for e in in_county if factors.is_active(e)]
    inactive = [e for e in in_county if not factors.is_active(e)]
    return (active + inactive + nearby)[:RELEVANT_QUEUE_LIMIT]


def _queue_wire(entries: list[dict]) -> list[dict]:
    return [
        {**e["record"], "expandedDetails": e["details"], "expandedEvidence": e["evidence"]}
        for e in entries
    ]


def _confidence(outcomes: list[Outcome], candidates: list[dict]) -> dict:
    coverage = sum(not o.abstained for o in outcomes) / len(outcomes)
    territory = max((c["confidence"] for c in candidates), default=0.0)
    score = round(min(1.0, 0.15 + 0.55 * coverage + 0.30 * territory), 2)
    label = "low" if score < 0.45 else "medium" if score < 0.7 else "high"
    return {
        "score": score,
        "label": label,
        "isHeuristic": True,
        "basis": "heuristic_not_accuracy",
        "note": (
            f"Heuristic: 0.15 + 0.55 x share of factors with a finding ({coverage:.2f}) + 0.30 x "
            f"the strongest territory candidate's confidence ({territory:.2f}). It says how much "
            "of the screening rests on loaded data, not how likely it is to be right."
        ),
    }


def _limitations(
    conn: sqlite3.Connection, candidates: list[dict], relevant_queue: list[dict], as_of: str | None
) -> list[str]:
    limitations = list(BASE_LIMITATIONS)
    if any(is_polygon(c) for c in candidates):
        # the polygons' limitation names the county listing beside them
        polygon_limitation = (
            POLYGON_LIMITATION if is_hifld(candidates) else OTHER_POLYGON_LIMITATION
        )
        limitations[limitations.index(COUNTY_LEVEL_LIMITATION)] = polygon_limitation
    elif any(is_county_listing(c) for c in candidates):
        limitations.append(COUNTY_LISTING_LIMITATION)
    if as_of:
        limitations.append(f"Timelines are measured from the data's as-of date {as_of}, not today.")
    flagged = sum(1 for r in relevant_queue if r.get("qualityFlags"))
    if flagged:
        verb = "carries" if flagged == 1 else "carry"
        limitations.append(
            f"{flagged} of the {len(relevant_queue)} relevant queue records {verb} quality flags."
        )
    if screening_reads.meta_value(conn, "data_kind") == "demo":
        limitations.append(
            "The loaded data is fictional demo data; no finding describes a real utility or project."
        )
    return limitations


def screen_site(
    conn: sqlite3.Connection, site: dict, *, assessment_id: str, tenant_id: str, created_at: str
) -> dict:
    """Return the assessment of a site: every field of the interface's Assessment."""
    location = site.get("location") or {}
    point = float(location["latitude"]), float(location["longitude"])
    county = county_at(conn, *point)
    # Polygons holding the point first, the county listing second: a polygon says more.
    candidates = sorted(
        service_territory_candidates(conn, *point, county), key=lambda c: not is_polygon(c)
    )
    market = market_at(conn, *point)
    markets = _markets(conn, county, candidates, market)
    in_county, nearby, duplicates = _dedupe_queue(conn, *_gather_queue(conn, county))
    projects = (
        screening_reads.transmission_projects_for_county(conn, county["name"], county["state"])
        if county
        else []
    )
    facts = screening_reads.current_facts(conn, markets)
    as_of = screening_reads.data_as_of(conn)
    relevant = _relevant_queue(in_county, nearby)
    screening_reads.expand_queue_entries(conn, relevant)
    ctx = Context(
        site,
        county,
        candidates,
        markets,
        facts,
        in_county,
        nearby,
        relevant,
        projects,
        as_of,
        duplicate_queue=duplicates,
        queue_states=screening_reads.queue_states(conn),
        queue_history=queue_history_with_completion(conn, county),
        transmission_loaded=bool(projects) or screening_reads.has_transmission_projects(conn),
    )
    outcomes = factors.evaluate(ctx)
    utilities = _utility_candidates(candidates, county)
    relevant_queue = _queue_wire(relevant)
    return {
        "id": assessment_id,
        "siteId": site.get("id"),
        "tenantId": tenant_id,
        "createdAt": created_at,
        "disclaimer": DISCLAIMER,
        "county": county,
        "jurisdictions": _jurisdictions(conn, county, markets),
        "utilityCandidates": utilities,
        "tariffCandidates": _tariff_candidates(utilities, site),
        "serviceTerritoryCandidates": candidates,
        "market": market,
        "attribution": attribution_of(candidates, market),
        "marketSignals": _market_signals(facts, outcomes),
        "relevantQueueRecords": relevant_queue,
        "relevantTransmissionProjects": projects,
        "queueHistory": bound_queue_history(ctx.queue_history),
        "risks": risks(ctx, outcomes),
        "nextActions": next_actions(ctx, outcomes, utilities),
        "readiness": readiness(
            outcomes, county, _limitations(conn, candidates, relevant_queue, as_of)
        ),
        "confidence": _confidence(outcomes, candidates),
        "keyFigures": key_figures(conn, site, facts, as_of),
        "datasetAbstentions": dataset_abstentions(
            conn, markets, PARTIAL_DATASETS, outside=market["label"] if market else None
        ),
    }
