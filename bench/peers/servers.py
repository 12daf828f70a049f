"""Start and stop the processes under test on loopback: our service, Datasette, the floor."""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import httpx

REPO_ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class Process:
    """A server process listening on `base_url`; `stop()` ends exactly this process."""

    name: str
    base_url: str
    popen: subprocess.Popen

    @property
    def pid(self) -> int:
        return self.popen.pid

    def memory_mb(self) -> dict[str, float]:
        """Return resident memory in MB: now and peak, and now split into anonymous (heap,
        SQLite page caches) and file-backed (mmap of the store, shared libraries); plus the
        number of threads."""
        out: dict[str, float] = {}
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM", "RssAnon", "RssFile"):
                out[key] = round(int(value.split()[0]) / 1024, 1)
            elif key == "Threads":
                out[key] = int(value)
        return out

    def stop(self) -> None:
        if self.popen.poll() is None:
            self.popen.terminate()
            try:
                self.popen.wait(10)
            except subprocess.TimeoutExpired:
                self.popen.kill()
                self.popen.wait(5)


def _wait_ready(proc: Process, probe: str, timeout: float = 120.0) -> Process:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.popen.poll() is not None:
            raise RuntimeError(f"{proc.name} exited with {proc.popen.returncode}")
        try:
            if httpx.get(proc.base_url + probe, timeout=2).status_code < 500:
                return proc
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    proc.stop()
    raise RuntimeError(f"{proc.name} did not answer {probe} within {timeout} s")


def _spawn(name: str, args: list[str], port: int, probe: str) -> Process:
    popen = subprocess.Popen(args, cwd=REPO_ROOT, stdout=subprocess.DEVNULL)
    return _wait_ready(Process(name, f"http://127.0.0.1:{port}", popen), probe)


def start_service(db: Path, page_cache_mb: int | None = None) -> Process:
    """Our service in its own process (rate limit lifted), then the WAL folded into the file.

    The service writes its secret and deployment id into `meta` on first start; folding the
    WAL back means Datasette, which opens the file immutable, reads the same bytes.
    """
    port = free_port()
    args = [sys.executable, "-m", "bench.peers.serve_service", "--db", str(db), "--port", str(port)]
    if page_cache_mb is not None:
        args += ["--page-cache-mb", str(page_cache_mb)]
    proc = _spawn("service", args, port, "/v1/release")
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    return proc


def start_gridservice(store_args: list[str], timeout: float = 300.0) -> Process:
    """`gridservice serve` itself in its own process on a free port, rate limits off, with
    `store_args` (`--db FILE`, `--database-url URL`, `--workers N`, ...); ready once its
    health answers."""
    port = free_port()
    args = [sys.executable, "-m", "gridservice", "serve", "--port", str(port), "--no-rate-limit"]
    popen = subprocess.Popen(
        [*args, *store_args], cwd=REPO_ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    return _wait_ready(
        Process("gridservice", f"http://127.0.0.1:{port}", popen), "/v1/health", timeout
    )


def datasette_metadata(db: Path, page_size: int) -> dict:
    """Metadata that points Datasette at the FTS table and adds the ranked search query.

    Datasette only detects external-content FTS tables whose `content=` is double-quoted or
    bracketed; the store's schema single-quotes it, so `fts_table` is configured here. The
    canned query is the same ranked join the service runs (bm25 plus its exact-phrase
    bonus from the unstemmed index, then chunk id), so both sides return the same 20 chunks in the same order.
    """
    ranked = (
        "select c.chunk_id as id, c.body as body, t.rank as rank from ("
        "select k.rowid as rid, k.chunk_id as id, round(-bm25(evidence_fts) + case when "
        "evidence_fts.rowid in (select rowid from evidence_exact where evidence_exact match "
        ":phrase) then 10.0 else 0 end, 6) as rank "
        "from evidence_fts join evidence_keys k on k.rowid = evidence_fts.rowid "
        "where evidence_fts match :q and k.known_to is null order by rank desc, id limit :n) t "
        "join evidence_chunks c on c.rowid = t.rid order by t.rank desc, t.id"
    )
    return {
        "databases": {
            db.stem: {
                "tables": {"evidence_chunks": {"fts_table": "evidence_fts", "fts_pk": "rowid"}},
                "queries": {"evidence_ranked": {"sql": ranked}},
            }
        }
    }


def start_datasette(db: Path, page_size: int = 500) -> Process:
    """Datasette serving the same file immutable (`-i`), pages of `page_size` rows."""
    port = free_port()
    fd, meta_path = tempfile.mkstemp(suffix=".json", prefix="datasette-metadata-")
    with os.fdopen(fd, "w") as fh:
        json.dump(datasette_metadata(db, page_size), fh)
    args = [
        sys.executable, "-m", "bench.peers.serve_datasette", "--db", str(db),
        "--metadata", meta_path, "--port", str(port), "--page-size", str(page_size),
    ]  # fmt: skip
    return _spawn("datasette", args, port, f"/{db.stem}.json")


def start_static(bodies: list[bytes]) -> Process:
    """uvicorn answering `/<i>` with `bodies[i]` and `/` with the first (the HTTP floor)."""
    port = free_port()
    args = [sys.executable, "-m", "bench.peers.serve_static", "--port", str(port)]
    for body in bodies:
        fd, path = tempfile.mkstemp(suffix=".json", prefix="floor-page-")
        with os.fdopen(fd, "wb") as fh:
            fh.write(body)
        args += ["--body", path]
    return _spawn("static", args, port, "/")
