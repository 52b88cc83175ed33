"""Hidden stays hidden, in every registered game (the built-in ones and Council, installed as a plugin): no view a
seat's person receives while the match is live (the start view, each GET, each view of the stream) carries what
only the end reveals: a hidden part's revealed label ("player3's word (undercover)") or who holds it, and no
disclosure of a part the seat does not hold. Each game is played from every seat a person may take: a few moves
by the person (made by the game's scripted player for that seat), the other seats by mock/player and the roles
by the games' scripted players (Akinator's judge by the answerer's seat), then abandoned."""

from __future__ import annotations

import asyncio
import json
import random
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))

from arena_client import MOCK, make_settings, rule_game_roles, running, sse_views, wait_view

from playeval.core import Ask, Disclosure, FormatError, Game, RuleViolation, default_registry, inputs_for
from playeval.engine.master import state_from_events
from playeval.store import Store
from playeval.web.table import build_table, load

PERSON_MOVES = 4
INPUTS = {"secret": "a lantern", "statement": "I once rode a camel across a desert."}
"""What a person types before the match, where their seat provides something (the first choice when there are
choices)."""


def _all_games() -> list[str]:
    """The built-in games (Council is added by hand: it is installed only while a test runs)."""
    return [game_id for game_id in default_registry().ids() if game_id != "council"]


def _role_bindings() -> dict[str, str]:
    """The rule games' roles as the arena tests bind them (``rule_game_roles``), and the judges of Undercover and
    Council to their scripted players; Akinator's judge stays with the answerer's seat, as the game binds it."""
    return {**rule_game_roles(), "undercover.judge": "scripted", "council.judge": "scripted"}


def _inputs(game: Game[Any], seat: str) -> dict[str, str]:
    return {item.key: item.choices[0] if item.choices else INPUTS[item.key]
            for item in inputs_for(game.person_inputs, (seat,))}


def _parts(db: str, match_id: str) -> tuple[Game[Any], list[Disclosure]]:
    """The match's game and every hidden part it made, as they are revealed (read from the store)."""
    with Store.open(db) as store:
        record = store.get_match(match_id)
        game = default_registry().get(record.game)
        state = state_from_events(game, record.spec, store.events(match_id))
    return game, list(game.disclosures(record.spec, state))


def _leaks(view: dict[str, Any], seat: str, parts: list[Disclosure]) -> list[str]:
    """What a live view of ``seat`` shows that only the end may: nothing, if it keeps to the rules."""
    if view["status"] == "finished":
        return []
    found: list[str] = []
    mine = [part for part in parts if seat in part.seats]
    for item in view["disclosures"]:
        if set(item) != {"key", "value", "label"}:
            found.append(f"a disclosure carries {sorted(set(item) - {'key', 'value', 'label'})} while live")
        if item["key"] not in {part.key for part in mine}:
            found.append(f"the {item['key']} is shown to {seat}, who does not hold it")
    text = json.dumps(view, ensure_ascii=False)
    live_labels = {part.label for part in mine}
    for part in parts:
        if part.revealed_label != part.label and part.revealed_label not in live_labels and part.revealed_label in text:
            found.append(f"the revealed label {part.revealed_label!r} is in a live view of {seat}")
    return found


async def _person_reply(db: str, match_id: str, seat: str, players: dict[str, Any]) -> str | None:
    """The person's move to their open ask, made by the game's scripted player for that party (``None``: the
    match has just ended)."""
    with Store.open(db) as store:
        loaded = load(store, match_id)
    game = default_registry().get(loaded.match.game)
    asks = build_table(game, loaded, MOCK).asks_of(seat)
    if not asks:
        return None
    ask = asks[0]
    player = players.setdefault(ask.party, game.scripted_player(ask.party, loaded.match.spec))
    reply = await player.act(ask)
    return str(reply.text)


