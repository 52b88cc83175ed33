"""One model, many conversations: llama.cpp sequences that keep each conversation's cache, decoded in batches.

A :class:`ModelEngine` holds one copy of a model's weights and one context of ``shape.sequences`` sequences. A
conversation (a request's ``affinity``: a seat, a role) keeps its sequence between calls, so a call evaluates only
the tail its prompt adds; a re-ask drops the refused reply's cells and samples again from there. When more
conversations play than there are sequences, the least recently used idle one is saved to memory, cell for cell,
and put back when it plays again. A new conversation copies the longest prefix another one holds (the rules every
seat is told).

**Why replies do not depend on batching or caching.** On this CPU backend a token's numbers depend on one thing
besides its text: how many rows the ``llama_decode`` computing it had. Batches of fewer than :data:`MIN_ROWS` rows
take another kernel path than larger ones, and the logits differ by up to 0.5 (measured on Qwen 2.5 1.5B and
Gemma 3 270M: a 4-row tail gave other logits than the whole prompt, any tail of 8 or more rows the same ones, bit
for bit; which other sequences shared a batch changed nothing, with one stream per sequence, flash attention off
and the weights in plain CPU buffers; repacked weights, ``PLAYEVAL_LLAMA_EXTRA_BUFFERS=1``, break it). So:

* a prompt's tail is always evaluated in chunks of at least :data:`MIN_ROWS` rows (the cache gives back up to
  ``MIN_ROWS - 1`` tokens it holds when the tail would be shorter), which computes the same numbers as evaluating
  the whole prompt at once;
* generation steps decode at most ``MIN_ROWS - 1`` conversations together, the same path as one alone.

A reply therefore depends only on the request and on how its conversation's earlier replies were computed
(generated tokens come from the small path, so a conversation that kept its last reply in cache computes its next
prompt slightly differently from one that evaluates it afresh). The same run gives the same replies, whatever
``--concurrency`` and the timing of concurrent calls; a cross-conversation copy is taken only where it cannot
change a number (see :meth:`ModelEngine._best_source`). Where the bits can still differ: a conversation whose
saved state did not fit in ``saved_bytes``, a resumed match, and calls answered from the response cache make a
later prompt of the same conversation evaluated afresh (docs/models.md, "Reproducibility").
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from playeval.models.errors import ModelError
from playeval.models.providers.llama_native import ContextShape, NativeContext, NativeModel
from playeval.models.providers.llama_prefix import PerfectCache, common_prefix
from playeval.models.providers.llama_sampling import Candidates, TokenSampler

if TYPE_CHECKING:
    from playeval.models.providers.llama_answers import AnswerReader

_log = logging.getLogger(__name__)

MIN_ROWS = 8
"""The smallest batch that takes llama.cpp's large-batch kernels on the CPU (measured; see the module's doc)."""


@dataclass
class Outcome:
    """What a finished job hands back."""

    text: str
    prompt_tokens: int
    completion_tokens: int
    evaluated: int
    needed: int
    prompt_s: float
    generation_s: float


@dataclass
class Job:
    """One request on its way through an engine."""

    key: str
    prompt: list[int]
    make_sampler: Callable[[], TokenSampler]
    max_tokens: int
    stops: tuple[str, ...]
    reader: AnswerReader | None = None
    grammar: str | None = None
    future: Future[Outcome] = field(default_factory=Future)
    abandoned: bool = False
    seq: int = -1
    sampler: TokenSampler | None = None
    generated: list[int] = field(default_factory=list)
    pieces: list[bytes] = field(default_factory=list)
    pending: int | None = None
    start: int = 0
    fresh: bool = True
    evaluated: int = 0
    needed: int = 0
    prompt_s: float = 0.0
    generation_s: float = 0.0
    text: str = ""
    done: bool = False


@dataclass
class _Slot:
    key: str | None = None
    tokens: list[int] = field(default_factory=list)
    canonical: int = 0
    """Leading tokens whose cells hold what evaluating them afresh computes (prompt text, never a generated one)."""
    job: Job | None = None
    used: int = 0


@dataclass(frozen=True)
class _Saved:
    tokens: list[int]
    canonical: int
    state: bytes


class ModelEngine:
    """A model's weights, one context of several sequences, and the conversations on them. Not thread-safe: the
    scheduler's one worker thread drives every engine."""

    def __init__(self, model: NativeModel, shape: ContextShape, *, threads: int, saved_bytes: int,
                 invariant: bool = True) -> None:
        """``invariant``: whether a row's numbers are independent of the batch around it beyond :data:`MIN_ROWS`
        (true of plain CPU buffers; repacked weights break it, and then prompts are evaluated one conversation at
        a time and never copied between conversations, so a run's schedule, not its timing, decides the bits)."""
        self.model = model
        self._invariant = invariant
        self.context = NativeContext(model, shape, threads=threads)
        self._slots = [_Slot() for _ in range(shape.sequences)]
        self._saved: OrderedDict[str, _Saved] = OrderedDict()
        self._saved_bytes = saved_bytes
        self._perfect = PerfectCache()
        self._tick = 0
        self.candidates = Candidates(model.n_vocab)

    @property
    def cells(self) -> int:
        return self.context.shape.cells_per_sequence

    def admit(self, job: Job) -> bool:
        """Give ``job`` a sequence, evaluate its prompt and pick its first token; False when every sequence is busy
        (it waits). A job whose caller gave up before this is dropped."""
        try:
            seq = self._place(job)
        except Exception as exc:  # a state that would not go back: this job fails, the engine goes on
            self.fail(job, exc, forget=False)
            return True
        if seq is None:
            return False
        if not job.future.set_running_or_notify_cancel():  # cancelled while it waited
            job.done = True
            return True
        job.seq = seq
        slot = self._slots[seq]
        slot.job = job
        self._tick += 1
        slot.used = self._tick
        try:
            job.sampler = job.make_sampler()
        except Exception as exc:  # an invalid grammar: nothing was computed, the conversation keeps its cells
            self.fail(job, exc, forget=False)
            return True
        try:
            self._prepare(job, slot)
            self._evaluate(job)
        except Exception as exc:  # any failure ends this job, not the engine
            self.fail(job, exc)
        return True

    def _place(self, job: Job) -> int | None:
        own = next((i for i, s in enumerate(self._slots) if s.key == job.key and s.key is not None), None)
        if own is not None and self._slots[own].job is None:
            return own
        idle = [i for i, s in enumerate(self._slots) if s.job is None]
        if not idle:
            return None
        seq = min(idle, key=lambda i: (self._slots[i].key is not None, self._slots[i].used))
        self._evict(seq)
        slot = self._slots[seq]
        if own is None:  # (when the conversation's own slot is busy with a parallel call, this one stays anonymous)
            slot.key = job.key
            saved = self._saved.pop(job.key, None)
            if saved is not None:
                self.context.restore(seq, saved.state)
                slot.tokens, slot.canonical = list(saved.tokens), saved.canonical
        return seq

    def _evict(self, seq: int) -> None:
        slot = self._slots[seq]
        if slot.key is not None and slot.tokens:
            state = self.context.save(seq)
            self._saved[slot.key] = _Saved(slot.tokens, slot.canonical, state)
            while sum(len(s.state) for s in self._saved.values()) > self._saved_bytes and self._saved:
                dropped, _ = self._saved.popitem(last=False)
                _log.warning("%s: conversation %s dropped from memory (saved_mb is full); it will be evaluated "
                             "afresh, and its later replies may differ from a run that kept it",
                             self.model.path.name, dropped)
        self.context.forget(seq)
        self._slots[seq] = _Slot()

    def _best_source(self, seq: int, prompt: list[int], own: int) -> tuple[int | bytes, int] | None:
        """Another conversation to copy a longer prefix from, as (its sequence or its saved state, tokens): those
        on sequences and those saved in memory.

        Copied cells must hold the same numbers this conversation would compute, so only another conversation's
        canonical prefix counts, and only when this one's own prefix is canonical too (else keeping its own
        cells or copying would give two different results, and which one happened would depend on timing).
        """
        if not self._invariant or own > self._slots[seq].canonical:
            return None
        best: tuple[int | bytes, int] | None = None
        held: list[tuple[int | bytes, list[int], int]] = [
            (i, other.tokens, other.canonical) for i, other in enumerate(self._slots) if i != seq and other.tokens]
        held += [(saved.state, saved.tokens, saved.canonical) for saved in self._saved.values()]
        for source, tokens, canonical in held:
            shared = common_prefix(tokens[:canonical], prompt)
            if shared > own and (best is None or shared > best[1]):
                best = (source, shared)
        return best

    def _prepare(self, job: Job, slot: _Slot) -> None:
        """Keep what the sequence (or a copy of another's) holds of the prompt, but at least ``MIN_ROWS`` tokens
        to evaluate; ``job.start`` is where evaluation starts."""
        prompt = job.prompt
        if not prompt:
            raise ModelError("the prompt is empty")
        if len(prompt) + 1 > self.cells:
            raise ModelError(f"the prompt has {len(prompt)} tokens; a conversation holds at most {self.cells - 1}")
        job.needed = self._perfect.needed(prompt)
        own = common_prefix(slot.tokens, prompt)
        source = self._best_source(job.seq, prompt, own)
        if source is not None:
            origin = source[0]
            if isinstance(origin, bytes):
                self.context.restore(job.seq, origin)
            else:
                self.context.copy(origin, job.seq)
            slot.tokens, slot.canonical, own = list(prompt[:source[1]]), source[1], source[1]
        keep = max(0, min(own, len(prompt) - MIN_ROWS))
        self.context.forget(job.seq, keep)
        job.fresh = keep <= slot.canonical
        slot.tokens = slot.tokens[:keep]
        job.start = keep

    def _evaluate(self, job: Job) -> None:
        """Evaluate the prompt from ``job.start`` in chunks of at least ``MIN_ROWS`` rows and pick the first token.

        One conversation per decode: llama.cpp splits a batch of several sequences into sub-batches of equal
        rows per sequence, so two tails of unequal length would leave the longer one's last rows in a sub-batch
        under ``MIN_ROWS`` (found in review; prompts are therefore never packed together).
        """
        started = time.perf_counter()
        prompt = job.prompt
        position = job.start
        last = 0
        for size in _chunks(len(prompt) - job.start, self.context.shape.batch):
            end = position + size
            self.context.decode([(job.seq, p, prompt[p], p == len(prompt) - 1) for p in range(position, end)])
            position, last = end, size - 1
        slot = self._slots[job.seq]
        slot.tokens = list(prompt)
        if len(prompt) < MIN_ROWS:  # computed as a small batch: not what a longer prompt computes for these tokens
            slot.canonical = 0
        else:
            slot.canonical = len(prompt) if job.fresh else min(slot.canonical, job.start)
        job.evaluated = len(prompt) - job.start
        job.prompt_s = time.perf_counter() - started
        self._consume(job, last)

    def step(self, jobs: list[Job]) -> None:
        """Decode the next token of each job (at most ``MIN_ROWS - 1`` of them, one row each: every sub-batch
        llama.cpp makes of it stays on the small path a lone step takes) and pick the one after."""
        started = time.perf_counter()
        jobs = sorted(jobs, key=lambda job: job.seq)  # llama.cpp batches rising sequence ids together
        rows = []
        for job in jobs:
            slot = self._slots[job.seq]
            assert job.pending is not None
            rows.append((job.seq, len(slot.tokens), job.pending, True))
        try:
            self.context.decode(rows)
        except Exception as exc:
            for job in jobs:
                self.fail(job, exc)
            return
        share = (time.perf_counter() - started) / len(jobs)
        for row, job in enumerate(jobs):
            assert job.pending is not None
            self._slots[job.seq].tokens.append(job.pending)
            job.pending = None
            job.generation_s += share
            self._consume(job, row)

    def _consume(self, job: Job, row: int) -> None:
        """Pick the token after ``row``'s logits; finish the job or leave the token pending."""
        started = time.perf_counter()
        try:
            if job.reader is not None:
                job.reader.observe(b"".join(job.pieces).decode("utf-8", errors="replace"), self.context.logits(row))
            assert job.sampler is not None
            token = job.sampler.sample(self.context, row)
        except Exception as exc:
            self.fail(job, exc)
            return
        job.generation_s += time.perf_counter() - started
        if self.model.is_end(token):
            self._finish(job)
            return
        job.generated.append(token)
        job.pieces.append(self.model.piece(token))
        if job.stops:
            text = b"".join(job.pieces).decode("utf-8", errors="ignore")
            cut = min((at for at in (text.find(stop) for stop in job.stops if stop) if at >= 0), default=-1)
            if cut >= 0:
                job.text = text[:cut]
                self._finish(job, stopped=True)
                return
        slot = self._slots[job.seq]
        limit = job.max_tokens if job.max_tokens > 0 else self.cells  # 0: until the conversation is full
        if job.abandoned or len(job.generated) >= limit or len(slot.tokens) + 1 >= self.cells:
            self._finish(job)
            return
        job.pending = token

    def _finish(self, job: Job, *, stopped: bool = False) -> None:
        if not stopped:
            job.text = b"".join(job.pieces).decode("utf-8", errors="ignore")
        self._perfect.add(self._slots[job.seq].tokens)
        self._release(job)
        if not job.future.done():
            job.future.set_result(Outcome(
                text=job.text, prompt_tokens=len(job.prompt), completion_tokens=len(job.generated),
                evaluated=job.evaluated, needed=job.needed, prompt_s=job.prompt_s, generation_s=job.generation_s))

    def fail(self, job: Job, exc: BaseException, *, forget: bool = True) -> None:
        """End ``job`` with ``exc``; its sequence forgets whatever it may have half computed (``forget``)."""
        if job.seq >= 0 and forget:
            slot = self._slots[job.seq]
            self.context.forget(job.seq)
            slot.tokens, slot.canonical = [], 0
        self._release(job)
        if not job.future.done():
            job.future.set_exception(exc)

    def _release(self, job: Job) -> None:
        job.done = True
        job.pending = None
        if job.sampler is not None:
            job.sampler.close()
            job.sampler = None
        if job.seq >= 0:
            slot = self._slots[job.seq]
            if slot.job is job:
                slot.job = None
                self._tick += 1
                slot.used = self._tick

    def close(self) -> None:
        self.context.close()


def _chunks(count: int, batch: int) -> list[int]:
    """Sizes that add up to ``count``, each at most ``batch`` and at least ``MIN_ROWS`` (when ``count`` is)."""
    sizes = []
    while count > batch:
        take = batch if count - batch >= MIN_ROWS else count - MIN_ROWS
        sizes.append(take)
        count -= take
    if count:
        sizes.append(count)
    return sizes
