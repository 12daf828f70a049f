"""A page says which of its datasets the store lacks or holds in part, in the service's words,
where its reader looks: on a store without transmission projects, docket filings or monthly
generator output, and with two generators where a state has thousands."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import unescape
from ops_store import TOKEN, point_the_app_at, serve_store
from streamlit.testing.v1 import AppTest

from gridclient import GridAPIError, GridDataClient

PAGES = Path(__file__).resolve().parents[2] / "app_pages"


@pytest.fixture(scope="module")
def small_store(tmp_path_factory):
    server = serve_store(tmp_path_factory.mktemp("notices") / "small.db", [])
    with GridDataClient(base_url=server.base_url, token=TOKEN) as client:
        datasets = {d.dataset: d for d in client.quality().quality.datasets}
    yield server.base_url, datasets
    server.stop()


@pytest.fixture
def on_small_store(small_store, monkeypatch):
    base_url, datasets = small_store
    point_the_app_at(base_url, monkeypatch)
    return datasets


def run(page: str) -> AppTest:
    at = AppTest.from_file(str(PAGES / f"{page}.py"), default_timeout=60).run()
    assert not at.exception and not at.error
    return at


def warnings(at: AppTest) -> list[str]:
    """The page's warnings as the reader sees them."""
    return [unescape(w.value) for w in at.warning]


@pytest.mark.parametrize(
    ("page", "datasets"),
    [
        ("transmission", ["transmission_projects"]),
        ("dockets", ["docket_filings"]),
        ("queue", ["interconnection_queue"]),
        ("evidence_search", ["evidence_chunks"]),
        ("market_facts", ["load_forecasts"]),
        ("generation", ["generators", "generator_operations"]),
    ],
)
def test_each_page_names_what_the_store_lacks_in_the_services_words(on_small_store, page, datasets):
    at = run(page)
    shown = " ".join(warnings(at))
    for name in datasets:
        dataset = on_small_store[name]
        state = {"missing": "not in this store", "partial": "only in part"}[dataset.status]
        assert f"**{dataset.label}: {state}.** {dataset.note}" in shown
    assert "[Data quality & release](data_quality)" in shown


def test_generators_held_in_part_are_said_to_be_a_sample(on_small_store):
    assert on_small_store["generators"].status == "partial"  # 2 where a state has thousands
    at = run("generation")
    assert any("a sample, not a full EIA-860 inventory" in w for w in warnings(at))


def test_no_project_list_is_not_said_as_no_project_matching(on_small_store):
    at = run("transmission")
    assert not [i.value for i in at.info if "matches these filters" in i.value]


@pytest.mark.parametrize("page", ["transmission", "dockets", "queue", "generation"])
def test_a_store_holding_every_dataset_shows_no_notice(service_env, page):
    at = run(page)
    assert not [w for w in warnings(at) if "Data quality & release" in w]


def test_a_quality_report_that_cannot_be_read_leaves_the_page_as_it_is(on_small_store, monkeypatch):
    from components import data

    def refused(conn):
        raise GridAPIError("the report failed")

    monkeypatch.setattr(data, "quality_report", refused)
    at = run("transmission")
    assert not [w for w in warnings(at) if "Data quality & release" in w]
    assert [i.value for i in at.info] == ["No transmission project matches these filters."]
