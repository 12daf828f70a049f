"""The frames behind the data pages' tables and charts, from the client's models."""

from __future__ import annotations

import datetime as dt

import pandas as pd
import pytest

from components import facts_view, generation_view, maps, operations_view, quality_view, queue_view
from components.evidence_view import locator_rows
from components.filters import kept_choices, parse_date, parse_float
from components.tables import flags_text, mapping_frame
from gridclient import (
    BalancingAuthorityOperation,
    Fact,
    GenerationPlant,
    Generator,
    GeneratorOperation,
    QualityFlag,
    QueueRecord,
    QueueRecordDetails,
    QueueRecordEvidence,
)
from gridclient.models import HarvestRun, QualityReport, QueueQuality, Release


def models(model, wires):
    """Return the client's models of wire records (what the data module hands views)."""
    return [model.model_validate(wire) for wire in wires]


FLAG = {"code": "missing_county", "severity": "info", "field": "county", "message": "no county"}


def queue_record(
    rid,
    *,
    state="TX",
    county="Travis",
    status="active",
    market="ERCOT",
    mw=100.0,
    proposed="2027-06-01",
    flags=(),
):
    return QueueRecord.model_validate(
        {
            "id": rid,
            "sourceId": "src-q",
            "assetHash": "h",
            "recordKey": rid,
            "market": market,
            "projectName": f"Project {rid}",
            "pointOfInterconnection": "Sub 345",
            "state": state,
            "county": county,
            "proposedDate": proposed,
            "observedAt": "2025-01-01T00:00:00Z",
            "sourceLocator": f"queue.xlsx#Sheet1!R{rid}",
            "evidenceUrl": "https://example.org/q",
            "status": status,
            "requestedCapacityMw": mw,
            "qualityFlags": list(flags),
        }
    )


@pytest.fixture
def queue():
    return queue_view.queue_frame(
        [
            queue_record("q1", mw=100, proposed="2026-01-15"),
            queue_record("q2", county="Bastrop", status="withdrawn", mw=50, proposed="2027-03-01"),
            queue_record(
                "q3", state="OK", county="Kay", market="SPP", mw=200, proposed=None, flags=[FLAG]
            ),
            queue_record("q4", county=None, mw=None, proposed="2027-12-31"),
        ]
    )


def test_queue_frame_keeps_provenance_and_flags_as_text(queue):
    row = queue.set_index("id").loc["q3"]
    assert row["sourceId"] == "src-q"
    assert row["sourceLocator"] == "queue.xlsx#Sheet1!Rq3"
    assert row["qualityFlags"] == "Missing county (county): no county"
    assert pd.isna(row["proposedDate"])


def test_the_status_filter_follows_the_newest_sources_word():
    now = {
        "status": "inactive",
        "date": "2025-10-03",
        "sourceId": "ercot_gis_report",
        "sourceLocator": "GIS_Report_November2025.xlsx#Inactive Projects!R138",
        "countsAsActive": False,
    }
    wire = queue_record("26INR0279", county="Ector").to_wire()
    firebird = QueueRecord.model_validate({**wire, "statusNow": now})
    frame = queue_view.queue_frame([firebird, queue_record("q1", county="Ector")])
    row = frame.set_index("id").loc["26INR0279"]
    assert (row["status"], row["sourceStatus"]) == ("inactive", "active")
    assert row["statusDate"] == "2025-10-03"
    assert row["statusSource"] == "GIS_Report_November2025.xlsx#Inactive Projects!R138"
    active = queue_view.filter_queue(frame, queue_view.QueueFilters(statuses=("active",)))
    assert list(active["id"]) == ["q1"]
    assert queue_view.active_now(frame) == (1, 100.0)


def test_filters_combine_and_fold_case(queue):
    chosen = queue_view.filter_queue(queue, queue_view.QueueFilters(states=("tx",), min_mw=60))
    assert list(chosen["id"]) == ["q1"]
    dated = queue_view.filter_queue(
        queue,
        queue_view.QueueFilters(
            proposed_from=dt.date(2027, 1, 1), proposed_to=dt.date(2027, 12, 31)
        ),
    )
    assert list(dated["id"]) == ["q2", "q4"]
    assert list(queue_view.filter_queue(queue, queue_view.QueueFilters())["id"]) == [
        "q1",
        "q2",
        "q3",
        "q4",
    ]


def test_a_bound_excludes_records_without_the_value(queue):
    chosen = queue_view.filter_queue(queue, queue_view.QueueFilters(max_mw=1000))
    assert "q4" not in set(chosen["id"])


