"""The page benchmark's browser keeps what an analyst's keeps: a profile on disk with V8's code
cache for the pages' scripts, where a private window keeps none, and leaves no folder behind."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright
from served_folder import served

from bench.bench_pages import CHROMIUM, DiskProfiles

# a script big enough for Chromium to keep its compiled code (it skips tiny ones)
SCRIPT = "window.total = 0;\n" + "".join(
    f"function f{i}(x) {{ return x * {i} + {i % 7}; }}\nwindow.total += f{i}({i});\n"
    for i in range(4000)
)
PAGE = '<!doctype html><title>t</title><script src="app.js"></script><h1>Loaded</h1>'


@pytest.fixture
def site(tmp_path):
    """Serve a page and its script over loopback HTTP, the script cached for a year as
    Streamlit's hashed bundles are; yield the page's URL."""
    (tmp_path / "index.html").write_text(PAGE)
    (tmp_path / "app.js").write_text(SCRIPT)

    with served(tmp_path, cached_suffix=".js") as base:
        yield f"{base}/index.html"


def code_cache_bytes(profile: Path) -> int:
    folder = profile / "Default" / "Code Cache"
    return sum(f.stat().st_size for f in folder.rglob("*") if f.is_file()) if folder.exists() else 0


def test_each_context_is_a_profile_on_disk_that_keeps_compiled_scripts_and_goes_away(site):
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is missing (apt-get install -y chromium)")
    # In a thread of its own: a test file of the browser journeys run earlier on this worker
    # keeps its session's Playwright open, and Playwright's sync API refuses to start a second
    # one in a thread whose event loop is already running.
    with ThreadPoolExecutor(max_workers=1) as thread:
        profile, kept = thread.submit(load_four_times, site).result()
    # the script's compiled code is kept (a private window keeps no code cache at all)
    assert kept > len(SCRIPT) // 10, f"{kept} bytes of compiled code kept for the script"
    assert not profile.exists(), "the profile folder outlived the benchmark"


def load_four_times(site: str) -> tuple[Path, int]:
    """Return the profile folder of a disk-profile context that loaded the page four times,
    and the bytes of compiled code its loads added (the context and profiles closed)."""
    with sync_playwright() as playwright:
        profiles = DiskProfiles(playwright)
        context = profiles.new_context()
        profile = context.profile_folder
        before = code_cache_bytes(profile)
        for _ in range(4):  # Chromium keeps a script's code from its second or third load on
            page = context.new_page()
            page.goto(site)
            page.get_by_role("heading", name="Loaded").wait_for()
            assert page.evaluate("window.total") > 0
            page.close()
        kept = code_cache_bytes(profile) - before
        context.close()
        profiles.close()
    return profile, kept
