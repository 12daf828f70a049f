"""The seeded demo database: volumes, determinism, every interface field, named points."""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from demo_store import demo_store_copy

from gridservice.catalogue import quality
from gridservice.demo import DEMO_POINTS, build_demo_database, projects
from gridservice.geography import geo
from gridservice.store import db

REPO_ROOT = Path(__file__).resolve().parents[3]


def fields(text: str) -> set[str]:
    """Return the field names listed in `text` (as the interface lists them)."""
    return set(text.split())


# The interface's documented fields per resource (grid-data-service-v1.md).
# Every evidence also carries the source fields, an extension (docs/SERVICE.md).
SOURCE_FIELDS = fields("publisher fileName worksheet row edition")
SOURCE_NAME = fields("publisher edition")  # on a harvest run and an evidence chunk

FACT = fields(
    "id factKey factVersion sourceId assetHash subjectId market predicate period scenario value "
    "unit assertionType validFrom validTo knownFrom knownTo evidence qualityFlags"
)
FACT_EVIDENCE = (
    fields(
        "chunkId tableId quote sourceLocator blockId sourceText page boundingBox pageWidth pageHeight "
        "readingOrder parserConfidence parserConfidenceIsCalibrated calibratedErrorProbability "
        "calibrationStatus route"
    )
    | SOURCE_FIELDS
)
SOURCE_EVIDENCE = {"sourceId", "assetHash", "sourceLocator", "observedAt"} | SOURCE_FIELDS
GENERATOR = fields(
    "id generatorId plantName utilityName state county balancingAuthorityCode status technology "
    "energySourceCode primeMoverCode agencyPlantId utilityId nameplateCapacityMw summerCapacityMw "
    "winterCapacityMw operatingDate plannedOperationDate retirementDate preliminary evidence "
    "qualityFlags"
)
PLANT = fields(
    "id plantName utilityName state county balancingAuthorityCode nercRegion sectorName "
    "agencyPlantId utilityId latitude longitude installedMw totalMw preliminary evidence "
    "qualityFlags"  # installedMw, totalMw: the plant file's own MW (stored, not on the wire)
)
GENERATOR_OPERATION = fields(
    "id generatorId primeMoverCode balancingAuthorityCode state agencyPlantId period "
    "netGenerationMwh preliminary evidence qualityFlags"
)
BA_OPERATION = fields(
    "id balancingAuthorityCode utcTime localTime region demandForecastMw demandMw "
    "demandAdjustedMw netGenerationMw netGenerationAdjustedMw totalInterchangeMw "
    "totalInterchangeAdjustedMw generationByFuelMw evidence qualityFlags"
)
TRANSMISSION_PROJECT = fields(
    "id sourceId assetHash projectNumber title description status transmissionOwner "
    "projectedInServiceDate actualInServiceDate fromLocation toLocation serviceLevelKv counties "
    "qualityFlags observedAt evidence"
)
TRANSMISSION_EVIDENCE = {"assertionType", "authority", "sourceUrl", "sourceLocator"} | SOURCE_FIELDS
QUEUE_RECORD = fields(
    "id sourceId assetHash recordKey market projectName pointOfInterconnection state county "
    "proposedDate observedAt sourceLocator evidenceUrl status requestedCapacityMw "
    "qualityFlags statusNow evidence"  # extensions: the newest source's word, source fields
)
QUEUE_DETAILS = fields(
    "recordId queueDate onlineDate withdrawnDate interconnectionAgreementDate studyPhaseOriginal "
    "studyPhaseNormalized countyFips regionOriginal utilityName transmissionEntity developer "
    "cluster serviceType projectType technology capacityComponentsMw evidence "
    "qualityFlags"
)
QUEUE_DETAILS_EVIDENCE = {"assertionType", "authority", "sourceLocator", "originalRecord"} | (
    SOURCE_FIELDS
)
QUEUE_EVIDENCE = (
    fields(
        "recordId sourceId assetHash sourceLocator sourceName termsClassification sourceUrl locator "
        "sourceRow redistributionPolicy"
    )
    | SOURCE_FIELDS
)
SPREADSHEET_LOCATOR = {"type", "fileName", "worksheet", "row"}
EVIDENCE_CHUNK = (
    fields("chunkId sourceId assetHash tableId content sourceLocator kind page sectionPath")
    | SOURCE_NAME
)
DOCKET_FILING = fields(
    "id sourceId assetHash controlNumber filingParty description sourceLocator observedAt "
    "itemNumber filedAt documentUrl evidence qualityFlags"
)
DOCKET_EVIDENCE = {"assertionType", "authority", "sourceLocator"} | SOURCE_FIELDS
TERRITORY_CANDIDATE = fields(
    "utilityId utility companyType ccnNumber isoRto confidence confidenceBasis resolutionMethod "
    "evidence"
)
HARVEST_RUN = (
    fields(
        "runId sourceId assetHash observedAt inputRecords acceptedRecords rejectedRecords "
        "unchangedAsset rejections"
    )
    | SOURCE_NAME
)
QUALITY_FLAG = {"code", "severity", "field", "message"}

