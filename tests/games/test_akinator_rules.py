"""Akinator's rules, one at a time, on the pure state machine."""

from __future__ import annotations

import dataclasses
import random

import pytest

from playeval.core.errors import FormatError, RuleViolation
from playeval.core.game import replay
from playeval.core.match import Action, MatchSpec
from playeval.games.akinator import ANSWERER, GUESSER, JUDGE, Akinator, AkinatorState, load_secrets, prompts


def spec(level: int = 1, secret: str | None = "an electric guitar") -> MatchSpec:
    return MatchSpec(game="akinator", level=level, seed=1, secret=secret, variants={GUESSER: 0, ANSWERER: 0})


def q(text: str, n: int) -> Action:
    return Action(seat=GUESSER, kind="question", text=f"Question {n}: {text}")


def a(text: str, kind: str = "answer") -> Action:
    return Action(seat=ANSWERER, kind=kind, text=text)


def guess(obj: str) -> Action:
    return Action(seat=GUESSER, kind="guess", text=obj)


def verdict(text: str) -> Action:
    return Action(role=JUDGE, kind="confirm", text=text)


game = Akinator()


def test_turn_limits_by_level() -> None:
    for level, limit in ((1, 20), (2, 18), (3, 16)):
        state = game.initial_state(spec(level))
        for n in range(1, limit + 1):
            assert game.outcome(state) is None
            state = game.apply(state, q("Is it big?", n))
            state = game.apply(state, a("No"))
        outcome = game.outcome(state)
        assert outcome is not None and outcome.winner == ANSWERER and outcome.rounds == limit


def test_normalised_guess_wins_without_asking_the_answerer() -> None:
    state = game.apply(game.initial_state(spec()), guess("Electric-Guitars"))
    outcome = game.outcome(state)
    assert outcome is not None and outcome.winner == GUESSER and outcome.rounds == 1
    assert "rules" in outcome.reason


def test_substring_is_never_a_match() -> None:
    state = game.apply(game.initial_state(spec(secret="a cat")), guess("category"))
    assert game.outcome(state) is None
    ask = game.next_ask(state)
    assert ask.role == JUDGE and ask.seat is None and ask.kind == "confirm"


def test_the_judge_confirms_a_guess_rules_cannot_settle() -> None:
    state = game.apply(game.initial_state(spec(secret="a smartphone")), guess("a mobile phone"))
    with pytest.raises(RuleViolation, match="judged by the judge"):
        game.apply(state, a("Yes"))  # the answerer answers questions, not guesses
    state = game.apply(state, verdict("Yes"))
    outcome = game.outcome(state)
    assert outcome is not None and outcome.winner == GUESSER and "confirmed by the judge" in outcome.reason
    assert game.transcript(state)[-1] == (ANSWERER, "Yes")  # the verdict is the answer to the guess


def test_logs_of_schema_version_one_replay() -> None:
    """Before the judge was a role, the answerer confirmed guesses; such logs still fold to the same state."""
    old = replay(game, spec(secret="a smartphone"), [guess("a mobile phone"), a("No", "confirm"), q("Is it red?", 2)])
    new = replay(game, spec(secret="a smartphone"), [guess("a mobile phone"), verdict("No"), q("Is it red?", 2)])
    assert old == new and old.turns[0].answer == "No"


def test_the_judge_is_a_role_bound_by_default_to_the_answerers_seat() -> None:
    assert [role.name for role in game.roles] == [JUDGE] and game.roles[0].default == f"seat:{ANSWERER}"
    assert JUDGE not in {seat.name for seat in game.seats}


def test_wrong_guess_uses_a_turn_and_play_goes_on() -> None:
    state = game.apply(game.initial_state(spec()), guess("a violin"))
    state = game.apply(state, verdict("No"))
    assert game.outcome(state) is None
    ask = game.next_ask(state)
    assert ask.seat == GUESSER
    assert "19 turns left" in ask.messages[-1].content
    assert game.parse(state, ask, "Question 2: Does it have strings?").text.startswith("Question 2:")


