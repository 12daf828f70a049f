"""The app's first start, with no demo database yet: the main area says the database is being
built, once, then the page draws (it was blank for the whole build, the spinner in the
sidebar)."""

from __future__ import annotations

from conftest import REPO_ROOT, app_path
from streamlit.testing.v1 import AppTest


def test_a_first_start_says_it_builds_the_demo_database_then_draws_the_page(tmp_path, monkeypatch):
    for name in ("GRID_API_BASE_URL", "GRID_API_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("GRIDSERVICE_DB", str(tmp_path / "demo.db"))
    monkeypatch.chdir(REPO_ROOT)
    at = AppTest.from_file(app_path(), default_timeout=600).run()
    assert not at.exception
    assert [(s.label, s.state) for s in at.status] == [
        ("Demo database built: later starts reuse it.", "complete")
    ]
    assert [t.value for t in at.title] == ["Screen a site"]
    # a later run finds the database: nothing more is said
    at.run()
    assert not at.exception and not list(at.status)
