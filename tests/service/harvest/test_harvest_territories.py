"""Harvesting Census county geometry and EIA-861 service territories (county listings)."""

from __future__ import annotations

import json
import re

import openpyxl
import pytest
from harvest_support import (
    counties_store,
    data_file,
    fresh_store,
    rewrite_xlsx,
    store_snapshot,
    truncated_copy,
)

from gridservice.geography.geo import CountyIndex
from gridservice.harvest import HarvestError, run_harvest
from gridservice.harvest.eia861 import county_key
from gridservice.screening.territory import territory_candidates

TERRITORY = "eia861/Service_Territory_2024.xlsx"


@pytest.fixture(scope="module")
def harvested(tmp_path_factory, census_counties_store):
    path = tmp_path_factory.mktemp("territories") / "store.db"
    conn = counties_store(census_counties_store, path)
    counties = census_counties_store[1]  # the run that harvested the outlines
    territories = run_harvest(conn, "eia861", data_file(TERRITORY))
    yield conn, counties, territories
    conn.close()


def test_census_counties_load_through_geo(harvested):
    conn, counties, _ = harvested
    assert counties["inputRecords"] == counties["acceptedRecords"] == 3233
    index = CountyIndex.from_conn(conn)
    assert index.county_at(30.2672, -97.7431)["county_fips"] == "48453"  # Austin: Travis
    assert index.county_at(27.0, -94.0) is None  # Gulf of Mexico


def test_golden_counts_and_rejections(harvested):
    _, _, territories = harvested
    run = territories.run
    assert (run["inputRecords"], run["acceptedRecords"], run["rejectedRecords"]) == (
        11866,
        11853,
        13,
    )
    reasons = {r["reasons"][0] for r in run["rejections"]}
    # Census areas Alaska redrew before 2016, Bedford City (merged into its county in 2013)
    # and a row whose county is "Not Applicable".
    assert reasons == {
        "county 'Prince of Wales Ketchikan' is not a Census county of AK",
        "county 'Skagway Hoonah Angoon' is not a Census county of AK",
        "county 'Wrangell Petersburg' is not a Census county of AK",
        "county 'Not Applicable' is not a Census county of AK",
        "county 'Bedford City' is not a Census county of VA",
    }
    assert {"sourceLocator": "Service_Territory_2024.xlsx#Counties_States!R9781",
            "reasons": ["county 'Bedford City' is not a Census county of VA"]} in run["rejections"]  # fmt: skip


def _candidates_at(conn, latitude, longitude):
    county = CountyIndex.from_conn(conn).county_at(latitude, longitude)
    rows = conn.execute(
        "SELECT s.body FROM territory_counties t JOIN service_territories s USING (territory_id) "
        "WHERE t.county_fips = ?",
        (county["county_fips"],),
    ).fetchall()
    return [json.loads(r[0]) for r in rows]


def test_point_resolves_to_county_listed_candidates(harvested):
    conn, _, _ = harvested
    candidates = {c["utility"]: c for c in _candidates_at(conn, 30.2672, -97.7431)}
    assert set(candidates) == {
        "Austin Energy",
        "Pedernales Electric Coop, Inc",
        "Bluebonnet Electric Coop, Inc",
        "Oncor Electric Delivery Company LLC",
    }
    austin = candidates["Austin Energy"]
    assert austin["resolutionMethod"] == "eia861_county_listing"
    assert austin["confidenceBasis"] == "source_authority_heuristic_not_benchmark_accuracy"
    assert austin["companyType"] == "Municipal" and austin["isoRto"] == "ERCOT"
    assert austin["evidence"]["geometry"] == "county_union_not_polygon"


def test_independent_cities_are_their_own_counties(harvested):
    conn, _, _ = harvested
    # EIA writes "Richmond City"; Census has the city (51760) and Richmond County (51159).
    utilities = {c["utility"] for c in _candidates_at(conn, 37.5407, -77.4360)}
    assert "Virginia Electric & Power Co" in utilities


