"""Undercover's results per model and side, per category and per judge, on stored matches built by hand: every
figure is checked against a value worked out below."""

from __future__ import annotations

import math
import random
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from playeval.analysis.cells import Mean, Rate
from playeval.analysis.chance import ABOVE, RANDOM_BASELINE
from playeval.analysis.intervals import (
    cluster_mean_interval,
    cluster_rate_interval,
    t_interval,
    t_quantile_95,
    wilson_interval,
)
from playeval.analysis.sides import ALL, CategoryRow, SideResults, SideRow, side_results, stored_matches
from playeval.analysis.undercover_judging import JudgeRow, is_judge_role, judge_rows
from playeval.cli.main import app
from playeval.core import Action, ActionApplied, Event, ReplyReceived, ReplyRejected, RoleAssignment, SeatAssignment
from playeval.core.events import SeatEliminated
from playeval.core.info import panel_member
from playeval.core.match import MatchSpec
from playeval.core.registry import default_registry
from playeval.games.undercover import CIVILIAN, JUDGE, UNDERCOVER, Undercover, UndercoverState
from playeval.games.undercover.state import SCALES
from playeval.report import build_report, write_report
from playeval.report.tables import team_sections
from playeval.store import Store

game = Undercover()
J, K = "mock/j", "mock/k"


def _spec(category: str, civilian: str, undercover: str, sides: dict[str, str], **params: int) -> MatchSpec:
    spec = game.new_spec(1, 1, random.Random(1), options={"players": len(sides), "undercover": 1})
    words = {seat: civilian if side == CIVILIAN else undercover for seat, side in sides.items()}
    pair = {"id": f"{category}-1", "category": category, "civilian": civilian, "undercover": undercover}
    return spec.model_copy(update={"setup": {"pair": pair, "words": words, "sides": sides},
                                   "params": {**spec.params, "category": category, **params}})


class Log:
    """A match played by applying actions to its state, with the events a recorder would have written."""

    def __init__(self, spec: MatchSpec) -> None:
        self.spec = spec
        self.state: UndercoverState = game.initial_state(spec)
        self.events: list[Event] = []

    def _apply(self, action: Action, replied_as: str | None = None) -> None:
        if action.seat is not None:
            self.events.append(ReplyReceived(seat=action.seat, text=action.text))
        else:
            self.events.append(ReplyReceived(role=replied_as or JUDGE, text=action.text))
        self.events.append(ActionApplied(action=action))
        self.state = game.apply(self.state, action)

    def say(self, seat: str, *judged: tuple[float, float, float]) -> None:
        """``seat`` speaks; each triple is one judge's scores, the first from ``judge``, the next ``judge#2``."""
        self._apply(Action(seat=seat, kind="statement", text=f"{seat} describes its word in round {self.state.round}"))
        for number, values in enumerate(judged):
            member = panel_member(JUDGE, number)
            for scale, value in zip(SCALES, values, strict=True):  # one question per scale, as the game asks
                self._apply(Action(role=member, kind="mark", text=f"{scale}: {value}",
                                   data={"scale": scale, "answer": "partly", "value": value}), replied_as=member)

    def vote(self, seat: str, target: str | None, *, refused: str | None = None) -> None:
        if refused is not None:
            self.events.append(ReplyReceived(seat=seat, text=refused))
            self.events.append(ReplyRejected(seat=seat, error="rule", reason="no such player", text=refused))
        if target is None:
            self._apply(Action(seat=seat, kind="abstain", text="abstains", data={"reason": "no such player"}))
        else:
            self._apply(Action(seat=seat, kind="vote", text=target))

    def forfeit(self, seat: str) -> None:
        self.events.append(SeatEliminated(seat=seat, error="format", reason="not one sentence"))
        self.state = game.eliminate(self.state, seat, "not one sentence")


def match_a() -> Log:
    """Animals; player4 is the undercover agent. player3 is put out by the judge (novelty 0.1), player4 is voted
    out: the civilians win in round 1. player2's first vote is refused (a re-ask)."""
    log = Log(_spec("animals", "lion", "tiger", {"player1": CIVILIAN, "player2": CIVILIAN, "player3": CIVILIAN,
                                                 "player4": UNDERCOVER}))
    log.say("player1", (1.0, 0.6, 1.0))
    log.say("player2", (0.8, 0.5, 0.9))
    log.say("player3", (0.1, 0.4, 1.0))
    log.say("player4", (1.0, 0.3, 0.5))
    log.vote("player1", "player4")
    log.vote("player2", "player4", refused="player9")
    log.vote("player4", "player1")
    return log


