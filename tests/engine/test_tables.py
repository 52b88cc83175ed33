"""The engine at a table of several seats: parallel phases, eliminations, roles, take-overs and lineups.

``Poll`` is a small game written for these tests: three evaluated seats each vote (in secret, at once) for
another seat; the most-voted seat is out; a role (``teller``) announces the count; a seat that runs out of
re-asks is out and the poll goes on; the last seat standing wins.
"""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

import pytest

from playeval.core import (
    Action,
    Ask,
    FormatError,
    GameBase,
    LevelInfo,
    MatchSpec,
    Outcome,
    OutputConstraint,
    Presentation,
    Reply,
    RoleInfo,
    RuleViolation,
    Scalar,
    SeatAssignment,
    SeatInfo,
)
from playeval.core.events import ActionApplied, RoleAssignment, SeatEliminated
from playeval.core.messages import user
from playeval.core.registry import GameRegistry
from playeval.engine import (
    MemoryRecorder,
    RunConfig,
    assignments,
    build_players,
    plan_matches,
    play_match,
    submit,
    take_over,
)
from playeval.engine.step import advance
from playeval.games import Akinator
from playeval.models import ModelHub, ModelRequest

SEATS = ("ann", "bob", "cy")
TELLER = "teller"


@dataclass(frozen=True)
class PollState:
    spec: MatchSpec
    votes: tuple[tuple[str, str], ...] = ()
    out: tuple[str, ...] = ()
    told: int = 0
    rounds_done: int = 0

    def alive(self) -> list[str]:
        return [seat for seat in SEATS if seat not in self.out]


class Poll(GameBase):
    id: ClassVar[str] = "poll"
    title: ClassVar[str] = "Poll"
    seats: ClassVar[tuple[SeatInfo, ...]] = tuple(SeatInfo(name=s, role="votes", evaluated=True) for s in SEATS)
    roles: ClassVar[tuple[RoleInfo, ...]] = (RoleInfo(name=TELLER, does="announces the count", default="local"),)
    levels: ClassVar[tuple[LevelInfo, ...]] = (LevelInfo(level=1, description="one level"),)
    presentation: ClassVar[Presentation] = Presentation(name="Poll", tagline="Vote.", pitch="Vote.")

    def new_spec(self, level: int, seed: int, rng: random.Random, *, inputs: Mapping[str, str] | None = None,
                 secret_set: str | None = None, options: Mapping[str, Scalar] | None = None) -> MatchSpec:
        return MatchSpec(game=self.id, level=level, seed=seed, setup={"draw": rng.randrange(100)})

    def initial_state(self, spec: MatchSpec) -> PollState:
        return PollState(spec=spec)

    def next_asks(self, state: PollState) -> tuple[Ask, ...]:
        if state.told < state.rounds_done:
            return (Ask(role=TELLER, kind="tell", messages=(user("count"),), display="", instructions="",
                        constraint=OutputConstraint(choices=("told",))),)
        voted = {voter for voter, _ in state.votes}
        return tuple(Ask(seat=seat, kind="vote", messages=(user(f"you are {seat}; vote"),), display="",
                         instructions="", constraint=OutputConstraint(choices=tuple(o for o in state.alive()
                                                                                   if o != seat)))
                     for seat in state.alive() if seat not in voted)

    def parse(self, state: PollState, ask: Ask, text: str) -> Action:
        if not text.strip():
            raise FormatError("say a name.")
        return Action(seat=ask.seat, role=ask.role, kind=ask.kind, text=text.strip())

    def apply(self, state: PollState, action: Action) -> PollState:
        if action.role == TELLER:
            return replace(state, told=state.told + 1)
        if action.text not in state.alive() or action.text == action.seat:
            raise RuleViolation(f"vote for another seat still in, not {action.text!r}.")
        return self._close(replace(state, votes=(*state.votes, (str(action.seat), action.text))))

    def eliminate(self, state: PollState, seat: str, reason: str) -> PollState:
        return self._close(replace(state, out=(*state.out, seat)))

    def _close(self, state: PollState) -> PollState:
        alive = state.alive()
        if any(seat not in {voter for voter, _ in state.votes} for seat in alive) or len(alive) < 2:
            return state
        ranked = Counter(target for voter, target in state.votes if target in alive).most_common()
        out = state.out + ((ranked[0][0],) if ranked and (len(ranked) == 1 or ranked[0][1] > ranked[1][1]) else ())
        return replace(state, votes=(), out=out, rounds_done=state.rounds_done + 1)

    def outcome(self, state: PollState) -> Outcome | None:
        alive = state.alive()
        if len(alive) == 1 and state.told == state.rounds_done:
            return Outcome(status="finished", winners=(alive[0],), reason=f"{alive[0]} is left", rounds=state.told)
        if state.rounds_done >= 5 and state.told == state.rounds_done:
            return Outcome(status="finished", reason="no one is left alone", rounds=state.told)
        return None

    def rounds(self, state: PollState) -> int:
        return state.rounds_done

    def transcript(self, state: PollState) -> Sequence[tuple[str, str]]:
        return [("poll", f"{seat} is out") for seat in state.out]

    def scripted_player(self, party: str, spec: MatchSpec) -> Any:
        return _Teller() if party == TELLER else _Voter(SEATS[(SEATS.index(party) + 1) % len(SEATS)])


