"""GuessTheRuleBench's Static Picnic on the shared guess-the-rule flow: the draw, the examples, the check."""

from __future__ import annotations

import random

import pytest

from playeval.core import Action, ConfigError, FormatError, RuleViolation, disclosed_to
from playeval.core.events import RoleAssignment, SeatAssignment
from playeval.engine import MemoryRecorder, play_match
from playeval.games.static_picnic import StaticPicnic, load_items, rules_of_level
from playeval.games.static_picnic.data import load_rules
from playeval.guess_rule import JUDGE, PLAYER

game = StaticPicnic()


@pytest.mark.parametrize("level", [1, 2, 3])
def test_a_match_draws_a_rule_and_an_order_of_its_items(level: int) -> None:
    for seed in range(30):
        spec = game.new_spec(level, seed, random.Random(seed))
        assert spec == game.new_spec(level, seed, random.Random(seed))  # seeded
        rule = next(r for r in rules_of_level(level) if r.id == spec.setup["rule"])
        round_ = game.rule_of(spec)
        assert set(round_.positives) <= set(rule.positives) and not set(round_.negatives) & set(rule.positives)
        held = dict(round_.held_out)
        assert sum(1 for answer in held.values() if answer == "yes") == sum(1 for a in held.values() if a == "no")
        assert all((answer == "yes") == (item in rule.positives) for item, answer in held.items())
        assert not set(held) & (set(round_.positives) | set(round_.negatives))  # kept apart from the examples
        assert set(round_.negatives) <= set(load_items())


def test_each_unit_is_one_item_that_may_come_and_one_that_may_not() -> None:
    state = game.initial_state(game.new_spec(1, 3, random.Random(3), options={"num_init_examples": 2}))
    first = game.next_asks(state)[0]
    may, may_not = first.display.splitlines()[:2]
    assert may.startswith("May come: ") and len(may.split(": ", 1)[1].split(", ")) == 2
    assert may_not.startswith("May not come: ") and len(may_not.split(": ", 1)[1].split(", ")) == 2
    more = Action(seat=PLAYER, kind="more", text=str(state.total))
    with pytest.raises(RuleViolation, match="only"):
        game.apply(state, more)
    state = game.apply(state, Action(seat=PLAYER, kind="more", text="1"))
    assert (state.turns, state.shown) == (2, 3)


def test_the_check_is_scored_and_the_rule_revealed_only_at_the_end() -> None:
    spec = game.new_spec(2, 5, random.Random(5))
    assert disclosed_to(game, spec, (PLAYER,), over=False) == []
    [revealed] = disclosed_to(game, spec, (), over=True)
    assert revealed.value == spec.setup["statement"]
    state = game.apply(game.initial_state(spec), Action(seat=PLAYER, kind="guess", text="nuts"))
    answers = [answer for _, answer in game.rule_of(spec).held_out]
    wrong = ["no" if answer == "yes" else "yes" for answer in answers]
    state = game.apply(state, Action(seat=PLAYER, kind="apply", text="\n".join(wrong[:1] + answers[1:])))
    assert game.accuracy(state) == pytest.approx((len(answers) - 1) / len(answers))
    check = game.parse(state, game.next_asks(state)[0], "Verdict: no\nReason: too broad.")
    assert check.role == JUDGE and check.data["reason"] == "too broad."


def test_levels_one_to_three_are_offered_and_others_refused() -> None:
    assert [level.level for level in game.levels] == [1, 2, 3]
    spec = game.new_spec(3, 1, random.Random(1))
    assert spec.level == 3 and spec.setup["rule"].startswith("L3:")
    assert len({rule.id: rule for rule in load_rules()}[spec.setup["rule"]].categories) == 3
    with pytest.raises(ConfigError, match="levels 1, 2, 3, not 4"):
        game.new_spec(4, 1, random.Random(1))


@pytest.mark.parametrize("level", [1, 3])
async def test_a_scripted_match_is_won_in_three_turns(level: int) -> None:
    spec = game.new_spec(level, 8, random.Random(8))
    recorder = MemoryRecorder()
    match_id = recorder.create_match(spec=spec, seats=[SeatAssignment(seat=PLAYER, player_kind="scripted")],
                                     roles=[RoleAssignment(role=JUDGE, player_kind="scripted")])
    outcome = await play_match(game, spec, {p: game.scripted_player(p, spec) for p in (PLAYER, JUDGE)}, recorder,
                               match_id)
    assert outcome.winner == PLAYER and outcome.rounds == 3 and outcome.result_for(PLAYER).score == 1.0


def test_a_reply_with_two_answers_is_a_format_error() -> None:
    spec = game.new_spec(1, 5, random.Random(5))
    state = game.initial_state(spec)
    move = game.next_asks(state)[0]
    with pytest.raises(FormatError, match="one line"):
        game.parse(state, move, "MORE: 1\nGUESS: nuts only")
    assert game.parse(state, move, "MORE: 1\n").kind == "more"
    state = game.apply(state, Action(seat=PLAYER, kind="guess", text="nuts"))
    apply_ask = game.next_asks(state)[0]
    assert apply_ask.kind == "apply"
    answers = [answer for _, answer in game.rule_of(spec).held_out]
    numbered = [f"{n}. {answer}" for n, answer in enumerate(answers, 1)]
    flipped = "no" if answers[0] == "yes" else "yes"
    with pytest.raises(FormatError, match="line 1 has two answers"):
        game.parse(state, apply_ask, "\n".join([numbered[0], f"1. {flipped}", *numbered[1:]]))
    repeated = game.parse(state, apply_ask, "\n".join([numbered[0], *numbered]) + "\n")
    assert repeated.text == "\n".join(answers)  # the same answer twice is one answer
    state = game.apply(state, repeated)
    judge = game.next_asks(state)[0]
    for two in ("Verdict: yes\nVerdict: no", "Verdict: no\nReason: too broad.\nVerdict: yes"):
        with pytest.raises(FormatError, match="one answer, not two"):
            game.parse(state, judge, two)
        with pytest.raises(FormatError, match="one answer, not two"):
            game.judge_case_verdict(judge, two)
    assert game.parse(state, judge, "Verdict: yes\nReason: the same rule.\n").text == "yes"
    assert game.judge_case_verdict(judge, "Verdict: no\nReason: Verdict: no, too broad.") is False
