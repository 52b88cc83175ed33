"""A response cache on disk, so a rerun of a seeded benchmark is reproducible and free.

The cache is a single SQLite file (one table, key -> JSON) that belongs to the
model layer alone; it is not the playeval store. It is opened lazily on first
use, runs in WAL mode so several processes may share it, and serialises access
from threads with a lock.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
import time
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from playeval.models.types import ModelRequest

_SCHEMA = "CREATE TABLE IF NOT EXISTS responses ( key TEXT PRIMARY KEY, value TEXT NOT NULL, created_at REAL NOT NULL)"


class CacheEntry(BaseModel):
    """What the cache keeps of one provider call."""

    model_config = ConfigDict(frozen=True)

    text: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_s: float = 0.0
    attempts: int = 1
    output_path: str | None = None
    """How the provider enforced the request's constraint (``ProviderResult.output_path``)."""
    answer_probs: tuple[dict[str, float], ...] = ()
    """The answers' probabilities (``ProviderResult.answer_probs``)."""
    prompt_evaluated: int | None = None
    """What the original call computed (``ProviderResult.prompt_evaluated`` and the three below), kept as a
    record of it; a hit hands none of them on, since serving it computes nothing (``Model.generate``)."""
    prompt_needed: int | None = None
    prompt_s: float | None = None
    generation_s: float | None = None


def default_cache_path() -> Path:
    """``$PLAYEVAL_CACHE_DIR/responses.sqlite``, else under ``$XDG_CACHE_HOME/playeval``, else ``~/.cache/playeval``."""
    explicit = os.environ.get("PLAYEVAL_CACHE_DIR")
    if explicit:
        return Path(explicit).expanduser() / "responses.sqlite"
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".cache"
    return base / "playeval" / "responses.sqlite"


def request_key(address: str, request: ModelRequest) -> str:
    """SHA-256 of the canonical JSON of the address and the request without its ``affinity`` hint (a request asking
    for answer probabilities is another key: the entry holds them)."""
    dumped = request.model_dump(mode="json", exclude={"affinity"})
    if dumped.get("answers") is None:  # a request that asks no probabilities keeps the key it had before they existed
        dumped.pop("answers", None)
    payload = {"address": address, "request": dumped}
    canonical = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


class ResponseCache:
    """Key -> ``CacheEntry`` in a SQLite file at ``path``; nothing touches the disk before the first call."""

    def __init__(self, path: Path) -> None:
        self._path = path
        self._lock = threading.Lock()
        self._conn: sqlite3.Connection | None = None

    @property
    def path(self) -> Path:
        return self._path

    def _connection(self) -> sqlite3.Connection:
        # Called with the lock held.
        if self._conn is None:
            self._path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(self._path, check_same_thread=False, timeout=30.0, isolation_level=None)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute(_SCHEMA)
            self._conn = conn
        return self._conn

    def get(self, key: str) -> CacheEntry | None:
        with self._lock:
            row = self._connection().execute("SELECT value FROM responses WHERE key = ?", (key,)).fetchone()
        if row is None:
            return None
        return CacheEntry.model_validate_json(row[0])

    def put(self, key: str, entry: CacheEntry) -> None:
        with self._lock:
            self._connection().execute(
                "INSERT OR REPLACE INTO responses (key, value, created_at) VALUES (?, ?, ?)",
                (key, entry.model_dump_json(), time.time()),
            )

    def __len__(self) -> int:
        with self._lock:
            row = self._connection().execute("SELECT COUNT(*) FROM responses").fetchone()
        return int(row[0])

    def clear(self) -> None:
        with self._lock:
            self._connection().execute("DELETE FROM responses")

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None
