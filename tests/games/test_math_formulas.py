"""The Math Game's rules accept a guess that reads as a formula giving every value (``games.math.formulas``), and
a match whose player states the rule is won without asking the judge.

The rules, drawn as a match draws them (``new_spec(level, seed, random.Random(seed))``, checked below):
L1 seed 0 divides by 3 (from 4782969 = 3**14), L2 seed 0 divides by -3, L3 seed 12 divides by 3 at even positions
and multiplies by 2 at odd ones (from 15309), L1 seeds 7, 22 and 43 multiply by 2, subtract 4 and add 5, and
L2 seed 2 multiplies by -2.
"""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from playeval.core import Action, Ask, Reply
from playeval.core.events import ActionApplied, AskIssued, RoleAssignment, SeatAssignment
from playeval.core.match import MatchSpec
from playeval.engine import MemoryRecorder, play_match, state_from_events
from playeval.games.math import JUDGE, PLAYER, MathGame, MathRule, Step, held_out
from playeval.games.math.formulas import parse_guess, read_guess, run
from playeval.games.math.written import WrittenSequence
from playeval.guess_rule.base import RULES_DECIDE

game = MathGame()


def spec_of(level: int, seed: int) -> MatchSpec:
    return game.new_spec(level, seed, random.Random(seed))


def rule_of(level: int, seed: int) -> MathRule:
    return game.rule_of(spec_of(level, seed))


def test_the_rules_these_tests_use_are_the_ones_drawn() -> None:
    assert (rule_of(1, 0).even, rule_of(1, 0).odd, rule_of(1, 0).start) == (Step("div", 3), Step("div", 3), 3**14)
    assert rule_of(2, 0).even == rule_of(2, 0).odd == Step("div", -3)
    assert (rule_of(3, 12).even, rule_of(3, 12).odd) == (Step("div", 3), Step("mul", 2))
    assert [rule_of(1, seed).even for seed in (7, 22, 43)] == [Step("mul", 2), Step("sub", 4), Step("add", 5)]
    assert rule_of(2, 2).even == Step("mul", -2)


DIVIDE_BY_3 = ("divide by 3", "Divide by three.", "x/3", "n / 3", "x // 3", "a(n+1) = a(n)/3", "a_{n+1} = a_n / 3",
               "a(n) = a(n-1) / 3", "next = previous / 3", "each number is divided by 3", "/3", "x \u00f7 3",
               "divide each number by 3", "the next value is the previous value divided by 3", "y = x/3",
               "f(x) = x / 3", "x*2/6", "(x + 3) / 3 - 1", "the next number is the previous one over 3",
               "the rule: divide it by 3", "each value is the previous value: divide by 3",
               "each number divides by 3", "each number gets divided by 3")


@pytest.mark.parametrize("guess", DIVIDE_BY_3)
def test_a_right_formula_is_accepted_at_level_1(guess: str) -> None:
    assert game.rules_accept(rule_of(1, 0), guess)


@pytest.mark.parametrize(("seed", "guesses"), [
    (7, ("multiply by 2", "times 2", "x*2", "2x", "double it", "each value is twice the previous value")),
    (22, ("subtract 4", "minus 4", "-4", "x - 4", "decrease by four", "subtract 4 from the previous number")),
    (43, ("add 5", "+5", "plus 5", "x + 5", "increase by 5", "add five to it", "a(n+1) = a(n) + 5")),
])
def test_the_plain_operations_are_accepted(seed: int, guesses: tuple[str, ...]) -> None:
    rule = rule_of(1, seed)
    assert all(game.rules_accept(rule, guess) for guess in guesses), [g for g in guesses
                                                                     if not game.rules_accept(rule, g)]


@pytest.mark.parametrize("guess", ["divide by 4", "multiply by 3", "subtract 3", "divide by -3", "x/3 + 1",
                                   "divide by 3 then add 0.5", "multiply by 1/3 then subtract 1", "x",
                                   "divide by 3 at even positions, multiply by 3 at odd positions",
                                   "(x + 2) // 3", "(x+1)//3"])  # floors that agree with x/3 on multiples of 3
def test_near_misses_are_not_accepted_by_the_rules(guess: str) -> None:
    assert read_guess(guess) is not None  # each is read, and its values are wrong
    assert not game.rules_accept(rule_of(1, 0), guess)


def test_level_2_needs_the_sign() -> None:
    rule = rule_of(2, 0)
    for guess in ("divide by -3", "divide by negative three", "x / (-3)", "-x/3", "divide by 3 and flip the sign",
                  "divide by 3, then negate", "each value is the previous value: divide by -3"):
        assert game.rules_accept(rule, guess), guess
    for guess in ("divide by 3", "divide by 3 and multiply by 1"):
        assert not game.rules_accept(rule, guess), guess
    assert game.rules_accept(rule_of(2, 2), "multiply by -2") and not game.rules_accept(rule_of(2, 2), "times 2")


