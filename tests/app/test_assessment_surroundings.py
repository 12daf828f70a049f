"""The assessment page's "Grid around the site": figures as the service answers them."""

from __future__ import annotations

import json
import re

import pytest
from conftest import ALPHA_TOKEN, page_path
from streamlit.testing.v1 import AppTest

from components import surroundings_map
from components.surroundings_changes import CHANGE_TAB_KEY, CHANGES_OPEN_KEY
from components.surroundings_view import (
    DROPOUT_OPEN_KEY,
    DROPOUT_TAB_KEY,
    FIRMNESS,
    NEAR_LABEL,
    NEAR_OPEN_KEY,
    NEAR_TAB_KEY,
    NEAR_TABS,
)
from gridservice.demo import DEMO_POINTS


@pytest.fixture(scope="module")
def screened_site(demo_service):
    """An alpha site in Hays County, screened; and the client's answer for its surroundings."""
    from gridclient import GridDataClient

    with GridDataClient(base_url=demo_service, token=ALPHA_TOKEN) as client:
        latitude, longitude = DEMO_POINTS["dual_certified"]
        site = client.sites.create(
            {
                "requestedPeakLoadMw": 200.0,
                "location": {"latitude": latitude, "longitude": longitude},
            },
            idempotency_key="surroundings-page-test-site",
        )
        assessment = client.assessments.create(site.id)
        return assessment, client.sites.surroundings(site.id, radius_km=40)


def open_page(assessment_id: str, *, unfold: bool = True) -> AppTest:
    """Open the assessment; with `unfold`, with the section's map and tables and its change and
    dropout tables open (as a reader's clicks leave them: they are folded at first)."""
    at = AppTest.from_file(page_path("assessment"), default_timeout=120)
    at.query_params["assessment"] = assessment_id
    if unfold:
        at.session_state[NEAR_OPEN_KEY] = True
        at.session_state[CHANGES_OPEN_KEY] = True
        at.session_state[DROPOUT_OPEN_KEY] = True
    at.run()
    assert not at.exception
    return at


def frame_with(at: AppTest, column: str):
    return next(df.value for df in at.dataframe if column in df.value.columns)


def choose_tab(at: AppTest, key: str, label: str) -> AppTest:
    """Choose a tab of the section, as a reader's click does (only its table is drawn)."""
    at.session_state[key] = label
    at.run()
    assert not at.exception
    return at


def test_section_shows_the_counties_changes_and_dropout(service_env, screened_site):
    assessment, near = screened_site
    at = open_page(assessment.id)
    assert "Grid around the site" in [h.value for h in at.subheader]
    assert at.slider(key="surroundings.radius").value == 40

    counties = frame_with(at, "Active MW")
    assert len(counties) == len(near.counties)
    for county, (_, row) in zip(near.counties, counties.iterrows(), strict=True):
        assert row["County"].startswith(f"{county.name}, {county.state}")
        assert row["Distance km"] == pytest.approx(county.distance_km)
        assert row["Active MW"] == pytest.approx(county.queue.active_mw)
        by = {f.firmness: f.mw for f in county.queue.by_firmness}
        for key, label in FIRMNESS.items():
            assert row[label] == pytest.approx(by.get(key, 0.0))
        assert row["Location basis"] == "county"

    # one change list at a time, Entered first
    assert frame_with(at, "Entered as") is not None
    assert not any("How it left" in df.value.columns for df in at.dataframe)
    choose_tab(at, CHANGE_TAB_KEY, "Left")
    left = frame_with(at, "How it left")
    assert sorted(left["Project id"]) == sorted(p.project_id for p in near.changes.left)
    assert sorted(left["How it left"]) == sorted(p.outcome for p in near.changes.left)
    assert all(left["From cell"]) and all(left["To cell"])
    # every id the demo holds links to its record page, named by the service
    assert list(left["Record"]) == [f"queue?record={p.record_id}" for p in near.changes.left]
    assert all(p.record_id for p in near.changes.left)
    choose_tab(at, CHANGE_TAB_KEY, "Changed")
    changed = frame_with(at, "Field")
    assert len(changed) == sum(len(p.changes) for p in near.changes.changed)

    # the counties' table first; the plants and the points in tabs of their own
    assert not any("Capacity MW" in df.value.columns for df in at.dataframe)
    choose_tab(at, NEAR_TAB_KEY, "Nearest plants")
    plants = frame_with(at, "Capacity MW")
    assert set(plants["Location basis"]) == {"coordinates"}
    every = {
        p.id or p.plant_id for c in near.counties for p in (c.plants.nearest if c.plants else [])
    }
    assert len(plants) == len(every)
    assert list(plants["Distance km"]) == sorted(plants["Distance km"])
    choose_tab(at, NEAR_TAB_KEY, "Interconnection points")
    points = frame_with(at, "Bus")
    named = sum(
        len(level.points)
        for c in near.counties
        if c.interconnection_points
        for level in c.interconnection_points.by_kv
    )
    assert len(points) == named
    assert list(points["kV"]) == sorted(points["kV"], reverse=True)

    choose_tab(at, DROPOUT_TAB_KEY, "By county")
    by_county = next(
        df.value for df in at.dataframe if {"County", "Went inactive"} <= set(df.value.columns)
    )
    assert len(by_county) == len(near.dropout.by_county)

    overall = near.dropout.all
    rate = f"{overall.rate * 100:.1f}%"
    text = " ".join(m.value for m in at.markdown)
    assert f"{overall.dropped_out} of {overall.projects} projects ({rate})" in text
    captions = [c.value for c in at.caption]
    assert any("under" in c for c in captions), near.dropout.statement
    total = near.queue_now
    assert f"{total.active_mw:,.1f} MW" in text


