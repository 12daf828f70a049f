"""The page benchmark's reading of the browser's CPU per map click."""

from __future__ import annotations

import os

from bench.bench_pages import chromium_cpu_seconds, chromium_kind, cpu_spent

CHROMIUM = "/usr/lib/chromium/chromium"


def test_chromium_processes_are_told_apart_by_their_type():
    assert chromium_kind([CHROMIUM, "--type=gpu-process", "--use-gl=angle"]) == "gpu"
    assert chromium_kind([CHROMIUM, "--type=utility", "--utility-sub-type=network"]) == "utility"
    assert chromium_kind([CHROMIUM, "--headless", "--no-sandbox"]) == "browser"
    # a child rewrites its command line into one string (and a trailing empty argument)
    assert chromium_kind([f"{CHROMIUM} --type=renderer --lang=en-US", ""]) == "renderer"
    assert chromium_kind(["/usr/lib/chromium/chrome_crashpad_handler", "--monitor-self"]) == (
        "utility"
    )
    assert chromium_kind(["/usr/bin/python3", "--type=renderer"]) is None
    assert chromium_kind([]) is None


def stat_line(pid: int, ppid: int, utime: int, stime: int) -> str:
    return (
        f"{pid} (chromium) S {ppid} {pid} 1 0 -1 4194560 0 0 0 0 {utime} {stime} 0 0 "
        "20 0 1 0 1 1 1 1 1 1 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0"
    )


def fake_process(proc, pid: int, ppid: int, argv: list[str], utime: int, stime: int = 0) -> None:
    folder = proc / str(pid)
    folder.mkdir()
    (folder / "cmdline").write_bytes("\0".join(argv).encode() + b"\0")
    (folder / "stat").write_text(stat_line(pid, ppid, utime, stime))


def test_cpu_seconds_are_summed_by_kind_for_the_benchmarks_own_browser_only(tmp_path):
    ticks = os.sysconf("SC_CLK_TCK")
    fake_process(tmp_path, 5, 1, ["/usr/bin/python3", "bench_pages.py"], 50 * ticks)  # root
    fake_process(tmp_path, 6, 5, ["node", "playwright-driver"], 7 * ticks)
    fake_process(tmp_path, 7, 6, [CHROMIUM, "--headless"], ticks)
    fake_process(tmp_path, 10, 7, [f"{CHROMIUM} --type=gpu-process", ""], 3 * ticks, ticks)
    fake_process(tmp_path, 8, 7, [f"{CHROMIUM} --type=zygote", ""], 0)
    fake_process(tmp_path, 11, 8, [f"{CHROMIUM} --type=renderer", ""], ticks)
    fake_process(tmp_path, 12, 8, [f"{CHROMIUM} --type=renderer", ""], 0, ticks)
    # another browser on the machine, not under the benchmark: left out
    fake_process(tmp_path, 20, 1, [CHROMIUM, "--headless"], 9 * ticks)
    fake_process(tmp_path, 21, 20, [f"{CHROMIUM} --type=gpu-process", ""], 9 * ticks)
    (tmp_path / "self").mkdir()  # not a process: skipped
    assert chromium_cpu_seconds(tmp_path, root=5) == {
        "browser": 1.0,
        "gpu": 4.0,
        "utility": 0.0,
        "renderer": 2.0,
    }


def test_the_cpu_a_click_took_is_the_difference_of_two_readings():
    before = {"gpu": 10.0, "renderer": 4.0}
    after = {"gpu": 10.75, "renderer": 4.25, "utility": 0.5}
    # a process started meanwhile counts from zero
    assert cpu_spent(before, after) == {"gpu": 0.75, "renderer": 0.25, "utility": 0.5}
