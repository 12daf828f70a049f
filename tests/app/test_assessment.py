"""The assessment page: disclaimer first, everything in plain view, downloads, isolation."""

from __future__ import annotations

import httpx
import pytest
from conftest import ALPHA_TOKEN, CODE_SPAN, page_path, unescape
from static_tables import static_table_tags, static_tables
from streamlit.testing.v1 import AppTest

from components import assessment_view, glossary, maps, surroundings_view
from components.downloads import csv_download, packet_download
from gridservice.demo import DEMO_POINTS


@pytest.fixture(scope="module")
def screened(demo_service):
    """An alpha site in Hays County (dual certification) with no target date, screened."""
    from gridclient import GridDataClient

    with GridDataClient(base_url=demo_service, token=ALPHA_TOKEN) as client:
        latitude, longitude = DEMO_POINTS["dual_certified"]
        site = client.sites.create(
            {
                "requestedPeakLoadMw": 300.0,
                "location": {"latitude": latitude, "longitude": longitude},
                "customerReference": "SECRET-REF-123",
            },
            idempotency_key="assessment-page-test-site",
        )
        return client.assessments.create(site.id)


def open_assessment(assessment_id: str | None, state: dict | None = None) -> AppTest:
    """Run the assessment page on an id, with `state` in the session first (a fold the
    reader opened, by its key)."""
    at = AppTest.from_file(page_path("assessment"), default_timeout=120)
    if assessment_id is not None:
        at.query_params["assessment"] = assessment_id
    for key, value in (state or {}).items():
        at.session_state[key] = value
    at.run()
    assert not at.exception
    return at


RECORD_SECTIONS = ("market", "queue", "transmission")


def open_records(at: AppTest, assessment_id: str) -> AppTest:
    """Open the folded record tables, as a reader clicking each "Show the ..." does."""
    for anchor in RECORD_SECTIONS:
        at.session_state[assessment_view.record_table_key(assessment_id, anchor)] = True
    at.run()
    assert not at.exception
    return at


def test_disclaimer_comes_first_and_readiness_is_shown(service_env, screened):
    at = open_assessment(screened.id)
    assert unescape(at.warning[0].value) == screened.disclaimer
    assert at.subheader[0].value == "High friction"
    # the summary reads in words: its factor and level codes spelt out
    summary = glossary.plain(screened.readiness["summary"])
    assert summary in [t.value for t in at.text]
    assert "_" not in summary
    shown = [m.value for m in at.markdown]
    captions = [c.value for c in at.caption]
    for finding in screened.readiness["findings"]:
        factor = glossary.label("factor", finding["factor"])
        # the factor and its severity head the finding's box, the finding in full below them
        boxes = [line for line in shown if line.startswith(f"**{factor}** · ")]
        assert len(boxes) == 1, finding["factor"]
        heading, body = unescape(boxes[0]).split("\n\n")
        assert heading.endswith(
            "-badge[" + glossary.label("severity", finding["severity"]) + " severity]"
        )
        assert body == glossary.plain(finding["finding"])
        # every cited id is a link, to its record's page or to the row showing that id
        cites = [f"[{cited}](" for cited in finding["citations"]] or ["no record cited"]
        assert any(all(c in unescape(line) for c in cites) for line in captions), cites


def test_abstentions_and_limitations_are_in_plain_view(service_env, screened):
    at = open_assessment(screened.id)
    warnings = [unescape(w.value) for w in at.warning]
    assert "Abstained on timeline: The site gives no target in-service date." in warnings
    # the limitations: one box, a line each, in the service's order
    lines = [unescape(i.value).splitlines() for i in at.info]
    limitations = screened.readiness["limitations"]
    assert [f"- {glossary.plain(limitation)}" for limitation in limitations] in lines
    # nothing but record tables and the send-for-review form is folded away:
    # abstentions and limitations stay in plain view
    folded = [e.label for e in at.expander if e.label != "Send for expert review"]
    assert folded and all(label.startswith("Show the ") for label in folded), folded


