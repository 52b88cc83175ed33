"""The arena's leaderboard as issue 21 asks: one seeded match played by two runs counts once (the second run's
replies came from the response cache), runs with another configuration are a board of their own, and every board
shows its ratings with intervals, the baselines beside the models and the people's row apart.

The fixture: a Taboo run (level 1, its level's word list) of twelve setups: ``mock/a`` wins all, ``mock/b`` three,
``baseline/random`` one; the same run again; a run on the food words (another board) where ``mock/a`` loses all; a
person who guessed once in the arena."""

from __future__ import annotations

from pathlib import Path

import pytest

from playeval.core.events import SeatAssignment
from playeval.core.match import MatchSpec, Outcome
from playeval.core.registry import default_registry
from playeval.store import Store
from playeval.web.board import leaderboard
from playeval.web.board_state import BoardState
from playeval.web.views import LeaderboardView

RANDOM = "baseline/random"
CONFIG = {"games": ["taboo"], "models": ["mock/a", "mock/b", RANDOM], "opponent": "scripted", "n": 12}
WINS = {"mock/a": 12, "mock/b": 3, RANDOM: 1}


def _spec(seed: int, words: str = "animals") -> MatchSpec:
    return MatchSpec(game="taboo", level=1, seed=seed, setup={"secret": f"word{seed}"},
                     variants={"guesser": 0, "clue_giver": 0}, params={"secret_set": words})


def _seats(model: str | None, kind: str = "llm") -> list[SeatAssignment]:
    return [SeatAssignment(seat="guesser", player_kind=kind, model=model, prompt_variant=0, evaluated=True),
            SeatAssignment(seat="clue_giver", player_kind="scripted", prompt_variant=0, evaluated=False)]


def _won(winner: str) -> Outcome:
    return Outcome(status="finished", winners=(winner,), reason="fixture", rounds=3)


def _run(store: Store, wins: dict[str, int], words: str = "animals") -> str:
    run = store.create_run("taboo", 1, {**CONFIG, "secret_sets": {"taboo": words}})
    index = 0
    for model, won in wins.items():
        for seed in range(12):
            match_id = store.create_match(spec=_spec(seed, words), seats=_seats(model), run_id=run, match_index=index)
            store.finish_match(match_id, _won("guesser" if seed < won else "clue_giver"))
            index += 1
    return run


@pytest.fixture
def db(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'arena.db'}"
    with Store.open(url) as store:
        _run(store, WINS)
        _run(store, WINS)
        _run(store, {"mock/a": 0}, "food")
        person = store.create_web_match(spec=_spec(99), seats=_seats(None, "human"), mode="play",
                                        people={"guesser": "ab" * 32}, joined=("guesser",), anonymous=True)
        store.finish_match(person, _won("guesser"))
    return url


def _view(url: str, game: str = "taboo", source: str = "all") -> LeaderboardView:
    with Store.open(url) as store:
        return leaderboard(store, default_registry(), game=game, source=source)  # type: ignore[arg-type]


def test_a_seeded_match_played_by_two_runs_counts_once(db: str) -> None:
    view = _view(db, source="batch")
    rows = {(row.board, row.model): (row.matches, row.wins) for row in view.rows}
    assert rows == {("taboo L1", "mock/a"): (12, 12), ("taboo L1", "mock/b"): (12, 3), ("taboo L1", RANDOM): (12, 1),
                    ("taboo L1 [set=food]", "mock/a"): (12, 0)}
    assert view.copies == 36
    overall = _view(db, game="all", source="batch")
    assert {row.model: row.matches for row in overall.rows} == {"mock/a": 24, "mock/b": 12, RANDOM: 12}


def test_each_board_shows_ratings_with_intervals_baselines_chance_and_people(db: str) -> None:
    view = _view(db)
    boards = {board.board: board for board in view.boards}
    assert list(boards) == ["taboo L1", "taboo L1 [set=food]"]
    animals = boards["taboo L1"]
    assert [(row.model, row.rank, row.tied) for row in animals.ratings] == [("mock/a", 1, False),
                                                                            ("mock/b", 2, False)]
    assert all(row.low <= row.rating <= row.high and row.matches == 12 for row in animals.ratings)
    assert [row.model for row in animals.baselines] == [RANDOM]
    rates = {row.player: row for row in animals.rates}
    assert rates["mock/b"].not_above_chance and not rates["mock/a"].not_above_chance
    assert rates[RANDOM].baseline and not rates["mock/a"].baseline and rates["mock/b"].n == 12
    [people] = animals.people
    assert (people.label, people.seat, people.n, people.rate) == ("people, arena", "guesser", 1, 1.0)
    assert boards["taboo L1 [set=food]"].people == []
    assert [row.model for row in view.overall] == ["mock/a", "mock/b"] and view.overall_baselines[0].model == RANDOM
    assert any("bootstrap" in note for note in view.notes)
    batch = _view(db, source="batch")  # the runs' matches rate the models; people's row is the arena's all the same
    assert {board.board: [person.n for person in board.people] for board in batch.boards} == {
        "taboo L1": [1], "taboo L1 [set=food]": []}


def test_the_kept_board_settles_copies_as_they_come_and_go(tmp_path: Path) -> None:
    registry = default_registry()
    with Store.open(f"sqlite:///{tmp_path / 'copies.db'}") as store:
        kept = BoardState(store, registry)

        def same() -> LeaderboardView:
            found = kept.leaderboard("taboo", "all")
            assert found == leaderboard(store, registry, game="taboo", source="all")
            return found

        first = store.create_run("taboo", 1, CONFIG)
        earlier = store.create_match(spec=_spec(1), seats=_seats("mock/a"), run_id=first, match_index=0)
        second = store.create_run("taboo", 1, CONFIG)
        later = store.create_match(spec=_spec(1), seats=_seats("mock/a"), run_id=second, match_index=0)
        store.finish_match(later, _won("clue_giver"))  # the second run's copy ends first: it counts for now
        assert [(row.wins, row.matches) for row in same().rows] == [(0, 1)]
        store.finish_match(earlier, _won("guesser"))  # the first run's match ends: it counts, the copy does not
        view = same()
        assert [(row.wins, row.matches) for row in view.rows] == [(1, 1)] and view.copies == 1
