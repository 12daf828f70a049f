"""Harvesting the CSV sources: LBNL Queued Up, EIA plants, EIA-860 generators, EIA-930."""

from __future__ import annotations

import csv
import json

import pytest
from harvest_support import data_file, fresh_store, store_snapshot

from gridservice.catalogue.quality import compute_quality
from gridservice.harvest import HarvestError, run_harvest

LBNL = "lbnl_queued_up/lbnl_queued_up_thru2024_ercot_q2023_ge100mw.csv"
PLANTS = "eia_plants/eia_power_plants_202305_texas.csv"
EIA860 = "eia860/eia860_tx_generators_plants_merged_SAMPLE.csv"
FORECAST = "eia930/eia930_erco_hourly_demand_forecast_2015_2019.csv"
FUEL_MIX = "eia930/eia930_erco_hourly_net_generation_by_fuel_2025_2026.csv"


@pytest.fixture(scope="module")
def harvested(tmp_path_factory):
    conn = fresh_store(tmp_path_factory.mktemp("tables") / "store.db")
    runs = {
        name: run_harvest(conn, name, data_file(path)).run
        for name, path in [
            ("lbnl-queued-up", LBNL),
            ("eia-plants", PLANTS),
            ("eia860", EIA860),
            ("eia930-demand-forecast", FORECAST),
            ("eia930-fuel-mix", FUEL_MIX),
        ]
    }
    yield conn, runs
    conn.close()


def _counts(run):
    return run["inputRecords"], run["acceptedRecords"], run["rejectedRecords"]


def test_golden_counts(harvested):
    _, runs = harvested
    assert _counts(runs["lbnl-queued-up"]) == (368, 368, 0)
    assert _counts(runs["eia-plants"]) == (766, 766, 0)
    assert _counts(runs["eia860"]) == (49, 49, 0)
    assert _counts(runs["eia930-demand-forecast"]) == (36547, 36547, 0)
    assert _counts(runs["eia930-fuel-mix"]) == (6510, 6510, 0)


def test_lbnl_record_is_a_synthesis_with_codebook_details(harvested):
    conn, _ = harvested
    record_id = "lbnl-ercot-23INR0368"
    record = json.loads(
        conn.execute("SELECT body FROM queue_records WHERE id = ?", (record_id,)).fetchone()[0]
    )
    details = json.loads(
        conn.execute(
            "SELECT body FROM queue_record_details WHERE record_id = ?", (record_id,)
        ).fetchone()[0]
    )
    evidence = json.loads(conn.execute("SELECT body FROM queue_record_evidence WHERE record_id = ?", (record_id,)).fetchone()[0])  # fmt: skip
    assert (record["projectName"], record["county"], record["requestedCapacityMw"]) == (
        "Rocking X Solar",
        "Parker",
        602.2,
    )
    assert details["evidence"]["authority"] == "officially_sponsored_synthesis"
    assert (details["queueDate"], details["countyFips"]) == ("2023-10-04", "48367")
    assert details["studyPhaseNormalized"] == "Facility Study"
    with data_file(LBNL).open(newline="", encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    published = rows[evidence["locator"]["row"] - 1]
    assert published[0] == "23INR0368" == evidence["sourceRow"]["q_id"]
    statuses = dict(conn.execute(
        "SELECT status, count(*) FROM queue_records WHERE json_extract(body, '$.sourceId') = 'lbnl_queued_up' GROUP BY status"
    ).fetchall())  # fmt: skip
    assert statuses == {"active": 331, "withdrawn": 26, "suspended": 11}


def test_quality_report_comes_from_the_harvested_rows(harvested):
    conn, _ = harvested
    quality = compute_quality(conn)
    assert quality["queue"]["rows"] == 368
    assert quality["balancingAuthorityOperations"]["rows"] == 36547 + 6510
    # One of the 49 sample generators names a plant that is not in the May 2023 plant layer.
    joins = quality["joins"]
    assert (joins["generatorRows"], joins["generatorsWithoutPlant"]) == (49, 1)


def test_ba_operations_carry_nulls_for_missing_values(harvested):
    conn, _ = harvested
    first = json.loads(conn.execute("SELECT body FROM ba_operations WHERE id = 'eia930-ERCO-2015-07-01T05:00:00Z'").fetchone()[0])  # fmt: skip
    assert first["demandMw"] is None and first["demandForecastMw"] is None  # "MISSING"
    assert first["localTime"] == "2015-07-01T00:00:00-05:00"
    mix = json.loads(conn.execute("SELECT body FROM ba_operations WHERE id = 'eia930-ERCO-2025-11-12T00:00:00Z'").fetchone()[0])  # fmt: skip
    assert mix["generationByFuelMw"]["wind"] == 22630
    assert mix["netGenerationMw"] == sum(mix["generationByFuelMw"].values())


def test_a_new_eia860_release_keeps_the_old_one_selectable(tmp_path):
    conn = fresh_store(tmp_path / "store.db")
    first = run_harvest(conn, "eia860", data_file(EIA860)).run
    newer = tmp_path / "eia860_newer.csv"
    lines = data_file(EIA860).read_text(encoding="utf-8").splitlines(keepends=True)
    newer.write_text("".join(lines[:-1]), encoding="utf-8")  # the next release lost a row
    second = run_harvest(conn, "eia860", newer).run
    assert first["assetHash"] != second["assetHash"]
    current = dict(
        conn.execute("SELECT is_current, count(*) FROM generators GROUP BY is_current").fetchall()
    )
    assert current == {0: 49, 1: 48}
    old_release = f"eia860-{first['assetHash'][:12]}"
    assert (
        conn.execute(
            "SELECT count(*) FROM generators WHERE source_id = ?", (old_release,)
        ).fetchone()[0]
        == 49
    )


@pytest.mark.parametrize(
    ("source", "wrong", "message"),
    [
        ("lbnl-queued-up", PLANTS, "no column 'q_id'"),
        ("eia-plants", LBNL, "no column 'Plant_Code'"),
        ("eia860", PLANTS, "no column 'Plant Code'"),
        ("eia930-fuel-mix", FORECAST, "no column 'utc_period'"),
        ("lbnl-queued-up", "ercot_gis_queue/GIS_Report_November2025.xlsx", "not a CSV text file"),
    ],
)
def test_wrong_file_names_the_file_and_changes_nothing(harvested, source, wrong, message):
    conn, _ = harvested
    before = store_snapshot(conn)
    with pytest.raises(HarvestError) as error:
        run_harvest(conn, source, data_file(wrong))
    assert data_file(wrong).name in str(error.value) and message in str(error.value)
    assert store_snapshot(conn) == before


def test_renamed_column_is_named(harvested, tmp_path):
    conn, _ = harvested
    renamed = tmp_path / "lbnl_queued_up_renamed.csv"
    text = data_file(LBNL).read_text(encoding="utf-8")
    renamed.write_text(text.replace("q_status,", "queue_status,", 1), encoding="utf-8")
    before = store_snapshot(conn)
    with pytest.raises(HarvestError, match="lbnl_queued_up_renamed.csv: no column 'q_status'"):
        run_harvest(conn, "lbnl-queued-up", renamed)
    assert store_snapshot(conn) == before
