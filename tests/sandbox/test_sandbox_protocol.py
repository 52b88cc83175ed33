"""The caller never trusts a worker: frames are bounded in time and size, answers are checked."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from dataclasses import replace

import pytest
from sandbox_helpers import SPIN, assert_healthy

from playeval.sandbox import Sandbox, SandboxError
from playeval.sandbox._process import WorkerConfig, WorkerProcess
from playeval.sandbox._protocol import (
    HEADER,
    FrameEOF,
    FrameTimeout,
    FrameTooLarge,
    encode,
    read_frame_before,
    unread_bytes,
)
from playeval.sandbox._sandbox import _read_answer

pytestmark = pytest.mark.timeout(60)


@pytest.fixture
def pipe() -> Iterator[tuple[int, int]]:
    reader, writer = os.pipe()
    yield reader, writer
    for fd in (reader, writer):
        try:
            os.close(fd)
        except OSError:
            pass


def test_a_frame_round_trips(pipe: tuple[int, int]) -> None:
    reader, writer = pipe
    os.write(writer, encode({"ok": True, "results": [1, "é", None]}))
    assert json.loads(read_frame_before(reader, time.monotonic() + 5, 1024)) == {"ok": True, "results": [1, "é", None]}


def test_a_frame_larger_than_the_limit_is_refused_before_it_is_read(pipe: tuple[int, int]) -> None:
    reader, writer = pipe
    os.write(writer, HEADER.pack(10**9))
    with pytest.raises(FrameTooLarge):
        read_frame_before(reader, time.monotonic() + 5, 1 << 20)


def test_a_silent_writer_times_out(pipe: tuple[int, int]) -> None:
    reader, writer = pipe
    os.write(writer, HEADER.pack(100) + b"{")
    with pytest.raises(FrameTimeout):
        read_frame_before(reader, time.monotonic() + 0.1, 1024)


def test_a_closed_writer_is_end_of_file(pipe: tuple[int, int]) -> None:
    reader, writer = pipe
    os.write(writer, HEADER.pack(100) + b"{")
    os.close(writer)
    with pytest.raises(FrameEOF):
        read_frame_before(reader, time.monotonic() + 5, 1024)


def test_unread_bytes_are_seen_from_the_writing_end(pipe: tuple[int, int]) -> None:
    reader, writer = pipe
    os.write(writer, b"12345")
    os.read(reader, 2)
    assert unread_bytes(writer) == 3


def test_a_frame_already_waiting_is_read_even_past_the_deadline(pipe: tuple[int, int]) -> None:
    reader, writer = pipe
    os.write(writer, encode({"hello": True}))
    assert json.loads(read_frame_before(reader, time.monotonic() - 10, 1024)) == {"hello": True}


@pytest.mark.parametrize(
    ("body", "reason", "keep"),
    [
        (b'{"ok":true,"results":[true,false]}', None, True),
        (b'{"ok":false,"reason":"forbidden","detail":"import os"}', "forbidden", True),
        (b'{"ok":false,"reason":"memory","detail":"out of memory"}', "memory", False),
        (b'{"ok":true,"results":[true]}', "crashed", False),
        (b'{"ok":false,"reason":"pwned","detail":"x"}', "crashed", False),
        (b'{"ok":false,"reason":"timeout"}', "crashed", False),
        (b"[1, 2]", "crashed", False),
        (b"not json", "crashed", False),
        (b"[" * 100_000 + b"]" * 100_000, "crashed", False),
    ],
    ids=["results", "refusal", "memory", "wrong-count", "unknown-reason", "no-detail", "not-object", "not-json",
         "deep"],
)  # fmt: skip
def test_answers_are_checked(body: bytes, reason: str | None, keep: bool) -> None:
    outcome, healthy = _read_answer(body, 2)
    if reason is None:
        assert outcome == [True, False]
    else:
        assert isinstance(outcome, SandboxError)
        assert outcome.reason == reason
    assert healthy is keep


def test_a_replacement_worker_that_waited_long_is_still_used() -> None:
    with Sandbox(workers=1, start_timeout_s=0.5) as sandbox:
        assert_healthy(sandbox)
        with pytest.raises(SandboxError):
            sandbox.run_function(SPIN, "rule", [("x",)], timeout_s=0.2)
        time.sleep(1.0)  # longer than start_timeout_s: the replacement's hello has long been waiting
        assert_healthy(sandbox)


def test_a_worker_that_cannot_start_is_reported_with_its_diagnostics() -> None:
    config = WorkerConfig(memory_bytes=256 << 20, cpu_seconds=60, max_output_bytes=1 << 20, start_timeout_s=5.0)
    broken = WorkerProcess(replace(config, python="/bin/false"))
    with pytest.raises(SandboxError) as caught:
        broken.ready()
    assert caught.value.reason == "crashed"
    assert "did not start" in caught.value.detail
    assert not broken.alive()
