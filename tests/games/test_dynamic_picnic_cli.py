"""Dynamic Picnic through the CLI: a run whose rules the game master writes, the rule bank built from it and
listed, and a second run that replays the banked rule with the same items."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from playeval.cli import run_cmd
from playeval.cli.main import app
from playeval.core.events import ActionApplied
from playeval.models import ModelHub, ModelRequest
from playeval.store import Store


def _player(request: ModelRequest) -> str:
    """``mock/picnicker``: asks for one more example, then guesses; answers the check with yes and no in turn."""
    last = request.messages[-1].content
    if "apply the rule you just guessed" in last:
        count = sum(1 for line in last.splitlines() if line[:1].isdigit())
        return "\n".join(f"{n}. {'yes' if n % 2 else 'no'}" for n in range(1, count + 1))
    asked = any(message.role == "assistant" and message.content.startswith("MORE:") for message in request.messages)
    return "GUESS: things you could take on a trip" if asked else "MORE: 1"


@pytest.fixture
def runner(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    monkeypatch.setenv("PLAYEVAL_DB", f"sqlite:///{tmp_path / 'cli.db'}")
    monkeypatch.setenv("PLAYEVAL_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(run_cmd, "ModelHub", functools.partial(ModelHub, mock_scripts={"picnicker": _player}))
    return CliRunner()


def _matches(tmp_path: Path) -> list[tuple[str, list[object]]]:
    with Store.open(f"sqlite:///{tmp_path / 'cli.db'}") as store:
        return [(match.spec.setup["source"], store.events(match.id)) for match in store.list_matches()]


def test_run_bank_and_replay(runner: CliRunner, tmp_path: Path) -> None:
    roles = ["--role", "game_master=scripted", "--role", "validator=scripted", "--role", "judge=scripted"]
    env = {"COLUMNS": "200"}
    first = runner.invoke(app, ["run", "dynamic_picnic", "--models", "mock/picnicker", "--n", "2", "--level", "2",
                                "--option", "rules=generated", *roles], env=env)
    assert first.exit_code == 0, first.output
    assert "dynamic_picnic" in first.output and "mock/picnicker" in first.output
    generated = _matches(tmp_path)
    assert len(generated) == 2 and {source for source, _ in generated} == {"generated"}
    for _, events in generated:  # the player lost (a vague guess) after the game master's part was played
        kinds = [event.action.kind for event in events if isinstance(event, ActionApplied)]
        assert kinds[:4] == ["rule", "classify", "items", "check"] and "guess" in kinds

    bank = tmp_path / "bank.json"
    built = runner.invoke(app, ["rule-bank", "build", str(bank)], env=env)
    assert built.exit_code == 0, built.output
    rules = json.loads(bank.read_text("utf-8"))["rules"]
    assert 1 <= len(rules) <= 2 and all(rule["level"] == 2 for rule in rules)
    listed = runner.invoke(app, ["rule-bank", "list", str(bank), "--items"], env=env)
    assert listed.exit_code == 0 and rules[0]["id"] in listed.output and rules[0]["statement"] in listed.output
    again = runner.invoke(app, ["rule-bank", "build", str(bank)], env=env)
    assert again.exit_code == 0 and len(json.loads(bank.read_text("utf-8"))["rules"]) == len(rules)  # no doubles

    replay = runner.invoke(app, ["run", "dynamic_picnic", "--models", "mock/picnicker", "--n", "1", "--level", "2",
                                 "--seed", "9", "--option", "rules=bank", "--option", f"bank={bank}",
                                 "--option", f"bank_rule={rules[0]['id']}", *roles[-2:]], env=env)
    assert replay.exit_code == 0, replay.output
    [(_, events)] = [(source, events) for source, events in _matches(tmp_path) if source == "bank"]
    actions = [event.action for event in events if isinstance(event, ActionApplied)]
    assert {action.party for action in actions} == {"player", "judge"}  # the bank needs no game master
    assert len(_matches(tmp_path)) == 3

    missing = runner.invoke(app, ["run", "dynamic_picnic", "--models", "mock/picnicker", "--n", "1",
                                  "--option", f"bank={tmp_path / 'none.json'}", *roles], env=env)
    assert missing.exit_code != 0 and "cannot read the rule bank" in (missing.output + str(missing.exception))


def test_a_plain_run_plays_the_shipped_bank_and_asks_no_game_master(runner: CliRunner, tmp_path: Path) -> None:
    """``playeval run dynamic_picnic`` with no option: every match plays a rule of the shipped bank; the game
    master and the validator, bound to a model whose every reply is unreadable, are never asked."""
    roles = ["--role", "game_master=mock/garbage", "--role", "validator=mock/garbage", "--role", "judge=scripted"]
    done = runner.invoke(app, ["run", "dynamic_picnic", "--models", "mock/picnicker", "--n", "3", "--level", "3",
                               *roles], env={"COLUMNS": "200"})
    assert done.exit_code == 0, done.output
    matches = _matches(tmp_path)
    assert len(matches) == 3 and {source for source, _ in matches} == {"bank"}
    for _, events in matches:
        parties = {event.action.party for event in events if isinstance(event, ActionApplied)}
        assert parties == {"player", "judge"}
