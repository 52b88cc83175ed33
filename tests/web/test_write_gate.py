"""The arena's SQLite write gate: writers of one process queue on a lock, which every write gives back, also
one that failed."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from playeval.core.errors import NotFoundError
from playeval.core.events import SeatAssignment
from playeval.core.match import MatchSpec, Outcome
from playeval.store import Store
from playeval.web.write_gate import WriteGate

SPEC = MatchSpec(game="akinator", level=1, seed=1, setup={"secret": "a lamp"}, variants={"guesser": 0, "answerer": 0})
SEATS = [SeatAssignment(seat="guesser", player_kind="llm", model="mock/a", prompt_variant=0, evaluated=True),
         SeatAssignment(seat="answerer", player_kind="scripted", prompt_variant=0, evaluated=False)]


def test_writers_queue_and_a_failed_write_gives_the_gate_back(tmp_path: Path) -> None:
    with Store.open(f"sqlite:///{tmp_path / 'gate.db'}") as store:
        assert WriteGate.needed(store.engine)
        gate = WriteGate(store.engine)
        gate.install()
        try:
            with pytest.raises(NotFoundError):
                store.finish_match("0" * 16, Outcome(status="aborted", reason="t", rounds=0))  # rolled back
            made: list[str] = []

            def write() -> None:
                for _ in range(10):
                    match_id = store.create_match(spec=SPEC, seats=SEATS)
                    store.finish_match(match_id, Outcome(status="finished", winners=("guesser",), reason="t",
                                                         rounds=3))
                    made.append(match_id)

            threads = [threading.Thread(target=write) for _ in range(4)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(timeout=30)
            assert not any(thread.is_alive() for thread in threads), "a writer never got the gate"
            assert len(made) == 40 and len(store.list_matches(status="finished")) == 40
            assert gate.free()
        finally:
            gate.remove()
