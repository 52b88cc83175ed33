"""The prefix contract, checked on every game of ``default_registry()`` (built-in or installed), at every level: a
party's asks in a match are one conversation that only grows.

A local model keeps each conversation's context between calls (keyed by ``ModelRequest.affinity``, the ask's
party) and evaluates only the new tail of the next prompt, so a game must show a seat or role what it showed
before, word for word, and add to it. The rule this module holds every game to, per match and party, over the
model requests a real match sends (the engine and ``players.llm`` build them; a recording provider keeps them):

* **A new ask continues the last.** The first request of an ask begins with the first request of the party's
  previous ask, message by message (same roles, same contents, the system prompt included), then the reply the
  rules accepted for it, as an assistant message. Where every reply to that ask was refused (a stand-in move
  followed), it begins with that request alone.
* **A re-ask continues its ask.** The engine re-asks a refused reply in one of two ways (``LLMPlayer``): with the
  refused reply and a note appended (``Ask.retry``: the re-ask begins with the request before it and its reply),
  or, as a fresh try, without the refused reply and with the note joined to the ask's last message (it keeps
  every message of the ask's first request but that last one). Refused replies are not part of the conversation:
  the ask after a re-asked one continues from the ask's first request and the reply accepted at last.
* **Declared breaks.** A game names the asks that break the rule on purpose, with the reason, in its
  ``conversation_breaks`` (``core.info.ConversationBreak``): a *fresh* break is an ask that starts a new
  conversation (a judge asked about each guess alone: nothing is checked against the party's earlier asks); an
  *aside* is an ask that continues the conversation but whose exchange the later asks leave out (a check made in
  passing: it is checked like any ask, and the ask after it continues from the ask before it). Nothing else is
  passed over.

The tables: every seat and role is a model on one recording provider (roles a game binds to ``scripted``, such as
the sandbox that runs a rule's code, stay scripted: they send no request). Its replies are the game's scripted
player's moves, or in an evaluated seat the ``random`` baseline's half the time (``mock/skill`` mixes them so), with
``mock/player`` for a party the game has no scripted player for; and a seeded share of first tries is a reply no
move's format expects (a free-text move, a clue, may still take it), so matches take re-asks of both kinds.
"""

from __future__ import annotations

import asyncio
import random
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

import pytest

from playeval.core.ask import Ask, Reply
from playeval.core.baselines import RANDOM, ask_rng, game_baselines, make_baseline_player
from playeval.core.errors import PlayevalError
from playeval.core.events import Event, ReplyReceived, ReplyRejected, SeatAssignment
from playeval.core.game import Game, GameBase, conversation_breaks_of, evaluated_seats
from playeval.core.info import ConversationBreak, LevelInfo, Presentation, SeatInfo, panel_role
from playeval.core.match import Action, MatchSpec, Outcome
from playeval.core.messages import Message, assistant, system, user
from playeval.core.registry import default_registry
from playeval.engine import MemoryRecorder, build_players, play_match
from playeval.engine.plan import RunConfig, match_spec, role_assignments
from playeval.models.model import Model
from playeval.models.providers.mock_player import mock_player_reply
from playeval.models.types import ModelRequest, ProviderResult

REGISTRY = default_registry()
GAMES: tuple[str, ...] = tuple(REGISTRY.ids())
ADDRESS = "record/table"
SEEDS = 4
"""Matches per level: enough that each game's parties meet their asks in more than one order."""
REFUSED = "~~ not a move ~~"
REFUSED_SHARE = 0.15
"""The share of first tries answered with :data:`REFUSED`, which every move with a format refuses."""
SHOWN = 160
"""Characters of a message a failure quotes."""


# -- the recording provider ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Call:
    """One request a party's model was sent, and the text it replied."""

    party: str
    ask: Ask
    messages: tuple[Message, ...]
    reply: str