HEX64 = re.compile(r"^[0-9a-f]{64}$")
TABLES = {
    "states": "state_fips",
    "counties": "county_fips",
    "service_territories": "territory_id",
    "territory_counties": "territory_id, county_fips",
    "facts": "id",
    "generators": "id",
    "generation_plants": "id",
    "generator_operations": "id",
    "ba_operations": "id",
    "transmission_projects": "id",
    "transmission_project_counties": "project_id, county",
    "queue_records": "id",
    "queue_record_details": "record_id",
    "queue_record_evidence": "record_id",
    "docket_filings": "id",
    "evidence_chunks": "rowid",
    "harvest_runs": "run_id",
    "tokens": "token_sha256",
    "meta": "key",
}


def _build(path, *, seed=20261121):
    conn = db.connect(path)
    db.init_schema(conn)
    build_demo_database(conn, seed=seed)
    return conn


@pytest.fixture(scope="module")
def conn(tmp_path_factory):
    """A copy of the demo store the test process builds once (default seed), not a build of
    this module's own: the determinism tests below build theirs to compare with it."""
    connection = db.connect(demo_store_copy(tmp_path_factory.mktemp("demo") / "demo.sqlite"))
    yield connection
    connection.close()


@pytest.fixture(scope="module")
def index(conn):
    return geo.CountyIndex.from_conn(conn)


def bodies(conn, table, where=""):
    return [json.loads(r[0]) for r in conn.execute(f"SELECT body FROM {table} {where} ORDER BY 1")]


def dump(conn):
    return {
        table: [tuple(r) for r in conn.execute(f"SELECT * FROM {table} ORDER BY {order}")]
        for table, order in TABLES.items()
    }


def test_same_seed_builds_identical_data(conn, tmp_path):
    # built again as the app's first start builds it: in a process of its own, put in place
    # whole (`conn` is the service's own build)
    path = tmp_path / "again" / "demo.db"
    subprocess.run(
        [sys.executable, "-m", "gridservice.demo.store_file", str(path)], cwd=REPO_ROOT, check=True
    )
    assert sorted(p.name for p in path.parent.iterdir()) == ["demo.db"]
    again = db.connect(path)
    try:
        assert dump(again) == dump(conn)
    finally:
        again.close()


def test_another_seed_builds_other_data(conn, tmp_path):
    other = _build(tmp_path / "other.sqlite", seed=7)
    try:
        mine, theirs = dump(conn), dump(other)
        assert mine["counties"] == theirs["counties"]  # same real geography
        assert mine["generation_plants"] != theirs["generation_plants"]
        assert mine["queue_records"] != theirs["queue_records"]
    finally:
        other.close()


def count(conn, sql):
    return conn.execute(sql).fetchone()[0]


def test_volumes_at_scale_one(conn):
    assert count(conn, "SELECT count(*) FROM generators WHERE is_current = 1") >= 1000
    assert count(conn, "SELECT count(*) FROM generation_plants") >= 400
    assert count(conn, "SELECT count(DISTINCT period) FROM generator_operations") == 12
    assert count(conn, "SELECT count(*) FROM generator_operations") >= 10000
    bas = conn.execute(
        "SELECT ba_code, count(*) FROM ba_operations GROUP BY ba_code ORDER BY 1"
    ).fetchall()
    assert [tuple(r) for r in bas] == [("ERCO", 720), ("SWPP", 720)]
    assert count(conn, "SELECT count(*) FROM transmission_projects") >= 150
    assert count(conn, "SELECT count(*) FROM queue_records") >= 1500
    assert count(conn, "SELECT count(*) FROM queue_record_details") >= 1500
    assert count(conn, "SELECT count(*) FROM queue_record_evidence") >= 1500
    assert count(conn, "SELECT count(DISTINCT control_number) FROM docket_filings") == 5
    assert count(conn, "SELECT count(*) FROM evidence_chunks") >= 500
    kinds = {r[0] for r in conn.execute("SELECT DISTINCT kind FROM evidence_chunks")}
    assert kinds == {"prose", "table", "figure"}
    markets = conn.execute("SELECT kind, count(DISTINCT market) FROM facts GROUP BY kind")
    assert dict(markets.fetchall()) == {"load_forecast": 2, "resource_adequacy": 2}
    assert count(conn, "SELECT count(*) FROM service_territories") == 8  # 6 + the two PJM ones
    assert {r[0] for r in conn.execute("SELECT state FROM states")} >= {"TX", "OK", "NM"}


