"""The caller's handle on one worker process: start it, exchange one request, kill it, explain its death.

Nothing a worker sends is trusted: frames are read before a deadline and up to a size limit, and the caller
kills the worker (SIGKILL, then reaps it) whenever it is late, too talkative, or says something malformed.
"""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from ._errors import SandboxError, SandboxReason
from ._protocol import FrameEOF, FrameTimeout, FrameTooLarge, read_frame_before, unread_bytes, write_before

_BOOTSTRAP: Final = (
    "import sys, types\n"
    "config, folder, *paths = sys.argv[1:]\n"
    "sys.path[:0] = paths\n"
    "package = types.ModuleType('_playeval_sandbox_worker')\n"
    "package.__path__ = [folder]\n"
    "sys.modules['_playeval_sandbox_worker'] = package\n"
    "from _playeval_sandbox_worker._worker import main\n"
    "main(config)\n"
)
WORKER_ENVIRONMENT: Final = {"PYTHONHASHSEED": "0"}
"""A worker's whole environment. The fixed hash seed makes the order of a set or dict of strings the same in
every worker, so a rule's truth cannot depend on the process that ran it (``hash`` itself is not offered to
rules). The worker is started with ``-s -P`` rather than ``-I`` (which implies ``-E`` and would ignore the seed);
with no other variable set, that is the same isolation."""
_HELLO_LIMIT: Final = 1 << 16
_STDERR_LIMIT: Final = 4096
_REAP_SECONDS: Final = 2.0


@dataclass(frozen=True)
class WorkerConfig:
    """How workers are started and limited."""

    memory_bytes: int
    cpu_seconds: int
    max_output_bytes: int
    start_timeout_s: float
    python: str = sys.executable


class Undelivered(Exception):
    """The worker was gone before it had the whole request: nothing ran, the request may be sent again."""


def _import_paths() -> list[str]:
    spec = importlib.util.find_spec("RestrictedPython")
    if spec is None or spec.origin is None:
        raise RuntimeError("RestrictedPython is not installed; the sandbox needs it (pip install restrictedpython)")
    return [str(Path(spec.origin).resolve().parent.parent)]