class RecordingProvider:
    """Plays every party through the request's origin (see the module's note) and keeps every request."""

    name = "record"
    reads_origin = True
    cacheable = False
    max_concurrency = 64
    timeout_s = 30.0

    def __init__(self) -> None:
        self.calls: list[Call] = []

    async def generate(self, model_name: str, request: ModelRequest) -> ProviderResult:
        origin = request.origin
        assert origin is not None, "a match's request names its ask"
        ask, spec, game = origin.ask, origin.match.spec, origin.match.game
        party = (request.affinity or "").split("@")[0]  # the player adds who it is, so matches never share a cache
        assert party == ask.party, (request.affinity, ask.party)
        draw = ask_rng(spec, "prefix contract", ask)
        if ask.attempt == 0 and draw.random() < REFUSED_SHARE:
            text = REFUSED
        elif ask.seat in evaluated_seats(game, spec) and _has_random(game) and draw.random() < 0.5:
            text = (await make_baseline_player(game, RANDOM, ask.seat, spec).act(ask)).text
        else:
            try:
                text = (await origin.scripted_reply()).text
            except PlayevalError:  # no scripted player for the party (a game master that writes code)
                text = await mock_player_reply(request)
        self.calls.append(Call(party=ask.party, ask=ask, messages=request.messages, reply=text))
        return ProviderResult(text=text)

    async def aclose(self) -> None:
        return None


def _has_random(game: Game[Any]) -> bool:
    """Whether the game offers a ``random`` baseline (a plugin may offer none: its seats then play scripted)."""
    return RANDOM in {info.name for info in game_baselines(game)}


async def _played(game: Game[Any], level: int, seed: int) -> tuple[list[Call], list[Event]]:
    """A match of ``game`` at ``level`` set up and bound as a batch run does it, every model on the recorder."""
    provider = RecordingProvider()
    model = Model(ADDRESS, provider, "table", cache=None, limiter=asyncio.Semaphore(provider.max_concurrency))
    config = RunConfig(games=(game.id,), level=level, models=(ADDRESS,), opponent=ADDRESS, n=1)
    spec = match_spec(game, config, seed)
    seats = {seat.name: SeatAssignment(seat=seat.name, player_kind="llm", model=ADDRESS, evaluated=seat.evaluated)
             for seat in game.table(spec)}
    roles = role_assignments(game, config, seats, ADDRESS, spec=spec)
    players = build_players(game, spec, list(seats.values()), roles, lambda address: model, people={})
    recorder = MemoryRecorder()
    match_id = recorder.create_match(spec=spec, seats=list(seats.values()), roles=list(roles))
    await play_match(game, spec, players, recorder, match_id)
    return provider.calls, recorder.events[match_id]


# -- the rule ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Turn:
    """One ask of a party: its requests (the first try, then each re-ask), and the reply the rules accepted."""

    calls: tuple[Call, ...]
    accepted: str | None

    @property
    def first(self) -> Call:
        return self.calls[0]


def turns(calls: Sequence[Call], events: Sequence[Event]) -> dict[str, list[Turn]]:
    """Each party's requests grouped into its asks, in order; whether each reply was refused is read off the log
    (a party's replies and its requests come in the same order)."""
    refused: dict[str, list[bool]] = defaultdict(list)
    for event in events:
        if isinstance(event, ReplyReceived):
            refused[event.party].append(False)
        elif isinstance(event, ReplyRejected):
            refused[event.party][-1] = True
    by_party: dict[str, list[Call]] = defaultdict(list)
    for call in calls:
        by_party[call.party].append(call)
    found: dict[str, list[Turn]] = {}
    for party, party_calls in by_party.items():
        marks = refused[party]
        assert len(marks) == len(party_calls), f"{party}: {len(party_calls)} requests, {len(marks)} replies logged"
        groups: list[list[tuple[Call, bool]]] = []
        for call, mark in zip(party_calls, marks, strict=True):
            if call.ask.attempt == 0 or not groups:
                groups.append([])
            groups[-1].append((call, mark))
        found[party] = [Turn(calls=tuple(call for call, _ in group),
                             accepted=None if group[-1][1] else group[-1][0].reply) for group in groups]
    return found


def first_difference(before: Sequence[Message], after: Sequence[Message]) -> int | None:
    """The index of the first message of ``before`` that ``after`` does not begin with (``None``: it does)."""
    for index, message in enumerate(before):
        if index >= len(after) or after[index] != message:
            return index
    return None


def _quote(messages: Sequence[Message], index: int, start: int) -> str:
    """Message ``index`` of ``messages`` from character ``start`` on, cut to :data:`SHOWN` characters."""
    if index >= len(messages):
        return "(no message)"
    message = messages[index]
    text = message.content[start:start + SHOWN]
    cut = ("..." if start else "", "..." if start + SHOWN < len(message.content) else "")
    return f"{message.role}: {cut[0]}{text!r}{cut[1]}"