def assert_fields(records, expected, label):
    assert records, f"no {label}"
    for record in records:
        assert set(record) == expected, f"{label} {record.get('id')}: {set(record) ^ expected}"


def test_every_record_has_every_interface_field(conn):
    generators = bodies(conn, "generators")
    assert_fields(generators, GENERATOR, "generator")
    assert_fields([g["evidence"] for g in generators], SOURCE_EVIDENCE, "generator evidence")
    plants = bodies(conn, "generation_plants")
    assert_fields(plants, PLANT, "plant")
    assert_fields([p["evidence"] for p in plants], SOURCE_EVIDENCE, "plant evidence")
    operations = bodies(conn, "generator_operations")
    assert_fields(operations, GENERATOR_OPERATION, "operation")
    assert_fields([o["evidence"] for o in operations], SOURCE_EVIDENCE, "operation evidence")
    ba_operations = bodies(conn, "ba_operations")
    assert_fields(ba_operations, BA_OPERATION, "ba operation")
    assert_fields([o["evidence"] for o in ba_operations], SOURCE_EVIDENCE, "ba evidence")
    projects = bodies(conn, "transmission_projects")
    assert_fields(projects, TRANSMISSION_PROJECT, "project")
    assert_fields([p["evidence"] for p in projects], TRANSMISSION_EVIDENCE, "project evidence")
    assert_fields(bodies(conn, "queue_records"), QUEUE_RECORD, "queue record")
    details = bodies(conn, "queue_record_details")
    assert_fields(details, QUEUE_DETAILS, "queue details")
    assert_fields([d["evidence"] for d in details], QUEUE_DETAILS_EVIDENCE, "details evidence")
    evidence = bodies(conn, "queue_record_evidence")
    assert_fields(evidence, QUEUE_EVIDENCE, "queue evidence")
    assert_fields([e["locator"] for e in evidence], SPREADSHEET_LOCATOR, "locator")
    filings = bodies(conn, "docket_filings")
    assert_fields(filings, DOCKET_FILING, "filing")
    assert_fields([f["evidence"] for f in filings], DOCKET_EVIDENCE, "filing evidence")
    assert_fields(bodies(conn, "evidence_chunks"), EVIDENCE_CHUNK, "chunk")
    facts = bodies(conn, "facts")
    assert_fields(facts, FACT, "fact")
    assert_fields([f["evidence"] for f in facts], FACT_EVIDENCE, "fact evidence")
    assert_fields(bodies(conn, "service_territories"), TERRITORY_CANDIDATE, "territory")
    assert_fields(bodies(conn, "harvest_runs"), HARVEST_RUN, "harvest run")


def test_every_record_carries_provenance_with_a_real_hash(conn):
    records = [
        *(g["evidence"] for g in bodies(conn, "generators")),
        *(o["evidence"] for o in bodies(conn, "ba_operations")),
        *bodies(conn, "queue_records"),
        *bodies(conn, "queue_record_evidence"),
        *bodies(conn, "transmission_projects"),
        *bodies(conn, "docket_filings"),
        *bodies(conn, "facts"),
        *bodies(conn, "evidence_chunks"),
    ]
    for record in records:
        assert HEX64.match(record["assetHash"]), record
        assert record["sourceId"].startswith("demo-")
    for record in bodies(conn, "queue_records"):
        assert record["sourceLocator"] and record["observedAt"].endswith("Z")


def test_quality_flags_have_the_interface_shape(conn):
    flagged = [
        f
        for table in ("queue_records", "generators", "ba_operations", "facts")
        for record in bodies(conn, table)
        for f in record["qualityFlags"]
    ]
    assert flagged
    assert all(set(f) == QUALITY_FLAG and f["severity"] == "info" for f in flagged)


def test_plants_lie_inside_their_county(conn, index):
    for plant in bodies(conn, "generation_plants"):
        county = index.county_at(plant["latitude"], plant["longitude"])
        assert county is not None, plant["id"]
        assert (county["name"], county["state"]) == (plant["county"], plant["state"])


