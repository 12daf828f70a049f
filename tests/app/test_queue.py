"""The queue page against the real demo service: traversal, URL filters, a record's evidence."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest
from conftest import popover_labels
from streamlit.testing.v1 import AppTest

from components import glossary, queue_markets, queue_view
from components.sources import source_title
from components.tables import ROWS_SENT

PAGE = str(Path(__file__).resolve().parents[2] / "app_pages" / "queue.py")


def unescape(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


def chart_titles(at: AppTest) -> list[str]:
    """Return the titles of the charts drawn, in the Charts view (the page is left in it)."""
    at.session_state[queue_view.VIEW_KEY] = "Charts"
    at.run()
    assert not at.exception and not at.error
    return [json.loads(chart.proto.spec).get("title") for chart in at.get("vega_lite_chart")]


def shown_count(at: AppTest) -> int:
    summary = next(m.value for m in at.markdown if " of " in m.value and "records" in m.value)
    return int(summary.split("**")[1].replace(",", ""))


@pytest.fixture(scope="module")
def all_records(demo_service):
    from gridclient import GridDataClient

    with GridDataClient(base_url=demo_service, token="gds_demo_alpha") as client:
        return [r.model_dump(by_alias=True, mode="json") for r in client.queue_records.list()]


def page(query: dict | None = None) -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=90)
    for name, value in (query or {}).items():
        at.query_params[name] = value
    return at.run()


def test_every_record_is_traversed_and_charted(service_env, all_records):
    at = page()
    assert not at.exception and not at.error
    assert shown_count(at) == len(all_records)
    table = at.dataframe[0].value
    # every record counted and charted; the table draws the first ROWS_SENT and says so
    assert len(table) == min(len(all_records), ROWS_SENT)
    assert set(table["id"]) <= {r["id"] for r in all_records}
    if len(all_records) > ROWS_SENT:
        assert any(
            f"The first {ROWS_SENT:,} of {len(all_records):,} queue records" in c.value
            for c in at.caption
        )
    # provenance and quality flags are columns of the table
    assert {"sourceId", "sourceLocator", "observedAt", "qualityFlags"} <= set(table.columns)
    assert chart_titles(at) == [
        "Requested MW by status",
        "Requested MW by market",
        "Entries by year of proposed date",
    ]


def test_filters_come_from_the_url_and_go_back_into_it(service_env, all_records):
    at = page({"state": "TX", "status": "active"})
    expected = [r for r in all_records if r["state"] == "TX" and r["status"] == "active"]
    assert 0 < shown_count(at) == len(expected)
    assert at.multiselect(key="filter:queue:state").value == ["TX"]

    at.number_input(key="filter:queue:min_mw").set_value(200.0).run()
    bigger = [r for r in expected if (r["requestedCapacityMw"] or 0) >= 200]
    assert shown_count(at) == len(bigger)
    assert at.query_params["min_mw"] == "200"
    assert at.query_params["state"] in ("TX", ["TX"])


def filters_popovers(at) -> list[str]:
    """Return the labels of the page's filter popovers (the column chooser is one more)."""
    return [label for label in popover_labels(at) if label.startswith("More filters")]


def test_the_less_used_filters_wait_in_a_popover_that_counts_those_set(service_env, all_records):
    at = page()
    assert filters_popovers(at) == ["More filters"]
    at = page({"min_mw": "100", "from": "2020-01-01"})
    # closed, they still filter: the label says how many are set, the count agrees
    assert filters_popovers(at) == ["More filters · 2 set"]
    assert at.number_input(key="filter:queue:min_mw").value == 100.0
    expected = [
        r
        for r in all_records
        if (r["requestedCapacityMw"] or 0) >= 100
        and r["proposedDate"]
        and r["proposedDate"][:10] >= "2020-01-01"
    ]
    assert 0 < shown_count(at) == len(expected)
    at.number_input(key="filter:queue:min_mw").set_value(None).run()
    assert filters_popovers(at) == ["More filters · 1 set"]
    assert "min_mw" not in at.query_params