def _failure(game_id: str, party: str, what: str, before: Sequence[Message], after: Sequence[Message],
             index: int) -> str:
    """The failure's message: the game, the party, the ask, and the first message that differs, quoted from a
    little before its first differing character."""
    start = 0
    if index < len(before) and index < len(after):
        old, new = before[index].content, after[index].content
        same = next((at for at, (a, b) in enumerate(zip(old, new, strict=False)) if a != b), min(len(old), len(new)))
        start = max(0, same - 40)
    return (f"{game_id}, {party}: {what} does not continue the conversation; message {index + 1} was "
            f"{_quote(before, index, start)} and is now {_quote(after, index, start)}")


def _break_of(breaks: Sequence[ConversationBreak], party: str, kind: str) -> ConversationBreak | None:
    """The declared break that covers ``party``'s asks of ``kind`` (a panel member's are its role's), if any."""
    return next((item for item in breaks if item.party == panel_role(party) and (not item.kinds or kind in item.kinds)),
                None)


def _so_far(kept: Turn) -> tuple[Message, ...]:
    """The conversation an ask goes on from: the first request of the ask ``kept`` and the reply accepted for it."""
    return kept.first.messages if kept.accepted is None else (*kept.first.messages, assistant(kept.accepted))


def _continues(kept: Turn, first: Call) -> int | None:
    """Where ``first`` stops continuing the conversation of ``kept`` (:func:`_so_far`), or ``None``."""
    return first_difference(_so_far(kept), first.messages)


@dataclass
class Checked:
    """What the rule was checked on: asks against the ask before them, re-asks against their ask, and for each
    declared break the asks it excused and how many of them continued the conversation all the same."""

    asks: int = 0
    reasks: int = 0
    excused: dict[ConversationBreak, list[bool]] = field(default_factory=lambda: defaultdict(list))


def check_party(game_id: str, party: str, party_turns: Sequence[Turn], breaks: Sequence[ConversationBreak],
                checked: Checked) -> None:
    """Hold one party's asks of a match to the rule (see the module's note), counting into ``checked``. Raises
    ``AssertionError`` naming the game, the party, the ask and the first message that differs."""
    kept: Turn | None = None  # the ask the conversation goes on from
    for number, turn in enumerate(party_turns):
        first = turn.first
        declared = _break_of(breaks, party, first.ask.kind)
        if kept is not None:
            index = _continues(kept, first)
            if declared is not None and not declared.aside:
                checked.excused[declared].append(index is None)
            else:
                assert index is None, _failure(game_id, party, f"its {first.ask.kind} ask", _so_far(kept),
                                               first.messages, index)
                checked.asks += 1
        for previous, reask in zip(turn.calls, turn.calls[1:], strict=False):
            if first_difference((*previous.messages, assistant(previous.reply)), reask.messages) is not None:
                fresh = first.messages[:-1]  # a fresh try: the first request, the note joined to its last message
                index = first_difference(fresh, reask.messages)
                assert index is None, _failure(game_id, party, f"re-ask {reask.ask.attempt} of its {first.ask.kind} "
                                               "ask", fresh, reask.messages, index)
                last = reask.messages[len(fresh)] if len(reask.messages) > len(fresh) else None
                assert last is not None and last.content.startswith(first.messages[-1].content), _failure(
                    game_id, party, f"the fresh re-ask {reask.ask.attempt} of its {first.ask.kind} ask",
                    first.messages, reask.messages, len(fresh))
            checked.reasks += 1
        if declared is not None and declared.aside and number + 1 < len(party_turns):
            # the ask after an aside goes on from the ask before it: one that goes on from the aside is no aside
            checked.excused[declared].append(_continues(turn, party_turns[number + 1].first) is None)
        if declared is None or not declared.aside:
            kept = turn


# -- every game ---------------------------------------------------------------------------------------------


def _cases() -> list[tuple[str, int]]:
    return [(game_id, info.level) for game_id in GAMES for info in REGISTRY.get(game_id).levels]


