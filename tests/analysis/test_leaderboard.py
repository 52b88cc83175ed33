"""The leaderboard: boards kept apart by configuration, Bradley-Terry ratings per board and overall with intervals,
chance beside the rates, copies of a match counted once, people apart, and CK-Arena's team Elo for Undercover.

The Taboo fixture (level 1, one run, the same twelve setups for each player; the guesser is evaluated, the clue
giver scripted): ``mock/a`` wins all 12, ``mock/b`` 3 of 12 (one of its losses its own forfeit) and two more of its
matches are not scored (the clue giver's forfeit, an abort), ``baseline/random`` wins 1 of 12. A person guessed in
two arena matches: won one, left the other (a model finished it).
"""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pytest
from test_undercover_results import SEATS_A, SEATS_B, Log, match_a, match_b

from playeval.analysis.boards import BoardKey, Boards, board_key
from playeval.analysis.bradley_terry import RatedPlayer
from playeval.analysis.intervals import wilson_interval
from playeval.analysis.leaderboard import Leaderboard, load_leaderboard, played_match, ranks, tied_pairs
from playeval.analysis.played import PlayedMatch, PlayedSeat, distinct, match_comparisons
from playeval.core.events import RoleAssignment, SeatAssignment
from playeval.core.match import MatchSpec, Outcome, SeatResult
from playeval.core.registry import default_registry
from playeval.engine import BatchRunner, RunConfig, create_run
from playeval.games.math import MathGame
from playeval.games.undercover import JUDGE
from playeval.models import ModelHub
from playeval.store import Store

RANDOM = "baseline/random"
TABOO_CONFIG = {"games": ["taboo"], "models": ["mock/a", "mock/b", RANDOM], "opponent": "scripted", "n": 12}


def taboo_spec(seed: int) -> MatchSpec:
    return MatchSpec(game="taboo", level=1, seed=seed, setup={"secret": f"word{seed}"},
                     variants={"guesser": 0, "clue_giver": 0}, params={"secret_set": "animals"})


def guesser(model: str | None, *, kind: str = "llm") -> list[SeatAssignment]:
    return [SeatAssignment(seat="guesser", player_kind=kind, model=model, prompt_variant=0, evaluated=True),
            SeatAssignment(seat="clue_giver", player_kind="scripted", prompt_variant=0, evaluated=False)]


def won(winner: str, rounds: int = 3) -> Outcome:
    return Outcome(status="finished", winners=(winner,), reason="fixture", rounds=rounds)


def store_taboo(store: Store, run: str, results: dict[str, list[Outcome]]) -> None:
    index = 0
    for model, outcomes in results.items():
        for seed, outcome in enumerate(outcomes):
            match_id = store.create_match(spec=taboo_spec(seed), seats=guesser(model), run_id=run, match_index=index)
            store.finish_match(match_id, outcome)
            index += 1


def taboo_results() -> dict[str, list[Outcome]]:
    forfeit = Outcome(status="forfeit", reason="fixture", rounds=1, forfeit_seat="guesser")
    return {
        "mock/a": [won("guesser")] * 12,
        "mock/b": [won("guesser")] * 3 + [forfeit] + [won("clue_giver")] * 8
        + [Outcome(status="forfeit", reason="fixture", rounds=1, forfeit_seat="clue_giver"),
           Outcome(status="aborted", reason="fixture", rounds=0)],
        RANDOM: [won("guesser")] + [won("clue_giver")] * 11,
    }


@pytest.fixture
def taboo_db(tmp_path: Path) -> tuple[str, str]:
    url = f"sqlite:///{tmp_path / 'board.db'}"
    with Store.open(url) as store:
        run = store.create_run("taboo", 1, TABOO_CONFIG)
        store_taboo(store, run, taboo_results())
        for leave in (False, True):
            match_id = store.create_web_match(spec=taboo_spec(40 + leave), seats=guesser(None, kind="human"),
                                              mode="play", people={"guesser": ("ab" if leave else "cd") * 32},
                                              joined=("guesser",), anonymous=True)
            if leave:
                store.leave_seat(match_id, "guesser")
            store.finish_match(match_id, won("guesser"))
    return url, run


def board_of(url: str, runs: list[str] | None = None, resamples: int = 60) -> Leaderboard:
    with Store.open(url) as store:
        return load_leaderboard(store, default_registry(), runs, resamples=resamples, seed=1)