def test_generator_versions_keep_one_current_version(conn):
    rows = conn.execute(
        "SELECT json_extract(body, '$.agencyPlantId') || '/' || json_extract(body, "
        "'$.generatorId'), source_id, is_current, json_extract(body, '$.status'), "
        "capacity_mw FROM generators"
    ).fetchall()
    versions: dict[str, list] = {}
    for key, source_id, is_current, status, capacity in rows:
        versions.setdefault(key, []).append((source_id, is_current, status, capacity))
    assert all(sum(v[1] for v in vs) == 1 for vs in versions.values())
    restated = {k: vs for k, vs in versions.items() if len(vs) == 2}
    assert len(restated) >= 50
    for vs in restated.values():
        old = next(v for v in vs if not v[1])
        new = next(v for v in vs if v[1])
        assert old[0] == "demo-eia860m-2025-06" and new[0] == "demo-eia860m-2025-09"
        assert old[2:] != new[2:]  # the older release said something else


def territories_at(conn, index, point):
    county = index.county_at(*point)
    if county is None:
        return None, []
    rows = conn.execute(
        "SELECT t.body FROM territory_counties tc JOIN service_territories t "
        "USING (territory_id) WHERE tc.county_fips = ? ORDER BY t.territory_id",
        (county["county_fips"],),
    )
    return county, [json.loads(r[0]) for r in rows]


def test_named_points_behave_as_named(conn, index):
    county, dual = territories_at(conn, index, DEMO_POINTS["dual_certified"])
    assert county["name"] == "Hays" and len(dual) == 2
    county, single = territories_at(conn, index, DEMO_POINTS["single_territory"])
    assert county["name"] == "Harris" and len(single) == 1
    county, none = territories_at(conn, index, DEMO_POINTS["unserved"])
    assert county is not None and none == []
    assert index.county_at(*DEMO_POINTS["outside_coverage"]) is None


def test_territories_are_fictional_heuristic_unions_of_real_counties(conn, index):
    loaded = {c["county_fips"] for c in index.counties()}
    for territory_id, body in conn.execute("SELECT territory_id, body FROM service_territories"):
        candidate = json.loads(body)
        assert candidate["utility"].endswith("(demo)")
        assert candidate["confidenceBasis"] == "source_authority_heuristic_not_benchmark_accuracy"
        assert candidate["resolutionMethod"] == "county_union_polygon"
        assert 0 < candidate["confidence"] < 1
        fips = {
            r[0]
            for r in conn.execute(
                "SELECT county_fips FROM territory_counties WHERE territory_id = ?", (territory_id,)
            )
        }
        assert fips and fips <= loaded
        assert sorted(fips) == sorted(candidate["evidence"]["countyFips"])


def test_restated_fact_has_two_versions_with_knowledge_times(conn):
    facts = bodies(conn, "facts")
    by_key: dict[str, list[dict]] = {}
    for fact in facts:
        by_key.setdefault(fact["factKey"], []).append(fact)
    restated = [sorted(v, key=lambda f: f["factVersion"]) for v in by_key.values() if len(v) > 1]
    assert len(restated) == 1
    old, new = restated[0]
    assert old["knownTo"] is not None and old["knownTo"] == new["knownFrom"]
    assert new["knownTo"] is None
    assert old["value"] != new["value"]
    assert all(f["knownTo"] is None for v in by_key.values() if len(v) == 1 for f in v)


def test_fact_evidence_says_parser_confidence_is_uncalibrated(conn):
    chunk_ids = {r[0] for r in conn.execute("SELECT chunk_id FROM evidence_chunks")}
    for fact in bodies(conn, "facts"):
        evidence = fact["evidence"]
        assert evidence["parserConfidenceIsCalibrated"] is False
        assert evidence["calibratedErrorProbability"] is None
        assert evidence["calibrationStatus"] == "unavailable_no_independent_labels"
        assert evidence["route"] == "review_required_uncalibrated"
        assert evidence["page"] >= 1 and len(evidence["boundingBox"]) == 4
        assert evidence["chunkId"] in chunk_ids  # the cited table is searchable


def test_queue_evidence_is_the_published_spreadsheet_row(conn):
    for record_id, record, evidence in conn.execute(
        "SELECT q.id, q.body, e.body FROM queue_records q JOIN queue_record_evidence e "
        "ON e.record_id = q.id"
    ):
        record, evidence = json.loads(record), json.loads(evidence)
        assert evidence["locator"]["type"] == "spreadsheet_row"
        assert evidence["locator"]["row"] >= 2  # row 1 is the header
        assert all(isinstance(v, str) for v in evidence["sourceRow"].values())
        assert record["recordKey"] in evidence["sourceRow"].values()
        assert evidence["redistributionPolicy"] in {
            "public_redistribution",
            "normalized_records_only",
        }
        assert record_id == evidence["recordId"]


