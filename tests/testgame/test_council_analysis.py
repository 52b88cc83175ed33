"""Council's runs through the analysis, the results, the leaderboard and the report: one row per evaluated seat,
teams apart, a model in two seats of a match counted twice, forfeits as losses even where the team won.

The run: ``mock/player``, ``mock/garbage`` and ``mock/steady`` (a script below) rotate over Council's four
evaluated seats, three lineups of one setup, so each model holds two seats of one match and one of the others;
``mock/garbage`` runs out of re-asks and is put out, and the match goes on (to a red win, a blue win, a draw).
"""

from __future__ import annotations

import asyncio
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from playeval.analysis import RetroRunner, match_rows, overall_win_rates, run_rankings, summarize
from playeval.cli.main import app
from playeval.core.events import SeatAssignment
from playeval.core.match import Outcome, SeatResult
from playeval.core.registry import GameRegistry, default_registry
from playeval.engine import BatchRunner, RunConfig, create_run
from playeval.models import ModelHub, ModelRequest
from playeval.report import build_report, write_report
from playeval.store import MatchRecord, Store

MODELS = ("mock/player", "mock/garbage", "mock/steady")
SEATS = ("north", "east", "south", "west")
TEAMS = {"north": "red", "south": "red", "east": "blue", "west": "blue"}


def steady(request: ModelRequest) -> str:
    """Votes for the last seat it may, and gives the same plain clue every time."""
    constraint = request.constraint
    if constraint is not None and constraint.choices:
        return constraint.choices[-1]
    return "Something worth a thought"


@dataclass(frozen=True)
class CouncilRun:
    db: str
    run_id: str
    registry: GameRegistry


async def _play(db: str, registry: GameRegistry, config: RunConfig) -> str:
    with Store.open(db) as store:
        run_id = create_run(store, registry, config)
        async with ModelHub(use_cache=False, mock_scripts={"steady": steady}) as hub:
            await BatchRunner(store, hub, registry).run(run_id)
    return run_id


@pytest.fixture
def council_run(council_installed: dict[str, str], tmp_path: Path) -> CouncilRun:
    registry = default_registry()
    assert "council" in registry.ids()
    db = f"sqlite:///{tmp_path / 'council.db'}"
    config = RunConfig(games=("council",), models=MODELS, opponent="mock/player", roles={"judge": "mock/player"},
                       options={"council": {"rounds": 2}}, n=1, seed=3)
    return CouncilRun(db, asyncio.run(_play(db, registry, config)), registry)


def _matches(run: CouncilRun) -> list[MatchRecord]:
    with Store.open(run.db) as store:
        return store.run_matches(run.run_id)


def _expected(matches: list[MatchRecord], *, by_team: bool) -> Counter[tuple[str, str | None, str]]:
    """Counted straight from the stored outcomes: seats, scored seats and wins per model (and team)."""
    counts: Counter[tuple[str, str | None, str]] = Counter()
    for match in matches:
        assert match.outcome is not None
        for seat in match.seats:
            result = match.outcome.result_for(seat.seat)
            key = (str(seat.model), result.team if by_team else None)
            counts[(*key, "seats")] += 1
            counts[(*key, "forfeits")] += result.forfeited
            if result.won is not None:
                counts[(*key, "scored")] += 1
                counts[(*key, "wins")] += bool(result.won and not result.forfeited)
    return counts


def test_every_evaluated_seat_is_a_row_and_teams_are_kept_apart(council_run: CouncilRun) -> None:
    matches = _matches(council_run)
    assert len(matches) == 3
    with Store.open(council_run.db) as store:
        rows = match_rows(store, council_run.run_id, council_run.registry)
    assert len(rows) == 4 * len(matches)  # one per evaluated seat, not one per match
    doubled: list[str] = []
    for match in matches:
        mine = [row for row in rows if row.match_id == match.id]
        assert [row.seat for row in mine] == list(SEATS)
        assert [row.model for row in mine] == [seat.model for seat in match.seats]
        assert [row.team for row in mine] == [TEAMS[seat] for seat in SEATS]
        held = Counter(row.model for row in mine)
        assert sorted(held.values()) == [1, 1, 2]
        doubled += [model for model, seats in held.items() if seats == 2]
    assert sorted(doubled) == sorted(MODELS)  # every model held two seats of one match
    assert all(row.replies > 0 and row.tokens > 0 for row in rows)
    expected = _expected(matches, by_team=True)
    results = summarize(rows)
    assert {(r.model, r.team) for r in results} == {(m, t) for m in MODELS for t in ("red", "blue")}
    for result in results:
        key = (result.model, result.team)
        assert (result.matches, result.scored, result.wins, result.forfeits) == (
            expected[(*key, "seats")], expected[(*key, "scored")], expected[(*key, "wins")],
            expected[(*key, "forfeits")]), key
    assert sum(r.matches for r in results) == 12
    assert sum(r.forfeits for r in results if r.model == "mock/garbage") > 0
    assert all(r.forfeits == 0 for r in results if r.model != "mock/garbage")
    assert {r.model: r.matches for r in summarize(rows, by_team=False)} == dict.fromkeys(MODELS, 4)


