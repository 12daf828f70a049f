"""The frame: navigation renders a page, the sidebar says where data comes from, tenants are
isolated, and a wrong token or an unreachable service reads as a message, not a traceback."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from conftest import app_path, page_path, unescape
from streamlit.testing.v1 import AppTest

from components import glossary


def run_app() -> AppTest:
    at = AppTest.from_file(app_path(), default_timeout=90)
    at.run()
    return at


def texts(elements) -> list[str]:
    """Return the elements' text as the reader sees it (escapes and code fences removed)."""
    return [unescape(element.value) for element in elements]


def test_app_renders_the_default_page_through_navigation(service_env, alpha_client):
    at = run_app()
    assert not at.exception
    assert texts(at.title) == ["Screen a site"]
    sidebar = " ".join(texts(at.sidebar.text))
    release = alpha_client.release()
    assert service_env in sidebar
    assert f"Release id: {release.release_id}" in sidebar
    assert f"Data snapshot: {release.data_snapshot_sha256[:12]}" in sidebar
    valid_until = release.to_wire()["validUntil"]
    assert f"Valid until: {glossary.when(release.valid_until)}" in sidebar
    # the demo release's validity may have ended by the time this runs: then it says so
    ended = release.valid_until <= datetime.now(UTC)
    expected = [f"Expired — this release's validity ended on {valid_until[:10]}."]
    assert texts(at.sidebar.warning) == (expected if ended else [])
    assert at.sidebar.radio[0].label == "Demo tenant"
    assert at.sidebar.radio[0].value == "demo-alpha"


def test_navigating_opens_another_page(service_env):
    at = run_app()
    at.switch_page("app_pages/service_territory.py").run()
    assert not at.exception
    assert texts(at.title) == ["Service territory"]


def test_tenant_switcher_shows_only_that_tenants_sites(service_env, alpha_client):
    site = alpha_client.sites.create(
        {"requestedPeakLoadMw": 42.0, "location": {"latitude": 29.76, "longitude": -95.37}},
        idempotency_key="frame-test-alpha-site-1",
    )
    at = run_app()
    alpha_sites = at.dataframe[0].value["Site"].tolist()
    assert site.id in alpha_sites
    at.sidebar.radio[0].set_value("demo-beta").run()
    assert not at.exception
    beta_frames = [frame.value for frame in at.dataframe]
    assert all(site.id not in frame.get("Site", []).tolist() for frame in beta_frames)


def test_wrong_token_says_so_and_how_to_fix_it(service_env, monkeypatch):
    monkeypatch.setenv("GRID_API_TOKEN", "not-a-real-token")
    at = run_app()
    assert not at.exception
    errors = " ".join(texts(at.error))
    assert "The token was refused — set GRID_API_TOKEN" in errors
    assert "Request id:" in errors
    assert "Traceback" not in errors


@pytest.mark.parametrize("page", ["screen_site", "service_territory", "assessment"])
def test_unreachable_service_says_so_on_every_page(service_env, monkeypatch, page):
    monkeypatch.setenv("GRID_API_BASE_URL", "http://127.0.0.1:9")
    at = AppTest.from_file(page_path(page), default_timeout=90)
    at.query_params["assessment"] = "asm_anything"
    at.session_state["territory.latitude"] = 29.7604
    at.session_state["territory.longitude"] = -95.3698
    at.run()
    assert not at.exception
    errors = " ".join(texts(at.error))
    assert "The service at http://127.0.0.1:9 is unreachable" in errors
