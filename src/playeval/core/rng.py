"""Seeding: every match gets its own ``random.Random``; the global one is never touched."""

from __future__ import annotations

import hashlib
import random


def derive_seed(*parts: object) -> int:
    """A stable 63-bit seed from any parts (run seed, game, level, match index...)."""
    text = "\x1f".join(str(part) for part in parts)
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big") >> 1


def match_rng(seed: int) -> random.Random:
    return random.Random(seed)
