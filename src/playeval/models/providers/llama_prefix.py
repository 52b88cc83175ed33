"""Shared prefixes of token sequences, and what a perfect prefix cache would have had to evaluate."""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt


def common_prefix(a: Sequence[int] | npt.NDArray[np.int32], b: Sequence[int] | npt.NDArray[np.int32]) -> int:
    """The number of leading tokens ``a`` and ``b`` share."""
    n = min(len(a), len(b))
    if n == 0:
        return 0
    left = np.asarray(a[:n], dtype=np.int32)
    right = np.asarray(b[:n], dtype=np.int32)
    differ = np.flatnonzero(left != right)
    return int(differ[0]) if differ.size else n


class PerfectCache:
    """The prompt tokens a cache that kept every earlier prompt and reply of a model would still evaluate.

    It remembers the last ``keep`` token sequences (a prompt followed by its reply) and answers, for a new prompt,
    its length minus the longest prefix it shares with any of them; that is the floor any prefix cache can reach,
    the figure the engine's evaluated count is held against.
    """

    def __init__(self, keep: int = 4096) -> None:
        self._seen: deque[npt.NDArray[np.int32]] = deque(maxlen=keep)

    def needed(self, prompt: Sequence[int]) -> int:
        tokens = np.asarray(prompt, dtype=np.int32)
        best = max((common_prefix(seen, tokens) for seen in self._seen), default=0)
        return max(min(1, len(tokens)), len(tokens) - best)  # the last token is evaluated again for its logits

    def add(self, tokens: Sequence[int]) -> None:
        self._seen.append(np.asarray(tokens, dtype=np.int32))
