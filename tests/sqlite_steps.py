"""How much work SQLite does for a read: a measure that does not depend on the machine."""

from __future__ import annotations

from collections.abc import Callable


def vm_steps(conn, run: Callable[[], object]) -> int:
    """Return how many of SQLite's virtual-machine steps, in hundreds, `run()` took on
    `conn` (its progress handler, called every 100 steps)."""
    steps = [0]

    def count() -> int:
        steps[0] += 1
        return 0

    conn.set_progress_handler(count, 100)
    try:
        run()
    finally:
        conn.set_progress_handler(None, 0)
    return steps[0]
