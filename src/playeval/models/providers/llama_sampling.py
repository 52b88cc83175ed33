"""Choosing each next token: llama.cpp's samplers, with a grammar checked after sampling instead of before.

A grammar sampler in front of the chain tests every one of the vocabulary's tokens (151,936 for Qwen) against the
grammar before each pick, which made constrained generation a third slower than free generation. llama.cpp's own
tools sample first and check only the token they picked; only when the grammar refuses it do they filter the whole
vocabulary and sample again. :class:`TokenSampler` does the same. Greedy decoding picks the same token either way.
Sampling follows the same distribution as filtering first only without truncation; top-k, top-p and min-p cut
the unconstrained distribution before the check, which can weigh the allowed tokens differently (as in llama.cpp's
own sampler). A given seed picks other tokens than the filter-first chain did, so replies differ from the ones
playeval recorded before this sampler (``docs/models.md``).
"""

from __future__ import annotations

import ctypes
import math
from typing import Any

import llama_cpp
import numpy as np

from playeval.models.errors import ModelError
from playeval.models.providers.llama_native import NativeContext, NativeModel

TOP_K = 40
MIN_P = 0.05
"""The truncation llama-cpp-python's chat completion applied by default, kept so that sampled replies keep their
character (``top_p`` comes from the request)."""

_TOKEN_DATA = np.dtype([("id", np.int32), ("logit", np.float32), ("p", np.float32)], align=True)


def check_grammar(model: NativeModel, text: str) -> None:
    """Raise ``ModelError`` unless llama.cpp accepts ``text`` as a GBNF grammar with a ``root`` rule."""
    sampler = llama_cpp.llama_sampler_init_grammar(model.vocab, text.encode("utf-8"), b"root")
    if not sampler:
        first_line = text.strip().splitlines()[0] if text.strip() else ""
        raise ModelError(f"invalid GBNF grammar (root rule 'root'): {first_line[:120]}")
    llama_cpp.llama_sampler_free(sampler)


class Candidates:
    """A reusable ``llama_token_data_array`` over the whole vocabulary, filled from a logits row with numpy."""

    def __init__(self, n_vocab: int) -> None:
        self._data = (llama_cpp.llama_token_data * n_vocab)()
        self._view: Any = np.ctypeslib.as_array(self._data).view(_TOKEN_DATA)
        self._ids = np.arange(n_vocab, dtype=np.int32)
        self._n_vocab = n_vocab
        self.array = llama_cpp.llama_token_data_array(
            data=self._data, size=n_vocab, selected=-1, sorted=False)

    def fill(self, logits: Any) -> llama_cpp.llama_token_data_array:
        self._view["id"] = self._ids
        self._view["logit"] = logits
        self._view["p"] = 0.0
        self.array.data = self._data
        self.array.size = self._n_vocab
        self.array.selected = -1
        self.array.sorted = False
        return self.array

    def selected(self) -> int:
        return int(self.array.data[self.array.selected].id)


class TokenSampler:
    """The next-token choice of one reply: greedy at temperature 0, else top-k, top-p, min-p, temperature and a
    seeded draw; a grammar, when given, is checked on the drawn token and enforced only when it refuses it."""

    def __init__(self, model: NativeModel, candidates: Candidates, *, temperature: float, top_p: float, seed: int,
                 grammar: str | None) -> None:
        self._candidates = candidates
        self._chain = llama_cpp.llama_sampler_chain_init(llama_cpp.llama_sampler_chain_default_params())
        if temperature <= 0:
            llama_cpp.llama_sampler_chain_add(self._chain, llama_cpp.llama_sampler_init_greedy())
        else:
            for sampler in (llama_cpp.llama_sampler_init_top_k(TOP_K), llama_cpp.llama_sampler_init_top_p(top_p, 1),
                            llama_cpp.llama_sampler_init_min_p(MIN_P, 1),
                            llama_cpp.llama_sampler_init_temp(temperature),
                            llama_cpp.llama_sampler_init_dist(seed & 0xFFFFFFFF)):
                llama_cpp.llama_sampler_chain_add(self._chain, sampler)
        self._grammar = None
        if grammar is not None:
            self._grammar = llama_cpp.llama_sampler_init_grammar(model.vocab, grammar.encode("utf-8"), b"root")
            if not self._grammar:
                self.close()
                check_grammar(model, grammar)  # raises with the grammar's first line
                raise ModelError("invalid GBNF grammar")
        self._one = (llama_cpp.llama_token_data * 1)()
        self._one_array = llama_cpp.llama_token_data_array(data=self._one, size=1, selected=-1, sorted=False)
        self.refusals = 0
        """How many drawn tokens the grammar refused (each cost one filter of the whole vocabulary)."""

    def sample(self, context: NativeContext, row: int) -> int:
        token = int(llama_cpp.llama_sampler_sample(self._chain, context.ptr, row))
        if self._grammar is None:
            return token
        if not self._allowed(token):
            self.refusals += 1
            array = self._candidates.fill(context.logits(row))
            llama_cpp.llama_sampler_apply(self._grammar, ctypes.byref(array))
            llama_cpp.llama_sampler_apply(self._chain, ctypes.byref(array))
            token = self._candidates.selected()
        llama_cpp.llama_sampler_accept(self._grammar, token)
        return token

    def _allowed(self, token: int) -> bool:
        self._one[0].id = token  # type: ignore[assignment]
        self._one[0].logit = 0.0
        self._one[0].p = 0.0
        self._one_array.size = 1
        self._one_array.selected = -1
        self._one_array.sorted = False
        llama_cpp.llama_sampler_apply(self._grammar, ctypes.byref(self._one_array))
        return not math.isinf(self._one[0].logit)

    def close(self) -> None:
        if self._chain:
            llama_cpp.llama_sampler_free(self._chain)
            self._chain = None
        if self._grammar:
            llama_cpp.llama_sampler_free(self._grammar)
            self._grammar = None
