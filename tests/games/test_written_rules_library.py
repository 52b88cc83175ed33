"""The paper's library interface with rules="generated": the game master writes the rule when the game is created."""

from __future__ import annotations

from pathlib import Path

import pytest

from playeval.library import CodeFunctionsPicnic, GuessRuleError, MathGuessTheRuleGame


def test_a_math_game_whose_scripted_game_master_writes_the_rule(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'lib.db'}"
    game = MathGuessTheRuleGame(difficulty="L3", seed=4, judge="scripted", db=db, rules="generated",
                                game_master="scripted")
    uuid = game.create_game_instance()
    values = game.examples()["values"]
    assert [index for index, _ in values] == [0, 1]
    rule = game.get_game_summary(include_rule=True)["rule"]
    assert "odd" in rule and game.validate_guess(rule) is True
    loaded = MathGuessTheRuleGame.load_game(uuid, db=db)
    assert loaded.get_game_summary(include_rule=True)["status"] == "won"


def test_a_functions_game_whose_model_game_master_writes_the_rule(tmp_path: Path) -> None:
    game = CodeFunctionsPicnic(difficulty="L2", seed=4, judge="scripted", db=f"sqlite:///{tmp_path / 'lib.db'}",
                               rules="generated", game_master="mock/player")
    game.create_game_instance()
    shown = game.examples()
    assert all("k" in word or "w" in word for word in shown["positives"])
    assert not any("k" in word or "w" in word for word in shown["negatives"])


def test_a_game_master_that_writes_no_rule_is_an_error(tmp_path: Path) -> None:
    game = MathGuessTheRuleGame(difficulty="L1", seed=4, judge="scripted", db=f"sqlite:///{tmp_path / 'lib.db'}",
                                rules="generated", game_master="mock/echo")
    with pytest.raises(GuessRuleError, match=r"aborted.*game_master"):
        game.create_game_instance()
