"""The batch path writes its rows straight to the driver (``store._direct``): on SQLite the stored text is byte
for byte what it was through pydantic and SQLAlchemy -- each payload ``model_dump_json()``, the spec as the JSON
column type writes it, the times as the datetime column writes them -- whatever the tail's length; on both
databases a match reads back as it was written."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import insert

from playeval.core.events import (
    SCHEMA_VERSION,
    ActionApplied,
    AskIssued,
    Event,
    MatchEnded,
    MatchStarted,
    ReplyReceived,
    RoleAssignment,
    SeatAssignment,
)
from playeval.core.match import Action, MatchSpec, Outcome
from playeval.store import Store, TailCommit
from playeval.store._direct import core
from playeval.store.schema import MatchRow

SPEC = MatchSpec(game="akinator", level=1, seed=2**62 + 7, setup={"secret": "a crème brûlée \"quoted\" \\ slash"},
                 variants={"guesser": 1, "answerer": 0})
SEATS = (SeatAssignment(seat="guesser", player_kind="llm", model="mock/x", prompt_variant=1, evaluated=True),
         SeatAssignment(seat="answerer", player_kind="scripted"))
ROLES = (RoleAssignment(role="judge", player_kind="scripted", seat="answerer"),)
OUTCOME = Outcome(status="finished", winners=("guesser",), reason="guessed ✓ in 0.5 turns", rounds=3)


def tail(moves: int) -> list[Event]:
    """``moves`` moves of three events each, with text that JSON escapes (quotes, backslashes, newlines, control
    characters) or keeps as UTF-8 (accents, emoji)."""
    events: list[Event] = []
    for turn in range(moves):
        text = f'Question {turn}: is it "big"?\n\\ \t \x01 é 😀 {turn / 3}'
        events += [AskIssued(seat="guesser", kind="question", attempt=turn % 2),
                   ReplyReceived(seat="guesser", text=text, call_ids=(turn, turn + 1)),
                   ActionApplied(action=Action(seat="guesser", kind="question", text=text, data={"n": turn / 7}))]
    return events


def raw_rows(path: Path, query: str, *args: object) -> list[tuple[object, ...]]:
    with sqlite3.connect(path) as connection:
        return list(connection.execute(query, args))


@pytest.mark.parametrize("moves", [0, 1, 85, 300])  # 2 .. 902 events: one statement, and several
def test_sqlite_stores_the_bytes_pydantic_and_core_wrote(tmp_path: Path, moves: int) -> None:
    path = tmp_path / "store.db"
    events = tail(moves)
    with Store.open(f"sqlite:///{path}") as store:
        match_id = store.create_match(spec=SPEC, seats=SEATS, roles=ROLES, tail=events, outcome=OUTCOME)
        with store.engine.begin() as connection:  # a row as Core writes it, for the columns' text
            connection.execute(insert(core(MatchRow)), [{
                "id": "core", "game": SPEC.game, "level": SPEC.level, "seed": SPEC.seed,
                "spec": SPEC.model_dump(mode="json"), "status": "running", "created_at": store.get_match(
                    match_id).created_at}])
    logged = [MatchStarted(spec=SPEC, seats=SEATS, roles=ROLES), *events, MatchEnded(outcome=OUTCOME)]
    stored = raw_rows(path, "SELECT seq, type, schema_version, payload, created_at FROM events WHERE match_id = ? "
                            "ORDER BY id", match_id)
    assert [row[:3] for row in stored] == [(seq, event.type, SCHEMA_VERSION)
                                           for seq, event in enumerate(logged, start=1)]
    assert [row[3] for row in stored] == [event.model_dump_json() for event in logged]
    ((spec, outcome, status, created, ended),) = raw_rows(
        path, "SELECT spec, outcome, status, created_at, ended_at FROM matches WHERE id = ?", match_id)
    ((core_spec, core_created),) = raw_rows(path, "SELECT spec, created_at FROM matches WHERE id = 'core'")
    assert spec == core_spec and created == core_created == ended
    assert {row[4] for row in stored} == {created}
    assert outcome == OUTCOME.model_dump_json() and status == "finished"
    assert raw_rows(path, "SELECT seat, position, player_kind, model, prompt_variant, evaluated FROM seats "
                          "WHERE match_id = ? ORDER BY position", match_id) == [
        ("guesser", 0, "llm", "mock/x", 1, 1), ("answerer", 1, "scripted", None, None, None)]
    assert raw_rows(path, "SELECT role, position, player_kind, model, seat FROM match_roles WHERE match_id = ?",
                    match_id) == [("judge", 0, "scripted", None, "answerer")]


def test_a_match_written_in_commits_reads_back_on_both_databases(store: Store) -> None:
    events = tail(120)
    match_id = store.new_match_id()
    creation = {"spec": SPEC, "seats": SEATS, "roles": ROLES}
    store.commit_tails([TailCommit(match_id, events[:7], 1, creation=creation),
                        TailCommit(match_id, events[7:], 8, OUTCOME)])
    assert store.events(match_id) == [MatchStarted(spec=SPEC, seats=SEATS, roles=ROLES), *events,
                                      MatchEnded(outcome=OUTCOME)]
    record = store.get_match(match_id)
    assert (record.status, record.outcome, record.seats, record.roles) == ("finished", OUTCOME, SEATS, ROLES)
    assert record.ended_at is not None and record.ended_at >= record.created_at
