"""Undercover's judge calibration set: hand-written sentences, asked exactly as in a match, read as the rules read
the judge's answers, and measured with ``playeval analyze judge``."""

from __future__ import annotations

import json
import random
from collections import Counter
from importlib.resources import files

import pytest
from typer.testing import CliRunner

from playeval.analysis.qa import MIN_RELEVANCE
from playeval.cli.main import app
from playeval.core import Ask, FormatError, JudgeCase, JudgedGame
from playeval.core.normalize import normalize_name
from playeval.core.registry import default_registry
from playeval.games.undercover import Undercover, UndercoverState
from playeval.games.undercover.calibration import MIN_RELEVANCE as CALIBRATION_RELEVANCE
from playeval.games.undercover.calibration import SENTENCES, load_entries, pair_cases, written_cases
from playeval.games.undercover.pairs import load_pairs
from playeval.games.undercover.state import SCALES, Mark, Statement

game = Undercover()
PAIRS = {pair.id: pair for pair in load_pairs()}


def _says(text: str, word: str) -> bool:
    """The rules' test of whether a sentence says a word (``Undercover.apply``)."""
    return f" {normalize_name(word)} " in f" {normalize_name(text)} "


def test_the_data_is_valid_large_and_varied() -> None:
    raw = json.loads(files("playeval.games.undercover").joinpath("data/judge_cases.json").read_text("utf-8"))
    entries = raw["pairs"]
    assert entries == list(load_entries())
    assert len(entries) >= 25 and len({entry["pair"] for entry in entries}) == len(entries)
    pairs = [PAIRS[entry["pair"]] for entry in entries]
    assert len({pair.category for pair in pairs}) >= 8
    assert Counter(pair.pos for pair in pairs)["verb"] >= 2 and Counter(pair.pos for pair in pairs)["adjective"] >= 2
    for entry, pair in zip(entries, pairs, strict=True):
        assert (entry["word"], entry["other"]) == (pair.civilian, pair.undercover)
        sentences = [entry[name] for name in (*SENTENCES, "earlier")]
        assert len(set(sentences)) == len(sentences), entry["pair"]
        for text in sentences:
            assert isinstance(text, str) and 10 <= len(text) <= 150, text
            assert not _says(text, pair.civilian) and not _says(text, pair.undercover), (entry["pair"], text)


def test_the_cases_cover_every_kind_balanced() -> None:
    assert isinstance(game, JudgedGame) and isinstance(default_registry().get("undercover"), JudgedGame)
    assert tuple(game.judge_cases()) == pair_cases() + written_cases()
    cases = pair_cases()
    assert len(cases) >= 100 and len({case.id for case in cases}) == len(cases)
    assert sum(case.correct for case in cases) * 2 == len(cases)
    kinds = Counter(case.kind for case in cases)
    assert set(kinds) == {"true/novelty", "true/relevance", "true/reasonableness", "other-word/reasonableness",
                          "false/reasonableness", "vague/relevance", "vague/reasonableness", "repeat/novelty"}
    assert len(set(kinds.values())) == 1
    for case in cases:
        assert case.correct == (case.kind.startswith("true/") or case.kind == "vague/reasonableness")


def _match_ask(case: JudgeCase) -> Ask:
    """The judge's ask in a match state built by hand: the earlier sentences said in round 1 by civilians and judged
    fair, the case's sentence said by the next civilian and its scales before the case's answered."""
    pair = PAIRS[case.context["pair"]]
    earlier = case.context["earlier"]
    seats = tuple(f"player{n}" for n in range(1, max(4, len(earlier) + 2) + 1))
    spec = game.new_spec(1, 7, random.Random(7), options={"players": len(seats), "undercover": 1})
    sides = {seat: "undercover" if seat == seats[-1] else "civilian" for seat in seats}
    words = {seat: pair.civilian if side == "civilian" else pair.undercover for seat, side in sides.items()}
    spec = spec.model_copy(update={"setup": {**spec.setup, "words": words, "sides": sides}, "seats": seats})
    fair = (Mark("judge", "novelty", 1.0, "no"), Mark("judge", "relevance", 1.0, "yes"),
            Mark("judge", "reasonableness", 1.0, "yes"))
    scale = SCALES.index(case.context["scale"])
    said = tuple(Statement(1, seats[n], text, fair) for n, text in enumerate(earlier))
    state = UndercoverState(spec=spec, statements=(*said, Statement(1, seats[len(said)], case.answer, fair[:scale])))
    return game._judge_ask(state, state.statements[-1])


