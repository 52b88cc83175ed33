"""The data that defines a match and how it ended."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class MatchSpec(BaseModel):
    """Everything needed to replay a match's rules from scratch.

    ``secret`` is what the game hides from one side (an object, a word, a
    statement's truth). It is stored with the match and never put into an Ask
    for a seat that must not see it. ``variants`` maps each seat to the index
    of its system prompt variant, drawn from the match's RNG.
    """

    model_config = ConfigDict(frozen=True)

    game: str
    level: int
    seed: int
    secret: str | None = None
    variants: dict[str, int] = Field(default_factory=dict)
    params: dict[str, str | int | float | bool] = Field(default_factory=dict)


class Action(BaseModel):
    """A parsed, legal move. ``text`` is its canonical form (the question, the guessed object, the answer)."""

    model_config = ConfigDict(frozen=True)

    seat: str
    kind: str
    text: str


OutcomeStatus = Literal["finished", "forfeit", "aborted"]


class Outcome(BaseModel):
    """How a match ended; the same small set of fields for every game.

    ``status`` is ``finished`` when the rules ended the match, ``forfeit`` when
    ``forfeit_seat`` ran out of re-asks, ``aborted`` when it was stopped from
    outside. ``winner`` is a seat name, or ``None`` for a draw, a forfeit or an
    abort. ``rounds`` is the game's own round count (Akinator: questions used).
    """

    model_config = ConfigDict(frozen=True)

    status: OutcomeStatus
    winner: str | None
    reason: str
    rounds: int
    forfeit_seat: str | None = None
