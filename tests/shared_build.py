"""Files a whole test run builds once, whatever the number of worker processes.

A session fixture runs once per worker process; a store harvested from the real files takes
a minute or more, and with `-n 2` both workers would build the same one side by side. The
first worker to ask builds it under a lock in the run's shared temporary folder; the others
wait for that lock and then read the same file. Whoever uses the file copies it first.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from filelock import FileLock


def run_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Return the temporary folder every worker of this run shares."""
    base = tmp_path_factory.getbasetemp()
    # Under pytest-xdist each worker's base folder sits inside the run's own.
    folder = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "built-once"
    folder.mkdir(exist_ok=True)
    return folder


def built_once(
    tmp_path_factory: pytest.TempPathFactory, name: str, build: Callable[[Path], Any]
) -> tuple[Path, Any]:
    """Return the file `name` built by `build(path)` once for the run, and what that build
    returned (kept beside the file as JSON for the workers that did not build it)."""
    target = run_folder(tmp_path_factory) / name
    answer = target.with_name(f"{name}.json")
    with FileLock(f"{target}.lock"):
        if not target.exists():
            partial = target.with_name(f"{name}.partial")
            partial.unlink(missing_ok=True)
            answer.write_text(json.dumps(build(partial)), encoding="utf-8")
            partial.rename(target)  # only a whole file takes the name
    return target, json.loads(answer.read_text(encoding="utf-8"))