def test_the_asks_are_the_matchs_wording() -> None:
    cases = game.judge_cases()
    for case in cases:
        ask = game.judge_case_ask(case)
        assert ask == _match_ask(case), case.id
        assert ask.role == "judge" and ask.kind == case.context["scale"]
        said = ask.messages[-1].content
        assert case.answer in said and all(earlier in said for earlier in case.context["earlier"])
        assert f"The player's word: {PAIRS[case.context['pair']].civilian}\n" in said, case.id
    ask = game.judge_case_ask(cases[0])
    assert f"The player's word: {PAIRS[cases[0].context['pair']].civilian}\n" in ask.messages[-1].content
    assert "Round 1, player1: " in ask.messages[-1].content


@pytest.mark.parametrize(("scale", "passing"), [("novelty", {"partly", "no"}), ("relevance", {"yes"}),
                                                ("reasonableness", {"yes", "partly"})])
def test_verdicts_read_each_scale_as_the_rules_do(scale: str, passing: set[str]) -> None:
    case = next(case for case in game.judge_cases() if case.context["scale"] == scale)
    ask = game.judge_case_ask(case)
    for answer in ("yes", "partly", "no"):
        assert game.judge_case_verdict(ask, answer) is (answer in passing)
    assert game.judge_case_verdict(ask, " Yes.") is ("yes" in passing)
    for garbage in ("maybe", "", "yes, it is", "The answer is no"):
        with pytest.raises(FormatError):
            game.judge_case_verdict(ask, garbage)


def test_relevance_passes_as_the_qa_filter() -> None:
    assert CALIBRATION_RELEVANCE == MIN_RELEVANCE


def test_analyze_judge_measures_the_mock_player() -> None:
    """The mock player's judge says novelty "no" and "yes" to everything else: every sentence that should pass is
    right, every other case wrong."""
    done = CliRunner().invoke(app, ["analyze", "judge", "--model", "mock/player", "--game", "undercover",
                                    "--no-cache"], env={"COLUMNS": "300"})
    assert done.exit_code == 0, done.output
    text = " ".join(done.output.split())
    cases = game.judge_cases()
    share = sum(c.correct for c in cases) / len(cases)
    assert f"undercover all {len(cases)} {share:.1%} [" in text and "mock/player: no calibration fitted" in text
    for question in ("novelty", "reasonableness", "relevance"):
        asked = [c for c in cases if c.context["scale"] == question]
        assert f"{question} {len(asked)} {sum(c.correct for c in asked) / len(asked):.1%} [" in text
    measured = CliRunner().invoke(app, ["analyze", "judge", "--model", "mock/player", "--game", "undercover",
                                        "--no-cache", "--json"])
    assert measured.exit_code == 0, measured.stderr
    overall = json.loads(measured.stdout)["overall"]
    assert overall["cases"] == len(cases) and overall["accuracy"] == pytest.approx(share)
    assert overall["unreadable"] == 0
    assert overall["false_accept"] == 1.0 and overall["false_reject"] == 0.0 and overall["auc"] is None
    for kind in ("true/novelty", "repeat/novelty", "vague/relevance", "vague/reasonableness",
                 "other-word/reasonableness", "merged-repeat/novelty", "metaphor/relevance"):
        of_kind = [case for case in cases if case.kind == kind]
        assert f"{kind} {sum(c.correct for c in of_kind)}/{len(of_kind)}" in text
