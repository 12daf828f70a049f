"""Demo transmission projects (counties by name) and regulatory docket filings."""

from __future__ import annotations

from datetime import date, timedelta

from gridservice.catalogue.quality import flag
from gridservice.demo.common import SOURCES, WORDS, DemoContext

PROJECT_SOURCE = {"ERCOT": "demo-ercot-tpit", "SPP": "demo-spp-itp"}
OWNERS = {
    "ERCOT": (
        "Lone Star Transmission Co. (demo)",
        "Brazos Valley Wires (demo)",
        "Gulf Coast Power & Light (demo)",
    ),
    "SPP": ("Prairie Transmission Partners (demo)", "Red River Grid Co. (demo)"),
}
WORK = (
    "new double-circuit line",
    "line rebuild",
    "new switching station",
    "autotransformer addition",
    "line upgrade to higher rating",
)
# The code of a project reported as in service on a date after its data's own date: such a date
# cannot have happened yet when the data was written (a plan typed into the actual column).
ACTUAL_AFTER_DATA_DATE = "actualInServiceDateAfterDataDate"
PROJECT_STATUSES = (
    ("planned", 35),
    ("engineering", 20),
    ("under_construction", 20),
    ("in_service", 20),
    ("cancelled", 5),
)

DOCKETS = (
    (
        "55999",
        "Application of Lone Star Metro Electric (demo) to amend its certificate for a "
        "345 kV transmission line in Travis and Hays Counties",
    ),
    (
        "56211",
        "Rulemaking on interconnection standards for large flexible loads such as data "
        "centers (demo)",
    ),
    (
        "56875",
        "Application of Permian Basin Electric Cooperative (demo) to serve a 600 MW large load "
        "in Ector County",
    ),
    ("57403", "Review of reliability must-run and summer resource adequacy for ERCOT (demo)"),
    (
        "58120",
        "Joint report on the SPP-ERCOT seam and Panhandle transmission in Potter and Randall "
        "Counties (demo)",
    ),
)
FILING_PARTIES = (
    "Commission Staff (demo)",
    "ERCOT (demo)",
    "Lone Star Metro Electric (demo)",
    "Hill Country Electric Cooperative (demo)",
    "Texas Industrial Energy Consumers (demo)",
    "Office of Public Utility Counsel (demo)",
    "Bluebonnet Renewables LLC (demo)",
)
FILING_KINDS = (
    "Application and direct testimony",
    "Staff recommendation on sufficiency",
    "Intervenor comments",
    "Order on procedural schedule",
    "Rebuttal testimony",
    "Response to request for information",
    "Proposal for decision",
    "Notice of approved settlement",
)


