"""``playeval run GAME --option rules=generated --role game_master=mock/player``, end to end in a subprocess: the
mock game master writes the rule, the scripted code executor accepts it in the sandbox, the match is played and
stored, and the stored log replays to the same rule."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from playeval.core import fold
from playeval.core.events import ActionApplied
from playeval.core.registry import default_registry
from playeval.guess_rule.writing import CODE_EXECUTOR, GAME_MASTER
from playeval.store import Store


@pytest.mark.parametrize(("game_id", "level", "statement"), [
    ("functions_picnic", 3, "words that contain the letter k or the letter w"),
    ("math", 2, "multiply the previous value by -2"),
])
def test_a_run_with_generated_rules(tmp_path: Path, game_id: str, level: int, statement: str) -> None:
    db = f"sqlite:///{tmp_path / 'cli.db'}"
    env = {**os.environ, "PLAYEVAL_DB": db, "PLAYEVAL_CACHE_DIR": str(tmp_path / "cache"), "COLUMNS": "200"}
    result = subprocess.run(
        [sys.executable, "-m", "playeval.cli.main", "run", game_id, "--option", "rules=generated", "--option",
         "max_turns=3", "--role", "game_master=mock/player", "--role", "judge=scripted", "--models", "mock/player",
         "--level", str(level), "--n", "1"], capture_output=True, text=True, env=env, timeout=180, check=False)
    assert result.returncode == 0, result.stderr
    game = default_registry().get(game_id)
    with Store.open(db) as store:
        run_id = store.list_runs()[0].id
        (match,) = store.run_matches(run_id)
        events = store.events(match.id)
    assert match.outcome is not None and match.outcome.status != "aborted"  # the rule was written: play went on
    assert {role.role: role.model or role.player_kind for role in match.roles} == {
        "judge": "scripted", GAME_MASTER: "mock/player", CODE_EXECUTOR: "scripted"}
    actions = [event.action for event in events if isinstance(event, ActionApplied)]
    assert [action.role for action in actions[:2]] == [GAME_MASTER, CODE_EXECUTOR]
    assert actions[1].text == "accepted"
    state = fold(game, match.spec, events)
    assert game.statement(state.rule) == statement and state.turns >= 1
