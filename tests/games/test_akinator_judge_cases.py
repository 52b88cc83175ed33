"""Akinator's guess judge is measured: hand-written labelled guesses (``data/judge_cases.jsonl``), each asked exactly
as a match asks the judge, and the judge's Yes/No read as a match reads it."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from typer.testing import CliRunner

from playeval.cli.main import app
from playeval.core import Ask, FormatError, JudgeCase, JudgedGame
from playeval.core.normalize import normalize_name, same_name
from playeval.core.registry import default_registry
from playeval.games.akinator import JUDGE, Akinator, load_secrets
from playeval.games.akinator.rules import is_category

game = Akinator()
CASES = tuple(game.judge_cases())
RIGHT_KINDS = {"other name", "spelling", "short name", "exact"}
WRONG_KINDS = {"broader", "narrower", "related", "wrong"}


def test_akinator_is_a_judged_game() -> None:
    assert isinstance(game, JudgedGame) and isinstance(default_registry().get("akinator"), JudgedGame)
    assert set(game.judge_case_keys) == {"secret"}


def test_the_set_is_large_balanced_and_labelled_by_kind() -> None:
    assert len(CASES) >= 48
    ids = [case.id for case in CASES]
    assert len(set(ids)) == len(ids) and all(case_id.startswith("hw-") for case_id in ids)
    assert 0.35 <= sum(case.correct for case in CASES) / len(CASES) <= 0.65
    kinds = Counter(case.kind for case in CASES)
    assert set(kinds) == RIGHT_KINDS | WRONG_KINDS and min(kinds.values()) >= 3
    for case in CASES:
        assert set(case.context) == {"secret"} and case.correct is (case.kind in RIGHT_KINDS), case.id
    assert len({(normalize_name(case.context["secret"]), normalize_name(case.answer)) for case in CASES}) == len(CASES)


def test_only_a_few_cases_are_exact_matches() -> None:
    """The rules confirm an exact match without asking the judge: only the "exact" cases are such matches."""
    exact = [case.id for case in CASES if same_name(case.answer, case.context["secret"])]
    assert exact == [case.id for case in CASES if case.kind == "exact"] and 1 <= len(exact) <= 5


def test_the_secrets_are_mostly_the_games_own() -> None:
    known = {normalize_name(secret) for name in game.secret_sets for secret in load_secrets(name)}
    own = [case for case in CASES if normalize_name(case.context["secret"]) in known]
    assert len(own) >= 0.85 * len(CASES)


def _judged_in_a_match(case: JudgeCase) -> Ask | None:
    """The judge's ask in a match where the guesser guessed the case's answer against its secret (``None``: the
    rules settled the guess without the judge)."""
    spec = game.new_spec(1, 3, random.Random(3), inputs={"secret": case.context["secret"]})
    state = game.initial_state(spec)
    [move] = game.next_asks(state)
    action = game.parse(state, move, f"This is a guess -- are you thinking of {case.answer}?")
    assert action.kind == "guess" and action.text == case.answer, case.id
    state = game.apply(state, action)
    return None if game.outcome(state) is not None else game.next_asks(state)[0]


def test_every_case_is_asked_as_a_match_asks_it() -> None:
    for case in CASES:
        ask = game.judge_case_ask(case)
        said = ask.messages[-1].content
        assert ask.role == JUDGE and ask.kind == "confirm" and ask.constraint is not None, case.id
        assert f"Secret object: {case.context['secret']}\nGuess: {case.answer}\n" in said, case.id
        assert not is_category(case.answer), case.id
        in_match = _judged_in_a_match(case)
        if case.kind == "exact":
            assert in_match is None, case.id  # the rules confirmed it
        else:
            assert in_match == ask, case.id


def test_the_verdict_reads_yes_and_no_as_a_match_does() -> None:
    ask = game.judge_case_ask(CASES[0])
    for reply, accepted in (("Yes", True), ("No", False), (" yes.", True), ("**No**", False), ("NO\n", False)):
        assert game.judge_case_verdict(ask, reply) is accepted, reply
    for garbage in ("Maybe", "", "Yes\nNo", "Probably yes"):
        with pytest.raises(FormatError):
            game.judge_case_verdict(ask, garbage)


def test_analyze_judge_measures_the_mock_player() -> None:
    """The mock player's judge denies every guess it is asked about: every wrong guess right, every right one
    refused."""
    done = CliRunner().invoke(app, ["analyze", "judge", "--model", "mock/player", "--game", "akinator",
                                    "--no-cache"], env={"COLUMNS": "300"})
    assert done.exit_code == 0, done.output
    text = " ".join(done.output.split())
    wrong = sum(not case.correct for case in CASES)
    assert f"akinator confirm {len(CASES)} {wrong / len(CASES):.1%} [" in text
    assert "0.0% [0%, " in text and "100.0% [" in text  # no false accept, every right guess refused
    broader = sum(case.kind == "broader" for case in CASES)
    assert f"akinator/broader {broader}/{broader}" in text