def test_stored_queue_flags_are_the_quality_rules(conn):
    for record, details in conn.execute(
        "SELECT q.body, d.body FROM queue_records q JOIN queue_record_details d ON d.record_id = q.id"
    ):
        record, details = json.loads(record), json.loads(details)
        assert record["qualityFlags"] == quality.queue_quality_flags(record, details)


def test_search_finds_battery_storage_in_travis(conn):
    rows = conn.execute(
        "SELECT c.content FROM evidence_fts JOIN evidence_chunks c ON c.rowid = evidence_fts.rowid "
        "WHERE evidence_fts MATCH 'battery storage travis'"
    ).fetchall()
    assert rows
    assert all("Travis" in r[0] for r in rows)


def test_chunks_mention_dockets_projects_and_facts(conn):
    def hits(query):
        return count(conn, f"SELECT count(*) FROM evidence_fts WHERE evidence_fts MATCH '{query}'")

    assert hits('"docket 55999"') > 0
    assert hits("transmission AND kV") > 0
    assert hits('"summer peak demand forecast"') > 0


def test_harvest_runs_count_honestly(conn):
    runs = bodies(conn, "harvest_runs")
    assert len(runs) >= 10
    for run in runs:
        assert run["inputRecords"] == run["acceptedRecords"] + run["rejectedRecords"]
        assert run["rejectedRecords"] == len(run["rejections"])
        assert all(r["sourceLocator"] and r["reasons"] for r in run["rejections"])
    stored = dict(
        conn.execute(
            "SELECT json_extract(body, '$.sourceId'), count(*) FROM queue_records GROUP BY 1"
        )
    )
    for run in runs:
        if run["sourceId"] in stored:
            assert run["acceptedRecords"] == stored[run["sourceId"]]
    assert sum(r["rejectedRecords"] for r in runs) > 0


def test_demo_tokens_meta_and_fictional_names(conn):
    tokens = dict(conn.execute("SELECT token_sha256, tenant_id FROM tokens"))
    for token, tenant in (("gds_demo_alpha", "demo-alpha"), ("gds_demo_beta", "demo-beta")):
        assert tokens[hashlib.sha256(token.encode()).hexdigest()] == tenant
    meta = dict(conn.execute("SELECT key, value FROM meta"))
    assert meta["data_kind"] == "demo"
    assert "demo" in meta["release_id"]
    assert all(p["title"].endswith("(demo)") for p in bodies(conn, "transmission_projects"))
    assert all("(demo)" in p["plantName"] for p in bodies(conn, "generation_plants"))


def test_extreme_forecasts_are_flagged_at_load(conn):
    flagged = [o for o in bodies(conn, "ba_operations") if o["qualityFlags"]]
    assert flagged
    for operation in flagged:
        assert quality.is_extreme_forecast(operation["demandForecastMw"], operation["demandMw"])
    assert all(set(o["generationByFuelMw"]) >= {"solar", "wind", "natural_gas"} for o in flagged)


def test_scale_must_be_positive(tmp_path):
    connection = sqlite3.connect(tmp_path / "x.sqlite")
    with pytest.raises(ValueError):
        build_demo_database(connection, scale=0)


def test_transmission_project_counties_name_their_state(conn):
    # Jackson County exists in TX and OK: a project's county must say which one it is, so an
    # assessment in one state never cites a project in the other.
    rows = conn.execute(
        "SELECT t.county, t.state, "
        "EXISTS(SELECT 1 FROM counties c WHERE c.name = t.county AND c.state = t.state) "
        "FROM transmission_project_counties t"
    ).fetchall()
    assert rows
    assert all(state is not None and exists for _, state, exists in rows)


def test_an_actual_in_service_date_after_the_data_date_is_flagged(conn):
    # A date later than the data's own cannot be actual yet: the record says so in a flag
    # naming both dates, and a date on or before it carries no such flag.
    code = projects.ACTUAL_AFTER_DATA_DATE
    later, flagged = [], []
    for project in bodies(conn, "transmission_projects"):
        actual = project["actualInServiceDate"]
        if actual is not None and actual > project["observedAt"][:10]:
            later.append(project["id"])
        for item in project["qualityFlags"]:
            if item["code"] == code:
                flagged.append(project["id"])
                assert item["field"] == "actualInServiceDate"
                assert actual in item["message"] and project["observedAt"][:10] in item["message"]
    assert later  # the demo holds such dates, as real trackers do
    assert flagged == later
