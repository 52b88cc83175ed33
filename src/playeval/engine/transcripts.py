"""The transcript contract, checked as a match is played: a game's ``transcript(state)`` only grows.

Every line a transcript has shown stays as it was, in its place, as the match goes on: new lines are only added
at the end. ``playeval play`` prints each line once, by its place (a line that moved is never printed, or printed
twice); the match page appends the new lines of each view (and redraws the whole transcript when an earlier line
changed, losing the reader's place); a game whose transcript rewrote a line would tell one match two ways.

Checking costs a transcript per step, so the engine checks only when ``PLAYEVAL_CHECKS`` is set (to anything but
``0`` or nothing): the test suite sets it for every test, and a game author sets it while writing a game.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from playeval.core.errors import PlayevalError
from playeval.core.game import Game

CHECKS_VARIABLE = "PLAYEVAL_CHECKS"


class TranscriptRewritten(PlayevalError):
    """A game's transcript changed a line it had already shown (a broken game, not a bad move)."""


def checks_enabled() -> bool:
    """Whether the engine checks the games' contracts as it plays (``$PLAYEVAL_CHECKS``)."""
    return os.environ.get(CHECKS_VARIABLE, "").strip() not in ("", "0")


class TranscriptWatch:
    """The transcript of a match as last seen, to check each new one against (see the module's note)."""

    __slots__ = ("_game", "_lines")

    def __init__(self, game: Game[Any], state: Any) -> None:
        self._game = game
        self._lines: list[tuple[str, str]] = _lines(game.transcript(state))

    def check(self, state: Any) -> None:
        """Raise :class:`TranscriptRewritten` when the transcript of ``state`` does not begin with the last one."""
        lines = _lines(self._game.transcript(state))
        before = self._lines
        for number, (old, new) in enumerate(zip(before, lines, strict=False), start=1):
            if old != new:
                raise TranscriptRewritten(f"{self._game.id}: transcript line {number} was {_line(old)} and is now "
                                          f"{_line(new)}; a transcript only grows (earlier lines never change)")
        if len(lines) < len(before):
            raise TranscriptRewritten(f"{self._game.id}: transcript line {len(lines) + 1} ({_line(before[len(lines)])})"
                                      " is gone; a transcript only grows (earlier lines never change)")
        self._lines = lines


def watch(game: Game[Any], state: Any) -> TranscriptWatch | None:
    """A watch on the match's transcript from ``state`` on, when checks are on (see :func:`checks_enabled`)."""
    return TranscriptWatch(game, state) if checks_enabled() else None


def _lines(transcript: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    return [(str(speaker), str(text)) for speaker, text in transcript]


def _line(line: tuple[str, str]) -> str:
    speaker, text = line
    shown = text if len(text) <= 80 else text[:77] + "..."
    return f"{speaker}: {shown!r}"
