"""The service names each source as its publisher does, with the edition its file states."""

from __future__ import annotations

import csv
import datetime as dt
from pathlib import Path

import pytest

from gridservice.catalogue.source_fields import edition, source_fields

DATA = Path(__file__).resolve().parents[3].parent / "shared" / "data"


def source_name(source_id, locator=None, given_name=None):
    """The publisher's title and edition, as the app joins them."""
    fields = source_fields(source_id, locator, source_name=given_name)
    if not fields["edition"]:
        return fields["publisher"]
    if fields["publisher"].endswith(" (demo)"):
        return f"{fields['publisher'].removesuffix(' (demo)')}, {fields['edition']} (demo)"
    return f"{fields['publisher']}, {fields['edition']}"


def test_the_issue_s_example_reads_as_the_publisher_writes_it():
    locator = "GIS_Report_November2025.xlsx#Project Details - Large Gen!R36"
    assert source_name("ercot_gis_report", locator) == "ERCOT GIS report, November 2025"


@pytest.mark.parametrize(
    ("source_id", "locator", "expected"),
    [
        ("ercot_cdr", "CapacityDemandandReservesReport_May2025.xlsx#Background!B11",
         "ERCOT CDR report, May 2025"),
        ("ercot_large_load_status", "ercot_lli_queue_2024-09-06.pdf#page=1",
         "ERCOT large load interconnection status, 6 September 2024"),
        ("eia_power_plants", "eia_power_plants_202305_texas.csv#R10", "EIA power plants, May 2023"),
        ("eia930_demand_forecast", "eia930_erco_hourly_demand_forecast_2015_2019.csv#R10",
         "EIA-930 hourly demand and forecast, 2015 to 2019"),
        ("lbnl_queued_up", "lbnl_queued_up_thru2024_ercot_q2023_ge100mw.csv#R10",
         "LBNL Queued Up, through 2024"),
        ("ercot_gis_report_history_extract", "ercot_gis_monthly_history_Dec2024_Nov2025.csv#R2",
         "ERCOT GIS reports, monthly history, December 2024 to November 2025"),
        # a harvested id carries its asset's hash; the hash is no edition
        ("eia860-833c8478243c", "eia860_tx_generators_plants_merged_SAMPLE.csv#R10", "EIA-860"),
        ("eia861_service_territory", "Service_Territory_2024.xlsx#Counties_States!R10000",
         "EIA-861 service territory, 2024"),
        # demo sources say so after their edition
        ("demo-ercot-gis", "GIS_Report_September2025_demo.xlsx#'Project Details - Large Gen'!A2",
         "ERCOT GIS report, September 2025 (demo)"),
        ("demo-eia860m-2025-06", None, "EIA-860M, June 2025 (demo)"),
    ],
)  # fmt: skip
def test_known_sources_get_their_publisher_title_and_edition(source_id, locator, expected):
    assert source_name(source_id, locator) == expected


def test_an_unknown_source_keeps_the_record_s_own_name_or_its_id_in_words():
    assert (
        source_fields("acme_feed", "feed.csv#R1", source_name="Acme grid feed")["publisher"]
        == "Acme grid feed"
    )
    assert source_fields("acme_feed", None)["publisher"] == "acme feed"
    assert source_fields(None, None)["publisher"] == "an unnamed source"


@pytest.mark.skipif(not DATA.is_dir(), reason="../shared/data (the real public files) is absent")
def test_every_monthly_gis_report_is_named_by_its_activity_month():
    # The index states each report's GIM activity period ("Dec 01, 2024 to Dec 31, 2024");
    # the report is that month's edition.
    with (DATA / "ercot_gis_queue" / "ercot_gis_monthly_reports_index.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 12
    for row in rows:
        start = dt.datetime.strptime(row["gim_activity_period"].split(" to ")[0], "%b %d, %Y")
        locator = f"{row['report']}#Project Details - Large Gen!R36"
        assert source_name("ercot_gis_report", locator) == (
            f"ERCOT GIS report, {start:%B} {start.year}"
        )


@pytest.mark.skipif(not DATA.is_dir(), reason="../shared/data (the real public files) is absent")
def test_every_workbook_of_the_2024_folder_states_an_edition():
    names = sorted(path.name for path in (DATA / "ercot_gis_queue_monthly_2024").glob("*.xlsx"))
    assert names
    for name in names:
        stated = edition(name)
        assert stated is not None, name
        month, year = stated.split()
        assert month.lower()[:3] in name.lower() and year in name
