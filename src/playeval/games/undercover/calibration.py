"""Undercover judge's calibration set: sentences written and labelled by hand (``data/judge_cases.json``, see
``data/PROVENANCE.md``), one question on one scale per case, asked exactly as in a match.

For each concept pair the sentences describe the civilian word: a true and telling one, one true of the other word
only, a plainly false one, a vague one true of almost anything, and a paraphrase of an earlier sentence. Each is
said by ``player2`` right after ``player1`` said the pair's ``earlier`` sentence, so the judge always sees one earlier
sentence. A case's verdict is whether the sentence passes the scale the way the rules and the QA benchmark use it:
novelty passes unless the judge calls it a repeat ("yes"), reasonableness unless it calls it untrue ("no"), and
relevance only on "yes" (the QA benchmark keeps statements with relevance >= 0.8).
"""

from __future__ import annotations

import json
import random
from functools import cache
from importlib.resources import files
from typing import Any

from playeval.core import Ask, JudgeCase, MatchSpec
from playeval.games.undercover import prompts
from playeval.games.undercover.pairs import ConceptPair, load_pairs
from playeval.games.undercover.rules import NOVELTY_THRESHOLD, REASONABLENESS_THRESHOLD, Undercover
from playeval.games.undercover.state import CIVILIAN, UNDERCOVER, UndercoverState

MIN_RELEVANCE = 0.8
"""Relevance a sentence needs to pass: the QA benchmark's filter (``playeval.analysis.qa.MIN_RELEVANCE``)."""
PASS_AT: dict[str, float] = {"novelty": NOVELTY_THRESHOLD, "relevance": MIN_RELEVANCE,
                             "reasonableness": REASONABLENESS_THRESHOLD}
"""A scale's answer passes when its value (``prompts.VALUES``) is at least this."""

SENTENCES: tuple[str, ...] = ("true", "other_word", "false", "vague", "repeat")
"""The judged sentences of a pair, by the data's field names."""
QUESTIONS: tuple[tuple[str, str, bool], ...] = (
    ("true", "novelty", True), ("true", "relevance", True), ("true", "reasonableness", True),
    ("other_word", "reasonableness", False), ("false", "reasonableness", False),
    ("vague", "relevance", False), ("vague", "reasonableness", True),
    ("repeat", "novelty", False),
)
"""The cases made of each pair: (sentence, scale, whether it should pass)."""

TABLE: tuple[str, ...] = ("player1", "player2", "player3", "player4")
SIDES: dict[str, str] = {"player1": CIVILIAN, "player2": CIVILIAN, "player3": UNDERCOVER, "player4": CIVILIAN}
"""The calibration table: ``player1`` says the earlier sentence, ``player2`` the judged one; both hold the civilian
word."""
FAIR: dict[str, str] = {"novelty": "no", "relevance": "yes", "reasonableness": "yes"}
"""The answers given to the questions before the case's own: the earlier sentence is new, telling and true."""


@cache
def load_entries() -> tuple[dict[str, Any], ...]:
    """The pairs' hand-written sentences, in the file's order."""
    raw = json.loads(files("playeval.games.undercover").joinpath("data/judge_cases.json").read_text("utf-8"))
    return tuple(raw["pairs"])


def judge_cases() -> tuple[JudgeCase, ...]:
    """Eight questions on five sentences of each pair (``QUESTIONS``); a case's kind is sentence/scale."""
    return tuple(
        JudgeCase(id=f"{entry['pair']}/{sentence}/{scale}",
                  context={"pair": entry["pair"], "scale": scale, "earlier": [entry["earlier"]]},
                  answer=entry[sentence], correct=correct, kind=f"{sentence.replace('_', '-')}/{scale}")
        for entry in load_entries() for sentence, scale, correct in QUESTIONS)


def _spec(game: Undercover, pair: ConceptPair) -> MatchSpec:
    """A match spec of ``pair`` on the calibration table, with a match's params."""
    spec = game.new_spec(1, 0, random.Random(0), options={"players": len(TABLE), "undercover": 1})
    words = {seat: pair.undercover if side == UNDERCOVER else pair.civilian for seat, side in SIDES.items()}
    setup = {"pair": {"id": pair.id, "category": pair.category, "civilian": pair.civilian,
                      "undercover": pair.undercover}, "words": words, "sides": dict(SIDES)}
    return spec.model_copy(update={"setup": setup, "seats": TABLE,
                                   "params": {**spec.params, "category": pair.category}})


def _say(game: Undercover, state: UndercoverState, text: str) -> UndercoverState:
    """The next speaker says ``text``, read and applied as in a match."""
    [ask] = game.next_asks(state)
    return game.apply(state, game.parse(state, ask, text))


def _answer_fairly(game: Undercover, state: UndercoverState, until: str | None = None) -> UndercoverState:
    """The open judge's questions answered as in ``FAIR``, up to the one on scale ``until``."""
    while state.phase() == "judge":
        [ask] = game.next_asks(state)
        if ask.kind == until:
            break
        state = game.apply(state, game.parse(state, ask, FAIR[ask.kind]))
    return state


def case_ask(game: Undercover, case: JudgeCase) -> Ask:
    """The judge's question on the case's scale, from a match state where the earlier sentences were said and
    judged fair and then the case's sentence was said (its scales before the case's answered fairly)."""
    pair = {pair.id: pair for pair in load_pairs()}[case.context["pair"]]
    state = game.initial_state(_spec(game, pair))
    for earlier in case.context["earlier"]:
        state = _answer_fairly(game, _say(game, state, earlier))
    state = _answer_fairly(game, _say(game, state, case.answer), until=case.context["scale"])
    [ask] = game.next_asks(state)
    if ask.kind != case.context["scale"]:
        raise ValueError(f"case {case.id}: no question on {case.context['scale']}")
    return ask


def passes(scale: str, text: str) -> bool:
    """Whether the judge's reply lets the sentence pass ``scale``; ``FormatError`` when it is no answer."""
    return prompts.VALUES[scale][prompts.read_answer(text)] >= PASS_AT[scale]
