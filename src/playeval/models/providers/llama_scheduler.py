"""The one thread that drives every embedded model: each prompt in turn, then generation steps.

All llama.cpp work of a provider runs here, so two models never fight over the cores (on a 2-core machine two
decoders at once ran slower together than one after the other). Between generation steps the thread admits new
requests and evaluates their prompts, one conversation per decode (``llama_engine`` says why); each step then decodes
one token of every generating conversation of a model, in groups of ``group`` conversations (1 by default: each
alone).

Why generation is not batched by default, although it pays: four Qwen 2.5 1.5B conversations generating 40
tokens each at once took 4.2 s batched against 6.0 s one after the other (2 cores), with the same replies bit for bit.
That sameness rests on a property of this CPU's kernels (a step of up to seven rows computes each row as a lone
step does, measured here); on a CPU where it failed, batched replies would depend on which calls happened to be
decoded together, and a rerun could differ. One at a time keeps reruns identical on any machine;
``PLAYEVAL_LOCAL_BATCH=N`` (N up to ``MIN_ROWS - 1``) turns batching on where that property holds (the ``llm``
tests check it).
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from concurrent.futures import Future

from playeval.models.errors import ModelError
from playeval.models.providers.llama_engine import MIN_ROWS, Job, ModelEngine, Outcome

_log = logging.getLogger(__name__)


class Scheduler:
    """Queues jobs for engines and runs them on one worker thread, started on the first job."""

    def __init__(self, *, group: int = 1) -> None:
        if not 1 <= group < MIN_ROWS:
            raise ValueError(f"a generation group holds 1 to {MIN_ROWS - 1} conversations, not {group}")
        self._group = group
        self._cond = threading.Condition()
        self._queue: deque[tuple[ModelEngine, Job]] = deque()
        self._active: list[tuple[ModelEngine, Job]] = []
        self._thread: threading.Thread | None = None
        self._closed = False

    def submit(self, engine: ModelEngine, job: Job) -> Future[Outcome]:
        with self._cond:
            if self._closed:
                raise ModelError("the local model provider is closed")
            self._queue.append((engine, job))
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="playeval-llama", daemon=True)
                self._thread.start()
            self._cond.notify()
        return job.future

    def close(self) -> None:
        """Finish what is queued, then stop the thread."""
        with self._cond:
            self._closed = True
            self._cond.notify()
            thread = self._thread
        if thread is not None:
            thread.join()

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._queue and not self._active and not self._closed:
                    self._cond.wait()
                if self._closed and not self._queue and not self._active:
                    return
                incoming = list(self._queue)
                self._queue.clear()
            try:
                self._turn(incoming)
            except Exception as exc:  # a bug here must not leave callers waiting forever
                _log.exception("the local model thread failed")
                with self._cond:
                    queued = list(self._queue)
                    self._queue.clear()
                for engine, job in [*incoming, *self._active, *queued]:
                    if not job.done:
                        if not job.future.done() and not job.future.running():
                            job.future.set_running_or_notify_cancel()
                        engine.fail(job, exc)
                self._active = []

    def _turn(self, incoming: list[tuple[ModelEngine, Job]]) -> None:
        waiting: list[tuple[ModelEngine, Job]] = []
        for engine, job in incoming:
            if job.done:
                continue
            if job.abandoned and job.future.cancel():
                job.done = True
                continue
            if not engine.admit(job):
                waiting.append((engine, job))
            elif not job.done:
                self._active.append((engine, job))
        if waiting:
            with self._cond:
                self._queue.extendleft(reversed(waiting))
        by_engine: dict[int, tuple[ModelEngine, list[Job]]] = {}
        for engine, job in self._active:
            if job.pending is not None and not job.done:
                by_engine.setdefault(id(engine), (engine, []))[1].append(job)
        for engine, jobs in by_engine.values():
            for start in range(0, len(jobs), self._group):
                engine.step(jobs[start:start + self._group])
        self._active = [(engine, job) for engine, job in self._active if not job.done]
