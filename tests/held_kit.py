"""A match of any judged game played through the engine, with every live output a player or a watcher gets kept.

The judge roles are the game's scripted players, wrapped by :class:`NamingJudge`: its first reply to each ask
adds a reason that repeats what the judge was told (the concealed rule, the secret) behind :data:`MARK`, as a
local model's judge did ("does not follow the rule of dividing by 3"); a game that reads no free text refuses that
reply and gets the plain verdict on the re-ask. The seats are ``mock/player``. Before every ask to a seat the kit
keeps, as that moment's live outputs: the ask itself (display and model messages), the arena's view of the
match for every seat and for a watcher (``web.present.match_view``, the body of the API and of its stream), and
what the terminal narrates to a person in that seat (``cli.play_cmd``'s narration).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from playeval.cli.play_cmd import _Narrated
from playeval.core import (
    ActionApplied,
    Ask,
    ConfigError,
    Game,
    MatchSpec,
    Reply,
    RoleAssignment,
    Scalar,
    SeatAssignment,
    panel_role,
)
from playeval.core.rng import match_rng
from playeval.engine import advance, build_players, state_from_events
from playeval.games.dynamic_picnic.scripted import ScriptedJudge as DynamicScriptedJudge
from playeval.guess_rule.baselines import StatementJudge
from playeval.models import ModelHub
from playeval.players import Player
from playeval.store import Store
from playeval.web.present import match_view
from playeval.web.table import Loaded, build_table

MARK = "HELD-REASON-7Q"
"""What every reason a judge writes here starts with: it must reach no live output."""
SEAT_MODEL = "mock/player"


def judged(game: Game[Any]) -> bool:
    """Whether a game has a judge role (``judge``, or members of a judges' panel)."""
    return any(panel_role(info.name) == "judge" for info in game.roles)


def told(ask: Ask) -> str:
    """The first line of the last thing the judge was told (the concealed rule, the secret and the guess)."""
    users = [message.content for message in ask.messages if message.role == "user"]
    return users[-1].splitlines()[0] if users else ask.display


class NamingJudge:
    """A judge whose first reply to an ask gives its verdict with a reason naming what it was told."""

    kind = "scripted"
    model: str | None = None
    max_retries = 1

    def __init__(self, inner: Player) -> None:
        self._inner = inner

    async def act(self, ask: Ask) -> Reply:
        reply = await self._inner.act(ask)
        if ask.attempt > 0:
            return reply
        verdict = next((line for line in reply.text.splitlines() if not line.lower().startswith("reason")), "")
        return Reply(text=f"{verdict}\nReason: {MARK} it does not fit: {told(ask)}")


def naming_judges(monkeypatch: pytest.MonkeyPatch) -> None:
    """The guess-the-rule games' scripted judges (bound by ``--role judge=scripted``, the library's
    ``judge="scripted"``, the arena's role settings) give their verdict with a reason naming the rule."""
    for judge in (StatementJudge, DynamicScriptedJudge):
        monkeypatch.setattr(judge, "act", _naming(judge.act))


def _naming(original: Callable[[Any, Ask], Awaitable[Reply]]) -> Callable[[Any, Ask], Awaitable[Reply]]:
    async def act(self: Any, ask: Ask) -> Reply:
        verdict = (await original(self, ask)).text.splitlines()[0]
        return Reply(text=f"{verdict}\nReason: {MARK} it does not fit: {told(ask)}")

    return act


@dataclass
class Seen:
    """The live outputs kept while the match was played, by seat (``""``: a watcher)."""

    asks: dict[str, list[str]] = field(default_factory=dict)
    views: dict[str, list[str]] = field(default_factory=dict)
    terminal: str = ""

    def all_asks(self) -> list[str]:
        return [text for texts in self.asks.values() for text in texts]

    def all_views(self) -> list[str]:
        return [text for texts in self.views.values() for text in texts]


@dataclass
class Played:
    game: Game[Any]
    spec: MatchSpec
    store: Store
    match_id: str
    seen: Seen

    def final_view(self, seat: str | None = None) -> str:
        return _view(self.game, self.store, self.match_id, seat)

    def state(self) -> Any:
        return state_from_events(self.game, self.spec, self.store.events(self.match_id))

    def judge_actions(self) -> list[ActionApplied]:
        return [event for event in self.store.events(self.match_id) if isinstance(event, ActionApplied)
                and event.action.role is not None and panel_role(event.action.role) == "judge"]


def _view(game: Game[Any], store: Store, match_id: str, seat: str | None) -> str:
    loaded = Loaded(match=store.get_match(match_id), web=None, records=tuple(store.event_records(match_id)))
    return match_view(build_table(game, loaded, SEAT_MODEL), seat).model_dump_json()


class _Watched:
    """A seat's player: before it moves, keeps its ask and every live output of the match at that moment."""

    kind = "llm"
    model: str | None = SEAT_MODEL

    def __init__(self, inner: Player, seat: str, keep: Callable[[str, Ask], None]) -> None:
        self._inner = inner
        self._seat = seat
        self._keep = keep
        self.max_retries = inner.max_retries

    async def act(self, ask: Ask) -> Reply:
        self._keep(self._seat, ask)
        return await self._inner.act(ask)


def _role(game: Game[Any], spec: MatchSpec, role: str) -> RoleAssignment:
    """The game's scripted player in ``role``, or ``mock/player`` where the game has none (a game master who
    writes code, never asked while the rules come from the library)."""
    try:
        game.scripted_player(role, spec)
    except ConfigError:
        return RoleAssignment(role=role, player_kind="llm", model=SEAT_MODEL)
    return RoleAssignment(role=role, player_kind="scripted")


async def play(game: Game[Any], tmp_path: Path, read_terminal: Callable[[], str], *, seed: int = 3,
               options: Mapping[str, Scalar] | None = None) -> Played:
    """Play one match of ``game`` to its end (``read_terminal``: what the terminal printed so far, taken)."""
    spec = game.new_spec(1, seed, match_rng(seed), options=dict(options) if options else None)
    seats = tuple(SeatAssignment(seat=info.name, player_kind="llm", model=SEAT_MODEL, evaluated=info.evaluated)
                  for info in game.table(spec))
    roles = tuple(_role(game, spec, info.name) for info in game.roles)
    store = Store.open(f"sqlite:///{tmp_path / 'held.db'}")
    match_id = store.create_match(spec=spec, seats=seats, roles=roles)
    seen = Seen()
    names = [seat.seat for seat in seats]

    def keep(seat: str, ask: Ask) -> None:
        seen.asks.setdefault(seat, []).append("\n".join([ask.display, *(m.content for m in ask.messages)]))
        for viewer in (*names, None):
            seen.views.setdefault(viewer or "", []).append(_view(game, store, match_id, viewer))

    async with ModelHub(use_cache=False) as hub:
        built = build_players(game, spec, seats, roles, hub.get, people={})
        players: dict[str, Player | None] = {}
        for party, player in built.items():
            assert player is not None
            if party in names:
                watched = _Watched(player, party, keep)
                players[party] = _Narrated(watched, game, spec, party, store, match_id)  # type: ignore[arg-type]
            elif panel_role(party) == "judge":
                players[party] = NamingJudge(player)
            else:
                players[party] = player
        result = await advance(game, spec, store.events(match_id), players, store, match_id)
    assert result.outcome is not None, "the match did not end"
    seen.terminal = read_terminal()
    return Played(game=game, spec=spec, store=store, match_id=match_id, seen=seen)
