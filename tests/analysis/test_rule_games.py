"""GuessTheRuleBench's table: win rates with Wilson intervals, turns and examples, and the check beside the judge."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from playeval.analysis.rule_games import rule_game_rows
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


async def test_the_table_counts_wins_and_the_judges_agreement_with_the_check(tmp_path: Path) -> None:
    game = MathGame()
    with Store.open(f"sqlite:///{tmp_path / 'r.db'}") as store:
        run = store.create_run("math", 1, {"games": ["math"], "models": ["mock/m"], "opponent": "scripted", "n": 3})
        for index in range(3):
            spec = game.new_spec(1, index, random.Random(index), options={"max_turns": 3})
            match_id = store.create_match(
                spec=spec, run_id=run, match_index=index,
                seats=[SeatAssignment(seat=PLAYER, player_kind="llm", model="mock/m", evaluated=True)],
                roles=[RoleAssignment(role=JUDGE, player_kind="scripted")])
            solver = game.scripted_player(PLAYER, spec) if index < 2 else _RightButVague(game, game.rule_of(spec))
            await play_match(game, spec, {PLAYER: solver, JUDGE: game.scripted_player(JUDGE, spec)}, store,
                             match_id)
        [row] = rule_game_rows(store, run, default_registry())
    assert (row.game, row.level, row.model, row.matches, row.wins) == ("math", 1, "mock/m", 3, 2)
    assert row.win_rate == pytest.approx(2 / 3) and row.ci_low is not None and row.ci_low < 2 / 3 < (row.ci_high or 0)
    assert row.check_accuracy == 1.0  # every match's check was right
    # two solvers: passed and accepted; the vague player guessed twice before max_turns: passed, refused, twice
    assert row.judged == 2 + 2 and row.agreement == pytest.approx(2 / 4)
    assert row.turns == pytest.approx((3 + 3 + 3) / 3)
