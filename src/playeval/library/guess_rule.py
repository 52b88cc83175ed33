"""GuessTheRuleBench's Python library interface (the paper's section 3.5.1), for researchers' own agents.

Every instance is a stored match: the caller holds the player's seat, the judge role is a model (``judge``,
default playeval's local model; ``scripted`` compares guesses with the rule's own words), and a game can be
loaded by its uuid in another process (``load_game``). ``DynamicGoingOnAPicnic`` also binds its game master and
validator (``game_master=``, ``validator=``); they move whenever they are due (at creation, after a request).
A model judge's verdicts are decided by the calibrated threshold found for that model when the game is created
(kept with the game, ``engine.calibrations``); ``calibration=False`` leaves them the judge's own word.
Turns count as in every other match. Errors are ``GuessRuleError`` exceptions with a message.

    game = MathGuessTheRuleGame(difficulty="L2", num_init_examples=3, seed=7)
    uuid = game.create_game_instance()
    game.get_more_examples(2)
    game.validate_guess("multiply by -2")          # True or False, from the judge
    game.get_game_summary(include_rule=True)
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Sequence
from datetime import datetime
from typing import Any, ClassVar

from playeval.core.errors import ConfigError, PlayevalError
from playeval.core.events import RoleAssignment, SeatAssignment
from playeval.core.held import live_state
from playeval.core.info import Scalar
from playeval.core.inputs import check_options
from playeval.core.registry import default_registry
from playeval.core.rng import match_rng
from playeval.engine import advance, build_players, ended, state_from_events, submit
from playeval.engine.calibrations import CalibrationBook, match_models, with_thresholds
from playeval.guess_rule.base import JUDGE, PLAYER, SKIP, Guess, GuessRuleGame, GuessState, More
from playeval.guess_rule.writing import CODE_EXECUTOR, GAME_MASTER
from playeval.models import DEFAULT_MODEL, ModelHub
from playeval.store import MatchRecord, Store

SCRIPTED = "scripted"
LOCAL = "local"


class GuessRuleError(PlayevalError):
    """A request the game refuses, or a game that cannot be found or loaded."""


class _GuessTheRuleGame:
    """The paper's library interface, shared by the four games: ``create_game_instance()`` (or ``load_game``) starts a
    stored match, then ``get_more_examples``, ``validate_guess`` and ``get_game_summary`` play it as the player
    seat. ``difficulty`` is ``L1`` to ``L3``; ``judge`` is the judge role's binding (a model address, ``local`` or
    ``scripted``; default the local model); ``db`` the store's URL (default the user's store); other keyword
    arguments are the game's options (``playeval games``)."""

    game_id: ClassVar[str]
    other_roles: ClassVar[tuple[str, ...]] = ()
    """Roles besides the judge that the caller binds (keyword arguments of the same names; a model address,
    ``local`` or ``scripted``)."""

    def __init__(self, difficulty: str = "L1", num_init_examples: int = 2, seed: int | None = None,
                 judge: str | None = None, db: str | None = None, *, calibration: bool = True,
                 **game_options: Scalar) -> None:
        game = default_registry().get(self.game_id)
        if not isinstance(game, GuessRuleGame):
            raise GuessRuleError(f"{self.game_id} is not a guess-the-rule game")
        self._game = game
        levels = {f"L{info.level}": info.level for info in game.levels}
        if difficulty not in levels:
            raise GuessRuleError(f"{self.game_id} has difficulties {', '.join(levels)}, not {difficulty!r}")
        self._level = levels[difficulty]
        try:
            self._options = check_options(game.id, game.options,
                                          {"num_init_examples": num_init_examples, **game_options})
        except ConfigError as err:
            raise GuessRuleError(str(err)) from None
        self._seed = seed
        self._calibration = calibration
        self._judge = judge or DEFAULT_MODEL
        self._bindings: dict[str, str] = {}
        self._db = db
        self._uuid: str | None = None
        self._previewed: list[str] | None = None
        """What ``held_out_items`` last returned: the items ``held_out_answers`` answer."""

    @property
    def uuid(self) -> str | None:
        """The current game's id (its match in the store), ``None`` before one is created or loaded."""
        return self._uuid

    def create_game_instance(self) -> str:
        """Start a new game (a stored match; its first examples are turn 1) and return its uuid."""
        seed = self._seed if self._seed is not None else secrets.randbelow(2**31)
        try:
            spec = self._game.new_spec(self._level, seed, match_rng(seed), options=self._options)
        except ConfigError as err:
            raise GuessRuleError(str(err)) from None
        roles = tuple(_assignment(role, binding) for role, binding in ((JUDGE, self._judge), *self._bindings.items()))
        if self._calibration:
            spec = with_thresholds(spec, CalibrationBook().thresholds(self._game.id, match_models((), roles)))
        with Store.open(self._db) as store:
            self._uuid = store.create_match(spec=spec, roles=roles, seats=(
                SeatAssignment(seat=PLAYER, player_kind="human", evaluated=True),))
            self._advance_roles(store)
        return self._uuid

    def _advance_roles(self, store: Store) -> None:
        """Let the roles move (a game master preparing examples, the judge) until the player is to move; a match
        the roles could not carry on (aborted) is a ``GuessRuleError`` with the reason."""
        asyncio.run(self._roles_step(store))
        outcome = self._record(store).outcome
        if outcome is not None and outcome.status == "aborted":
            raise GuessRuleError(f"game {self._uuid} was aborted: {outcome.reason}")

    def _record(self, store: Store) -> MatchRecord:
        if self._uuid is None:
            raise GuessRuleError("no game yet: call create_game_instance() or load_game(uuid) first")
        return store.get_match(self._uuid)

    def _state(self, store: Store) -> GuessState:
        state = state_from_events(self._game, self._record(store).spec, store.events(str(self._uuid)))
        assert isinstance(state, GuessState)
        return state

    def _submit(self, store: Store, text: str) -> None:
        record = self._record(store)
        events = store.events(record.id)
        if ended(events) is not None:
            raise GuessRuleError("the game is over")
        result = submit(self._game, record.spec, events, PLAYER, text, store, record.id)
        if not result.accepted:
            raise GuessRuleError(result.reason or "refused")

    def examples(self) -> dict[str, Any]:
        """Every example shown so far (does not count a turn)."""
        with Store.open(self._db) as store:
            state = self._state(store)
        return self._game.example_data(state.rule, 0, state.shown)

    def get_more_examples(self, n: int) -> dict[str, Any]:
        """``n`` more example units (one turn); ``GuessRuleError`` when fewer remain (no turn is counted)."""
        with Store.open(self._db) as store:
            before = self._state(store).shown
            self._submit(store, f"MORE: {int(n)}")
            self._advance_roles(store)
            state = self._state(store)
        return self._game.example_data(state.rule, before, state.shown)

    def held_out_items(self) -> list[str]:
        """The items the rule-application check of the next guess asks about (their answers stay hidden): each
        guess gets fresh items where the game's pool allows (``guess_rule.base``), so ask just before each guess (a
        request for more examples in between may change them: ``validate_guess`` then refuses the answers rather than
        score them against other items)."""
        with Store.open(self._db) as store:
            self._previewed = [item.prompt for item in self._game.next_check(self._state(store)).items]
        return list(self._previewed)

    def last_guess(self) -> str | None:
        """The sentence that says the next move is the last (``None`` while it is not): every example has been
        shown, so a refused guess ends the game, or the turn limit is reached. ``get_game_summary`` says it too."""
        with Store.open(self._db) as store:
            state = self._state(store)
        return None if state.rule is None or self._game.outcome(state) is not None else self._game.last_note(state)

    def validate_guess(self, guess: str, held_out_answers: Sequence[str] | None = None) -> bool:
        """Present a guess (one turn); ``held_out_answers`` are the guess applied to ``held_out_items()``, called
        since the last move (answers to other items are refused; the check is recorded as skipped without them).
        Returns the verdict: the rules' when they accept the guess (it states the rule; see
        ``GuessRuleGame.rules_accept``), else the judge's."""
        answers = SKIP if held_out_answers is None else \
            "\n".join(f"{number}. {answer}" for number, answer in enumerate(held_out_answers, start=1))
        with Store.open(self._db) as store:
            if held_out_answers is not None:
                due = [item.prompt for item in self._game.next_check(self._state(store)).items]
                if self._previewed is None:
                    raise GuessRuleError("answers to the check need its items first: call held_out_items()")
                if self._previewed != due:
                    raise GuessRuleError("the check's items changed since held_out_items() (a guess or more "
                                         "examples since): call held_out_items() again and answer those")
            self._submit(store, f"GUESS: {guess}")
            self._submit(store, answers)
            self._advance_roles(store)
            last = self._state(store).guesses[-1]
        return last.verdict == "yes"

    async def _roles_step(self, store: Store) -> None:
        record = self._record(store)
        async with ModelHub() as hub:
            players = build_players(self._game, record.spec, record.seats, record.roles, hub.get,
                                    people={PLAYER: None})
            await advance(self._game, record.spec, store.events(record.id), players, store, record.id)

    def get_game_summary(self, include_rule: bool = False) -> dict[str, Any]:
        """Turns taken, examples seen, time, history, status; once the game is over, how it ended (``reason``: a
        Dynamic Picnic game that fell back to a bank rule says so there); the rule only when asked (this counts no
        turn).

        ``examples_seen`` holds the examples themselves; ``seen`` counts what a person has seen of them (items, or
        the Math Game's values: a picnic unit shows two items), as the page's counter does, out of all the match can
        show; ``examples_left`` the units ``get_more_examples`` can still ask for. ``last_guess`` is true when the
        next move is the last (``last_guess_note`` says why: every example has been shown, or the turn limit).

        While the game is played each guess carries the judge's verdict only: its reason was written with the
        rule in view (``core.held``), so it is ``None`` until the game is over or the rule is asked for. A guess
        says who decided it (``decided``: ``rules`` when the rules accepted it without asking the judge, else
        ``judge``) and, in words, what became of it (``said``: "accepted by the rules", "accepted by the judge" or
        "not accepted")."""
        with Store.open(self._db) as store:
            record = self._record(store)
            records = store.event_records(record.id)
            events = [item.event for item in records]
        outcome = record.outcome
        state = live_state(self._game, record.spec, events, over=outcome is not None or include_rule)
        assert isinstance(state, GuessState)
        status = "playing" if outcome is None else "won" if outcome.winner == PLAYER else \
            "aborted" if outcome.status == "aborted" else "lost"
        history: list[dict[str, Any]] = []
        for move in state.history:
            if isinstance(move, More):
                history.append({"turn": move.turn, "kind": "more", "count": move.count})
            elif isinstance(move, Guess):
                history.append({"turn": move.turn, "kind": "guess", "text": move.text, "verdict": move.verdict,
                                "decided": move.decided, "said": move.said() or None,
                                "reason": move.reason or None,
                                "check_items": [item.prompt for item in move.check.items],
                                "check_note": move.check.said() or None})
        started: datetime = records[0].created_at
        last = None if state.rule is None or outcome is not None else self._game.last_note(state)
        summary: dict[str, Any] = {
            "uuid": record.id, "game": self.game_id, "difficulty": f"L{record.level}", "status": status,
            "turns_taken": state.turns,
            "examples_seen": {} if state.rule is None else self._game.example_data(state.rule, 0, state.shown),
            "seen": {"label": self._game.seen_label, "count": self._game.seen(state.shown),
                     "of": self._game.seen(state.total)},
            "examples_left": state.total - state.shown, "last_guess": last is not None, "last_guess_note": last,
            "duration_s": (records[-1].created_at - started).total_seconds(), "history": history,
            "check_accuracy": self._game.accuracy(state)}
        if outcome is not None:
            summary["reason"] = outcome.reason
        if include_rule and state.rule is not None:
            summary["rule"] = self._game.statement(state.rule)
        return summary

    @classmethod
    def load_game(cls, uuid: str, *, db: str | None = None) -> _GuessTheRuleGame:
        """The game stored under ``uuid``, ready to go on (in this process or another)."""
        with Store.open(db) as store:
            try:
                record = store.get_match(uuid)
            except PlayevalError:
                raise GuessRuleError(f"no game with uuid {uuid!r}") from None
        if record.game != cls.game_id:
            raise GuessRuleError(f"game {uuid} is {record.game}, not {cls.game_id}")
        judge = next((role.model or role.player_kind for role in record.roles if role.role == JUDGE), None)
        bound = {role.role: role.model or role.player_kind for role in record.roles if role.role in cls.other_roles}
        # The bound roles and the game's options, by name: the subclasses' keywords (Any: each takes its own).
        keywords: dict[str, Any] = {**bound, **{key: value for key, value in record.spec.params.items()
                                                if key in {option.name for option in cls._options_of()}}}
        loaded = cls(difficulty=f"L{record.level}", db=db, judge=judge, seed=record.seed, **keywords)
        loaded._uuid = uuid
        return loaded

    @classmethod
    def _options_of(cls) -> Sequence[Any]:
        return default_registry().get(cls.game_id).options


