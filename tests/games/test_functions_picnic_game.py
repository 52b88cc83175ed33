"""Code Functions Picnic as a game: a library rule run once in the sandbox at set-up, then a pure match."""

from __future__ import annotations

import random

import pytest

from playeval.core import ConfigError, disclosed_to
from playeval.core.events import RoleAssignment, SeatAssignment
from playeval.engine import MemoryRecorder, play_match
from playeval.games.functions_picnic import FunctionsPicnic, RuleEvaluator, rule_by_id
from playeval.guess_rule import JUDGE, PLAYER

game = FunctionsPicnic()


@pytest.mark.parametrize("level", [1, 2, 3])
def test_a_match_shows_words_that_pass_and_fail_and_keeps_ten_apart(level: int) -> None:
    spec = game.new_spec(level, 7, random.Random(7))
    assert spec == game.new_spec(level, 7, random.Random(7))  # seeded
    rule = rule_by_id(str(spec.setup["rule"]))
    assert rule.level == level and spec.setup["statement"] == rule.statement
    truth = RuleEvaluator().truth(rule.source)
    round_ = game.rule_of(spec)
    assert all(truth[word] for word in round_.positives) and not any(truth[word] for word in round_.negatives)
    held = dict(round_.held_out)
    assert len(held) == 10 and list(held.values()).count("yes") == 5
    assert all((answer == "yes") == truth[word] for word, answer in held.items())
    assert not set(held) & (set(round_.positives) | set(round_.negatives))
    assert disclosed_to(game, spec, (PLAYER,), over=False) == []


def test_unknown_level_and_inputs_are_refused() -> None:
    with pytest.raises(ConfigError):
        game.new_spec(4, 1, random.Random(1))
    with pytest.raises(ConfigError):
        game.new_spec(1, 1, random.Random(1), inputs={"rule": "x"})


async def test_a_scripted_match() -> None:
    spec = game.new_spec(3, 2, random.Random(2))
    recorder = MemoryRecorder()
    match_id = recorder.create_match(spec=spec, seats=[SeatAssignment(seat=PLAYER, player_kind="scripted")],
                                     roles=[RoleAssignment(role=JUDGE, player_kind="scripted")])
    outcome = await play_match(game, spec, {p: game.scripted_player(p, spec) for p in (PLAYER, JUDGE)}, recorder,
                               match_id)
    assert outcome.winner == PLAYER and outcome.result_for(PLAYER).score == 1.0