def test_technology_filter_uses_fetched_details(queue):
    enriched = queue_view.with_details(
        queue,
        {
            "q1": QueueRecordDetails(technology="Solar", queue_date="2023-02-01"),
            "q2": QueueRecordDetails(technology="Battery", queue_date="2024-05-05"),
        },
    )
    chosen = queue_view.filter_queue(enriched, queue_view.QueueFilters(technologies=("solar",)))
    assert list(chosen["id"]) == ["q1"]
    assert list(queue_view.entries_by_year(enriched, "queueDate")["year"]) == [2023, 2024]


def test_mw_by_status_sums_and_counts(queue):
    by_status = queue_view.mw_by(queue, "status")
    assert by_status.to_dict("records") == [
        {"status": "active", "mw": 300.0, "records": 3},
        {"status": "withdrawn", "mw": 50.0, "records": 1},
    ]
    by_tech = queue_view.mw_by(queue, "technology")
    assert by_tech.to_dict("records") == [{"technology": "unknown", "mw": 350.0, "records": 4}]


def test_the_status_chart_names_each_status_as_the_table_does():
    frame = queue_view.queue_frame(
        [
            queue_record("q1", mw=100, proposed=None),
            queue_record("q2", status="not_listed", mw=40, proposed=None),
            queue_record("q3", status="", mw=10, proposed=None),
        ]
    )
    chart = queue_view._mw_chart(frame, "status")
    assert dict(zip(chart.data["status"], chart.data["mw"], strict=True)) == {
        "Active": 100.0,
        "Not listed": 40.0,
        "Unknown": 10.0,
    }
    technology = queue_view._mw_chart(
        frame.assign(technology=["solar", "solar", None]), "technology"
    )
    assert dict(zip(technology.data["technology"], technology.data["mw"], strict=True)) == {
        "Solar": 140.0,
        "Unknown": 10.0,
    }
    market = queue_view._mw_chart(frame, "market")
    assert list(market.data["market"]) == ["ERCOT"]


def test_entries_by_year_leave_out_undated(queue):
    assert queue_view.entries_by_year(queue, "proposedDate").to_dict("records") == [
        {"year": 2026, "records": 1, "mw": 100.0},
        {"year": 2027, "records": 2, "mw": 50.0},
    ]


def test_options_are_distinct_sorted_and_skip_blanks(queue):
    assert queue_view.options(queue, "county") == ["Bastrop", "Kay", "Travis"]


def test_evidence_locator_and_source_row():
    evidence = {
        "sourceName": "ERCOT GIS report",
        "sourceId": "ercot-gis",
        "sourceUrl": "https://e.test",
        "locator": {
            "type": "spreadsheet_row",
            "fileName": "gis.xlsx",
            "worksheet": "Large Gen",
            "row": 42,
        },
        "sourceRow": {"INR": "21INR0001", "Fuel": "Solar"},
        "redistributionPolicy": "links_only",
    }
    rows = dict(locator_rows(QueueRecordEvidence.model_validate(evidence)))
    assert rows["File"] == "gis.xlsx" and rows["Worksheet"] == "Large Gen" and rows["Row"] == "42"
    # the policy reads in words, not as its wire code
    assert rows["Redistribution policy"] == "Links only"
    frame = mapping_frame(evidence["sourceRow"], key="column", value="value")
    assert frame.values.tolist() == [["INR", "21INR0001"], ["Fuel", "Solar"]]


def test_details_rows_join_capacity_components():
    rows = dict(
        queue_view.details_rows(
            QueueRecordDetails(technology="Wind", capacity_components_mw=[100, 50.5])
        )
    )
    assert rows["Technology"] == "Wind"
    assert rows["Capacity components"] == "100 MW, 50.5 MW"


def test_flags_text():
    flags = [QualityFlag.model_validate(FLAG), QualityFlag(code="x")]
    assert flags_text(flags) == "Missing county (county): no county; X"
    assert flags_text(None) == ""


def test_filter_parsing():
    assert parse_float("12.5") == 12.5
    assert parse_float("abc") is None and parse_float("nan") is None and parse_float("") is None
    assert parse_date("2027-02-03") == dt.date(2027, 2, 3)
    assert parse_date("2027-13-01") is None
    assert kept_choices(["tx", "XX", "TX"], ["OK", "TX"]) == ["TX"]