def _assignment(role: str, binding: str) -> RoleAssignment:
    if binding == SCRIPTED:
        return RoleAssignment(role=role, player_kind=SCRIPTED)
    return RoleAssignment(role=role, player_kind="llm", model=DEFAULT_MODEL if binding == LOCAL else binding)


class StaticGoingOnAPicnic(_GuessTheRuleGame):
    """Static Picnic: the rule is a fixed category of items (WordNet categories; two or three at once at the higher
    levels), drawn from the match's seed; only the judge is a model."""

    game_id: ClassVar[str] = "static_picnic"


class _WrittenRuleGame(_GuessTheRuleGame):
    """A game whose rule a game master may write as code (game option ``rules="generated"``): ``game_master``
    (default the local model) writes it when the game is created, ``code_executor`` (default ``scripted``, the
    sandbox) checks it; a game master whose rules are all rejected raises ``GuessRuleError`` with the reason."""

    other_roles: ClassVar[tuple[str, ...]] = (GAME_MASTER, CODE_EXECUTOR)

    def __init__(self, difficulty: str = "L1", num_init_examples: int = 2, seed: int | None = None,
                 judge: str | None = None, db: str | None = None, *, game_master: str | None = None,
                 code_executor: str | None = None, calibration: bool = True, **game_options: Scalar) -> None:
        super().__init__(difficulty, num_init_examples, seed, judge, db, calibration=calibration, **game_options)
        self._bindings = {GAME_MASTER: game_master or DEFAULT_MODEL, CODE_EXECUTOR: code_executor or SCRIPTED}


