"""The outside judge cases (examples/judge_cases/outside.jsonl) stay a set the judge measures can run on: they
parse, name registered games, give every game enough cases of both labels, and their contexts hold what the
games' judges read. They were written apart from the built-in calibration sets, to check that a threshold fitted on
those still holds on a set someone else wrote."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path

import pytest

from playeval.core import JudgedGame
from playeval.core.judge_cases import LabelledCase, missing_keys, read_cases
from playeval.core.registry import default_registry
from playeval.games.functions_picnic.words import load_words
from playeval.games.static_picnic.data import load_items
from playeval.games.undercover.pairs import load_pairs
from playeval.games.undercover.prompts import QUESTIONS

CASES = Path(__file__).resolve().parents[2] / "examples" / "judge_cases" / "outside.jsonl"

GUESS_GAMES = ("static_picnic", "functions_picnic", "math", "dynamic_picnic")
VALIDATOR = "dynamic_picnic validator"
MINIMUM = {"static_picnic": 20, "functions_picnic": 20, "math": 20, "dynamic_picnic": 20, VALIDATOR: 12,
           "undercover": 20, "akinator": 16}
"""Cases each group must have at least (Dynamic Picnic's validator cases are a group of their own)."""
LISTING = {"static_picnic": ("May come: ", "May not come: "), "dynamic_picnic": ("May come: ", "May not come: "),
           "functions_picnic": ("Pass: ", "Fail: ")}
"""How each listed game's ``seen`` reads: its two lines' labels."""


def _group(case: LabelledCase) -> str:
    return VALIDATOR if case.case.context.get("scale") == "check" else case.game


@pytest.fixture(scope="module")
def cases() -> list[LabelledCase]:
    return read_cases(CASES)


@pytest.fixture(scope="module")
def groups(cases: list[LabelledCase]) -> dict[str, list[LabelledCase]]:
    found: dict[str, list[LabelledCase]] = defaultdict(list)
    for case in cases:
        found[_group(case)].append(case)
    return found


def test_every_case_names_a_registered_game_and_ids_are_unique(cases: list[LabelledCase]) -> None:
    known = set(default_registry().ids())
    assert {case.game for case in cases} <= known
    repeated = [case_id for case_id, count in Counter(case.case.id for case in cases).items() if count > 1]
    assert repeated == []


@pytest.mark.parametrize("group", sorted(MINIMUM))
def test_each_game_has_enough_cases_of_both_labels(groups: dict[str, list[LabelledCase]], group: str) -> None:
    found = groups[group]
    assert len(found) >= MINIMUM[group]
    labels = Counter(case.case.correct for case in found)
    assert labels[True] > 0 and labels[False] > 0
    assert min(labels.values()) >= len(found) // 3, f"{group}: the labels are far from balanced: {dict(labels)}"


@pytest.mark.parametrize("game_id", GUESS_GAMES)
def test_guess_contexts_are_what_the_game_gives_its_judge(groups: dict[str, list[LabelledCase]],
                                                          game_id: str) -> None:
    game = default_registry().get(game_id)
    assert isinstance(game, JudgedGame)
    for labelled in groups[game_id]:
        case = labelled.case
        assert set(case.context) == {"statement", "seen"}, case.id
        assert missing_keys(case, game.judge_case_keys) == [], case.id
        seen = str(case.context["seen"])
        if game_id == "math":
            assert seen.startswith("Values of the sequence:\nposition 0: "), case.id
        else:
            lines = seen.split("\n")
            assert len(lines) == 2 and all(line.startswith(label) for line, label in zip(lines, LISTING[game_id],
                                                                                           strict=True)), case.id
        text = "\n".join(message.content for message in game.judge_case_ask(case).messages)
        assert str(case.context["statement"]) in text and case.answer in text, case.id


@pytest.mark.parametrize(("game_id", "vocabulary"), [("static_picnic", lambda: set(load_items())),
                                                      ("functions_picnic", lambda: set(load_words().words))])
def test_listed_items_come_from_the_games_own_data(groups: dict[str, list[LabelledCase]], game_id: str,
                                                   vocabulary: Callable[[], set[str]]) -> None:
    known = vocabulary()
    for labelled in groups[game_id]:
        for line in str(labelled.case.context["seen"]).split("\n"):
            items = line.split(": ", 1)[1].split(", ")
            assert set(items) <= known, f"{labelled.case.id}: {set(items) - known}"


def test_validator_cases_judge_the_item_named(groups: dict[str, list[LabelledCase]]) -> None:
    for labelled in groups[VALIDATOR]:
        case = labelled.case
        assert set(case.context) == {"scale", "statement", "item"}, case.id
        assert case.answer == case.context["item"], case.id
        assert str(case.context["statement"]).startswith("Items "), case.id


def test_undercover_contexts_name_real_pairs_and_scales(groups: dict[str, list[LabelledCase]]) -> None:
    game = default_registry().get("undercover")
    assert isinstance(game, JudgedGame)
    pairs = {pair.id: pair for pair in load_pairs()}
    scales: Counter[tuple[object, bool]] = Counter()
    for labelled in groups["undercover"]:
        case = labelled.case
        assert missing_keys(case, game.judge_case_keys) == [], case.id
        assert case.context["pair"] in pairs, case.id
        assert case.context["scale"] in QUESTIONS, case.id
        earlier = case.context["earlier"]
        assert isinstance(earlier, list) and all(isinstance(said, str) for said in earlier), case.id
        scales[(case.context["scale"], case.correct)] += 1
        ask = game.judge_case_ask(case)
        assert case.answer in "\n".join(message.content for message in ask.messages), case.id
    assert all(scales[(scale, label)] > 0 for scale in QUESTIONS for label in (True, False)), scales


def test_akinator_cases_name_a_secret_and_a_different_guess(groups: dict[str, list[LabelledCase]]) -> None:
    for labelled in groups["akinator"]:
        case = labelled.case
        assert set(case.context) == {"secret"}, case.id
        secret = case.context["secret"]
        assert isinstance(secret, str) and secret.strip(), case.id
        assert case.answer.strip().lower() != secret.strip().lower(), f"{case.id}: the guess is the secret itself"