def test_a_single_seat_board_rates_models_against_the_game_and_keeps_baselines_and_the_game_apart(
        taboo_db: tuple[str, str]) -> None:
    url, _ = taboo_db
    board = board_of(url)
    [taboo] = board.boards
    assert taboo.name == "taboo L1"  # the level's default word list is not named
    assert [row.player for row in taboo.ratings] == ["mock/a", "mock/b"]
    assert [row.player for row in taboo.baseline_ratings] == [RANDOM]
    a, b = taboo.ratings
    assert (a.rating + b.rating) / 2 == pytest.approx(1000.0)  # anchored on the models, not the baseline
    assert a.low <= a.rating <= a.high and b.low <= b.rating <= b.high
    assert (a.matches, b.matches, taboo.baseline_ratings[0].matches) == (12, 12, 12)  # unscored matches left out
    assert not a.overlaps(b) and tied_pairs(taboo.ratings) == []
    assert b.rating > taboo.baseline_ratings[0].rating
    assert all(not row.player.startswith("game:") for row in (*taboo.ratings, *taboo.baseline_ratings))
    assert [row.player for row in board.overall] == ["mock/a", "mock/b"]
    assert [row.player for row in board.overall_baselines] == [RANDOM]


def test_win_rates_sit_beside_the_random_baseline_s_and_a_model_at_chance_is_marked(
        taboo_db: tuple[str, str]) -> None:
    url, _ = taboo_db
    [taboo] = board_of(url).boards
    rates = {row.player: row for row in taboo.rates}
    assert [row.player for row in taboo.rates] == ["mock/a", "mock/b", RANDOM]  # best rate first
    assert (rates["mock/b"].rate, rates["mock/b"].n) == (0.25, 12)  # its own forfeit is a loss; 2 not scored
    assert (rates["mock/b"].low, rates["mock/b"].high) == wilson_interval(3, 12)
    assert (rates[RANDOM].rate, rates[RANDOM].n) == (pytest.approx(1 / 12), 12)
    assert not rates["mock/a"].clustered and rates["mock/a"].low > rates[RANDOM].high
    assert taboo.not_above_chance == ("mock/b",)


def test_people_are_a_row_apart_pooled_per_seat_and_a_left_seat_counts_for_nobody(
        taboo_db: tuple[str, str]) -> None:
    url, _ = taboo_db
    board = board_of(url)
    [taboo] = board.boards
    [people] = taboo.people
    assert (people.label, people.seat, people.n, people.rate) == ("people, arena", "guesser", 1, 1.0)
    assert (people.low, people.high) == wilson_interval(1, 1)
    assert "people, arena" not in {row.player for row in taboo.rates}


def test_the_same_setups_played_again_by_another_run_count_once(taboo_db: tuple[str, str]) -> None:
    url, first = taboo_db
    once = board_of(url)
    with Store.open(url) as store:
        second = store.create_run("taboo", 1, TABOO_CONFIG)
        store_taboo(store, second, taboo_results())
        third = store.create_run("taboo", 1, {**TABOO_CONFIG, "temperature": 0.7})  # not the same match: kept
        store_taboo(store, third, {"mock/a": [won("clue_giver")] * 12})
    again = board_of(url, [first, second])
    assert again.copies == 38 and again.boards[0].matches == once.boards[0].matches
    assert again.to_json()["games"] == once.to_json()["games"]
    hotter = board_of(url)
    assert hotter.copies == 38
    assert hotter.boards[0].rate_of("mock/a").n == 24  # type: ignore[union-attr]


def test_configurations_are_boards_of_their_own(tmp_path: Path) -> None:
    game = MathGame()
    url = f"sqlite:///{tmp_path / 'math.db'}"
    lost = Outcome(status="finished", reason="fixture", rounds=3, results=(SeatResult(seat="player", won=False),))
    with Store.open(url) as store:
        recorded = store.create_run("math", 1, {"games": ["math"], "models": ["mock/a"], "opponent": "scripted",
                                                "n": 2, "options": {"math": {"max_turns": "10"}}})
        plain = store.create_run("math", 1, {"n": 2})
        for index in range(2):
            seat = [SeatAssignment(seat="player", player_kind="llm", model="mock/a", evaluated=True)]
            short = game.new_spec(1, index, random.Random(index), options={"max_turns": 10})
            default = game.new_spec(2, index, random.Random(index))
            for run, spec, outcome in ((recorded, short, won("player")), (plain, short, lost),
                                       (plain, default, won("player"))):
                store.finish_match(store.create_match(spec=spec, seats=seat, run_id=run, match_index=index
                                                      + (2 if spec is default else 0)), outcome)
    board = board_of(url)
    names = {b.name: b for b in board.boards}
    assert set(names) == {"math L1 [max_turns=10]", "math L2"}
    # the run's recorded choice and a spec holding the same value are one configuration
    short = names["math L1 [max_turns=10]"]
    assert short.matches == 4 and short.rate_of("mock/a").rate == 0.5  # type: ignore[union-attr]
    assert names["math L2"].rate_of("mock/a").rate == 1.0  # type: ignore[union-attr]
    assert [row.player for row in board.overall] == ["mock/a"]