class CodeFunctionsPicnic(_WrittenRuleGame):
    """Code Functions Picnic: the rule is a hidden Python function of a word's letters, from the reviewed library
    or, with ``rules="generated"``, written by the game master."""

    game_id: ClassVar[str] = "functions_picnic"


class MathGuessTheRuleGame(_WrittenRuleGame):
    """The Math Game: the rule makes each value of a number sequence from the one before it, drawn procedurally or,
    with ``rules="generated"``, written by the game master."""

    game_id: ClassVar[str] = "math"


class DynamicGoingOnAPicnic(_GuessTheRuleGame):
    """Dynamic Picnic. By default the game plays a rule of the level from the rule bank shipped with playeval, and
    no model but the judge is asked; ``bank=FILE`` (and ``bank_rule=ID``) plays a rule of another bank. With
    ``rules='generated'`` a game master (``game_master``, default the local model) invents the rule and its items
    when the game is created and whenever more are asked for, and a validator (``validator``, default the game
    master's binding) checks them; when the game master fails before the first turn, the game plays a bank rule
    and the summary's ``reason`` says so once the game is over. A game that cannot be set up raises
    ``GuessRuleError`` with the reason."""

    game_id: ClassVar[str] = "dynamic_picnic"
    other_roles: ClassVar[tuple[str, ...]] = ("game_master", "validator")

    def __init__(self, difficulty: str = "L1", num_init_examples: int = 2, seed: int | None = None,
                 judge: str | None = None, db: str | None = None, *, game_master: str | None = None,
                 validator: str | None = None, calibration: bool = True, **game_options: Scalar) -> None:
        super().__init__(difficulty, num_init_examples, seed, judge, db, calibration=calibration, **game_options)
        master = game_master or DEFAULT_MODEL
        self._bindings = {"game_master": master, "validator": validator or master}
