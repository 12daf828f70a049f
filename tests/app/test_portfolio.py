"""The Portfolio page against the real demo service: one table from one listing, URL filters and
comparison, the "changed since assessment" mark with its re-screen, and the export bytes."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import httpx
import pandas as pd
import pytest
from conftest import unescape
from openpyxl import load_workbook
from streamlit.testing.v1 import AppTest

from components import data
from components import portfolio_view as view
from components.data import tenant as data_tenant
from components.spreadsheets import formula_safe
from components.tables import MISSING_CELL
from components.text import escape_markdown
from gridclient import (
    Assessment,
    AssessmentSummary,
    Capabilities,
    GridDataClient,
    Site,
    SiteDefinition,
    SiteLocation,
    UnreadableRecord,
)
from gridservice.demo.portfolio import SEEDED_SITE_ID

PAGE = str(Path(__file__).resolve().parents[2] / "app_pages" / "portfolio.py")


def page(query: dict | None = None) -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=90)
    for name, value in (query or {}).items():
        at.query_params[name] = value
    return at.run()


def comparison_downloads(at: AppTest) -> list:
    """The comparison's download buttons (the site report's has one of its own)."""
    return [b for b in at.get("download_button") if b.key != "portfolio.report"]


def frames(at: AppTest) -> list[pd.DataFrame]:
    return [d.value for d in at.dataframe]


@pytest.fixture(scope="module")
def three_sites(demo_service):
    made = []
    with GridDataClient(base_url=demo_service, token="gds_demo_alpha") as client:
        for n, (lat, lon) in enumerate([(30.27, -97.74), (29.42, -98.49), (31.55, -97.15)]):
            site = client.sites.create(
                SiteDefinition(
                    requested_peak_load_mw=100 + 100 * n,
                    location=SiteLocation(latitude=lat, longitude=lon),
                    customer_reference=f"Portfolio test {n}",
                )
            )
            client.assessments.create(site.id)
            made.append(site.id)
    return made


def test_the_table_lists_every_site_with_its_figures_and_the_seeded_mark(
    service_env, three_sites, alpha_client, monkeypatch
):
    at, sent = page_and_requests(monkeypatch)
    assert not at.exception and not at.error
    table = frames(at)[0]
    assert set(three_sites) | {SEEDED_SITE_ID} <= set(table["Site id"])
    # drawn as every table of the app is: a cell with no value reads as a dash
    assert {d.proto.placeholder for d in at.dataframe} == {MISSING_CELL}
    seeded = table.set_index("Site id").loc[SEEDED_SITE_ID]
    assert seeded["Changed since assessment"] is True or seeded["Changed since assessment"] == 1
    assert seeded["Queued MW in the county"] > 0 and seeded["Nearest power plant"]
    (chart,) = at.get("vega_lite_chart")
    assert json.loads(chart.proto.spec)["title"] == view.chart_title(table)
    expanders = [e.label for e in at.expander]
    assert any("changed since assessment" in label for label in expanders)
    # what changed near the seeded site is fetched once its mark is opened, and shown
    assert not [r for r in sent if r.url.path.endswith("/changes")]
    sent.clear()
    at.session_state[view.changes_key(SEEDED_SITE_ID)] = True
    at.run()
    assert not at.exception and not at.error
    assert [r.url.path for r in sent if r.url.path.startswith("/v1/sites/")] == [
        f"/v1/sites/{SEEDED_SITE_ID}/changes"
    ]
    changes = alpha_client.sites.changes(SEEDED_SITE_ID)
    assert escape_markdown(changes.summary) in [m.value for m in at.markdown]


def test_a_site_report_is_offered_for_each_screened_site_shown(service_env, three_sites):
    at = page({"q": "Portfolio test 1"})
    assert not at.exception and not at.error
    (chooser,) = [s for s in at.selectbox if s.label == "Site to report on"]
    assert chooser.options == [f"Portfolio test 1 ({three_sites[1]})"]
    labels = [button.proto.label for button in at.get("download_button")]
    assert "Site report (PDF)" in labels


def test_filters_live_in_the_url_and_narrow_the_table(service_env, three_sites):
    at = page({"q": "Portfolio test 1"})
    table = frames(at)[0]
    assert list(table["Site id"]) == [three_sites[1]]
    assert at.query_params["q"] in ("Portfolio test 1", ["Portfolio test 1"])


def test_two_to_five_sites_are_compared_side_by_side(service_env, three_sites):
    at = page({"compare": three_sites[:2]})
    assert not at.exception and not at.error
    comparison = frames(at)[1]
    assert len(comparison.columns) == 3  # the figure/factor column and one per site
    factors = set(comparison["Figure or factor"])
    assert {"Readiness", "Who serves the site", "Market supply margin", "Evidence"} <= factors
    screened = comparison.set_index("Figure or factor").loc["Last screened"].iloc[0]
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d UTC", screened), screened
    assert [b.label for b in comparison_downloads(at)] == [
        "Download the comparison (CSV)",
        "Download the comparison (Excel)",
    ]


def test_more_than_five_selected_gets_a_clear_message(service_env, three_sites, alpha_client):
    while len(ids := [s.id for s in alpha_client.sites.list()]) < 6:
        alpha_client.sites.create(
            SiteDefinition(
                requested_peak_load_mw=20, location=SiteLocation(latitude=30.1, longitude=-97.6)
            )
        )
    at = page({"compare": ids[:6]})
    assert [e.value for e in at.error] == [view.selection_problem(ids[:6])]
    assert "at most 5" in at.error[0].value
    assert not any("Figure or factor" in frame.columns for frame in frames(at))
    assert not comparison_downloads(at)


def test_screening_again_keeps_the_old_assessment_and_clears_the_mark(service_env, alpha_client):
    old = {a.id for a in alpha_client.assessments.list(SEEDED_SITE_ID)}
    at = page()
    button = next(b for b in at.button if b.key == f"rescreen.{SEEDED_SITE_ID}")
    button.click().run()
    assert not at.exception and not at.error
    now = {a.id for a in alpha_client.assessments.list(SEEDED_SITE_ID)}
    assert old < now and len(now - old) == 1
    assert any("is kept" in s.value for s in at.success)
    table = page().dataframe[0].value.set_index("Site id")
    assert not table.loc[SEEDED_SITE_ID, "Changed since assessment"]


def demo_sites(alpha_client) -> list[Site]:
    return list(alpha_client.sites.list(include_latest_assessment_summary=True))[:3]


def whole_assessments(alpha_client, sites: list[Site]) -> dict[str, Assessment | None]:
    return {
        s.id: alpha_client.assessments.get(s.latest_assessment_summary.assessment_id)
        if s.latest_assessment_summary
        else None
        for s in sites
    }


def test_the_export_bytes_hold_the_comparison_and_neutralise_formulas(alpha_client):
    sites = demo_sites(alpha_client)
    sites[0] = sites[0].model_copy(update={"customer_reference": '=HYPERLINK("x")'})
    frame = view.comparison_frame(sites, whole_assessments(alpha_client, sites))
    csv_text = view.comparison_csv(frame).decode("utf-8-sig")
    assert "'=HYPERLINK" in csv_text and "\n=HYPERLINK" not in csv_text
    read_back = pd.read_csv(io.StringIO(csv_text))
    assert list(read_back["Figure or factor"]) == list(frame["Figure or factor"])
    sheet = load_workbook(io.BytesIO(view.comparison_xlsx(frame, sites)))["Comparison"]
    header = [c.value for c in sheet[1]]
    assert header[0] == "Figure or factor" and header[1].startswith("'=HYPERLINK")
    assert all(c.data_type != "f" for row in sheet.iter_rows() for c in row)
    assert sheet.max_row == len(frame) + 1
    readiness = next(r for r in sheet.iter_rows(values_only=True) if r[0] == "Readiness")
    assert list(readiness[1:]) == list(frame.set_index("Figure or factor").loc["Readiness"])


def test_a_stored_text_a_workbook_cannot_hold_still_yields_the_excel_bytes(alpha_client):
    sites = demo_sites(alpha_client)
    sites[0] = sites[0].model_copy(update={"customer_reference": "North\u000bfield\u0000 site"})
    frame = view.comparison_frame(sites, whole_assessments(alpha_client, sites))
    book = load_workbook(io.BytesIO(view.comparison_xlsx(frame, sites)))
    assert [c.value for c in book["Comparison"][1]][1].startswith("Northfield site")
    assert [c.value for c in book["Figures"]["A"]][1] == "Northfield site"
    assert "Northfield site" in view.comparison_csv(frame).decode("utf-8-sig")


def page_and_requests(monkeypatch) -> tuple[AppTest, list[httpx.Request]]:
    """Return the page run once without a failure, and every request it sent."""
    sent: list[httpx.Request] = []
    send = httpx.Client.send
    monkeypatch.setattr(
        httpx.Client,
        "send",
        lambda c, request, **kw: sent.append(request) or send(c, request, **kw),
    )
    at = page()
    assert not at.exception and not at.error
    return at, sent


def test_the_table_comes_from_one_slim_listing_with_each_whole_assessments_figures(
    service_env, three_sites, alpha_client, monkeypatch
):
    # It used to list every site's whole assessment (24 MB for 200 sites on the demo store).
    at, sent = page_and_requests(monkeypatch)
    listings = [r for r in sent if r.url.path == "/v1/sites"]
    assert [dict(r.url.params) for r in listings] == [
        {"include": "latest_assessment_summary", "limit": "500"}
    ]
    whole = alpha_client.sites.list(include_latest_assessment=True, limit=200)
    # as the page draws it: formula-safe, so a site named "=HYPERLINK(...)" shows its `'`
    expected = formula_safe(
        view.portfolio_frame(
            [
                s.model_copy(
                    update={
                        "latest_assessment_summary": s.latest_assessment
                        and AssessmentSummary.from_assessment(s.latest_assessment)
                    }
                )
                for s in whole
            ]
        )
    )
    shown = frames(at)[0].set_index("Site id").sort_index()
    expected = expected.set_index("Site id").loc[shown.index]
    pd.testing.assert_frame_equal(shown, expected, check_dtype=False)
    # nothing per site: what changed near a marked site is fetched when its mark is opened
    per_site = [r.url.path for r in sent if r.url.path.startswith(("/v1/sites/", "/v1/assess"))]
    assert per_site == []
    assert shown["Queued MW in the county"].notna().sum() >= len(three_sites)


def test_the_chart_of_many_sites_draws_those_with_the_most_queued_mw_and_says_so():
    frame = pd.DataFrame(
        {
            "Site": [f"Site {n:02d}" for n in range(40)],
            "Readiness": ["Low friction"] * 40,
            "Queued MW in the county": [float(n) for n in range(40)],
            "Share of queued MW that is firm": [0.5] * 40,
            "Tightest reserve margin (MW)": [100.0] * 40,
        }
    )
    spec = view.comparison_chart(frame).to_dict()
    drawn = next(iter(spec["datasets"].values()))
    assert sorted(row["Site"] for row in drawn) == [f"Site {n:02d}" for n in range(15, 40)]
    assert "the 25 sites with the most, of 40" in spec["title"]
    few = view.comparison_chart(frame.head(3)).to_dict()
    assert few["title"] == "Queued MW in each site's county"


def test_a_deployment_without_summaries_gets_the_same_table_from_whole_assessments(
    service_env, three_sites, monkeypatch
):
    slim_table = frames(page())[0].set_index("Site id").sort_index()
    data_tenant.portfolio_sites.clear()
    whole_only = Capabilities(list_sites=True, list_sites_latest_assessment=True, site_changes=True)
    for module in (data_tenant, data):
        monkeypatch.setattr(module, "capabilities", lambda conn: whole_only)
    at, sent = page_and_requests(monkeypatch)
    listings = [dict(r.url.params) for r in sent if r.url.path == "/v1/sites"]
    assert [p.get("include") for p in listings] == ["latest_assessment"]
    table = frames(at)[0].set_index("Site id").sort_index()
    pd.testing.assert_frame_equal(table, slim_table, check_dtype=False)


def test_a_tenant_with_more_than_200_sites_sees_every_one(many_sites_env):
    # The listing used to stop at 200 sites, in the service's order (by id: any 200).
    every = {s.id for s in many_sites_env.sites.list()}
    assert len(every) == 205
    at = page()
    assert not at.exception and not at.error
    assert "205 of 205 sites shown." in [c.value for c in at.caption]
    assert set(frames(at)[0]["Site id"]) == every
    # none of them is screened yet: nothing to chart, and it says so instead of failing
    assert not at.get("vega_lite_chart")
    assert "No site shown has a screening with queued MW in its county to chart yet." in [
        c.value for c in at.caption
    ]


def test_a_site_the_app_cannot_read_is_named_and_the_others_still_listed(
    service_env, three_sites, monkeypatch
):
    listed = data.portfolio_sites

    def with_one_unreadable(conn, *, archived=False):
        sites = listed(conn, archived=archived)
        bad = UnreadableRecord(
            index=1, id="site_unreadable", field="energyStorage", message="nested too deep"
        )
        return data_tenant.SiteList(list(sites), [bad])

    monkeypatch.setattr(data, "portfolio_sites", with_one_unreadable)
    at = page()
    assert not at.exception
    [warning] = [unescape(w.value) for w in at.warning if "could not be read" in w.value]
    assert "site_unreadable" in warning and "1 of your sites" in warning
    assert any("energyStorage: nested too deep" in t.value for t in at.text)
    shown = frames(at)[0]
    assert set(three_sites) <= set(shown["Site id"])


def test_the_name_readiness_and_mw_come_first_and_other_columns_on_request(
    service_env, three_sites
):
    """At 1280 px the table of every column scrolled sideways and hid readiness and utilities."""
    at = page()
    assert not at.exception and not at.error
    shown = list(at.dataframe[0].proto.column_order)
    assert {"Site", "Readiness", "Peak load (MW)", "Queued MW in the county"} <= set(shown)
    assert "Site id" not in shown and "Possible serving utilities" not in shown
    at.multiselect(key="portfolio.sites.extra_columns.widget").set_value(
        ["Possible serving utilities"]
    ).run()
    assert list(at.dataframe[0].proto.column_order) == [*shown, "Possible serving utilities"]
