"""GuessTheRuleBench's Math Game: the procedural rules, the turn counting, the guess, the check and the judge."""

from __future__ import annotations

import itertools
import random

import pytest

from playeval.cli.console import outcome_label
from playeval.core import Action, ConfigError, FormatError, RuleViolation, disclosed_to
from playeval.core.events import RoleAssignment, SeatAssignment
from playeval.engine import MemoryRecorder, play_match, state_from_events
from playeval.games.math import (
    HELD_OUT,
    JUDGE,
    PLAYER,
    SEQUENCE_LENGTH,
    MathGame,
    MathRule,
    Step,
    draw_rule,
    held_out,
)
from playeval.guess_rule import GuessState as MathState
from playeval.models import ModelHub, ModelRequest
from playeval.players import LLMPlayer

game = MathGame()


def start(level: int = 1, seed: int = 4, **options: int) -> MathState:
    return game.initial_state(game.new_spec(level, seed, random.Random(seed), options=options or None))


def more(n: int) -> Action:
    return Action(seat=PLAYER, kind="more", text=str(n))


def guess(text: str) -> Action:
    return Action(seat=PLAYER, kind="guess", text=text)


def verdict(yes: bool) -> Action:
    return Action(role=JUDGE, kind="verdict", text="yes" if yes else "no", data={"reason": "r"})


def apply_rule(state: MathState, right: bool = True) -> Action:
    values = [following if right else following + 1 for _, _, following in held_out(state.rule) or []]
    return Action(seat=PLAYER, kind="apply", text="\n".join(map(str, values)))


@pytest.mark.parametrize("level", [1, 2, 3])
def test_rules_of_each_level_give_valid_integer_sequences(level: int) -> None:
    for seed in range(60):
        rule = draw_rule(level, random.Random(seed))
        values = rule.sequence()
        assert values is not None and len(values) == SEQUENCE_LENGTH
        assert all(a != b for a, b in itertools.pairwise(values)) and all(abs(v) <= 10**12 for v in values)
        if level == 1:
            assert rule.even == rule.odd and rule.even.operand > 0
        elif level == 2:
            assert rule.even == rule.odd and rule.even.op in ("mul", "div") and rule.even.operand < 0
        else:
            assert rule.even != rule.odd and "odd" in rule.describe()
    assert draw_rule(2, random.Random(9)) == draw_rule(2, random.Random(9))  # seeded


def test_a_rule_that_overflows_repeats_or_leaves_the_integers_is_rejected() -> None:
    assert MathRule(even=Step("mul", 4), odd=Step("mul", 4), start=10**9).sequence() is None  # overflow
    assert MathRule(even=Step("add", 0), odd=Step("add", 0), start=3).sequence() is None  # constant
    assert MathRule(even=Step("div", 2), odd=Step("div", 2), start=12).sequence() is None  # 3 / 2 is no integer
    assert MathRule(even=Step("mul", 3), odd=Step("div", 3), start=5).sequence() is None  # back and forth


def test_turn_one_shows_the_first_values_and_every_request_and_guess_counts_a_turn() -> None:
    state = start(num_init_examples=3)
    assert state.turns == 1 and state.shown == 3
    state = game.apply(state, more(2))
    assert (state.turns, state.shown) == (2, 5)
    with pytest.raises(RuleViolation, match="only 10 more can be shown"):
        game.apply(state, more(11))
    state = game.apply(state, guess("add something"))
    assert state.turns == 3 and game.next_asks(state)[0].kind == "apply"
    with pytest.raises(RuleViolation):
        game.apply(state, more(1))  # the check comes first
    state = game.apply(state, apply_rule(state, right=False))
    [judging] = game.next_asks(state)
    assert judging.role == JUDGE and judging.seat is None and "add something" in judging.messages[-1].content
    state = game.apply(state, verdict(False))
    assert state.turns == 3 and game.outcome(state) is None and game.accuracy(state) == 0.0


def test_an_accepted_guess_wins_and_the_check_is_the_seats_score() -> None:
    state = start(level=3)
    state = game.apply(game.apply(state, guess("the rule")), apply_rule(start(level=3)))
    state = game.apply(state, verdict(True))
    outcome = game.outcome(state)
    assert outcome is not None and outcome.winner == PLAYER and outcome.rounds == 2
    assert outcome.result_for(PLAYER).score == 1.0


def test_the_game_ends_at_max_turns_and_when_the_values_run_out() -> None:
    state = start(max_turns=3)
    state = game.apply(game.apply(state, more(1)), more(1))
    outcome = game.outcome(state)
    assert outcome is not None and outcome.winners == () and "within 3 turns" in outcome.reason
    assert outcome.result_for(PLAYER).won is False
    assert outcome_label(outcome, PLAYER) == "lost"  # a one-seat game that nobody won is no draw
    state = game.apply(start(), more(SEQUENCE_LENGTH - 2))
    last_ask = game.next_asks(state)[0]
    assert "must be a guess" in last_ask.messages[-1].content
    assert last_ask.constraint is not None and "MORE" not in (last_ask.constraint.grammar or "")
    with pytest.raises(RuleViolation, match="every example has been shown"):
        game.apply(state, more(1))
    state = game.apply(game.apply(game.apply(state, guess("no idea")), apply_rule(state)), verdict(False))
    outcome = game.outcome(state)
    assert outcome is not None and "every value was shown" in outcome.reason


