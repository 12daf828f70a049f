"""The CPU accounting of the PostgreSQL benchmark: /proc parsing and the per-run arithmetic."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from bench import cpu_accounting as ca
from bench.bench_postgres import cpu_summary

# utime=250 stime=50 cutime=7 cstime=3; the name holds a space and a closing parenthesis.
ODD_NAME_LINE = (
    "4242 (uvicorn (w) 1) S 4200 4242 4200 0 -1 4194560 1500 0 0 0 250 50 7 3 20 0 3 0 "
    "5067878 3133440 358 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n"
)


def stat_line(pid: int, ppid: int, own: int, reaped: int = 0, comm: str = "postgres") -> str:
    return (
        f"{pid} ({comm}) S {ppid} {pid} {ppid} 0 -1 4194560 0 0 0 0 {own} 0 {reaped} 0 "
        "20 0 1 0 1 1 1 1 1 1 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0"
    )


def table(*lines: str) -> dict[int, ca.ProcessTimes]:
    return {p.pid: p for p in map(ca.parse_pid_stat, lines)}


def test_a_process_line_gives_its_parent_and_cpu_times_even_with_an_odd_name():
    proc = ca.parse_pid_stat(ODD_NAME_LINE)
    assert (proc.pid, proc.comm, proc.ppid) == (4242, "uvicorn (w) 1", 4200)
    assert (proc.own_ticks, proc.reaped_children_ticks) == (300, 10)


def test_a_line_that_is_not_a_process_line_is_refused():
    with pytest.raises(ValueError):
        ca.parse_pid_stat("cpu  1 2 3 4")
    with pytest.raises(ValueError):
        ca.parse_pid_stat("12 (short) S 1 2")


def test_the_machine_line_counts_softirq_as_busy_and_iowait_as_idle_and_guest_once():
    # user nice system idle iowait irq softirq steal guest guest_nice
    machine = ca.parse_cpu_line("cpu  100 20 30 400 50 6 70 8 90 10\n")
    assert machine == ca.MachineTimes(busy=100 + 20 + 30 + 6 + 70 + 8, idle=450, softirq=70)
    with pytest.raises(ValueError):
        ca.parse_cpu_line("cpu0 100 20 30 400 50 6 70 8 0 0")


def test_a_group_is_its_root_and_descendants_with_what_they_reaped_and_nothing_else():
    processes = table(
        stat_line(1, 0, 1000, comm="init"),
        stat_line(10, 1, 5, reaped=40),  # the postmaster, having reaped ended backends
        stat_line(11, 10, 100),
        stat_line(12, 10, 200),
        stat_line(13, 12, 7, comm="child of a backend"),
        stat_line(20, 1, 999, comm="postgres"),  # another cluster's server
    )
    assert ca.tree_ticks(processes, 10) == 5 + 40 + 100 + 200 + 7
    assert ca.tree_ticks(processes, 12) == 207
    assert ca.tree_ticks(processes, 99) == 0


def test_a_backend_ending_during_the_run_still_counts_once_through_its_reaper():
    before = table(stat_line(10, 1, 5), stat_line(11, 10, 100))
    # Backend 11 used 30 more ticks, ended, and the postmaster reaped its 130.
    after = table(stat_line(10, 1, 6, reaped=130))
    assert ca.tree_ticks(after, 10) - ca.tree_ticks(before, 10) == 31


def test_cores_are_ticks_per_second_of_wall_time_and_other_is_busy_less_every_group():
    before = ca.CpuSnapshot(
        at=100.0, machine=ca.MachineTimes(busy=1000, idle=5000, softirq=10),
        groups={"instance_1": 200, "wrk": 0},
    )  # fmt: skip
    after = ca.CpuSnapshot(
        at=104.0, machine=ca.MachineTimes(busy=1720, idle=5080, softirq=50),
        groups={"instance_1": 600, "wrk": 120, "postgres": 8},
    )  # fmt: skip
    used = ca.cpu_used(before, after, clock_ticks=100)
    assert used["groups"] == {"instance_1": 1.0, "wrk": 0.3, "postgres": 0.02}
    assert (used["machine_busy"], used["machine_idle"]) == (1.8, 0.2)
    assert used["softirq"] == 0.1
    assert used["other"] == pytest.approx(1.8 - 1.0 - 0.3 - 0.02)
    assert used["busiest_others"] == []
    with pytest.raises(ValueError):
        ca.cpu_used(after, before, clock_ticks=100)


def test_other_names_the_busiest_processes_outside_the_groups_by_what_they_used_meanwhile():
    machine = ca.MachineTimes(busy=0, idle=0, softirq=0)
    before = ca.CpuSnapshot(
        at=0.0, machine=machine,
        outsiders={5: ("chromium", 1000), 6: ("chromium", 10), 7: ("kdamond.0", 500), 8: ("old", 1)},
    )  # fmt: skip
    after = ca.CpuSnapshot(
        at=2.0, machine=machine,
        outsiders={
            5: ("chromium", 1060), 6: ("chromium", 30), 7: ("kdamond.0", 502),
            9: ("streamlit", 50),  # started during the run
            8: ("reused pid", 40),  # pid 8 ended and a new process took it
            4: ("idle", 3),
        },
    )  # fmt: skip
    assert ca.busiest_outsiders(before, after) == [
        ("chromium", 80), ("streamlit", 50), ("reused pid", 40),
    ]  # fmt: skip
    used = ca.cpu_used(before, after, clock_ticks=100)
    assert used["busiest_others"] == [["chromium", 0.4], ["streamlit", 0.25], ["reused pid", 0.2]]


def test_the_instances_cost_per_request_sums_every_instance():
    cpu = {
        "seconds": 10.0, "groups": {"instance_1": 0.5, "instance_2": 0.7, "wrk": 0.3},
        "machine_busy": 1.9, "machine_idle": 0.1, "softirq": 0.1, "other": 0.4,
    }  # fmt: skip
    summary = cpu_summary(cpu, requests=6000)
    assert summary["instances"] == 1.2 and summary["instances_each"] == [0.5, 0.7]
    assert summary["instance_cpu_seconds_per_1000_requests"] == 2.0
    assert summary["requests_per_instance_cpu_second"] == 500


def test_the_postmaster_is_found_from_a_backend_only_on_a_postgres_parent():
    processes = table(
        stat_line(10, 1, 0), stat_line(11, 10, 0), stat_line(30, 1, 0, comm="python3"),
        stat_line(31, 30, 0),
    )  # fmt: skip
    assert ca.postmaster_of(processes, 11) == 10
    assert ca.postmaster_of(processes, 31) is None  # a postgres whose parent is not one
    assert ca.postmaster_of(processes, 77) is None  # not on this machine


@pytest.mark.skipif(not os.path.exists("/proc/stat"), reason="needs Linux /proc")
def test_a_child_that_ended_is_counted_as_the_benchmark_process_own_wrk_time():
    before = ca.snapshot({})
    burn = "import time\nwhile time.process_time() < 0.08: pass"
    subprocess.run([sys.executable, "-c", burn], check=True)
    after = ca.snapshot({})
    assert after.groups["wrk"] - before.groups["wrk"] >= 0.05 * ca.clock_ticks()
    assert after.machine.busy + after.machine.idle > before.machine.busy + before.machine.idle
    me = ca.read_processes()[os.getpid()]
    assert me.ppid == os.getppid()
    # A group's members are not "others"; everything else still is.
    grouped = ca.snapshot({"parent": [os.getppid()]})
    assert os.getppid() not in grouped.outsiders and os.getpid() not in grouped.outsiders
    assert 1 in grouped.outsiders or os.getppid() == 1