class WorkerProcess:
    """One worker: started at once, ready after its hello, used by one caller at a time."""

    def __init__(self, config: WorkerConfig) -> None:
        settings = json.dumps(
            {"memory_bytes": config.memory_bytes, "cpu_seconds": config.cpu_seconds,
             "max_output_bytes": config.max_output_bytes}
        )  # fmt: skip
        folder = str(Path(__file__).resolve().parent)
        self._config = config
        self._popen = subprocess.Popen(
            [config.python, "-s", "-P", "-S", "-B", "-c", _BOOTSTRAP, settings, folder, *_import_paths()],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=WORKER_ENVIRONMENT,
            cwd="/",
            close_fds=True,
            start_new_session=True,
        )
        assert self._popen.stdin is not None and self._popen.stdout is not None
        os.set_blocking(self._popen.stdin.fileno(), False)
        self._started = time.monotonic()
        self._killed_by_caller = False
        self.isolation: dict[str, str] | None = None
        self.seconds_used = 0.0
        self.calls = 0

    @property
    def pid(self) -> int:
        return self._popen.pid

    def alive(self) -> bool:
        return self._popen.poll() is None

    def ready(self) -> dict[str, str]:
        """Wait for the worker's hello (once) and return its isolation report."""
        if self.isolation is not None:
            return self.isolation
        assert self._popen.stdout is not None
        try:
            body = read_frame_before(
                self._popen.stdout.fileno(), self._started + self._config.start_timeout_s, _HELLO_LIMIT
            )
            hello = json.loads(body)
            report = hello["isolation"]
            if not (isinstance(report, dict) and all(isinstance(v, str) for v in report.values())):
                raise ValueError("malformed report")
        except (FrameEOF, FrameTimeout, FrameTooLarge, ValueError, KeyError, TypeError, RecursionError) as error:
            self.signal_kill()
            self._reap()
            diagnostics = self._stderr()
            self.kill()
            raise SandboxError("crashed", f"the sandbox worker did not start ({error}); {diagnostics}") from None
        self.isolation = {str(key): value for key, value in report.items()}
        return self.isolation

    def exchange(self, request: bytes, timeout_s: float, reply_limit: int) -> bytes:
        """Send one framed request and return the answer's body, all within ``timeout_s``.

        Raises ``Undelivered`` when the worker was gone before it had read the whole request (the request pipe
        still holds unread bytes, so none of the code ran), and ``SandboxError`` (after killing the worker)
        when it is late, dies while running the code, or answers too much.
        """
        assert self._popen.stdin is not None and self._popen.stdout is not None
        started = time.monotonic()
        deadline = started + timeout_s
        self.calls += 1
        try:
            write_before(self._popen.stdin.fileno(), request, deadline)
        except FrameEOF:
            self.kill()
            raise Undelivered() from None
        except FrameTimeout:
            self.kill()
            raise SandboxError("timeout", f"the worker took no request within {timeout_s:g} s") from None
        try:
            return read_frame_before(self._popen.stdout.fileno(), deadline, reply_limit)
        except FrameTimeout:
            self.kill()
            raise SandboxError("timeout", f"the code ran longer than {timeout_s:g} s and was killed") from None
        except FrameTooLarge as error:
            self.kill()
            raise SandboxError("output_too_large", f"the worker announced {error.size} bytes") from None
        except FrameEOF:
            if unread_bytes(self._popen.stdin.fileno()) > 0:
                self.kill()  # it died before it had read the whole request, so none of the code ran
                raise Undelivered() from None
            reason, detail = self._death()
            raise SandboxError(reason, detail) from None
        finally:
            self.seconds_used += time.monotonic() - started

    def _reap(self) -> bool:
        """Wait a little for the worker to end; whether it did."""
        try:
            self._popen.wait(_REAP_SECONDS)
        except subprocess.TimeoutExpired:
            return False
        return True

    def _stderr(self) -> str:
        """The end of what a dead worker wrote to its stderr (the interpreter's last words, if any)."""
        stream = self._popen.stderr
        if stream is None or stream.closed or self.alive():
            return "no diagnostics"
        os.set_blocking(stream.fileno(), False)
        try:
            data = stream.read(_STDERR_LIMIT) or b""
        except OSError:
            data = b""
        text = data.decode("utf-8", "replace").strip()
        return f"stderr: {text[-600:]}" if text else "no diagnostics"

    def _death(self) -> tuple[SandboxReason, str]:
        """Why the worker closed its answers: reap it (killing it if it lingers) and read its diagnostics."""
        if not self._reap():
            self.kill()
            return "crashed", "the worker closed its output and was killed"
        status = self._popen.returncode
        diagnostics = self._stderr()
        if status < 0:
            number = -status
            name = signal.Signals(number).name if number in signal.valid_signals() else str(number)
            if number == signal.SIGXCPU:
                return "timeout", "the worker used up its CPU time limit"
            if self._killed_by_caller:
                return "crashed", "the sandbox was closed while the code ran"
            if "MemoryError" in diagnostics:
                return "memory", f"the worker ran out of memory ({name}); {diagnostics}"
            return "crashed", f"the worker died from {name} while running the code; {diagnostics}"
        if "MemoryError" in diagnostics:
            return "memory", f"the worker ran out of memory (exit status {status}); {diagnostics}"
        return "crashed", f"the worker exited with status {status} while running the code; {diagnostics}"

    def signal_kill(self) -> None:
        """SIGKILL the worker and nothing else: safe from any thread, even while another one uses it."""
        self._killed_by_caller = True
        try:
            self._popen.send_signal(signal.SIGKILL)  # polls first: never signals a reaped (reusable) pid
        except ProcessLookupError:
            pass

    def kill(self) -> None:
        """SIGKILL the worker (it is alone in its session and cannot fork), reap it and close the pipes.

        Only the thread using the worker (or the pool, for an idle one) calls this: closing the pipes under
        another thread's feet could hand it a reused descriptor.
        """
        self.signal_kill()
        self._reap()
        for stream in (self._popen.stdin, self._popen.stdout, self._popen.stderr):
            if stream is not None:
                try:
                    stream.close()
                except OSError:
                    pass

    def abandon(self) -> None:
        """Forget an inherited worker in a forked child without touching the process (its parent owns it)."""
        for stream in (self._popen.stdin, self._popen.stdout, self._popen.stderr):
            if stream is not None:
                try:
                    stream.close()
                except OSError:
                    pass
