"""The page view every guess-the-rule game shares (``GuessRuleGame.panel``): what it shows, to whom, and that the
replies its forms build are moves the game's own parser and rules take."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from pydantic import ValidationError

from playeval.core.game import panel_of
from playeval.core.match import Action
from playeval.core.panel import FormAction, FormField, MoveForm, Panel
from playeval.core.registry import default_registry
from playeval.core.rng import match_rng
from playeval.guess_rule import PLAYER, GuessRuleGame, GuessState
from playeval.guess_rule.panel import answer_field, text_lists

GAMES = [game_id for game_id in default_registry().ids() if isinstance(default_registry().get(game_id),
                                                                        GuessRuleGame)]


def _game(game_id: str) -> GuessRuleGame:
    game = default_registry().get(game_id)
    assert isinstance(game, GuessRuleGame)
    return game


def _form(panel: Panel, kind: str) -> MoveForm:
    found = [form for form in panel.forms if form.kind == kind]
    assert len(found) == 1, panel.forms
    return found[0]


def _roles(game: GuessRuleGame, state: GuessState) -> GuessState:
    """The roles' asks due before the player's (a game master preparing examples), played by the game's scripted
    stand-ins."""
    while game.outcome(state) is None and (ask := game.next_asks(state)[0]).role is not None \
            and ask.role != "judge":
        reply = asyncio.run(game.scripted_player(ask.role, state.spec).act(ask))
        state = game.apply(state, game.parse(state, ask, reply.text))
    return state


def _send(game: GuessRuleGame, state: GuessState, action: FormAction, values: dict[str, str]) -> GuessState:
    """A form's reply, read and applied exactly as a person's typed reply would be (then the roles due move)."""
    ask = game.next_asks(state)[0]
    return _roles(game, game.apply(state, game.parse(state, ask, action.reply(values))))


def _texts(panel: Panel) -> str:
    return panel.model_dump_json()


@pytest.mark.parametrize("game_id", GAMES)
def test_a_whole_game_through_the_forms_shows_only_what_was_shown(game_id: str) -> None:
    game = _game(game_id)
    # the first seed from 11 whose rule has examples left after turn 1 (a small category may show all at once)
    state = next(s for s in (_roles(game, game.initial_state(game.new_spec(1, seed, match_rng(seed))))
                             for seed in range(11, 60)) if s.total > s.shown)
    rule = state.rule

    panel = game.panel(state, PLAYER)
    assert panel.clock == "Time"
    # what the person sees: items (two per picnic unit) or values, out of all that can be shown
    assert {counter.key: (counter.value, counter.limit) for counter in panel.counters} == {
        "turns": (1, state.limit), "seen": (game.seen(state.shown), game.seen(state.total)), "guesses": (0, None)}
    assert next(counter.label for counter in panel.counters if counter.key == "seen") == \
        {"math": "Values seen", "functions_picnic": "Words seen"}.get(game_id, "Items seen")
    assert game.statement(rule) not in _texts(panel)
    seen = game.examples(rule, 0, state.shown)
    examples = [listed for listed in panel.lists if listed.key != "guesses"]
    assert examples and all(len(listed.items) == state.shown for listed in examples)  # nothing not yet shown
    assert all(item in seen for listed in examples for item in listed.items)
    assert panel_of(game, state, None) == panel.model_copy(update={"forms": ()})  # watchers get no form

    # ask for as many more as the number field allows: taken, and the field's bound is what the rules allow
    move = _form(panel, "move")
    more = next(action for action in move.actions if action.key == "more")
    left = state.total - state.shown
    assert more.fields[0].maximum == left and more.fields[0].minimum == 1
    state = _send(game, state, more, {"n": "2"})
    panel = game.panel(state, PLAYER)
    assert {counter.key: (counter.value, counter.limit) for counter in panel.counters}["turns"] == (2, state.limit)
    assert {counter.key: counter.value for counter in panel.counters}["seen"] == game.seen(state.shown)

    # a guess through the box, then the check: one answer field per held-out item, of the kind the grammar says
    guess = next(action for action in _form(panel, "move").actions if action.key == "guess")
    state = _send(game, state, guess, {"rule": "something I made up"})
    check = _form(game.panel(state, PLAYER), "apply")
    answers = next(action for action in check.actions if action.key == "apply")
    items = game.held_out(rule)
    assert [field.label for field in answers.fields] == [item.prompt for item in items]
    assert all(field.default is None for field in answers.fields)  # the right answers stay hidden
    kind, choices = answer_field(game.apply_answer)
    assert {field.kind for field in answers.fields} == {kind}
    values = {field.key: item.answer for field, item in zip(answers.fields, items, strict=True)}
    if choices:
        assert all(item.answer in choices for item in items)
    state = _send(game, state, answers, values)
    assert game.accuracy(state) == 1.0
    assert game.panel(state, PLAYER).forms == ()  # the judge's turn: nothing for the person to fill in
    state = game.apply(state, Action(role="judge", kind="verdict", text="no", data={"reason": "not it"}))
    listed = next(item for item in game.panel(state, PLAYER).lists if item.key == "guesses")
    assert listed.items == ("Turn 3: \u201csomething I made up\u201d \u2014 not accepted",)

    # a second guess in the rule's own words: the rules accept it, said once the check is done (here skipped)
    guess = next(action for action in _form(game.panel(state, PLAYER), "move").actions if action.key == "guess")
    state = _send(game, state, guess, {"rule": game.statement(rule)})
    listed = next(item for item in game.panel(state, PLAYER).lists if item.key == "guesses")
    assert listed.items[-1].endswith("apply it to the 10 items")  # not yet said: the check comes first
    skip = next(action for action in _form(game.panel(state, PLAYER), "apply").actions if action.key == "skip")
    state = _send(game, state, skip, {})
    assert state.guesses[-1].applied == () and state.guesses[-1].decided == "rules"
    assert game.outcome(state) is not None and game.panel(state, PLAYER).forms == ()  # no judge was due
    listed = next(item for item in game.panel(state, PLAYER).lists if item.key == "guesses")
    assert listed.items[-1] == f"Turn 4: \u201c{game.statement(rule)}\u201d \u2014 accepted by the rules"


@pytest.mark.parametrize("game_id", [game_id for game_id in GAMES if game_id != "dynamic_picnic"])
def test_once_every_example_is_shown_the_form_only_guesses(game_id: str) -> None:
    # dynamic_picnic generates up to 30 units; its scripted game master knows 14 (see test_dynamic_picnic_bank)
    game = _game(game_id)
    state = game.initial_state(game.new_spec(1, 5, match_rng(5)))
    more = next(action for action in _form(game.panel(state, PLAYER), "move").actions if action.key == "more")
    state = _send(game, state, more, {"n": str(state.total - state.shown)})
    move = _form(game.panel(state, PLAYER), "move")
    assert [action.key for action in move.actions] == ["guess"] and move.note


def test_answer_fields_follow_the_grammar() -> None:
    assert answer_field('"yes" | "no"') == ("choice", ("yes", "no"))
    assert answer_field('"-"? [0-9]{1,14}') == ("integer", None)
    assert answer_field('[0-9]+') == ("integer", None)
    assert answer_field('[^\\n]{1,40}') == ("text", None)


def test_text_lists_title_by_their_header_lines() -> None:
    lists = text_lists("Values of the sequence:\nposition 0: 3\nposition 1: 5", "Values")
    assert [(item.title, item.items) for item in lists] == [("Values of the sequence", ("position 0: 3",
                                                                                          "position 1: 5"))]
    assert [(item.title, item.items) for item in text_lists("a\nb", "Examples")] == [("Examples", ("a", "b"))]


@pytest.mark.parametrize("bad", [
    {"key": "x", "label": "X", "template": "MORE: {n}"},
    {"key": "x", "label": "X", "template": "MORE", "fields": ({"key": "n", "label": "N", "kind": "integer"},)},
])
def test_a_form_action_fills_exactly_its_fields(bad: dict[str, Any]) -> None:
    with pytest.raises(ValidationError, match="slots"):
        FormAction.model_validate(bad)


def test_a_choice_field_needs_choices() -> None:
    with pytest.raises(ValidationError, match="choices"):
        FormField(key="a", label="A", kind="choice")
    with pytest.raises(ValidationError, match="minimum"):
        FormField(key="a", label="A", kind="integer", minimum=3, maximum=1)
