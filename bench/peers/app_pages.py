"""The app's time to content at one scale, by handing `bench/bench_pages.py` a running app.

Our service (already serving the scale's database) screens one site as demo-alpha, the app
is started against it (`streamlit run app.py` with GRID_API_BASE_URL / GRID_API_TOKEN),
and `bench/bench_pages.py --url ... --assessment ...` times every page in headless
Chromium. Its Markdown table is kept as printed, with the queue page picked out.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

from bench.peers.scenarios import TOKEN
from bench.peers.servers import REPO_ROOT, free_port
from gridclient import GridDataClient
from gridservice.demo import DEMO_POINTS

BENCH_PAGES = REPO_ROOT / "bench" / "bench_pages.py"


def _screen_one_site(service_url: str) -> str:
    latitude, longitude = DEMO_POINTS["dual_certified"]
    with GridDataClient(base_url=service_url, token=TOKEN) as client:
        site = client.sites.create(
            {
                "requestedPeakLoadMw": 300.0,
                "location": {"latitude": latitude, "longitude": longitude},
            }
        )
        return client.assessments.create(site.id).id


def _start_streamlit(port: int, service_url: str) -> subprocess.Popen:
    env = dict(os.environ, GRID_API_BASE_URL=service_url, GRID_API_TOKEN=TOKEN)
    args = [sys.executable, "-m", "streamlit", "run", str(REPO_ROOT / "app.py"),
            "--server.port", str(port), "--server.headless", "true",
            "--server.address", "127.0.0.1"]  # fmt: skip
    proc = subprocess.Popen(
        args, cwd=REPO_ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return proc
        except OSError:
            time.sleep(0.3)
    proc.terminate()
    raise RuntimeError("streamlit did not start")


def measure(service_url: str, *, rounds: int) -> dict:
    """Return bench_pages' table, per-page p50/max seconds, or why it could not run."""
    if not BENCH_PAGES.exists():
        return {"skipped": "bench/bench_pages.py is not in this tree"}
    if not Path("/usr/bin/chromium").exists():
        return {"skipped": "Chromium is not installed (/usr/bin/chromium)"}
    assessment_id = _screen_one_site(service_url)
    port = free_port()
    app = _start_streamlit(port, service_url)
    try:
        args = [sys.executable, str(BENCH_PAGES), "--rounds", str(rounds),
                "--url", f"http://127.0.0.1:{port}", "--assessment", assessment_id]  # fmt: skip
        done = subprocess.run(args, cwd=REPO_ROOT, capture_output=True, text=True, timeout=1800)
    finally:
        app.terminate()
        try:
            app.wait(20)
        except subprocess.TimeoutExpired:
            app.kill()
    if done.returncode != 0:
        return {"failed": done.stderr[-2000:]}
    pages = {
        m.group(1): {"p50_s": float(m.group(2)), "max_s": float(m.group(3))}
        for m in re.finditer(r"^\| (/\S*) \| ([\d.]+) \| ([\d.]+) \|", done.stdout, re.M)
    }
    return {"pages": pages, "output": done.stdout}