def test_the_status_filter_reads_in_words_and_keeps_the_code_in_the_url(service_env, all_records):
    at = page({"status": "on hold (see notes)"})
    status = at.multiselect(key="filter:queue:status")
    assert "Active" in status.options and "On hold (see notes)" in status.options
    assert "active" not in status.options
    assert status.value == ["on hold (see notes)"]
    held = [
        r
        for r in all_records
        if (r.get("statusNow") or {}).get("status", r["status"]) == "on hold (see notes)"
    ]
    assert 0 < shown_count(at) == len(held)
    status.select("active").run()
    assert at.query_params["status"] == ["on hold (see notes)", "active"]


def test_technology_comes_from_details_for_a_small_set(service_env, all_records, alpha_client):
    counties = {}
    for r in all_records:
        counties.setdefault((r["state"], r["county"]), []).append(r)
    (state, county), records = min(
        ((k, v) for k, v in counties.items() if k[1] and len(v) >= 3), key=lambda kv: len(kv[1])
    )
    at = page({"state": state, "county": county})
    assert shown_count(at) == len(records)
    at.toggle(key="filter:queue:details").set_value(True).run()
    assert not at.exception
    technologies = {alpha_client.queue_records.details(r["id"]).technology for r in records}
    chosen = sorted(t for t in technologies if t)[0]
    options = at.multiselect(key="filter:queue:technology").options
    assert set(options) == {t for t in technologies if t}
    at.multiselect(key="filter:queue:technology").select(chosen).run()
    expected = [
        r for r in records if alpha_client.queue_records.details(r["id"]).technology == chosen
    ]
    assert shown_count(at) == len(expected)
    assert "Requested MW by technology" in chart_titles(at)
    assert "Entries by year of queue date" in chart_titles(at)


def test_a_large_set_says_why_technology_is_not_loaded(service_env, all_records):
    at = page()
    assert at.toggle(key="filter:queue:details").proto.disabled
    assert any("narrow the filters" in c.value for c in at.caption)


def test_a_selected_record_shows_its_details_and_the_source_row(service_env, alpha_client):
    record = next(iter(alpha_client.queue_records.list(max_items=5)))
    evidence = alpha_client.queue_records.evidence(record.id)
    at = page({"record": record.id})
    assert not at.exception and not at.error
    assert unescape(at.subheader[0].value) == record.project_name
    text = " ".join(unescape(m.value) for m in at.markdown)
    # The source as its publisher names it, with its edition; not the source id
    named = source_title(evidence, evidence.source_id)
    assert evidence.edition and evidence.edition in named  # the service's fields, not a parse
    assert named.endswith("(demo)") and evidence.source_id not in named
    assert f"Source: {named}" in text.replace("**", "")
    # the policy in words ('Public redistribution'), not its wire code
    assert f"Redistribution policy: {glossary.words(evidence.redistribution_policy)}" in (
        text.replace("**", "")
    )
    locator = dict(at.dataframe[2].value.values.tolist())
    assert locator["File"] == evidence.locator.file_name
    assert locator["Worksheet"] == evidence.locator.worksheet
    assert locator["Row"] == str(evidence.locator.row)
    source_row = at.dataframe[3].value
    assert dict(source_row.values.tolist()) == {k: str(v) for k, v in evidence.source_row.items()}
    assert at.get("link_button")[0].proto.url == evidence.source_url


def test_the_records_and_the_charts_are_two_views_and_only_the_open_one_is_built(
    service_env, all_records
):
    # an address with a record in it: the records' view shows its details under the table
    record = all_records[0]
    at = page({"record": record["id"]})
    assert not at.exception and not at.error
    assert [tab.label for tab in at.tabs] == list(queue_view.VIEWS)
    assert at.dataframe[0].key == "queue.table" and not at.get("vega_lite_chart")
    assert unescape(at.subheader[0].value) == (record["projectName"] or record["id"])
    at.session_state[queue_view.VIEW_KEY] = "Charts"
    at.run()
    assert not at.exception and not at.error
    # the charts' view: the three charts, no table and no record; the summary line and the
    # filters stay above both views
    assert len(at.get("vega_lite_chart")) == 3
    assert not at.dataframe and not at.subheader
    assert shown_count(at) == len(all_records)
    # the record stays in the address: back in the records' view, it is shown again
    at.session_state[queue_view.VIEW_KEY] = "Records"
    at.run()
    assert unescape(at.subheader[0].value) == (record["projectName"] or record["id"])
    # an address naming the charts' view opens it
    shared = page({queue_view.VIEW_KEY: "Charts"})
    assert len(shared.get("vega_lite_chart")) == 3 and not shared.dataframe