def _project(ctx: DemoContext, rng, market: str, number: int, by_fips: dict) -> tuple[dict, str]:
    source = SOURCES[PROJECT_SOURCE[market]]
    county = ctx.pick_counties(rng, market, 1)[0]
    # Same-state neighbours only: a project's counties then share one state, which the
    # store records so same-named counties of two states are never confused.
    neighbours = [
        f
        for f in ctx.index.neighbours(county["county_fips"])
        if by_fips[f]["state"] == county["state"]
    ]
    extra = rng.sample(neighbours, k=min(len(neighbours), rng.randint(0, 2)))
    counties = [county["name"], *(by_fips[f]["name"] for f in extra)]
    kv = float(rng.choice((138, 345) if market == "ERCOT" else (115, 230, 345)))
    start, end = rng.choice(WORDS), rng.choice(WORDS)
    work = rng.choice(WORK)
    status = rng.choices(
        [s for s, _ in PROJECT_STATUSES], weights=[w for _, w in PROJECT_STATUSES]
    )[0]
    projected = date(2024, 1, 1) + timedelta(days=rng.randrange(0, 6 * 365))
    actual = projected + timedelta(days=rng.randrange(-60, 120)) if status == "in_service" else None
    flags = []
    if number % 40 == 3:
        projected = None
        flags.append(
            flag("missingProjectedInServiceDate", "projectedInServiceDate", "No projected date.")
        )
    if actual is not None and actual > date.fromisoformat(source.observed_at[:10]):
        flags.append(actual_after_data_date(actual, source.observed_at[:10]))
    row = number + 1
    prefix = "DEMO-TPIT" if market == "ERCOT" else "DEMO-ITP"
    project = {
        "id": f"demo-tp-{market.lower()}-{number:05d}",
        "sourceId": source.source_id,
        "assetHash": ctx.asset_hash(source.source_id),
        "projectNumber": f"{prefix}-{number:05d}",
        "title": f"{start} - {end} {kv:g} kV {work} (demo)",
        "description": (
            f"Fictional demo project: {work} between {start} and {end} substations, "
            f"{kv:g} kV, in {', '.join(counties)} County, {county['state']} ({market})."
        ),
        "status": status,
        "transmissionOwner": rng.choice(OWNERS[market]),
        "projectedInServiceDate": projected.isoformat() if projected else None,
        "actualInServiceDate": actual.isoformat() if actual else None,
        "fromLocation": f"{start} {kv:g} kV Substation",
        "toLocation": f"{end} {kv:g} kV Substation",
        "serviceLevelKv": kv,
        "counties": counties,
        "qualityFlags": flags,
        "observedAt": source.observed_at,
        "evidence": {
            "assertionType": "observed",
            "authority": "official_operator_dataset",
            "sourceUrl": source.url,
            "sourceLocator": f"{source.file_name}#Projects!A{row}",
        },
    }
    return project, county["state"]


def actual_after_data_date(actual: date, data_date: str) -> dict:
    """Return the flag of an actual in-service date later than the data's own date."""
    return flag(
        ACTUAL_AFTER_DATA_DATE,
        "actualInServiceDate",
        f"Reported as in service on {actual.isoformat()}, after this data's date of "
        f"{data_date}: it cannot be actual yet.",
    )


def build_projects(ctx: DemoContext) -> tuple[list[dict], dict[str, str]]:
    """Return 150 x scale transmission projects, four in five in ERCOT, and each one's state."""
    rng = ctx.rng("projects")
    projects = []
    states: dict[str, str] = {}
    numbers = {"ERCOT": 0, "SPP": 0}
    by_fips = {c["county_fips"]: c for c in ctx.index.counties()}
    for _ in range(150 * ctx.scale):
        market = "ERCOT" if rng.random() < 0.8 else "SPP"
        numbers[market] += 1
        project, state = _project(ctx, rng, market, numbers[market], by_fips)
        projects.append(project)
        states[project["id"]] = state
    return projects, states


def build_docket_filings(ctx: DemoContext) -> list[dict]:
    """Return the filings of five demo dockets (8 to 16 filings each)."""
    rng = ctx.rng("dockets")
    source = SOURCES["demo-puct-interchange"]
    filings = []
    for control_number, title in DOCKETS:
        filed = date(2024, 6, 3) + timedelta(days=rng.randrange(0, 200))
        for item in range(1, rng.randint(8, 16) + 1):
            filed += timedelta(days=rng.randrange(3, 40))
            kind = FILING_KINDS[0] if item == 1 else rng.choice(FILING_KINDS[1:])
            locator = f"docket {control_number} item {item}"
            filings.append(
                {
                    "id": f"demo-filing-{control_number}-{item:04d}",
                    "sourceId": source.source_id,
                    "assetHash": ctx.asset_hash(source.source_id),
                    "controlNumber": control_number,
                    "filingParty": rng.choice(FILING_PARTIES),
                    "description": f"{kind}: {title}",
                    "sourceLocator": locator,
                    "observedAt": source.observed_at,
                    "itemNumber": item,
                    "filedAt": filed.isoformat(),
                    "documentUrl": f"{source.url.rsplit('/', 1)[0]}/{control_number}/item-{item}.pdf",
                    "evidence": {
                        "assertionType": "observed",
                        "authority": "official_filing",
                        "sourceLocator": locator,
                    },
                    "qualityFlags": [],
                }
            )
    return filings
