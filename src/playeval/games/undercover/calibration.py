"""Undercover judge's calibration set: sentences written and labelled by hand, one question on one scale per case,
asked exactly as in a match. See ``data/PROVENANCE.md`` for both parts.

The per-pair set (``data/judge_cases.json``): for each concept pair, sentences describing the civilian word: a true
and telling one, one true of the other word only, a plainly false one, a vague one true of almost anything, and a
paraphrase of an earlier sentence, each said right after the pair's one ``earlier`` sentence. It follows one
template, so the hand-written cases (``data/judge_cases.jsonl``, ids ``hw-``) do not: each has 0 to 4 earlier
sentences of its own, and sentences of every style (short, long, metaphors, a use, a place, a sound, a repeat with
a new detail added), on all three scales.

A case's verdict is whether the sentence passes the scale the way the rules and the QA benchmark use it: novelty
passes unless the judge calls it a repeat ("yes"), reasonableness unless it calls it untrue ("no"), and relevance
only on "yes" (the QA benchmark keeps statements with relevance >= 0.8).
"""
from __future__ import annotations

import json
import random
from functools import cache
from importlib.resources import files
from typing import Any

from playeval.core import Ask, JudgeCase, MatchSpec
from playeval.core.errors import MoveError
from playeval.core.judge_cases import packaged_cases
from playeval.games.undercover import prompts
from playeval.games.undercover.pairs import ConceptPair, load_pairs
from playeval.games.undercover.rules import NOVELTY_THRESHOLD, REASONABLENESS_THRESHOLD, SEATS, Undercover
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

MAX_EARLIER = len(SEATS) - 2
"""The most earlier sentences a case may have: all are said in round 1, before the judged one, and the table keeps
a seat for the undercover agent."""
FAIR: dict[str, str] = {"novelty": "no", "relevance": "yes", "reasonableness": "yes"}
"""The answers given to the questions before the case's own: the earlier sentence is new, telling and true."""


@cache
def load_entries() -> tuple[dict[str, Any], ...]:
    """The pairs' hand-written sentences, in the file's order."""
    raw = json.loads(files("playeval.games.undercover").joinpath("data/judge_cases.json").read_text("utf-8"))
    return tuple(raw["pairs"])


def judge_cases() -> tuple[JudgeCase, ...]:
    """The per-pair cases, then the hand-written ones (:func:`written_cases`)."""
    return pair_cases() + written_cases()


def pair_cases() -> tuple[JudgeCase, ...]:
    """Eight questions on five sentences of each pair (``QUESTIONS``); a case's kind is sentence/scale."""
    return tuple(
        JudgeCase(id=f"{entry['pair']}/{sentence}/{scale}",
                  context={"pair": entry["pair"], "scale": scale, "earlier": [entry["earlier"]]},
                  answer=entry[sentence], correct=correct, kind=f"{sentence.replace('_', '-')}/{scale}")
        for entry in load_entries() for sentence, scale, correct in QUESTIONS)


def table_sides(earlier: int) -> dict[str, str]:
    """The calibration table for a case with ``earlier`` sentences before the judged one, by seat: every sentence
    is said in round 1, the earlier ones by ``player1`` ... and the judged one by the next seat, all civilians
    holding the pair's civilian word; the one undercover agent sits last and says nothing. At least four seats, as
    in any match (with one earlier sentence: ``player1`` says it, ``player2`` the judged one)."""
    if not 0 <= earlier <= MAX_EARLIER:
        raise ValueError(f"a case has 0 to {MAX_EARLIER} earlier sentences, not {earlier}")
    table = SEATS[:max(4, earlier + 2)]
    return {seat: UNDERCOVER if seat == table[-1] else CIVILIAN for seat in table}


def written_cases() -> tuple[JudgeCase, ...]:
    """The hand-written cases (``data/judge_cases.jsonl``), each with its own earlier sentences; a case's kind is
    what makes it pass or fail, then the scale ("repeat/novelty", "other-word/reasonableness")."""
    return packaged_cases("playeval.games.undercover", "data/judge_cases.jsonl", "undercover")


def _spec(game: Undercover, pair: ConceptPair, earlier: int) -> MatchSpec:
    """A match spec of ``pair`` on the calibration table (:func:`table_sides`), with a match's params."""
    sides = table_sides(earlier)
    spec = game.new_spec(1, 0, random.Random(0), options={"players": len(sides), "undercover": 1})
    words = {seat: pair.undercover if side == UNDERCOVER else pair.civilian for seat, side in sides.items()}
    setup = {"pair": {"id": pair.id, "category": pair.category, "civilian": pair.civilian,
                      "undercover": pair.undercover}, "words": words, "sides": sides}
    return spec.model_copy(update={"setup": setup, "seats": tuple(sides),
                                   "params": {**spec.params, "category": pair.category}})


def _say(game: Undercover, state: UndercoverState, text: str, case: JudgeCase) -> UndercoverState:
    """The next speaker says ``text``, read and applied as in a match; a sentence the rules refuse (two sentences,
    the word itself, an exact repeat) never reaches the judge, so the case is an error (``ValueError``)."""
    [ask] = game.next_asks(state)
    try:
        return game.apply(state, game.parse(state, ask, text))
    except MoveError as err:
        raise ValueError(f"case {case.id}: the rules refuse the sentence {text!r}: {err.reason}") from None


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
    pairs = {pair.id: pair for pair in load_pairs()}
    pair, scale, said = case.context["pair"], case.context["scale"], case.context["earlier"]
    if pair not in pairs:
        raise ValueError(f"case {case.id}: no concept pair {pair!r} in pairs.json")
    if scale not in PASS_AT:
        raise ValueError(f"case {case.id}: the scale is one of {', '.join(PASS_AT)}, not {scale!r}")
    if not isinstance(said, list) or not all(isinstance(text, str) for text in said):
        raise ValueError(f"case {case.id}: 'earlier' is a list of sentences")
    state = game.initial_state(_spec(game, pairs[pair], len(said)))
    for earlier in said:
        state = _answer_fairly(game, _say(game, state, earlier, case))
    state = _answer_fairly(game, _say(game, state, case.answer, case), until=scale)
    [ask] = game.next_asks(state)
    if ask.kind != scale:
        raise ValueError(f"case {case.id}: no question on {scale}")
    return ask


def passes(scale: str, text: str) -> bool:
    """Whether the judge's reply lets the sentence pass ``scale``; ``FormatError`` when it is no answer."""
    return prompts.VALUES[scale][prompts.read_answer(text)] >= PASS_AT[scale]
