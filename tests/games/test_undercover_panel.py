"""Undercover's page view (``Undercover.panel``): each seat sees only its own word, the judges' verdicts, closed
votes and eliminations; the forms build only moves the rules take; everyone's word and side at the end."""

from __future__ import annotations

import re

import pytest
from test_undercover_rules import _pairs, scores, start

from playeval.core import Panel, RuleViolation
from playeval.core.panel import MoveForm
from playeval.games.undercover import MAX_CHARS, Undercover, UndercoverState

game = Undercover()
__all__ = ["_pairs"]  # the autouse fixture this module shares with the rules' tests: the concept pairs of the tests


def _form(panel: Panel, kind: str) -> MoveForm:
    [form] = [form for form in panel.forms if form.kind == kind]
    return form


def _send(state: UndercoverState, form: MoveForm, value: str) -> UndercoverState:
    """A form's reply, read and applied as a person's typed reply is."""
    [ask] = [ask for ask in game.next_asks(state) if ask.party == form.party]
    action = form.actions[0]
    text = action.reply({action.fields[0].key: value})
    return game.apply(state, game.parse(state, ask, text))


def _words_in(panel: Panel, state: UndercoverState) -> set[str]:
    """The pair's words the panel names."""
    text = panel.model_dump_json().lower()
    pair = state.spec.setup["pair"]
    return {word for word in (pair["civilian"], pair["undercover"]) if re.search(rf"\b{word}\b", text)}


def _list(panel: Panel, key: str) -> tuple[str, ...]:
    return next(listed.items for listed in panel.lists if listed.key == key)


def _say_round(state: UndercoverState, **low: tuple[float, float]) -> UndercoverState:
    """Every living seat speaks through its form; the judge scores each sentence."""
    while state.phase() != "vote" and game.outcome(state) is None:
        seat = state.next_speaker() or ""
        panel = game.panel(state, seat)
        for other in state.table:  # only the speaker has a form, and only for its sentence
            assert [form.kind for form in game.panel(state, other).forms] == (["statement"] if other == seat else [])
        form = _form(panel, "statement")
        assert form.actions[0].fields[0].max_chars == MAX_CHARS
        state = _send(state, form, f"{seat} describes it anew in round {state.round}")
        assert "the judge is scoring it" in " ".join(_list(game.panel(state, None), f"round-{state.round}"))
        novelty, reasonableness = low.get(seat, (1.0, 1.0))
        state = game.apply(state, scores(novelty=novelty, reasonableness=reasonableness))
    return state


def test_a_seat_sees_only_its_own_word_and_a_watcher_none_until_the_end() -> None:
    state = start()
    for seat in state.table:
        panel = game.panel(state, seat)
        assert _list(panel, "word") == (state.word(seat),) and _words_in(panel, state) == {state.word(seat)}
    assert _words_in(game.panel(state, None), state) == set()
    assert all(listed.key != "word" for listed in game.panel(state, None).lists)


def test_the_verdicts_tallies_and_eliminations_are_shown_and_the_open_vote_stays_secret() -> None:
    state = _say_round(start(), player2=(0.0, 1.0))  # the judge puts player2 out for a repeat-like sentence
    round_one = _list(game.panel(state, None), "round-1")
    assert any(line.startswith("player2: ") and line.endswith("out: Low novelty") for line in round_one)
    assert "judge: novelty 1.00, relevance 0.60, reasonableness 1.00" in round_one[0]
    assert _list(game.panel(state, None), "out") == ("player2 \u2014 round 1: put out by the judge (Low novelty)",)

    # the vote form offers only the living other seats, to the seats that have not voted yet
    form = _form(game.panel(state, "player1"), "vote")
    assert form.actions[0].fields[0].choices == ("player3", "player4", "player5", "player6")
    assert game.panel(state, "player2").forms == ()  # out of the game: no form
    state = _send(state, form, "player3")
    assert game.panel(state, "player1").forms == ()
    assert not any(line.startswith("Votes") for line in _list(game.panel(state, "player4"), "round-1"))
    for seat in ("player3", "player4", "player5", "player6"):
        state = _send(state, _form(game.panel(state, seat), "vote"), "player3" if seat != "player3" else "player4")
    closed = _list(game.panel(state, None), "round-1")
    assert closed[-2] == "Votes: player3 4 (player1, player4, player5, player6); player4 1 (player3)"
    assert closed[-1] == "Result: player3 is voted out with 4 votes"
    assert _list(game.panel(state, None), "out")[-1] == "player3 \u2014 round 1: voted out with 4 votes"
    counters = {counter.key: (counter.value, counter.limit) for counter in game.panel(state, None).counters}
    assert counters == {"round": (2, 5), "left": (4, 6), "undercover": (2, None)}
    state = game.eliminate(state, "player4", "no sentence the rules took")  # a seat whose re-asks ran out
    assert _list(game.panel(state, None), "out")[-1] == "player4 — round 2: forfeit: no sentence the rules took"


def test_a_form_cannot_build_a_vote_the_rules_refuse_and_a_typed_one_is_refused_with_its_reason() -> None:
    state = _say_round(start())
    form = _form(game.panel(state, "player1"), "vote")
    choices = form.actions[0].fields[0].choices or ()
    for choice in choices:
        _send(state, form, choice)  # every choice is a valid vote
    [ask] = [ask for ask in game.next_asks(state) if ask.seat == "player1"]
    for typed, reason in (("player1", "yourself"), ("player9", "no player"), ("lion", "no player")):
        with pytest.raises(RuleViolation, match=reason):
            game.apply(state, game.parse(state, ask, typed))


def test_everyone_s_word_and_side_are_shown_at_the_end() -> None:
    state = start(max_rounds=1)
    state = _say_round(state)
    for seat in state.table:
        target = "player2" if seat != "player2" else "player1"
        state = _send(state, _form(game.panel(state, seat), "vote"), target)
    assert game.outcome(state) is not None
    for viewer in (None, "player1"):
        panel = game.panel(state, viewer)
        words = _list(panel, "words")
        assert [line.split(":")[0] for line in words] == list(state.table)
        for seat, line in zip(state.table, words, strict=True):
            assert f"{state.word(seat)} ({state.side(seat)})" in line
        assert panel.forms == () and _words_in(panel, state) == set(state.spec.setup["words"].values())
    assert _list(game.panel(state, "player1"), "words")[0].endswith("\u2014 you")
