"""The app's first start, with no demo database yet: the build starts as the server starts, in
a process of its own (it ran on the page's one core after the page's code had loaded); the
main area says the database is being built, once, then the page draws (it was blank for the
whole build, the spinner in the sidebar). On every start the embedded service starts as the
server starts, while the browser loads the page (it started after the first page's code)."""

from __future__ import annotations

import ast
import runpy
import sqlite3
import subprocess
import sys
import threading

import httpx
from conftest import REPO_ROOT, app_path
from demo_store import demo_store_copy
from streamlit.testing.v1 import AppTest

import gridservice.app
from components import connection, geography


def run_server_start(monkeypatch, db_path) -> None:
    """Run what `streamlit run app.py` runs as its server starts, before any browser connects,
    with the embedded demo on `db_path`."""
    for name in ("GRID_API_BASE_URL", "GRID_API_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("GRIDSERVICE_DB", str(db_path))
    monkeypatch.chdir(REPO_ROOT)
    runpy.run_path(str(REPO_ROOT / "app.py"))


def service_started_early(db_path):
    """Return the embedded service the server's start started on `db_path`, once started."""
    for thread in threading.enumerate():
        if thread.name == "embedded-service-start":
            thread.join()
    # read where the process keeps its service, not through `embedded_service_at`, which
    # would start one itself
    server = connection._services.get(str(db_path))
    assert server is not None, "the server's start started no embedded service"
    return server


def test_the_server_starting_starts_the_demo_database_build(tmp_path, monkeypatch):
    # The build goes on in its own process; the test waits for that process, then for the
    # service started on the database it built.
    db_path = tmp_path / "data" / "demo.db"
    # meanwhile the service's thread makes its OpenAPI document (it was made after the build)
    monkeypatch.setattr(gridservice.app, "_openapi_cache", {})
    prepared_when_waiting = []
    waiting = connection.wait_for_demo_build

    def wait_for_demo_build(path: str) -> None:
        if threading.current_thread().name == "embedded-service-start":
            prepared_when_waiting.append("document" in gridservice.app._openapi_cache)
        waiting(path)

    monkeypatch.setattr(connection, "wait_for_demo_build", wait_for_demo_build)
    run_server_start(monkeypatch, db_path)
    waiting(str(db_path))
    service_started_early(db_path).stop()
    assert prepared_when_waiting == [True]
    # built aside and put in place whole: nothing of the build is left beside it (the
    # service's own write-ahead files may be)
    assert db_path.exists()
    assert [p.name for p in db_path.parent.iterdir() if ".building-" in p.name] == []
    store = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    try:
        kind = store.execute("SELECT value FROM meta WHERE key = 'data_kind'").fetchone()
        tokens = store.execute("SELECT count(*) FROM tokens").fetchone()[0]
    finally:
        store.close()
    assert kind == ("demo",) and tokens > 0


def test_the_server_starting_starts_the_embedded_service_before_any_page(tmp_path, monkeypatch):
    # A later start (the database there): the service is serving before a browser connects
    db_path = demo_store_copy(tmp_path / "demo.db")
    run_server_start(monkeypatch, db_path)
    server = service_started_early(db_path)
    try:
        assert httpx.get(f"{server.base_url}/v1/health").status_code == 200
    finally:
        server.stop()


def counting(function, calls: list):
    """Return `function`, each call of it noted in `calls`."""

    def counted(*args, **kwargs):
        calls.append(args)
        return function(*args, **kwargs)

    return counted


def test_a_first_start_says_it_builds_the_demo_database_then_draws_the_page(tmp_path, monkeypatch):
    for name in ("GRID_API_BASE_URL", "GRID_API_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("GRIDSERVICE_DB", str(tmp_path / "demo.db"))
    monkeypatch.chdir(REPO_ROOT)
    # while the database is built, the process reads the outlines the first page's map opens on
    geography.country_states.clear()
    outlines_read = []
    monkeypatch.setattr(geography, "read_states", counting(geography.read_states, outlines_read))
    read_when_waiting = []
    waiting = connection.wait_for_demo_build
    monkeypatch.setattr(
        connection,
        "wait_for_demo_build",
        lambda path: read_when_waiting.append(len(outlines_read)) or waiting(path),
    )
    at = AppTest.from_file(app_path(), default_timeout=600).run()
    assert not at.exception
    assert [(s.label, s.state) for s in at.status] == [
        ("Demo database built: later starts reuse it.", "complete")
    ]
    assert [t.value for t in at.title] == ["Screen a site"]
    assert read_when_waiting[:1] == [1] and len(outlines_read) == 1  # and never again
    # a later run finds the database: nothing more is said
    at.run()
    assert not at.exception and not list(at.status)


# Libraries the first page (Screen a site) and the embedded service's start never use: each
# imported there cost every start a part of a second (docs/BENCHMARKS.md, "First start").
NOT_AT_START = ("altair", "openpyxl", "gridservice.harvest.runner", "gridservice.demo.builder")


def first_page_modules() -> list[str]:
    """Return the modules the app's script and its first page import, and the service's."""
    modules = ["gridservice.runtime.server", "gridservice.demo.edition"]
    for script in ("screener.py", "app_pages/screen_site.py"):
        tree = ast.parse((REPO_ROOT / script).read_text())
        for node in tree.body:
            if isinstance(node, ast.Import):
                modules += [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                modules += [f"{node.module}.{alias.name}" for alias in node.names]
    return modules


def test_a_start_imports_no_library_its_first_page_and_service_do_not_use():
    # Each name is imported as a module, else its parent (`from components import data`
    # names a module; `from components.text import escape_markdown` a function).
    program = (
        "import importlib, sys\n"
        f"for name in {first_page_modules()!r}:\n"
        "    try:\n"
        "        importlib.import_module(name)\n"
        "    except ImportError:\n"
        "        importlib.import_module(name.rpartition('.')[0])\n"
        f"print(sorted(n for n in {NOT_AT_START!r} if n in sys.modules))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", program], cwd=REPO_ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "[]"
