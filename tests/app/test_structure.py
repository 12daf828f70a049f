"""The app's data path reads one way: page -> view component -> components.data -> gridclient.

Read from the source: every client call lives in `components/data/`, views read models (no
wire dicts), components import each other at the top and never in a cycle, and there is
one markdown escaper.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
APP_FILES = sorted(
    [
        REPO / "app.py",
        REPO / "screener.py",
        *(REPO / "app_pages").glob("*.py"),
        *(REPO / "components").rglob("*.py"),
    ]
)
DATA_PATH = ("components/data/", "components/connection.py")


def relative(path: Path) -> str:
    return path.relative_to(REPO).as_posix()


def tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("path", APP_FILES, ids=relative)
def test_imports_are_at_the_top_of_the_module(path):
    inner = [
        f"line {node.lineno}"
        for function in ast.walk(tree(path))
        if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef)
        for node in ast.walk(function)
        if isinstance(node, ast.Import | ast.ImportFrom)
        and not embeds_the_service(path, node)
        and not defers_a_heavy_library(path, node)
    ]
    assert inner == []


def embeds_the_service(path: Path, node: ast.Import | ast.ImportFrom) -> bool:
    """The one exception: connection.py imports the reference service's server and tokens
    where it embeds the demo, so a deployment's process never loads them."""
    return (
        relative(path) == "components/connection.py"
        and isinstance(node, ast.ImportFrom)
        and (node.module or "").startswith("gridservice.")
    )


# The others: a heavy library imported where it is first needed, so a page that does not use
# it never waits for it: WeasyPrint (Pango, fonts: seconds) when a report is asked for, Altair
# (about half a second) when a chart is drawn.
DEFERRED = {"components/report.py": "weasyprint", "components/charts.py": "altair"}


def defers_a_heavy_library(path: Path, node: ast.Import | ast.ImportFrom) -> bool:
    """Whether the import is the one heavy library its module defers (`DEFERRED`)."""
    return isinstance(node, ast.Import) and [alias.name for alias in node.names] == [
        DEFERRED.get(relative(path))
    ]


def test_a_deployment_never_loads_the_reference_service():
    # a fresh interpreter, as a fresh app process: what importing the app's data path loads
    probe = (
        "import sys, components.connection, components.data; "
        "print(sorted(m for m in sys.modules if m.startswith('gridservice.')))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=REPO, capture_output=True, text=True, check=True
    )
    loaded = done.stdout.strip()
    assert (
        "gridservice.runtime.server" not in loaded and "gridservice.security.tokens" not in loaded
    ), loaded


@pytest.mark.parametrize("path", APP_FILES, ids=relative)
def test_only_the_data_module_touches_the_client_and_the_fetch_cache(path):
    if relative(path).startswith(DATA_PATH):
        return
    source = path.read_text(encoding="utf-8")
    for forbidden in ("client_for", "GridDataClient", "cache_data"):
        assert forbidden not in source, forbidden


@pytest.mark.parametrize("path", APP_FILES, ids=relative)
def test_views_read_models_not_wire_dicts(path):
    source = path.read_text(encoding="utf-8")
    assert "to_wire" not in source and "as_wire" not in source
    if relative(path) != "components/site_form.py":  # hashes the body it sends
        assert "model_dump" not in source


def component_imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(tree(path)):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "components":
                names.update(f"components.{alias.name}" for alias in node.names)
            elif node.module.startswith("components."):
                names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(a.name for a in node.names if a.name.startswith("components."))
    return names


def module_name(path: Path) -> str:
    parts = path.relative_to(REPO).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_components_import_each_other_without_a_cycle():
    modules = {module_name(p): p for p in APP_FILES if relative(p).startswith("components/")}
    graph = {
        name: {m for m in component_imports(path) if m in modules and m != name}
        for name, path in modules.items()
    }
    # a package's own modules import the package's parts, not the package
    graph = {
        name: {m for m in imported if not name.startswith(m + ".")}
        for name, imported in graph.items()
    }
    done: set[str] = set()

    def visit(name: str, trail: tuple[str, ...]) -> None:
        assert name not in trail, " -> ".join((*trail, name))
        if name in done:
            return
        for imported in sorted(graph[name]):
            visit(imported, (*trail, name))
        done.add(name)

    for name in sorted(graph):
        visit(name, ())


def test_one_markdown_escaper():
    escapers = [
        f"{relative(path)}:{node.name}"
        for path in APP_FILES
        for node in ast.walk(tree(path))
        if isinstance(node, ast.FunctionDef) and ("escape" in node.name or node.name == "_plain")
    ]
    assert escapers == ["components/text.py:escape_markdown"]


def test_the_release_is_fetched_in_one_place():
    # Once it was cached twice, for 600 s and 300 s: the sidebar and the quality page could
    # show different releases.
    callers = [
        relative(path) for path in APP_FILES if ".release()" in path.read_text(encoding="utf-8")
    ]
    assert callers == ["components/data/service.py"]


def test_no_pages_folder_beside_the_entry_script():
    # Streamlit runs the scripts of a `pages/` folder as old-style pages: a deep link on a
    # fresh process then ran the page without app.py (no navigation, no sidebar).
    assert not (REPO / "pages").exists(), "page scripts belong in app_pages/, not pages/"
    assert {p.stem for p in (REPO / "app_pages").glob("*.py")} >= {"screen_site", "assessment"}


@pytest.mark.parametrize("path", APP_FILES, ids=relative)
def test_table_numbers_with_a_unit_group_their_thousands(path):
    # A table cell reads "3,973 MW", never "3973 MW": every printf format of a number column
    # that writes a unit groups thousands ("%,.0f MW").
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.keyword) and node.arg == "format":
            value = node.value
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                text = value.value
                if text.startswith("%") and text.endswith((" MW", " MWh", " kV", " km")):
                    assert text.startswith("%,"), f"{path.name}: format {text!r}"


# the scripts Streamlit runs itself (magic would apply to these, never to what they import)
SCRIPTS = sorted([REPO / "screener.py", *(REPO / "app_pages").glob("*.py")])


@pytest.mark.parametrize("path", SCRIPTS, ids=relative)
def test_no_script_leaves_a_value_for_magic_to_draw(path):
    # `.streamlit/config.toml` turns magic off: a bare expression would draw nothing, where
    # with magic it drew its value. A docstring and a call (st.title(...)) are statements.
    bare = [
        f"line {node.lineno}: {ast.unparse(node)[:60]}"
        for node in ast.walk(tree(path))
        if isinstance(node, ast.Expr)
        and not isinstance(node.value, ast.Call | ast.Await | ast.Yield | ast.YieldFrom)
        and not (isinstance(node.value, ast.Constant) and isinstance(node.value.value, str))
    ]
    assert bare == []
