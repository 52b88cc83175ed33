"""The game protocol: a game is a pure state machine.

Given a spec and the actions so far, a game says whose turn it is and what
that seat must produce (``next_ask``), reads a reply (``parse``, raising
``FormatError``), applies a move (``apply``, raising ``RuleViolation``) and
says when the match is over (``outcome``). No I/O, clock or model calls.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar, Generic, Literal, Protocol, TypeVar, runtime_checkable

from pydantic import BaseModel, ConfigDict

from playeval.core.ask import Ask
from playeval.core.match import Action, MatchSpec, Outcome
from playeval.core.messages import Message

SpecOption = str | int | float | bool

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


class PersonInput(BaseModel):
    """Something a person holding the secret's seat provides before the match starts.

    ``key`` is ``"secret"`` (the spec's secret) or the name of a ``new_spec`` option. ``hidden`` input is
    typed without echo. ``choices`` restricts the answer. A game whose secret is drawn for the person
    (Taboo's word) asks for nothing and shows the person the drawn secret instead.
    """

    model_config = ConfigDict(frozen=True)

    key: str
    prompt: str
    hidden: bool = False
    choices: tuple[str, ...] | None = None
    required: bool = True


class Game(Protocol, Generic[StateT]):
    id: ClassVar[str]
    title: ClassVar[str]
    seats: ClassVar[tuple[SeatInfo, ...]]
    levels: ClassVar[tuple[LevelInfo, ...]]
    variant_count: ClassVar[int]
    secret_owner: ClassVar[str | None]
    """The seat that holds the secret (it may see it); every other seat must never be shown it."""
    person_inputs: ClassVar[tuple[PersonInput, ...]]
    """What a person in the ``secret_owner`` seat is asked for before the match (see ``PersonInput``)."""

    def new_spec(self, level: int, seed: int, rng: random.Random, secret: str | None = None,
                 secret_set: str | None = None, options: Mapping[str, SpecOption] | None = None) -> MatchSpec:
        """Draw a match's secret (from ``secret_set``, or the given one) and prompt variants from ``rng``.

        ``options`` are game-specific settings a person chooses when they hold a seat (Bluffing: the
        statement they make); a game raises ``ConfigError`` for an option it does not know.
        """
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


RetroKind = Literal["candidates", "judgement"]


class RetroPoint(BaseModel):
    """One round of a finished match, as the retrospective analysis re-asks it (GameArena section 3.1).

    ``messages`` is the evaluated seat's conversation through the round, exactly as that seat saw it
    when playing (its system prompt first). ``request`` is the game's retrospective request, in the
    game's own words; the analysis adds the output format. ``kind`` says what is asked for: a ranked
    list of candidates (Akinator objects, Taboo words) or a five-level judgement (Bluffing).
    ``question`` is the question the seat asked in this round, where there is one (Akinator's
    disparity ratio classifies the previous round's candidates by it).
    """

    model_config = ConfigDict(frozen=True)

    round: int
    kind: RetroKind
    messages: tuple[Message, ...]
    request: str
    question: str | None = None


@runtime_checkable
class RetroGame(Protocol):
    """A game that supports the retrospective analysis."""

    def retro_points(self, state: Any) -> Sequence[RetroPoint]:
        """One point per round of a finished match, in round order."""
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
