"""The library's summary while a game is played carries the judge's verdict only: its reason, written with the rule
in view, names the rule (a local model's judge wrote "does not match the rule 'items that are prepared dishes'"),
so it comes with the rule (``include_rule=True``) or once the game is over (``core.held``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from held_kit import MARK, naming_judges

from playeval.guess_rule import (
    CodeFunctionsPicnic,
    DynamicGoingOnAPicnic,
    MathGuessTheRuleGame,
    StaticGoingOnAPicnic,
)

ROLES: dict[type, dict[str, str]] = {DynamicGoingOnAPicnic: {"game_master": "scripted"}}


@pytest.fixture
def _naming_judge(monkeypatch: pytest.MonkeyPatch) -> None:
    naming_judges(monkeypatch)


@pytest.mark.usefixtures("_naming_judge")
@pytest.mark.parametrize("cls", [StaticGoingOnAPicnic, DynamicGoingOnAPicnic, CodeFunctionsPicnic,
                                 MathGuessTheRuleGame])
def test_the_summary_holds_the_judge_s_reason_back_until_the_end(cls: type[MathGuessTheRuleGame],
                                                                  tmp_path: Path) -> None:
    game = cls(difficulty="L1", num_init_examples=2, seed=1, judge="scripted", db=f"sqlite:///{tmp_path / 'l.db'}",
               max_turns=10, **ROLES.get(cls, {}))
    game.create_game_instance()
    assert game.validate_guess("something vague") is False
    live = game.get_game_summary()
    asked = game.get_game_summary(include_rule=True)
    rule = asked["rule"]
    assert MARK not in json.dumps(live) and rule not in json.dumps(live)
    assert [(move["verdict"], move["reason"]) for move in live["history"]] == [("no", None)]
    assert MARK in asked["history"][0]["reason"] and rule in asked["history"][0]["reason"]
    assert game.validate_guess(rule) is True
    final = game.get_game_summary()
    assert final["status"] == "won"
    assert [move["verdict"] for move in final["history"]] == ["no", "yes"]
    # the rule's own words are accepted by the rules: no judge was asked, so the guess has no reason to hold
    assert [(move["decided"], move["said"]) for move in final["history"]] == [("judge", "not accepted"),
                                                                              ("rules", "accepted by the rules")]
    assert MARK in final["history"][0]["reason"] and final["history"][1]["reason"] is None
