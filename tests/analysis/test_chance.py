"""Chance beside every number: baseline players' rows apart from the models', each model marked against the random
baseline on the same game, n/a where nothing was scored and why, in ``results``, the report's table and its plot.

The run is stored directly: matches of the same setups (seeds) with the evaluated seat held by a model's address
or a baseline's (``baseline/NAME``), ended as planned, as ``playeval run --baselines`` records them."""

from __future__ import annotations

import random

import pytest
from matplotlib.container import BarContainer
from typer.testing import CliRunner

from playeval.analysis import chance_verdicts, match_rows, split_baselines, summarize
from playeval.analysis.chance import ABOVE, BELOW, NOT_ABOVE, RANDOM_BASELINE, chance_verdict
from playeval.analysis.outcomes import OPPONENT_FORFEIT, ROLE_FAILED, ModelResult
from playeval.cli.main import app
from playeval.core.events import SeatAssignment
from playeval.core.match import Outcome
from playeval.core.registry import default_registry
from playeval.report.build import build_report
from playeval.report.markdown import table as markdown_table
from playeval.report.plots import win_rate_figure
from playeval.report.tables import outcome_table
from playeval.store import Store

N = 10
WINS = {  # game: {player: matches won of N}
    "akinator": {"mock/strong": 9, "mock/weak": 2, RANDOM_BASELINE: 1, "baseline/naive": 3},
    "bluffing": {"mock/strong": 1, RANDOM_BASELINE: 9},
}
OPPONENT = {"akinator": "answerer", "bluffing": "questioner"}
EVALUATED = {"akinator": "guesser", "bluffing": "bluffer"}


def _store(store: Store, run_id: str, index: int, game: str, model: str, outcome: Outcome, seed: int) -> None:
    spec = default_registry().get(game).new_spec(1, seed, random.Random(seed))
    seats = [SeatAssignment(seat=EVALUATED.get(game, "player" if game == "dynamic_picnic" else "guesser"),
                            player_kind="llm", model=model, evaluated=True)]
    other = OPPONENT.get(game, "clue_giver" if game == "taboo" else None)
    if other is not None:
        seats.append(SeatAssignment(seat=other, player_kind="scripted", evaluated=False))
    store.create_match(spec=spec, seats=seats, run_id=run_id, match_index=index, outcome=outcome)


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    """(database url, run id): the games of ``WINS`` on the same ten setups per player, then Dynamic Picnic with
    every match aborted by the game master's failure and Taboo where the clue-giver forfeited every match."""
    url = f"sqlite:///{tmp_path_factory.mktemp('chance') / 'c.db'}"
    index = 0
    with Store.open(url) as store:
        run_id = store.create_run("akinator", 1, {"games": [*WINS, "dynamic_picnic", "taboo"]})
        for game, players in WINS.items():
            seat = EVALUATED[game]
            for model, wins in players.items():
                for seed in range(N):
                    winner = seat if seed < wins else OPPONENT[game]
                    _store(store, run_id, index, game, model,
                           Outcome(status="finished", winners=(winner,), reason="r", rounds=5 + seed % 3), seed)
                    index += 1
        for seed in range(3):
            failed = Outcome(status="aborted", rounds=0, reason="the game master's part failed: no valid examples")
            _store(store, run_id, index, "dynamic_picnic", "mock/strong", failed, seed)
            forfeit = Outcome(status="forfeit", rounds=1, forfeit_seat="clue_giver",
                              reason="clue_giver forfeits after format errors; last: no clue")
            _store(store, run_id, index + 1, "taboo", "mock/strong", forfeit, seed)
            index += 2
    return url, run_id


@pytest.fixture(scope="module")
def results(run: tuple[str, str]) -> list[ModelResult]:
    url, run_id = run
    with Store.open(url, write=False) as store:
        return summarize(match_rows(store, run_id, default_registry()))


def _row(results: list[ModelResult], game: str, model: str) -> ModelResult:
    return next(r for r in results if r.game == game and r.model == model)


def test_baselines_are_rows_of_their_own_and_models_are_marked_against_random(results: list[ModelResult]) -> None:
    models, baselines = split_baselines(results)
    assert {r.model for r in baselines} == {RANDOM_BASELINE, "baseline/naive"}
    assert {r.model for r in models} == {"mock/strong", "mock/weak"}
    verdicts = chance_verdicts(results)
    assert verdicts[("akinator", "mock/strong", None)] == ABOVE  # 9 of 10 against random's 1 of 10
    assert verdicts[("akinator", "mock/weak", None)] == NOT_ABOVE  # 2 of 10: the intervals overlap
    assert verdicts[("bluffing", "mock/strong", None)] == BELOW  # 1 of 10 against random's 9 of 10
    # no baseline on those games, nothing scored, or a baseline's own row: no verdict
    assert ("taboo", "mock/strong", None) not in verdicts and ("dynamic_picnic", "mock/strong", None) not in verdicts
    assert ("akinator", "baseline/naive", None) not in verdicts and ("akinator", RANDOM_BASELINE, None) not in verdicts
    assert chance_verdict(_row(results, "akinator", "mock/weak"), None) is None