def test_replies_are_read_leniently_but_only_in_the_protocol() -> None:
    state = start()
    ask = game.next_asks(state)[0]
    assert game.parse(state, ask, " more: 3 ").text == "3" and game.parse(state, ask, "MORE 3").kind == "more"
    assert game.parse(state, ask, "GUESS: multiply by 2").text == "multiply by 2"
    for bad in ("I think it doubles", "GUESS:", "MORE: 2\nGUESS: add 1"):
        with pytest.raises(FormatError):
            game.parse(state, ask, bad)
    state = game.apply(state, guess("add 1"))
    check = game.next_asks(state)[0]
    assert game.parse(state, check, "\n".join(f"{n}. {n * 2}" for n in range(1, HELD_OUT + 1))).kind == "apply"
    with pytest.raises(FormatError, match="missing: 10"):
        game.parse(state, check, "\n".join(f"{n}. 1" for n in range(1, HELD_OUT)))


def test_the_rule_is_hidden_from_the_player_until_the_end() -> None:
    state = start(level=3)
    shown = disclosed_to(game, state.spec, (PLAYER,), over=False)
    assert shown == [] and [d.value for d in disclosed_to(game, state.spec, (), over=True)] == [state.rule.describe()]
    ask = game.next_asks(state)[0]
    assert all(state.rule.describe() not in m.content for m in ask.messages)
    values = state.rule.sequence()
    assert f": {values[state.shown]}\n" not in ask.display + "\n"  # no value beyond those shown


def test_options_and_bad_specs() -> None:
    assert start(num_init_examples=5, max_turns=7).spec.params == {"num_init_examples": 5, "max_turns": 7,
                                                                  "rules": "procedural", "rules_decide": True,
                                                                  "fresh_checks": True}
    with pytest.raises(ConfigError):
        game.new_spec(4, 1, random.Random(1))
    with pytest.raises(ConfigError):
        game.new_spec(1, 1, random.Random(1), inputs={"rule": "x"})


async def test_a_scripted_match_and_a_model_that_cannot_follow_the_format() -> None:
    spec = game.new_spec(2, 3, random.Random(3))
    recorder = MemoryRecorder()
    match_id = recorder.create_match(spec=spec, seats=[SeatAssignment(seat=PLAYER, player_kind="scripted")],
                                     roles=[RoleAssignment(role=JUDGE, player_kind="scripted")])
    players = {party: game.scripted_player(party, spec) for party in (PLAYER, JUDGE)}
    outcome = await play_match(game, spec, players, recorder, match_id)
    assert outcome.winner == PLAYER and outcome.rounds == 3
    state = state_from_events(game, spec, recorder.events[match_id])
    assert next(line for line in game.transcript(state) if line[0] == PLAYER) == (PLAYER, "MORE: 2")

    def chatty(request: ModelRequest) -> str:
        return "Let me think about this sequence."

    async with ModelHub(use_cache=False, mock_scripts={"chatty": chatty}) as hub:
        recorder = MemoryRecorder()
        match_id = recorder.create_match(spec=spec, seats=[SeatAssignment(seat=PLAYER, player_kind="llm")])
        players = {PLAYER: LLMPlayer(hub.get("mock/chatty"), seed=1), JUDGE: game.scripted_player(JUDGE, spec)}
        outcome = await play_match(game, spec, players, recorder, match_id)
    assert outcome.status == "forfeit" and outcome.forfeit_seat == PLAYER and "MORE" in outcome.reason


def test_the_held_out_values_come_from_another_start() -> None:
    rule = draw_rule(1, random.Random(2))
    shown = set(rule.sequence() or [])
    pairs = held_out(rule) or []
    assert len(pairs) == HELD_OUT and pairs[0][0] != rule.start
    assert all(rule.next_value(value, index) == following for value, index, following in pairs)
    assert not {value for value, _, _ in pairs} <= shown


@pytest.mark.parametrize("level", [1, 2, 3])
def test_no_check_answer_can_be_read_off_another_check_item(level: int) -> None:
    for seed in range(40):
        rule = draw_rule(level, random.Random(seed))
        triples = held_out(rule) or []
        assert [index for _, index, _ in triples] == list(range(HELD_OUT))  # both parities are asked
        # each item from its own sequence: an answer is never the next line's value (small additive rules may
        # still meet another item's value by chance, which tells nothing about where)
        assert all(triples[i][2] != triples[i + 1][0] for i in range(HELD_OUT - 1)), (rule, triples)
        assert all(rule.next_value(value, index) == following for value, index, following in triples)


def test_a_rule_recorded_before_the_spread_check_keeps_its_consecutive_items() -> None:
    rule = draw_rule(1, random.Random(2))
    assert rule.spread_check and MathRule.from_setup(rule.to_setup()) == rule
    legacy = {key: value for key, value in rule.to_setup().items() if key != "check"}
    old = MathRule.from_setup(legacy)
    triples = held_out(old) or []
    assert not old.spread_check and all(triples[i][2] == triples[i + 1][0] for i in range(HELD_OUT - 1))


def test_the_move_grammar_admits_only_requests_for_what_remains() -> None:
    state = game.apply(start(num_init_examples=3), more(8))  # 15 values: 11 shown, 4 remain
    [ask] = game.next_asks(state)
    assert ask.constraint is not None and ask.constraint.grammar is not None
    assert '"4"' in ask.constraint.grammar and '"5"' not in ask.constraint.grammar
    state = game.apply(state, more(4))
    [last] = game.next_asks(state)
    assert last.constraint is not None and last.constraint.grammar is not None
    assert "MORE" not in last.constraint.grammar and "GUESS" in last.constraint.grammar
