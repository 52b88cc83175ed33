"""GuessTheRuleBench's table: win rates with Wilson intervals, the wins the rules and the judge decided, turns and
examples, and the check beside the judge and beside its chance level (with Cohen's kappa)."""

from __future__ import annotations

import random
import re
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from playeval.analysis.rule_games import rule_game_rows
from playeval.cli.main import app
from playeval.core import Ask, Reply
from playeval.core.baselines import NAIVE
from playeval.core.events import RoleAssignment, SeatAssignment
from playeval.core.registry import default_registry
from playeval.engine import play_match
from playeval.games.math import MathGame
from playeval.games.math.sequences import MathRule
from playeval.games.static_picnic import StaticPicnic
from playeval.guess_rule import JUDGE, PLAYER
from playeval.report.data import ReportData
from playeval.report.tables import rule_game_tables
from playeval.store import Store


class _RightButVague:
    """Applies the rule perfectly but states it vaguely: the judge refuses what the check would pass."""

    kind = "scripted"
    model = None
    max_retries = 0

    def __init__(self, game: MathGame, spec_rule: MathRule) -> None:
        self._rule = spec_rule

    async def act(self, ask: Ask) -> Reply:
        if ask.kind == "apply":  # each guess's check asks other items: each is worked out from the rule
            items = re.findall(r"^(\d+)\. position (\d+): (-?\d+)$", ask.display, re.MULTILINE)
            return Reply(text="\n".join(f"{n}. {self._rule.next_value(int(value), int(index))}"
                                        for n, index, value in items))
        return Reply(text="GUESS: it changes in a regular way")


class _YesJudge:
    """A judge that accepts every guess (a lenient model)."""

    kind = "scripted"
    model = None
    max_retries = 0

    async def act(self, ask: Ask) -> Reply:
        return Reply(text="Verdict: yes\nReason: close enough.")


async def _played(path: Path) -> str:
    """A run of four L1 matches: two solvers stating the rule (the rules accept it), a vague player the scripted
    judge refuses twice, and the vague player again before a judge that accepts it."""
    game = MathGame()
    with Store.open(f"sqlite:///{path}") as store:
        run = store.create_run("math", 1, {"games": ["math"], "models": ["mock/m"], "opponent": "scripted", "n": 4})
        for index in range(4):
            spec = game.new_spec(1, index, random.Random(index), options={"max_turns": 3})
            match_id = store.create_match(
                spec=spec, run_id=run, match_index=index,
                seats=[SeatAssignment(seat=PLAYER, player_kind="llm", model="mock/m", evaluated=True)],
                roles=[RoleAssignment(role=JUDGE, player_kind="scripted")])
            solver = game.scripted_player(PLAYER, spec) if index < 2 else _RightButVague(game, game.rule_of(spec))
            judge = _YesJudge() if index == 3 else game.scripted_player(JUDGE, spec)
            await play_match(game, spec, {PLAYER: solver, JUDGE: judge}, store, match_id)
    return run


async def test_the_table_counts_wins_apart_by_who_decided_and_the_judges_agreement_with_the_check(
        tmp_path: Path) -> None:
    run = await _played(tmp_path / "r.db")
    with Store.open(f"sqlite:///{tmp_path / 'r.db'}") as store:
        [row] = rule_game_rows(store, run, default_registry())
    assert (row.game, row.level, row.model, row.matches, row.wins) == ("math", 1, "mock/m", 4, 3)
    assert row.win_rate == pytest.approx(3 / 4) and row.ci_low is not None and row.ci_low < 3 / 4 < (row.ci_high or 0)
    assert row.check_accuracy == 1.0  # every match's check was right
    # the two solvers state the rule: the rules accept it, no judge asked; the lenient judge accepted the last
    assert row.rule_wins == 2 and row.wins - row.rule_wins == 1
    # only judged guesses count for the judge: the vague player's two refusals (the check passed) and one yes
    assert row.judged == 2 + 1 and row.agreement == pytest.approx(1 / 3)
    assert row.turns == pytest.approx((3 + 3 + 3 + 2) / 4)


async def test_analyze_rules_shows_the_wins_the_rules_and_the_judge_decided(tmp_path: Path) -> None:
    run = await _played(tmp_path / "r.db")
    result = CliRunner().invoke(app, ["analyze", "rules", run, "--db", f"sqlite:///{tmp_path / 'r.db'}"],
                                env={"COLUMNS": "220"})
    assert result.exit_code == 0, result.output
    head = next(line for line in result.output.splitlines() if "win [95% CI]" in line)
    assert "won by rules/judge" in head
    [row] = [line.split() for line in result.output.splitlines() if line.split()[:1] == ["math"]]
    assert row[row.index("0.75") + 3] == "2/1"  # after the rate and its interval: 2 by the rules, 1 by the judge
    assert "without asking the judge" in result.output