def match_b() -> Log:
    """Food, two judges, one round; player1 is the undercover agent. player5 forfeits its sentence, player4
    abstains, the vote ties: the agent is still in after the last round and wins."""
    log = Log(_spec("food", "butter", "margarine", {"player1": UNDERCOVER, "player2": CIVILIAN, "player3": CIVILIAN,
                                                    "player4": CIVILIAN, "player5": CIVILIAN},
                    judges=2, max_rounds=1))
    for seat in ("player1", "player2", "player3"):
        log.say(seat, (1.0, 0.6, 1.0), (0.5, 0.2, 0.7))
    log.say("player4", (1.0, 0.6, 1.0), (0.5, 0.2, 0.3))  # judge#2 alone is under 0.4; the mean 0.65 is not
    log.forfeit("player5")
    log.vote("player1", "player2")
    log.vote("player2", "player3")
    log.vote("player3", "player1")
    log.vote("player4", None)
    return log


SEATS_A = {"player1": "mock/a", "player2": "mock/a", "player3": "mock/b", "player4": "mock/b"}
SEATS_B = {**SEATS_A, "player5": "mock/b"}


def _store(store: Store, run_id: str, index: int, log: Log, models: dict[str, str],
           judges: dict[str, str]) -> None:
    seats = [SeatAssignment(seat=seat, player_kind="llm", model=model, evaluated=True)
             for seat, model in models.items()]
    roles = [RoleAssignment(role=role, player_kind="llm", model=model) for role, model in judges.items()]
    match_id = store.create_match(spec=log.spec, seats=seats, roles=roles, run_id=run_id, match_index=index)
    for event in log.events:
        store.append_event(match_id, event)
    outcome = game.outcome(log.state)
    assert outcome is not None
    store.finish_match(match_id, outcome)


@pytest.fixture
def run(tmp_path: Path) -> tuple[str, str]:
    """A database holding matches A, A again and B, and an unfinished match that must not count: (url, run id)."""
    url = f"sqlite:///{tmp_path / 'u.db'}"
    with Store.open(url) as store:
        run_id = store.create_run("undercover", 1, {})
        _store(store, run_id, 0, match_a(), SEATS_A, {JUDGE: J})
        _store(store, run_id, 1, match_a(), SEATS_A, {JUDGE: J})
        _store(store, run_id, 2, match_b(), SEATS_B, {JUDGE: J, "judge#2": K})
        store.create_match(spec=match_a().spec, seats=[SeatAssignment(seat=s, player_kind="llm", model="mock/c")
                                                       for s in SEATS_A], run_id=run_id, match_index=3)
    return url, run_id


@pytest.fixture
def results(run: tuple[str, str]) -> SideResults:
    url, run_id = run
    with Store.open(url) as store:
        found = side_results(store, [run_id], default_registry(), "undercover")
    assert found is not None
    return found


@pytest.fixture
def judges(run: tuple[str, str]) -> tuple[JudgeRow, ...]:
    url, run_id = run
    with Store.open(url) as store:
        return judge_rows(game, stored_matches(store, [run_id], "undercover"))


def row(results: SideResults, model: str, side: str) -> SideRow:
    return next(r for r in results.rows if r.model == model and r.side == side)


def mean(found: SideRow, name: str) -> Mean:
    value = found.values[name]
    assert isinstance(value, Mean)
    return value


def share(found: SideRow, name: str) -> Rate:
    value = found.values[name]
    assert isinstance(value, Rate)
    return value


def test_the_constructed_matches_end_as_planned() -> None:
    a, b = game.outcome(match_a().state), game.outcome(match_b().state)
    assert a is not None and a.winning_team == CIVILIAN and a.rounds == 1
    assert b is not None and b.winning_team == UNDERCOVER
    assert [(o.seat, o.by) for o in match_a().state.out] == [("player3", "judge"), ("player4", "vote")]
    assert [(o.seat, o.by) for o in match_b().state.out] == [("player5", "forfeit")]


