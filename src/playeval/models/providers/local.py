"""In-process models on the CPU with llama-cpp-python; no network for the built-in names.

Addresses: ``local/qwen2.5-coder-1.5b`` (the default), ``local/smollm2-135m``,
``local/gemma-3-270m`` (a base model, prompted with a plain transcript),
``local/PATH.gguf`` (any GGUF file, with its own chat template) and
``local/hf:OWNER/REPO/FILE.gguf`` (downloaded with ``huggingface_hub``; the
only form that uses the network, and only when asked for).
"""

from __future__ import annotations

import asyncio
import importlib.util
import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from playeval.models.catalog import LOCAL_MODELS
from playeval.models.errors import MissingExtra, MissingWeights, ModelError, UnknownModel
from playeval.models.grammar import constraint_grammar
from playeval.models.transcript import TURN_MARKERS, render_transcript
from playeval.models.types import ModelRequest, ProviderResult
from playeval.models.weights import check_weights, default_model_dir, download_from_hub, resolve_weights

if TYPE_CHECKING:
    from playeval.models.providers.llama_answers import Vocabulary
    from playeval.models.providers.llama_engine import Job, ModelEngine
    from playeval.models.providers.llama_scheduler import Scheduler


@dataclass(frozen=True)
class LocalTarget:
    """A resolved local model: its GGUF file and whether it has a chat template to use."""

    path: Path
    chat: bool


def default_threads() -> int:
    """``PLAYEVAL_THREADS`` when set, else the cores other processes leave free right now (at least 1): two
    threads on two busy cores generated a quarter to half as fast as one (``free_cores``)."""
    from playeval.models.providers.free_cores import choose_threads

    return choose_threads()


def batch_group() -> int:
    """How many conversations one generation step decodes together: ``PLAYEVAL_LOCAL_BATCH``, else 1 (see
    ``llama_scheduler`` for why batching is off by default)."""
    raw = os.environ.get("PLAYEVAL_LOCAL_BATCH", "").strip()
    if not raw:
        return 1
    if not raw.isdigit() or not 1 <= int(raw) <= 7:
        raise ValueError(f"PLAYEVAL_LOCAL_BATCH must be a whole number from 1 to 7, not {raw!r}")
    return int(raw)


LOCAL_EXTRA = "local"
"""The extra of playeval that holds the embedded model: llama-cpp-python and the default model's weights."""


def require_llama_cpp(address: str) -> None:
    """Raise ``MissingExtra`` (one line naming ``pip install 'playeval[local]'``) unless llama-cpp-python is
    installed: ``pip install playeval`` leaves it out, since installing it compiles llama.cpp. Nothing is imported."""
    if importlib.util.find_spec("llama_cpp") is None:
        raise MissingExtra(f"{address}: the embedded model", LOCAL_EXTRA)


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())[:300]


