"""The paper's library interface, used as a researcher's agent would: only the public API, a scripted judge."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from playeval.library import (
    CodeFunctionsPicnic,
    DynamicGoingOnAPicnic,
    GuessRuleError,
    MathGuessTheRuleGame,
    StaticGoingOnAPicnic,
)

SCRIPTED_ROLES: dict[type, dict[str, str]] = {DynamicGoingOnAPicnic: {"game_master": "scripted"}}


# Static Picnic's seed 7 draws a four-item category (two shown, two held out): too few for a second request.
SEEDS: dict[type, int] = {StaticGoingOnAPicnic: 1}


@pytest.mark.parametrize("cls", [StaticGoingOnAPicnic, DynamicGoingOnAPicnic, CodeFunctionsPicnic,
                                 MathGuessTheRuleGame])
def test_a_scripted_session_per_game(cls: type[MathGuessTheRuleGame], tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'lib.db'}"
    game = cls(difficulty="L1", num_init_examples=2, seed=SEEDS.get(cls, 7), judge="scripted", db=db, max_turns=10,
               **SCRIPTED_ROLES.get(cls, {}))
    uuid = game.create_game_instance()
    first = game.examples()
    assert first and game.get_game_summary()["turns_taken"] == 1
    more = game.get_more_examples(1)
    assert more != first and game.get_game_summary()["turns_taken"] == 2
    with pytest.raises(GuessRuleError, match="can be shown"):
        game.get_more_examples(999)
    assert game.get_game_summary()["turns_taken"] == 2  # a refused request counts nothing
    assert game.validate_guess("something vague") is False
    summary = game.get_game_summary(include_rule=True)
    assert summary["turns_taken"] == 3 and summary["status"] == "playing" and "rule" in summary
    assert "rule" not in game.get_game_summary()
    # another process goes on with the same game, by its uuid, and wins with the rule's own words
    script = (f"from playeval.guess_rule import {cls.__name__} as C\n"
              f"g = C.load_game({uuid!r}, db={db!r})\n"
              f"print(g.validate_guess({summary['rule']!r}, held_out_answers=None))\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0 and done.stdout.strip() == "True", done.stderr
    final = cls.load_game(uuid, db=db).get_game_summary()
    assert final["status"] == "won" and final["turns_taken"] == 4
    assert final["check_accuracy"] is None  # no answers were given: the check is recorded as skipped, not as wrong
    assert [move["kind"] for move in final["history"]] == ["more", "guess", "guess"]
    with pytest.raises(GuessRuleError, match="over"):
        cls.load_game(uuid, db=db).get_more_examples(1)


def test_errors_are_exceptions_with_a_message(tmp_path: Path) -> None:
    with pytest.raises(GuessRuleError, match="difficulties L1, L2, L3, not 'L4'"):
        StaticGoingOnAPicnic(difficulty="L4")
    level_three = StaticGoingOnAPicnic(difficulty="L3", seed=1, judge="scripted", db=f"sqlite:///{tmp_path / 'l3.db'}")
    level_three.create_game_instance()
    assert level_three.get_game_summary()["difficulty"] == "L3"
    with pytest.raises(GuessRuleError, match="num_init_examples"):
        MathGuessTheRuleGame(num_init_examples=0)
    with pytest.raises(GuessRuleError, match="no game yet"):
        MathGuessTheRuleGame().get_more_examples(1)
    with pytest.raises(GuessRuleError, match="no game with uuid"):
        MathGuessTheRuleGame.load_game("0" * 16, db=f"sqlite:///{tmp_path / 'none.db'}")


@pytest.mark.parametrize("cls", [StaticGoingOnAPicnic, MathGuessTheRuleGame])
def test_each_guess_gets_fresh_items_and_the_last_guess_is_said(cls: type[MathGuessTheRuleGame],
                                                                tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'lib.db'}"
    # Static Picnic's seed 5 draws a rule of 37 units (under the 40-unit cap) and no item to spare: its second check
    # takes five unshown units
    game = cls(difficulty="L1", num_init_examples=2, seed=5 if cls is StaticGoingOnAPicnic else 3,
               judge="scripted", db=db, max_turns=20)
    game.create_game_instance()
    summary = game.get_game_summary()
    per_unit = 2 if cls is StaticGoingOnAPicnic else 1
    assert summary["seen"] == {"label": "Items seen" if per_unit == 2 else "Values seen", "count": 2 * per_unit,
                               "of": (summary["examples_left"] + 2) * per_unit}
    assert summary["last_guess"] is False and summary["last_guess_note"] is None and game.last_guess() is None
    with pytest.raises(GuessRuleError, match="call held_out_items"):  # answers to items never asked for
        game.validate_guess("something vague", held_out_answers=["0"] * 10)
    first = game.held_out_items()
    assert game.validate_guess("something vague", held_out_answers=["0"] * len(first)) is False
    with pytest.raises(GuessRuleError, match="changed since held_out_items"):  # the first check's items, stale
        game.validate_guess("stale answers", held_out_answers=["0"] * len(first))
    second = game.held_out_items()
    assert len(second) == len(first) and not set(second) & set(first)  # fresh items for the next guess
    assert game.validate_guess("something else vague", held_out_answers=None) is False
    assert game.get_game_summary()["examples_left"] == summary["examples_left"] - (5 if per_unit == 2 else 0)
    history = game.get_game_summary()["history"]
    assert [move["check_items"] for move in history] == [first, second]
    left = game.get_game_summary()["examples_left"]
    game.get_more_examples(left)
    summary = game.get_game_summary()
    assert summary["last_guess"] is True and summary["examples_left"] == 0
    assert summary["last_guess_note"] == game.last_guess() and "last guess" in str(game.last_guess())
    assert game.validate_guess("a third vague guess") is False
    final = game.get_game_summary()
    assert final["status"] == "lost" and final["last_guess"] is False  # the game is over: nothing is due


def test_dynamic_picnic_plays_the_shipped_bank_by_default_and_falls_back_to_it(tmp_path: Path) -> None:
    """With no game option the library's Dynamic Picnic plays a shipped bank rule, its game master never asked (it
    is bound here to a model whose every reply is unreadable); with rules='generated' that game master fails, and the
    game plays a bank rule all the same, its summary saying why."""
    from playeval.core.events import ActionApplied, AskIssued
    from playeval.games.dynamic_picnic import shipped_bank
    from playeval.store import Store

    db = f"sqlite:///{tmp_path / 'lib.db'}"
    banked = DynamicGoingOnAPicnic(difficulty="L2", seed=3, judge="scripted", db=db, game_master="mock/garbage")
    uuid = banked.create_game_instance()
    rule = banked.get_game_summary(include_rule=True)["rule"]
    assert rule in {item.statement for item in shipped_bank().of_level(2)} and banked.examples()["positives"]
    with Store.open(db) as store:
        events = store.events(uuid)
    parties = {event.role for event in events if isinstance(event, AskIssued)} | \
        {event.action.party for event in events if isinstance(event, ActionApplied)}
    assert not parties & {"game_master", "validator"}

    generated = DynamicGoingOnAPicnic(difficulty="L2", seed=3, judge="scripted", db=db, game_master="mock/garbage",
                                      rules="generated", max_turns=2)
    generated.create_game_instance()
    assert generated.examples()["positives"]  # the player's turn, from the bank rule
    assert "reason" not in generated.get_game_summary()  # while playing, nothing of the game master's part
    assert generated.validate_guess("something vague") is False
    summary = generated.get_game_summary(include_rule=True)
    assert summary["status"] == "lost" and summary["rule"] in {item.statement for item in shipped_bank().of_level(2)}
    assert "fell back to the bank" in summary["reason"] and "game_master gave no usable reply" in summary["reason"]
