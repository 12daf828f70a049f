"""Where the CPU went during a load run: per process group and for the whole machine.

A `CpuSnapshot` is taken before and after a run; `cpu_used` turns the pair into cores used
(CPU-seconds per second of wall time) by each group and by the machine as a whole.

- A group is a process and its descendants, found again at each snapshot. Its time is the
  user + system time of every live member plus the time of the children each member has
  reaped (`cutime` + `cstime`): a PostgreSQL backend that ends during the run is counted by
  the postmaster that reaps it.
- wrk runs as a child of the benchmark process and is reaped when it ends, so its time is
  the growth of the benchmark process's own reaped-children time over the run (nothing else
  is reaped during a run: the servers end after it).
- The machine's busy time comes from the first line of /proc/stat: everything but idle and
  iowait, softirq included. The part no group accounts for ("other") is whatever else runs
  on the machine (its busiest processes are named) and kernel time charged to no group.
  Softirq time (loopback delivery, much of it) is reported on its own; the kernel may also
  charge it to the process that was running, so it can overlap the groups, and "other" can
  come out a few hundredths of a core below zero.

Linux only (/proc). The parsing is kept in pure functions so it can be tested on text.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from pathlib import Path

PROC = Path("/proc")


@dataclass(frozen=True)
class ProcessTimes:
    """One line of /proc/<pid>/stat, the fields this module needs; times in clock ticks."""

    pid: int
    comm: str
    ppid: int
    own_ticks: int  # utime + stime
    reaped_children_ticks: int  # cutime + cstime


@dataclass(frozen=True)
class MachineTimes:
    """The first (`cpu`) line of /proc/stat, summed over all cores; clock ticks."""

    busy: int
    idle: int
    softirq: int


@dataclass(frozen=True)
class CpuSnapshot:
    at: float  # time.monotonic()
    machine: MachineTimes
    groups: dict[str, int] = field(default_factory=dict)  # ticks per group
    # Every process outside the groups (and this one): name and ticks, to name "other".
    outsiders: dict[int, tuple[str, int]] = field(default_factory=dict)


def parse_pid_stat(line: str) -> ProcessTimes:
    """Return the pid, name, parent and CPU times of a /proc/<pid>/stat line.

    The name (field 2) is in parentheses and may itself hold spaces and parentheses, so the
    fields after it are counted from its last closing parenthesis.
    """
    head, sep, tail = line.rpartition(")")
    if not sep or " (" not in head:
        raise ValueError(f"not a /proc/<pid>/stat line: {line[:80]!r}")
    pid_text, _, comm = head.partition(" (")
    fields = tail.split()
    # tail starts at field 3 (state): ppid is field 4, utime..cstime are fields 14..17.
    if len(fields) < 15:
        raise ValueError(f"/proc/<pid>/stat line too short: {line[:80]!r}")
    utime, stime, cutime, cstime = (int(x) for x in fields[11:15])
    return ProcessTimes(
        pid=int(pid_text),
        comm=comm,
        ppid=int(fields[1]),
        own_ticks=utime + stime,
        reaped_children_ticks=cutime + cstime,
    )


def parse_cpu_line(line: str) -> MachineTimes:
    """Return busy, idle and softirq ticks of the `cpu` line of /proc/stat.

    Fields: user nice system idle iowait irq softirq steal guest guest_nice. Guest time is
    already inside user and nice, so it is not added again; iowait counts as idle.
    """
    name, *values = line.split()
    if name != "cpu" or len(values) < 4:
        raise ValueError(f"not the cpu line of /proc/stat: {line[:80]!r}")
    ticks = [int(v) for v in values[:8]] + [0] * (8 - min(len(values), 8))
    user, nice, system, idle, iowait, irq, softirq, steal = ticks
    return MachineTimes(
        busy=user + nice + system + irq + softirq + steal, idle=idle + iowait, softirq=softirq
    )


def tree_members(processes: dict[int, ProcessTimes], root: int) -> set[int]:
    """Return the pids of `root` and its live descendants (none when `root` is gone)."""
    if root not in processes:
        return set()
    children: dict[int, list[int]] = {}
    for proc in processes.values():
        children.setdefault(proc.ppid, []).append(proc.pid)
    members, stack = set(), [root]
    while stack:
        pid = stack.pop()
        if pid not in members:
            members.add(pid)
            stack.extend(children.get(pid, []))
    return members


def tree_ticks(processes: dict[int, ProcessTimes], root: int) -> int:
    """Return the CPU ticks of `root` and its live descendants, each with its reaped children.

    0 when `root` is gone.
    """
    return sum(
        processes[pid].own_ticks + processes[pid].reaped_children_ticks
        for pid in tree_members(processes, root)
    )


def busiest_outsiders(before: CpuSnapshot, after: CpuSnapshot, top: int = 3) -> list:
    """Return the `top` process names outside the groups that used the most ticks between
    the snapshots, as (name, ticks), processes of one name summed."""
    by_name: dict[str, int] = {}
    for pid, (name, ticks) in after.outsiders.items():
        earlier = before.outsiders.get(pid)
        used = ticks - earlier[1] if earlier and earlier[0] == name else ticks
        by_name[name] = by_name.get(name, 0) + used
    ranked = sorted(by_name.items(), key=lambda item: (-item[1], item[0]))
    return [(name, ticks) for name, ticks in ranked[:top] if ticks > 0]


def cpu_used(before: CpuSnapshot, after: CpuSnapshot, clock_ticks: int) -> dict:
    """Return cores used per group and by the machine between two snapshots.

    `groups` maps each group to cores (CPU-seconds per wall second); `machine_busy` and
    `machine_idle` are cores of the whole machine (they add up to its core count),
    `softirq` is the part of busy in softirq (it may also be in a group's time), and `other`
    is busy less every group: anything else running and kernel time charged to no group;
    `busiest_others` names the processes outside the groups that used the most of it.
    """
    seconds = after.at - before.at
    if seconds <= 0:
        raise ValueError("the second snapshot must be taken after the first")

    def cores(ticks: int) -> float:
        return round(ticks / clock_ticks / seconds, 3)

    groups = {name: cores(after.groups[name] - before.groups.get(name, 0)) for name in after.groups}
    busy = cores(after.machine.busy - before.machine.busy)
    return {
        "seconds": round(seconds, 2),
        "groups": groups,
        "machine_busy": busy,
        "machine_idle": cores(after.machine.idle - before.machine.idle),
        "softirq": cores(after.machine.softirq - before.machine.softirq),
        "other": round(busy - sum(groups.values()), 3),
        "busiest_others": [
            [name, cores(ticks)] for name, ticks in busiest_outsiders(before, after)
        ],
    }


def read_processes(proc: Path = PROC) -> dict[int, ProcessTimes]:
    """Return every process's times now (processes that end while being read are left out)."""
    out: dict[int, ProcessTimes] = {}
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            line = (entry / "stat").read_text()
        except (FileNotFoundError, ProcessLookupError, PermissionError):
            continue
        out[int(entry.name)] = parse_pid_stat(line)
    return out


def read_machine(proc: Path = PROC) -> MachineTimes:
    with open(proc / "stat") as fh:
        return parse_cpu_line(fh.readline())


def snapshot(roots: dict[str, list[int]]) -> CpuSnapshot:
    """Take the machine's times and each group's: `roots` maps a group to its root pids.

    The group `wrk` is always added: this process's reaped-children time (see the module).
    """
    at = time.monotonic()
    machine = read_machine()
    processes = read_processes()
    groups = {name: sum(tree_ticks(processes, pid) for pid in pids) for name, pids in roots.items()}
    me = processes.get(os.getpid())
    groups["wrk"] = me.reaped_children_ticks if me else 0
    members = {os.getpid()}.union(
        *(tree_members(processes, pid) for pids in roots.values() for pid in pids)
    )
    outsiders = {
        pid: (proc.comm, proc.own_ticks + proc.reaped_children_ticks)
        for pid, proc in processes.items()
        if pid not in members
    }
    return CpuSnapshot(at=at, machine=machine, groups=groups, outsiders=outsiders)


def clock_ticks() -> int:
    return os.sysconf("SC_CLK_TCK")


def postmaster_of(processes: dict[int, ProcessTimes], backend_pid: int) -> int | None:
    """Return the postmaster's pid given one backend's, or None when that backend is not a
    PostgreSQL process of this machine (a server elsewhere, or in another pid namespace)."""
    backend = processes.get(backend_pid)
    parent = processes.get(backend.ppid) if backend else None
    if backend is None or parent is None:
        return None
    if not (backend.comm.startswith("postgres") and parent.comm.startswith("postgres")):
        return None
    return parent.pid
