"""Time the app's first start, from `streamlit run app.py` to the first page showing content
in Chromium: on a fresh state (no demo database yet: the first start builds it) and with the
database already built (every later start).

Usage:
    uv run python bench/bench_first_start.py [--rounds 2] [--readme [--revision REV]
        [--compile-bytecode]]

Each round starts a new Streamlit process on a demo database path and a cache folder of its
own (`GRIDSERVICE_DB`, `XDG_CACHE_HOME` in a temporary folder: a fresh start finds neither),
opens the app's root in a new Chromium page as soon as the server answers its health check,
and stops the clock when Screen a site has its title and the form's button (the page's
content, after the demo database is built and the service started). It reads then the
processor seconds the app's process (and any it started) has used, and those of the app's
process alone: on a shared machine the wall-clock seconds grow with the load, the processor
seconds far less. A fresh start builds the demo database in a process of its own beside the
app's: on a quiet 2-core machine the two run side by side, so the longer of the app's own
seconds and the build's (the difference), not their sum, bounds the start. Prints a
Markdown table of these, the load average before each start and the machine. Needs Chromium
at /usr/bin/chromium.

`--readme` times the README's own path instead: each round clones this checkout's committed
HEAD (or `--revision`) into a temporary folder and runs `uv sync --frozen` there (timed apart:
the environment exists before the clock starts), then starts the README's command, `uv run
streamlit run app.py`, with only the flags a bench needs (headless, a free port), on empty data
and cache folders (`XDG_DATA_HOME`, `XDG_CACHE_HOME`; uv keeps its own cache) and with Python
writing bytecode as on an analyst's machine; then a later start in the same clone. The clock
starts at the command, so it counts uv's own start and Python compiling the modules a fresh
clone and a fresh environment have no bytecode for. The processor seconds count uv and every
process under it; "the app's own process" is the Python process uv starts.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO_ROOT / "tests" / "e2e"), str(REPO_ROOT)]

from e2e_browser import (  # noqa: E402
    APP_ENV_NAMES,
    CHROMIUM,
    CHROMIUM_ARGS,
    StreamlitApp,
    free_port,
    start_streamlit,
)
from playwright.sync_api import sync_playwright  # noqa: E402

from bench.cpu_accounting import clock_ticks, read_processes, tree_ticks  # noqa: E402

CONTENT = "Create site and screen it"
# Settings of this shell an analyst's has not: the bench's own environment (uv run sets
# VIRTUAL_ENV), and no bytecode written (set where the tests run; an analyst's Python writes it).
NOT_AN_ANALYSTS = (*APP_ENV_NAMES, "VIRTUAL_ENV", "PYTHONDONTWRITEBYTECODE", "UV_COMPILE_BYTECODE")
# One start's figures: wall seconds to content, processor seconds of the app and every process
# it started, those of the app's own process, and the 1-minute load average before it started.
Start = tuple[float, float, float, float]


def first_content_seconds(browser, db_path: Path, log_path: Path) -> Start:
    """Return one start of `streamlit run app.py` on `db_path`, timed to Screen a site's
    content in the browser (a build process the app started and waited for included)."""
    load = os.getloadavg()[0]
    started = time.monotonic()
    env = {"GRIDSERVICE_DB": str(db_path), "XDG_CACHE_HOME": str(db_path.parent / "cache")}
    app = start_streamlit(env, log_path, timeout_s=180)
    try:
        elapsed = content_seconds(browser, app.url, started)
        processes = read_processes()
        processor = tree_ticks(processes, app.process.pid) / clock_ticks()
        own = processes[app.process.pid].own_ticks / clock_ticks()
        return elapsed, processor, own, load
    finally:
        app.stop()


def content_seconds(browser, url: str, started: float) -> float:
    """Return the seconds from `started` to Screen a site's form drawn at `url`."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        page.goto(url, wait_until="domcontentloaded")
        page.get_by_role("button", name=CONTENT).wait_for(timeout=240_000)
        return time.monotonic() - started
    finally:
        page.close()


def fresh_clone(folder: Path, revision: str, *, compiled: bool = False) -> tuple[Path, float]:
    """Return a clone of this checkout at `revision` in `folder` with its environment made by
    `uv sync --frozen` (with `--compile-bytecode` when `compiled`, the README's one-time
    command), and the seconds that sync took."""
    clone = folder / "clone"
    head = git("rev-parse", revision, cwd=REPO_ROOT)
    git("clone", "--quiet", "--no-checkout", str(REPO_ROOT), str(clone), cwd=folder)
    git("checkout", "--quiet", head, cwd=clone)
    started = time.monotonic()
    command = ["uv", "sync", "--frozen", "--quiet"] + (["--compile-bytecode"] if compiled else [])
    subprocess.run(command, cwd=clone, env=analyst_env({}), check=True)
    return clone, time.monotonic() - started


def git(*args: str, cwd: Path) -> str:
    """Return what a git command printed (it must succeed)."""
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True)
    return done.stdout.strip()


