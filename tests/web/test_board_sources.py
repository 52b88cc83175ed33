"""Which matches the arena's leaderboard counts, and how it reads each model against chance.

* By default the models' ratings and win rates count the runs' matches, the ones ``playeval leaderboard`` rates:
  a model's matches against people or watched in the arena are another population of opponents, counted only when
  asked for (``source=live`` or ``all``), and every view says which it counts. People's rows are the arena's
  whatever the source.
* A model's rate is marked against the random baseline's as ``playeval results`` marks it: above chance, not above
  chance (the intervals overlap) or below chance (wholly below), not only "not above chance" on overlap.

The fixture: a Taboo run of twelve setups, ``mock/top`` wins all, ``mock/mid`` eight, ``mock/low`` none and the
random baseline six; in the arena a person gives clues to ``mock/top``, which loses all three, and ``mock/watched``
plays three matches outside runs (no person).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from playeval.analysis.bradley_terry import RatedPlayer
from playeval.analysis.chance import ABOVE, BELOW, NOT_ABOVE, interval_verdict
from playeval.analysis.leaderboard import load_leaderboard
from playeval.core.events import SeatAssignment
from playeval.core.match import MatchSpec, Outcome
from playeval.core.registry import default_registry
from playeval.store import Store
from playeval.web.board import leaderboard
from playeval.web.board_state import WEB_RESAMPLES
from playeval.web.views import LeaderboardView, RatingRow

RANDOM = "baseline/random"
WINS = {"mock/top": 12, "mock/mid": 8, "mock/low": 0, RANDOM: 6}
CONFIG = {"games": ["taboo"], "models": list(WINS), "opponent": "scripted", "n": 12}


def _spec(seed: int) -> MatchSpec:
    return MatchSpec(game="taboo", level=1, seed=seed, setup={"secret": f"word{seed}"},
                     variants={"guesser": 0, "clue_giver": 0}, params={"secret_set": "animals"})


def _seats(model: str, clue_giver: str = "scripted") -> list[SeatAssignment]:
    return [SeatAssignment(seat="guesser", player_kind="llm", model=model, prompt_variant=0, evaluated=True),
            SeatAssignment(seat="clue_giver", player_kind=clue_giver, prompt_variant=0, evaluated=False)]


def _ended(winner: str) -> Outcome:
    return Outcome(status="finished", winners=(winner,), reason="fixture", rounds=3)


@pytest.fixture
def db(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'arena.db'}"
    with Store.open(url) as store:
        run = store.create_run("taboo", 1, CONFIG)
        index = 0
        for model, won in WINS.items():
            for seed in range(12):
                match_id = store.create_match(spec=_spec(seed), seats=_seats(model), run_id=run, match_index=index)
                store.finish_match(match_id, _ended("guesser" if seed < won else "clue_giver"))
                index += 1
        for seed in range(3):
            person = store.create_web_match(spec=_spec(100 + seed), seats=_seats("mock/top", "human"), mode="play",
                                            people={"clue_giver": f"{seed:02d}" * 32}, joined=("clue_giver",),
                                            anonymous=True)
            store.finish_match(person, _ended("clue_giver"))
            watched = store.create_match(spec=_spec(200 + seed), seats=_seats("mock/watched"))
            store.finish_match(watched, _ended("guesser"))
    return url


def _views(url: str, **sources: str) -> dict[str, LeaderboardView]:
    with Store.open(url, write=False) as store:
        return {name: leaderboard(store, default_registry(), game="taboo", source=source)  # type: ignore[arg-type]
                for name, source in sources.items()}


def test_by_default_the_models_count_the_run_matches_playeval_leaderboard_rates(db: str) -> None:
    with Store.open(db, write=False) as store:
        default = leaderboard(store, default_registry(), game="taboo")
        command_line = load_leaderboard(store, default_registry(), resamples=WEB_RESAMPLES)
    views = _views(db, runs="batch", arena="live", both="all")
    assert default == views["runs"] and default.source == "batch" and default.counted == "run matches"
    assert default.notes[0].startswith("models' ratings and win rates count the matches of batch runs")

    def shown(rows: Sequence[RatingRow]) -> list[tuple[str, float, float, float, int]]:
        return [(row.model, round(row.rating, 9), round(row.low, 9), round(row.high, 9), row.matches) for row in rows]

    def rated(rows: Sequence[RatedPlayer]) -> list[tuple[str, float, float, float, int]]:
        return [(row.player, round(row.rating, 9), round(row.low, 9), round(row.high, 9), row.matches) for row in rows]

    # the same matches as the command line: the same ratings, rates and people's rows, board by board
    assert shown(default.overall) == rated(command_line.overall)
    assert [board.board for board in default.boards] == [board.name for board in command_line.boards]
    for board, expected in zip(default.boards, command_line.boards, strict=True):
        assert shown(board.ratings) == rated(expected.ratings)
        assert [(row.player, row.rate, row.n) for row in board.rates] == [
            (row.player, row.rate, row.n) for row in expected.rates]
        assert [(row.label, row.seat, row.n, row.rate) for row in board.people] == [
            (row.label, row.seat, row.n, row.rate) for row in expected.people]
    rows = {row.model: row for row in default.rows}
    assert "mock/watched" not in rows and (rows["mock/top"].matches, rows["mock/top"].wins) == (12, 12)
    assert [(person.seat, person.matches, person.wins) for person in default.people] == [("clue_giver", 3, 3)]

    # the arena's matches only where asked for, and said so
    arena = {row.model: row for row in views["arena"].rows}
    assert set(arena) == {"mock/top", "mock/watched"} and views["arena"].counted == "arena matches"
    assert (arena["mock/top"].matches, arena["mock/top"].wins) == (3, 0)
    # pooled, the run's matches (a scripted clue-giver) and the arena's (a person giving clues) stay two boards
    both = {(row.model, row.board): row for row in views["both"].rows}
    top = sorted((row.matches, row.wins) for (model, _), row in both.items() if model == "mock/top")
    assert top == [(3, 0), (12, 12)]
    assert views["both"].counted == "run and arena matches"
    assert all(view.people == default.people for view in views.values())


def test_each_model_is_read_above_not_above_or_below_chance_as_results_reads_it(db: str) -> None:
    view = _views(db, runs="batch")["runs"]
    [board] = [board for board in view.boards if board.rates]  # the other is the people's (a person's clues)
    rates = {row.player: row for row in board.rates}
    chance = rates[RANDOM]
    assert (chance.chance, chance.not_above_chance) == (None, False)  # a baseline has no verdict
    verdicts = {player: (row.chance, row.not_above_chance) for player, row in rates.items() if player != RANDOM}
    assert verdicts == {"mock/top": (ABOVE, False), "mock/mid": (NOT_ABOVE, True), "mock/low": (BELOW, True)}
    for player, row in rates.items():
        if player != RANDOM:
            assert row.chance == interval_verdict((row.low, row.high), (chance.low, chance.high))
    assert any(BELOW in note and ABOVE in note for note in view.notes)
