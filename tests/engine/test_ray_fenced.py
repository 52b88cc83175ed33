"""The Ray executor's zombie guard, without Ray: two live workers playing the same match of a run.

Each worker has its own store connection (as two processes would); both claim the match, read its log and
play on with fenced writes. The log must come out as one uninterrupted play would record it: every seq once,
one start and one end, the same events and the same recorded model calls, while the loser's conflicts show
that the two really raced.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Sequence
from typing import Any

import pytest
from pg_server import PgServer

from playeval.core.attempt import Attempt
from playeval.core.registry import default_registry
from playeval.engine import MemoryRecorder, RunConfig, create_run, plan_matches, play_match
from playeval.engine.batch import run_players
from playeval.engine.fenced import play_run_match
from playeval.models import DEFAULT_MODEL, ModelHub
from playeval.store import LogMoved, Store

pytestmark = pytest.mark.postgres

CONFIG = RunConfig(games=("akinator",), models=("mock/player",), opponent="mock/player", n=1)


class RacingStore(Store):
    """A store that counts the conditional appends it refused because another writer got there first."""

    refused = 0

    def append_move(self, match_id: str, attempts: Sequence[Attempt], *, after_seq: int | None = None) -> int:
        try:
            return super().append_move(match_id, attempts, after_seq=after_seq)
        except LogMoved:
            self.refused += 1
            raise


async def solo_play() -> MemoryRecorder:
    """The match played once, uninterrupted, in memory: the log the racing workers must leave."""
    registry = default_registry()
    planned = plan_matches(CONFIG, registry, DEFAULT_MODEL)[0]
    game = registry.get(planned.game)
    recorder = MemoryRecorder()
    match_id = recorder.create_match(spec=planned.spec, seats=planned.seats, roles=planned.roles)
    async with ModelHub(use_cache=False) as hub:
        await play_match(game, planned.spec, run_players(game, CONFIG, planned.spec, planned.seats, planned.roles,
                                                         hub), recorder, match_id)
    return recorder


def shape(payload: dict[str, Any]) -> dict[str, Any]:
    """An event without what differs between two recordings of the same play: the ids of its model calls."""
    return {key: value for key, value in payload.items() if key != "call_ids"}


async def test_two_workers_on_one_match_record_each_move_once(postgres_server: PgServer,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PLAYEVAL_MOCK_DELAY", "0.002")
    url = postgres_server.create_database(f"fence_{secrets.token_hex(4)}")
    registry = default_registry()
    with RacingStore.open(url) as first, RacingStore.open(url) as second:
        assert isinstance(first, RacingStore) and isinstance(second, RacingStore)
        run_id = create_run(first, registry, CONFIG)
        planned = plan_matches(CONFIG, registry, DEFAULT_MODEL)[0]
        game = registry.get(planned.game)
        async with ModelHub(use_cache=False) as hub_a, ModelHub(use_cache=False) as hub_b:
            outcomes = await asyncio.gather(play_run_match(first, hub_a, game, CONFIG, run_id, planned),
                                            play_run_match(second, hub_b, game, CONFIG, run_id, planned))
        [match] = first.run_matches(run_id)
        log = first.event_records(match.id)
        calls = first.calls(match.id)
        refused = first.refused + second.refused
    solo = await solo_play()
    [solo_events] = solo.events.values()

    assert outcomes[0] == outcomes[1] == match.outcome
    assert match.status == "finished" and match.match_index == 0
    assert [entry.seq for entry in log] == list(range(1, len(log) + 1))
    assert [entry.type for entry in log].count("match_started") == 1
    assert log[-1].type == "match_ended" and [entry.type for entry in log].count("match_ended") == 1
    assert [shape(entry.event.model_dump(mode="json")) for entry in log] == \
        [shape(event.model_dump(mode="json")) for event in solo_events]
    assert len(calls) == len(solo.calls)
    assert refused > 0, "the two workers never raced: the test proves nothing"