def test_win_rates_are_over_matches_with_the_run_s_side_rates_beside_them(results: SideResults) -> None:
    assert results.matches == 3  # the unfinished match is left out
    assert (results.team_wins[CIVILIAN].count, results.team_wins[CIVILIAN].n) == (2, 3)
    civ = row(results, "mock/a", CIVILIAN)  # A p1, A p2 twice (won), B p2 (lost)
    assert (civ.seats, civ.matches, civ.wins.count, civ.n_text()) == (5, 3, 4, "3 (5 seats)")
    assert civ.reference == pytest.approx(2 / 3)
    # the bootstrap of the three matches (2 of 2, 2 of 2, 0 of 1), not Wilson over five seats ([0.38, 0.96]): a
    # resample draws B three times with chance 1/27, more than the 2.5% tail, and A three times with 8/27
    assert (civ.wins.low, civ.wins.high) == cluster_rate_interval([(2, 2), (2, 2), (0, 1)]) == (0.0, 1.0)
    agent = row(results, "mock/a", UNDERCOVER)  # B p1 won: one seat in one match, Wilson's for 1 of 1
    assert (agent.seats, agent.wins.count, agent.n_text()) == (1, 1, "1") and agent.reference == pytest.approx(1 / 3)
    assert agent.wins.low == pytest.approx(0.2065, abs=1e-4) and agent.wins.high == 1.0
    overall = row(results, "mock/a", ALL)
    assert (overall.seats, overall.matches, overall.wins.count) == (6, 3, 5)
    assert (overall.wins.low, overall.wins.high) == cluster_rate_interval([(2, 2), (2, 2), (1, 2)])
    assert overall.reference == pytest.approx((5 * 2 / 3 + 1 / 3) / 6)  # 11/18: its seats at the run's side rates
    b_civ = row(results, "mock/b", CIVILIAN)  # A p3 twice (won), B p3, p4, p5 (lost)
    assert (b_civ.seats, b_civ.matches, b_civ.wins.count) == (5, 3, 2)
    assert (b_civ.wins.low, b_civ.wins.high) == cluster_rate_interval([(1, 1), (1, 1), (0, 3)])
    assert [r.side for r in results.rows] == [CIVILIAN, UNDERCOVER, ALL] * 2
    assert results.baselines == () and not results.verdicts  # no baseline played


def test_seat_means_have_intervals_over_matches(results: SideResults) -> None:
    civ = row(results, "mock/a", CIVILIAN)
    relevance = mean(civ, "relevance")  # 0.6, 0.5 in each A; mean(0.6, 0.2) = 0.4 in B
    assert (relevance.n, relevance.matches, relevance.n_text()) == (5, 3, "3 (5 seats)")
    assert relevance.mean == pytest.approx(0.52)
    # the bootstrap of the three matches: B alone (chance 1/27, over the 2.5% tail) gives 0.40, A alone (8/27)
    # 0.55; Student-t over the five seats claimed [0.42, 0.62]
    assert (relevance.low, relevance.high) == cluster_mean_interval([[0.6, 0.5], [0.6, 0.5], [0.4]])
    assert relevance.low == pytest.approx(0.40) and relevance.high == pytest.approx(0.55)
    assert mean(civ, "novelty").mean == pytest.approx((1 + 0.8 + 1 + 0.8 + 0.75) / 5)
    assert mean(civ, "survival").mean == 1.0 and mean(civ, "vote_accuracy").mean == pytest.approx(0.8)
    # survival 1.0 in every match: no spread to resample, so Wilson's over the 3 matches, not a point at 1.0
    assert (mean(civ, "survival").low, mean(civ, "survival").high) == wilson_interval(3, 3)
    b_civ = row(results, "mock/b", CIVILIAN)
    assert mean(b_civ, "survival").mean == pytest.approx(2 / 5)  # out in round 1 twice in A, and p5 in B
    vote = mean(b_civ, "vote_accuracy")  # A p3 never voted, B p3 voted for the agent, p4 abstained, p5 was out
    assert (vote.n, vote.matches, vote.mean, (vote.low, vote.high)) == (1, 1, 1.0, wilson_interval(1, 1))
    assert mean(b_civ, "novelty").n == 4  # p5 said nothing
    agent = row(results, "mock/b", UNDERCOVER)
    assert mean(agent, "survival").mean == 0.0 and mean(agent, "reasonableness").mean == 0.5


