"""The suite's own arrangement: the modules it starts first and marks slow still exist."""

from __future__ import annotations

from conftest import FIRST_MODULES, SLOW_MODULES, TESTS


def test_every_module_named_first_or_slow_exists() -> None:
    """A module moved or renamed drops out of `FIRST_MODULES`/`SLOW_MODULES` silently
    (a long harvest would run last again, or a slow module join the fast subset)."""
    missing = sorted(
        name for name in (*FIRST_MODULES, *SLOW_MODULES) if not (TESTS / name).is_file()
    )
    assert not missing, f"named in tests/conftest.py but absent: {missing}"
