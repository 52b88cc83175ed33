"""One GGUF model in memory through llama.cpp's C API: tokens, text, chat template, and contexts on its weights.

``llama_cpp``'s high-level ``Llama`` ties one context to one copy of the weights and one conversation; the engine
(``llama_engine``) needs one model with a context of several sequences, so it goes one level down. Everything here
imports ``llama_cpp``, so the module is imported only when a local model runs.
"""

from __future__ import annotations

import ctypes
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import llama_cpp
import numpy as np
import numpy.typing as npt
from llama_cpp.llama_chat_format import Jinja2ChatFormatter

from playeval.models.errors import ModelError
from playeval.models.providers.llama_loader import quiet_llama_log


def _meta(model: Any, key: str) -> str | None:
    size = 1 << 16
    buf = ctypes.create_string_buffer(size)
    n = llama_cpp.llama_model_meta_val_str(model, key.encode(), buf, size)
    if n < 0:
        return None
    if n >= size:  # a long chat template: read it whole
        buf = ctypes.create_string_buffer(n + 1)
        llama_cpp.llama_model_meta_val_str(model, key.encode(), buf, n + 1)
    return buf.value.decode("utf-8", errors="replace")


@dataclass(frozen=True)
class ContextShape:
    """A context's sequences and the cells each may hold (llama.cpp's ``n_seq_max`` and ``n_ctx`` per sequence)."""

    sequences: int
    cells_per_sequence: int
    batch: int = 512


