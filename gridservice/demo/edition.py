"""Which build of the code made a demo store, so an outdated one is set aside, not served.

A demo store is built once on a user's machine and kept; what it holds (its records, their
evidence fields, its tables) follows the service's code. A store built by other code is
moved aside (kept, renamed) and a new one is built in its place on the next start.
"""

from __future__ import annotations

import hashlib
import sqlite3
from functools import lru_cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1]


@lru_cache(maxsize=1)
def demo_edition() -> str:
    """Return a digest of the service's code and schema: a demo store is built by one edition."""
    digest = hashlib.sha256()
    for path in sorted(PACKAGE.rglob("*")):
        if path.suffix in {".py", ".sql"} and "__pycache__" not in path.parts:
            digest.update(path.relative_to(PACKAGE).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _stored_edition(path: Path) -> tuple[str | None, str | None]:
    """Return the store's data kind and demo edition (None where it has none)."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        rows = dict(
            conn.execute(
                "SELECT key, value FROM meta WHERE key IN ('data_kind', 'demo_edition')"
            ).fetchall()
        )
    except sqlite3.DatabaseError:  # no meta table: not a store this code built
        return None, None
    finally:
        conn.close()
    return rows.get("data_kind"), rows.get("demo_edition")


def retire_outdated(path: Path) -> Path | None:
    """Move a demo store built by other code aside and return where it went; None when the
    file is missing, current, or not a demo store (a harvested store is never touched)."""
    if not path.is_file():
        return None
    kind, edition = _stored_edition(path)
    if kind != "demo" or edition == demo_edition():
        return None
    aside = path.with_name(f"{path.name}.{edition or 'old'}.bak")
    for suffix in ("", "-wal", "-shm"):
        companion = Path(f"{path}{suffix}")
        if companion.exists():
            companion.rename(f"{aside}{suffix}")
    return aside