def test_market_and_state_filters_narrow_the_table_and_live_in_the_url(service_env, all_records):
    by_market = Counter(r["market"] for r in all_records)
    market = min(by_market, key=by_market.get)  # the smaller market: a real narrowing
    at = page({"market": market})
    assert shown_count(at) == by_market[market] < len(all_records)
    assert set(at.dataframe[0].value["market"]) == {market}
    state = Counter(r["state"] for r in all_records if r["market"] == market).most_common(1)[0][0]
    at.multiselect(key="filter:queue:state").set_value([state]).run()
    expected = [r for r in all_records if r["market"] == market and r["state"] == state]
    assert shown_count(at) == len(expected)
    assert at.query_params["market"] in (market, [market])
    assert at.query_params["state"] in (state, [state])


def test_the_records_loaded_are_counted_by_market_and_missing_isos_named(service_env, all_records):
    at = page()
    line = next(c.value for c in at.caption if c.value.startswith("Requests loaded by market"))
    shown = dict(
        re.fullmatch(r"(.+) ([\d,]+)", part).groups()
        for part in unescape(line).removeprefix("Requests loaded by market: ").split(" · ")
        if not part.startswith("no queue loaded")
    )
    assert {m: int(n.replace(",", "")) for m, n in shown.items()} == dict(
        Counter(r["market"] or queue_markets.NO_MARKET for r in all_records)
    )
    missing = [iso for iso in queue_markets.ISO_MARKETS if iso not in shown]
    assert missing and unescape(line).endswith(f"no queue loaded for {', '.join(missing)}")


def test_a_state_whose_queue_is_not_loaded_is_said_to_be_missing_not_empty(
    service_env, all_records
):
    loaded = {r["state"] for r in all_records if r["state"]}
    absent = next(s for s in ("PA", "NY", "CA", "MA") if s not in loaded)
    at = page({"state": absent})
    assert at.multiselect(key="filter:queue:state").value == [absent]
    assert shown_count(at) == 0
    warning = unescape(at.warning[-1].value)
    assert f"No queue record is loaded for {absent}." in warning
    assert "does not mean no projects" in warning
    # a state with records says nothing of the kind
    at = page({"state": sorted(loaded)[0]})
    assert not any("No queue record is loaded" in w.value for w in at.warning)


def test_the_requested_mw_and_status_are_shown_first_and_other_columns_on_request(service_env):
    """At 1280 px the table of every column scrolled sideways and hid the requested MW."""
    at = page()
    assert not at.exception and not at.error
    shown = list(at.dataframe[0].proto.column_order)
    assert {"projectName", "status", "requestedCapacityMw"} <= set(shown)
    assert "sourceLocator" not in shown and "id" not in shown
    chooser = at.multiselect(key="queue.table.extra_columns.widget")
    chooser.set_value(["id", "sourceLocator"]).run()
    assert not at.exception
    assert list(at.dataframe[0].proto.column_order) == [*shown, "id", "sourceLocator"]
    # the choice is kept apart from the chooser, which Streamlit forgets on another page:
    # a session coming back with it (and no chooser yet) shows the same columns
    kept = at.session_state["queue.table.extra_columns"]
    again = AppTest.from_file(PAGE, default_timeout=90)
    again.session_state["queue.table.extra_columns"] = kept
    again.run()
    assert list(again.dataframe[0].proto.column_order) == [*shown, "id", "sourceLocator"]