def test_level_three_allows_only_three_answers() -> None:
    state = game.apply(game.initial_state(spec(3)), q("Is it alive?", 1))
    ask = game.next_ask(state)
    assert ask.constraint is not None and ask.constraint.choices == ("Yes", "No", "Don't know")
    with pytest.raises(FormatError):
        game.parse(state, ask, "Probably yes")
    with pytest.raises(RuleViolation):
        game.apply(state, a("Probably yes"))
    assert game.parse(state, ask, "don't know.").text == "Don't know"


def test_answers_are_read_leniently_but_only_allowed_ones() -> None:
    state = game.apply(game.initial_state(spec()), q("Is it alive?", 1))
    ask = game.next_ask(state)
    assert game.parse(state, ask, " probably YES ").text == "Probably yes"
    assert game.parse(state, ask, "Not sure").text == "Don't know"
    with pytest.raises(FormatError):
        game.parse(state, ask, "Yes, it is alive and it barks")


def test_question_format() -> None:
    state = game.initial_state(spec())
    ask = game.next_ask(state)
    assert game.parse(state, ask, "**Question 1:** Is it made of metal?").text == "Question 1: Is it made of metal?"
    assert game.parse(state, ask, "Is it made of metal?").text == "Question 1: Is it made of metal?"
    for bad in ("", "Question 2: Is it red?", "Is it red? Is it big?", "It is red.", "Question 1: Red?\nMore text"):
        with pytest.raises(FormatError):
            game.parse(state, ask, bad)
    parsed = game.parse(state, ask, "This is a guess -- are you thinking of a sextant?")
    assert parsed.kind == "guess" and parsed.text == "a sextant"


def test_turn_order_is_enforced() -> None:
    state = game.initial_state(spec())
    with pytest.raises(RuleViolation):
        game.apply(state, a("Yes"))
    state = game.apply(state, q("Is it alive?", 1))
    with pytest.raises(RuleViolation):
        game.apply(state, q("Is it red?", 2))
    with pytest.raises(RuleViolation):
        game.apply(state, a("Yes", "confirm"))
    with pytest.raises(RuleViolation):
        game.apply(state, verdict("Yes"))


def test_finished_game_accepts_no_moves() -> None:
    state = game.apply(game.initial_state(spec()), guess("an electric guitar"))
    with pytest.raises(RuleViolation):
        game.apply(state, q("Is it red?", 2))


def test_guesser_never_sees_the_secret() -> None:
    state: AkinatorState = game.initial_state(spec(secret="a sextant"))
    for n in range(1, 6):
        ask = game.next_ask(state)
        assert all("sextant" not in m.content for m in ask.messages)
        state = game.apply(state, q("Is it used at sea?", n))
        answer_ask = game.next_ask(state)
        assert "sextant" in answer_ask.messages[0].content
        state = game.apply(state, a("Probably yes"))


def test_state_is_a_fold_of_actions() -> None:
    actions = [q("Is it alive?", 1), a("No"), guess("a lute"), verdict("No"), guess("Electric guitars")]
    state = replay(game, spec(), actions)
    assert game.outcome(state) is not None and len(state.turns) == 3


def test_new_spec_is_seeded_and_draws_variants() -> None:
    first = game.new_spec(1, 7, random.Random(7))
    again = game.new_spec(1, 7, random.Random(7))
    assert first == again
    assert first.hidden("secret") in load_secrets("everyday")
    drawn = {game.new_spec(1, s, random.Random(s)).variants[GUESSER] for s in range(60)}
    assert drawn == set(range(len(prompts.GUESSER_VARIANTS)))


def test_a_person_gives_the_object_or_keeps_it_in_mind() -> None:
    given = game.new_spec(1, 7, random.Random(7), inputs={"secret": "a teapot"})
    assert given.hidden("secret") == "a teapot"
    [shown] = game.disclosures(given)
    assert shown.seats == (ANSWERER,) and shown.value == "a teapot" and shown.key == "secret"
    kept = game.new_spec(1, 7, random.Random(7), inputs={})
    assert kept.setup == {} and game.disclosures(kept) == ()
    state = game.apply(game.initial_state(kept), guess("a teapot"))  # nothing to match: the judge decides
    assert game.next_ask(state).role == JUDGE


def test_secret_sets_shipped() -> None:
    assert len(load_secrets("set1")) == 50 and len(load_secrets("set2")) == 50
    assert len(load_secrets("everyday")) >= 200
    assert "a sextant" in load_secrets("set1")


