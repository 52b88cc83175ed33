"""The game protocol: a game is a pure state machine.

Given a spec and the actions so far, a game says whose turn it is and what
that seat must produce (``next_ask``), reads a reply (``parse``, raising
``FormatError``), applies a move (``apply``, raising ``RuleViolation``) and
says when the match is over (``outcome``). No I/O, clock or model calls.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from pydantic import BaseModel, ConfigDict

from playeval.core.ask import Ask
from playeval.core.match import Action, MatchSpec, Outcome

StateT = TypeVar("StateT")


class SeatInfo(BaseModel):
    """A seat of a game: its name and what it does."""

    model_config = ConfigDict(frozen=True)

    name: str
    role: str
    evaluated: bool = False


class LevelInfo(BaseModel):
    model_config = ConfigDict(frozen=True)

    level: int
    description: str


class Game(Protocol, Generic[StateT]):
    id: ClassVar[str]
    title: ClassVar[str]
    seats: ClassVar[tuple[SeatInfo, ...]]
    levels: ClassVar[tuple[LevelInfo, ...]]
    variant_count: ClassVar[int]
    secret_owner: ClassVar[str | None]
    """The seat that holds the secret (it may see it); every other seat must never be shown it."""

    def new_spec(self, level: int, seed: int, rng: random.Random, secret: str | None = None,
                 secret_set: str | None = None) -> MatchSpec:
        """Draw a match's secret (from ``secret_set``, or the given one) and prompt variants from ``rng``."""
        ...

    def initial_state(self, spec: MatchSpec) -> StateT: ...

    def next_ask(self, state: StateT) -> Ask:
        """The ask for the seat whose turn it is; only called while ``outcome`` is None."""
        ...

    def parse(self, state: StateT, ask: Ask, text: str) -> Action:
        """Read a reply to ``ask``; raise ``FormatError`` when it cannot be read."""
        ...

    def apply(self, state: StateT, action: Action) -> StateT:
        """Return the state after ``action``; raise ``RuleViolation`` for an illegal move."""
        ...

    def outcome(self, state: StateT) -> Outcome | None: ...

    def rounds(self, state: StateT) -> int:
        """The game's own round count so far (used for forfeits and aborts)."""
        ...

    def scripted_player(self, seat: str, spec: MatchSpec) -> Any:
        """An instant, deterministic player for ``seat`` (tests, benchmarks, ``--opponent scripted``)."""
        ...

    def transcript(self, state: StateT) -> Sequence[tuple[str, str]]:
        """(seat, text) lines of the match so far, for people to read."""
        ...


def replay(game: Game[StateT], spec: MatchSpec, actions: Iterable[Action]) -> StateT:
    """Fold recorded actions over the initial state: the state is a function of the log."""
    state = game.initial_state(spec)
    for action in actions:
        state = game.apply(state, action)
    return state


def evaluated_seat(game: Game[StateT]) -> str:
    for seat in game.seats:
        if seat.evaluated:
            return seat.name
    raise ValueError(f"game {game.id} declares no evaluated seat")