class NativeModel:
    """A loaded GGUF file: weights once in memory, its vocabulary, and its chat template (if it has one)."""

    def __init__(self, path: Path, *, extra_buffers: bool) -> None:
        llama_cpp.llama_backend_init()
        quiet_llama_log()
        params = llama_cpp.llama_model_default_params()
        params.use_extra_bufts = extra_buffers
        model = llama_cpp.llama_model_load_from_file(str(path).encode(), params)
        if not model:
            raise ModelError(f"{path.name}: llama.cpp could not load the model")
        self.path = path
        self.ptr = model
        self.vocab = llama_cpp.llama_model_get_vocab(model)
        self.n_vocab: int = llama_cpp.llama_vocab_n_tokens(self.vocab)
        self.n_ctx_train: int = llama_cpp.llama_model_n_ctx_train(model)
        self._template = _meta(model, "tokenizer.chat_template")
        self._formatter: Jinja2ChatFormatter | None = None
        self._pieces: tuple[bytes, ...] | None = None

    @property
    def kv_bytes_per_token(self) -> int:
        """The KV cache's bytes for one token at f16 (keys and values of every layer), to size contexts."""
        n_head = max(1, llama_cpp.llama_model_n_head(self.ptr))
        arch = _meta(self.ptr, "general.architecture") or ""
        head_dim = int(_meta(self.ptr, f"{arch}.attention.key_length") or 0) or (
            llama_cpp.llama_model_n_embd(self.ptr) // n_head)
        return 2 * 2 * llama_cpp.llama_model_n_layer(self.ptr) * llama_cpp.llama_model_n_head_kv(self.ptr) * head_dim

    def tokenize(self, text: str, *, add_special: bool = True) -> list[int]:
        data = text.encode("utf-8")
        room = len(data) + 16
        tokens = (llama_cpp.llama_token * room)()
        n = llama_cpp.llama_tokenize(self.vocab, data, len(data), tokens, room, add_special, True)
        if n < 0:  # cannot happen with a byte per token of room, but llama.cpp says how many it needs
            room = -n
            tokens = (llama_cpp.llama_token * room)()
            n = llama_cpp.llama_tokenize(self.vocab, data, len(data), tokens, room, add_special, True)
        return list(tokens[:n])

    def piece(self, token: int) -> bytes:
        """The bytes a generated token adds to the reply (special tokens add none)."""
        buf = ctypes.create_string_buffer(64)
        n = llama_cpp.llama_token_to_piece(self.vocab, token, buf, 64, 0, False)
        if n < 0:
            buf = ctypes.create_string_buffer(-n)
            n = llama_cpp.llama_token_to_piece(self.vocab, token, buf, -n, 0, False)
        return buf.raw[:n]

    def pieces(self) -> tuple[bytes, ...]:
        """Every token's bytes, read once (about a second for 150,000 tokens)."""
        if self._pieces is None:
            self._pieces = tuple(self.piece(token) for token in range(self.n_vocab))
        return self._pieces

    def is_end(self, token: int) -> bool:
        return bool(llama_cpp.llama_vocab_is_eog(self.vocab, token))

    def chat_prompt(self, messages: list[dict[str, str]]) -> tuple[str, bool]:
        """The chat template applied to ``messages`` with the assistant's turn opened: (text, whether the
        template wrote the special start tokens itself)."""
        if self._formatter is None:
            if self._template is None:
                raise ModelError(f"{self.path.name} has no chat template; use it as a base model")
            eos = llama_cpp.llama_vocab_eos(self.vocab)
            bos = llama_cpp.llama_vocab_bos(self.vocab)
            self._formatter = Jinja2ChatFormatter(
                template=self._template,
                eos_token=self._text(eos) if eos != -1 else "",
                bos_token=self._text(bos) if bos != -1 else "",
                stop_token_ids=[eos],
            )
        result = self._formatter(messages=messages)  # type: ignore[arg-type]
        return result.prompt, bool(result.added_special)

    def _text(self, token: int) -> str:
        raw: bytes = llama_cpp.llama_vocab_get_text(self.vocab, token)
        return raw.decode("utf-8", errors="replace")

    def close(self) -> None:
        if self.ptr:
            llama_cpp.llama_model_free(self.ptr)
            self.ptr = None


class NativeContext:
    """A llama.cpp context on a :class:`NativeModel` with ``shape.sequences`` sequences, each in its own stream.

    Streams (``kv_unified = false``) and no flash attention make a sequence's logits a function of its own tokens:
    where other sequences' cells lie, and which other sequences share a batch, change nothing (measured: bit-equal
    logits). What still matters is the size of the batch a token is computed in (see ``llama_engine``).
    """

    def __init__(self, model: NativeModel, shape: ContextShape, *, threads: int) -> None:
        params = llama_cpp.llama_context_default_params()
        params.n_ctx = shape.sequences * shape.cells_per_sequence
        params.n_batch = shape.batch
        params.n_ubatch = shape.batch
        params.n_seq_max = shape.sequences
        params.kv_unified = False
        params.flash_attn_type = llama_cpp.LLAMA_FLASH_ATTN_TYPE_DISABLED
        params.n_threads = threads
        params.n_threads_batch = threads
        ctx = llama_cpp.llama_init_from_model(model.ptr, params)
        if not ctx:
            raise ModelError(f"{model.path.name}: llama.cpp could not make a context of {params.n_ctx} cells")
        self.model = model
        self.shape = shape
        self.ptr = ctx
        self.memory = llama_cpp.llama_get_memory(ctx)
        self._batch = llama_cpp.llama_batch_init(shape.batch, 0, 1)
        self._outputs: list[int] = []

    def decode(self, rows: list[tuple[int, int, int, bool]]) -> None:
        """One ``llama_decode`` of ``rows`` (sequence, position, token, wants logits); at most ``shape.batch``."""
        batch = self._batch
        batch.n_tokens = len(rows)
        self._outputs = []
        for k, (seq, pos, token, wants) in enumerate(rows):
            batch.token[k] = token
            batch.pos[k] = pos
            batch.n_seq_id[k] = 1
            batch.seq_id[k][0] = seq
            batch.logits[k] = wants
            if wants:
                self._outputs.append(k)
        code = llama_cpp.llama_decode(self.ptr, batch)
        if code != 0:
            raise ModelError(f"{self.model.path.name}: llama_decode failed with code {code} "
                             f"(the context may be full: {self.shape.cells_per_sequence} tokens per conversation)")

    def logits(self, row: int) -> npt.NDArray[np.float32]:
        """The logits of the batch's ``row`` (an index into the rows passed to :meth:`decode`), not copied."""
        pointer = llama_cpp.llama_get_logits_ith(self.ptr, row)
        return np.ctypeslib.as_array(pointer, shape=(self.model.n_vocab,))

    def forget(self, seq: int, start: int = 0) -> None:
        """Drop the cells of ``seq`` from position ``start`` on."""
        llama_cpp.llama_memory_seq_rm(self.memory, seq, start, -1)

    def copy(self, source: int, target: int) -> None:
        """Make ``target`` hold exactly what ``source`` holds, now.

        Through a saved state, not ``llama_memory_seq_cp``: across streams that copy waits for the next decode
        (a restore into the source before then would be copied instead) and moves the whole stream.
        """
        self.restore(target, self.save(source))

    def save(self, seq: int) -> bytes:
        """The KV state of ``seq``, to put back with :meth:`restore` into any free sequence."""
        size = llama_cpp.llama_state_seq_get_size(self.ptr, seq)
        buf = (ctypes.c_uint8 * size)()
        written = llama_cpp.llama_state_seq_get_data(self.ptr, buf, size, seq)
        return ctypes.string_at(buf, written)

    def restore(self, seq: int, state: bytes) -> None:
        self.forget(seq)
        buf = (ctypes.c_uint8 * len(state)).from_buffer_copy(state)
        if llama_cpp.llama_state_seq_set_data(self.ptr, buf, len(state), seq) == 0:
            raise ModelError(f"{self.model.path.name}: llama.cpp could not restore a conversation's state")

    def close(self) -> None:
        if self.ptr:
            llama_cpp.llama_batch_free(self._batch)
            llama_cpp.llama_free(self.ptr)
            self.ptr = None