def test_level_3_reads_even_and_odd_positions_as_the_previous_value_s() -> None:
    rule = rule_of(3, 12)  # 15309 -> 5103 (position 0: divide) -> 10206 (position 1: multiply) ...
    for guess in ("at even positions divide by 3, at odd positions multiply by 2",
                  "divide by 3 at even indices and multiply by 2 at odd indices",
                  "divide by 3 if the index is even, otherwise multiply by 2",
                  "if the position is odd multiply by 2; if the position is even divide by 3",
                  "Even positions: x/3. Odd positions: 2x.",
                  rule.describe()):
        assert game.rules_accept(rule, guess), guess
    for guess in ("at even positions multiply by 2, at odd positions divide by 3",  # the parities swapped
                  "divide by 3", "divide by 3 when the value is even, otherwise multiply by 2",
                  "at even positions divide by 3, at even positions multiply by 2"):
        assert not game.rules_accept(rule, guess), guess


def test_a_written_rule_may_take_a_formula_of_two_operations() -> None:
    values = [1]
    while len(values) < 15:
        values.append(values[-1] * 2 + 1)
    held = tuple((value, index, value * 2 + 1) for index, value in enumerate((5, 9, 12, 20, 33, 40, 41, 50, 77, 99)))
    rule = WrittenSequence(statement="double the previous value and add one", code="", values=tuple(values),
                           held=held)
    for guess in ("x*2+1", "2x + 1", "multiply by 2, then add 1", "(x + 0.5) * 2", "next = 2 * previous + 1",
                  rule.statement):
        assert game.rules_accept(rule, guess), guess
    for guess in ("multiply by 2", "add 1 and multiply by 2", "x*2-1", "(x+1)*2"):
        assert not game.rules_accept(rule, guess), guess


@pytest.mark.parametrize("guess", [
    "", "   ", "GUESS", "hello world", "3", "divide", "the rule is: each term is a third of... no", "x^2", "x**2",
    "2 ** x", "every other number is divided by 3",
    "divide by 3 or 4", "x/3 + n", "a(n) = a(n+1)/3", "x/0", "x/(x-x)", "1/0", "((x)", "x))", "*", "-", "+ + +",
    "import os; os.system('true')", "__import__('os')", "lambda x: x/3", "eval('x/3')", "x[0]", "x.__class__",
    "\x00\x01", "\ud7ff", "9" * 40, "(" * 40 + "x" + ")" * 40, "x" * 400,
])
def test_garbage_is_safe_and_never_accepted(guess: str) -> None:
    assert not game.rules_accept(rule_of(1, 0), guess)


def test_huge_numbers_and_long_input_stay_cheap() -> None:
    started = time.perf_counter()
    power = "*".join(["x"] * 30)  # x**30 of values up to 3**14: large, still exact and refused
    assert read_guess(power) is not None and not game.rules_accept(rule_of(1, 0), power)
    nested = "; ".join(["x*x*x*x*x*x*x*x"] * 4)  # composed, x**4096: past the bound, stopped as a mismatch
    guessed = read_guess(nested)
    assert guessed is not None and run(guessed.even, 4782969) is None
    assert not game.rules_accept(rule_of(1, 0), nested)
    assert read_guess("x*" * 100 + "x") is None  # too many tokens
    assert read_guess("divide by 3 " * 40) is None  # too long
    assert read_guess("x/" + "3" * 16) is None  # a number too long
    assert not game.rules_accept(rule_of(1, 0), "divide by 3" + " " * 100_000)
    assert time.perf_counter() - started < 5


def test_unreadable_says_why() -> None:
    from playeval.games.math.formulas import Unreadable

    with pytest.raises(Unreadable, match="more than one variable"):
        parse_guess("x/3 + n")
    with pytest.raises(Unreadable, match="left index"):
        parse_guess("a(n) = a(n+1)/3")


# -- a match ------------------------------------------------------------------------------------------------------


class _Guesser:
    """Guesses each of ``guesses`` in turn and applies the rule right."""

    kind = "scripted"
    model = None
    max_retries = 0

    def __init__(self, rule: MathRule, guesses: tuple[str, ...]) -> None:
        self._answers = [following for _, _, following in held_out(rule) or []]
        self._guesses = list(guesses)

    async def act(self, ask: Ask) -> Reply:
        if ask.kind == "apply":
            return Reply(text="\n".join(f"{n}. {a}" for n, a in enumerate(self._answers, start=1)))
        return Reply(text=f"GUESS: {self._guesses.pop(0)}")


