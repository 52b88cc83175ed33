"""The play of the guess-the-rule games across guesses (issue 23): each guess's check asks fresh items where the
rule's pool allows, taking unshown example units only while more than ``FAIR_LEFT`` stay to be shown and reusing
items only when it must (and saying so); the last possible move is announced to the model, the page and whoever
reads the ask; the counter of things seen counts items (or values)."""

from __future__ import annotations

from collections import Counter

import pytest

from playeval.core.match import Action, MatchSpec
from playeval.core.registry import default_registry
from playeval.core.rng import match_rng
from playeval.guess_rule import PLAYER, GuessRuleGame, GuessState, ListedRound
from playeval.guess_rule.base import FAIR_LEFT, FRESH_CHECKS, LAST_EXAMPLES, LAST_GUESS, LAST_TURN, last_move
from playeval.guess_rule.panel import guess_panel

GAMES = ("static_picnic", "functions_picnic", "math")


def _game(game_id: str) -> GuessRuleGame:
    game = default_registry().get(game_id)
    assert isinstance(game, GuessRuleGame)
    return game


def _reply(game: GuessRuleGame, state: GuessState, text: str) -> GuessState:
    ask = game.next_asks(state)[0]
    return game.apply(state, game.parse(state, ask, text))


def _wrong_guess(game: GuessRuleGame, state: GuessState, number: int) -> GuessState:
    """A guess the judge refuses, its check answered right."""
    state = _reply(game, state, f"GUESS: a rule nobody would state number {number}")
    items = state.guesses[-1].check.items
    state = _reply(game, state, "\n".join(f"{n}. {item.answer}" for n, item in enumerate(items, start=1)))
    return game.apply(state, Action(role="judge", kind="verdict", text="no", data={"reason": "no"}))


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("seed", [3, 8])
def test_every_wrong_guess_gets_a_fresh_check_of_the_same_shape(game_id: str, seed: int) -> None:
    game = _game(game_id)
    spec = game.new_spec(1, seed, match_rng(seed))
    assert spec.params[FRESH_CHECKS] is True
    state = game.initial_state(spec)
    for number in range(4):
        before = (state.total, state.shown)
        state = _wrong_guess(game, state, number)
        check = state.guesses[-1].check
        assert state.total == before[0] - check.lent and state.shown == before[1]
        assert check.lent == 0 or state.total - state.shown >= FAIR_LEFT  # never below the fair room to ask
    checks = [guess.check for guess in state.guesses]
    assert checks[0].items == tuple(game.held_out(state.rule))
    first = Counter(item.answer for item in checks[0].items) if game_id != "math" else None
    for index, check in enumerate(checks[1:], start=1):
        assert len(check.items) == len(checks[0].items)
        if first is not None:
            assert Counter(item.answer for item in check.items) == first  # balanced as the first
        earlier = {item.prompt for other in checks[:index] for item in other.items}
        assert sum(1 for item in check.items if item.prompt in earlier) == check.reused
        assert len({item.prompt for item in check.items}) == len(check.items)
    if game_id in ("functions_picnic", "math"):  # a large pool: every later check is wholly fresh, no unit taken
        assert all(check.reused == 0 and check.lent == 0 for check in checks)
    if isinstance(state.rule, ListedRound):  # no check item is an example the player can still be shown
        units = set(state.rule.positives[:state.total]) | set(state.rule.negatives[:state.total])
        assert not any(item.prompt in units for check in checks for item in check.items)
    else:  # nor a value of the sequence at its position
        values = state.rule.sequence()
        assert not any(item.prompt == f"position {index}: {value}" for check in checks for item in check.items
                       for index, value in enumerate(values))
    # the same moves fold to the same checks: reproducible from the seed
    again = game.initial_state(game.new_spec(1, seed, match_rng(seed)))
    for number in range(4):
        again = _wrong_guess(game, again, number)
    assert [guess.check for guess in again.guesses] == checks
    # a check's answers are scored against its own items
    assert game.accuracy(state) == 1.0


def test_math_later_items_follow_the_rule() -> None:
    game = _game("math")
    state = game.initial_state(game.new_spec(3, 4, match_rng(4)))
    state = _wrong_guess(game, _wrong_guess(game, state, 0), 1)
    rule = state.rule
    for item in state.guesses[-1].check.items:
        index, value = (int(part) for part in item.prompt.removeprefix("position ").split(": "))
        assert rule.next_value(value, index) == int(item.answer)


def _small_round(reserve_yes: int) -> tuple[GuessRuleGame, MatchSpec]:
    """A Static Picnic match on a made-up round: 20 units, a check of 5 + 5, a reserve of ``reserve_yes`` items
    that may come and 40 that may not."""
    game = _game("static_picnic")
    drawn = game.new_spec(1, 1, match_rng(1))
    setup = {"rule": "made-up", "statement": "made-up things",
             "positives": [f"p{i}" for i in range(20)], "negatives": [f"n{i}" for i in range(20)],
             "held_out": [[f"h{i}", "yes"] for i in range(5)] + [[f"g{i}", "no"] for i in range(5)],
             "reserve": [[f"r{i}", "yes"] for i in range(reserve_yes)] + [[f"s{i}", "no"] for i in range(40)]}
    return game, drawn.model_copy(update={"setup": setup})