def test_a_forfeited_seat_of_the_winning_team_counts_as_a_loss(council_run: CouncilRun) -> None:
    # the run's forfeits all fell on losing teams; this match, recorded in the run, has south forfeit and red win
    matches = _matches(council_run)
    spec, lineup = matches[0].spec, {seat.seat: seat for seat in matches[0].seats}
    results = tuple(SeatResult(seat=seat, team=team, won=team == "red", eliminated_round=1 if seat == "south" else None,
                               elimination="forfeit: ran out of re-asks" if seat == "south" else None,
                               forfeited=seat == "south") for seat, team in TEAMS.items())
    with Store.open(council_run.db) as store:
        match_id = store.create_match(spec=spec, seats=tuple(lineup.values()), roles=matches[0].roles,
                                      run_id=council_run.run_id, match_index=99)
        store.finish_match(match_id, Outcome(status="finished", winners=("north", "south"), winning_team="red",
                                             reason="1 red and 0 blue seats left", rounds=2, results=results))
        rows = match_rows(store, council_run.run_id, council_run.registry)
    south = next(row for row in rows if row.match_id == match_id and row.seat == "south")
    north = next(row for row in rows if row.match_id == match_id and row.seat == "north")
    assert south.result.won is True and south.won is False and north.won is True
    by_team = {(r.model, r.team): r for r in summarize(rows)}
    before = _expected(matches, by_team=True)
    red_south = (str(lineup["south"].model), "red")
    extra = 2 if lineup["north"].model == lineup["south"].model else 1
    assert by_team[red_south].matches == before[(*red_south, "seats")] + extra
    assert by_team[red_south].forfeits == before[(*red_south, "forfeits")] + 1
    assert by_team[red_south].wins == before[(*red_south, "wins")] + extra - 1  # south's seat is a loss
    together = {r.model: r for r in summarize(rows, by_team=False)}
    assert sum(r.matches for r in together.values()) == 12 + 4 and all(r.team is None for r in together.values())


def test_rankings_take_a_model_once_over_its_teams(council_run: CouncilRun) -> None:
    with Store.open(council_run.db) as store:
        results = summarize(match_rows(store, council_run.run_id, council_run.registry))
    rates = overall_win_rates(results)
    expected = _expected(_matches(council_run), by_team=False)
    for model in MODELS:
        scored = expected[(model, None, "scored")]
        assert rates[("council", model)] == pytest.approx(expected[(model, None, "wins")] / scored)
    rankings = run_rankings(results, [], council_run.registry)
    if rates[("council", MODELS[0])] != rates[("council", MODELS[1])]:
        order = sorted(MODELS, key=lambda model: -rates[("council", model)])
        assert rankings["Council-Outcome"].order == order
    else:
        assert "Council-Outcome" not in rankings


def test_results_show_a_team_column_only_for_a_game_with_teams(council_run: CouncilRun) -> None:
    config = RunConfig(games=("taboo",), models=MODELS, opponent="mock/player", n=1, seed=1)
    taboo_run = asyncio.run(_play(council_run.db, council_run.registry, config))
    runner = CliRunner()
    env = {"COLUMNS": "200", "PLAYEVAL_DB": council_run.db}
    council = runner.invoke(app, ["results", council_run.run_id], env=env)
    taboo = runner.invoke(app, ["results", taboo_run], env=env)
    assert council.exit_code == 0 and taboo.exit_code == 0, council.output + taboo.output
    council_head = next(line for line in council.output.splitlines() if line.split()[:1] == ["model"])
    taboo_head = next(line for line in taboo.output.splitlines() if line.split()[:1] == ["model"])
    assert council_head.split()[:3] == ["model", "team", "matches"] and "team" not in taboo_head.split()
    tables: Counter[tuple[str, str | None]] = Counter()  # the matches a model held a seat of, per team
    for match in _matches(council_run):
        assert match.outcome is not None
        for key in {(str(seat.model), match.outcome.result_for(seat.seat).team) for seat in match.seats}:
            tables[key] += 1
    results_table = council.output.split("cost: every model call of the run")[0]  # the cost table follows
    rows = [line.split() for line in results_table.splitlines() if line.strip().startswith("mock/")]
    assert sorted((row[0], row[1], row[2]) for row in rows) == sorted(
        (model, team, str(tables[(model, team)])) for model in MODELS for team in ("red", "blue"))