@pytest.mark.parametrize(("game_id", "level"), _cases())
async def test_every_party_s_asks_continue_its_conversation(game_id: str, level: int) -> None:
    """Seeded matches of the level; every party's asks held to the rule, and every break the game declares and
    the matches met must have excused an ask that does not continue the conversation (else it is out of date)."""
    game = REGISTRY.get(game_id)
    breaks = conversation_breaks_of(game)
    checked = Checked()
    for seed in range(SEEDS):
        calls, events = await _played(game, level, seed)
        for party, party_turns in turns(calls, events).items():
            check_party(game_id, party, party_turns, breaks, checked)
    assert checked.asks, f"{game_id} L{level}: no party was asked twice, so nothing was checked"
    for declared, continued in checked.excused.items():
        assert not all(continued), (f"{game_id}: the {declared.party}'s {'/'.join(declared.kinds) or 'asks'} are "
                                    f"declared a break, but all {len(continued)} met continued the conversation: "
                                    "remove the break")


@pytest.mark.parametrize("game_id", GAMES)
def test_a_declared_break_names_a_party_and_says_why(game_id: str) -> None:
    game = REGISTRY.get(game_id)
    parties = {seat.name for seat in game.seats} | {role.name for role in game.roles}
    for declared in conversation_breaks_of(game):
        assert declared.party in parties, f"{game_id}: a break for {declared.party!r}, not one of {sorted(parties)}"
        assert declared.reason.strip(), f"{game_id}: the {declared.party}'s break says not why"
        assert declared.kinds or not declared.aside, f"{game_id}: an aside of every ask of {declared.party}"


# -- the check itself -------------------------------------------------------------------------------------------


class _Count(GameBase):
    """One seat counts to four, shown what it said before. ``numbered`` adds the turn to the last message, rewritten
    each turn (as the Math Game did: the prefix contract's first offender); ``checked`` asks after each number,
    in passing, which number it said (a ``check`` ask its later asks leave out); ``breaks`` are its declared
    breaks."""

    id: ClassVar[str] = "count"
    title: ClassVar[str] = "Count"
    seats: ClassVar[tuple[SeatInfo, ...]] = (SeatInfo(name="counter", role="counts"),)
    levels: ClassVar[tuple[LevelInfo, ...]] = (LevelInfo(level=1, description="to four"),)
    presentation: ClassVar[Presentation] = Presentation(name="Count", tagline="", pitch="", how=())

    def __init__(self, *, numbered: bool = False, checked: bool = False,
                 breaks: tuple[ConversationBreak, ...] = ()) -> None:
        self._numbered = numbered
        self._checked = checked
        self.conversation_breaks = breaks  # type: ignore[misc]

    def new_spec(self, level: int, seed: int, rng: random.Random, **_: Any) -> MatchSpec:
        return MatchSpec(game=self.id, level=level, seed=seed)

    def initial_state(self, spec: MatchSpec) -> tuple[Action, ...]:
        return ()

    @staticmethod
    def _counted(state: tuple[Action, ...]) -> list[str]:
        return [action.text for action in state if action.kind == "count"]

    def next_ask(self, state: tuple[Action, ...]) -> Ask:
        counted = self._counted(state)
        messages = [system("Count aloud, one number a turn."), user("Begin.")]
        for said in counted[:-1] if self._check_due(state) else counted:
            messages += [assistant(said), user("Go on.")]
        if self._check_due(state):
            messages += [assistant(counted[-1]), user("Which number did you just say?")]
            return Ask(seat="counter", kind="check", display="", instructions="", messages=tuple(messages))
        if self._numbered:
            messages[-1] = user(f"{messages[-1].content} (turn {len(counted) + 1} of 4)")
        return Ask(seat="counter", kind="count", display="", instructions="", messages=tuple(messages))

    def _check_due(self, state: tuple[Action, ...]) -> bool:
        return self._checked and bool(state) and state[-1].kind == "count"

    def parse(self, state: tuple[Action, ...], ask: Ask, text: str) -> Action:
        return Action(seat="counter", kind=ask.kind, text=text)

    def apply(self, state: tuple[Action, ...], action: Action) -> tuple[Action, ...]:
        return (*state, action)

    def outcome(self, state: tuple[Action, ...]) -> Outcome | None:
        done = len(self._counted(state)) == 4 and not self._check_due(state)
        return Outcome(status="finished", reason="counted", rounds=len(state)) if done else None

    def rounds(self, state: tuple[Action, ...]) -> int:
        return len(self._counted(state))

    def transcript(self, state: tuple[Action, ...]) -> Sequence[tuple[str, str]]:
        return [("counter", action.text) for action in state]

    def scripted_player(self, party: str, spec: MatchSpec) -> Any:
        return _Counter()


class _Counter:
    kind, model, max_retries = "scripted", None, 0

    async def act(self, ask: Ask) -> Reply:
        return Reply(text=str(sum(1 for message in ask.messages if message.role == "assistant") + 1))


