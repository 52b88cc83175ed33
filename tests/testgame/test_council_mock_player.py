"""``mock/player`` plays the Council plugin as its scripted players do, in every seat and the judge's role."""

from __future__ import annotations

import random

import pytest
from council import JUDGE, SEATS, Council

from playeval.core import ActionApplied, MatchSpec, ReplyRejected, RoleAssignment, SeatAssignment
from playeval.engine import MemoryRecorder, build_players, play_match
from playeval.models import ModelHub
from playeval.players import Player

game = Council()


def _spec(seed: int) -> MatchSpec:
    return game.new_spec(1, seed, random.Random(seed), options={"rounds": 3})


async def _moves(spec: MatchSpec, players: dict[str, Player | None]) -> tuple[list[tuple[str, str, str]], int]:
    """The match's applied moves as (party, kind, text), and how many replies were refused."""
    recorder = MemoryRecorder()
    match_id = recorder.create_match(spec=spec, seats=[SeatAssignment(seat=seat, player_kind="llm") for seat in SEATS])
    await play_match(game, spec, players, recorder, match_id)
    events = recorder.events[match_id]
    applied = [(e.action.party, e.action.kind, e.action.text) for e in events if isinstance(e, ActionApplied)]
    return applied, sum(1 for event in events if isinstance(event, ReplyRejected))


@pytest.mark.parametrize("seed", [0, 1, 2])
async def test_mock_player_makes_the_moves_of_the_scripted_players(seed: int) -> None:
    spec = _spec(seed)
    scripted: dict[str, Player | None] = {party: game.scripted_player(party, spec) for party in (*SEATS, JUDGE)}
    expected, _ = await _moves(spec, scripted)
    seats = [SeatAssignment(seat=seat, player_kind="llm", model="mock/player", evaluated=True) for seat in SEATS]
    roles = [RoleAssignment(role=JUDGE, player_kind="llm", model="mock/player")]
    async with ModelHub(use_cache=False) as hub:
        players = build_players(game, spec, seats, roles, hub.get, people={}, max_retries=0)
        assert all(player is not None and player.kind == "llm" for player in players.values())
        played, refused = await _moves(spec, players)
    assert played == expected
    assert refused == 0  # max_retries=0: one refused reply would have put a seat out
    clues = [text for party, kind, text in played if kind == "clue"]
    assert clues and all(text == f"Something {party} thinks of first"
                         for (party, kind, text) in played if kind == "clue")
    votes = [(party, text) for party, kind, text in played if kind == "vote"]
    # not the first choice every time: east and west, offered the same two red seats, vote apart in round 1
    east, west = (dict(votes[:4])[seat] for seat in ("east", "west"))
    assert east != west