def test_boards_that_differ_only_in_their_judges_name_them() -> None:
    registry = default_registry()
    akinator = registry.get("akinator")
    boards = Boards(registry)
    one = board_key(akinator, level=1, params={"secret_set": "set2"},
                    roles=[RoleAssignment(role="judge", player_kind="llm", model="mock/j")])
    other = board_key(akinator, level=1, params={"secret_set": "set2"},
                      roles=[RoleAssignment(role="judge", player_kind="llm", model="mock/k")],
                      calibrated=("mock/k",))
    alone = boards.names([one])
    assert alone == {one: "akinator L1 [set=set2]"}
    both = boards.names([one, other])
    assert both == {one: "akinator L1 [set=set2, judge=mock/j]",
                    other: "akinator L1 [set=set2, judge=mock/k (calibrated)]"}
    assert boards.names([BoardKey(game="akinator", level=2, secret_set="everyday")]) == {
        BoardKey(game="akinator", level=2, secret_set="everyday"): "akinator L2"}


def _undercover(store: Store, run: str, index: int, log: Log, models: dict[str, str]) -> None:
    seats = [SeatAssignment(seat=seat, player_kind="llm", model=model, evaluated=True)
             for seat, model in models.items()]
    match_id = store.create_match(spec=log.spec, seats=seats, run_id=run, match_index=index,
                                  roles=[RoleAssignment(role=JUDGE, player_kind="scripted")])
    for event in log.events:
        store.append_event(match_id, event)
    outcome = default_registry().get("undercover").outcome(log.state)
    assert outcome is not None
    store.finish_match(match_id, outcome)


def test_a_table_compares_seats_of_opposite_teams_and_undercover_keeps_its_team_elo(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'u.db'}"
    with Store.open(url) as store:
        run = store.create_run("undercover", 1, {})
        _undercover(store, run, 0, match_a(), SEATS_A)
        _undercover(store, run, 1, match_b(), SEATS_B)
        records = store.run_matches(run)
    board = board_of(url, resamples=40)
    # match B was played with other options (five players, one round): a board of its own
    assert [b.name for b in board.boards] == ["undercover [max_rounds=1, players=5, undercover=1]",
                                              "undercover [players=4, undercover=1]"]
    first = board.boards[1]
    # match A: the civilians (mock/a twice, mock/b once) beat mock/b's undercover agent; mock/b's civilian seat
    # faces its own model, no comparison: two pairs sharing the match's weight
    a, b = first.rate_of("mock/a"), first.rate_of("mock/b")
    assert a is not None and b is not None
    assert (a.rate, a.seats, a.n, a.clustered) == (1.0, 2, 1, True) and (b.rate, b.seats) == (0.5, 2)
    assert [row.player for row in first.ratings] == ["mock/a", "mock/b"]
    assert {row.model for row in first.team_elo} == {"mock/a", "mock/b"}
    played = played_match(records[0], default_registry().get("undercover"), run_config=None)
    found = match_comparisons(played, "u")
    assert found is not None
    assert sorted((c.first, c.second, c.score, c.weight) for c in found.comparisons) == [
        ("mock/a", "mock/b", 1.0, 0.5), ("mock/a", "mock/b", 1.0, 0.5)]


def test_a_table_pair_with_a_scripted_seat_faces_the_game_and_a_forfeit_is_a_loss_to_the_other_seat() -> None:
    key = BoardKey(game="council", level=1)
    seats = (PlayedSeat("north", "llm", "mock/a", True), PlayedSeat("east", "scripted", None, True),
             PlayedSeat("south", "human", None, True), PlayedSeat("west", "llm", "mock/b", True))
    results = tuple(SeatResult(seat=seat, team=team, won=team == "red")
                    for seat, team in (("north", "red"), ("south", "red"), ("east", "blue"), ("west", "blue")))
    finished = PlayedMatch(id="m1", board=key, seats=seats, source="r", copy=None, order=("", "m1"),
                           outcome=Outcome(status="finished", winning_team="red", winners=("north", "south"),
                                           reason="r", rounds=2, results=results))
    found = match_comparisons(finished, "council")
    assert found is not None
    assert sorted((c.first, c.second, c.score) for c in found.comparisons) == [
        ("mock/a", "game:council", 1.0), ("mock/a", "mock/b", 1.0)]  # people's seats compare with nobody
    forfeit = PlayedMatch(id="m2", board=key, seats=seats, source="r", copy=None, order=("", "m2"),
                          outcome=Outcome(status="forfeit", reason="r", rounds=1, forfeit_seat="west"))
    found = match_comparisons(forfeit, "council")
    assert found is not None
    # an outcome without per-seat results names no teams: each seat is a side, and west's forfeit is its loss to
    # every seat it faced (the others are not scored, so they face nobody else)
    assert sorted((c.first, c.second, c.score, c.weight) for c in found.comparisons) == [
        ("game:council", "mock/b", 1.0, 0.5), ("mock/a", "mock/b", 1.0, 0.5)]
    assert match_comparisons(PlayedMatch(id="m3", board=key, seats=seats, source="r", copy=None, order=("", "m3"),
                                         outcome=Outcome(status="aborted", reason="r", rounds=0)), "c") is None


