"""Seed a playeval database with many finished matches, quickly, for the leaderboard and load benchmarks.

    .venv/bin/python scripts/seed_matches.py sqlite:////tmp/board.db [--matches 100000] [--seed 1]

Four in five matches belong to batch runs (1,000 matches a run), one in five was played by a person in the arena
(a ``web_matches`` row, the person's ``web_seats`` row, a survey for about a third of them, a seat left for one
in fifty). Games are Akinator and Taboo; the evaluated seat is held by one of a few model names; outcomes are
wins, losses, forfeits and aborts in realistic proportions. Each match gets its ``match_started`` and
``match_ended`` events, as the store writes them. Rows go in with bulk inserts, 5,000 a statement, in one
transaction per batch; the schema is created or upgraded by ``Store.open`` first.
"""

from __future__ import annotations

import argparse
import random
import secrets
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import insert

from playeval.core.events import MatchEnded, MatchStarted, SeatAssignment
from playeval.core.match import MatchSpec, Outcome
from playeval.store import Store
from playeval.store.errors import StoreUnavailable
from playeval.store.schema import (
    EventRow,
    MatchRow,
    RunRow,
    SeatRow,
    SurveyRow,
    WebMatchRow,
    WebSeatRow,
)

MODELS: tuple[str, ...] = ("local/qwen2.5-1.5b-instruct", "local/llama-3.2-3b-instruct", "openai/gpt-4o-mini",
                           "anthropic/claude-3-5-haiku", "openai/gpt-4.1-nano", "mock/player")
GAMES: dict[str, tuple[str, str, dict[str, Any], dict[str, Any]]] = {
    # game: (evaluated seat, other seat, setup, params)
    "akinator": ("guesser", "answerer", {"secret": "a lamp"}, {}),
    "taboo": ("guesser", "clue_giver", {"secret": "otter"}, {"secret_set": "animals"}),
}
RUN_SIZE = 1000
CHUNK = 5000
SCHEMA_VERSION = 1


@dataclass
class Rows:
    """The rows of one batch of matches, per table."""

    runs: list[dict[str, Any]] = field(default_factory=list)
    matches: list[dict[str, Any]] = field(default_factory=list)
    seats: list[dict[str, Any]] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    web: list[dict[str, Any]] = field(default_factory=list)
    web_seats: list[dict[str, Any]] = field(default_factory=list)
    surveys: list[dict[str, Any]] = field(default_factory=list)


def _outcome(rng: random.Random, target: str, other: str) -> Outcome:
    draw = rng.random()
    rounds = rng.randint(2, 20)
    if draw < 0.55:
        return Outcome(status="finished", winners=(target,), reason="seeded: won", rounds=rounds)
    if draw < 0.85:
        return Outcome(status="finished", winners=(other,), reason="seeded: lost", rounds=rounds)
    if draw < 0.95:
        return Outcome(status="forfeit", reason="seeded: forfeit", rounds=rounds, forfeit_seat=target)
    return Outcome(status="aborted", reason="seeded: aborted", rounds=rounds)


def _match(rows: Rows, rng: random.Random, when: datetime, run_id: str | None, index: int | None) -> None:
    game = rng.choice(sorted(GAMES))
    target, other, setup, params = GAMES[game]
    model = rng.choice(MODELS)
    arena = run_id is None
    spec = MatchSpec(game=game, level=1, seed=rng.randrange(2**31), setup=setup, params=params,
                     variants={target: 0, other: 0})
    seats = (SeatAssignment(seat=target, player_kind="llm", model=model, prompt_variant=0, evaluated=True),
             SeatAssignment(seat=other, player_kind="human" if arena else "scripted", prompt_variant=0,
                            evaluated=False))
    outcome = _outcome(rng, target, other)
    match_id = secrets.token_hex(8)
    ended = when + timedelta(seconds=rng.randint(5, 300))
    rows.matches.append({"id": match_id, "run_id": run_id, "match_index": index, "game": game, "level": 1,
                         "seed": spec.seed, "spec": spec.model_dump(mode="json"), "status": "finished",
                         "outcome": outcome.model_dump(mode="json"), "evaluated_model": model, "created_at": when,
                         "ended_at": ended, "stop_reason": None})
    for position, seat in enumerate(seats):
        rows.seats.append({"match_id": match_id, "seat": seat.seat, "position": position,
                           "player_kind": seat.player_kind, "model": seat.model,
                           "prompt_variant": seat.prompt_variant, "evaluated": seat.evaluated})
    for seq, event, at in ((1, MatchStarted(spec=spec, seats=seats), when), (2, MatchEnded(outcome=outcome), ended)):
        rows.events.append({"match_id": match_id, "seq": seq, "type": event.type, "schema_version": SCHEMA_VERSION,
                            "payload": event.model_dump(mode="json"), "created_at": at})
    if not arena:
        return
    rows.web.append({"match_id": match_id, "mode": "play", "anonymous": True, "created_at": when,
                     "lease_owner": None, "lease_until": None, "stand_in": model})
    left = ended if rng.random() < 0.02 else None
    rows.web_seats.append({"match_id": match_id, "seat": other, "token_sha256": secrets.token_hex(32),
                           "joined_at": when, "left_at": left})
    if rng.random() < 0.33:
        rows.surveys.append({"match_id": match_id, "enjoyment": rng.randint(1, 5), "satisfaction": rng.randint(1, 5),
                             "frequency": rng.randint(1, 5), "created_at": ended})


def _batches(total: int, rng: random.Random) -> Iterator[Rows]:
    """Rows for ``total`` matches, a run's worth (plus its arena share) at a time."""
    start = datetime.now(UTC) - timedelta(days=30)
    made = 0
    while made < total:
        rows = Rows()
        run_id = secrets.token_hex(6)
        when = start + timedelta(seconds=made * 20)
        batch = min(RUN_SIZE, total - made)
        in_run = 0
        for _ in range(batch):
            if rng.random() < 0.2:
                _match(rows, rng, when, None, None)
            else:
                _match(rows, rng, when, run_id, in_run)
                in_run += 1
            when += timedelta(seconds=20)
        if in_run:
            rows.runs.append({"id": run_id, "created_at": start + timedelta(seconds=made * 20),
                              "game": "akinator,taboo", "level": 1, "config": {"seeded": True, "matches": in_run},
                              "status": "finished"})
        made += batch
        yield rows


def seed(url: str, total: int, seed_value: int) -> float:
    """Insert ``total`` finished matches into the database at ``url``; the seconds it took."""
    rng = random.Random(seed_value)
    began = time.perf_counter()
    with Store.open(url) as store:
        for rows in _batches(total, rng):
            with store.engine.begin() as connection:
                for table, values in ((RunRow, rows.runs), (MatchRow, rows.matches), (SeatRow, rows.seats),
                                      (EventRow, rows.events), (WebMatchRow, rows.web),
                                      (WebSeatRow, rows.web_seats), (SurveyRow, rows.surveys)):
                    for start in range(0, len(values), CHUNK):
                        connection.execute(insert(table), values[start:start + CHUNK])
    return time.perf_counter() - began


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("db", help="database URL (sqlite:///PATH or postgresql://...)")
    parser.add_argument("--matches", type=int, default=100_000, help="how many finished matches (default 100000)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    args = parser.parse_args(argv)
    if args.matches < 1:
        print("error: --matches must be at least 1", file=sys.stderr)
        return 2
    try:
        seconds = seed(args.db, args.matches, args.seed)
    except StoreUnavailable as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    print(f"seeded {args.matches} finished matches into {args.db} in {seconds:.1f} s "
          f"({args.matches / seconds:,.0f} matches/s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
