"""Akinator games per second with instant scripted players: the engine's own overhead.

Both seats are scripted (a list guesser against an oracle answerer), so no
model runs and every second measured is spent in the rules, the game-master
loop and, for the persisted case, the store. Prints games/s and events/s.

    python bench/akinator_throughput.py [--games N] [--db URL]
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

from playeval.core.events import SeatAssignment
from playeval.core.rng import derive_seed, match_rng
from playeval.engine import MemoryRecorder, Recorder, play_match
from playeval.games.akinator import ANSWERER, GUESSER, Akinator
from playeval.players import Player
from playeval.store import Store


async def play_games(recorder: Recorder, games: int) -> tuple[float, int]:
    game = Akinator()
    started = time.perf_counter()
    rounds = 0
    for number in range(games):
        seed = derive_seed("bench", number)
        spec = game.new_spec(1, seed, match_rng(seed))
        parties = [seat.name for seat in game.seats] + [role.name for role in game.roles]
        players: dict[str, Player | None] = {party: game.scripted_player(party, spec) for party in parties}
        seats = [SeatAssignment(seat=name, player_kind="scripted") for name in (GUESSER, ANSWERER)]
        match_id = recorder.create_match(spec=spec, seats=seats)
        outcome = await play_match(game, spec, players, recorder, match_id)
        rounds += outcome.rounds
    return time.perf_counter() - started, rounds


def report(label: str, games: int, seconds: float, rounds: int) -> None:
    # Per round: ask+reply+action for the guesser, and for the judge unless the rules confirmed the guess.
    print(f"{label:<22} {games:>6} games  {seconds:8.3f} s  {games / seconds:10.1f} games/s  "
          f"{rounds / games:5.1f} rounds/game")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--db", default=None, help="database URL for the persisted case (default: a temp SQLite)")
    args = parser.parse_args()

    memory = MemoryRecorder()
    seconds, rounds = asyncio.run(play_games(memory, args.games))
    events = sum(len(log) for log in memory.events.values())
    report("in memory", args.games, seconds, rounds)
    print(f"{'':<22} {events / seconds:10.0f} events/s ({events} events)")

    with tempfile.TemporaryDirectory() as tmp:
        url = args.db or f"sqlite:///{Path(tmp) / 'bench.db'}"
        with Store.open(url) as store:
            seconds, rounds = asyncio.run(play_games(store, args.games))
        report("persisted (" + url.split(":", 1)[0] + ")", args.games, seconds, rounds)
        print(f"{'':<22} {events / seconds:10.0f} events/s (same event count)")


if __name__ == "__main__":
    main()
