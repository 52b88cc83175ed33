"""The game protocol: a game is a pure state machine.

Given a spec and the events so far, a game says which seats and roles are to move and what each must produce
(``next_asks``: one ask for a turn, several for a parallel phase such as a secret vote), reads a reply
(``parse``, raising ``FormatError``), applies a move (``apply``, raising ``RuleViolation``) and says when the
match is over (``outcome``). No I/O, clock or model calls: a part that needs a model and is not a player (a
judge, a game master) is a *role*, asked like a seat and bound to a model by the run.

A game also declares everything the rest of playeval shows or computes about it (seats, roles, levels,
options, what a person provides, page texts, metrics); :class:`GameBase` gives the defaults.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar, Generic, Protocol, TypeVar, runtime_checkable

from pydantic import BaseModel, ConfigDict

from playeval.core.ask import Ask
from playeval.core.baselines import BaselineInfo
from playeval.core.errors import ConfigError
from playeval.core.events import ActionApplied, Event, SeatAssignment, SeatEliminated
from playeval.core.hidden import disclosed_to as disclosed_to  # its home before core.hidden
from playeval.core.info import (
    ConversationBreak,
    Disclosure,
    GameOption,
    LevelInfo,
    MetricSpec,
    PersonInput,
    PlotKind,
    Presentation,
    RoleInfo,
    Scalar,
    ScoreInfo,
    SeatInfo,
    TeamAnalysis,
)
from playeval.core.match import Action, MatchSpec, Outcome
from playeval.core.messages import Message
from playeval.core.panel import Panel

StateT = TypeVar("StateT")


class Game(Protocol, Generic[StateT]):
    id: ClassVar[str]
    title: ClassVar[str]
    seats: ClassVar[tuple[SeatInfo, ...]]
    """The declared seats; a match's own table is :meth:`table` (a game may seat a different number)."""
    roles: ClassVar[tuple[RoleInfo, ...]]
    levels: ClassVar[tuple[LevelInfo, ...]]
    options: ClassVar[tuple[GameOption, ...]]
    person_inputs: ClassVar[tuple[PersonInput, ...]]
    secret_sets: ClassVar[tuple[str, ...]]
    split_sets: ClassVar[tuple[str, str] | None]
    """Two of ``secret_sets`` that share no secret (``("set1", "set2")``), for a held-out comparison: the same
    run on each, then ``playeval analyze stability`` (GameArena's Set 1 against Set 2). ``None``: none offered."""
    baselines: ClassVar[tuple[BaselineInfo, ...]]
    """The baseline players of known character the game provides (``core.baselines``): at least ``random``."""
    presentation: ClassVar[Presentation]
    metrics: ClassVar[tuple[MetricSpec, ...]]
    """Procedural metrics computed from retrospective outputs (see :class:`RetroGame`)."""
    ranking_skill: ClassVar[str | None]
    """The skill whose retrospective rank ranks models on this game (GameArena Table 4), if any."""
    score: ClassVar[ScoreInfo | None]
    """What ``SeatResult.score`` is in this game, where its outcome gives one (its label and unit)."""
    teams: ClassVar[TeamAnalysis | None]
    """A team game's analyses (side tables, team Elo, per-seat measures); its ``seat_measures`` gives the
    measures (:class:`TeamGame`). ``None``: no team analysis."""
    plots: ClassVar[tuple[PlotKind, ...]]
    """The plots the report draws for this game, beside the win rates and the capability profile every game gets."""
    conversation_breaks: ClassVar[tuple[ConversationBreak, ...]]
    """The asks that do not continue their party's conversation on purpose, each with why (``ConversationBreak``):
    every other ask of a seat or role begins with the messages of its previous ask and the reply accepted for it,
    so a local model reads only what is new. Default: none."""
    reask_temperature: ClassVar[float | None]
    """``None`` (the default): an evaluated seat's re-ask keeps the run's temperature, so a greedy model's invalid
    move is measured as it is. A number: its re-asks are fresh, sampled tries at least this hot, for a game whose
    rules refuse moves a greedy model can only repeat (a sentence already said) and where a forfeit ends a seat's
    game (see ``LLMPlayer``). Refused replies are counted either way."""

    def table(self, spec: MatchSpec) -> tuple[SeatInfo, ...]:
        """The seats of this match, in order."""
        ...

    def new_spec(self, level: int, seed: int, rng: random.Random, *, inputs: Mapping[str, str] | None = None,
                 secret_set: str | None = None, options: Mapping[str, Scalar] | None = None) -> MatchSpec:
        """Draw a match's setup and prompt variants from ``rng``.

        ``inputs`` are what people provided (checked against ``person_inputs`` by :func:`check_inputs`);
        ``options`` the game's settings (checked by :func:`check_options`); a game raises ``ConfigError`` for
        values it cannot use.
        """
        ...

    def initial_state(self, spec: MatchSpec) -> StateT: ...

    def next_asks(self, state: StateT) -> tuple[Ask, ...]:
        """The open asks: one seat's or role's turn, or several at once (a parallel phase, in which no ask
        shows another's reply of that phase). Only called while ``outcome`` is None; never empty then."""
        ...

    def parse(self, state: StateT, ask: Ask, text: str) -> Action:
        """Read a reply to ``ask``; raise ``FormatError`` when it cannot be read."""
        ...

    def apply(self, state: StateT, action: Action) -> StateT:
        """Return the state after ``action``; raise ``RuleViolation`` for an illegal move.

        Within a parallel phase the replies are applied in the order they are recorded (seat order in batch
        runs, arrival order in the arena): the state after the phase must not depend on that order.
        """
        ...

    def eliminate(self, state: StateT, seat: str, reason: str) -> StateT | None:
        """The state after ``seat`` forfeits (ran out of re-asks): the seat is out and the match goes on; or
        ``None`` when a forfeit ends the match."""
        ...

    def default_move(self, state: StateT, ask: Ask, reason: str) -> Action | None:
        """The move that stands in for a seat's or role's move to ``ask`` once its re-asks are spent (an
        abstention from a vote, a judge's "no verdict", with ``reason``, the last refusal's), recorded and applied
        like any action; ``None`` (the default): the seat is eliminated or forfeits (:meth:`eliminate`), the role
        aborts the match."""
        ...

    def outcome(self, state: StateT) -> Outcome | None: ...

    def rounds(self, state: StateT) -> int:
        """The game's own round count so far (used for forfeits and aborts)."""
        ...

    def scripted_player(self, party: str, spec: MatchSpec) -> Any:
        """An instant, deterministic player for a seat or role (tests, benchmarks, ``--opponent scripted``,
        ``mock/player`` in a game it was not written for). Its ``act(ask)`` makes the move from the ask alone and
        keeps no state between asks (the contract is in :mod:`playeval.core.scripted`)."""
        ...

    def baseline_player(self, name: str, party: str, spec: MatchSpec) -> Any:
        """The baseline player ``name`` (one of ``baselines``) for an evaluated seat: the scripted-player contract,
        and it never reads a hidden part of ``spec`` (``core.baselines``)."""
        ...

    def transcript(self, state: StateT) -> Sequence[tuple[str, str]]:
        """(seat, text) lines of the match so far that anyone may read (nothing hidden, nothing of an open
        parallel phase). A role's free text written with hidden parts in view (a judge's reason) is declared on
        the role (``RoleInfo.held``) and rendered from the state as usual: while the match is live, views pass
        the live state, in which that text is blank (``core.held``), so the line shows the verdict only.

        A transcript only grows: once shown, a line never changes or moves, and new lines come at the end (a line
        whose content is not final yet, or hidden information revealed at the end, is added when it is). The
        engine checks this at every step when ``PLAYEVAL_CHECKS`` is set, as the test suite does
        (``engine.transcripts``)."""
        ...

    def disclosures(self, spec: MatchSpec, state: Any = None) -> Sequence[Disclosure]:
        """The match's hidden information: who may see each part while it is played. All of it is revealed
        at the end. ``state``, when given, is the match so far, for hidden parts made during play (a rule a game
        master wrote); without it a game gives what its spec holds.

        A seat that may see a part sees only its live form while playing (``label``: "Your word"); its
        ``revealed_label`` ("player3's word (undercover)") and its ``seats`` are shown to no one before the end
        (``core.hidden``), so they may name what the holder does not know. What a game puts in its asks,
        transcript and panel it must keep to the same rule itself: a seat's ask shows only what that seat may see.
        """
        ...

    def made_in_play(self, spec: MatchSpec) -> tuple[str, ...]:
        """The keys of the hidden parts this match makes during play (a rule its game master writes), which
        ``disclosures`` gives only from a state. No seat may see them while the match is played, so a role whose
        asks carry one (``RoleInfo.sees``) is bound to no seat. Default: none."""
        ...

    def panel(self, state: StateT, viewer: str | None) -> Panel | None:
        """The match as structured data for a page, for the viewer holding seat ``viewer`` (``None``: a watcher or
        a replay): lists, counters, a clock, forms for the viewer's moves (``core.panel``); ``None``: the game has
        none (its transcript says it all). Only what that viewer may see now, as for asks; a live match's panel
        is built from its live state, without held text (``core.held``)."""
        ...