class _Voter:
    """Votes for ``target``, after ``delay`` seconds (so that replies arrive in a chosen order)."""

    kind = "scripted"
    model = None
    max_retries = 1

    def __init__(self, target: str, delay: float = 0.0) -> None:
        self._target = target
        self._delay = delay

    async def act(self, ask: Ask) -> Reply:
        await asyncio.sleep(self._delay)
        choices = ask.constraint.choices if ask.constraint and ask.constraint.choices else ()
        return Reply(text=self._target if self._target in choices or not choices else choices[0])


class _Teller:
    kind = "scripted"
    model = None
    max_retries = 0

    async def act(self, ask: Ask) -> Reply:
        return Reply(text="told")


game = Poll()
SPEC = MatchSpec(game="poll", level=1, seed=1)
TABLE = [SeatAssignment(seat=seat, player_kind="scripted", evaluated=True) for seat in SEATS]


def _actions(recorder: MemoryRecorder, match_id: str) -> list[Action]:
    return [event.action for event in recorder.events[match_id] if isinstance(event, ActionApplied)]


async def test_a_parallel_phase_is_recorded_in_the_order_of_its_asks_not_of_the_replies() -> None:
    recorder = MemoryRecorder()
    match_id = recorder.create_match(spec=SPEC, seats=TABLE)
    # cy answers first and ann last; bob is voted out (two votes), then ann and cy tie and vote on
    players = {"ann": _Voter("bob", 0.06), "bob": _Voter("cy", 0.03), "cy": _Voter("bob", 0.0), TELLER: _Teller()}
    result = await advance(game, SPEC, [], {**players, "cy": _Voter("bob", 0.0)}, recorder, match_id)
    first_round = [a for a in _actions(recorder, match_id) if a.kind == "vote"][:3]
    assert [a.seat for a in first_round] == ["ann", "bob", "cy"]
    assert result.state.out[0] == "bob"


async def test_a_seat_that_runs_out_of_reasks_is_eliminated_and_play_goes_on() -> None:
    recorder = MemoryRecorder()
    match_id = recorder.create_match(spec=SPEC, seats=TABLE)
    class Silent(_Voter):
        async def act(self, ask: Ask) -> Reply:
            return Reply(text="  ")

    players = {"ann": _Voter("cy"), "bob": Silent("x"), "cy": _Voter("ann"), TELLER: _Teller()}
    outcome = await play_match(game, SPEC, players, recorder, match_id)
    eliminated = [e for e in recorder.events[match_id] if isinstance(e, SeatEliminated)]
    assert [(e.seat, e.error) for e in eliminated] == [("bob", "format")]
    assert outcome.status == "finished" and outcome.reason == "no one is left alone" and outcome.rounds == 5
    # bob's refused replies are recorded before his elimination; the votes cast that round still count
    log = [e.type for e in recorder.events[match_id]]
    assert log.index("seat_eliminated") > max(i for i, t in enumerate(log[:log.index("seat_eliminated")])
                                              if t == "rejected")


async def test_a_role_that_cannot_reply_aborts_the_match_and_blames_no_seat() -> None:
    class Mute(_Teller):
        async def act(self, ask: Ask) -> Reply:
            return Reply(text="")

    recorder = MemoryRecorder()
    match_id = recorder.create_match(spec=SPEC, seats=TABLE)
    players = {"ann": _Voter("bob"), "bob": _Voter("ann"), "cy": _Voter("bob"), TELLER: Mute()}
    outcome = await play_match(game, SPEC, players, recorder, match_id)
    assert outcome.status == "aborted" and outcome.forfeit_seat is None and "teller (a role" in outcome.reason
    assert all(outcome.result_for(seat).won is None for seat in SEATS)


async def test_people_in_a_parallel_phase_reply_in_any_order() -> None:
    recorder = MemoryRecorder()
    match_id = recorder.create_match(spec=SPEC, seats=TABLE)
    players = {"ann": None, "bob": _Voter("ann"), "cy": None, TELLER: _Teller()}
    waiting = await advance(game, SPEC, [], players, recorder, match_id)
    assert set(waiting.waiting_for) == {"ann", "cy"} and waiting.moves == 1
    refused = submit(game, SPEC, list(recorder.events[match_id]), "cy", "cy", recorder, match_id)
    assert not refused.accepted and refused.error == "rule"
    assert submit(game, SPEC, list(recorder.events[match_id]), "cy", "ann", recorder, match_id).accepted
    assert submit(game, SPEC, list(recorder.events[match_id]), "ann", "bob", recorder, match_id).accepted
    after = await advance(game, SPEC, list(recorder.events[match_id]), players, recorder, match_id)
    assert after.state.out[:1] == ("ann",) and after.state.told >= 1


