"""Queue quality flags (the rules) and the /v1/quality report computed from a demo store."""

from __future__ import annotations

import pytest

from gridservice.catalogue import quality


def clean_record(**changes):
    record = {
        "id": "q-1",
        "recordKey": "25INR0001",
        "market": "ERCOT",
        "projectName": "Bluebonnet Solar (demo)",
        "pointOfInterconnection": "Bluebonnet 345 kV",
        "state": "TX",
        "county": "Travis",
        "proposedDate": "2027-06-01",
        "status": "active",
        "requestedCapacityMw": 200.0,
        "qualityFlags": [],
    }
    record.update(changes)
    return record


def clean_details(**changes):
    details = {
        "recordId": "q-1",
        "queueDate": "2024-03-01",
        "onlineDate": "2027-06-01",
        "withdrawnDate": None,
        "interconnectionAgreementDate": "2025-01-15",
        "developer": "Bluebonnet Renewables LLC (demo)",
        "evidence": {"originalRecord": {"Project Name": "Bluebonnet Solar (demo)"}},
        "qualityFlags": [],
    }
    details.update(changes)
    return details


def codes(record, details):
    return [f["code"] for f in quality.queue_quality_flags(record, details)]


def test_a_clean_record_has_no_flags():
    assert quality.queue_quality_flags(clean_record(), clean_details()) == []


@pytest.mark.parametrize(
    ("record_changes", "details_changes", "expected"),
    [
        ({"county": None}, {}, ["missingCounty"]),
        ({"county": "  "}, {}, ["missingCounty"]),
        ({"proposedDate": None}, {}, ["missingProposedDate"]),
        (
            {"projectName": quality.synthesized_project_name("25INR0001")},
            {},
            ["synthesizedProjectName"],
        ),
        ({"projectName": "Confidential"}, {}, ["unresolvedProjectName"]),
        ({"projectName": None}, {}, ["unresolvedProjectName"]),
        ({"pointOfInterconnection": None}, {}, ["missingPointOfInterconnection"]),
        ({"pointOfInterconnection": "TBD"}, {}, ["unresolvedPointOfInterconnection"]),
        ({"pointOfInterconnection": "Unknown"}, {}, ["unknownPointOfInterconnection"]),
        ({"state": None}, {}, ["missingState"]),
        ({"state": "TX/OK"}, {}, ["unknownState"]),
        ({"status": "on hold (see notes)"}, {}, ["unknownStatus"]),
        ({"requestedCapacityMw": 0}, {}, ["zeroRequestedCapacity"]),
        ({"requestedCapacityMw": -50.0}, {}, ["negativeRequestedCapacity"]),
        (
            {"projectName": "Pe\u00c3\u00b1asco Solar (demo)"},
            {},
            ["suspectedProjectNameEncodingDamage", "suspectedEncodingDamage"],
        ),
        (
            {"pointOfInterconnection": "Do\u00c3\u00b1a Ana 115 kV"},
            {},
            ["suspectedPointOfInterconnectionEncodingDamage", "suspectedEncodingDamage"],
        ),
        ({}, {"developer": "\u00c3\u2030nergie Solaire (demo)"}, ["suspectedEncodingDamage"]),
        ({}, {"withdrawnDate": "2025-02-01"}, ["activeWithWithdrawnDate"]),
        ({"proposedDate": "2023-01-01"}, {}, ["proposedDateBeforeQueueDate"]),
        ({}, {"onlineDate": "2023-01-01"}, ["onlineDateBeforeQueueDate"]),
        (
            {"status": "withdrawn"},
            {"withdrawnDate": "2024-01-01"},
            ["withdrawnDateBeforeQueueDate"],
        ),
        (
            {},
            {"interconnectionAgreementDate": "2023-12-31"},
            ["interconnectionAgreementDateBeforeQueueDate"],
        ),
    ],
)
def test_each_dirty_case_raises_its_own_code(record_changes, details_changes, expected):
    assert codes(clean_record(**record_changes), clean_details(**details_changes)) == expected