class _Judge:
    """Refuses every guess and remembers what it was asked."""

    kind = "scripted"
    model = None
    max_retries = 0

    def __init__(self) -> None:
        self.asked: list[str] = []

    async def act(self, ask: Ask) -> Reply:
        self.asked.append(ask.display)
        return Reply(text="Verdict: no\nReason: not the rule.")


async def _play(spec: MatchSpec, guesses: tuple[str, ...]) -> tuple[Any, _Judge, list[Any]]:
    recorder = MemoryRecorder()
    match_id = recorder.create_match(spec=spec, seats=[SeatAssignment(seat=PLAYER, player_kind="scripted")],
                                     roles=[RoleAssignment(role=JUDGE, player_kind="scripted")])
    judge = _Judge()
    outcome = await play_match(game, spec, {PLAYER: _Guesser(game.rule_of(spec), guesses), JUDGE: judge},
                               recorder, match_id)
    return outcome, judge, recorder.events[match_id]


async def test_divide_by_3_wins_without_asking_the_judge() -> None:
    spec = spec_of(1, 0)  # the L1 rule "divide by 3"
    outcome, judge, events = await _play(spec, ("divide by 3",))
    assert outcome.winner == PLAYER and outcome.rounds == 2 and "accepted by the rules" in outcome.reason
    assert outcome.result_for(PLAYER).score == 1.0  # the check is still asked for and scored
    assert judge.asked == []
    assert not [event for event in events if isinstance(event, AskIssued) and event.role == JUDGE]
    state = state_from_events(game, spec, events)  # the log folds to the same decision
    assert [(guess.verdict, guess.decided) for guess in state.guesses] == [("yes", "rules")]
    assert game.transcript(state)[-1] == ("game", "yes: accepted by the rules (the judge was not asked)")


async def test_a_guess_the_rules_do_not_accept_still_asks_the_judge() -> None:
    spec = spec_of(1, 0)
    outcome, judge, events = await _play(spec, ("divide by 4", "it shrinks", "x/3"))
    assert judge.asked == ["Guess: divide by 4", "Guess: it shrinks"]  # a wrong formula, then words it cannot read
    assert outcome.winner == PLAYER and "accepted by the rules" in outcome.reason
    state = state_from_events(game, spec, events)
    assert [(guess.verdict, guess.decided) for guess in state.guesses] == [("no", "judge"), ("no", "judge"),
                                                                          ("yes", "rules")]
    judged = [event.action for event in events if isinstance(event, ActionApplied) and event.action.role == JUDGE]
    assert len(judged) == 2


def test_a_match_recorded_before_the_rules_decided_folds_as_it_was_played() -> None:
    spec = spec_of(1, 0)
    old = spec.model_copy(update={"params": {k: v for k, v in spec.params.items() if k != RULES_DECIDE}})
    [ask] = game.next_asks(game.initial_state(old))
    guessed = game.parse(game.initial_state(old), ask, "GUESS: divide by 3")
    assert guessed.data == {}  # no decision of the rules in a match recorded before they decided
    state = game.apply(game.initial_state(old), guessed)
    answers = "\n".join(str(following) for _, _, following in held_out(game.rule_of(old)) or [])
    state = game.apply(state, Action(seat=PLAYER, kind="apply", text=answers))
    assert state.phase() == "judge" and state.guesses[-1].decided is None  # judged, as it was then
    state = game.apply(state, Action(role=JUDGE, kind="verdict", text="no", data={"reason": "r"}))
    assert game.outcome(state) is None and state.guesses[-1].decided == "judge"
    assert game.transcript(state)[-1] == (JUDGE, "no")


def test_the_rules_decision_is_kept_with_the_move_so_a_log_replays_as_played() -> None:
    """The rules decide when a guess is read (``parse``) and the decision travels in the action's data: applying
    a recorded move never reads the guess's words again, so a later change to how guesses are read cannot change
    a stored match."""
    spec = spec_of(1, 0)
    state = game.initial_state(spec)
    [ask] = game.next_asks(state)
    ruled = game.parse(state, ask, "GUESS: divide by 3")
    assert [record["decided"] for record in ruled.data["verdicts"]] == ["rules"]
    # A move recorded without the decision (the reading did not accept it then) stays a judged guess.
    bare = game.apply(state, Action(seat=PLAYER, kind="guess", text="divide by 3"))
    assert bare.guesses[-1].decided is None and bare.guesses[-1].verdict is None
    # And one recorded with it is accepted whatever its words now read as.
    kept = game.apply(state, Action(seat=PLAYER, kind="guess", text="something unreadable", data=ruled.data))
    assert (kept.guesses[-1].verdict, kept.guesses[-1].decided) == ("yes", "rules")