async def _picnic_run(path: Path) -> str:
    """Static Picnic, three L1 matches each for a player answering 'yes' to every check item (the naive baseline)
    and for the scripted solver, whose check is all right; the items are balanced yes/no (30 for each model's three
    matches: every rule keeps 5 of each side apart since the data was rebuilt for issue 23)."""
    game = StaticPicnic()
    with Store.open(f"sqlite:///{path}") as store:
        run = store.create_run("static_picnic", 1, {"games": ["static_picnic"], "models": ["mock/yes", "mock/right"],
                                                    "opponent": "scripted", "n": 3})
        for index in range(6):
            model = "mock/yes" if index < 3 else "mock/right"
            spec = game.new_spec(1, index, random.Random(index))
            match_id = store.create_match(
                spec=spec, run_id=run, match_index=index,
                seats=[SeatAssignment(seat=PLAYER, player_kind="llm", model=model, evaluated=True)],
                roles=[RoleAssignment(role=JUDGE, player_kind="scripted")])
            player = game.baseline_player(NAIVE, PLAYER, spec) if index < 3 else game.scripted_player(PLAYER, spec)
            await play_match(game, spec, {PLAYER: player, JUDGE: game.scripted_player(JUDGE, spec)}, store, match_id)
    return run


async def test_the_check_accuracy_comes_with_its_chance_level_and_a_chance_corrected_kappa(tmp_path: Path) -> None:
    """Answering 'yes' to balanced yes/no items scores 50%, its chance level: kappa 0. A check all right: kappa 1.
    The Math Game's open next values have chance 0."""
    run = await _picnic_run(tmp_path / "p.db")
    with Store.open(f"sqlite:///{tmp_path / 'p.db'}") as store:
        rows = {row.model: row for row in rule_game_rows(store, run, default_registry())}
    yes, right = rows["mock/yes"], rows["mock/right"]
    assert (yes.check_items, right.check_items) == (30, 30)  # every item of each match's one check
    assert yes.check_accuracy == pytest.approx(0.5) and yes.check_chance == pytest.approx(0.5)
    assert yes.check_kappa == pytest.approx(0.0)
    assert right.check_accuracy == 1.0 and right.check_chance == pytest.approx(0.5)
    assert right.check_kappa == pytest.approx(1.0)
    math_run = await _played(tmp_path / "m.db")
    with Store.open(f"sqlite:///{tmp_path / 'm.db'}") as store:
        [row] = rule_game_rows(store, math_run, default_registry())
    assert row.check_items == 40 and row.check_chance == 0.0 and row.check_kappa == pytest.approx(1.0)


def test_the_chance_level_is_the_share_of_the_commonest_right_answer() -> None:
    picnic = StaticPicnic()
    assert picnic.check_chance(["yes", "no"] * 5) == 0.5
    assert picnic.check_chance(["yes"] * 7 + ["no"] * 3) == pytest.approx(0.7)
    assert MathGame().check_chance(["12", "15", "12"]) == 0.0  # open numbers: not hit by chance


async def test_analyze_results_and_the_report_show_the_check_beside_its_chance(tmp_path: Path) -> None:
    run = await _picnic_run(tmp_path / "p.db")
    db = f"sqlite:///{tmp_path / 'p.db'}"
    analyzed = CliRunner().invoke(app, ["analyze", "rules", run, "--db", db], env={"COLUMNS": "240"})
    assert analyzed.exit_code == 0, analyzed.output
    head = next(line.split() for line in analyzed.output.splitlines() if "win [95% CI]" in line)
    assert head[head.index("acc.") + 1:head.index("acc.") + 3] == ["chance", "kappa"]
    yes = next(line.split() for line in analyzed.output.splitlines() if "mock/yes" in line)
    assert yes[yes.index("50.0%"):yes.index("50.0%") + 3] == ["50.0%", "50.0%", "+0.00"]
    results = CliRunner().invoke(app, ["results", run, "--db", db], env={"COLUMNS": "240"})
    assert results.exit_code == 0, results.output
    assert "the rule-application check beside chance" in results.output
    right = next(line.split() for line in results.output.splitlines()
                 if "mock/right" in line and "static_picnic" in line and "+1.00" in line)
    assert right[-4:] == ["30", "100%", "50%", "+1.00"]
    with Store.open(db) as store:
        data = replace(ReportData(run_id=run, title="t", created="2026-01-01T00:00:00", config={}, outcomes=(),
                                  procedural=(), metric_specs={}, skills=(), recall_curves=(), trajectories=(),
                                  profiles=(), transcripts=()),
                       rule_games=tuple(rule_game_rows(store, run, default_registry())))
    _, checks = rule_game_tables(data)
    at = checks.columns.index("Check accuracy")
    assert checks.columns[at + 1:at + 3] == ("Chance", "Kappa")
    cells = {row[2].text: row for row in checks.rows}
    assert [cell.text for cell in cells["mock/yes"][at:at + 3]] == ["50%", "50%", "+0.00"]
    assert cells["mock/yes"][at + 1].sub == ("30 items",) and "answering 'yes' to everything scores 0" in checks.caption