def analyst_env(env: dict[str, str]) -> dict[str, str]:
    """Return this shell's environment as an analyst's would be, with `env` over it: none of
    the bench's own settings, nor this checkout's environment on the PATH."""
    own_bin = str(REPO_ROOT / ".venv" / "bin")
    clean = {k: v for k, v in os.environ.items() if k not in NOT_AN_ANALYSTS}
    clean["PATH"] = os.pathsep.join(p for p in clean["PATH"].split(os.pathsep) if p != own_bin)
    # uv's cache stays where it is whatever XDG_CACHE_HOME says: the environment exists
    clean["UV_CACHE_DIR"] = os.environ.get("UV_CACHE_DIR") or uv_cache_dir()
    clean.update(env)
    return clean


def uv_cache_dir() -> str:
    """Return the folder of uv's cache on this machine."""
    return subprocess.run(
        ["uv", "cache", "dir"], capture_output=True, text=True, check=True
    ).stdout.strip()


def start_readme_command(clone: Path, home: Path, log_path: Path) -> StreamlitApp:
    """Start the README's command in `clone`, `home` holding the data and cache folders, in a
    session of its own (uv, the app and the build it starts are stopped together by
    `stop_readme_command`); return the app, its server not answering yet."""
    port = free_port()
    env = analyst_env({"XDG_DATA_HOME": str(home / "data"), "XDG_CACHE_HOME": str(home / "cache")})
    command = ["uv", "run", "streamlit", "run", "app.py"]
    command += ["--server.headless", "true", "--server.port", str(port)]
    with log_path.open("ab") as log:
        process = subprocess.Popen(
            command,
            cwd=clone,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    return StreamlitApp(f"http://127.0.0.1:{port}", process, log_path)


def stop_readme_command(app: StreamlitApp) -> None:
    """Stop uv, the app and every process it started."""
    os.killpg(app.process.pid, signal.SIGTERM)
    try:
        app.process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        os.killpg(app.process.pid, signal.SIGKILL)
        app.process.wait(timeout=5)


def readme_start(browser, clone: Path, home: Path, log_path: Path) -> Start:
    """Return one start of the README's command in `clone`, with `home` holding the data and
    cache folders, timed from the command to Screen a site's content in the browser."""
    load = os.getloadavg()[0]
    started = time.monotonic()
    app = start_readme_command(clone, home, log_path)
    try:
        wait_for_health(app)
        elapsed = content_seconds(browser, app.url, started)
        processes = read_processes()
        pid = app.process.pid
        processor = tree_ticks(processes, pid) / clock_ticks()
        python = [p for p in processes.values() if p.ppid == pid]
        own = (python[0] if python else processes[pid]).own_ticks / clock_ticks()
        return elapsed, processor, own, load
    finally:
        stop_readme_command(app)


def wait_for_health(app: StreamlitApp, timeout_s: float = 180) -> None:
    """Return once the app's server answers its health check (raise if it ends or never does)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if app.process.poll() is not None:
            raise RuntimeError(f"the app exited with {app.process.returncode}:\n{app.log_tail()}")
        try:
            with urllib.request.urlopen(f"{app.url}/_stcore/health", timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"the app did not answer in {timeout_s}s:\n{app.log_tail()}")


def machine() -> str:
    """Return the machine in a line: processor count, system and Python."""
    return f"{os.cpu_count()} cores, {platform.system()} {platform.release()}, Python {platform.python_version()}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--readme", action="store_true", help="the README's command, fresh clone")
    parser.add_argument("--revision", default="HEAD", help="the commit --readme clones")
    parser.add_argument(
        "--compile-bytecode",
        action="store_true",
        help="with --readme: make each clone's environment with the README's one-time "
        "`uv sync --frozen --compile-bytecode`",
    )
    args = parser.parse_args()
    fresh: list[Start] = []
    built: list[Start] = []
    syncs: list[float] = []
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for round_number in range(args.rounds):
            round_folder = Path(folder) / f"round{round_number}"
            round_folder.mkdir()
            log = round_folder / "app.log"
            if args.readme:
                clone, sync_seconds = fresh_clone(
                    round_folder, args.revision, compiled=args.compile_bytecode
                )
                syncs.append(sync_seconds)
                fresh.append(readme_start(browser, clone, round_folder, log))
                built.append(readme_start(browser, clone, round_folder, log))
                shutil.rmtree(clone)
            else:
                db_path = round_folder / "demo.db"
                fresh.append(first_content_seconds(browser, db_path, log))
                built.append(first_content_seconds(browser, db_path, log))
        browser.close()
    print_table(fresh, built)
    if syncs:
        sync = "uv sync --frozen" + (" --compile-bytecode" if args.compile_bytecode else "")
        print(f"\n`{sync}` in each fresh clone: {', '.join(f'{s:.1f}' for s in syncs)} s")
    print(f"\nMachine: {machine()}")
    return 0


def print_table(fresh: list[Start], built: list[Start]) -> None:
    """Print the starts as a Markdown table, a column per figure, the rounds in each cell."""
    print(
        "| Start | Seconds to content (each round) | Median | Processor seconds (each round) "
        "| of which the app's own process | Load average before |"
    )
    print("|---|---|---|---|---|---|")
    for name, starts in (("fresh (demo database built)", fresh), ("database present", built)):
        cells = [", ".join(f"{start[i]:.1f}" for start in starts) for i in range(4)]
        median = statistics.median(start[0] for start in starts)
        print(f"| {name} | {cells[0]} | {median:.1f} | {cells[1]} | {cells[2]} | {cells[3]} |")


if __name__ == "__main__":
    raise SystemExit(main())