def test_eliminations_forfeits_reasks_and_abstentions(results: SideResults) -> None:
    b_civ = row(results, "mock/b", CIVILIAN)
    by_judge = share(b_civ, "out_by_judge")  # A p3 twice (out), B p3, p4, p5 (not): over the three matches
    assert (by_judge.count, by_judge.n, by_judge.matches) == (2, 5, 3)
    assert (by_judge.low, by_judge.high) == cluster_rate_interval([(1, 1), (1, 1), (0, 3)])
    assert share(b_civ, "out_by_vote").count == 0
    assert (b_civ.values["forfeited"], b_civ.values["abstentions"], b_civ.values["reasks"]) == (1, 1, 0)
    agent = row(results, "mock/b", UNDERCOVER)
    by_vote = share(agent, "out_by_vote")
    assert (by_vote.count, by_vote.n, share(agent, "out_by_judge").count) == (2, 2, 0)  # A p4, twice
    civ = row(results, "mock/a", CIVILIAN)
    assert (civ.values["reasks"], civ.values["abstentions"], civ.values["forfeited"]) == (2, 0, 0)
    assert row(results, "mock/a", ALL).values["reasks"] == 2
    assert row(results, "mock/b", ALL).values["abstentions"] == 1


def test_win_rate_by_concept_category(results: SideResults) -> None:
    found = {(r.category, r.model): (r.wins.count, r.wins.n, r.wins.trials) for r in results.categories}
    assert found == {("animals", None): (2, 2, 2), ("animals", "mock/a"): (4, 4, 2), ("animals", "mock/b"): (2, 4, 2),
                     ("food", None): (0, 1, 1), ("food", "mock/a"): (1, 2, 1), ("food", "mock/b"): (0, 3, 1)}
    assert isinstance(results.categories[0], CategoryRow) and results.categories[0].wins.high == 1.0
    food_a = next(r for r in results.categories if r == CategoryRow("food", "mock/a", r.wins))
    # B p1 won, p2 lost: one match giving half, Wilson's for half a win of 1 match, not 1 of 2 seats
    assert (food_a.wins.low, food_a.wins.high) == wilson_interval(0.5, 1) != wilson_interval(1, 2)


def test_judge_histograms_count_each_judge_s_own_scores(judges: tuple[JudgeRow, ...]) -> None:
    by_name = {judge.judge: judge for judge in judges}
    assert set(by_name) == {J, K}
    j, k = by_name[J], by_name[K]
    assert (j.scored, k.scored) == (12, 4)
    # J: novelty 1, 0.8, 0.1, 1 in each A; 1 four times in B
    assert j.histograms["novelty"] == (0, 2, 0, 0, 0, 0, 0, 0, 2, 0, 8)
    assert j.histograms["reasonableness"] == (0, 0, 0, 0, 0, 2, 0, 0, 0, 2, 8)
    assert k.histograms["relevance"] == (0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0)
    assert k.histograms["reasonableness"] == (0, 0, 0, 1, 0, 0, 0, 3, 0, 0, 0)
    assert j.off_grid == 0 and sum(j.histograms["relevance"]) == 12
    assert (j.under["novelty"].count, j.put_out["novelty"].count, j.put_out["reasonableness"].count) == (2, 2, 0)
    # K's 0.3 is under the reasonableness threshold, but the judges' mean (0.65) put nobody out
    assert (k.under["reasonableness"].count, k.put_out["reasonableness"].count) == (1, 0)


def test_judge_roles() -> None:
    assert is_judge_role("judge") and is_judge_role("judge#3")
    assert not is_judge_role("judges") and not is_judge_role("game_master")


def test_t_quantiles_and_interval() -> None:
    assert t_quantile_95(1) == pytest.approx(12.7062) and t_quantile_95(10) == pytest.approx(2.2281, abs=1e-4)
    assert t_quantile_95(30) == pytest.approx(2.0423, abs=1e-4) and t_quantile_95(120) == pytest.approx(1.9799,
                                                                                                         abs=1e-4)
    assert t_interval([0.5]) == (None, None)
    low, high = t_interval([0.0, 1.0])
    assert low == pytest.approx(0.5 - 12.7062 * math.sqrt(0.5) / math.sqrt(2)) and high is not None
    assert t_interval([0.0, 1.0], bounds=(0.0, 1.0)) == (0.0, 1.0)


