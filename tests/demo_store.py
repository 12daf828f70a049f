"""A demo store (SQLite) for a test that writes to it or serves it on its own terms.

Building the demo store takes 1 to 3 s; a test process builds it once (`demo_store_copy`) and
every module that wants one gets a copy of that file.
"""

from __future__ import annotations

import atexit
import shutil
import tempfile
from functools import cache
from pathlib import Path

from gridservice.demo.store_file import build_demo_file


def build_demo_store(path: Path) -> Path:
    """Build the demo store (scale 1) at `path`, its write-ahead log folded into the one
    file, as the app's first start does (`build_demo_file`); return the path."""
    build_demo_file(path)
    return path


@cache
def _template() -> Path:
    """The demo store this process copies, built the first time one is asked for (removed
    when the process exits)."""
    folder = tempfile.mkdtemp(prefix="gds-demo-template-")
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return build_demo_store(Path(folder) / "demo.db")


def demo_store_copy(path: Path) -> Path:
    """Put a copy of the demo store (scale 1) at `path`, a file of its own to write to or
    serve; return the path. A service started on it with `demo=True` finds its data there
    and builds nothing."""
    path.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(_template(), path)
    return path