def test_the_pool_is_shared_reserve_first_then_unshown_units_then_reuse() -> None:
    game, spec = _small_round(reserve_yes=3)
    state = _wrong_guess(game, game.initial_state(spec), 0)
    assert state.guesses[-1].check.lent == 0 and state.total == 20
    state = _wrong_guess(game, state, 1)  # 3 from the reserve, 2 from the last two units
    check = state.guesses[-1].check
    yes = sorted(item.prompt for item in check.items if item.answer == "yes")
    assert yes == ["p18", "p19", "r0", "r1", "r2"] and check.lent == 2 and check.reused == 0
    assert {item.prompt for item in check.items if item.answer == "no"} <= {f"s{i}" for i in range(40)}
    assert state.total == 18
    state = _wrong_guess(game, state, 2)  # 18 - 2 shown leaves 16: five more units may go, 11 stay
    check = state.guesses[-1].check
    assert check.lent == 5 and check.reused == 0 and state.total == 13
    assert sorted(item.prompt for item in check.items if item.answer == "yes") == [f"p{i}" for i in range(13, 18)]
    state = _wrong_guess(game, state, 3)  # room for one unit only: four items of the first check come back
    check = state.guesses[-1].check
    assert check.lent == 1 and check.reused == 4 and state.total - state.shown == FAIR_LEFT
    assert sorted(item.prompt for item in check.items if item.answer == "yes") == ["h0", "h1", "h2", "h3", "p12"]
    said = check.said()
    assert "1 example unit not yet shown" in said and "4 of the 10 items were asked in an earlier check" in said
    assert f"the check's items: {said}" in [text for _, text in game.transcript(state)]
    # the player reads it with the check it answered, and the examples left are what the page offers
    ask_state = _reply(game, state, "GUESS: one more wrong guess")
    ask = game.next_asks(ask_state)[0]
    assert ask.kind == "apply" and "were asked in an earlier check" in ask.display
    assert "were asked in an earlier check" not in ask.messages[-1].content  # a model's request is the game's words
    form = guess_panel(game, ask_state, PLAYER).forms[0]
    assert "asked in an earlier check" in (form.note or "")


def test_a_match_recorded_before_fresh_checks_asks_the_same_items_again() -> None:
    game = _game("static_picnic")
    spec = game.new_spec(1, 3, match_rng(3))
    old = spec.model_copy(update={"params": {key: value for key, value in spec.params.items()
                                             if key != FRESH_CHECKS}})
    state = game.initial_state(old)
    for number in range(3):
        state = _wrong_guess(game, state, number)
    held = tuple(game.held_out(state.rule))
    assert all(guess.check.items == held and not guess.check.said() for guess in state.guesses)
    assert not any("the check's items" in text for _, text in game.transcript(state))


@pytest.mark.parametrize("game_id", GAMES)
def test_the_last_guess_is_announced_once_every_example_is_shown(game_id: str) -> None:
    game = _game(game_id)
    state = game.initial_state(game.new_spec(1, 5, match_rng(5)))
    ask = game.next_asks(state)[0]
    assert last_move(ask) is None and game.last_note(state) is None
    assert guess_panel(game, state, PLAYER).forms[0].title == "Your move"
    state = _reply(game, state, f"MORE: {state.total - state.shown}")
    ask = game.next_asks(state)[0]
    assert last_move(ask) == LAST_GUESS and game.last_note(state) == LAST_GUESS
    assert ask.messages[-1].content.endswith(f"{LAST_EXAMPLES} {LAST_GUESS}")  # the model is told too
    form = guess_panel(game, state, PLAYER).forms[0]
    assert form.title == "Your last move" and form.note == LAST_GUESS
    # it was true: a refused guess now ends the game
    state = _wrong_guess(game, state, 0)
    assert game.outcome(state) is not None


@pytest.mark.parametrize("game_id", GAMES)
def test_the_last_turn_is_announced_before_it(game_id: str) -> None:
    game = _game(game_id)
    state = game.initial_state(game.new_spec(1, 5, match_rng(5), options={"max_turns": 3}))
    state = _reply(game, state, "MORE: 1")  # turn 2: the next is turn 3 of 3
    ask = game.next_asks(state)[0]
    if state.total > state.shown:
        assert last_move(ask) == LAST_TURN and ask.messages[-1].content.endswith(LAST_TURN)
        assert guess_panel(game, state, PLAYER).forms[0].note == LAST_TURN
    before = game.conversation(state)
    state = _wrong_guess(game, state, 0)
    assert game.outcome(state) is not None
    # the note is in the last ask only: the conversation before it is as it was (append-only prompts)
    assert game.conversation(state)[:len(before) - 1] == before[:-1]