def test_the_change_and_dropout_tables_are_folded_under_their_counts_at_first(
    service_env, screened_site
):
    assessment, near = screened_site
    at = open_page(assessment.id, unfold=False)
    text = " ".join(m.value for m in at.markdown)
    # the active queue in the radius is in plain view; its map and tables wait for a click
    total = near.queue_now
    assert (
        f"**{total.active_projects:,} active queue projects, {total.active_mw:,.1f} MW** in the "
        f"{len(near.counties)} counties within 40 km" in text
    )
    assert NEAR_LABEL in [e.label for e in at.expander]
    assert not any("Active MW" in df.value.columns for df in at.dataframe)
    assert not at.tabs
    counts = near.changes.counts
    # the counts and the dropout rate are in plain view; the tables wait for a click
    assert (
        f"{counts['entered']:,} entered, {counts['left']:,} left, "
        f"{counts['changed']:,} changed." in text
    )
    overall = near.dropout.all
    assert f"{overall.dropped_out} of {overall.projects} projects" in text
    labels = [e.label for e in at.expander]
    changes_label = "Show the projects that entered, left or changed, with their source cells"
    dropout_label = "Show the dropout rates by fuel and by county"
    assert changes_label in labels and dropout_label in labels
    assert not any({"Entered as"} & set(df.value.columns) for df in at.dataframe)
    assert not any("Went inactive" in df.value.columns for df in at.dataframe)
    # the report months are picked in the folded change tables (the queue history's fuel
    # choice, in its own section below, is the one selectbox in plain view)
    assert not [box for box in at.selectbox if str(box.key).startswith("surroundings.")]
    # opened: the month pickers and the first list, then the dropout by fuel
    at.session_state[CHANGES_OPEN_KEY] = True
    at.session_state[DROPOUT_OPEN_KEY] = True
    at.run()
    assert not at.exception
    assert at.selectbox(key="surroundings.from").value == near.changes.from_report.report_month
    assert len(frame_with(at, "Entered as")) == len(near.changes.entered)
    by_fuel = next(
        df.value for df in at.dataframe if {"Fuel", "Went inactive"} <= set(df.value.columns)
    )
    assert len(by_fuel) == len(near.dropout.by_fuel)


def test_the_opened_map_and_tables_stay_open_and_follow_a_new_radius(
    service_env, alpha_client, screened_site
):
    assessment, near = screened_site
    at = open_page(assessment.id, unfold=False)
    at.session_state[NEAR_OPEN_KEY] = True  # the reader opens them
    at.run()
    assert not at.exception
    assert len(frame_with(at, "Active MW")) == len(near.counties)
    at.slider(key="surroundings.radius").set_value(80).run()
    assert not at.exception
    wider = alpha_client.sites.surroundings(assessment.site_id, radius_km=80)
    assert len(wider.counties) > len(near.counties)
    # still open, on the wider radius's counties
    assert len(frame_with(at, "Active MW")) == len(wider.counties)


def drawn(at: AppTest) -> list:
    """Everything a reader sees of the page: its text and every table's cells."""
    texts = [
        e.value
        for kind in ("markdown", "caption", "subheader", "metric")
        for e in getattr(at, kind)
    ]
    return texts + [df.value.to_dict("list") for df in at.dataframe]


def test_every_visit_shows_the_same_surroundings_though_every_run_shares_one_answer(
    service_env, screened_site
):
    # the answer is held once for every run (`data.site_surroundings` is `shared`): a page
    # that changed it while drawing would show the next visit something else
    assessment, _ = screened_site
    visits = []
    for _ in range(3):
        at = open_page(assessment.id)
        visits.append(drawn(at))
        for label in NEAR_TABS:  # each table drawn from the one answer
            choose_tab(at, NEAR_TAB_KEY, label)
    assert visits[1] == visits[0]
    assert visits[2] == visits[0]


