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
from typing import TYPE_CHECKING, Any, cast

from playeval.models.catalog import LOCAL_MODELS
from playeval.models.errors import MissingWeights, ModelError, UnknownModel
from playeval.models.grammar import constraint_grammar
from playeval.models.providers.llama_answers import AnswerReader, Vocabulary
from playeval.models.providers.llama_contexts import LlamaContexts
from playeval.models.transcript import TURN_MARKERS, render_transcript
from playeval.models.types import ModelRequest, ProviderResult
from playeval.models.weights import check_weights, default_model_dir, download_from_hub, resolve_weights

if TYPE_CHECKING:
    from llama_cpp import Llama


@dataclass(frozen=True)
class LocalTarget:
    """A resolved local model: its GGUF file and whether it has a chat template to use."""

    path: Path
    chat: bool


def default_threads() -> int:
    """``PLAYEVAL_THREADS`` when set (a busy machine runs llama.cpp faster on fewer threads than cores), else the
    cores this process may use."""
    raw = os.environ.get("PLAYEVAL_THREADS", "").strip()
    if raw:
        if not raw.isdigit() or int(raw) < 1:
            raise ValueError(f"PLAYEVAL_THREADS must be a whole number of threads, at least 1, not {raw!r}")
        return int(raw)
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 2


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())[:300]


class LocalProvider:
    """llama.cpp in this process. One call at a time: the machine's cores are all given to it."""

    name = "local"
    max_concurrency = 1

    def __init__(
        self,
        *,
        model_dir: Path | None = None,
        n_ctx: int = 4096,
        n_threads: int | None = None,
        contexts_per_model: int = 3,
        seed: int = 1,
        extra_buffers: bool | None = None,
    ) -> None:
        """``extra_buffers``: let llama.cpp use its extra weight buffer types (repacking, AMX).

        None decides from ``$PLAYEVAL_LLAMA_EXTRA_BUFFERS`` and otherwise
        turns them off when the build has AMX kernels, which crash on some
        machines (this build segfaults in ``ggml_backend_amx_mul_mat``).
        """
        self._model_dir = model_dir if model_dir is not None else default_model_dir()
        self._n_ctx = n_ctx
        self._n_threads = n_threads if n_threads is not None else default_threads()
        self._seed = seed
        self._extra_buffers = extra_buffers
        self._targets: dict[str, LocalTarget] = {}
        self._resolve_lock = threading.Lock()
        self._contexts = LlamaContexts(self._load, per_model=contexts_per_model)
        self._vocabularies: dict[Path, Vocabulary] = {}
        self._vocabulary_lock = threading.Lock()

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
        loaded: a known name or an existing file, its weights installed, llama-cpp-python installed. Nothing is
        loaded or joined (a run checks every model this way before it is created)."""
        self.check_model(model_name)
        spec = LOCAL_MODELS.get(model_name)
        if spec is not None:
            try:
                check_weights(spec.weights, self._model_dir)
            except MissingWeights as err:
                raise MissingWeights(f"local/{model_name}: {err}") from None
        elif model_name.startswith("hf:") and importlib.util.find_spec("huggingface_hub") is None:
            raise MissingWeights(f"local/{model_name}: downloading from the Hugging Face hub needs: "
                                 "pip install huggingface_hub")
        if importlib.util.find_spec("llama_cpp") is None:
            raise ModelError(f"local/{model_name}: local models need llama-cpp-python: pip install llama-cpp-python")

    async def generate(self, model_name: str, request: ModelRequest) -> ProviderResult:
        self.check_model(model_name)
        target = await asyncio.to_thread(self.resolve, model_name)
        return await asyncio.to_thread(self._run, model_name, target, request)

    async def aclose(self) -> None:
        await asyncio.to_thread(self._contexts.close)

    def resolve(self, model_name: str) -> LocalTarget:
        """The GGUF file behind ``local/<model_name>``, joining packaged parts on first use."""
        with self._resolve_lock:
            target = self._targets.get(model_name)
            if target is None:
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

    def _load(self, path: Path) -> Llama:
        try:
            from playeval.models.providers.llama_loader import load_llama, use_extra_buffers
        except ImportError as exc:
            raise ModelError(
                f"local models need llama-cpp-python ({_one_line(exc)}): pip install llama-cpp-python"
            ) from exc
        return load_llama(
            path,
            n_ctx=self._n_ctx,
            n_threads=self._n_threads,
            seed=self._seed,
            extra_buffers=use_extra_buffers(self._extra_buffers),
        )

    def _run(self, model_name: str, target: LocalTarget, request: ModelRequest) -> ProviderResult:
        while True:
            slot = self._contexts.acquire(target.path, request.affinity)
            with slot.lock:
                if slot.closed:  # evicted between acquire and lock; take a fresh one
                    continue
                try:
                    return self._complete(slot.llama, target, request)
                except ValueError as exc:  # llama-cpp-python's way to say "prompt too long" and the like
                    raise ModelError(f"local/{model_name}: {_one_line(exc)}") from exc

    def _vocabulary(self, llama: Llama, path: Path) -> Vocabulary:
        """The token texts of the model at ``path``, read once for all its contexts."""
        with self._vocabulary_lock:
            found = self._vocabularies.get(path)
            if found is None:
                found = self._vocabularies[path] = Vocabulary(llama)
            return found

    def _complete(self, llama: Llama, target: LocalTarget, request: ModelRequest) -> ProviderResult:
        from playeval.models.providers.llama_loader import parse_grammar  # loaded with the model

        chat = target.chat

        config = request.config
        if config.temperature > 0:
            # Sampling is reproducible only if the prompt's logits are: a context that reuses its cached prefix
            # evaluates just the tail, in batches of another shape, and the logits differ in the last bits,
            # enough to flip a sample at T=0.9 (the same seeded request gave two different stories). Greedy
            # requests keep the reuse: their argmax does not move.
            llama.reset()  # type: ignore[no-untyped-call]
        grammar_text = constraint_grammar(request.constraint)
        grammar = parse_grammar(llama, grammar_text) if grammar_text is not None else None
        sampling: dict[str, Any] = {
            "temperature": config.temperature,
            "top_p": config.top_p,
            "max_tokens": config.max_tokens,
            "seed": config.seed,
            "grammar": grammar,
        }
        reader = None
        if request.answers is not None:
            from llama_cpp import LogitsProcessorList

            reader = AnswerReader(llama, self._vocabulary(llama, target.path), request.answers)
            sampling["logits_processor"] = LogitsProcessorList([reader])
        if chat:
            messages: list[Any] = [{"role": m.role, "content": m.content} for m in request.messages]
            response = cast(
                "dict[str, Any]",
                llama.create_chat_completion(messages=messages, stop=list(config.stop), **sampling),
            )
            text = response["choices"][0]["message"].get("content") or ""
        else:
            response = cast(
                "dict[str, Any]",
                llama.create_completion(
                    prompt=render_transcript(request.messages),
                    stop=[*TURN_MARKERS, *config.stop],
                    **sampling,
                ),
            )
            text = response["choices"][0].get("text") or ""
        usage = response.get("usage") or {}
        return ProviderResult(
            text=str(text).strip(),
            answer_probs=reader.answer_probs(str(text)) if reader is not None else (),
            prompt_tokens=int(usage.get("prompt_tokens", 0)),
            completion_tokens=int(usage.get("completion_tokens", 0)),
            output_path="grammar" if grammar is not None else None,
        )