def test_a_guess_must_name_something() -> None:
    state = game.initial_state(spec())
    ask = game.next_ask(state)
    for vague in ("the object", "This is a guess -- are you thinking of something?", "guess: it",
                  "This is a guess -- are you thinking of the secret object?"):
        text = vague if vague.startswith(("This", "guess")) else f"This is a guess -- are you thinking of {vague}?"
        with pytest.raises(FormatError, match="specific object"):
            game.parse(state, ask, text)


def test_a_category_is_a_wrong_guess_answered_by_the_rules() -> None:
    for category in ("a man-made object", "a household item", "Small Things", "some kitchen stuff",
                     "a metal object"):
        state = game.initial_state(spec(secret="eyeglasses"))
        action = game.parse(state, game.next_ask(state), f"This is a guess -- are you thinking of {category}?")
        assert action.kind == "guess" and action.text == category
        state = game.apply(state, action)
        # no answerer is asked (a lenient one confirmed "a man-made object" for eyeglasses): the rules say No
        assert state.turns[-1].answer == "No" and state.turns[-1].category
        assert game.outcome(state) is None and game.next_ask(state).seat == GUESSER
        assert game.transcript(state)[-1] == (ANSWERER, "No (a category, not an object: answered by the rules)")
    for named in ("an object lesson plan", "a thing-a-ma-bob", "an itemised receipt", "a kitchen timer"):
        state = game.apply(game.initial_state(spec(secret="eyeglasses")), guess(named))
        assert state.turns[-1].answer is None and game.next_ask(state).role == JUDGE


def test_confirmation_ask_names_secret_and_guess() -> None:
    state = game.apply(game.initial_state(spec(secret="a sofa")), guess("a couch"))
    ask = game.next_ask(state)
    assert ask.kind == "confirm" and ask.constraint is not None and ask.constraint.choices == ("Yes", "No")
    assert "Secret object: a sofa" in ask.messages[-1].content and "Guess: a couch" in ask.messages[-1].content


def test_a_reply_with_two_answers_is_a_format_error() -> None:
    state = game.apply(game.initial_state(spec()), q("Is it alive?", 1))
    ask = game.next_ask(state)
    for two in ("Yes\nNo", "Yes\n\nNo", "No\nYes\n", "Yes\nIt is alive."):
        with pytest.raises(FormatError, match="one answer, not two"):
            game.parse(state, ask, two)
    assert game.parse(state, ask, "Yes\n").text == "Yes"
    assert game.parse(state, ask, "  No  \n\n").text == "No"
    judged = game.apply(game.initial_state(spec(secret="a smartphone")), guess("a mobile phone"))
    confirm = game.next_ask(judged)
    assert confirm.kind == "confirm"
    with pytest.raises(FormatError, match="one answer, not two"):
        game.parse(judged, confirm, "Yes\nNo")
    assert game.parse(judged, confirm, "Yes\n").text == "Yes"


def test_the_guessers_conversation_cache_is_used_only_for_its_own_turns_and_level() -> None:
    actions = [q("Is it alive?", 1), a("No"), q("Is it big?", 2), a("Probably yes"), guess("a lute"), verdict("No")]
    state = replay(game, spec(level=1), actions)
    spoken = [m.content for m in game.next_ask(state).messages]
    assert len(spoken) == 2 + 2 * 3 and "Probably yes." in " ".join(spoken)
    # Turns swapped under the cache: the conversation follows the turns, not what was cached for others.
    other = replay(game, spec(level=1), [q("Is it metal?", 1), a("Yes")])
    swapped = dataclasses.replace(state, turns=other.turns)
    assert [m.content for m in game.next_ask(swapped).messages] == [m.content for m in game.next_ask(other).messages]
    # The same turns at another level: the turns left in the feedback follow the level's limit.
    level_two = dataclasses.replace(state, spec=spec(level=2), fixed=None)
    fresh = replay(game, spec(level=2), actions)
    assert [m.content for m in game.next_ask(level_two).messages] == [m.content for m in game.next_ask(fresh).messages]
    assert [m.content for m in game.next_ask(level_two).messages] != spoken