def test_quality_frames():
    runs = [
        {
            "runId": "r1",
            "sourceId": "s",
            "assetHash": "h",
            "observedAt": "2025-01-01T00:00:00Z",
            "inputRecords": 10,
            "acceptedRecords": 8,
            "rejectedRecords": 2,
            "unchangedAsset": False,
            "rejections": [
                {"sourceLocator": "row 3", "reasons": ["bad date", "no county"]},
                {"sourceLocator": "row 9", "reasons": ["negative MW"]},
            ],
        }
    ]
    runs = [HarvestRun.model_validate(run) for run in runs]
    assert quality_view.runs_frame(runs).loc[0, "rejectedRecords"] == 2
    rejections = quality_view.rejections_frame(runs)
    assert rejections["reasons"].tolist() == ["bad date; no county", "negative MW"]
    counts = quality_view.counts_frame(
        QueueQuality.model_validate({"rows": 100, "missingCounty": 3, "unknownStatus": 7}),
        total_key="rows",
    )
    assert counts[["check", "count"]].values.tolist() == [
        ["unknown status", 7],
        ["missing county", 3],
    ]
    release = quality_view.release_rows(
        Release.model_validate({"releaseId": "demo-1", "extra": "x"})
    )
    assert release.iloc[0].tolist() == ["Release id", "demo-1"]
    assert release.iloc[-1].tolist() == ["extra", "x"]


def fact(fid, value, known_from, known_to=None, version="1"):
    return Fact.model_validate(
        {
            "id": fid,
            "factKey": "ercot/peak/2027",
            "factVersion": version,
            "market": "ERCOT",
            "period": "2027",
            "value": value,
            "unit": "MW",
            "knownFrom": known_from,
            "knownTo": known_to,
            "evidence": {"page": 4, "quote": "Peak 80 GW", "parserConfidence": 0.9},
            "qualityFlags": [],
        }
    )


def test_fact_history_walks_back_through_restatements():
    v1 = fact("f1", 80000, "2024-01-01T00:00:00Z", "2025-01-01T00:00:00Z", "1")
    v2 = fact("f2", 85000, "2025-01-01T00:00:00Z", None, "2")
    asked = []

    def known_at(instant):
        asked.append(instant)
        return [v1] if instant < "2025-01-01T00:00:00Z" and instant >= "2024" else []

    versions = facts_view.fact_history(v2, known_at)
    assert [v.value for v in versions] == [85000, 80000]
    assert asked[0] == "2024-12-31T23:59:59Z"
    history = facts_view.history_frame(versions)
    assert history["value"].tolist() == [80000, 85000]
    frame = facts_view.facts_frame([v2])
    assert frame.loc[0, "page"] == 4 and frame.loc[0, "quote"] == "Peak 80 GW"


def test_known_at_param():
    assert facts_view.known_at_param(dt.date(2025, 3, 1), None) == "2025-03-01T00:00:00Z"
    assert facts_view.known_at_param(None, None) is None


def test_operations_frames():
    ops = [
        {
            "utcTime": "2025-01-01T01:00:00Z",
            "demandMw": 110,
            "demandForecastMw": 100,
            "netGenerationMw": 105,
            "totalInterchangeMw": -5,
            "generationByFuelMw": {"gas": 60, "wind": 45},
            "evidence": {"sourceId": "eia930"},
        },
        {
            "utcTime": "2025-01-01T00:00:00Z",
            "demandMw": 90,
            "demandForecastMw": 100,
            "netGenerationMw": 95,
            "totalInterchangeMw": 5,
            "generationByFuelMw": {"gas": 50, "wind": 45},
            "evidence": {"sourceId": "eia930"},
        },
    ]
    ops = [BalancingAuthorityOperation.model_validate(op) for op in ops]
    frame = operations_view.operations_frame(ops)
    assert frame["demandMw"].tolist() == [90, 110]
    assert frame.loc[0, "sourceId"] == "eia930"
    long = operations_view.demand_long(frame)
    assert set(long["series"]) == {
        "Demand",
        "Demand forecast",
        "Net generation",
        "Total interchange",
    }
    assert len(long) == 8
    fuel = operations_view.fuel_mix_long(ops)
    assert fuel["series"].tolist() == ["Gas", "Wind", "Gas", "Wind"]
    assert operations_view.summary(frame) == {
        "hours": 2,
        "peakDemandMw": 110.0,
        "meanForecastErrorMw": 10.0,
    }
    assert operations_view.window_bounds(dt.date(2025, 1, 2), dt.date(2025, 1, 1)) == (
        "2025-01-01T00:00:00Z",
        "2025-01-03T00:00:00Z",
    )