def test_nothing_scored_is_n_a_with_the_reason(results: list[ModelResult]) -> None:
    picnic, taboo = _row(results, "dynamic_picnic", "mock/strong"), _row(results, "taboo", "mock/strong")
    assert picnic.win_rate is None and picnic.unscored == ((ROLE_FAILED, 3),) and picnic.played == 3
    assert taboo.win_rate is None and taboo.unscored == ((OPPONENT_FORFEIT, 3),) and taboo.forfeits == 0


def _cli(*args: str) -> str:
    done = CliRunner().invoke(app, list(args), env={"COLUMNS": "240"})
    assert done.exit_code == 0, done.output
    return done.output


def test_results_prints_intervals_n_a_reasons_and_the_baselines_apart(run: tuple[str, str]) -> None:
    url, run_id = run
    out = _cli("results", run_id, "--db", url)
    lines = out.splitlines()
    assert "win [95% CI]" in out and "±" not in out and "vs random" in out
    strong = next(line for line in lines if line.split()[:2] == ["akinator", "mock/strong"])
    assert "0.90 [0.60, 0.98]" in strong and "above chance" in strong and "not above" not in strong
    weak = next(line for line in lines if line.split()[:2] == ["akinator", "mock/weak"])
    assert "0.20 [0.06, 0.51]" in weak and "not above chance" in weak
    picnic = next(line for line in lines if line.split()[:2] == ["dynamic_picnic", "mock/strong"])
    assert " n/a " in picnic and "3 role failed" in picnic and "0.00" not in picnic
    taboo = next(line for line in lines if line.split()[:2] == ["taboo", "mock/strong"])
    assert " n/a " in taboo and "3 opponent forfeit" in taboo
    # the baselines come after every model's row, under a heading, by name
    heading = next(i for i, line in enumerate(lines) if line.split() == ["baselines"])
    assert all("mock/" not in line for line in lines[heading:] if line.split()[:1] in (["akinator"], ["bluffing"]))
    named = [line.split()[:2] for line in lines[heading + 1:] if line.split()[:1] in (["akinator"], ["bluffing"])]
    assert named == [["akinator", "naive"], ["akinator", "random"], ["bluffing", "random"]]


def test_the_report_table_and_plot(run: tuple[str, str]) -> None:
    url, run_id = run
    with Store.open(url, write=False) as store:
        data = build_report(store, run_id, default_registry())
    table = outcome_table(data)
    assert [row[0].text for row in table.rows] == ["mock/strong", "mock/weak", "naive", "random"]
    assert table.sections == ((2, "Baselines"),)
    win = table.columns.index("Win rate")
    groups = [group.label for group in table.groups]
    assert groups[1] == "Akinator"
    strong, weak = table.rows[0], table.rows[1]
    assert strong[win].text == "0.90" and strong[win].bold and strong[win].sub == ("[0.60, 0.98], n=10", ABOVE)
    assert weak[win].sub == ("[0.06, 0.51], n=10", NOT_ABOVE) and not table.rows[3][win].bold
    width = len(table.columns[1:]) // (len(groups) - 1)
    picnic = groups.index("Dynamic Picnic")
    start = 1 + (picnic - 1) * width
    cells = strong[start:start + width]
    assert cells[0].text == "n/a" and cells[3].text == "3" and cells[3].sub == ("3 role failed",)
    assert "not above chance" in table.caption and "Baselines" in table.caption
    markdown = markdown_table(table)
    assert "| **Baselines** |" in markdown and markdown.index("**Baselines**") < markdown.index("| random |")
    fig = win_rate_figure(data.outcomes)
    bars = {str(c.get_label()): c for c in fig.axes[0].containers if isinstance(c, BarContainer)}
    assert len(bars["mock/strong"].patches) == 2  # Akinator and Bluffing: no bar for Dynamic Picnic or Taboo
    assert len(bars["baseline: random"].patches) == 2 and len(bars["mock/weak"].patches) == 1
    assert sum(text.get_text() == "n/a" for text in fig.axes[0].texts) == 2