async def _play_from(client: httpx.AsyncClient, db: str, game_id: str, seat: str) -> tuple[str, list[dict[str, Any]]]:
    """A match of ``game_id`` with a person at ``seat``: every view that person received, start to end."""
    game = default_registry().get(game_id)
    created = await client.post("/api/matches", json={"game": game_id, "seat": seat, "model": MOCK,
                                                      "inputs": _inputs(game, seat)})
    assert created.status_code == 201, created.text
    views = [created.json()]
    match_id = views[0]["id"]
    stream = asyncio.create_task(client.get(f"/api/matches/{match_id}/stream"))
    players: dict[str, Any] = {}
    moves = 0
    for _ in range(PERSON_MOVES):
        view = await wait_view(client, match_id, {"your_turn", "finished"}, timeout=60)
        views.append(view)
        if view["status"] == "finished":
            break
        text = await _person_reply(db, match_id, seat, players)
        if text is None:
            break
        moved = await client.post(f"/api/matches/{match_id}/moves", json={"text": text, "seq": view["seq"]})
        if moved.status_code in (409, 422):  # the match ended meanwhile, or the rules refused the scripted move
            moves += 1  # (a rule game whose examples ran out): the person's moves end here
            break
        assert moved.status_code == 200, moved.text
        views.append(moved.json())
        moves += 1
    assert moves or views[-1]["status"] == "finished", f"{game_id}: {seat} never had a move to make"
    views.append((await client.get(f"/api/matches/{match_id}")).json())
    if views[-1]["status"] != "finished":
        abandoned = await client.post(f"/api/matches/{match_id}/abandon")
        assert abandoned.status_code == 200, abandoned.text
    streamed = sse_views((await asyncio.wait_for(stream, timeout=60)).text)
    assert streamed and streamed[-1]["status"] == "finished"
    return match_id, [*views, *streamed]


@pytest.mark.parametrize("game_id", [*_all_games(), "council"])
async def test_no_live_view_of_any_seat_shows_what_only_the_end_reveals(
        game_id: str, tmp_path: Path, council_installed: dict[str, str]) -> None:
    settings = make_settings(tmp_path, roles=_role_bindings())
    game = default_registry().get(game_id)
    seats = [info.name for info in game.table(game.new_spec(1, 0, random.Random(0)))]
    async with running(settings) as client:
        played = {seat: await _play_from(client, str(settings.db), game_id, seat)
                  for seat in seats if seat in {info.name for info in game.seats if info.person}}
    for seat, (match_id, views) in played.items():
        _, parts = _parts(str(settings.db), match_id)
        live = [view for view in views if view["status"] != "finished"]
        assert live, f"{game_id}: no live view of {seat}"
        leaks = [leak for view in live for leak in _leaks(view, seat, parts)]
        assert not leaks, f"{game_id}, {seat}: {sorted(set(leaks))}"
        assert all(view["you"] == seat for view in views)
        assert any(view["status"] == "your_turn" for view in views), f"{game_id}: {seat} made no move"
    if game_id in ("undercover", "council", "akinator", "taboo", "bluffing"):
        # the check is not empty: some seat held a hidden part, and once over everyone sees every part revealed
        ends = [views[-1] for _, views in played.values()]
        assert any(item["revealed_label"] != item["label"] for end in ends for item in end["disclosures"])


async def _asks_played(game: Game[Any], seed: int, steps: int = 80) -> tuple[list[Ask], list[Disclosure]]:
    """Every ask of a match played by the game's scripted players (until its end, a refused move, or ``steps``
    asks), and the hidden parts it made."""
    spec = game.new_spec(1, seed, random.Random(seed))
    state = game.initial_state(spec)
    players: dict[str, Any] = {}
    asked: list[Ask] = []
    while game.outcome(state) is None and len(asked) < steps:
        for ask in game.next_asks(state):
            asked.append(ask)
            player = players.setdefault(ask.party, game.scripted_player(ask.party, spec))
            reply = await player.act(ask)
            try:
                state = game.apply(state, game.parse(state, ask, str(reply.text)))
            except (FormatError, RuleViolation):
                return asked, list(game.disclosures(spec, state))
    return asked, list(game.disclosures(spec, state))


@pytest.mark.parametrize("game_id", [*_all_games(), "council"])
async def test_no_ask_to_a_seat_carries_what_only_the_end_reveals(game_id: str,
                                                                   council_installed: dict[str, str]) -> None:
    """What a seat's model is given (its ask's display, instructions and messages) keeps to the same rule as the
    person's views: no revealed label of a hidden part."""
    game = default_registry().get(game_id)
    for seed in (0, 1):
        asked, parts = await _asks_played(game, seed)
        to_seats = [ask for ask in asked if ask.seat is not None]
        assert to_seats, f"{game_id}: no ask to a seat"
        for ask in to_seats:
            text = "\n".join([ask.display, ask.instructions, *(message.content for message in ask.messages)])
            live_labels = {part.label for part in parts if ask.seat in part.seats}
            shown = [part.revealed_label for part in parts if part.revealed_label != part.label
                     and part.revealed_label not in live_labels and part.revealed_label in text]
            assert not shown, f"{game_id}: {ask.seat}'s {ask.kind} ask shows {shown}"