def test_a_folded_record_table_is_drawn_when_opened(service_env, screened):
    at = open_assessment(screened.id)
    records = screened.relevant_queue_records
    assert len(records) > 10, "the demo's site has enough queue records to fold them"
    folded = {e.label: e for e in at.expander}[f"Show the {len(records)} queue records"]
    # folded: nothing is sent for it until the reader opens it
    assert not folded.children
    at.session_state[assessment_view.record_table_key(screened.id, "queue")] = True
    at.run()
    assert not at.exception
    opened = {e.label: e for e in at.expander}[f"Show the {len(records)} queue records"]
    table = opened.dataframe[0].value
    assert list(table["Record"]) == [r.id for r in records]
    cited = {str(c) for f in screened.readiness["findings"] for c in f.get("citations") or []}
    assert list(table["Cited"]) == [r.id in cited for r in records]


def test_the_summary_band_leads_with_numbers_that_match_the_tables(service_env, screened):
    at = open_assessment(screened.id)
    # readiness and confidence lead, in words that wrap (headings), then the numbers
    assert [h.value for h in at.subheader][:2] == [
        glossary.label("readiness", screened.readiness["level"]),
        # worded so "high" beside "High friction" is not read as the friction level
        f"Heuristic confidence: {screened.confidence['label']}",
    ]
    metrics = {m.label: m.value for m in at.metric}
    assert list(metrics)[:1] == ["Candidate utilities"]
    territories = screened.service_territory_candidates or []
    utilities = {c.get("utilityId") for c in territories}
    assert metrics["Candidate utilities"] == str(len(utilities))
    # the county's whole active queue in the report the assessment read, as the portfolio
    # lists it (not only the first records the assessment lists)
    history = screened.queue_history
    assert history and history["activeProjects"] > 0
    assert metrics["Active queue in the site's county"] == f"{history['activeMw']:,.0f} MW"
    month = history["report"]["reportMonth"]
    assert any(
        unescape(c.value).startswith(
            f"{history['activeProjects']:,} active projects in the {month} queue report"
        )
        for c in at.caption
    )
    assert "[See the section](#grid-around-the-site)" in [m.value for m in at.markdown]
    projects = screened.relevant_transmission_projects
    assert metrics["Transmission projects listed"] == str(len(projects))
    assert "Nearest power plant" in metrics and "Reserve margin, tightest season" in metrics
    # each number links to the section whose table it counts, and that section says the same
    shown = [c.value for c in at.caption]
    assert any(c.startswith(f"{len(projects)} transmission projects listed") for c in shown)
    open_records(at, screened.id)
    expanders = {e.label: e for e in at.expander}
    assert len(
        expanders[f"Show the {len(projects)} transmission projects"].dataframe[0].value
    ) == len(projects)


def test_records_carry_their_evidence_and_heuristics_are_labelled(service_env, screened):
    at = open_records(open_assessment(screened.id), screened.id)
    frames = {tuple(frame.value.columns): frame.value for frame in at.dataframe}
    queue = next(f for cols, f in frames.items() if "Worksheet" in cols)
    assert len(queue) == len(screened.relevant_queue_records)
    first = screened.relevant_queue_records[0].to_wire()
    row = queue[queue["Record"] == first["id"]].iloc[0]
    evidence = first["expandedEvidence"]
    assert row["File"] == evidence["locator"]["fileName"]
    assert row["Row"] == evidence["locator"]["row"]
    assert row["Source link"] == evidence["sourceUrl"]
    signals = next(f for cols, f in frames.items() if "Evidence quote" in cols)
    assert "Parser confidence (uncalibrated)" in signals.columns
    assert signals["Evidence quote"].notna().all()
    projects = next(f for cols, f in frames.items() if "kV" in cols)
    assert len(projects) == len(screened.relevant_transmission_projects)
    # the short tables are drawn whole, as text: their headers and cells are escaped HTML
    statics = static_tables(at)
    utilities = next(f for f in statics if "Company type" in f.columns and "Basis" in f.columns)
    assert "Confidence (source-authority heuristic, not accuracy)" in utilities.columns
    names = [c["utility"] for c in screened.utility_candidates]
    assert list(utilities["Utility"]) == names
    tariffs = next(f for f in statics if "Tariff" in f.columns)
    assert list(tariffs["Name"]) == [c["name"] for c in screened.tariff_candidates]
    assert "County and jurisdictions" in [s.value for s in at.subheader]
    assert any("Hays, TX (FIPS 48209)" in t.value for t in at.text)


