"""Dynamic Picnic started from the arena as a person starts it from the home page (no options): the match plays a
rule of the shipped bank, so the person gets a turn at once and no game-master model is asked. With
``rules=generated`` and a game master that cannot write a rule, the match falls back to a bank rule, and the end
says so. The game master and validator are bound to ``mock/garbage``, whose every reply is unreadable: a match that
asked them would either fall back or be given up, never reach the player's turn as a bank match."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from arena_client import MOCK, make_settings, play, running, wait_view

from playeval.core import default_registry
from playeval.core.events import ActionApplied, AskIssued
from playeval.engine import state_from_events
from playeval.games.dynamic_picnic import GAME_MASTER, VALIDATOR, shipped_bank
from playeval.store import Store

BROKEN = "mock/garbage"
ROLES = {"dynamic_picnic.judge": "scripted", "dynamic_picnic.game_master": BROKEN,
         "dynamic_picnic.validator": BROKEN}


def _stored(tmp_path: Path, match_id: str) -> tuple[Any, Any, list[Any]]:
    with Store.open(f"sqlite:///{tmp_path / 'arena.db'}") as store:
        record = store.get_match(match_id)
        events = list(store.events(match_id))
    return record.spec, state_from_events(default_registry().get(record.game), record.spec, events), events


def _guess(view: dict[str, Any]) -> str:
    form = view["panel"]["forms"][0]
    return "skip" if form["kind"] == "apply" else "GUESS: things I cannot name"


async def test_a_person_starting_dynamic_picnic_gets_a_turn_at_once_from_the_shipped_bank(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, models=(MOCK, BROKEN), roles=ROLES)
    async with running(settings) as client:
        began = time.monotonic()
        created = await client.post("/api/matches", json={"game": "dynamic_picnic"})
        assert created.status_code == 201, created.text
        match_id = created.json()["id"]
        turn = await wait_view(client, match_id, {"your_turn", "finished"}, timeout=10.0)
        waited = time.monotonic() - began
        assert turn["status"] == "your_turn" and waited < 5.0, (turn["status"], waited)
        assert "May come:" in turn["transcript"][0]["text"]  # turn 1's examples are there
        spec, state, events = _stored(tmp_path, match_id)
        assert (spec.params["rules"], spec.setup["source"]) == ("bank", "bank")
        assert shipped_bank().get(spec.setup["rule"]).statement == state.round.statement
        asked = {event.role for event in events if isinstance(event, AskIssued)} | \
            {event.action.party for event in events if isinstance(event, ActionApplied)}
        assert not asked & {GAME_MASTER, VALIDATOR}


async def test_a_generated_match_whose_game_master_fails_falls_back_to_the_bank_and_says_so(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, models=(MOCK, BROKEN), roles=ROLES)
    async with running(settings) as client:
        created = await client.post("/api/matches", json={"game": "dynamic_picnic", "level": 2,
                                                          "options": {"rules": "generated", "max_turns": 2}})
        assert created.status_code == 201, created.text
        match_id = created.json()["id"]
        turn = await wait_view(client, match_id, {"your_turn", "finished"}, timeout=20.0)
        assert turn["status"] == "your_turn", turn.get("outcome")
        spec, state, _ = _stored(tmp_path, match_id)
        assert spec.params["rules"] == "generated" and state.fell_back is not None
        assert state.round.statement == spec.setup["fallback"]["statement"]
        assert "fell back" not in str(turn)  # nothing of the game master's part while playing
        end = await play(client, match_id, _guess)
    assert end["status"] == "finished"
    assert "fell back to the bank" in end["outcome"]["reason"] and "game_master" in end["outcome"]["reason"]
    assert any("fell back to the bank" in line["text"] for line in end["transcript"])
