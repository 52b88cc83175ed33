"""The terminal reads a guess-the-rule check of ten items as a person types it (issue 23 section 3): one answer a
line, several on a line, or ``skip``; a bad line is refused with the reason and asked again, nothing typed lost;
and the reply it sends is one the game's own parser takes."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from playeval.core.ask import Ask
from playeval.core.match import Action
from playeval.core.registry import default_registry
from playeval.core.rng import match_rng
from playeval.guess_rule import GuessRuleGame, GuessState
from playeval.guess_rule.base import LAST_GUESS
from playeval.players.terminal import TerminalPlayer


def _check(game_id: str, seed: int = 3) -> tuple[GuessRuleGame, GuessState, Ask]:
    """A match whose player has just guessed: its check's ask."""
    game = default_registry().get(game_id)
    assert isinstance(game, GuessRuleGame)
    state = game.initial_state(game.new_spec(1, seed, match_rng(seed)))
    ask = game.next_asks(state)[0]
    state = game.apply(state, game.parse(state, ask, "GUESS: something I made up"))
    return game, state, game.next_asks(state)[0]


def _play(ask: Ask, lines: list[str]) -> tuple[str, list[str], list[str]]:
    """The reply the terminal sends for ``lines`` typed, the prompts it showed and what it wrote."""
    typed: Iterator[str] = iter(lines)
    prompts: list[str] = []
    written: list[str] = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        return next(typed)

    reply = asyncio.run(TerminalPlayer(read=read, write=written.append).act(ask))
    return reply.text, prompts, written


def _taken(game: GuessRuleGame, state: GuessState, ask: Ask, text: str) -> Action:
    action = game.parse(state, ask, text)
    assert action.kind == "apply"
    return action


def test_one_answer_a_line_each_prompted_with_its_item() -> None:
    game, state, ask = _check("static_picnic")
    items = state.guesses[-1].check.items
    answers = [item.answer for item in items]
    text, prompts, _ = _play(ask, answers)
    assert text == "\n".join(f"{n}. {answer}" for n, answer in enumerate(answers, start=1))
    assert prompts == [f"you {n}. {item.prompt}> " for n, item in enumerate(items, start=1)]
    applied = game.apply(state, _taken(game, state, ask, text))
    assert game.accuracy(applied) == 1.0


def test_several_on_a_line_numbered_or_not_and_in_any_case() -> None:
    game, state, ask = _check("static_picnic")
    text, prompts, _ = _play(ask, ["YES no yes no yes", "6. no 7. yes", "no, yes, no"])
    assert text.splitlines() == ["1. yes", "2. no", "3. yes", "4. no", "5. yes", "6. no", "7. yes", "8. no",
                                 "9. yes", "10. no"]
    assert len(prompts) == 3
    _taken(game, state, ask, text)


def test_bad_lines_are_refused_with_the_reason_and_nothing_typed_is_lost() -> None:
    game, state, ask = _check("static_picnic")
    lines = ["yes", "maybe", "12. yes", "", "yes " * 12, "no", "3. no 4. yes", "yes no yes no yes no"]
    text, prompts, written = _play(ask, lines)
    said = "\n".join(written)
    assert "item 2: answer yes or no, not 'maybe'" in said
    assert "there is no item 12: the items are numbered 1 to 10" in said
    assert "Still to answer: 2, 3, 4, 5, 6, 7, 8, 9, 10 (or 'skip' to skip)." in said
    assert "12 answers, but only 9 items are left to answer" in said
    assert text.splitlines()[:4] == ["1. yes", "2. no", "3. no", "4. yes"] and len(text.splitlines()) == 10
    assert prompts[1] == prompts[2] == prompts[3] == prompts[4] == prompts[5]  # item 2 asked again each time
    _taken(game, state, ask, text)


def test_skip_alone_skips_the_whole_check_even_midway() -> None:
    game, state, ask = _check("static_picnic")
    assert _play(ask, ["skip"])[0] == "skip"
    assert _play(ask, ["yes", "no", "SKIP"])[0] == "skip"
    assert game.apply(state, _taken(game, state, ask, "skip")).guesses[-1].applied == ()


def test_the_math_check_takes_numbers_one_a_line_or_on_one_line() -> None:
    game, state, ask = _check("math")
    answers = [item.answer for item in state.guesses[-1].check.items]
    text, _, _ = _play(ask, [" ".join(answers[:5]), *answers[5:]])
    assert text.splitlines() == [f"{n}. {answer}" for n, answer in enumerate(answers, start=1)]
    assert game.accuracy(game.apply(state, _taken(game, state, ask, text))) == 1.0
    numbered = " ".join(f"{n}. {answer}" for n, answer in enumerate(answers, start=1))
    assert _play(ask, [numbered])[0] == text
    # text that is not a whole number is refused with the reason; "1.5" is an answer, not item 1's "5"
    again, _, written = _play(ask, ["abc", "1.5", *answers])
    assert again == text
    assert "item 1: answer a whole number, not 'abc'." in "\n".join(written)
    assert "item 1: answer a whole number, not '1.5'." in "\n".join(written)


@pytest.mark.parametrize("game_id", ["static_picnic", "functions_picnic", "math"])
def test_a_move_still_takes_one_line_and_the_last_guess_is_on_the_screen(game_id: str) -> None:
    game = default_registry().get(game_id)
    assert isinstance(game, GuessRuleGame)
    state = game.initial_state(game.new_spec(1, 5, match_rng(5)))
    ask = game.next_asks(state)[0]
    state = game.apply(state, game.parse(state, ask, f"MORE: {state.total - state.shown}"))
    ask = game.next_asks(state)[0]
    text, prompts, written = _play(ask, ["GUESS: a rule"])
    assert text == "GUESS: a rule" and prompts == ["you> "]
    assert LAST_GUESS in "\n".join(written)
