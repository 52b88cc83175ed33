"""The arena shows a judge's verdict while a rule game is played, never its reason: the reason is written with the
rule in view (the judge here names the rule in it, as local models did), so no response and no streamed view
before the end carries it, for the person in the player's seat or a watcher; the final view shows it
(``core.held``)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
import pytest
from arena_client import (
    Seen,
    make_settings,
    play,
    rule_game_roles,
    rule_games,
    running,
    sse_views,
    wait_view,
)
from held_kit import MARK, naming_judges

from playeval.core import default_registry
from playeval.engine import state_from_events
from playeval.store import Store

OPTIONS = {"max_turns": 6, "num_init_examples": 2}


async def _start(client: httpx.AsyncClient, tmp_path: Path, seen: Seen, path: str, body: dict[str, Any]) -> str:
    """A new match whose rule has more than two example units beyond the first ones: the arena draws the rule, and
    with fewer the player's two requests for more show them all, and the refused guess ends the match at once."""
    for _ in range(10):
        created = seen.keep(await client.post(path, json=body))
        assert created.status_code == 201, created.text
        match_id = str(created.json()["id"])
        await wait_view(client, match_id, {"your_turn", "watching", "finished"})
        while (state := _stored_state(tmp_path, match_id)).rule is None:  # Dynamic Picnic's rule is being written
            await asyncio.sleep(0.02)
        if state.total - OPTIONS["num_init_examples"] > 2:
            return match_id
        await client.post(f"/api/matches/{match_id}/abandon")  # a person's table; a watched match plays on
        await wait_view(client, match_id, {"finished"})  # (the arena runs few model-vs-model matches at once)
    raise AssertionError("ten rules in a row had too few examples")


def _stored_state(tmp_path: Path, match_id: str) -> Any:
    with Store.open(f"sqlite:///{tmp_path / 'arena.db'}") as store:
        record = store.get_match(match_id)
        return state_from_events(default_registry().get(record.game), record.spec, store.events(match_id))


def _reply(view: dict[str, Any]) -> str:
    """Skip the check; ask for more twice, then guess something vague (the judge refuses it)."""
    form = view["panel"]["forms"][0]
    if form["kind"] == "apply":
        return "skip"
    actions = {action["key"]: action for action in form["actions"]}
    turns = next(counter["value"] for counter in view["panel"]["counters"] if counter["key"] == "turns")
    if "more" in actions and turns < 3:
        return "MORE: 1"
    return "GUESS: nothing I can name yet"


def _live(bodies: list[str]) -> list[str]:
    return [body for body in bodies if '"status":"finished"' not in body.replace(" ", "")]


def _judge_lines(view: dict[str, Any]) -> list[str]:
    return [line["text"] for line in view["transcript"] if line["seat"] == "judge"]


@pytest.mark.parametrize("game_id", rule_games())
async def test_the_player_and_the_stream_read_the_verdict_and_the_reason_only_at_the_end(
        tmp_path: Path, game_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    naming_judges(monkeypatch)
    monkeypatch.setenv("PLAYEVAL_MOCK_DELAY", "0.005")
    seen = Seen()
    async with running(make_settings(tmp_path, roles=rule_game_roles())) as client:
        match_id = await _start(client, tmp_path, seen, "/api/matches", {"game": game_id, "options": OPTIONS})
        stream = asyncio.create_task(client.get(f"/api/matches/{match_id}/stream"))
        end = await play(client, match_id, _reply, seen, pause_s=0.05)
        streamed = await asyncio.wait_for(stream, timeout=60)
    views = sse_views(streamed.text)
    live = _live(seen.bodies) + [body for body in streamed.text.split("event: state")[1:]
                                 if '"status":"finished"' not in body.replace(" ", "")]
    verdicts = [line for view in views[:-1] for line in _judge_lines(view)]
    assert verdicts and all(line == "no" for line in verdicts)  # the stream showed refused guesses
    assert not [body for body in live if MARK in body]
    assert views[-1]["status"] == "finished" and end["status"] == "finished"
    final_lines = [(line["seat"], line["text"]) for line in views[-1]["transcript"]]
    for view in views:  # what a viewer read is never rewritten: every streamed transcript starts the final one
        lines = [(line["seat"], line["text"]) for line in view["transcript"]]
        assert final_lines[:len(lines)] == lines
    for final in (end, views[-1]):  # at the end the reasons follow as lines of their own; earlier lines unchanged
        lines = _judge_lines(final)
        assert "no" in lines and [line for line in lines if line.startswith("why guess") and MARK in line]


@pytest.mark.parametrize("game_id", ["static_picnic"])
async def test_a_watcher_reads_the_verdict_only_until_the_end(tmp_path: Path, game_id: str,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    naming_judges(monkeypatch)
    monkeypatch.setenv("PLAYEVAL_MOCK_DELAY", "0.2")  # a refused guess stays live for a moment the polls see
    seen = Seen()
    async with running(make_settings(tmp_path, roles=rule_game_roles())) as client:
        match_id = await _start(client, tmp_path, seen, "/api/watch", {"game": game_id, "options": OPTIONS})
        view = await wait_view(client, match_id, {"finished"}, seen)
        replay = seen.keep(await client.get(f"/api/matches/{match_id}/replay")).json()
    live = _live(seen.bodies)
    # a watcher saw a refused guess while it was live: the judge's line, its verdict alone
    assert any('"seat":"judge","label":"Judge","text":"no"}' in body.replace(" ", "") for body in live)
    assert not [body for body in live if MARK in body]
    for final in (view, replay):
        assert [line for line in _judge_lines(final) if line.startswith("why guess") and MARK in line]
