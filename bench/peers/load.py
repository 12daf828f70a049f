"""Closed-loop load with wrk: N connections on loopback for a bounded time, percentiles out.

wrk is a C load generator, so on a 2-core machine the load itself costs little of the CPU
the server under test needs (a Python load loop would take about as much as the server).
Each run is bounded by `duration` seconds; latencies are wrk's own (closed loop: a slow
answer delays the next request on that connection).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path

_REPORT_LUA = """
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    "WRKJSON {\\"requests\\":%d,\\"duration_us\\":%d,\\"bytes\\":%d,\\"socket_errors\\":%d,"
    .. "\\"non_2xx\\":%d,\\"p50_us\\":%d,\\"p95_us\\":%d,\\"p99_us\\":%d,\\"max_us\\":%d}\\n",
    summary.requests, summary.duration, summary.bytes,
    e.connect + e.read + e.write + e.timeout, e.status,
    latency:percentile(50), latency:percentile(95), latency:percentile(99), latency.max))
end
"""


@dataclass
class LoadResult:
    requests: int
    seconds: float
    rps: float
    p50_ms: float
    p95_ms: float
    p99_ms: float
    bytes_per_response: float
    errors: int

    def as_dict(self) -> dict:
        return asdict(self)


def wrk_path() -> str:
    path = shutil.which("wrk")
    if path is None:
        raise SystemExit("wrk is needed for the load runs (Debian: apt-get install wrk).")
    return path


def run_wrk(
    url: str, *, connections: int, duration: float, headers: dict[str, str] | None = None
) -> LoadResult:
    """Load `url` with `connections` keep-alive connections (one wrk thread) for `duration` s."""
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as fh:
        fh.write(_REPORT_LUA)
        script = fh.name
    args = [wrk_path(), "-t1", f"-c{connections}", f"-d{duration:g}s", "--timeout", "30s"]
    args += ["-s", script]
    for name, value in (headers or {}).items():
        args += ["-H", f"{name}: {value}"]
    args.append(url)
    try:
        out = subprocess.run(args, capture_output=True, text=True, timeout=duration + 60).stdout
    finally:
        Path(script).unlink(missing_ok=True)
    line = next((x for x in out.splitlines() if x.startswith("WRKJSON ")), None)
    if line is None:
        raise RuntimeError(f"wrk gave no report for {url}:\n{out}")
    raw = json.loads(line.removeprefix("WRKJSON "))
    seconds = raw["duration_us"] / 1e6
    requests = max(raw["requests"], 1)
    return LoadResult(
        requests=raw["requests"],
        seconds=round(seconds, 2),
        rps=round(raw["requests"] / seconds, 1),
        p50_ms=raw["p50_us"] / 1000,
        p95_ms=raw["p95_us"] / 1000,
        p99_ms=raw["p99_us"] / 1000,
        bytes_per_response=round(raw["bytes"] / requests),
        errors=raw["socket_errors"] + raw["non_2xx"],
    )