async def _check(game: _Count) -> Checked:
    checked = Checked()
    for seed in range(SEEDS):
        calls, events = await _played(game, 1, seed)
        for party, party_turns in turns(calls, events).items():
            check_party(game.id, party, party_turns, conversation_breaks_of(game), checked)
    return checked


async def test_a_game_that_rewrites_its_last_message_fails_naming_the_game_the_party_and_the_message() -> None:
    assert (await _check(_Count())).asks == 3 * SEEDS  # the same game, appending only, passes
    with pytest.raises(AssertionError) as raised:
        await _check(_Count(numbered=True))
    assert str(raised.value).startswith("count, counter: its count ask does not continue the conversation; message 2 "
                                        "was user: 'Begin. (turn 1 of 4)' and is now user: 'Begin.'")


async def test_a_declared_fresh_break_excuses_its_asks_and_is_reported_when_nothing_needed_it() -> None:
    fresh = ConversationBreak(party="counter", reason="each number is asked alone")
    checked = await _check(_Count(numbered=True, breaks=(fresh,)))
    assert checked.asks == 0 and checked.excused[fresh] == [False] * 3 * SEEDS
    unneeded = await _check(_Count(breaks=(fresh,)))
    assert unneeded.excused[fresh] == [True] * 3 * SEEDS  # the test above fails a game with such a break


async def test_an_aside_must_be_declared_and_the_ask_after_it_goes_on_from_the_ask_before_it() -> None:
    with pytest.raises(AssertionError, match=r"^count, counter: its count ask does not continue the conversation; "
                                             r"message 4 was user: 'Which number did you just say\?' and is now "
                                             r"user: 'Go on.'"):
        await _check(_Count(checked=True))
    aside = ConversationBreak(party="counter", kinds=("check",), aside=True, reason="asked in passing")
    checked = await _check(_Count(checked=True, breaks=(aside,)))
    assert checked.asks == 7 * SEEDS and checked.excused[aside] == [False] * 3 * SEEDS


def _turn(*calls: tuple[tuple[Message, ...], str], accepted: bool = True) -> Turn:
    made = tuple(Call(party="p", ask=Ask(seat="p", kind="k", display="", instructions="", messages=messages,
                                         attempt=attempt), messages=messages, reply=reply)
                 for attempt, (messages, reply) in enumerate(calls))
    return Turn(calls=made, accepted=made[-1].reply if accepted else None)


OPENING = (system("rules"), user("first"))
NOTE = "Your reply was not accepted: no. Please reply again, following the rules."


@pytest.mark.parametrize("reask", [
    (*OPENING, assistant("bad"), user(NOTE)),  # Ask.retry: the refused reply and the note appended
    (system("rules"), user(f"first\n\n{NOTE}")),  # a fresh try: the note joined to the last message
])
def test_a_reask_of_either_kind_passes_and_the_next_ask_goes_on_from_the_reply_accepted(
        reask: tuple[Message, ...]) -> None:
    later = (*OPENING, assistant("good"), user("second"))
    checked = Checked()
    check_party("g", "p", [_turn((OPENING, "bad"), (reask, "good")), _turn((later, "fine"))], (), checked)
    assert (checked.asks, checked.reasks) == (1, 1)
    with pytest.raises(AssertionError, match=r"^g, p: its k ask does not continue the conversation; message 3 was "
                                             r"assistant: 'good' and is now assistant: 'bad'"):
        check_party("g", "p", [_turn((OPENING, "bad"), (reask, "good")),
                               _turn(((*OPENING, assistant("bad"), user("second")), "fine"))], (), Checked())


def test_a_reask_that_rewrites_an_earlier_message_fails() -> None:
    with pytest.raises(AssertionError, match=r"^g, p: re-ask 1 of its k ask does not continue the conversation; "
                                             r"message 1 was system: 'rules' and is now system: 'other rules'"):
        check_party("g", "p", [_turn((OPENING, "bad"), ((system("other rules"), user(f"first {NOTE}")), "good"))],
                    (), Checked())


def test_after_an_ask_whose_replies_were_all_refused_the_next_goes_on_from_its_request() -> None:
    checked = Checked()
    check_party("g", "p", [_turn((OPENING, "bad"), accepted=False), _turn(((*OPENING, user("next")), "fine"))], (),
                checked)
    assert checked.asks == 1
