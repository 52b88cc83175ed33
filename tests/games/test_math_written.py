"""The Math Game with rules=generated: generate_next written by a game master, checked by the code_executor role in
the sandbox (overflow, constant repeats, non-integer values, the level's kind of rule), replayed without code."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from playeval.core import fold
from playeval.core.events import ActionApplied, Event, RoleAssignment, SeatAssignment
from playeval.core.match import MatchSpec, Outcome
from playeval.engine import MemoryRecorder, build_players, play_match
from playeval.games.math import HELD_OUT, SEQUENCE_LENGTH, MathGame, MathRule, Step
from playeval.games.math.written import WrittenSequence, WrittenSequenceCheck, other_starts
from playeval.guess_rule import JUDGE, PLAYER
from playeval.guess_rule.writing import CODE_EXECUTOR, GAME_MASTER
from playeval.models import ModelHub

game = MathGame()


def code(*lines: str) -> str:
    return "def generate_next(current_value, index):\n" + "".join(f"    {line}\n" for line in lines)


def reply(statement: str, start: int, *lines: str) -> str:
    return f"RULE: {statement}\nSTART: {start}\n```python\n{code(*lines)}```"


def spec_of(level: int, seed: int = 3) -> MatchSpec:
    return game.new_spec(level, seed, random.Random(seed), options={"rules": "generated", "max_turns": 2})


async def play(spec: MatchSpec, master: Sequence[str] | None) -> tuple[Outcome, list[Event]]:
    """A match whose game master is scripted (``None``: the procedural rule as code) or a mock model."""
    recorder = MemoryRecorder()
    seats = [SeatAssignment(seat=PLAYER, player_kind="llm", model="mock/p", evaluated=True)]
    roles = [RoleAssignment(role=JUDGE, player_kind="scripted"),
             RoleAssignment(role=GAME_MASTER, player_kind="scripted") if master is None else
             RoleAssignment(role=GAME_MASTER, player_kind="llm", model="mock/gm"),
             RoleAssignment(role=CODE_EXECUTOR, player_kind="scripted")]
    match_id = recorder.create_match(spec=spec, seats=seats, roles=roles)
    async with ModelHub(use_cache=False, mock_scripts={"gm": list(master or ()),
                                                       "p": ["GUESS: some guess here", "skip"]}) as hub:
        players = build_players(game, spec, seats, roles, hub.get, people={})
        outcome = await play_match(game, spec, players, recorder, match_id)
    return outcome, recorder.events[match_id]


@pytest.mark.parametrize("level", [1, 2, 3])
async def test_the_scripted_game_master_writes_the_procedural_rule_and_the_sandbox_accepts_it(level: int) -> None:
    spec = spec_of(level)
    outcome, events = await play(spec, None)
    state = fold(game, spec, events)
    assert isinstance(state.rule, WrittenSequence) and outcome.status == "finished"
    start = int(state.drafts[0].data["start"])
    assert state.rule.values[0] == start and len(state.rule.values) == SEQUENCE_LENGTH
    assert len(game.held_out(state.rule)) == HELD_OUT
    held = state.rule.held  # from the valid other starts in turn: no answer is the next item's value
    assert all(held[i][2] != held[i + 1][0] for i in range(HELD_OUT - 1)), held
    revealed = {item.key: item.value for item in game.disclosures(spec, state)}
    assert "generate_next" in revealed["code"] and revealed["rule"] == state.rule.statement


@pytest.mark.parametrize(("level", "lines", "start", "reason"), [
    (1, ("return current_value + 7",), 4, "accepted"),
    (2, ("return current_value * -2 + 1",), 3, "accepted"),
    (3, ("return current_value * 2 if index % 2 == 0 else current_value + 3",), 1, "accepted"),
    (1, ("return current_value * 1000",), 5, "overflow"),
    (1, ("return current_value ** 2",), 3, "overflow"),
    (1, ("return current_value * 1",), 5, "constant"),
    (1, ("return -current_value + 10",), 3, "constant"),
    (1, ("return current_value / 2",), 7, "non_integer"),
    (1, ("return str(current_value + 1)",), 7, "non_integer"),
    (1, ("return current_value + index + 1",), 4, "wrong_level"),
    (1, ("return current_value * -2",), 3, "wrong_level"),
    (2, ("return current_value + 7",), 4, "wrong_level"),
    (3, ("return current_value + 7",), 4, "wrong_level"),
    (3, ("return current_value + (1 if index < 2 else 5)",), 4, "wrong_level"),
    (1, ("return current_value +",), 4, "syntax"),
    (1, ("import os", "return 1"), 4, "forbidden"),
    (1, ("while True:", "    pass"), 4, "timeout"),
    (1, ("return current_value // 0",), 4, "crashed"),
])
def test_the_executor_checks_sequences_and_levels(level: int, lines: tuple[str, ...], start: int,
                                                   reason: str) -> None:
    verdict = WrittenSequenceCheck(level, timeout_s=1.0)({"code": code(*lines), "start": start})
    assert verdict["reason"] == reason, verdict
    if reason == "accepted":
        assert verdict["values"][0] == start and len(verdict["held_out"]) == HELD_OUT


def test_held_out_values_start_where_divisions_still_come_out_even() -> None:
    rule = MathRule(even=Step("div", -2), odd=Step("div", -2), start=2**14 * 5)
    verdict = WrittenSequenceCheck(2)({"code": rule.code() + "\n", "start": rule.start})
    assert verdict["accepted"] and verdict["values"] == rule.sequence()
    value, _, following = verdict["held_out"][0]
    assert value == other_starts(rule.start)[0] == rule.start * 3 and following * -2 == value


async def test_rejections_go_back_to_the_game_master_and_three_abort() -> None:
    spec = spec_of(1)
    outcome, events = await play(spec, [reply("quadruple it", 10**6, "return current_value * 4"),
                                        reply("keep the value", 4, "return current_value"),
                                        reply("halve", 7, "return current_value / 2")])
    reasons = [e.action.data["reason"] for e in events if isinstance(e, ActionApplied)
               and e.action.role == CODE_EXECUTOR]
    assert reasons == ["overflow", "constant", "non_integer"]
    assert outcome.status == "aborted" and outcome.forfeit_seat is None and "3 tries" in outcome.reason


async def test_a_finished_match_replays_without_the_sandbox(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = spec_of(3)
    _, events = await play(spec, [reply("add 7", 4, "return current_value + 7"),
                                  reply("double at even, add 3 at odd", 1,
                                        "return current_value * 2 if index % 2 == 0 else current_value + 3")])
    before = fold(game, spec, events)
    assert [draft.verdict for draft in before.drafts] == ["rejected", "accepted"]

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("folding a match ran code")

    import playeval.games.math.written as written
    import playeval.sandbox._sandbox as sandbox

    monkeypatch.setattr(written, "run_function", refuse)
    monkeypatch.setattr(sandbox.Sandbox, "run_function", refuse)
    assert fold(MathGame(), spec, events) == before
    assert before.rule.values[:4] == (1, 2, 5, 10)


def test_procedural_matches_are_unchanged() -> None:
    spec = game.new_spec(2, 9, random.Random(9))
    assert spec.params["rules"] == "procedural" and isinstance(game.rule_of(spec), MathRule)
    state = game.initial_state(spec)
    assert state.turns == 1 and state.shown == 2 and game.rule_code(state.rule) is None