class LocalProvider:
    """llama.cpp in this process: one copy of each model's weights, a sequence per conversation, one thread.

    Up to ``max_concurrency`` calls are taken at once; their prompts are evaluated in turn and their replies
    generated together (``llama_scheduler``). ``kv_mb`` is each model's budget for its conversations' caches (it
    sets how many sequences its context has, at ``n_ctx`` tokens each); conversations beyond that wait in memory,
    up to ``saved_mb`` per model.
    """

    name = "local"
    max_concurrency = 8

    def __init__(
        self,
        *,
        model_dir: Path | None = None,
        n_ctx: int = 4096,
        n_threads: int | None = None,
        kv_mb: int = 256,
        saved_mb: int = 1024,
        seed: int = 1,
        extra_buffers: bool | None = None,
    ) -> None:
        """``extra_buffers``: let llama.cpp use its extra weight buffer types (repacking, AMX); None decides from
        ``$PLAYEVAL_LLAMA_EXTRA_BUFFERS``, off when unset (``llama_loader.use_extra_buffers`` says why).
        """
        self._model_dir = model_dir if model_dir is not None else default_model_dir()
        self._n_ctx = n_ctx
        self._n_threads = n_threads
        self._kv_bytes = kv_mb << 20
        self._saved_bytes = saved_mb << 20
        self._seed = seed
        self._extra_buffers = extra_buffers
        self._targets: dict[str, LocalTarget] = {}
        self._resolve_lock = threading.Lock()
        self._engines: dict[Path, ModelEngine] = {}
        self._vocabularies: dict[Path, Vocabulary] = {}
        self._engine_lock = threading.Lock()
        self._scheduler: Scheduler | None = None
        self._closed = False

    @property
    def model_dir(self) -> Path:
        return self._model_dir

    def check_model(self, model_name: str) -> None:
        if model_name in LOCAL_MODELS or (model_name.startswith("hf:") and model_name.endswith(".gguf")):
            return
        if model_name.endswith(".gguf"):
            if not Path(model_name).expanduser().is_file():
                raise UnknownModel(f"local/{model_name}: no such GGUF file")
            return
        known = ", ".join(f"local/{name}" for name in LOCAL_MODELS)
        raise UnknownModel(
            f"unknown local model local/{model_name}; known: {known}, local/PATH.gguf, local/hf:OWNER/REPO/FILE.gguf"
        )

    def check_ready(self, model_name: str) -> None:
        """Raise ``ModelError`` (``MissingWeights`` with the pip command) unless ``local/<model_name>`` can be
        loaded: a known name or an existing file, llama-cpp-python installed, its weights installed. Nothing is
        loaded or joined (a run checks every model this way before it is created)."""
        self.check_model(model_name)
        # first: without the extra the default weights are missing too, and the extra brings both
        require_llama_cpp(f"local/{model_name}")
        spec = LOCAL_MODELS.get(model_name)
        if spec is not None:
            try:
                check_weights(spec.weights, self._model_dir)
            except MissingWeights as err:
                raise MissingWeights(f"local/{model_name}: {err}") from None
        elif model_name.startswith("hf:") and importlib.util.find_spec("huggingface_hub") is None:
            raise MissingWeights(f"local/{model_name}: downloading from the Hugging Face hub needs: "
                                 "pip install huggingface_hub")

    async def generate(self, model_name: str, request: ModelRequest) -> ProviderResult:
        self.check_model(model_name)
        target = await asyncio.to_thread(self.resolve, model_name)
        try:
            engine = await asyncio.to_thread(self._engine, target.path)
            job = await asyncio.to_thread(self._job, engine, target, request)
            future = self._schedule().submit(engine, job)
            try:
                outcome = await asyncio.wrap_future(future)
            except asyncio.CancelledError:
                job.abandoned = True  # the thread stops generating it at its next token
                raise
        except ModelError as exc:
            raise ModelError(f"local/{model_name}: {exc}") from exc
        return ProviderResult(
            text=outcome.text.strip(),
            answer_probs=job.reader.answer_probs(outcome.text) if job.reader is not None else (),
            prompt_tokens=outcome.prompt_tokens,
            completion_tokens=outcome.completion_tokens,
            output_path="grammar" if job.grammar is not None else None,
            prompt_evaluated=outcome.evaluated,
            prompt_needed=outcome.needed,
            prompt_s=outcome.prompt_s,
            generation_s=outcome.generation_s,
        )

    async def aclose(self) -> None:
        await asyncio.to_thread(self._close)

    def _close(self) -> None:
        with self._engine_lock:
            self._closed = True
            scheduler, self._scheduler = self._scheduler, None
            engines = list(self._engines.values())
            self._engines.clear()
        if scheduler is not None:
            scheduler.close()
        for engine in engines:
            engine.close()
            engine.model.close()

    def resolve(self, model_name: str) -> LocalTarget:
        """The GGUF file behind ``local/<model_name>``, joining packaged parts on first use."""
        with self._resolve_lock:
            target = self._targets.get(model_name)
            if target is None:
                require_llama_cpp(f"local/{model_name}")  # before the weights, as check_ready does
                target = self._locate(model_name)
                self._targets[model_name] = target
            return target

    def _locate(self, model_name: str) -> LocalTarget:
        spec = LOCAL_MODELS.get(model_name)
        if spec is not None:
            return LocalTarget(resolve_weights(spec.weights, self._model_dir), chat=spec.chat)
        if model_name.startswith("hf:"):
            return LocalTarget(download_from_hub(model_name[3:]), chat=True)
        path = Path(model_name).expanduser()
        if not path.is_file():
            raise ModelError(f"local/{model_name}: no such GGUF file")
        return LocalTarget(path, chat=True)

    def _schedule(self) -> Scheduler:
        from playeval.models.providers.llama_scheduler import Scheduler

        with self._engine_lock:
            if self._closed:
                raise ModelError("the local model provider is closed")
            if self._scheduler is None:
                try:
                    self._scheduler = Scheduler(group=batch_group())
                except ValueError as exc:
                    raise ModelError(str(exc)) from None
            return self._scheduler

    def _engine(self, path: Path) -> ModelEngine:
        """The engine of the model at ``path``, loading it on first use (one copy of the weights)."""
        with self._engine_lock:
            if self._closed:
                raise ModelError("the local model provider is closed")
            engine = self._engines.get(path)
            if engine is None:
                engine = self._engines[path] = self._load(path)
            return engine

    def _load(self, path: Path) -> ModelEngine:
        try:
            from playeval.models.providers.llama_engine import ModelEngine
            from playeval.models.providers.llama_loader import use_extra_buffers
            from playeval.models.providers.llama_native import ContextShape, NativeModel
        except ImportError as exc:
            if exc.name == "llama_cpp":  # not installed at all
                raise MissingExtra("the embedded model", LOCAL_EXTRA) from exc
            raise ModelError(  # installed but broken (a shared library that does not load): the extra is there
                f"llama-cpp-python is installed but does not import ({_one_line(exc)}); reinstall it with: "
                "pip install --force-reinstall --no-deps llama-cpp-python"
            ) from exc
        extra = use_extra_buffers(self._extra_buffers)
        model = NativeModel(path, extra_buffers=extra)
        cells = min(self._n_ctx, model.n_ctx_train) if model.n_ctx_train > 0 else self._n_ctx
        sequences = max(2, min(16, self._kv_bytes // max(1, model.kv_bytes_per_token * cells)))
        try:
            threads = self._n_threads if self._n_threads is not None else default_threads()
        except ValueError as exc:  # a bad PLAYEVAL_THREADS: one line, not a traceback
            model.close()
            raise ModelError(str(exc)) from None
        try:
            return ModelEngine(model, ContextShape(sequences=sequences, cells_per_sequence=cells), threads=threads,
                               saved_bytes=self._saved_bytes, invariant=not extra)
        except BaseException:
            model.close()
            raise

    def _vocabulary(self, engine: ModelEngine) -> Vocabulary:
        """The token texts of a model, read once for all its judges' requests."""
        from playeval.models.providers.llama_answers import Vocabulary

        with self._engine_lock:
            found = self._vocabularies.get(engine.model.path)
            if found is None:
                found = self._vocabularies[engine.model.path] = Vocabulary(engine.model.pieces())
            return found

    def _job(self, engine: ModelEngine, target: LocalTarget, request: ModelRequest) -> Job:
        """The request as the engine takes it: prompt tokens, sampler, stops, the answer reader of a judge."""
        from playeval.models.providers.llama_answers import AnswerReader
        from playeval.models.providers.llama_engine import Job
        from playeval.models.providers.llama_sampling import TokenSampler

        model = engine.model
        config = request.config
        if target.chat:
            text, special = model.chat_prompt([{"role": m.role, "content": m.content} for m in request.messages])
            prompt = model.tokenize(text, add_special=not special)
            stops = tuple(config.stop)
        else:
            prompt = model.tokenize(render_transcript(request.messages))
            stops = (*TURN_MARKERS, *config.stop)
        grammar = constraint_grammar(request.constraint)
        seed = config.seed if config.seed is not None else self._seed

        def make_sampler() -> TokenSampler:
            return TokenSampler(model, engine.candidates, temperature=config.temperature, top_p=config.top_p,
                                seed=seed, grammar=grammar)

        reader = None
        if request.answers is not None:
            reader = AnswerReader(self._vocabulary(engine), request.answers)
        return Job(key=request.affinity or "", prompt=prompt, make_sampler=make_sampler,
                   max_tokens=config.max_tokens, stops=stops, reader=reader, grammar=grammar)
