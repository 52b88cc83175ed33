"""GuessTheRuleBench's table: win rates with Wilson intervals, the wins the rules and the judge decided, turns and
examples, and the check beside the judge."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from playeval.analysis.rule_games import rule_game_rows
from playeval.cli.main import app
from playeval.core import Ask, Reply
from playeval.core.events import RoleAssignment, SeatAssignment
from playeval.core.registry import default_registry
from playeval.engine import play_match
from playeval.games.math import MathGame, held_out
from playeval.guess_rule import JUDGE, PLAYER
from playeval.store import Store


class _RightButVague:
    """Applies the rule perfectly but states it vaguely: the judge refuses what the check would pass."""

    kind = "scripted"
    model = None
    max_retries = 0

    def __init__(self, game: MathGame, spec_rule: object) -> None:
        self._answers = [following for _, _, following in held_out(spec_rule) or []]  # type: ignore[arg-type]

    async def act(self, ask: Ask) -> Reply:
        if ask.kind == "apply":
            return Reply(text="\n".join(f"{n}. {a}" for n, a in enumerate(self._answers, start=1)))
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