def test_every_count_code_has_a_rule_that_can_fire():
    # The parametrized cases above between them exercise every code of the report.
    assert len(quality.QUEUE_COUNT_CODES) == 20
    assert len(set(quality.QUEUE_COUNT_CODES)) == 20


def test_flags_have_the_interface_shape():
    flags = quality.queue_quality_flags(
        clean_record(county=None, requestedCapacityMw=0), clean_details()
    )
    assert [set(f) for f in flags] == [{"code", "severity", "field", "message"}] * 2
    assert {f["severity"] for f in flags} == {"info"}
    assert [f["field"] for f in flags] == ["county", "requestedCapacityMw"]


def test_accented_text_that_is_correct_is_not_encoding_damage():
    record = clean_record(projectName="Peñasco Solar (demo)", pointOfInterconnection="Doña Ana")
    assert codes(record, clean_details(developer="Énergie Solaire (demo)")) == []


def test_unparseable_dates_are_not_compared():
    assert codes(clean_record(proposedDate="2023-13-45"), clean_details()) == []


@pytest.mark.parametrize(
    ("forecast", "demand", "extreme"),
    [(50000, 48000, False), (150000, 48000, True), (9000, 48000, True), (None, 48000, False)],
)
def test_extreme_forecast_rule(forecast, demand, extreme):
    operation = {"demandForecastMw": forecast, "demandMw": demand}
    flags = quality.ba_operation_quality_flags(operation)
    assert bool(flags) is extreme
    assert quality.is_extreme_forecast(forecast, demand) is extreme


# The report over a demo store ---------------------------------------------------------


@pytest.fixture(scope="module")
def demo_conn(tmp_path_factory):
    from demo_store import demo_store_copy

    from gridservice.store import db

    connection = db.connect(demo_store_copy(tmp_path_factory.mktemp("quality") / "demo.sqlite"))
    yield connection
    connection.close()


@pytest.fixture(scope="module")
def report(demo_conn):
    return quality.compute_quality(demo_conn, generated_at="2025-10-01T00:00:00Z")


def stored(conn, sql):
    import json

    return [json.loads(r[0]) for r in conn.execute(sql)]


def test_report_has_the_interface_shape(report):
    assert report["generatedAt"] == "2025-10-01T00:00:00Z"
    assert report["scope"] == "commercial-core"
    assert report["policy"]
    assert set(report["queue"]) == {
        "rows",
        *quality.QUEUE_COUNT_CODES,
        quality.STATUS_DISAGREEMENT_CODE,
    }
    assert report["queueStatusDisagreements"] == []  # the demo has one source per market
    assert set(report["balancingAuthorityOperations"]) == {"rows", "quarantinedExtremeForecasts"}
    assert set(report["joins"]) == {
        "generatorRows",
        "generatorsWithoutPlant",
        "generatorPlantCoverage",
        "operationRows",
        "operationsWithoutGenerator",
        "operationGeneratorCoverage",
        "operationsWithoutPlant",
        "operationPlantCoverage",
    }
    counts = [*report["queue"].values(), *report["joins"].values()]
    assert all(isinstance(v, int) for v in counts)


def test_every_dirty_case_of_the_demo_is_counted(report):
    assert report["queue"]["rows"] >= 1500
    assert all(report["queue"][code] > 0 for code in quality.QUEUE_COUNT_CODES)
    assert report["balancingAuthorityOperations"]["quarantinedExtremeForecasts"] > 0
    joins = report["joins"]
    assert joins["generatorsWithoutPlant"] > 0
    assert joins["operationsWithoutGenerator"] > 0
    assert joins["operationsWithoutPlant"] > 0


