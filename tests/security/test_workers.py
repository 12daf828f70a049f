"""`gridservice serve --workers N`: several processes behind one port act as one service."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from security_support import ALPHA, copy_store, free_port, key, site_body


def children_of(pid: int) -> list[int]:
    """Live worker processes started by `pid`, read from /proc (multiprocessing's resource
    tracker, also a child, is not a worker)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            command = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] != "Z" and b"spawn_main" in command:
            found.append(int(entry.name))
    return found


@pytest.fixture(scope="module")
def two_workers(demo_template, tmp_path_factory):
    if not Path("/proc/self/stat").exists():
        pytest.skip("needs /proc to count the worker processes")
    db = copy_store(demo_template, tmp_path_factory.mktemp("workers"))
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "gridservice", "serve", "--db", str(db), "--port", str(port)]
        + ["--workers", "2", "--no-rate-limit"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 90
    while True:
        try:
            if httpx.get(base + "/v1/health", timeout=1).status_code == 200:
                break
        except httpx.TransportError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            pytest.fail("gridservice serve --workers 2 did not start")
        time.sleep(0.2)
    # Both workers up (the first answer may come before the second is ready).
    while len(children_of(process.pid)) < 2 and time.monotonic() < deadline:
        time.sleep(0.2)
    yield process, base
    if process.poll() is None:
        process.kill()
        process.wait(timeout=30)


def test_two_worker_processes_serve_one_port(two_workers):
    process, _base = two_workers
    assert len(children_of(process.pid)) == 2


def test_every_worker_publishes_the_same_release(two_workers):
    _process, base = two_workers
    # Fresh connections, so the kernel hands them to either worker.
    answers = {httpx.get(base + "/v1/release", headers=ALPHA).content for _ in range(30)}
    assert len(answers) == 1


def test_a_write_through_one_worker_is_read_through_any(two_workers):
    _process, base = two_workers
    created = httpx.post(base + "/v1/sites", json=site_body(), headers={**ALPHA, **key()})
    assert created.status_code == 201, created.text
    site_id = created.json()["data"]["id"]
    for _ in range(20):
        answer = httpx.get(f"{base}/v1/sites/{site_id}", headers=ALPHA)
        assert answer.status_code == 200
        assert answer.json()["data"]["id"] == site_id


def test_a_killed_worker_is_replaced_and_the_port_keeps_answering(two_workers):
    process, base = two_workers
    victim = children_of(process.pid)[0]
    os.kill(victim, signal.SIGKILL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        workers = children_of(process.pid)
        if len(workers) == 2 and victim not in workers:
            break
        time.sleep(0.2)
    assert len(workers) == 2 and victim not in workers
    answers = [httpx.get(base + "/v1/health", timeout=10).status_code for _ in range(20)]
    assert answers == [200] * 20


def test_sigterm_stops_the_parent_and_every_worker(two_workers):
    process, base = two_workers
    workers = children_of(process.pid)
    process.terminate()
    process.wait(timeout=30)
    for pid in workers:
        assert not Path(f"/proc/{pid}").exists() or "Z" in Path(f"/proc/{pid}/stat").read_text()
    with pytest.raises(httpx.TransportError):
        httpx.get(base + "/v1/health", timeout=2)


def test_workers_must_be_at_least_one(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "gridservice", "serve", "--db", str(tmp_path / "x.db")]
        + ["--workers", "0"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert "--workers must be at least 1" in result.stderr


def exit_at_once(_settings_json: str, _host: str, _port: int, _ready) -> None:
    raise SystemExit(1)  # what a worker whose app cannot start does


def exit_after_ready(_settings_json: str, _host: str, _port: int, ready) -> None:
    ready.set()
    time.sleep(0.5)
    raise SystemExit(1)  # a worker that started, served, then failed


def _serve_script(tmp_path: Path, target: str, workers: int = 1) -> str:
    here = Path(__file__).parent
    return (
        "import sys\n"
        f"sys.path[:0] = [{str(here)!r}, {str(here.parent)!r}]\n"
        "from pathlib import Path\n"
        "from gridservice.runtime import workers\n"
        "from gridservice.settings import Settings\n"
        f"from test_workers import {target}\n"
        "holder = workers.reuseport_socket('127.0.0.1', 0, listen=False)\n"
        f"settings = Settings(db_path=Path({str(tmp_path / 'x.db')!r}))\n"
        f"sys.exit(workers.serve_workers(settings, holder, {workers}, target={target}))\n"
    )


def test_a_worker_that_fails_after_it_started_is_replaced_however_slow_its_start(tmp_path):
    # Readiness is the worker's own signal: a worker that said it was ready and then failed
    # is replaced, never taken for one that cannot start.
    parent = subprocess.Popen(
        [sys.executable, "-c", _serve_script(tmp_path, "exit_after_ready")],
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        lines = []
        for line in parent.stderr:
            lines.append(line)
            if "starting another" in line:
                break
        parent.send_signal(signal.SIGTERM)
        assert parent.wait(timeout=60) == 0, "".join(lines)
    finally:
        if parent.poll() is None:
            parent.kill()
    assert any("starting another" in line for line in lines), "".join(lines)
    assert not any("exited while starting" in line for line in lines)


def test_a_worker_that_cannot_start_stops_the_parent_instead_of_a_restart_loop(tmp_path):
    # In a fresh interpreter: worker processes are spawned, and a spawned child re-imports
    # its parent's main module, which inside pytest may be anything a test has set.
    script = _serve_script(tmp_path, "exit_at_once", workers=2)
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 1, result.stderr
    assert "exited while starting" in result.stderr
