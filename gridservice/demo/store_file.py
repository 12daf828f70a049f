"""The demo store as a file: built aside and put in place whole.

`python -m gridservice.demo.store_file PATH` builds the demo store at PATH in a process of its
own: the app starts it when its server starts, so the build runs on another core while the
first page's code loads. A process that finds the file finds it complete, and a file already
there (another process finished first) is never replaced.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from gridservice.demo.builder import build_demo_database
from gridservice.store.db import connect, init_schema


def build_demo_file(path: Path) -> bool:
    """Return True when it built the demo store (scale 1) at `path`; False when a file was
    put there first by another process (kept as it is)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    aside = path.with_name(f"{path.name}.building-{os.getpid()}")
    try:
        conn = connect(aside)
        try:
            init_schema(conn)
            build_demo_database(conn)
            conn.commit()
            # the write-ahead log folded in: the linked file holds every record
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            conn.close()
        # a link, not a rename: it fails where a file exists, so a store another process
        # put there (and may be serving) is never swapped under it
        os.link(aside, path)
    except FileExistsError:
        return False
    finally:
        for suffix in ("", "-wal", "-shm"):
            Path(f"{aside}{suffix}").unlink(missing_ok=True)
    return True


def main(argv: list[str]) -> int:
    """Build the demo store at the path given; return the exit status (0 also when another
    process built it first)."""
    if len(argv) != 1:
        print("usage: python -m gridservice.demo.store_file PATH", file=sys.stderr)
        return 2
    build_demo_file(Path(argv[0]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