class GameBase:
    """Defaults for the declarations and hooks most games share; a game class derives from it and sets the
    rest. A turn-based game implements ``next_ask`` (one ask at a time) instead of ``next_asks``."""

    roles: ClassVar[tuple[RoleInfo, ...]] = ()
    options: ClassVar[tuple[GameOption, ...]] = ()
    person_inputs: ClassVar[tuple[PersonInput, ...]] = ()
    secret_sets: ClassVar[tuple[str, ...]] = ()
    split_sets: ClassVar[tuple[str, str] | None] = None
    baselines: ClassVar[tuple[BaselineInfo, ...]] = ()
    metrics: ClassVar[tuple[MetricSpec, ...]] = ()
    ranking_skill: ClassVar[str | None] = None
    reask_temperature: ClassVar[float | None] = None
    conversation_breaks: ClassVar[tuple[ConversationBreak, ...]] = ()
    score: ClassVar[ScoreInfo | None] = None
    teams: ClassVar[TeamAnalysis | None] = None
    plots: ClassVar[tuple[PlotKind, ...]] = ()
    seats: ClassVar[tuple[SeatInfo, ...]]

    def table(self, spec: MatchSpec) -> tuple[SeatInfo, ...]:
        if not spec.seats:
            return self.seats
        declared = {seat.name: seat for seat in self.seats}
        return tuple(declared[name] for name in spec.seats)

    def next_ask(self, state: Any) -> Ask:
        raise NotImplementedError(f"{type(self).__name__} implements neither next_ask nor next_asks")

    def next_asks(self, state: Any) -> tuple[Ask, ...]:
        return (self.next_ask(state),)

    def eliminate(self, state: Any, seat: str, reason: str) -> Any:
        return None

    def default_move(self, state: Any, ask: Ask, reason: str) -> Action | None:
        return None

    def baseline_player(self, name: str, party: str, spec: MatchSpec) -> Any:
        raise ConfigError(f"{type(self).__name__} provides no baseline player {name!r}")

    def disclosures(self, spec: MatchSpec, state: Any = None) -> Sequence[Disclosure]:
        return ()

    def made_in_play(self, spec: MatchSpec) -> tuple[str, ...]:
        return ()

    def panel(self, state: Any, viewer: str | None) -> Panel | None:
        return None

    def match_category(self, spec: MatchSpec) -> str | None:
        return None