def test_take_overs_change_who_plays_a_seat() -> None:
    recorder = MemoryRecorder()
    people = [SeatAssignment(seat="ann", player_kind="human"), *TABLE[1:]]
    match_id = recorder.create_match(spec=SPEC, seats=people,
                                     roles=[RoleAssignment(role=TELLER, player_kind="human", seat="ann")])
    take_over(recorder.events[match_id], recorder, match_id, "ann", model="mock/player", reason="did not come")
    seats, roles = assignments(recorder.events[match_id])
    assert seats[0] == SeatAssignment(seat="ann", player_kind="llm", model="mock/player")
    with ModelLookup() as lookup:
        players = build_players(game, SPEC, seats, roles, lookup, people={})
    # the role bound to ann's seat follows the seat to its new occupant, asked as a role: greedily
    assert players["ann"] is not None and players["ann"].model == "mock/player"
    assert players[TELLER] is not None and players[TELLER].model == "mock/player"


class ModelLookup:
    """A model hub's ``get`` for tests that build players without playing."""

    def __enter__(self) -> Any:
        self._hub = ModelHub(use_cache=False)
        return self._hub.get

    def __exit__(self, *exc: object) -> None:
        asyncio.run(self._hub.aclose())


def _registry() -> GameRegistry:
    registry = GameRegistry()
    registry.add("poll", Poll)
    registry.add("akinator", Akinator)
    return registry


def test_a_lineup_rotates_every_model_through_every_evaluated_seat() -> None:
    config = RunConfig(games=("poll",), models=("mock/a", "mock/b"), opponent="mock/o", n=3, seed=4,
                       roles={"teller": "mock/t"})
    planned = plan_matches(config, _registry(), "local/x")
    assert len(planned) == 3 * 2 and [m.index for m in planned] == list(range(6))
    for number in range(3):
        rotations = [m for m in planned if m.game_number == number]
        assert all(m.spec == rotations[0].spec for m in rotations)  # one setup per game number, for every lineup
        for seat in SEATS:
            held = Counter(next(s.model for s in m.seats if s.seat == seat) for m in rotations)
            assert held == Counter({"mock/a": 1, "mock/b": 1})
        assert all(m.roles == (RoleAssignment(role=TELLER, player_kind="llm", model="mock/t"),) for m in rotations)
        assert all(s.evaluated for m in rotations for s in m.seats)
    assert plan_matches(config, _registry(), "local/x") == planned  # seeded: the same schedule every time
    others = [plan_matches(config.model_copy(update={"seed": seed}), _registry(), "local/x") for seed in range(5, 9)]
    assert any([m.seats for m in other] != [m.seats for m in planned] for other in others)  # the order is drawn


def test_a_game_with_one_evaluated_seat_plans_as_before() -> None:
    config = RunConfig(games=("akinator",), models=("mock/a", "mock/b"), opponent="mock/o", n=2, seed=9)
    planned = plan_matches(config, _registry(), "local/x")
    assert [(m.game_number, m.evaluated_models) for m in planned] == [
        (0, ("mock/a",)), (0, ("mock/b",)), (1, ("mock/a",)), (1, ("mock/b",))]
    first = planned[0]
    assert {s.seat: (s.model, s.evaluated) for s in first.seats} == {"guesser": ("mock/a", True),
                                                                     "answerer": ("mock/o", False)}
    # Akinator's judge defaults to the answerer's occupant, as a role
    assert first.roles == (RoleAssignment(role="judge", player_kind="llm", model="mock/o", seat="answerer"),)
    scripted = plan_matches(config.model_copy(update={"opponent": "scripted", "roles": {"judge": "mock/j"}}),
                            _registry(), "local/x")[0]
    assert scripted.seats[1].player_kind == "scripted" and scripted.roles[0].model == "mock/j"


async def test_a_role_decodes_greedily_while_a_simulated_persons_reasks_are_sampled() -> None:
    seen: list[tuple[str, float]] = []

    def reply(request: ModelRequest) -> str:
        seen.append(((request.affinity or "").split("@")[0], request.config.temperature))
        return "nonsense"

    config = RunConfig(games=("akinator",), models=("mock/a",), opponent="mock/o", n=1)
    planned = plan_matches(config, _registry(), "local/x")[0]
    async with ModelHub(use_cache=False, mock_scripts={"o": reply, "a": reply}) as hub:
        players = build_players(Akinator(), planned.spec, planned.seats, planned.roles, hub.get, people={})
        for party in ("answerer", "judge"):
            player = players[party]
            assert player is not None
            ask = Ask(seat=party if party == "answerer" else None, role=party if party == "judge" else None,
                      kind="x", messages=(user("q"),), display="", instructions="")
            await player.act(ask.retry("bad", "refused."))
    assert seen == [("answerer", 0.8), ("judge", 0.0)]


@pytest.mark.parametrize("bad", [{"teller": "mock/t", "judge": "mock/j"}, {"akinator.teller": "mock/t"}])
def test_an_unknown_role_binding_is_a_clear_error(bad: dict[str, str]) -> None:
    from playeval.core.errors import ConfigError
    from playeval.engine import check_config

    config = RunConfig(games=("poll",), models=("mock/a",), opponent="mock/o", n=1, roles=bad)
    with pytest.raises(ConfigError, match="role"):
        check_config(_registry(), config)
