"""The suite's own arrangement: the modules it starts first and marks slow still exist."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from xdist.scheduler import LoadFileScheduling

TESTS = Path(__file__).parent


def suite_conftest():
    """Return tests/conftest.py as a module of its own (the name `conftest` may already be
    another folder's conftest in a whole run)."""
    spec = importlib.util.spec_from_file_location("suite_conftest", TESTS / "conftest.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_module_named_first_or_slow_exists() -> None:
    """A module moved or renamed drops out of `FIRST_MODULES`/`SLOW_MODULES` silently
    (a long harvest would run last again, or a slow module join the fast subset)."""
    suite = suite_conftest()
    named = (*suite.FIRST_MODULES, *suite.SLOW_MODULES)
    missing = sorted(name for name in named if not (TESTS / name).exists())
    assert not missing, f"named in tests/conftest.py but absent: {missing}"


def test_a_worker_takes_a_whole_module() -> None:
    """The scheduler's scopes are modules (a module-scoped store is built once), and
    `FIRST_MODULES` names them as xdist does, under tests/."""
    split = LoadFileScheduling._split_scope
    assert split(None, "tests/e2e/test_search.py::test_results[one]") == "tests/e2e/test_search.py"
    assert (
        split(None, "tests/app/test_queue.py::test_filters[Hays::TX]") == "tests/app/test_queue.py"
    )
    assert (
        split(None, "tests/service/routers/test_x.py::test_y") == "tests/service/routers/test_x.py"
    )