class RetroPoint(BaseModel):
    """One round of a finished match, as the retrospective analysis re-asks it (GameArena section 3.1).

    ``messages`` is the evaluated seat's conversation through the round, exactly as that seat saw it
    when playing (its system prompt first). ``request`` is the game's retrospective request, in the
    game's own words; the analysis adds the output format of ``kind`` (``candidates``: a ranked list;
    ``judgement``: a five-level judgement). ``question`` is the question the seat asked in this round,
    where there is one (Akinator's disparity ratio classifies the previous round's candidates by it).
    ``seat`` is the seat re-asked.
    """

    model_config = ConfigDict(frozen=True)

    round: int
    kind: str
    messages: tuple[Message, ...]
    request: str
    question: str | None = None
    seat: str | None = None


class RetroOutput(BaseModel):
    """One stored retrospective output, as a game scores it: ``output`` is ``None`` when it was unreadable."""

    model_config = ConfigDict(frozen=True)

    round: int
    kind: str
    output: Any | None
    error: str | None = None


class RetroScore(BaseModel):
    """A match's retrospective outputs as its game scores them.

    ``metrics``: a value (or ``None``: no value for this match) for each of the game's ``metrics``.
    ``hits``: per round, whether that round's output was right (a candidate list holding the secret, a
    judgement on the truth's side; ``None``: unreadable), for recall curves and transcripts. ``levels``: the
    five-level judgements by round (1 = True ... 5 = False), with ``truth``, for trajectory plots.
    """

    model_config = ConfigDict(frozen=True)

    metrics: dict[str, float | int | None]
    hits: dict[int, bool | None] = {}
    levels: tuple[int, ...] = ()
    truth: bool | None = None


@runtime_checkable
class RetroGame(Protocol):
    """A game that supports the retrospective analysis and computes its procedural metrics."""

    def retro_points(self, state: Any) -> Sequence[RetroPoint]:
        """One point per round of a finished match, in round order."""
        ...

    def score_retro(self, spec: MatchSpec, outputs: Sequence[RetroOutput]) -> RetroScore:
        """The game's ``metrics`` and per-round hits for one match, from its stored outputs."""
        ...


@runtime_checkable
class TeamGame(Protocol):
    """A game with a team analysis (``teams``): it computes its declared seat measures from a finished match."""

    def seat_measures(self, spec: MatchSpec, state: Any, events: Sequence[Event]
                      ) -> Mapping[str, Mapping[str, float | None]]:
        """Per seat of the match: a value (or ``None``: no value) for each measure its ``teams`` declares, but
        the ones playeval fills in (``won``, ``forfeited``)."""
        ...

    def match_category(self, spec: MatchSpec) -> str | None:
        """The category a match is counted under in the win rate by category (``teams.category``), if any."""
        ...


