"""The process's streams share one read of their matches' marks per poll: each sees its own match's growth and
people joining and leaving, another writer's included, and the reads stop when no stream follows."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path

import pytest

from playeval.core.events import ReplyReceived, SeatAssignment
from playeval.core.match import MatchSpec
from playeval.store import Store
from playeval.web.log_watch import LogWatch

SPEC = MatchSpec(game="akinator", level=1, seed=1, setup={"secret": "a cat"}, variants={"guesser": 0, "answerer": 0})
SEATS = [SeatAssignment(seat="guesser", player_kind="llm", model="mock/player", prompt_variant=0, evaluated=True),
         SeatAssignment(seat="answerer", player_kind="human", prompt_variant=0, evaluated=False)]


def _match(store: Store) -> str:
    return store.create_web_match(spec=SPEC, seats=SEATS, mode="play", people={"answerer": "ab" * 32},
                                  anonymous=True)


def test_last_seqs_reads_many_logs_at_once(tmp_path: Path) -> None:
    with Store.open(f"sqlite:///{tmp_path / 'seqs.db'}") as store:
        matches = [_match(store) for _ in range(3)]
        store.append_event(matches[1], ReplyReceived(seat="answerer", text="No"))
        assert store.last_seqs(matches) == {match_id: store.last_seq(match_id) for match_id in matches}
        assert store.last_seqs(matches)[matches[1]] == store.last_seqs(matches)[matches[0]] + 1
        assert store.last_seqs(["no-such-match"]) == {}


async def test_streams_share_one_read_per_poll(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with Store.open(f"sqlite:///{tmp_path / 'watch.db'}") as store:
        first, second = _match(store), _match(store)
        reads: list[list[str]] = []
        original = store.last_seqs

        def counted(match_ids: Sequence[str]) -> dict[str, int]:
            reads.append(list(match_ids))
            return original(match_ids)

        monkeypatch.setattr(store, "last_seqs", counted)
        watch = LogWatch(store, poll_s=0.01)
        start = store.last_seq(first)
        with watch.following(first), watch.following(second):
            seen = await asyncio.gather(watch.next_mark(first), watch.next_mark(second))
            assert seen == [(start, 0, 0), (store.last_seq(second), 0, 0)]
            assert reads == [sorted([first, second])]  # both streams woke from the same read
            store.append_event(first, ReplyReceived(seat="answerer", text="No"))  # another writer's move
            assert await watch.next_mark(first) == (start + 1, 0, 0)
            store.join_seat(second, "answerer")
            assert await watch.next_mark(second) == (store.last_seq(second), 1, 0)
            store.leave_seat(second, "answerer")
            assert await watch.next_mark(second) == (store.last_seq(second), 1, 1)
        await asyncio.sleep(0.05)
        count = len(reads)
        await asyncio.sleep(0.05)
        assert len(reads) == count  # nobody follows: no more reads
        await watch.aclose()
