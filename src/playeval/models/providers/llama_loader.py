"""Loading llama.cpp models, and its log. Imports ``llama_cpp``, so it is imported only when a local model runs."""

from __future__ import annotations

import ctypes
import logging
import os
from pathlib import Path

import llama_cpp
from llama_cpp import Llama

from playeval.models.errors import ModelError

EXTRA_BUFFERS_ENV = "PLAYEVAL_LLAMA_EXTRA_BUFFERS"
_GGML_LOG_ERROR = 3
_LOG = logging.getLogger("playeval.llama")


_NOT_ERRORS = (b"using full-size SWA cache", b"was not control-type")
"""Notes llama.cpp logs at error level although nothing is wrong: Gemma 3's cache choice, at every context, and a
note on the vocabulary of Qwen2.5-Coder's file at every load ("control-looking token: 128247 '</s>' was not
control-type"; llama.cpp fixes the token's type itself), which landed in the middle of a person's terminal game."""


def _llama_log(level: int, text: bytes, user_data: ctypes.c_void_p) -> None:
    """llama.cpp's log into Python logging: errors as errors, the notes above as debug, the rest dropped.

    llama-cpp-python's own callback printed such notes to stderr whatever the verbosity, so lines like
    ``llama_kv_cache_iswa: using full-size SWA cache`` landed in the middle of playeval's result lines.
    """
    if level != _GGML_LOG_ERROR:
        return
    message = text.decode("utf-8", "replace").rstrip()
    if any(note in text for note in _NOT_ERRORS):
        _LOG.debug("%s", message)
    else:
        _LOG.error("%s", message)


_LLAMA_LOG_CALLBACK = llama_cpp.llama_log_callback(_llama_log)
"""The C callback; a module constant, so it lives as long as llama.cpp may call it."""


def quiet_llama_log() -> None:
    """Route llama.cpp's log through :func:`_llama_log` (idempotent)."""
    llama_cpp.llama_log_set(_LLAMA_LOG_CALLBACK, ctypes.c_void_p(0))


class _LlamaWithoutExtraBuffers(Llama):
    """A ``Llama`` whose weights stay in plain CPU buffers (no AMX or repacked buffer types).

    ``Llama.__init__`` assigns ``self.model_params`` and then loads the model
    with it; this property switches ``use_extra_bufts`` off on the way in.
    """

    @property
    def model_params(self) -> llama_cpp.llama_model_params:
        params: llama_cpp.llama_model_params = self.__dict__["_playeval_model_params"]
        return params

    @model_params.setter
    def model_params(self, params: llama_cpp.llama_model_params) -> None:
        params.use_extra_bufts = False
        self.__dict__["_playeval_model_params"] = params


def amx_compiled() -> bool:
    """Whether this llama.cpp build has the AMX kernels (which crash on some machines)."""
    info: bytes = llama_cpp.llama_print_system_info()
    return b"AMX_INT8 = 1" in info


def use_extra_buffers(choice: bool | None) -> bool:
    """Extra buffer types: as chosen, else ``$PLAYEVAL_LLAMA_EXTRA_BUFFERS`` (1/0), else off.

    Off by default since the embedded engine (issue 22), for three reasons measured on Qwen 2.5 1.5B, 2 cores:
    the repacked weights evaluated prompts at 163 tokens/s against 249 in plain buffers (they generated faster, 36
    against 29 tokens/s, but prompts are most of a game's work); with them a prompt tail's logits depend on how the
    tail was batched, which the engine's cache relies on not happening (``llama_engine``); and AMX builds crash.
    """
    if choice is not None:
        return choice
    raw = os.environ.get(EXTRA_BUFFERS_ENV, "").strip().lower()
    if raw in {"1", "true", "yes", "on"}:
        return True
    return False


def load_llama(path: Path, *, n_ctx: int, n_threads: int, seed: int, extra_buffers: bool) -> Llama:
    cls = Llama if extra_buffers else _LlamaWithoutExtraBuffers
    quiet_llama_log()
    try:
        return cls(
            model_path=str(path),
            n_ctx=n_ctx,
            n_threads=n_threads,
            n_threads_batch=n_threads,
            seed=seed,
            verbose=False,
        )
    except ValueError as exc:
        raise ModelError(f"{path.name}: llama.cpp could not load the model: {exc}") from exc
