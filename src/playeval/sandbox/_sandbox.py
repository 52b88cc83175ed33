"""``Sandbox``: runs untrusted functions in warm, confined worker processes; ``run_function`` uses a default one."""

from __future__ import annotations

import json
import keyword
import math
import threading
import weakref
from collections.abc import Iterable, Sequence
from types import TracebackType
from typing import Final, TypeAlias

from ._errors import SandboxError, as_reason
from ._pool import WorkerPool
from ._process import Undelivered, WorkerConfig
from ._protocol import encode

JsonValue: TypeAlias = bool | int | float | str | list["JsonValue"] | dict[str, "JsonValue"] | None

MAX_TIMEOUT_S: Final = 60.0
_DETAIL_LIMIT: Final = 2000
_ANSWER_OVERHEAD: Final = 1 << 16
_MAX_REQUEST_BYTES: Final = 32 << 20


def _read_answer(body: bytes, count: int) -> tuple[list[JsonValue] | SandboxError, bool]:
    """The results or the error in a worker's answer, and whether the worker may be kept."""
    try:
        answer = json.loads(body)
    except (ValueError, RecursionError):
        return SandboxError("crashed", "the worker's answer is not JSON"), False
    if not isinstance(answer, dict):
        return SandboxError("crashed", "the worker's answer is malformed"), False
    if answer.get("ok") is True:
        results = answer.get("results")
        if isinstance(results, list) and len(results) == count:
            return results, True
        return SandboxError("crashed", "the worker answered the wrong number of results"), False
    reason, detail = as_reason(answer.get("reason")), answer.get("detail")
    if reason is None or not isinstance(detail, str):
        return SandboxError("crashed", "the worker's answer is malformed"), False
    printable = detail[:_DETAIL_LIMIT].encode("utf-8", "replace").decode("utf-8")  # no lone surrogates
    return SandboxError(reason, printable), reason != "memory"


class Sandbox:
    """Runs untrusted Python functions in warm worker processes that this object owns.

    ``workers`` processes at most (each started on first need and kept warm); ``memory_mb`` of address space
    each; answers of at most ``max_output_bytes`` of JSON; sources of at most ``max_source_chars``; a worker
    is replaced after ``max_calls_per_worker`` requests. Thread-safe and blocking: async code calls it through
    ``asyncio.to_thread``. ``close()`` (or leaving a ``with`` block) kills the workers; an unclosed sandbox is
    closed when it is garbage-collected or when the interpreter exits.
    """

    def __init__(
        self,
        *,
        workers: int = 2,
        memory_mb: int = 256,
        max_output_bytes: int = 1 << 20,
        max_source_chars: int = 50_000,
        max_calls_per_worker: int = 1000,
        start_timeout_s: float = 10.0,
    ) -> None:
        if workers < 1 or memory_mb < 64 or max_output_bytes < 1024 or max_source_chars < 1:
            raise ValueError("workers >= 1, memory_mb >= 64, max_output_bytes >= 1024 and max_source_chars >= 1")
        self._max_output_bytes = max_output_bytes
        self._max_source_chars = max_source_chars
        config = WorkerConfig(
            memory_bytes=memory_mb << 20,
            cpu_seconds=int(3 * MAX_TIMEOUT_S),
            max_output_bytes=max_output_bytes,
            start_timeout_s=start_timeout_s,
        )
        self._pool = WorkerPool(config, size=workers, max_calls=max_calls_per_worker)
        self._finalizer = weakref.finalize(self, self._pool.close)

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()

    def close(self) -> None:
        """Kill every worker; later calls raise ``RuntimeError``. Idempotent."""
        self._finalizer()

    def worker_pids(self) -> list[int]:
        """Process ids of the live workers (for monitoring, and for tests that kill one)."""
        return self._pool.pids()

    def isolation(self) -> dict[str, str]:
        """What confinement a worker achieved on this machine, layer by layer (starts a worker if needed)."""
        worker = self._pool.acquire(0.0)
        healthy = False
        try:
            report = dict(worker.ready())
            healthy = True
        finally:
            self._pool.release(worker, healthy)
        return report

    def _request(
        self, source: str, name: str, inputs: Iterable[Sequence[object]], timeout_s: float
    ) -> tuple[bytes, int]:
        """The framed request and its number of rows, or the caller's error."""
        if not isinstance(source, str):
            raise TypeError("source must be a string")
        if not (isinstance(name, str) and name.isidentifier() and not name.startswith("_")):
            raise ValueError(f"name must be a public identifier, not {name!r}")
        if keyword.iskeyword(name):
            raise ValueError(f"name must not be a keyword: {name!r}")
        if isinstance(timeout_s, bool) or not isinstance(timeout_s, int | float):
            raise TypeError("timeout_s must be a number")
        if not (math.isfinite(timeout_s) and 0 < timeout_s <= MAX_TIMEOUT_S):
            raise ValueError(f"timeout_s must be in (0, {MAX_TIMEOUT_S:g}]")
        given = None if isinstance(inputs, str | bytes) else list(inputs)
        if given is None or not all(isinstance(row, tuple | list) for row in given):
            raise TypeError("inputs must be a list of argument tuples")
        rows = [list(row) for row in given]
        if len(source) > self._max_source_chars:
            raise SandboxError(
                "forbidden", f"the code has {len(source)} characters, more than {self._max_source_chars}"
            )
        try:
            request = encode({"source": source, "name": name, "inputs": rows})
        except (TypeError, ValueError) as error:
            raise TypeError(f"inputs must hold JSON values only: {error}") from None
        if len(request) > _MAX_REQUEST_BYTES:
            raise ValueError(f"the request takes {len(request)} bytes, more than {_MAX_REQUEST_BYTES}")
        return request, len(rows)

    def run_function(
        self, source: str, name: str, inputs: Iterable[Sequence[object]], timeout_s: float = 2.0
    ) -> list[JsonValue]:
        """Define ``source`` in a worker, call ``name(*row)`` for each row of ``inputs``, return the results.

        See the package docstring for the contract. Raises ``SandboxError`` when the code cannot produce the
        results; ``TypeError``/``ValueError`` for a bad call; ``RuntimeError`` once the sandbox is closed.
        """
        request, count = self._request(source, name, inputs, timeout_s)
        for attempt in range(2):
            worker = self._pool.acquire(timeout_s)
            healthy = False
            try:
                worker.ready()
                outcome, healthy = _read_answer(
                    worker.exchange(request, timeout_s, self._max_output_bytes + _ANSWER_OVERHEAD), count
                )
            except Undelivered:
                if attempt == 0:
                    continue  # the worker was gone before it read the request: nothing ran, send it again
                raise SandboxError("crashed", "two workers in a row died before taking the request") from None
            finally:
                self._pool.release(worker, healthy)
            if isinstance(outcome, SandboxError):
                raise outcome
            return outcome
        raise AssertionError("unreachable")


_default_lock: Final = threading.Lock()
_default_holder: Final[list[Sandbox]] = []


def _default_sandbox() -> Sandbox:
    """The process's default sandbox, created on first use; its finalizer closes it at interpreter exit."""
    with _default_lock:
        if not _default_holder:
            _default_holder.append(Sandbox())
        return _default_holder[0]


def run_function(source: str, name: str, inputs: Iterable[Sequence[object]], timeout_s: float = 2.0) -> list[JsonValue]:
    """``Sandbox.run_function`` on the default sandbox (two warm workers, created lazily, closed at exit)."""
    return _default_sandbox().run_function(source, name, inputs, timeout_s)
