"""How much work SQLite does for a read: a measure that does not depend on the machine."""

from __future__ import annotations

from collections.abc import Callable


def vm_steps(conn, run: Callable[[], object], every: int = 100) -> int:
    """Return how many of SQLite's virtual-machine steps, in `every`s (hundreds unless
    told), `run()` took on `conn` (its progress handler, called every `every` steps)."""
    steps = [0]

    def count() -> int:
        steps[0] += 1
        return 0

    conn.set_progress_handler(count, every)
    try:
        run()
    finally:
        conn.set_progress_handler(None, 0)
    return steps[0]
