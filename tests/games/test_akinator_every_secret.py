"""Every secret of every Akinator set can be guessed: a guess naming it, in the protocol's words, passes the
guesser's grammar and parser and is confirmed by the rules (an outside review reported "a dishwasher detergent or
cleaning agent" refused as two answers)."""

from __future__ import annotations

import random
import re

import pytest

from playeval.core.errors import MoveError
from playeval.core.match import Outcome
from playeval.games.akinator import Akinator
from playeval.games.akinator.data import load_secrets
from playeval.models.gbnf_regex import grammar_regex

game = Akinator()


@pytest.mark.parametrize("secret_set", Akinator.secret_sets)
def test_every_secret_can_be_guessed(secret_set: str) -> None:
    refused: list[str] = []
    for secret in load_secrets(secret_set):
        spec = game.new_spec(1, 0, random.Random(0), secret_set=secret_set)
        spec = spec.model_copy(update={"setup": {**spec.setup, "secret": secret}})
        state = game.initial_state(spec)
        [ask] = game.next_asks(state)
        reply = f"This is a guess -- are you thinking of {secret}?"
        assert ask.constraint is not None and ask.constraint.grammar is not None
        if not re.fullmatch(grammar_regex(ask.constraint.grammar), reply):
            refused.append(f"{secret}: the grammar refuses it")
            continue
        try:
            state = game.apply(state, game.parse(state, ask, reply))
        except MoveError as err:  # every refusal is collected and reported together
            refused.append(f"{secret}: {err}")
            continue
        outcome = game.outcome(state)
        if not isinstance(outcome, Outcome) or outcome.winners != ("guesser",):
            refused.append(f"{secret}: not confirmed ({outcome})")
    assert refused == []