def test_territory_rows_point_back_at_the_workbook(harvested):
    conn, _, territories = harvested
    body = json.loads(
        conn.execute(
            "SELECT body FROM service_territories WHERE territory_id = 'eia861-2024-1015-TX'"
        ).fetchone()[0]
    )
    evidence = body["evidence"]
    assert evidence["assetHash"] == territories.run["assetHash"]
    workbook = openpyxl.load_workbook(data_file(TERRITORY), read_only=True)
    sheet = workbook[evidence["worksheet"]]
    counties = set()
    for number in evidence["rows"]:
        row = next(sheet.iter_rows(min_row=number, max_row=number, values_only=True))
        assert (row[1], row[4]) == (1015, "TX")  # Utility Number, State: Austin Energy
        counties.add(row[5])
    workbook.close()
    fips = {
        r[0]
        for r in conn.execute(
            "SELECT county_fips FROM territory_counties WHERE territory_id = 'eia861-2024-1015-TX'"
        )
    }
    names = {r[0] for r in conn.execute(f"SELECT name FROM counties WHERE county_fips IN ({','.join('?' * len(fips))})", tuple(fips))}  # fmt: skip
    assert names == counties and len(fips) == evidence["countyCount"]


# Abilene, Odessa, Houston, Temple, Austin, and a Louisiana parish.
CITED_COUNTIES = ("48441", "48135", "48201", "48027", "48453", "22033")
LOCATOR = re.compile(r"(.+)#(\w+)!R(\d+)")


def test_a_candidate_cites_its_matched_county_line(harvested):
    conn, _, _ = harvested
    workbook = openpyxl.load_workbook(data_file(TERRITORY), read_only=True)
    cited = []
    for fips in CITED_COUNTIES:
        name, state = conn.execute(
            "SELECT name, state FROM counties WHERE county_fips = ?", (fips,)
        ).fetchone()
        county = {"fips": fips, "name": name, "state": state}
        for candidate in territory_candidates(conn, county):
            evidence = candidate["evidence"]
            file_name, sheet, row = LOCATOR.fullmatch(evidence["sourceLocator"]).groups()
            assert (file_name, sheet) == (evidence["fileName"], evidence["worksheet"])
            cited.append((candidate["utilityId"], name, sheet, int(row)))
    lines = {}
    for sheet in {c[2] for c in cited}:
        header, *rows = workbook[sheet].iter_rows(values_only=True)
        lines[sheet] = (header, rows)
    workbook.close()
    assert len(cited) > 2 * len(CITED_COUNTIES)
    for utility_id, name, sheet, number in cited:
        header, rows = lines[sheet]
        line = dict(zip(header, rows[number - 2], strict=False))
        assert f"eia:{int(line['Utility Number'])}" == utility_id, (sheet, number)
        assert county_key(line["County"]) == county_key(name)


def test_same_bytes_again_change_nothing(harvested):
    conn, _, first = harvested
    before = store_snapshot(conn)
    again = run_harvest(conn, "eia861", data_file(TERRITORY))
    after = store_snapshot(conn)
    assert again.run["unchangedAsset"] is True
    assert again.run["acceptedRecords"] == first.run["acceptedRecords"]
    assert after["bodies"] == before["bodies"] and after["counts"] == before["counts"]


def test_needs_county_geometry_first(tmp_path):
    conn = fresh_store(tmp_path / "store.db")
    with pytest.raises(HarvestError, match="harvest census-counties first"):
        run_harvest(conn, "eia861", data_file(TERRITORY))
    assert conn.execute("SELECT count(*) FROM harvest_runs").fetchone()[0] == 0


@pytest.mark.parametrize("case", ["truncated", "missing sheet", "renamed column", "wrong file"])
def test_bad_file_names_the_file_and_leaves_the_store_as_it_was(harvested, tmp_path, case):
    conn, _, _ = harvested
    src = data_file(TERRITORY)
    name = "Service_Territory_2024.xlsx"
    path, message = {
        "truncated": (lambda: truncated_copy(src, tmp_path / name), "not a readable .xlsx"),
        "missing sheet": (
            lambda: rewrite_xlsx(src, tmp_path / name, "xl/workbook.xml",
                                 lambda x: x.replace('name="Counties_States"', 'name="Counties"')),
            "no worksheet 'Counties_States'",
        ),
        "renamed column": (
            lambda: rewrite_xlsx(src, tmp_path / name, "xl/sharedStrings.xml",
                                 lambda x: x.replace("<t>Utility Number</t>", "<t>Utility No</t>")),
            "has no column 'Utility Number'",
        ),
        "wrong file": (
            lambda: data_file("ercot_gis_queue/GIS_Report_November2025.xlsx"),
            "no worksheet 'Counties_States' (expected an EIA-861",
        ),
    }[case]  # fmt: skip
    path = path()
    before = store_snapshot(conn)
    with pytest.raises(HarvestError) as error:
        run_harvest(conn, "eia861", path)
    assert path.name in str(error.value) and message in str(error.value)
    assert store_snapshot(conn) == before
