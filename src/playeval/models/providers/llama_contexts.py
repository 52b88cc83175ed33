"""A small pool of llama.cpp contexts per model file, keyed by the request's ``affinity``.

Each conversation (say, the guesser and the answerer of one match) keeps its
own ``Llama`` object, so its KV cache still holds the previous turn and
llama.cpp only evaluates the new tail of the prompt. The weights are mmapped,
so an extra context costs its KV memory only. At most ``per_model`` contexts
are kept per file; the least recently used one is closed when a new one is
needed. Everything here runs in worker threads: the pool has a lock, and
each context has its own lock that is held while it generates.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from llama_cpp import Llama


@dataclass
class LlamaSlot:
    """One loaded context and the lock that serialises its use."""

    llama: Llama
    lock: threading.Lock = field(default_factory=threading.Lock)
    closed: bool = False

    def close(self) -> None:
        with self.lock:
            if not self.closed:
                self.closed = True
                self.llama.close()


class LlamaContexts:
    """Up to ``per_model`` contexts per model file, least recently used evicted first."""

    def __init__(self, load: Callable[[Path], Llama], per_model: int = 3) -> None:
        if per_model < 1:
            raise ValueError("per_model must be >= 1")
        self._load = load
        self._per_model = per_model
        self._lock = threading.Lock()
        self._slots: dict[Path, OrderedDict[str, LlamaSlot]] = {}

    def acquire(self, path: Path, affinity: str | None) -> LlamaSlot:
        """The context for ``(path, affinity)``, loading it (and evicting the oldest) if needed.

        The caller must hold ``slot.lock`` while using ``slot.llama`` and
        check ``slot.closed`` under it (an evicted slot is closed).
        """
        key = affinity or ""
        evicted: list[LlamaSlot] = []
        with self._lock:
            slots = self._slots.setdefault(path, OrderedDict())
            slot = slots.get(key)
            if slot is not None and not slot.closed:
                slots.move_to_end(key)
                return slot
            while len(slots) >= self._per_model:
                _, oldest = slots.popitem(last=False)
                evicted.append(oldest)
            slot = LlamaSlot(self._load(path))
            slots[key] = slot
        for old in evicted:
            old.close()
        return slot

    def count(self, path: Path) -> int:
        with self._lock:
            return len(self._slots.get(path, {}))

    def close(self) -> None:
        with self._lock:
            slots = [slot for per_path in self._slots.values() for slot in per_path.values()]
            self._slots.clear()
        for slot in slots:
            slot.close()