def _cli(*args: str) -> str:
    done = CliRunner().invoke(app, list(args), env={"COLUMNS": "250"})
    assert done.exit_code == 0, done.output
    return done.output


def test_analyze_undercover_prints_the_tables(run: tuple[str, str]) -> None:
    url, run_id = run
    out = _cli("analyze", "undercover", run_id, "--db", url)
    text = " ".join(out.split())
    assert "3 matches, per model and side" in out and "mock/a civilian 3 (5 seats) 0.80 [0.00, 1.00] 0.67" in text
    assert "civilians won 67% of the 3 matches" in text and "95% interval over matches" in text
    assert "judge mock/k, 4 scored sentences" in text and "(civilians' matches)" in text
    assert "mock/b civilian 3 (5 seats) 0.40 [0.00, 1.00] 0.67" in text
    assert "mock/a undercover 1 1.00 [0.21, 1.00] 0.33" in text  # one seat of one match: n is the match alone
    assert "food mock/b 1 (3 seats) 0.00 [0.00, 0.79]" in text  # Wilson's over 1 match, not over 3 seats
    assert "vs random" not in out and "baselines" not in out
    novelty = next(line for line in out.splitlines() if line.strip().startswith("novelty") and "2" in line)
    assert novelty.split()[1:] == ["0", "2", "0", "0", "0", "0", "0", "0", "2", "0", "8"]  # judge mock/j


def test_results_points_to_the_undercover_analysis(run: tuple[str, str]) -> None:
    url, run_id = run
    out = _cli("results", run_id, "--db", url)
    assert "re-asks and abstentions per model" in out and f"playeval analyze undercover {run_id}" in out
    counts = [line.split() for line in out.splitlines() if line.split()[:1] == ["mock/b"] and len(line.split()) == 7]
    assert counts == [["mock/b", "3", "(7", "seats)", "0", "1", "1"]]  # matches (seats), re-asks, abstentions, forfeits


def test_the_report_has_an_undercover_section(run: tuple[str, str], tmp_path: Path) -> None:
    url, run_id = run
    with Store.open(url) as store:
        data = build_report(store, run_id, default_registry())
    [section] = team_sections(data)
    titles = [table.title for table in section.tables]
    assert titles == ["Undercover: per model and side", "Undercover: team Elo",
                      "Undercover: win rate by concept category", "Undercover: the judges' scores"]
    [team] = data.teams
    assert {row.model for row in team.elo} == {"mock/a", "mock/b"} and team.order is not None
    assert all(row.low <= row.rating <= row.high for row in team.elo)
    files = write_report(data, tmp_path / "report")
    html, markdown = files.html.read_text("utf-8"), files.markdown.read_text("utf-8")
    assert 'id="undercover"' in html and "Undercover: team Elo" in html and "[0-100%], n=3 (5 seats)" in html
    assert "### Undercover" in markdown and "#### Undercover: the judges' scores" in markdown
    assert "Judge \\| " not in markdown and "| mock/j | novelty | 12 | 0 | 2 |" in markdown


def four_seats(won: bool) -> Log:
    """A table of four, player4 the undercover agent, one round: the civilians vote the agent out and win, or
    (``won`` false) a tie of votes leaves it in after the last round and it wins."""
    log = Log(_spec("animals", "lion", "tiger", {"player1": CIVILIAN, "player2": CIVILIAN, "player3": CIVILIAN,
                                                 "player4": UNDERCOVER}, max_rounds=1))
    for seat in ("player1", "player2", "player3", "player4"):
        log.say(seat, (1.0, 0.6, 1.0))
    targets = ({"player1": "player4", "player2": "player4", "player3": "player4", "player4": "player1"} if won else
               {"player1": "player2", "player2": "player1", "player3": "player4", "player4": "player3"})
    for seat, target in targets.items():
        log.vote(seat, target)
    return log


def _side_results(url: str, tables: list[tuple[Log, dict[str, str]]]) -> SideResults:
    with Store.open(url) as store:
        run_id = store.create_run("undercover", 1, {})
        for index, (log, models) in enumerate(tables):
            _store(store, run_id, index, log, models, {JUDGE: J})
        found = side_results(store, [run_id], default_registry(), "undercover")
    assert found is not None
    return found


