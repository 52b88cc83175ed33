"""The Signal example plugin, installed by its entry point, gets from ``results``, ``report``, ``analyze``, the arena
and the terminal what Undercover gets: team Elo, side tables, the win rate per category, its plot and its score's
label, all from what it declares; and adding it touched no file outside its folder.

The run: ``mock/player`` and ``mock/garbage`` in every evaluated seat, ``mock/player`` in the others; mock/garbage
runs out of re-asks and is put out, and its partner plays on.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from playeval.analysis.sides import elo_games, side_results, stored_matches
from playeval.cli.main import app
from playeval.core.registry import default_registry
from playeval.core.rng import match_rng
from playeval.store import Store

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))

from arena_client import client_for, make_settings

from playeval.web import create_app

ROOT = Path(__file__).resolve().parents[2]
PLUGIN = ROOT / "examples" / "plugins" / "signal"


@dataclass(frozen=True)
class SignalRun:
    db: str
    run_id: str


def _cli(*args: str) -> str:
    done = CliRunner().invoke(app, list(args), env={"COLUMNS": "200"})
    assert done.exit_code == 0, done.output
    return done.output


@pytest.fixture
def signal_run(signal_installed: dict[str, str], tmp_path: Path) -> SignalRun:
    db = f"sqlite:///{tmp_path / 's.db'}"
    _cli("run", "signal", "--models", "mock/player,mock/garbage", "--opponent", "mock/player", "--n", "2", "--seed",
         "1", "--no-cache", "--db", db)
    with Store.open(db) as store:
        run_id = store.latest_run_id()
    assert run_id is not None
    return SignalRun(db=db, run_id=run_id)


def test_the_game_comes_from_the_entry_point_alone(signal_installed: dict[str, str]) -> None:
    from playeval.games import BUILTIN_GAMES

    game = default_registry().get("signal")
    assert type(game).__module__ == "playeval_signal.rules" and "signal" not in {cls.id for cls in BUILTIN_GAMES}
    assert game.teams is not None and game.teams.elo is not None and game.plots == ("team_elo",)
    outside = [path for folder in ("src", "docs") for path in (ROOT / folder).rglob("*")
               if path.is_file() and path.suffix in (".py", ".toml", ".cfg", ".txt", ".html", ".js")
               and "playeval_signal" in path.read_text("utf-8", errors="replace")]
    assert outside == []  # playeval names no file of it: the folder is the whole of it
    assert (PLUGIN / "pyproject.toml").read_text("utf-8").count('signal = "playeval_signal:Signal"') == 1


def test_results_show_the_declared_counts_and_the_score_label(signal_run: SignalRun) -> None:
    out = _cli("results", signal_run.run_id, "--db", signal_run.db)
    assert "signal: forfeits per model" in out and f"playeval analyze signal {signal_run.run_id}" in out
    table = out.split("signal: forfeits per model")[1].split("cost: every model call")[0]
    counts = {line.split()[0]: line.split()[1:] for line in table.splitlines() if line.strip().startswith("mock/")}
    # matches (seats), forfeits
    assert counts == {"mock/garbage": ["4", "(8", "seats)", "8"], "mock/player": ["4", "(8", "seats)", "0"]}
    assert "score: each game's own per-seat number, the mean over seats: signal: team points." in " ".join(
        out.split())
    rows = [line for line in out.splitlines() if line.strip().startswith("mock/player") and " red " in line]
    assert rows and "points" in rows[0]


def test_analyze_prints_the_side_tables_and_the_team_elo(signal_run: SignalRun) -> None:
    sides = _cli("analyze", "signal", signal_run.run_id, "--db", signal_run.db)
    assert "signal, 4 matches, per model and side" in sides
    header = next(line for line in sides.splitlines() if line.strip().startswith("model"))
    assert header.split() == ["model", "side", "n", "win", "[95%", "CI]", "run's", "rate", "agreed", "focal",
                              "forfeits"]
    player = {line.split()[1]: line.split() for line in sides.splitlines() if line.strip().startswith("mock/player")
              and len(line.split()) > 8}
    assert set(player) == {"red", "blue", "all"} and player["all"][2:5] == ["4", "(8", "seats)"]  # over matches
    assert "signal: win rate by symbol set" in sides and "(red team's matches)" in sides
    elo = _cli("analyze", "elo", signal_run.run_id, "--db", signal_run.db)
    assert "team Elo over 4 signal games" in elo and "actual score 0.80 won + 0.20 agreement" in elo
    assert "mock/player" in elo and "mock/garbage" in elo
    listed = _cli("analyze", "--help")
    assert "signal" in listed and "undercover" in listed


def test_elo_of_a_game_without_one_is_one_clear_line(signal_run: SignalRun) -> None:
    done = CliRunner().invoke(app, ["analyze", "elo", signal_run.run_id, "--game", "bluffing", "--db", signal_run.db],
                              env={"COLUMNS": "200"})
    assert done.exit_code == 2
    assert "bluffing has no team Elo; games with one: signal, undercover" in " ".join(done.output.split())


def test_the_declared_measures_and_the_elo_input_come_from_the_game(signal_run: SignalRun) -> None:
    registry = default_registry()
    with Store.open(signal_run.db) as store:
        results = side_results(store, [signal_run.run_id], registry, "signal")
        games = elo_games(registry.get("signal"), stored_matches(store, [signal_run.run_id], "signal"))
    assert results is not None and results.matches == 4 and set(results.team_wins) == {"red", "blue"}
    garbage = next(row for row in results.rows if row.model == "mock/garbage" and row.side == "all")
    assert garbage.values["forfeited"] == 8  # out in the first round, every seat of it
    assert len(games) == 4 and all({seat.team for seat in game} == {"red", "blue"} for game in games)
    # a seat's actual score, as Signal weighs it: 0.8 won + 0.2 agreement; mock/garbage never picked
    assert all(seat.actual == (0.8 if seat.won else 0.0) for game in games for seat in game
               if seat.model == "mock/garbage")


def test_the_report_has_the_game_s_section_plot_and_score(signal_run: SignalRun, tmp_path: Path) -> None:
    _cli("report", signal_run.run_id, "--out", str(tmp_path / "report"), "--db", signal_run.db)
    markdown = (tmp_path / "report" / "report.md").read_text("utf-8")
    for heading in ("### Signal", "#### Signal: per model and side", "#### Signal: team Elo",
                    "#### Signal: win rate by symbol set", "### Signal: team Elo"):
        assert heading in markdown, heading
    assert "| Play: Agreement | Play: Focal picks | Counts: Forfeits |" in markdown
    assert "Signal: Team points |" in markdown and "red won" in markdown
    assert (tmp_path / "report" / "plots" / "elo_signal.png").stat().st_size > 1000
    html = (tmp_path / "report" / "index.html").read_text("utf-8")
    assert 'href="#signal"' in html and '<h3 id="signal">Signal</h3>' in html
    page = next((tmp_path / "report" / "transcripts").glob("*.html")).read_text("utf-8")
    assert "team points: " in page and " points</td>" in page


async def test_the_arena_end_table_labels_the_score(signal_run: SignalRun, tmp_path: Path) -> None:
    with Store.open(signal_run.db) as store:
        match_id = store.run_matches(signal_run.run_id)[0].id
    app_ = create_app(make_settings(tmp_path, db=signal_run.db))
    async with app_.router.lifespan_context(app_), client_for(app_) as client:
        replay = (await client.get(f"/api/matches/{match_id}/replay")).json()
    texts = {result["seat"]: result["score_text"] for result in replay["outcome"]["results"]}
    assert set(texts) == {"north", "east", "south", "west"}
    assert all(text is not None and text.startswith("team points: ") and text.endswith(" points")
               for text in texts.values())


def test_a_person_plays_it_at_the_terminal(signal_installed: dict[str, str], tmp_path: Path) -> None:
    game = default_registry().get("signal")
    spec = game.new_spec(1, 2, match_rng(2))
    picks = "".join(f"{min(order['north'])}\n" for order in spec.setup["orders"])
    found = shutil.which("playeval", path=str(Path(sys.executable).parent)) or shutil.which("playeval")
    assert found
    done = subprocess.run([found, "play", "signal", "--as", "north", "--model", "mock/player", "--seed", "2",
                           "--db", f"sqlite:///{tmp_path / 't.db'}"], input=picks, capture_output=True, text=True,
                          env={**signal_installed, "COLUMNS": "200"}, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    assert "you are north; east, south and west are played by mock/player." in done.stdout
    assert "Round 1, red: north " in done.stdout and "points after 3 rounds" in done.stdout