def test_packet_download_is_named_by_case_id(service_env, screened):
    at = open_assessment(screened.id)
    labels = [button.proto.label for button in at.get("download_button")]
    # labels short enough for a column at 1280 px; each file's name under its button
    assert "Expert-review packet (.json)" in labels
    case_id = httpx.get(
        f"{service_env}/v1/assessments/{screened.id}/expert-review.json",
        headers={"Authorization": f"Bearer {ALPHA_TOKEN}"},
    ).json()["data"]["caseId"]
    assert any(c.value.startswith(f"`{case_id}.json`, named by its case id") for c in at.caption)
    sheet = f"`assessment-{screened.id}-tables.xlsx`: the site's inputs and every table"
    assert any(c.value.startswith(sheet) for c in at.caption)


def test_csv_export_is_prepared_on_request(service_env, screened):
    at = open_assessment(screened.id)
    labels = [button.proto.label for button in at.get("download_button")]
    assert "Spreadsheet (.xlsx)" in labels
    next(b for b in at.button if b.label == "Prepare the CSV export").click()
    at.run()
    assert not at.exception and not at.error
    labels = [button.proto.label for button in at.get("download_button")]
    assert "CSV export (.csv)" in labels
    assert any(c.value.startswith(f"`assessment-{screened.id}.csv`") for c in at.caption)


def test_the_site_reports_and_the_wide_table_are_offered_by_name(service_env, screened):
    at = open_assessment(screened.id)
    buttons = {b.proto.label: b for b in at.get("download_button")}
    assert {"Site report (PDF)", "Blinded report (PDF)", "Table (.csv)"} <= set(buttons)
    captions = [c.value for c in at.caption]
    assert any(c.startswith(f"`site-report-{screened.id}.pdf`") for c in captions)
    assert any(c.startswith(f"`assessment-{screened.id}-table.csv`") for c in captions)


def test_download_bytes_are_the_services_bytes(demo_service, alpha_client, screened):
    from components import data
    from components.connection import ConnectionKey

    key = ConnectionKey(demo_service, ALPHA_TOKEN, "demo-alpha")
    served = httpx.get(
        f"{demo_service}/v1/assessments/{screened.id}/expert-review.json",
        headers={"Authorization": f"Bearer {ALPHA_TOKEN}"},
    ).content
    packet = packet_download(data.packet_bytes(key, screened.id))
    assert packet.data == served
    assert b"SECRET-REF-123" not in packet.data
    export = alpha_client.exports.create(screened.id, format="csv")
    download = csv_download(data.export(key, export.id))
    served_export = httpx.get(
        f"{demo_service}/v1/assessments/exports/{export.id}",
        headers={"Authorization": f"Bearer {ALPHA_TOKEN}"},
    ).json()["data"]
    assert download.data == served_export["content"].encode("utf-8")


def test_another_tenants_assessment_is_not_found(service_env, monkeypatch, screened):
    monkeypatch.setenv("GRID_API_TOKEN", "gds_demo_beta")
    at = open_assessment(screened.id)
    assert [unescape(e.value) for e in at.error] == [
        f"Assessment '{screened.id}' was not found for this tenant."
    ]
    assert screened.disclaimer not in [w.value for w in at.warning]


def test_unknown_and_missing_ids_say_so_and_offer_a_box(service_env):
    at = open_assessment("asm_does_not_exist")
    assert "was not found for this tenant" in at.error[0].value
    at = open_assessment(None)
    assert "No assessment chosen" in at.info[0].value
    at.text_input[0].set_value("asm_typed")
    next(b for b in at.button if b.label == "Open").click()
    at.run()
    assert at.query_params["assessment"] == "asm_typed"
    assert "was not found" in at.error[0].value


