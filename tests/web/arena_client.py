"""Helpers for the API tests: an arena app on a temporary SQLite file, driven in-process through httpx.

``running(settings)`` opens the app's lifespan (store, hub, resumed matches) and yields a client; leaving
the block closes the app as a server shutdown would. ``play`` drives a person's whole match: it polls the
view, answers with ``answer(view)`` whenever it is the person's turn, and keeps every response it saw.
``invite_token`` reads a seat's token out of an invite link's fragment, as the join page does; each person at a
table gets their own client (their own cookie jar), as two browsers would.
"""

from __future__ import annotations

import asyncio
import time
import urllib.parse
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from playeval.web import ArenaSettings, create_app

BASE_URL = "http://testserver"
MOCK = "mock/player"


def make_settings(tmp_path: Path, **overrides: Any) -> ArenaSettings:
    values: dict[str, Any] = {"db": f"sqlite:///{tmp_path / 'arena.db'}", "models": (MOCK,), "use_cache": False,
                              "writes": None, "reads": None, "poll_s": 0.02}
    values.update(overrides)
    return ArenaSettings(**values)


@asynccontextmanager
async def running(settings: ArenaSettings) -> AsyncIterator[httpx.AsyncClient]:
    app = create_app(settings)
    async with app.router.lifespan_context(app), client_for(app) as client:
        yield client


def client_for(app: Any) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=BASE_URL)


@dataclass
class Seen:
    """Every response body a client received, as text, in order."""

    bodies: list[str] = field(default_factory=list)

    def keep(self, response: httpx.Response) -> httpx.Response:
        self.bodies.append(response.text)
        return response


Answer = Callable[[dict[str, Any]], str]


async def wait_view(client: httpx.AsyncClient, match_id: str, statuses: set[str], seen: Seen | None = None,
                    timeout: float = 30.0, headers: dict[str, str] | None = None) -> dict[str, Any]:
    """Poll the match until its status is one of ``statuses``."""
    deadline = time.monotonic() + timeout
    while True:
        response = await client.get(f"/api/matches/{match_id}", headers=headers)
        if seen is not None:
            seen.keep(response)
        assert response.status_code == 200, response.text
        view: dict[str, Any] = response.json()
        if view["status"] in statuses:
            return view
        if time.monotonic() > deadline:
            raise AssertionError(f"match {match_id} still {view['status']} after {timeout} s")
        await asyncio.sleep(0.02)


async def play(client: httpx.AsyncClient, match_id: str, answer: Answer, seen: Seen | None = None,
               headers: dict[str, str] | None = None, max_moves: int = 60, pause_s: float = 0.0) -> dict[str, Any]:
    """Play the person's side until the match is over; returns the finished view.

    ``pause_s``: how long the person thinks before each answer, so a stream polling the store sees their turn.
    """
    for _ in range(max_moves):
        view = await wait_view(client, match_id, {"your_turn", "finished"}, seen, headers=headers)
        if view["status"] == "finished":
            return view
        await asyncio.sleep(pause_s)
        response = await client.post(f"/api/matches/{match_id}/moves", json={"text": answer(view), "seq": view["seq"]},
                                      headers=headers)
        if seen is not None:
            seen.keep(response)
        assert response.status_code == 200, response.text
    raise AssertionError(f"match {match_id} did not end within {max_moves} moves")


def invite_token(url: str) -> str:
    """The token in an invite link: only in its fragment (``#token=...``), never in its path or query."""
    parts = urllib.parse.urlsplit(url)
    assert parts.query == "" and "token" not in parts.path, url
    found = urllib.parse.parse_qs(parts.fragment)["token"]
    assert len(found) == 1
    return found[0]


def disclosed(view: dict[str, Any]) -> dict[str, str]:
    """The hidden information a view discloses, by key."""
    return {item["key"]: item["value"] for item in view["disclosures"]}


def sse_views(text: str) -> list[dict[str, Any]]:
    """The views in a server-sent event stream's text."""
    import json

    views: list[dict[str, Any]] = []
    for block in text.split("\n\n"):
        lines = block.splitlines()
        if "event: state" in lines:
            data = "".join(line.removeprefix("data: ") for line in lines if line.startswith("data: "))
            views.append(json.loads(data))
    return views


def rule_games() -> list[str]:
    """The registered guess-the-rule games (built-in, and any being added)."""
    from playeval.core.registry import default_registry
    from playeval.guess_rule import GuessRuleGame

    registry = default_registry()
    return [game_id for game_id in registry.ids() if isinstance(registry.get(game_id), GuessRuleGame)]


def rule_game_roles() -> dict[str, str]:
    """Role bindings for arena tests of the guess-the-rule games (``ArenaSettings.roles``): each game's judge, and
    Dynamic Picnic's game master and validator, are the game's scripted players, since mock/player plays no role
    (a functions_picnic game master writes only with rules=generated, so its default stays)."""
    games = rule_games()
    roles = {f"{game_id}.judge": "scripted" for game_id in games}
    if "dynamic_picnic" in games:
        roles.update({"dynamic_picnic.game_master": "scripted", "dynamic_picnic.validator": "scripted"})
    return roles


def stored_rule(db_url: str, match_id: str) -> tuple[Any, Any, str]:
    """A guess-the-rule match as stored: its game, its state now, and its rule as the game discloses it (written
    during play, or drawn at set-up). Tests read it from the store, never from the arena's responses."""
    from playeval.core.registry import default_registry
    from playeval.engine.master import state_from_events
    from playeval.store import Store

    with Store.open(db_url) as store:
        record = store.get_match(match_id)
        game = default_registry().get(record.game)
        state = state_from_events(game, record.spec, store.events(match_id))
    rule = next(item.value for item in game.disclosures(record.spec, state) if item.key == "rule")
    return game, state, rule
