"""A process's kept matches: every read equals a whole read of the store, whatever changed in between (a longer
log, a person joining or leaving, a lease, the end), and a longer log is read as its new events only."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from playeval.core.events import ReplyReceived, SeatAssignment
from playeval.core.match import MatchSpec, Outcome
from playeval.store import Store
from playeval.web.errors import NotFound
from playeval.web.loads import LoadCache
from playeval.web.table import load

SPEC = MatchSpec(game="akinator", level=1, seed=1, setup={"secret": "a cat"}, variants={"guesser": 0, "answerer": 0})
SEATS = [SeatAssignment(seat="guesser", player_kind="llm", model="mock/player", prompt_variant=0, evaluated=True),
         SeatAssignment(seat="answerer", player_kind="human", prompt_variant=0, evaluated=False)]


def _counting_whole_reads() -> tuple[list[str], Callable[[Store, str], object]]:
    """A ``Store.get_match`` that records the match ids it reads whole (monkeypatched in), and the list."""
    whole_reads: list[str] = []
    original = Store.get_match

    def counted(self: Store, wanted: str) -> object:
        whole_reads.append(wanted)
        return original(self, wanted)

    return whole_reads, counted


def test_every_read_equals_a_whole_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with Store.open(f"sqlite:///{tmp_path / 'loads.db'}") as store:
        loads = LoadCache(store)
        match_id = store.create_web_match(spec=SPEC, seats=SEATS, mode="play", people={"answerer": "ab" * 32},
                                          anonymous=True)

        def same() -> None:
            assert loads.load(match_id) == load(store, match_id)

        same()
        store.join_seat(match_id, "answerer")
        same()
        assert store.take_lease(match_id, "me", 30)
        same()
        store.release_lease(match_id, "me")
        same()
        whole_reads, counted = _counting_whole_reads()
        monkeypatch.setattr(Store, "get_match", counted)
        store.append_event(match_id, ReplyReceived(seat="answerer", text="No"))
        same()
        assert whole_reads == [match_id]  # the check's own whole read; the cache read only the new event
        monkeypatch.undo()
        store.leave_seat(match_id, "answerer")
        same()
        store.finish_match(match_id, Outcome(status="aborted", reason="t", rounds=0))
        same()
        assert loads.load(match_id).finished

        run_match = store.create_match(spec=SPEC, seats=SEATS)
        with pytest.raises(NotFound):
            loads.load(run_match)  # not an arena match
        assert loads.load(run_match, arena_only=False) == load(store, run_match, arena_only=False)
        with pytest.raises(NotFound):
            loads.load("0" * 16)


def test_a_lease_and_a_longer_log_are_read_without_a_whole_read(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    with Store.open(f"sqlite:///{tmp_path / 'lease.db'}") as store:
        loads = LoadCache(store)
        match_id = store.create_web_match(spec=SPEC, seats=SEATS, mode="play", people={"answerer": "ab" * 32},
                                          anonymous=True)
        loads.load(match_id)
        whole_reads, counted = _counting_whole_reads()
        monkeypatch.setattr(Store, "get_match", counted)
        steps = [lambda: store.take_lease(match_id, "me", 30),
                 lambda: store.append_event(match_id, ReplyReceived(seat="answerer", text="No")),
                 lambda: store.renew_lease(match_id, "me", 60),
                 lambda: store.release_lease(match_id, "me")]
        for step in steps:
            step()
            kept = loads.load(match_id)
            assert whole_reads == []
            monkeypatch.undo()
            assert kept == load(store, match_id)
            monkeypatch.setattr(Store, "get_match", counted)
            whole_reads.clear()
