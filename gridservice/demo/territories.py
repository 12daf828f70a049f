"""Six fictional utilities whose service territories are unions of real counties."""

from __future__ import annotations

from gridservice.demo.common import SOURCES, DemoContext

# (utility id, name, company type, CCN number or None, state, counties, authority, confidence)
# Confidence is a source-authority heuristic: a regulator's certificate map ranks above a
# utility's own list, which ranks above a secondary public source. It is not accuracy.
UTILITIES = (
    (
        "demo-util-lsme",
        "Lone Star Metro Electric (demo)",
        "investor_owned_utility",
        "30901",
        "TX",
        ("Travis", "Williamson", "Hays", "Bastrop"),
        "regulatory_order",
        0.85,
    ),
    (
        "demo-util-hcec",
        "Hill Country Electric Cooperative (demo)",
        "electric_cooperative",
        "10977",
        "TX",
        ("Hays", "Travis", "Blanco", "Burnet", "Llano", "Gillespie", "Kendall"),
        "regulatory_order",
        0.85,
    ),
    (
        "demo-util-gcpl",
        "Gulf Coast Power & Light (demo)",
        "investor_owned_utility",
        "30944",
        "TX",
        ("Harris", "Fort Bend", "Galveston", "Brazoria", "Montgomery"),
        "regulatory_order",
        0.85,
    ),
    (
        "demo-util-pbec",
        "Permian Basin Electric Cooperative (demo)",
        "electric_cooperative",
        "10912",
        "TX",
        ("Midland", "Ector", "Andrews", "Martin", "Howard", "Ward", "Winkler", "Crane"),
        "regulatory_order",
        0.85,
    ),
    (
        "demo-util-hppp",
        "High Plains Public Power (demo)",
        "investor_owned_utility",
        "30958",
        "TX",
        ("Potter", "Randall", "Carson", "Hutchinson", "Moore", "Gray", "Deaf Smith"),
        "official_utility_dataset",
        0.7,
    ),
    (
        "demo-util-rrmu",
        "Red River Municipal Utilities (demo)",
        "municipal_utility",
        None,
        "OK",
        ("Oklahoma", "Cleveland", "Canadian", "Logan"),
        "other_public_source",
        0.6,
    ),
)

# Named points the tests and docs use, checked against the stored geometry by the tests.
DEMO_POINTS: dict[str, tuple[float, float]] = {
    # San Marcos, Hays County: certificated to both Lone Star Metro and Hill Country.
    "dual_certified": (29.8833, -97.9414),
    # Houston, Harris County: Gulf Coast Power & Light only.
    "single_territory": (29.7604, -95.3698),
    # Dallas, Dallas County: a loaded ERCOT county that no demo territory covers.
    "unserved": (32.7767, -96.7970),
    # Gulf of Mexico, off the Texas coast: in no loaded county.
    "outside_coverage": (27.0, -94.0),
    # West of Leesburg, Loudoun County, VA (PJM): held by two overlapping territory polygons.
    "polygon_overlap": (39.08, -77.65),
}


def territory_candidates(ctx: DemoContext) -> list[tuple[str, dict, list[str]]]:
    """Return (territory id, candidate template, county FIPS codes) for every utility."""
    source = SOURCES["demo-puct-ccn"]
    territories = []
    for utility_id, name, company_type, ccn, state, names, authority, confidence in UTILITIES:
        counties = [ctx.county_named(state, n) for n in names]
        markets = {ctx.market_of(c) for c in counties}
        locator = f"{source.file_name}#{ccn or utility_id}"
        candidate = {
            "utilityId": utility_id,
            "utility": name,
            "companyType": company_type,
            "ccnNumber": ccn,
            "isoRto": "/".join(sorted(m for m in markets if m)) or None,
            "confidence": confidence,
            "confidenceBasis": "source_authority_heuristic_not_benchmark_accuracy",
            "resolutionMethod": "county_union_polygon",
            "evidence": {
                "sourceId": source.source_id,
                "assetHash": ctx.asset_hash(source.source_id),
                "sourceLocator": locator,
                "observedAt": source.observed_at,
                "assertionType": "observed",
                "authority": authority,
                "sourceUrl": source.url,
                "counties": [f"{c['name']}, {c['state']}" for c in counties],
                "countyFips": [c["county_fips"] for c in counties],
                "note": (
                    "Fictional demo utility. Its territory is the union of the listed real "
                    "Census counties, not a certificated boundary."
                ),
            },
        }
        territories.append(
            (f"{utility_id}-territory", candidate, [c["county_fips"] for c in counties])
        )
    return territories
