"""The leaderboard, statistics, plot and export, against a small database whose numbers are worked out by hand.

The fixture:

* batch run, akinator, ``mock/a`` as guesser: B1 win in 5, B2 loss in 20, B3 ``mock/a`` forfeits in 3,
  B4 the answerer forfeits (left out of the win rate); B1 has retrospective lists
  ``[cat, lamp]`` then ``[chair, dog]`` for the secret "a lamp";
* batch run, taboo, ``mock/b`` as guesser: two wins in 2 and 4 rounds;
* arena, akinator, a person answering ``mock/a``: P1 the person wins in 20, P2 abandoned after 2 (both surveyed),
  P3 taboo still live.

Leaderboards of tables with several evaluated seats and teams (Council) are checked in
``tests/testgame/test_council_analysis.py``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from arena_client import make_settings, running

from playeval.core.events import SeatAssignment
from playeval.core.match import MatchSpec, Outcome, OutcomeStatus
from playeval.core.registry import default_registry
from playeval.store import Store
from playeval.web.board import leaderboard, plot_png, stats, wilson_interval
from playeval.web.views import LeaderboardView, ModelRow, PeopleRow

AKI = MatchSpec(game="akinator", level=1, seed=1, setup={"secret": "a lamp"}, variants={"guesser": 0, "answerer": 0})
TABOO = MatchSpec(game="taboo", level=1, seed=2, setup={"secret": "otter"}, variants={"guesser": 1, "clue_giver": 0},
                  params={"secret_set": "animals"})
TOKEN = "c0ffee" * 10 + "abcd"


def _seats(game: str, model: str, human: bool) -> list[SeatAssignment]:
    target, other = ("guesser", "answerer") if game == "akinator" else ("guesser", "clue_giver")
    return [SeatAssignment(seat=target, player_kind="llm", model=model, prompt_variant=0, evaluated=True),
            SeatAssignment(seat=other, player_kind="human" if human else "scripted", prompt_variant=0,
                           evaluated=False)]


def _ended(status: OutcomeStatus, winner: str | None, rounds: int, forfeit_seat: str | None = None) -> Outcome:
    return Outcome(status=status, winners=() if winner is None else (winner,), reason="fixture", rounds=rounds,
                   forfeit_seat=forfeit_seat)


@pytest.fixture
def db(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'arena.db'}"
    with Store.open(url) as store:
        run = store.create_run("akinator,taboo", 1, {"n": 2})
        batch = [(AKI, "mock/a", _ended("finished", "guesser", 5)),
                 (AKI, "mock/a", _ended("finished", "answerer", 20)),
                 (AKI, "mock/a", _ended("forfeit", None, 3, "guesser")),
                 (AKI, "mock/a", _ended("forfeit", None, 2, "answerer")),
                 (TABOO, "mock/b", _ended("finished", "guesser", 2)),
                 (TABOO, "mock/b", _ended("finished", "guesser", 4))]
        for index, (spec, model, outcome) in enumerate(batch):
            match_id = store.create_match(spec=spec, seats=_seats(spec.game, model, False), run_id=run,
                                          match_index=index)
            store.finish_match(match_id, outcome)
            if index == 0:
                for round_, names in ((1, ["cat", "lamp"]), (2, ["chair", "dog"])):
                    store.add_retro(match_id, round_, "candidates", model, output=names, error=None, calls=())
        for outcome, survey in ((_ended("finished", "answerer", 20), (5, 4, 3)),
                                (_ended("aborted", None, 2), (2, 4, 1))):
            match_id = store.create_web_match(spec=AKI, seats=_seats("akinator", "mock/a", True), mode="play",
                                              people={"answerer": TOKEN}, joined=("answerer",), anonymous=True)
            store.finish_match(match_id, outcome)
            store.add_survey(match_id, enjoyment=survey[0], satisfaction=survey[1], frequency=survey[2])
        store.create_web_match(spec=TABOO, seats=_seats("taboo", "mock/player", True), mode="play",
                               people={"clue_giver": "d00d" * 16}, joined=("clue_giver",), anonymous=False)
    return url


def test_wilson_interval_matches_known_values() -> None:
    assert wilson_interval(0, 0) == (None, None)
    low, high = wilson_interval(1, 3)
    assert (round(low or 0, 4), round(high or 0, 4)) == (0.0615, 0.7923)
    low, high = wilson_interval(1, 4)
    assert (round(low or 0, 4), round(high or 0, 4)) == (0.0456, 0.6994)
    low, high = wilson_interval(2, 2)
    assert (round(low or 0, 4), high) == (0.3424, 1.0)
    # the formula's lower bound for 0 of 3 is 5.6e-17 in floating point: past the rate, a negative error bar
    assert wilson_interval(0, 3)[0] == 0.0 and wilson_interval(0, 6)[0] == 0.0 and wilson_interval(7, 7)[1] == 1.0
    for wins, n in ((0, 1), (0, 3), (5, 13), (13, 13)):
        low, high = wilson_interval(wins, n)
        assert low is not None and high is not None and low <= wins / n <= high
    with pytest.raises(ValueError):
        wilson_interval(3, 2)


def test_leaderboard_numbers(db: str) -> None:
    registry = default_registry()
    with Store.open(db) as store:
        board = leaderboard(store, registry, game="akinator", source="all")
        batch = leaderboard(store, registry, game="akinator", source="batch")
        live = leaderboard(store, registry, game="akinator", source="live")
        overall = leaderboard(store, registry, source="all")
        default = leaderboard(store, registry, game="akinator")
        taboo = leaderboard(store, registry, game="taboo")

    # pooled, the run's matches (a scripted answerer) and the arena's (a person answering) are still two boards:
    # who holds the seat a game does not evaluate is part of the configuration
    rows = {row.board: row for row in board.rows}
    assert set(rows) == {"akinator L1 [answerer seat=scripted]", "akinator L1 [answerer seat=human]"}
    row = rows["akinator L1 [answerer seat=scripted]"]
    assert (row.model, row.matches, row.scored, row.wins, row.forfeits) == ("mock/a", 4, 3, 1, 1)
    assert row.avg_rounds == 12.5
    assert (round(row.ci_low or 0, 4), round(row.ci_high or 0, 4)) == (0.0615, 0.7923)
    assert row.metrics["recall_rate"] == 0.5 and row.metrics["top5_recall_rate"] == 0.5
    assert row.metrics["first_appear_round"] == 1.0 and row.metrics["final_rank"] is None
    arena = rows["akinator L1 [answerer seat=human]"]
    assert (arena.matches, arena.scored, arena.wins, arena.avg_rounds) == (2, 1, 0, 20.0)
    [person] = board.people
    assert person.model_dump() == {"game": "akinator", "board": "akinator L1 [answerer seat=human]",
                                   "seat": "answerer", "matches": 2,
                                   "scored": 1, "wins": 1,
                                   "win_rate": 1.0, "ci_low": pytest.approx(0.2065, abs=1e-4), "ci_high": 1.0,
                                   "avg_rounds": 20.0, "abandoned": 1, "n": 1, "clustered": False}

    [row] = batch.rows
    assert (row.matches, row.scored, row.wins, round(row.win_rate or 0, 4)) == (4, 3, 1, 0.3333)
    assert (round(row.ci_low or 0, 4), round(row.ci_high or 0, 4)) == (0.0615, 0.7923)
    assert row.avg_rounds == 12.5
    # the default counts the runs' matches, as `playeval leaderboard`; people's rows are the arena's whatever the
    # source, and every view says which matches its models count
    def people(view: Any) -> list[dict[str, Any]]:  # a board's name says only what tells it from the others shown
        return [row.model_dump(exclude={"board"}) for row in view.people]

    assert default == batch and people(batch) == people(board) == people(live)
    assert (batch.counted, live.counted, board.counted) == ("run matches", "arena matches", "run and arena matches")
    assert any(note.startswith("models' ratings and win rates count the matches of batch runs") for note in batch.notes)

    [row] = live.rows
    assert (row.matches, row.scored, row.wins, row.win_rate) == (2, 1, 0, 0.0)
    assert row.metrics == {}

    rows = {row.model: row for row in overall.rows}
    assert set(rows) == {"mock/a", "mock/b"} and all(row.game == "all" for row in overall.rows)
    assert (rows["mock/b"].matches, rows["mock/b"].wins, rows["mock/b"].win_rate) == (2, 2, 1.0)
    assert rows["mock/b"].avg_rounds == 3.0
    assert rows["mock/a"].metrics["akinator L1 [answerer seat=scripted]:recall_rate"] == 0.5  # per board
    assert [r.model for r in overall.rows] == ["mock/b", "mock/a"]  # best win rate first
    assert len(overall.people) == 1  # the live taboo match has no outcome yet
    assert [r.model for r in taboo.rows] == ["mock/b"]


def test_people_are_counted_per_seat_they_held(db: str) -> None:
    # a taboo table of two people: each seat is a record of its own, and no model row appears for it
    registry = default_registry()
    with Store.open(db) as store:
        seats = [SeatAssignment(seat="guesser", player_kind="human", prompt_variant=1, evaluated=True),
                 SeatAssignment(seat="clue_giver", player_kind="human", prompt_variant=0, evaluated=False)]
        match_id = store.create_web_match(spec=TABOO, seats=seats, mode="play",
                                          people={"guesser": "ab" * 32, "clue_giver": "cd" * 32},
                                          joined=("guesser", "clue_giver"), anonymous=False)
        store.finish_match(match_id, _ended("finished", "guesser", 3))
        board = leaderboard(store, registry, game="taboo", source="live")
    assert board.rows == []
    people = {(p.game, p.seat): (p.matches, p.scored, p.wins, p.win_rate, p.avg_rounds) for p in board.people}
    assert people == {("taboo", "guesser"): (1, 1, 1, 1.0, 3.0), ("taboo", "clue_giver"): (1, 1, 0, 0.0, 3.0)}


def test_a_seat_a_model_took_over_counts_for_nobody(db: str) -> None:
    # two people at a taboo table; the guesser left and a model finished the match in that seat
    registry = default_registry()
    with Store.open(db) as store:
        seats = [SeatAssignment(seat="guesser", player_kind="human", prompt_variant=1, evaluated=True),
                 SeatAssignment(seat="clue_giver", player_kind="human", prompt_variant=0, evaluated=False)]
        match_id = store.create_web_match(spec=TABOO, seats=seats, mode="play",
                                          people={"guesser": "ab" * 32, "clue_giver": "cd" * 32},
                                          joined=("guesser", "clue_giver"), anonymous=False)
        assert store.leave_seat(match_id, "guesser")
        store.finish_match(match_id, _ended("finished", "guesser", 3))
        board = leaderboard(store, registry, game="taboo", source="live")
    assert board.rows == []
    assert [(p.seat, p.matches, p.wins) for p in board.people] == [("clue_giver", 1, 0)]


def test_a_seat_the_match_does_not_evaluate_is_not_a_model_s_record(db: str) -> None:
    # mock/b holds the clue giver's seat, as an opponent: only mock/a's guesser seat counts
    registry = default_registry()
    with Store.open(db) as store:
        seats = [SeatAssignment(seat="guesser", player_kind="llm", model="mock/a", prompt_variant=1, evaluated=True),
                 SeatAssignment(seat="clue_giver", player_kind="llm", model="mock/b", prompt_variant=0,
                                evaluated=False)]
        match_id = store.create_match(spec=TABOO, seats=seats)
        store.finish_match(match_id, _ended("finished", "clue_giver", 5))
        board = leaderboard(store, registry, game="taboo", source="live")
    assert [(r.model, r.matches, r.wins) for r in board.rows] == [("mock/a", 1, 0)] and board.people == []


def test_statistics_count_useful_sessions_and_surveys(db: str) -> None:
    with Store.open(db) as store:
        view = stats(store)
    assert (view.matches_started, view.matches_finished) == (3, 1)
    assert view.useful_session_rate == pytest.approx(1 / 3)
    assert {game: s.model_dump() for game, s in view.by_game.items()} == {
        "akinator": {"started": 2, "finished": 1, "useful_session_rate": 0.5},
        "taboo": {"started": 1, "finished": 0, "useful_session_rate": 0.0}}
    assert view.surveys == 2
    assert view.survey_distributions == {
        "enjoyment": {"1": 0, "2": 1, "3": 0, "4": 0, "5": 1},
        "satisfaction": {"1": 0, "2": 0, "3": 0, "4": 2, "5": 0},
        "frequency": {"1": 1, "2": 0, "3": 1, "4": 0, "5": 0},
    }


async def test_the_api_serves_the_board_the_statistics_the_plot_and_the_export(tmp_path: Path, db: str) -> None:
    async with running(make_settings(tmp_path, db=db)) as client:
        board = (await client.get("/api/leaderboard", params={"game": "akinator"})).json()
        statistics = (await client.get("/api/stats")).json()
        plot = await client.get("/api/leaderboard/plot.png", params={"game": "akinator"})
        empty = await client.get("/api/leaderboard/plot.png", params={"game": "bluffing"})
        no_wins = await client.get("/api/leaderboard/plot.png", params={"game": "akinator", "source": "live"})
        exported = await client.get("/api/export.jsonl")
        live_only = await client.get("/api/export.jsonl", params={"source": "live"})
    with Store.open(db) as store:
        assert board == leaderboard(store, default_registry(), game="akinator").model_dump(mode="json")
        assert statistics == stats(store).model_dump(mode="json")
    for png in (plot, empty, no_wins):
        assert png.status_code == 200 and png.headers["content-type"] == "image/png"
        assert png.content.startswith(b"\x89PNG\r\n\x1a\n") and len(png.content) > 5000
    lines = [json.loads(line) for line in exported.text.splitlines()]
    assert len(lines) == 8  # every finished match; the live one is not exported
    assert {line["source"] for line in lines} == {"batch", "arena"}
    arena = [line for line in lines if line["source"] == "arena"]
    assert {line["survey"]["enjoyment"] for line in arena} == {5, 2}
    assert {seat["seat"] for line in arena for seat in line["seats"] if seat["player_kind"] == "human"} == {"answerer"}
    assert all(line["events"][0]["event"]["type"] == "match_started" for line in lines)
    assert "c0ffee" not in exported.text and "token" not in exported.text and "lease" not in exported.text
    assert len(live_only.text.splitlines()) == 2


def test_the_plot_draws_models_and_people(db: str) -> None:
    with Store.open(db) as store:
        board = leaderboard(store, default_registry(), game="akinator")
    png = plot_png(board)
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 5000
    empty = plot_png(LeaderboardView(game="bluffing", source="all", rows=[], people=[]))
    assert empty.startswith(b"\x89PNG") and empty != png


def test_the_plot_survives_an_interval_that_rounds_past_the_rate() -> None:
    row = ModelRow(game="akinator", model="m", matches=3, scored=3, wins=0, win_rate=0.0, ci_low=5.6e-17,
                   ci_high=0.56, avg_rounds=None, forfeits=0, metrics={})
    person = PeopleRow(game="akinator", seat="answerer", matches=1, scored=1, wins=1, win_rate=1.0, ci_low=0.2,
                       ci_high=1.0, avg_rounds=4.0, abandoned=0)
    png = plot_png(LeaderboardView(game="akinator", source="all", rows=[row], people=[person]))
    assert png.startswith(b"\x89PNG")