def test_copies_keep_the_first_source_and_a_run_s_own_matches_are_never_copies() -> None:
    key = BoardKey(game="taboo", level=1)
    seats = (PlayedSeat("guesser", "llm", "mock/a", True),)
    outcome = won("guesser")

    def match(match_id: str, source: str, order: str, copy: str | None) -> PlayedMatch:
        return PlayedMatch(id=match_id, board=key, outcome=outcome, seats=seats, source=source, copy=copy,
                           order=(order, match_id))

    found, copies = distinct([match("late", "r2", "2", "x"), match("one", "r1", "1", "x"), match("two", "r1", "1", "x"),
                              match("person", "match:p", "0", None), match("other", "r2", "3", "y")])
    assert [m.id for m in found] == ["person", "one", "two", "other"] and copies == 1


def test_players_that_cannot_be_told_apart_share_a_rank() -> None:
    table = (RatedPlayer("a", 1100, 1050, 1150, 5), RatedPlayer("b", 1040, 990, 1060, 5),
             RatedPlayer("c", 900, 850, 1000, 5))
    assert ranks(table) == {"a": (1, True), "b": (1, True), "c": (2, True)}
    assert tied_pairs(table) == [("a", "b"), ("b", "c")]


def test_the_json_has_the_documented_shape_best_first(taboo_db: tuple[str, str]) -> None:
    url, _ = taboo_db
    data = json.loads(json.dumps(board_of(url).to_json()))
    assert {"overall", "games", "baselines"} <= set(data)
    assert [set(row) for row in data["overall"]] == [{"model", "rating", "low", "high", "matches"}] * 2
    assert [row["model"] for row in data["games"]["taboo L1"]] == ["mock/a", "mock/b"]
    # "baselines": the baseline players' rates alone; "rates": every player's, models included
    assert [set(row) for row in data["baselines"]["taboo L1"]] == [{"player", "rate", "low", "high", "n"}]
    assert [set(row) for row in data["rates"]["taboo L1"]] == [{"player", "rate", "low", "high", "n"}] * 3
    ratings = [row["rating"] for row in data["overall"]]
    assert ratings == sorted(ratings, reverse=True)
    assert data["not_above_chance"] == {"taboo L1": ["mock/b"]}
    assert data["people"]["taboo L1"][0]["player"] == "people, arena"


async def _run_twice(url: str) -> list[str]:
    registry = default_registry()
    config = RunConfig(games=("taboo",), models=("mock/player", "mock/yes"), opponent="scripted", n=3, seed=5)
    runs: list[str] = []
    for _ in range(2):
        with Store.open(url) as store:
            run_id = create_run(store, registry, config)
            async with ModelHub() as hub:  # the second run's replies come from the response cache
                await BatchRunner(store, hub, registry).run(run_id)
        runs.append(run_id)
    return runs


def test_a_seeded_run_played_twice_counts_once(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'twice.db'}"
    runs = asyncio.run(_run_twice(url))
    with Store.open(url) as store:
        played = sum(len(store.run_matches(run)) for run in runs)
    both, first = board_of(url, resamples=20), board_of(url, runs[:1], resamples=20)
    assert played == 12 and both.copies == 6 and first.copies == 0
    assert both.to_json()["games"] == first.to_json()["games"]
    assert sum(board.matches for board in both.boards) == 6


def test_a_board_says_how_many_matches_were_not_scored_and_why() -> None:
    from playeval.analysis.leaderboard import _unscored
    from playeval.analysis.played import PlayedSeat
    from playeval.core.match import Outcome

    def match(status: str, reason: str, forfeit: str | None = None) -> Any:
        seats = (PlayedSeat(seat="player", kind="llm", model="mock/a", evaluated=True),)
        outcome = Outcome(status=status, reason=reason, rounds=1, forfeit_seat=forfeit)  # type: ignore[arg-type]
        return type("Played", (), {"evaluated": seats, "outcome": outcome})()

    counted = _unscored([match("aborted", "the game master gave no usable rule"),
                         match("aborted", "the game master gave no usable rule"),
                         match("finished", "won")])
    assert counted and counted[0][1] == 2