def test_the_retrospective_analysis_skips_a_game_without_it(council_run: CouncilRun) -> None:
    async def plan() -> tuple[int, tuple[tuple[str, str], ...]]:
        with Store.open(council_run.db) as store:
            async with ModelHub(use_cache=False) as hub:
                found = RetroRunner(store, hub, council_run.registry).plan(council_run.run_id)
        return len(found.tasks), found.skipped_matches

    tasks, skipped = asyncio.run(plan())
    assert tasks == 0 and len(skipped) == 3
    assert all(why == "council has no retrospective analysis" for _, why in skipped)


def test_the_report_of_a_council_run_renders_every_seat_and_the_team_outcome(council_run: CouncilRun,
                                                                            tmp_path: Path) -> None:
    matches = {m.id: m for m in _matches(council_run)}
    with Store.open(council_run.db) as store:
        data = build_report(store, council_run.run_id, council_run.registry)
    assert {(r.model, r.team) for r in data.outcomes} == {(m, t) for m in MODELS for t in ("red", "blue")}
    assert len(data.transcripts) == 3
    assert sorted(page.outcome for page in data.transcripts) == ["blue won", "draw", "red won"]
    for page in data.transcripts:
        match = matches[page.match_id]
        assert match.outcome is not None
        assert [(s.seat, s.player, s.team, s.evaluated) for s in page.seats] == [
            (seat.seat, seat.model, TEAMS[seat.seat], True) for seat in match.seats]
        team = match.outcome.winning_team
        assert page.outcome == (f"{team} won" if team else "draw") and page.opponent == ""
        for seat in page.seats:
            result = match.outcome.result_for(seat.seat)
            expected = "forfeit" if result.forfeited else "win" if result.won else "loss" if team else "draw"
            assert seat.result == expected, (page.match_id, seat)
    files = write_report(data, tmp_path / "report")
    index = files.html.read_text("utf-8")
    assert ">Team</th>" in index and "Council" in index
    markdown = files.markdown.read_text("utf-8")
    assert "| Model | Team | Council: Win rate |" in markdown
    assert len(files.transcripts) == 3
    for path in files.transcripts:
        html = path.read_text("utf-8")
        table = html.split("<h2>Seats</h2>")[1].split("</table>")[0]
        for name in SEATS:
            assert re.search(rf"<td>{name}</td><td>{TEAMS[name]}</td><td>mock/(player|garbage|steady)</td>", table)
        assert "judge" not in table  # a role is not a seat
        assert all(f"{model} (" in html for model in MODELS)
        assert re.search(r'<span class="badge other">(red won|blue won|draw)</span>', html)
    assert {p.name for p in files.plots} == {"win_rate.png", "capability.png"}


def test_the_leaderboard_counts_every_seat_a_model_or_a_person_held(council_run: CouncilRun) -> None:
    from playeval.web.board import leaderboard

    matches = _matches(council_run)
    expected = _expected(matches, by_team=False)
    with Store.open(council_run.db) as store:
        spec = matches[0].spec
        seats = [SeatAssignment(seat="north", player_kind="human", evaluated=True),
                 *(SeatAssignment(seat=seat, player_kind="llm", model="mock/player", evaluated=True)
                   for seat in SEATS[1:])]
        arena = store.create_web_match(spec=spec, seats=seats, mode="play", people={"north": "ab" * 32},
                                       joined=("north",), anonymous=False)
        results = tuple(SeatResult(seat=seat, team=team, won=team == "red") for seat, team in TEAMS.items())
        store.finish_match(arena, Outcome(status="finished", winners=("north", "south"), winning_team="red",
                                          reason="the red team won", rounds=2, results=results))
        board = leaderboard(store, council_run.registry, game="council", source="all")
        batch = leaderboard(store, council_run.registry, game="council", source="batch")
        live = leaderboard(store, council_run.registry, game="council", source="live")
    rows = {row.model: row for row in batch.rows}
    assert set(rows) == set(MODELS) and batch.people == board.people  # people's rows are the arena's
    for model in MODELS:  # a model's matches count once however many of their seats it held; its seats are scored
        held = sum(1 for match in matches if any(seat.model == model for seat in match.seats))
        assert (rows[model].matches, rows[model].scored, rows[model].wins) == (
            held, expected[(model, None, "scored")], expected[(model, None, "wins")])
        assert rows[model].n == held and rows[model].clustered == (expected[(model, None, "scored")] > held)
    [player] = live.rows  # east, south (won), west: three seats of one table, one match of the interval's n
    assert (player.model, player.matches, player.scored, player.wins, player.n, player.clustered) == (
        "mock/player", 1, 3, 1, 1, True)
    [person] = board.people
    assert (person.game, person.seat, person.matches, person.wins, person.win_rate) == ("council", "north", 1, 1, 1.0)
    # the arena's match seated no judge: a configuration of its own, so a board of its own
    everything = {(row.board, row.model): row.matches for row in board.rows}
    assert everything == {("council [rounds=2, judge=mock/player]", model): rows[model].matches for model in MODELS} | {
        ("council [rounds=2, judge=none]", "mock/player"): 1}