def test_two_seats_of_each_of_four_tables_get_the_interval_of_four_matches_not_eight_seats(tmp_path: Path) -> None:
    won_table, lost_table = game.outcome(four_seats(True).state), game.outcome(four_seats(False).state)
    assert won_table is not None and won_table.winning_team == CIVILIAN
    assert lost_table is not None and lost_table.winning_team == UNDERCOVER
    two = {"player1": "mock/a", "player2": "mock/a", "player3": "mock/b", "player4": "mock/b"}
    mixed = _side_results(f"sqlite:///{tmp_path / 'mixed.db'}", [(four_seats(won), two) for won in
                                                                  (True, True, True, False)])
    civ = row(mixed, "mock/a", CIVILIAN)  # 6 of 8 seats, in 3 of 4 matches, the two seats always alike
    assert (civ.wins.count, civ.wins.n, civ.wins.matches, civ.n_text()) == (6, 8, 4, "4 (8 seats)")
    interval = (civ.wins.low, civ.wins.high)
    assert interval == cluster_rate_interval([(1, 1)] * 3 + [(0, 1)])  # the same four matches, one seat each
    low, high = interval
    seats_low, seats_high = wilson_interval(6, 8)
    assert low is not None and high is not None and seats_low is not None and seats_high is not None
    assert high - low > seats_high - seats_low  # eight seats as independent trials would claim more than is known
    assert mean(civ, "vote_accuracy").matches == 4 and share(civ, "out_by_vote").n_text() == "4 (8 seats)"
    all_won = _side_results(f"sqlite:///{tmp_path / 'won.db'}", [(four_seats(True), two)] * 4)
    won = row(all_won, "mock/a", CIVILIAN)
    assert (won.wins.low, won.wins.high) == wilson_interval(4, 4) != wilson_interval(8, 8)
    assert won.wins.low == pytest.approx(0.5101, abs=1e-4)  # 4 of 4 matches; 8 of 8 seats would claim 0.68


def test_a_model_is_marked_against_the_random_baseline_on_the_same_side(tmp_path: Path) -> None:
    """Six tables the civilians win with mock/a in two civilian seats and the random baseline as the agent, and
    six the agent wins with mock/a as the agent and the baseline in three civilian seats: mock/a's 6 of 6 matches
    on each side lie above the baseline's 0 of 6 there."""
    random_agent = {"player1": "mock/a", "player2": "mock/a", "player3": "mock/b", "player4": RANDOM_BASELINE}
    random_civilians = {"player1": RANDOM_BASELINE, "player2": RANDOM_BASELINE, "player3": RANDOM_BASELINE,
                        "player4": "mock/a"}
    found = _side_results(f"sqlite:///{tmp_path / 'chance.db'}",
                          [(four_seats(True), random_agent)] * 6 + [(four_seats(False), random_civilians)] * 6)
    assert [(r.model, r.side) for r in found.baselines] == [(RANDOM_BASELINE, side) for side in
                                                            (CIVILIAN, UNDERCOVER, ALL)]
    assert all(r.model != RANDOM_BASELINE for r in found.rows) and found.verdicts
    chance = row(replace(found, rows=found.baselines), RANDOM_BASELINE, CIVILIAN)
    assert (chance.wins.count, chance.n_text(), chance.verdict) == (0, "6 (18 seats)", None)
    assert (chance.wins.low, chance.wins.high) == wilson_interval(0, 6)
    assert row(found, "mock/a", CIVILIAN).verdict == ABOVE and row(found, "mock/a", UNDERCOVER).verdict == ABOVE
    assert row(found, "mock/b", CIVILIAN).verdict == ABOVE
    assert row(found, "mock/a", ALL).verdict is None  # its seats mix the sides otherwise than the baseline's
    assert [r.model for r in found.categories] == [None, "mock/a", "mock/b", RANDOM_BASELINE]
    text = " ".join(_cli("analyze", "undercover", "--db", f"sqlite:///{tmp_path / 'chance.db'}").split())
    assert "mock/a civilian 6 (12 seats) 1.00 [0.61, 1.00] above chance 0.50" in text
    assert "baselines random civilian 6 (18 seats) 0.00 [0.00, 0.39] 0.50" in text
    assert "random all 12 (24 seats)" in text and "Against the random baseline on the same side" in text