def test_an_id_typed_in_the_box_opens_its_assessment(service_env, screened):
    at = open_assessment(None)
    at.text_input[0].set_value(f"  {screened.id} ")
    next(b for b in at.button if b.label == "Open").click()
    at.run()
    assert not at.exception
    assert at.query_params["assessment"] == screened.id
    assert any(f"assessment {screened.id} of site" in unescape(c.value) for c in at.caption)
    assert not [b for b in at.button if b.label == "Open"]  # the box is gone


def test_the_title_and_band_name_the_site_and_its_inputs(service_env, screened, alpha_client):
    """The page names the site (its customer reference), not only its id, and the band
    carries its coordinates, county, market and requested load."""
    site = alpha_client.sites.get(screened.site_id)
    at = open_assessment(screened.id)
    assert unescape(at.title[0].value) == f"Assessment of {site.customer_reference}"
    band = " ".join(unescape(m.value) for m in at.markdown)
    county = screened.county
    markets = [j["name"] for j in screened.jurisdictions if j["level"] == "iso_rto"]
    assert markets, "the demo site lies in a market"
    for piece in (
        f"**{site.customer_reference}**",
        f"{site.location.latitude:.5f}, {site.location.longitude:.5f}",
        f"{county['name']}, {county['state']}",
        markets[0],
        f"{site.requested_peak_load_mw:,g} MW",
    ):
        assert piece in band, piece


def test_the_spreadsheet_summary_names_the_site(screened, alpha_client):
    import io

    import openpyxl

    from components import assessment_workbook

    site = alpha_client.sites.get(screened.site_id)
    book = openpyxl.load_workbook(io.BytesIO(assessment_workbook.assessment_xlsx(screened, site)))
    summary = {row[0]: row[1] for row in book["Summary"].iter_rows(min_row=2, values_only=True)}
    assert summary["Site"] == site.customer_reference
    assert summary["County"] == f"{screened.county['name']}, {screened.county['state']}"
    assert summary["Requested peak load"] == f"{site.requested_peak_load_mw:,g} MW"
    assert summary["Coordinates"].startswith(f"{site.location.latitude:.5f}")
    assert summary["Market"]


def test_the_spreadsheet_has_the_site_inputs_then_a_sheet_per_section(demo_service, screened):
    import io

    import openpyxl

    from components import assessment_workbook
    from gridclient import GridDataClient

    with GridDataClient(base_url=demo_service, token=ALPHA_TOKEN) as client:
        site = client.sites.get(screened.site_id)
    book = openpyxl.load_workbook(io.BytesIO(assessment_workbook.assessment_xlsx(screened, site)))
    assert book.sheetnames[0] == "Site inputs"
    assert {"Findings", "Queue records", "Transmission projects", "Market signals"} <= set(
        book.sheetnames
    )
    inputs = {row[0]: row[1] for row in book["Site inputs"].iter_rows(min_row=2, values_only=True)}
    assert inputs["Requested peak load MW"] == 300
    assert inputs["Customer reference"] == "SECRET-REF-123"
    queue = list(book["Queue records"].iter_rows(values_only=True))
    assert queue[0][0] == "Record"
    assert len(queue) - 1 == len(screened.relevant_queue_records)
    assert {row[0] for row in queue[1:]} == {r.id for r in screened.relevant_queue_records}
    findings = list(book["Findings"].iter_rows(min_row=2, values_only=True))
    assert len(findings) == sum(
        len(screened.readiness[k]) for k in ("findings", "abstentions", "limitations")
    )


HYPERLINK = '=HYPERLINK("http://127.0.0.1:18799/x","x")'