class JudgeCase(BaseModel):
    """A labelled case for measuring a game's judge role: what the judge is shown, and the right verdict.

    ``context`` holds what the game needs to build the judge's ask (a rule, the examples seen); ``answer`` is the
    reply judged (a guess); ``kind`` says what sort of case it is (``exact``, ``paraphrase``, ``near miss``,
    ``vague``, ``wrong``) so that error rates can be read per kind.
    """

    model_config = ConfigDict(frozen=True)

    id: str
    context: dict[str, Any]
    answer: str
    correct: bool
    kind: str


@runtime_checkable
class JudgedGame(Protocol):
    """A game whose judge role can be measured against labelled cases (``playeval analyze judge``)."""

    @property
    def judge_case_keys(self) -> Mapping[str, str]:
        """The keys a case's ``context`` must hold for ``judge_case_ask``, each with what it holds (for the
        documentation of ``--cases`` files and their errors: a case without one of them is refused by name)."""
        ...

    def judge_cases(self) -> Sequence[JudgeCase]:
        """The game's calibration set."""
        ...

    def judge_case_ask(self, case: JudgeCase) -> Ask:
        """The judge's ask for a case, worded exactly as in a match."""
        ...

    def judge_case_verdict(self, ask: Ask, text: str) -> bool:
        """The judge's reply read as accept (True) or refuse; raises ``FormatError`` when it cannot be read."""
        ...


def fold(game: Game[StateT], spec: MatchSpec, events: Iterable[Event]) -> StateT:
    """The state of a match: its recorded actions and eliminations folded over the initial state."""
    state = game.initial_state(spec)
    for event in events:
        if isinstance(event, ActionApplied):
            state = game.apply(state, event.action)
        elif isinstance(event, SeatEliminated):
            eliminated = game.eliminate(state, event.seat, event.reason)
            if eliminated is None:
                raise ValueError(f"{game.id} recorded an elimination of {event.seat} but does not eliminate seats")
            state = eliminated
    return state


def replay(game: Game[StateT], spec: MatchSpec, actions: Iterable[Action]) -> StateT:
    """Fold actions over the initial state (the state is a function of the log)."""
    state = game.initial_state(spec)
    for action in actions:
        state = game.apply(state, action)
    return state


def evaluated_seats(game: Game[Any], spec: MatchSpec) -> tuple[str, ...]:
    """The seats of this match's table that the game evaluates."""
    return tuple(seat.name for seat in game.table(spec) if seat.evaluated)


def seat_evaluated(game: Game[Any], spec: MatchSpec, assignment: SeatAssignment) -> bool:
    """Whether the match counts for the model in this seat: as the match recorded it, or (logs of schema
    version 1, which did not record it) whether the game evaluates the seat."""
    if assignment.evaluated is not None:
        return assignment.evaluated
    return assignment.seat in evaluated_seats(game, spec)


def person_seat(game: Game[Any]) -> str:
    """The seat a person takes unless they choose another: the game's choice, else the first seat a person may
    take that is not evaluated, else the first a person may take."""
    if game.presentation.person_seat is not None:
        return game.presentation.person_seat
    open_seats = [seat for seat in game.seats if seat.person]
    if not open_seats:
        raise ValueError(f"game {game.id} has no seat a person may take")
    return next((seat.name for seat in open_seats if not seat.evaluated), open_seats[0].name)


def split_sets_of(game: Game[Any]) -> tuple[str, str] | None:
    """The game's two disjoint secret sets for a held-out comparison (``Game.split_sets``), or ``None`` when it offers
    none, as a game written before they were (that does not derive from :class:`GameBase`) does."""
    declared: tuple[str, str] | None = getattr(game, "split_sets", None)
    return declared


def conversation_breaks_of(game: Game[Any]) -> tuple[ConversationBreak, ...]:
    """The asks of ``game`` that do not continue their party's conversation (``Game.conversation_breaks``); none for
    a game written before they were declared that does not derive from :class:`GameBase`."""
    declared: tuple[ConversationBreak, ...] = getattr(game, "conversation_breaks", ())
    return declared


def roles_not_asked(game: Game[Any], spec: MatchSpec) -> frozenset[str]:
    """The roles a match of ``spec`` never asks (a game's ``roles_not_asked(spec)``: Dynamic Picnic's game master
    and validator when it plays a banked rule), so a run need not check their models ready; none for a game that
    declares no such method."""
    hook = getattr(game, "roles_not_asked", None)
    return frozenset(hook(spec)) if hook is not None else frozenset()


def panel_of(game: Game[Any], state: Any, viewer: str | None) -> Panel | None:
    """The game's panel for ``viewer`` (``None`` for a game that declares no ``panel``, such as one written before
    the hook existed that does not derive from :class:`GameBase`)."""
    hook = getattr(game, "panel", None)
    return hook(state, viewer) if hook is not None else None