def test_a_list_longer_than_the_answer_says_so_and_lists_all_on_request(
    service_env, demo_service, screened_site, monkeypatch
):
    from gridclient import GridDataClient
    from gridservice.screening import surroundings_lists

    # The service (in this process) lists 3 of each list, so the demo's lists are longer.
    monkeypatch.setattr(surroundings_lists, "LIST_LIMIT", 3)
    assessment, _ = screened_site
    with GridDataClient(base_url=demo_service, token=ALPHA_TOKEN) as client:
        near = client.sites.surroundings(assessment.site_id, radius_km=40)
    page = near.changes.lists["entered"]
    assert page.listed == 3 < page.total
    at = open_page(assessment.id)
    text = " ".join(m.value for m in at.markdown)
    counts = near.changes.counts
    assert f"{counts['entered']:,} entered, {counts['left']:,} left" in text
    captions = [c.value for c in at.caption]
    assert f"Showing {page.listed:,} of {page.total:,} projects entered" in " ".join(captions)
    assert len(frame_with(at, "Entered as")) == page.listed
    at.toggle(key="surroundings.all.entered").set_value(True).run()
    assert not at.exception
    entered = frame_with(at, "Entered as")
    with GridDataClient(base_url=demo_service, token=ALPHA_TOKEN) as client:
        every = list(client.sites.surroundings_projects(assessment.site_id, "entered"))
    assert len(entered) == page.total == len(every)
    assert list(entered["Project id"]) == [p.project_id for p in every]


def screen_at(demo_service: str, point: tuple[float, float], key: str):
    """Return (the assessment of an alpha site at a point, its surroundings in 40 km, or the
    client's error for them)."""
    from gridclient import APIStatusError, GridDataClient

    with GridDataClient(base_url=demo_service, token=ALPHA_TOKEN) as client:
        site = client.sites.create(
            {
                "requestedPeakLoadMw": 200.0,
                "location": {"latitude": point[0], "longitude": point[1]},
            },
            idempotency_key=key,
        )
        assessment = client.assessments.create(site.id)
        try:
            return assessment, client.sites.surroundings(site.id, radius_km=40)
        except APIStatusError as exc:
            return assessment, exc


LOUDOUN = (39.08, -77.65)


def test_a_loudoun_site_shows_the_pjm_records_and_what_the_ercot_history_leaves_out(
    service_env, demo_service
):
    assessment, near = screen_at(demo_service, LOUDOUN, "surroundings-page-test-loudoun")
    at = open_page(assessment.id)
    text = unescape(" ".join(m.value for m in at.markdown))
    from_records = [c for c in near.counties if c.queue.basis == "queue_records"]
    assert any(c.is_site_county and c.queue.markets == ["PJM"] for c in from_records)
    for county in from_records:
        # a county across the state line with no record of its own has no date to give
        as_of = f" of {county.queue.as_of}" if county.queue.as_of else ""
        assert f"{county.name}, {county.state}" in text
        assert f"{county.queue.active_mw:,.1f} MW (PJM queue records{as_of})" in text
    assert any(not c.queue.as_of for c in from_records)  # the cross-border case is here
    assert "0 active queue projects" not in text  # no report here: no figures read as none
    # every dataset that covers only some markets says so, the queue history among them
    assert any("ERCOT only" in a.statement for a in near.abstentions)
    infos = [unescape(i.value) for i in at.info]
    assert all(a.statement in infos for a in near.abstentions)
    reasons = [c.queue.unavailable for c in near.counties if c.queue.unavailable]
    captions = unescape(" ".join(c.value for c in at.caption))
    # the ISO boundary places counties across the state line in PJM too: each has figures
    assert len(from_records) == len(near.counties) > 1
    assert all(reason in captions for reason in reasons)

    counties = frame_with(at, "Active MW")
    without = counties[counties["Why no figures"] != ""]
    assert len(without) == len(reasons)
    assert without["Active MW"].isna().all() and without["Active projects"].isna().all()
    site_row = counties[counties["County"].str.endswith("(site)")].iloc[0]
    assert site_row["Figures from"].startswith("PJM queue records")
    assert all(site_row[label] is None for label in FIRMNESS.values())  # PJM states none

    choose_tab(at, NEAR_TAB_KEY, "Queue records")
    records = frame_with(at, "Market")
    listed = [r for c in from_records for r in c.queue.records]
    assert list(records["Record"]) == [f"queue?record={r.record_id}" for r in listed]
    assert set(records["Market"]) == {"PJM"}


def test_a_site_outside_every_county_shows_the_services_problem(service_env, demo_service):
    from gridclient import APIStatusError

    assessment, refused = screen_at(
        demo_service, DEMO_POINTS["outside_coverage"], "surroundings-page-test-outside"
    )
    assert isinstance(refused, APIStatusError)
    at = open_page(assessment.id)
    assert refused.status == 404
    errors = [e.value for e in at.error]
    assert any(refused.detail in unescape(e) for e in errors), errors
    # the rest of the page still draws: the downloads follow the section
    assert "Downloads" in [h.value for h in at.subheader]