@pytest.mark.parametrize(
    ("stored", "read_back"),
    [(HYPERLINK, "'" + HYPERLINK), ("North\u000bfield\u0000 site", "Northfield site")],
    ids=["formula", "control-characters"],
)
def test_the_spreadsheet_keeps_hostile_names_as_text(demo_service, screened, stored, read_back):
    """A customer reference, utility and project names beginning a formula reach the .xlsx
    as text; characters a workbook cannot hold are dropped rather than failing the download."""
    import io

    import openpyxl

    from components import assessment_workbook
    from gridclient import GridDataClient

    with GridDataClient(base_url=demo_service, token=ALPHA_TOKEN) as client:
        site = client.sites.get(screened.site_id).model_copy(update={"customer_reference": stored})
    utilities = [{**c, "utility": stored} for c in screened.utility_candidates]
    records = [
        r.model_copy(update={"project_name": stored}) for r in screened.relevant_queue_records
    ]
    assert utilities and records
    assessment = screened.model_copy(
        update={"utility_candidates": utilities, "relevant_queue_records": records}
    )
    book = openpyxl.load_workbook(io.BytesIO(assessment_workbook.assessment_xlsx(assessment, site)))
    cells = [cell for sheet in book for row in sheet.iter_rows() for cell in row]
    assert [cell.coordinate for cell in cells if cell.data_type == "f"] == []
    hostile = [cell for cell in cells if cell.value == read_back]
    # the reference twice: among the site's inputs and naming the site in the summary
    assert len(hostile) == 2 + len(utilities) + len(records)


LURE = "x'. **Your session has expired.** [Sign in again](http://127.0.0.1:18799/login)"
BEACON = "x ![](http://127.0.0.1:18799/pixel.png?leak=1)"


@pytest.mark.parametrize("assessment_id", [LURE, BEACON])
def test_an_id_from_the_url_is_shown_as_text(service_env, assessment_id):
    """A shared link's `?assessment=` cannot put emphasis, a link or an image on the page:
    every markdown character of it is escaped (the browser journey looks at the page)."""
    at = open_assessment(assessment_id)
    shown = at.error[0].value
    assert unescape(shown) == f"Assessment '{assessment_id}' was not found for this tenant."
    for markup in ("**", "](", "!["):
        assert markup not in shown, markup


@pytest.mark.parametrize("assessment_id", ["http://evil.example", "[x](http://evil.example)"])
def test_an_address_from_the_url_is_no_link_in_the_error_box(service_env, assessment_id):
    """Streamlit's markdown links a bare address whatever its escaping: the id's address is
    shown in a code span, and nothing outside one can be linked."""
    at = open_assessment(assessment_id)
    shown = at.error[0].value
    assert unescape(shown) == f"Assessment '{assessment_id}' was not found for this tenant."
    outside = CODE_SPAN.sub("", shown)
    for linkable in ("http", "evil.example", "](", "www."):
        assert linkable not in outside, (linkable, shown)


def test_the_service_text_of_an_assessment_is_shown_as_text(service_env, screened, monkeypatch):
    """The disclaimer, the abstentions, the limitations, the heuristic score and the cells of
    the short tables come from the service: none of them can put emphasis, a link or an image
    on the page."""
    import components.data

    readiness = dict(screened.readiness)
    readiness["abstentions"] = [{"factor": "market_signals", "reason": LURE}]
    readiness["limitations"] = [BEACON]
    utility = {**screened.utility_candidates[0], "utility": LURE}
    tariff = {**screened.tariff_candidates[0], "name": BEACON}
    hostile = screened.model_copy(
        update={
            "disclaimer": LURE,
            "readiness": readiness,
            "confidence": {**(screened.confidence or {}), "score": LURE},
            "utility_candidates": [utility],
            "tariff_candidates": [tariff],
        }
    )
    monkeypatch.setattr(components.data, "assessment", lambda conn, assessment_id: hostile)
    at = open_assessment(screened.id)
    boxes = [b.value for b in [*at.warning, *at.info, *at.caption, *at.markdown]]
    assert unescape(at.warning[0].value) == LURE
    assert any(LURE in unescape(b.value) for b in at.warning[1:]), "the abstention is shown"
    assert any(unescape(b.value) == f"- {BEACON}" for b in at.info), "the limitation is shown"
    assert any(f"Score {LURE}" in unescape(b.value) for b in at.caption), "the score is shown"
    # the tables are HTML: the cells show the text whole, and no tag is made of it
    cells = [cell for table in static_tables(at) for cell in table.to_numpy().ravel()]
    assert LURE in cells and BEACON in cells, "cells are shown"
    assert static_table_tags(at) <= {"style", "div", "table", "thead", "tbody", "tr", "th", "td"}
    hostile = [b for b in boxes if "session has expired" in b or "pixel" in b]
    assert len(hostile) >= 4
    for shown in hostile:
        for markup in ("**", "](", "!["):
            assert markup not in shown, shown


