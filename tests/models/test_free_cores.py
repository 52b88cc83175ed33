"""The free cores are measured from two samples of /proc/stat, over this process's affinity mask, without its own
CPU time; llama.cpp gets that many threads (rounded half up, at least 1), or PLAYEVAL_THREADS when set.

The /proc files here are written out, so each case is the arithmetic on known ticks, not the test machine's load.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from playeval.models.providers.free_cores import (
    ProcReaders,
    choose_threads,
    cpu_times,
    env_threads,
    free_cores,
    own_ticks,
    usable_cores,
)
from playeval.models.providers.local import default_threads

COLUMNS = ("user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal", "guest", "guest_nice")
START = {"user": 1000, "nice": 10, "system": 300, "idle": 5000, "iowait": 40, "irq": 0, "softirq": 7, "steal": 0,
         "guest": 0, "guest_nice": 0}


def stat_text(*cpus: dict[str, int]) -> str:
    """A /proc/stat with one line per CPU (each START plus the ticks given), the summary line first, as Linux
    writes it."""
    rows = [[START[column] + cpu.get(column, 0) for column in COLUMNS] for cpu in cpus]
    summary = [sum(row[index] for row in rows) for index in range(len(COLUMNS))]
    lines = [f"cpu  {' '.join(map(str, summary))}"]
    lines += [f"cpu{number} {' '.join(map(str, row))}" for number, row in enumerate(rows)]
    return "\n".join([*lines, "intr 38045007 0 0", "ctxt 123456", "btime 1700000000", "processes 28838", ""])


def self_stat_text(utime: int, stime: int = 0, name: str = "python3") -> str:
    """A /proc/self/stat with ``utime`` and ``stime`` in fields 14 and 15."""
    return (f"28838 ({name}) R 28833 28833 20520 0 -1 4194304 96 0 0 0 {utime} {stime} 0 0 20 0 3 0 2980150 "
            "3133440 382 18446744073709551615 0 0 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0")


def _one_after_another(*values: str) -> Callable[[], str]:
    found: Iterator[str] = iter(values)
    return lambda: next(found)


def _refuse() -> str:
    raise FileNotFoundError("/proc/stat")


def readers(first: tuple[dict[str, int], ...], second: tuple[dict[str, int], ...], *, mine: int = 0,
            cpus: frozenset[int] = frozenset({0, 1}), slept: list[float] | None = None) -> ProcReaders:
    """Readers whose /proc/stat goes from ``first`` to ``second`` while this process runs ``mine`` ticks."""
    waits = [] if slept is None else slept
    return ProcReaders(stat=_one_after_another(stat_text(*first), stat_text(*second)),
                       self_stat=_one_after_another(self_stat_text(500, 100), self_stat_text(500 + mine, 100)),
                       affinity=lambda: cpus, loadavg=lambda: pytest.fail("the load average was read"),
                       sleep=waits.append)


IDLE: tuple[dict[str, int], ...] = ({}, {})


def test_idle_cores_are_all_free_and_each_gets_a_thread() -> None:
    slept: list[float] = []
    assert free_cores(0.2, readers(IDLE, ({"idle": 20}, {"idle": 20}), slept=slept)) == 2.0
    assert slept == [0.2]
    assert choose_threads({}, readers=readers(IDLE, ({"idle": 20}, {"idle": 20}))) == 2


def test_cores_other_processes_keep_busy_leave_one_thread() -> None:
    busy = ({"user": 15, "system": 5}, {"user": 20})
    assert free_cores(0.2, readers(IDLE, busy)) == 0.0
    assert choose_threads({}, readers=readers(IDLE, busy)) == 1


def test_this_process_s_own_time_is_not_counted_as_contention() -> None:
    busy = ({"user": 20}, {"user": 18, "system": 2})
    assert free_cores(0.2, readers(IDLE, busy, mine=40)) == 2.0
    assert free_cores(0.2, readers(IDLE, busy, mine=20)) == 1.0  # another process ran the other 20 ticks
    assert choose_threads({}, readers=readers(IDLE, busy, mine=40)) == 2


@pytest.mark.parametrize(("others", "free", "threads"), [
    (12, 1.4, 1),  # 0.6 of a core busy: 1.4 rounds down
    (10, 1.5, 2),  # half a core: rounds up
    (8, 1.6, 2),
    (28, 0.6, 1),
    (36, 0.2, 1),  # nearly nothing free: still one thread
])
def test_a_part_busy_machine_rounds_the_free_cores_half_up(others: int, free: float, threads: int) -> None:
    """Two CPUs, 20 ticks each over the sample: ``others`` of the 40 went to other processes."""
    second = ({"user": min(others, 20), "idle": 20 - min(others, 20)},
              {"user": others - min(others, 20), "idle": 20 - (others - min(others, 20))})
    assert free_cores(0.2, readers(IDLE, second)) == pytest.approx(free)
    assert choose_threads({}, readers=readers(IDLE, second)) == threads


def test_only_the_cpus_of_the_affinity_mask_count() -> None:
    """CPU 0 is saturated by others, CPU 1, the only one this process may use, is idle."""
    second = ({"user": 20}, {"idle": 20})
    assert free_cores(0.2, readers(IDLE, second, cpus=frozenset({1}))) == 1.0
    assert free_cores(0.2, readers(IDLE, second, cpus=frozenset({0}))) == 0.0
    assert free_cores(0.2, readers(IDLE, second)) == 1.0
    assert choose_threads({}, readers=readers(IDLE, ({"idle": 20}, {"idle": 20}), cpus=frozenset({1}))) == 1


def test_iowait_is_idle_steal_is_busy_and_guest_time_is_not_counted_twice() -> None:
    second = ({"iowait": 20}, {"steal": 20})
    assert free_cores(0.2, readers(IDLE, second)) == 1.0
    # guest ticks are inside user already: 10 of CPU 1's 20 ticks ran a guest, all 20 were busy
    second = ({"idle": 20}, {"user": 20, "guest": 10})
    assert free_cores(0.2, readers(IDLE, second)) == 1.0


def test_the_line_for_a_cpu_outside_the_mask_or_offline_adds_nothing() -> None:
    text = stat_text({}, {"user": 5})
    assert cpu_times(text, frozenset({1})).busy == START["user"] + 5 + START["nice"] + START["system"] + 7
    assert cpu_times(text, frozenset({1, 7})).cpus == 1  # CPU 7 has no line


def test_the_process_name_may_hold_spaces_and_parentheses() -> None:
    assert own_ticks(self_stat_text(120, 30, name="a (b) c)")) == 150


def test_without_proc_the_load_average_stands_in() -> None:
    def load(value: float) -> ProcReaders:
        return ProcReaders(stat=_refuse, self_stat=_refuse, affinity=lambda: frozenset({0, 1}),
                           loadavg=lambda: (value, 0.0, 0.0), sleep=lambda _: None)

    assert free_cores(0.2, load(0.5)) == 1.5
    assert free_cores(0.2, load(3.0)) == 0.0
    assert choose_threads({}, readers=load(0.4)) == 2
    assert choose_threads({}, readers=load(1.8)) == 1


def test_with_neither_proc_nor_a_load_average_every_core_counts_as_free() -> None:
    def no_load() -> tuple[float, float, float]:
        raise OSError("getloadavg")

    nothing = ProcReaders(stat=_refuse, self_stat=_refuse, affinity=lambda: frozenset({0, 1, 2}), loadavg=no_load,
                          sleep=lambda _: None)
    assert free_cores(0.2, nothing) == 3.0 and choose_threads({}, readers=nothing) == 3


def test_a_sample_in_which_no_tick_passed_uses_the_load_average() -> None:
    frozen = ProcReaders(stat=lambda: stat_text({}, {}), self_stat=lambda: self_stat_text(5),
                         affinity=lambda: frozenset({0, 1}), loadavg=lambda: (1.25, 0.0, 0.0), sleep=lambda _: None)
    assert free_cores(0.2, frozen) == 0.75


def test_the_sample_must_take_some_time() -> None:
    with pytest.raises(ValueError, match="sample_s"):
        free_cores(0.0, readers(IDLE, IDLE))


def test_playeval_threads_wins_and_nothing_is_measured() -> None:
    untouched = ProcReaders(stat=lambda: pytest.fail("/proc/stat was read"), self_stat=_refuse,
                            affinity=lambda: frozenset({0}), loadavg=lambda: pytest.fail("load read"),
                            sleep=lambda _: pytest.fail("slept"))
    assert choose_threads({"PLAYEVAL_THREADS": "3"}, readers=untouched) == 3  # more than the cores: asked for
    assert choose_threads({"PLAYEVAL_THREADS": " 1 "}, readers=untouched) == 1
    assert env_threads({"PLAYEVAL_THREADS": "  "}) is None


@pytest.mark.parametrize("raw", ["0", "two", "-1", "1.5", "+2"])
def test_a_bad_playeval_threads_is_refused_in_default_threads_words(monkeypatch: pytest.MonkeyPatch,
                                                                     raw: str) -> None:
    monkeypatch.setenv("PLAYEVAL_THREADS", raw)
    with pytest.raises(ValueError) as old:
        default_threads()
    with pytest.raises(ValueError) as new:
        choose_threads({"PLAYEVAL_THREADS": raw})
    assert str(new.value) == str(old.value) and "PLAYEVAL_THREADS" in str(new.value)


def test_the_process_environment_is_read_when_no_mapping_is_given(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PLAYEVAL_THREADS", "2")
    assert choose_threads() == 2


def test_on_this_machine_the_measure_is_within_the_usable_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PLAYEVAL_THREADS", raising=False)
    cores = usable_cores()
    assert 0.0 <= free_cores(0.05) <= cores
    assert 1 <= choose_threads(sample_s=0.05) <= cores
