"""A rule guess copied from the instructions' template is no guess (an outside review saw the local model reply
``GUESS: <the rule in words, as precisely as you can>``): the move grammar cannot produce it and the parser refuses
it with a reason, while a real guess still passes both."""

from __future__ import annotations

import random
import re

import pytest

from playeval.core.errors import FormatError
from playeval.games.math import MathGame
from playeval.guess_rule.base import GUESS_GRAMMAR, move_grammar
from playeval.models.gbnf_regex import grammar_regex

game = MathGame()


@pytest.mark.parametrize("reply", ["GUESS: <the rule in words, as precisely as you can>", "GUESS: <rule>",
                                   "GUESS: [the rule]", "GUESS: the rule", "GUESS: Rule in words"])
def test_a_placeholder_guess_is_refused(reply: str) -> None:
    state = game.initial_state(game.new_spec(1, 0, random.Random(0)))
    [ask] = game.next_asks(state)
    with pytest.raises(FormatError, match="placeholder"):
        game.parse(state, ask, reply)


def test_the_grammars_cannot_open_a_guess_with_the_templates_bracket() -> None:
    for grammar in (GUESS_GRAMMAR, move_grammar(3)):
        allowed = re.compile(grammar_regex(grammar))
        assert not allowed.fullmatch("GUESS: <the rule in words, as precisely as you can>")
        assert not allowed.fullmatch("GUESS: [rule]")
        assert allowed.fullmatch("GUESS: divide each value by 3")
    state = game.initial_state(game.new_spec(1, 0, random.Random(0)))
    [ask] = game.next_asks(state)
    assert game.parse(state, ask, "GUESS: the rule is divide by 3").text == "the rule is divide by 3"