def _in_order(at: AppTest) -> list[str]:
    """The main area's elements in the reader's order, by kind (subheaders by their text)."""
    order = []

    def walk(node) -> None:
        for child in getattr(node, "children", {}).values():
            kind = getattr(child, "type", "")
            if kind == "subheader":
                order.append(f"subheader:{child.value}")
            elif kind == "deck_gl_json_chart":
                order.append("map")
            walk(child)

    walk(at.main)
    return order


def test_the_maps_are_drawn_in_their_places_and_stay_when_the_downloads_fail(
    service_env, screened, monkeypatch
):
    first = open_assessment(screened.id)
    # both maps wait folded: the site's under its heading, the surroundings' with their tables
    assert _in_order(first).count("map") == 0
    assert assessment_view.SITE_MAP_LABEL in [e.label for e in first.expander]
    opened = {assessment_view.SITE_MAP_OPEN_KEY: True, surroundings_view.NEAR_OPEN_KEY: True}
    at = open_assessment(screened.id, opened)
    order = _in_order(at)
    # opened: the site's map under its heading, the surroundings' map under theirs
    assert order[order.index("subheader:Map") + 1] == "map"
    assert order[order.index("subheader:Grid around the site") + 1 :].count("map") == 1
    assert order.count("map") == 2

    from components import data
    from gridclient import APIConnectionError

    def unreachable(*args, **kwargs):
        raise APIConnectionError("the service did not answer")

    monkeypatch.setattr(data, "packet_bytes", unreachable)
    at.run()
    assert at.error, "the page says what went wrong"
    assert _in_order(at).count("map") == 2, "and both maps are still drawn"


def test_the_site_map_outlines_the_counties_around_the_site_and_shades_every_named_one(
    service_env, screened
):
    import json

    from components.geography import read_counties

    at = open_assessment(screened.id, {assessment_view.SITE_MAP_OPEN_KEY: True})  # opened
    deck = json.loads(at.get("deck_gl_json_chart")[0].proto.json)
    layers = {layer["id"]: layer for layer in deck["layers"]}
    drawn = {
        frozenset((tuple(r["from"]), tuple(r["to"]))) for r in maps.layer_rows(layers["counties"])
    }
    counties = read_counties()
    # a county is outlined when every edge of its outline is drawn
    outlines = {f for f, c in counties.items() if all(frozenset(e) in drawn for e in c.edges)}
    shaded = {
        f["properties"]["fips"]: f["properties"]["fill"] for f in layers["shaded-counties"]["data"]
    }
    site, nearby = assessment_view.nearby_county_fips(screened, counties)
    # every county the records name is shaded, however far; the site's county orange
    assert set(shaded) == {*site, *nearby} and site == [screened.county["fips"]]
    assert shaded[site[0]] != shaded[nearby[0]]
    # outlines: the counties within reach of the site's first view, not the whole region
    view = deck["initialViewState"]
    reach_lat, reach_lng = assessment_view.SITE_MAP_REACH
    assert view["zoom"] == assessment_view.SITE_MAP_ZOOM
    assert set(shaded) <= outlines, "a shaded county is outlined, however far"
    for fips in outlines - set(shaded):
        minx, miny, maxx, maxy = counties[fips].shape.bounds
        assert maxx >= view["longitude"] - reach_lng and minx <= view["longitude"] + reach_lng
        assert maxy >= view["latitude"] - reach_lat and miny <= view["latitude"] + reach_lat
    assert site[0] in outlines and len(outlines) < len(counties)
    # outlines as lines; the shaded counties' fills unstroked (no PathLayer to compile)
    assert layers["counties"]["@@type"] == "LineLayer"
    assert layers["shaded-counties"]["stroked"] is False
