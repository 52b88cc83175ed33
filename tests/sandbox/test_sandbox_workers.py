"""Worker processes: their confinement, their replacement after a kill, a timeout or a death, and their end."""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path

import pytest
from sandbox_helpers import SPIN, WORD_RESULTS, WORD_RULE, WORDS, assert_healthy

from playeval.sandbox import Sandbox, SandboxError

pytestmark = pytest.mark.timeout(120)


def _cpu_ticks(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime


def _wait_until_busy(pid: int) -> None:
    """Wait until the worker burns CPU, i.e. it is inside the rule (bounded, so a bug cannot hang the test)."""
    start = _cpu_ticks(pid)
    for _ in range(500):
        time.sleep(0.01)
        if _cpu_ticks(pid) > start + 5:
            return
    raise AssertionError("the worker never started running the rule")


def _children() -> list[int]:
    children: list[int] = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == os.getpid():
                children.append(int(entry.name))
    return sorted(children)


def _gone(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return True
    return state == "Z"


def test_kill_9_in_the_middle_of_a_rule_is_crashed_and_the_next_call_works() -> None:
    with Sandbox(workers=1) as sandbox:
        assert_healthy(sandbox)
        (pid,) = sandbox.worker_pids()
        errors: list[SandboxError] = []

        def run_spinning_rule() -> None:
            try:
                sandbox.run_function(SPIN, "rule", [("x",)], timeout_s=60)
            except SandboxError as error:
                errors.append(error)

        caller = threading.Thread(target=run_spinning_rule)
        caller.start()
        _wait_until_busy(pid)
        os.kill(pid, signal.SIGKILL)
        caller.join(30)
        assert not caller.is_alive()
        assert [error.reason for error in errors] == ["crashed"]
        assert "SIGKILL" in errors[0].detail
        assert_healthy(sandbox)
        assert pid not in sandbox.worker_pids()


def test_a_worker_that_died_while_idle_is_replaced_without_an_error() -> None:
    with Sandbox(workers=1) as sandbox:
        assert_healthy(sandbox)
        (pid,) = sandbox.worker_pids()
        os.kill(pid, signal.SIGKILL)
        assert_healthy(sandbox)
        assert sandbox.worker_pids() != [pid]


def test_a_timed_out_worker_is_killed_and_replaced() -> None:
    with Sandbox(workers=1) as sandbox:
        assert_healthy(sandbox)
        (pid,) = sandbox.worker_pids()
        with pytest.raises(SandboxError) as caught:
            sandbox.run_function(SPIN, "rule", [("x",)], timeout_s=0.3)
        assert caught.value.reason == "timeout"
        assert _gone(pid)
        assert_healthy(sandbox)
        assert len(sandbox.worker_pids()) == 1


def test_a_worker_is_kept_warm_across_calls_and_refusals() -> None:
    with Sandbox(workers=1) as sandbox:
        assert_healthy(sandbox)
        pids = sandbox.worker_pids()
        for source in ("import os\ndef rule(w):\n    return 1\n", "def rule(w):\n    return 1 / 0\n"):
            with pytest.raises(SandboxError):
                sandbox.run_function(source, "rule", [("x",)])
        assert_healthy(sandbox)
        assert sandbox.worker_pids() == pids


def test_a_worker_is_replaced_after_running_out_of_memory() -> None:
    with Sandbox(workers=1) as sandbox:
        assert_healthy(sandbox)
        (pid,) = sandbox.worker_pids()
        with pytest.raises(SandboxError) as caught:
            sandbox.run_function("def rule(w):\n    return len('x' * 10 ** 10)\n", "rule", [("x",)])
        assert caught.value.reason == "memory"
        assert_healthy(sandbox)
        assert sandbox.worker_pids() != [pid]


def test_a_worker_is_retired_after_its_call_allowance() -> None:
    with Sandbox(workers=1, max_calls_per_worker=2) as sandbox:
        seen = set()
        for _ in range(5):
            assert_healthy(sandbox)
            seen.update(sandbox.worker_pids())
        assert len(seen) >= 2


def test_close_kills_the_workers_and_refuses_later_calls() -> None:
    sandbox = Sandbox(workers=2)
    assert_healthy(sandbox)
    pids = sandbox.worker_pids()
    sandbox.close()
    sandbox.close()
    assert all(_gone(pid) for pid in pids)
    with pytest.raises(RuntimeError):
        sandbox.run_function(WORD_RULE, "rule", WORDS)


def test_close_during_a_call_ends_that_call() -> None:
    sandbox = Sandbox(workers=1)
    assert_healthy(sandbox)
    (pid,) = sandbox.worker_pids()
    errors: list[SandboxError] = []

    def run_spinning_rule() -> None:
        try:
            sandbox.run_function(SPIN, "rule", [("x",)], timeout_s=60)
        except SandboxError as error:
            errors.append(error)

    caller = threading.Thread(target=run_spinning_rule)
    caller.start()
    _wait_until_busy(pid)
    sandbox.close()
    caller.join(30)
    assert not caller.is_alive()
    assert [error.reason for error in errors] == ["crashed"]
    assert _gone(pid)


def test_concurrent_callers_share_the_workers() -> None:
    with Sandbox(workers=2) as sandbox:
        failures: list[str] = []

        def call_many() -> None:
            for _ in range(20):
                if sandbox.run_function(WORD_RULE, "rule", WORDS) != WORD_RESULTS:
                    failures.append("wrong results")

        callers = [threading.Thread(target=call_many) for _ in range(4)]
        for caller in callers:
            caller.start()
        for caller in callers:
            caller.join(60)
        assert failures == []
        assert 1 <= len(sandbox.worker_pids()) <= 2


def test_no_worker_outlives_its_sandbox() -> None:
    before = _children()
    with Sandbox(workers=2) as sandbox:
        assert_healthy(sandbox)
        with pytest.raises(SandboxError):
            sandbox.run_function(SPIN, "rule", [("x",)], timeout_s=0.2)
        assert_healthy(sandbox)
        assert set(_children()) - set(before) == set(sandbox.worker_pids())
    assert [pid for pid in _children() if pid not in before and not _gone(pid)] == []


def test_the_worker_inherits_no_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-canary-not-for-rules")
    with Sandbox(workers=1) as sandbox:
        report = sandbox.isolation()
        (pid,) = sandbox.worker_pids()
        assert report["environment"].endswith("0 variables now")
        try:
            environment = Path(f"/proc/{pid}/environ").read_bytes()
        except PermissionError:
            pytest.skip("cannot read another user's /proc/PID/environ here")
        assert b"canary" not in environment


def test_the_isolation_report_shows_every_layer_that_took_effect() -> None:
    with Sandbox(workers=1) as sandbox:
        report = sandbox.isolation()
    assert set(report) >= {"environment", "namespaces", "network", "filesystem", "user", "rlimits", "seccomp"}
    assert "as=256 MiB" in report["rlimits"] and "nproc=0" in report["rlimits"] and "fsize=0" in report["rlimits"]
    if report["seccomp"].startswith("on"):
        assert report["final_probes"] == "/etc/passwd unreachable (EPERM); fork blocked (EPERM); socket blocked (EPERM)"
    if "net" in report["namespaces"].split(";")[0]:
        assert "interfaces: lo;" in report["network"] and "no route out" in report["network"]
    if os.geteuid() == 0:
        assert report["user"].startswith("uid 65534")
        assert report["filesystem"] == "chroot into an empty, deleted directory"
        assert report["fork_probe"].startswith("fork blocked")


def test_a_forked_caller_starts_its_own_workers() -> None:
    with Sandbox(workers=1) as sandbox:
        assert_healthy(sandbox)
        parent_pids = sandbox.worker_pids()
        child = os.fork()
        if child == 0:  # pragma: no cover - runs in the child
            try:
                ok = sandbox.run_function(WORD_RULE, "rule", WORDS) == WORD_RESULTS
                ok = ok and not set(sandbox.worker_pids()) & set(parent_pids)
                sandbox.close()
            except BaseException:
                ok = False
            os._exit(0 if ok else 1)
        _, status = os.waitpid(child, 0)
        assert os.waitstatus_to_exitcode(status) == 0
        assert sandbox.worker_pids() == parent_pids
        assert_healthy(sandbox)


def test_a_set_of_strings_iterates_in_the_same_order_in_every_worker() -> None:
    """A string's hash is salted per interpreter unless the seed is fixed; a rule that reads a set's order (the
    first letter of ``set(word)``) must give the same truth whichever worker runs it."""
    source = "def rule(word):\n    return ''.join(set(word))\n"
    words = [("abcdefghijklmnopqrstuvwxyz",), ("thequickbrownfx",)]
    answers = []
    for _ in range(4):
        with Sandbox(workers=1) as sandbox:  # a fresh worker each time
            answers.append(sandbox.run_function(source, "rule", words))
    assert all(answer == answers[0] for answer in answers), answers
