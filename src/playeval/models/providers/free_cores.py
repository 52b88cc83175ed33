"""How many of this process's cores other processes leave free, and so how many threads llama.cpp should use.

llama.cpp splits each matrix product evenly over its threads and waits for the slowest. On a machine where other
processes already keep the cores busy, a thread per core means every step waits for a thread the scheduler has not
run yet: measured on two busy cores, two threads generated 0.25 to 0.63 tokens/s where one thread gave 1.07. So the
thread count is the cores left free, measured over a short sample of ``/proc/stat`` (the CPUs of this process's
affinity mask only, and not counting this process's own CPU time, which its threads are about to stop using), with
at least one thread.

The readers of ``/proc`` and the clock are passed in (``ProcReaders``) so the arithmetic is tested on written-out
files, not on whatever the test machine is doing.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

THREADS_VARIABLE = "PLAYEVAL_THREADS"
# /proc/stat's per-CPU columns: user nice system idle iowait irq softirq steal guest guest_nice. The guest columns
# are already inside user and nice, so a CPU's time is the first eight; idle and iowait are time nothing ran.
_TIME_COLUMNS = 8
_IDLE_COLUMNS = (3, 4)
# /proc/PID/stat after the ")" that closes the command name: field 3 (state) onwards; utime and stime are 14 and 15.
_UTIME_AFTER_NAME = 14 - 3
_STIME_AFTER_NAME = 15 - 3


def _proc_stat() -> str:
    return Path("/proc/stat").read_text(encoding="ascii")


def _proc_self_stat() -> str:
    # the command name in it is whatever bytes the program set; only the numbers after it are read
    return Path("/proc/self/stat").read_text(encoding="utf-8", errors="replace")


def _affinity() -> frozenset[int]:
    try:
        return frozenset(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux: every CPU
        return frozenset(range(os.cpu_count() or 1))


@dataclass(frozen=True)
class ProcReaders:
    """Where the measurement reads from: ``/proc/stat``, ``/proc/self/stat``, the affinity mask, the load average,
    and the wait between the two samples."""

    stat: Callable[[], str] = _proc_stat
    self_stat: Callable[[], str] = _proc_self_stat
    affinity: Callable[[], frozenset[int]] = _affinity
    loadavg: Callable[[], tuple[float, float, float]] = os.getloadavg
    sleep: Callable[[float], None] = time.sleep


@dataclass(frozen=True)
class CpuTimes:
    """Clock ticks summed over a set of CPUs since boot (all of them, and those some process ran in), and how many
    of the set's CPUs ``/proc/stat`` has a line for."""

    total: int
    busy: int
    cpus: int


def cpu_times(stat: str, cpus: frozenset[int]) -> CpuTimes:
    """The ticks of the CPUs ``cpus`` in the text of ``/proc/stat`` (a CPU of the set without a line, being
    offline, adds nothing)."""
    total = busy = counted = 0
    for line in stat.splitlines():
        name, _, rest = line.partition(" ")
        if not name.startswith("cpu") or not name[3:].isdigit() or int(name[3:]) not in cpus:
            continue
        ticks = [int(value) for value in rest.split()[:_TIME_COLUMNS]]
        idle = sum(ticks[column] for column in _IDLE_COLUMNS if column < len(ticks))
        total += sum(ticks)
        busy += sum(ticks) - idle
        counted += 1
    return CpuTimes(total=total, busy=busy, cpus=counted)


def own_ticks(self_stat: str) -> int:
    """User plus system clock ticks this process (all its threads) has run, from the text of ``/proc/self/stat``.
    The command name in parentheses may hold spaces and parentheses itself, so the fields are counted from the
    last ``)``."""
    fields = self_stat[self_stat.rindex(")") + 1:].split()
    return int(fields[_UTIME_AFTER_NAME]) + int(fields[_STIME_AFTER_NAME])


def usable_cores(readers: ProcReaders | None = None) -> int:
    """The CPUs this process may run on: its affinity mask."""
    return max(1, len((readers or ProcReaders()).affinity()))


def free_cores(sample_s: float = 0.2, readers: ProcReaders | None = None) -> float:
    """Cores of this process's affinity mask that other processes left idle over the next ``sample_s`` seconds,
    from 0 to the mask's size.

    The busy ticks of the mask's CPUs between two reads of ``/proc/stat``, less this process's own ticks over the
    same interval, divided by the ticks one CPU had (so the clock rate never enters). Where ``/proc`` cannot be read
    (not Linux), the one-minute load average stands for the busy cores; it counts this process too and every CPU of
    the machine. Where neither is known, every usable core is taken as free.
    """
    if sample_s <= 0:
        raise ValueError(f"sample_s must be positive, not {sample_s!r}")
    readers = readers or ProcReaders()
    cpus = readers.affinity()
    cores = max(1, len(cpus))
    try:  # this process's ticks are read inside the machine's interval, so they are part of its busy ticks
        before = cpu_times(readers.stat(), cpus)
        mine_before = own_ticks(readers.self_stat())
        readers.sleep(sample_s)
        mine_after = own_ticks(readers.self_stat())
        after = cpu_times(readers.stat(), cpus)
    except OSError:
        return _free_by_load(cores, readers)
    elapsed = after.total - before.total
    if elapsed <= 0 or after.cpus == 0:  # no tick passed (too short a sample, a frozen /proc): nothing measured
        return _free_by_load(cores, readers)
    others = max(0, (after.busy - before.busy) - (mine_after - mine_before))
    busy_cores = others / (elapsed / after.cpus)
    return min(float(after.cpus), max(0.0, after.cpus - busy_cores))


def _free_by_load(cores: int, readers: ProcReaders) -> float:
    try:
        load = readers.loadavg()[0]
    except OSError:  # no load average either: nothing says the cores are busy
        return float(cores)
    return min(float(cores), max(0.0, cores - load))


def env_threads(env: Mapping[str, str]) -> int | None:
    """``PLAYEVAL_THREADS`` from ``env``, or None when it is unset or blank; a value that is not a whole number of
    at least 1 is refused with the same line as ``local.default_threads``."""
    raw = env.get(THREADS_VARIABLE, "").strip()
    if not raw:
        return None
    if not raw.isdigit() or int(raw) < 1:
        raise ValueError(f"{THREADS_VARIABLE} must be a whole number of threads, at least 1, not {raw!r}")
    return int(raw)


def choose_threads(env: Mapping[str, str] | None = None, *, sample_s: float = 0.2,
                   readers: ProcReaders | None = None) -> int:
    """llama.cpp's thread count: ``PLAYEVAL_THREADS`` when set (``env``, default the process environment), else
    the free cores rounded half up, at least 1 and at most the usable cores. Sampling takes ``sample_s``."""
    chosen = env_threads(os.environ if env is None else env)
    if chosen is not None:
        return chosen
    readers = readers or ProcReaders()
    free = free_cores(sample_s, readers)
    return max(1, min(usable_cores(readers), math.floor(free + 0.5)))