def test_generation_frames():
    generators = generation_view.generators_frame(
        models(
            Generator,
            [
                {
                    "id": "g1",
                    "generatorId": "1",
                    "agencyPlantId": 7,
                    "technology": "Solar",
                    "nameplateCapacityMw": 100,
                    "evidence": {"sourceId": "eia860"},
                },
                {
                    "id": "g2",
                    "generatorId": "2",
                    "agencyPlantId": 7,
                    "technology": "Batteries",
                    "nameplateCapacityMw": 40,
                },
                {
                    "id": "g3",
                    "generatorId": "1",
                    "agencyPlantId": 8,
                    "technology": "Wind",
                    "nameplateCapacityMw": 20,
                },
            ],
        )
    )
    plants = generation_view.plants_frame(
        models(
            GenerationPlant,
            [
                {
                    "id": "p7",
                    "agencyPlantId": 7,
                    "plantName": "Sunny",
                    "latitude": 30.1,
                    "longitude": -97.5,
                },
                {
                    "id": "p9",
                    "agencyPlantId": 9,
                    "plantName": "Empty",
                    "latitude": None,
                    "longitude": None,
                },
            ],
        ),
        generators,
    )
    sunny = plants.set_index("id").loc["p7"]
    assert sunny["capacityMw"] == 140 and sunny["technology"] == "Solar"
    assert plants.set_index("id").loc["p9", "technology"] == "unknown"
    layer = generation_view.plant_layer(plants)
    [row] = maps.layer_rows({"data": layer.data})
    # only what the map draws, labels and picks: the label names the plant, its technology, MW
    assert set(row) == {"agencyPlantId", "latitude", "longitude", "color", "radius", "label"}
    assert row["label"] == "Sunny · Solar · 140 MW"
    assert isinstance(row["radius"], int) and row["radius"] == round(
        generation_view.plant_radius_m(140)
    )
    assert generation_view.technology_color("Solar") == generation_view.technology_color("solar")
    assert generation_view.plant_radius_m(400) > generation_view.plant_radius_m(100)
    legend = generation_view.technology_legend(plants)
    assert legend.loc[0, "technology"] == "Solar" and legend.loc[0, "color"].startswith("#")
    assert "Solar</span>" in generation_view.technology_legend_html(legend)
    monthly = generation_view.monthly_generation(
        models(
            GeneratorOperation,
            [
                {"period": "2024-02", "generatorId": "1", "netGenerationMwh": 10},
                {"period": "2024-01", "generatorId": "1", "netGenerationMwh": 5},
            ],
        )
    )
    assert monthly["netGenerationMwh"].tolist() == [5, 10]


def test_status_disagreements_keep_both_locators():
    report = QualityReport.model_validate(
        {
            "quality": {
                "queueStatusDisagreements": [
                    {
                        "recordId": "lbnl-ercot-26INR0279",
                        "status": "active",
                        "sourceLocator": "lbnl.csv#R268",
                        "statusNow": "inactive",
                        "statusNowDate": "2025-10-03",
                        "statusNowSourceLocator": (
                            "GIS_Report_November2025.xlsx#Inactive Projects!R138"
                        ),
                    }
                ]
            }
        }
    )
    frame = quality_view.status_disagreements_frame(report.quality.queue_status_disagreements)
    row = frame.iloc[0]
    assert (row["Its source cell"], row["Newer source cell"]) == (
        "lbnl.csv#R268",
        "GIS_Report_November2025.xlsx#Inactive Projects!R138",
    )
    assert quality_view.status_disagreements_frame(None).empty


def test_the_generation_legend_names_each_technology_in_its_colour_largest_first():
    legend = pd.DataFrame(
        {
            "technology": ["Natural Gas Fired Combined Cycle", "Wind <b>", "Solar"],
            "color": ["#111111", "#222222", "#333333"],
            "plants": [12, 1, 3],
            "capacityMw": [4000.0, 1000.0, 0.0],
        }
    )
    text = generation_view.technology_legend_html(legend)
    rows = text.split('class="gss-legend-row"')[1:]
    assert len(rows) == 3
    # whole names, in the order given (largest MW first), a name from the data never markup
    assert '<span class="gss-name">Natural Gas Fired Combined Cycle</span>' in rows[0]
    assert "Wind &lt;b&gt;" in rows[1] and "<b>" not in text
    # each row's swatch and bar in its technology's map colour, the bar its share of the largest
    assert rows[0].count("background:#111111") == 2 and "width:100.0%" in rows[0]
    assert "width:25.0%" in rows[1] and "width:0.0%" in rows[2]
    assert "4,000 MW</span>" in rows[0]
    # plants are in the row's tooltip, counted in words
    assert 'title="Wind &lt;b&gt;: 1 plant, 1,000 MW"' in rows[1]
    assert "12 plants" in rows[0]
    assert generation_view.technology_legend_html(legend.iloc[0:0]).endswith(
        '<div class="gss-legend"></div>'
    )