def unescape(markdown: str) -> str:
    return re.sub(r"\\(.)", r"\1", markdown)


def test_the_reader_picks_the_report_months_the_change_table_compares(
    service_env, demo_service, screened_site
):
    from gridclient import GridDataClient

    assessment, near = screened_site
    months = sorted({r.report_month for r in near.reports})
    at = open_page(assessment.id)
    since, until = at.selectbox(key="surroundings.from"), at.selectbox(key="surroundings.to")
    # the defaults are the service's: the newest report and the one twelve months before it
    assert (since.value, until.value) == (
        near.changes.from_report.report_month,
        near.changes.to.report_month,
    )
    assert since.options == months
    earlier, later = months[0], months[len(months) // 2]
    since.select(earlier)
    until.select(later)
    at.run()
    assert not at.exception
    with GridDataClient(base_url=demo_service, token=ALPHA_TOKEN) as client:
        chosen = client.sites.surroundings(
            assessment.site_id, radius_km=40, from_month=earlier, to_month=later
        )
    text = " ".join(m.value for m in at.markdown)
    assert f"What changed between the {earlier} and {later} reports" in text
    counts = chosen.changes.counts
    assert (
        f"{counts['entered']:,} entered, {counts['left']:,} left, "
        f"{counts['changed']:,} changed." in text
    )
    choose_tab(at, CHANGE_TAB_KEY, "Left")
    left = frame_with(at, "How it left") if chosen.changes.left else None
    if left is not None:
        assert sorted(left["Project id"]) == sorted(p.project_id for p in chosen.changes.left)


def test_months_in_the_wrong_order_show_the_services_problem_and_a_way_back(
    service_env, screened_site
):
    assessment, near = screened_site
    months = sorted({r.report_month for r in near.reports})
    at = open_page(assessment.id)
    at.selectbox(key="surroundings.from").select(months[-1])
    at.selectbox(key="surroundings.to").select(months[0])
    at.run()
    assert not at.exception
    shown = " ".join(e.value for e in at.error)
    assert "must be before to" in unescape(shown), [e.value for e in at.error]
    back = next(b for b in at.button if b.label == "Back to the default report months")
    back.click().run()
    assert not at.exception and not at.error
    assert at.selectbox(key="surroundings.from").value == near.changes.from_report.report_month


def surroundings_layers(at: AppTest) -> tuple[dict, dict]:
    """Return the surroundings map's layers by id, and its view."""
    for chart in at.get("deck_gl_json_chart"):
        deck = json.loads(chart.proto.json)
        layers = {layer["id"]: layer for layer in deck["layers"]}
        if "surroundings" in layers:
            return layers, deck["initialViewState"]
    raise AssertionError("no surroundings map drawn")


@pytest.mark.parametrize("radius_km", [40, 150])
def test_the_map_names_the_counties_around_the_site_without_overlap_and_rings_its_distances(
    service_env, alpha_client, screened_site, radius_km
):
    assessment, _ = screened_site
    near = alpha_client.sites.surroundings(assessment.site_id, radius_km=radius_km)
    at = open_page(assessment.id)
    at.slider(key="surroundings.radius").set_value(radius_km).run()
    assert not at.exception
    layers, view = surroundings_layers(at)

    rings = layers[surroundings_map.RINGS_LAYER_ID]["data"]
    assert [ring["radius"] for ring in rings] == [radius_km * 500, radius_km * 1000]
    ring_texts = [row["text"] for row in layers[surroundings_map.RING_LABELS_LAYER_ID]["data"]]
    assert ring_texts == [f"{radius_km / 2:,.0f} km", f"{radius_km:,} km"]

    names = layers[surroundings_map.NAMES_LAYER_ID]["data"]
    site_county = next(c.name for c in near.counties if c.is_site_county)
    assert site_county in {row["text"] for row in names}
    # only counties of the surroundings are named, each once
    assert len({row["text"] for row in names}) == len(names)
    assert {row["text"] for row in names} <= {c.name for c in near.counties}
    # no name overlaps another, nor a ring's label, at the map's zoom
    boxes = [
        surroundings_map.label_box(row["text"], row["longitude"], row["latitude"], view["zoom"])
        for row in names
    ] + [
        surroundings_map.label_box(
            row["text"], row["longitude"], row["labelLatitude"], view["zoom"]
        )
        for row in rings
    ]
    assert not [(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1 :] if a.overlaps(b)]
    # at the wide radius the counties are small: some names are left out rather than piled up
    if radius_km == 150:
        assert len(names) < len(near.counties)
