"""The `harvest` and `build` subcommands of the `gridservice` command line."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from gridservice.harvest._base import HarvestError
from gridservice.harvest.download import download
from gridservice.harvest.runner import (
    SOURCES,
    BuildProgress,
    HarvestResult,
    build_from_dir,
    run_harvest,
)
from gridservice.settings import add_database_url_option
from gridservice.store import backend, db, meta_reads

# The page cache of a build's connection, in KiB (SQLite's own default is 2 MiB).
BUILD_CACHE_KIB = 128 * 1024


def default_harvest_db() -> Path:
    """Return `$GRIDSERVICE_DB`, or the per-user harvested database."""
    if os.environ.get("GRIDSERVICE_DB"):
        return Path(os.environ["GRIDSERVICE_DB"])
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "gridservice" / "harvest.db"


def add_subcommands(subparsers: argparse._SubParsersAction) -> None:
    """Add `harvest SOURCE PATH` and `build --from DIR`; each sets `run(args) -> int` (the convention of gridservice.cli)."""
    harvest = subparsers.add_parser(
        "harvest",
        help="harvest one file of a public source into a database",
        description="Sources: "
        + "; ".join(f"{name}: {spec.description}" for name, spec in SOURCES.items()),
    )
    harvest.add_argument("source", choices=sorted(SOURCES))
    harvest.add_argument("path", nargs="?", type=Path, help="the publisher's file")
    harvest.add_argument(
        "--db", default=None, help="database: a file or a URL (default $GRIDSERVICE_DB)"
    )
    harvest.add_argument(
        "--download", action="store_true", help="fetch the publisher's current file first"
    )
    harvest.add_argument("--url", help="download from this address instead of the official one")
    harvest.add_argument("--download-dir", type=Path, default=None, help="where downloads are kept")
    add_database_url_option(harvest)
    harvest.set_defaults(run=_harvest_command)

    build = subparsers.add_parser(
        "build", help="harvest every recognised file of a folder into one database"
    )
    build.add_argument("--from", dest="directory", type=Path, required=True)
    build.add_argument(
        "--db", default=None, help="database: a file or a URL (default $GRIDSERVICE_DB)"
    )
    add_database_url_option(build)
    build.set_defaults(run=_build_command)


def _location(args: argparse.Namespace) -> str | Path:
    return backend.location_from(args.database_url, args.db or default_harvest_db())


def _open(args: argparse.Namespace):
    conn = db.connect(_location(args))
    db.init_schema(conn)
    return conn


def _report(result: HarvestResult) -> None:
    run = result.run
    if run.get("rejectedAsset"):
        reason = run["rejections"][0]["reasons"][0]
        print(f"REJECTED {result.source} {result.path.name}: {reason} (run {run['runId']})")
        return
    if run.get("supersededBy"):
        print(f"superseded {result.source} {result.path.name} by {run['supersededBy']}")
        return
    state = "unchanged" if run["unchangedAsset"] else "harvested"
    print(
        f"{state} {result.source} {result.path.name}: {run['inputRecords']} read, "
        f"{run['acceptedRecords']} accepted, {run['rejectedRecords']} rejected "
        f"(run {run['runId']})"
    )
    for item in run["rejections"][:20]:
        print(f"  rejected {item['sourceLocator']}: {'; '.join(item['reasons'])}")
    if run["rejectedRecords"] > 20:
        print(f"  ... {run['rejectedRecords'] - 20} more rejections in the run record")


def _harvest_command(args: argparse.Namespace) -> int:
    try:
        path = args.path
        if args.download:
            path = download(args.source, url=args.url, directory=args.download_dir)
        elif path is None:
            print("error: give the file's PATH, or --download", file=sys.stderr)
            return 2
        conn = _open(args)
        try:
            _report(run_harvest(conn, args.source, path))
            meta_reads.data_snapshot_sha256(conn)  # see _build_command
        finally:
            conn.close()
    except HarvestError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


class TerminalProgress(BuildProgress):
    """One progress bar per file on stderr: redrawn in place on a terminal, one line each
    file otherwise (a log keeps only the outcome)."""

    STAGES = {"hash": 1, "parse": 2, "store": 3}
    WIDTH = 20

    def __init__(self, stream=None) -> None:
        self.stream = stream or sys.stderr
        self.live = self.stream.isatty()
        self.label = ""
        self.started = 0.0

    def start(self, number: int, total: int, path: Path) -> None:
        self.label = f"[{number:>2}/{total}] {path.name[:48]:<48}"
        self.started = time.monotonic()

    def step(self, stage: str) -> None:
        if self.live:
            self._draw(self.STAGES.get(stage, 0), stage, end="\r")

    def done(self, result: HarvestResult) -> None:
        run = result.run
        if run.get("rejectedAsset"):
            outcome = "REJECTED (see the quality report)"
        elif run.get("supersededBy"):
            outcome = f"superseded by {run['supersededBy']}"
        elif run["unchangedAsset"]:
            outcome = "unchanged"
        else:
            outcome = f"{run['acceptedRecords']} rows"
        self._draw(4, outcome, end="\n")

    def _draw(self, filled: int, what: str, *, end: str) -> None:
        bar = "#" * (self.WIDTH * filled // 4)
        seconds = time.monotonic() - self.started
        line = f"{self.label} [{bar:<{self.WIDTH}}] {what} {seconds:5.1f} s"
        print(f"{line:<110}", end=end, file=self.stream, flush=True)


def _build_command(args: argparse.Namespace) -> int:
    try:
        location = _location(args)
        new_file = isinstance(location, Path) and not location.exists()
        conn = _open(args)
        try:
            if isinstance(location, Path):
                # A build writes indexes of hundreds of thousands of rows (the EIA-930
                # hours): with SQLite's default 2 MB page cache it mostly waited for pages
                # evicted and read again (55 s to 23 s of wall for the subregion file).
                conn.execute(f"PRAGMA cache_size=-{BUILD_CACHE_KIB}")
            if new_file:
                # A crash in a build into a new file can only lose that build, so its
                # commits need not wait for the disk; the last one does (see below).
                conn.execute("PRAGMA synchronous=OFF")
            results = build_from_dir(conn, args.directory, progress=TerminalProgress())
            if new_file:
                # Closing checkpoints the log into the file, now waiting for the disk again.
                conn.execute("PRAGMA synchronous=NORMAL")
            # Take the snapshot hash of what is now stored: every service on the store
            # answers its public pages from its page cache again (PostgreSQL: within its
            # --data-check-seconds) instead of building each one until it restarts.
            meta_reads.data_snapshot_sha256(conn)
        finally:
            conn.close()
    except HarvestError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    for result in results:
        _report(result)
    if not results:
        print(f"error: no recognised source file under {args.directory}", file=sys.stderr)
        return 1
    print(json.dumps({"database": backend.describe(_location(args)), "runs": len(results)}))
    return 0
