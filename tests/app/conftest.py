"""A real reference service for the app's tests: one per session, on a fresh demo database.

Pages reach it exactly as they reach a deployment: `GRID_API_BASE_URL` and `GRID_API_TOKEN`
in the environment, through gridclient over loopback HTTP. No mocks of the service.
"""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

import pytest
from demo_store import demo_store_copy

REPO_ROOT = Path(__file__).resolve().parents[2]
ALPHA_TOKEN, BETA_TOKEN = "gds_demo_alpha", "gds_demo_beta"


@pytest.fixture(scope="session")
def demo_service(tmp_path_factory):
    """Start the service on a fresh demo database; yield its base URL."""
    from gridservice.runtime.server import start_in_thread
    from gridservice.settings import Settings

    db_path = demo_store_copy(tmp_path_factory.mktemp("demo") / "demo.db")
    server = start_in_thread(Settings(db_path=db_path, demo=True))
    yield server.base_url
    server.stop()


@pytest.fixture(autouse=True)
def fresh_data_cache():
    """Each test starts with empty st.cache_data (fetches are cached per process), and
    without the tenant's sites and a site's surroundings, which are held rather than copied
    (`st.cache_resource`)."""
    import streamlit as st

    from components import data

    st.cache_data.clear()
    data.recent_sites.clear()
    data.site_surroundings.clear()
    yield


@pytest.fixture
def service_env(demo_service, monkeypatch):
    """Point the app at the session's service as tenant demo-alpha; return the base URL."""
    point_app_at(monkeypatch, demo_service, ALPHA_TOKEN)
    return demo_service


def point_app_at(monkeypatch: pytest.MonkeyPatch, base_url: str, token: str) -> None:
    """Make the app's pages reach the service at `base_url` as the token's tenant, from the
    repository's root, on the default basemap (as `GRID_API_*` do in a deployment)."""
    monkeypatch.setenv("GRID_API_BASE_URL", base_url)
    monkeypatch.setenv("GRID_API_TOKEN", token)
    monkeypatch.delenv("GRID_APP_BASEMAP_STYLE", raising=False)
    monkeypatch.chdir(REPO_ROOT)


@pytest.fixture
def alpha_client(demo_service):
    from gridclient import GridDataClient

    with GridDataClient(base_url=demo_service, token=ALPHA_TOKEN) as client:
        yield client


@pytest.fixture
def beta_client(demo_service):
    from gridclient import GridDataClient

    with GridDataClient(base_url=demo_service, token=BETA_TOKEN) as client:
        yield client


def page_path(name: str) -> str:
    return str(REPO_ROOT / "app_pages" / f"{name}.py")


def app_path() -> str:
    return str(REPO_ROOT / "screener.py")


# An inline code span of markdown source (its fence not escaped; the text inside is literal).
CODE_SPAN = re.compile(r"(?<!\\)(`+) ?(.*?) ?(?<!`)\1(?!`)")


def unescape(markdown: str) -> str:
    """Return markdown source as the reader sees it: backslash escapes removed, code spans'
    fences dropped (the text inside them kept as it is)."""
    pieces, start = [], 0
    for span in CODE_SPAN.finditer(markdown):
        pieces += [re.sub(r"\\(.)", r"\1", markdown[start : span.start()]), span.group(2)]
        start = span.end()
    return "".join([*pieces, re.sub(r"\\(.)", r"\1", markdown[start:])])


_clicks = itertools.count(1)


def click_map(at, picker_name: str, latitude: float, longitude: float) -> None:
    """Click the picker's map at a point: feed it the value the browser's map reports (the
    point and the click's own id), and run."""
    from components import picker

    at.session_state[picker.chart_key(picker_name)] = {
        "latitude": latitude,
        "longitude": longitude,
        "click": f"test:{next(_clicks)}",
    }
    at.run()
    assert not at.exception


def sent_map(at) -> dict:
    """Return what the picker sent the browser's map: `deck` (its JSON, as sent) and `pin`."""
    from components import click_map as component

    element = next(
        e
        for e in at.get("component_instance")
        if e.proto.component_name == component._click_map.name
    )
    return json.loads(element.proto.json_args)


def drawn_map(at) -> dict:
    """Return the deck the picker drew: its layers (rows decoded, the pin last) and view."""
    from components import maps

    sent = sent_map(at)
    deck = json.loads(sent["deck"])
    if sent["pin"] is not None:
        deck["layers"].append(sent["pin"])
    for layer in deck["layers"]:
        layer["data"] = maps.layer_rows(layer)
    return deck


def popover_labels(at) -> list[str]:
    """Return the labels of the page's popovers, in the page's order."""
    labels = []

    def walk(node) -> None:
        children = getattr(node, "children", None)
        for child in children.values() if isinstance(children, dict) else []:
            if getattr(child, "type", None) == "popover":
                labels.append(child.proto.popover.label)
            walk(child)

    walk(at._tree)
    return labels


MANY_SITES_TOKEN = "tok_many_sites"


@pytest.fixture(scope="session")
def many_sites_service(tmp_path_factory):
    """A service whose one tenant has 205 sites, more than a page of 200 once held."""
    from gridclient import GridDataClient
    from gridservice.runtime.server import start_in_thread
    from gridservice.settings import Settings
    from gridservice.store import writer
    from gridservice.store.db import connect, init_schema

    path = tmp_path_factory.mktemp("many-sites") / "many.db"
    conn = connect(path)
    init_schema(conn)
    with conn:
        writer.add_token(conn, MANY_SITES_TOKEN, "tenant-many", "2025-01-01T00:00:00Z")
    conn.close()
    server = start_in_thread(Settings(db_path=path, rate_limit_enabled=False))
    with GridDataClient(base_url=server.base_url, token=MANY_SITES_TOKEN) as client:
        for number in range(205):
            client.sites.create(
                {
                    "requestedPeakLoadMw": 50.0,
                    "customerReference": f"Bulk site {number:03d}",
                    "location": {"latitude": 31.0 + number / 1000, "longitude": -97.5},
                }
            )
    yield server.base_url
    server.stop()


@pytest.fixture
def many_sites_env(many_sites_service, monkeypatch):
    """Point the app at the tenant with 205 sites; return its client."""
    from gridclient import GridDataClient

    point_app_at(monkeypatch, many_sites_service, MANY_SITES_TOKEN)
    with GridDataClient(base_url=many_sites_service, token=MANY_SITES_TOKEN) as client:
        yield client