def test_queue_counts_equal_the_flags_stored_at_load(demo_conn, report):
    records = stored(demo_conn, "SELECT body FROM queue_records")
    recount = {code: 0 for code in quality.QUEUE_COUNT_CODES}
    for record in records:
        for code in {f["code"] for f in record["qualityFlags"]}:
            recount[code] += 1
    assert report["queue"] == {
        "rows": len(records),
        **recount,
        quality.STATUS_DISAGREEMENT_CODE: 0,
    }


def test_ba_and_join_counts_equal_a_recount(demo_conn, report):
    operations = stored(demo_conn, "SELECT body FROM ba_operations")
    assert report["balancingAuthorityOperations"] == {
        "rows": len(operations),
        "quarantinedExtremeForecasts": sum(bool(o["qualityFlags"]) for o in operations),
    }
    generators = stored(demo_conn, "SELECT body FROM generators WHERE is_current = 1")
    plant_ids = {
        p["agencyPlantId"] for p in stored(demo_conn, "SELECT body FROM generation_plants")
    }
    units = {(g["agencyPlantId"], g["generatorId"]) for g in generators}
    ops = stored(demo_conn, "SELECT body FROM generator_operations")
    no_plant = sum(g["agencyPlantId"] not in plant_ids for g in generators)
    no_generator = sum((o["agencyPlantId"], o["generatorId"]) not in units for o in ops)
    ops_no_plant = sum(o["agencyPlantId"] not in plant_ids for o in ops)
    joins = report["joins"]
    assert joins["generatorRows"] == len(generators)
    assert joins["generatorsWithoutPlant"] == no_plant
    assert joins["generatorPlantCoverage"] == (len(generators) - no_plant) * 10000 // len(
        generators
    )
    assert joins["operationRows"] == len(ops)
    assert joins["operationsWithoutGenerator"] == no_generator
    assert joins["operationsWithoutPlant"] == ops_no_plant
    assert joins["operationPlantCoverage"] == (len(ops) - ops_no_plant) * 10000 // len(ops)


def test_report_follows_the_stored_data(demo_conn, report):
    # Damage one clean record in place: the report must see it, then undo.
    import json

    row = demo_conn.execute(
        "SELECT id, body FROM queue_records WHERE body LIKE '%\"qualityFlags\":[]%' LIMIT 1"
    ).fetchone()
    body = json.loads(row[1])
    body["county"] = None
    try:
        demo_conn.execute(
            "UPDATE queue_records SET body = ? WHERE id = ?", (json.dumps(body), row[0])
        )
        after = quality.compute_quality(demo_conn, generated_at=report["generatedAt"])
        assert after["queue"]["missingCounty"] == report["queue"]["missingCounty"] + 1
    finally:
        demo_conn.rollback()
    again = quality.compute_quality(demo_conn, generated_at=report["generatedAt"])
    assert again == report


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def demo_store(request, demo_conn):
    """The demo store on each backend (a copy of the PostgreSQL demo database)."""
    if request.param == "sqlite":
        yield demo_conn
        return
    from gridservice.store import db

    cluster = request.getfixturevalue("postgres_cluster")
    conn = db.connect(
        cluster.new_database(template=request.getfixturevalue("postgres_demo_template"))
    )
    yield conn
    conn.close()


def test_each_report_month_counts_each_status_as_a_recount_does(demo_store):
    from gridservice.store import quality_reads

    months = quality_reads.queue_report_months(demo_store)
    stored = demo_store.execute(
        "SELECT report_id FROM queue_reports ORDER BY market, report_month"
    ).fetchall()
    assert [m["reportId"] for m in months] == [r[0] for r in stored] and len(months) > 1
    counted = {}
    for report_id, status, count in demo_store.execute(
        "SELECT report_id, status, count(*) FROM queue_history GROUP BY report_id, status"
    ):
        counted[(report_id, status)] = count
    for month in months:
        for status in ("active", "inactive", "cancelled", "commissioned"):
            assert month[status] == counted.get((month["reportId"], status), 0), (month, status)
    # the demo's reports name projects that left the queue, so the events are counted
    assert any(month["cancelled"] for month in months)
