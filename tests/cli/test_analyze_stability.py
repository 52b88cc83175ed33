"""``playeval analyze stability RUN_A RUN_B`` end to end, and ``analyze compare`` refusing what chance explains.

Two stores: one whose runs are written match by match with outcomes chosen so that every number is worked out
by hand, and one whose runs are played by scripted mock models, to check the command on matches as the engine
records them.
"""

from __future__ import annotations

import asyncio
import functools
import json
from pathlib import Path

import pytest
from bad_stores import run_main
from typer.testing import CliRunner

from playeval.cli.main import app
from playeval.core.events import SeatAssignment
from playeval.core.match import MatchSpec, Outcome
from playeval.core.registry import default_registry
from playeval.engine import BatchRunner, RunConfig, create_run
from playeval.models import ModelHub, ModelRequest
from playeval.store import Store

AKI = MatchSpec(game="akinator", level=1, seed=1, setup={"secret": "a lamp"}, variants={"guesser": 0, "answerer": 0})
TABOO = MatchSpec(game="taboo", level=1, seed=2, setup={"secret": "otter"}, variants={"guesser": 1, "clue_giver": 0},
                  params={"secret_set": "animals"})
OTHER = {"akinator": "answerer", "taboo": "clue_giver"}

# Wins of 4 scored matches each. Run A: akinator a > b > c > d; taboo b > e > a > c > d; overall (mean of the two
# games, models in both only) b .875 > a .75 > c .375 > d .125. A baseline is played too and never ranked.
# Run B: akinator a > c > b > d (b and c swapped); taboo b > (a = f) > c > d (f in B only, so left out with its
# tie), so over the shared models taboo agrees completely; overall a .75 > b .625 > c .5 > d .125 (a and b swapped: RBO
# 0.9^4 + (0.1/0.9)(0 + 0.9^2 + 0.9^3 + 0.9^4) = 0.90).
WINS_A = {"akinator": {"mock/a": 4, "mock/b": 3, "mock/c": 2, "mock/d": 1, "baseline/random": 4},
          "taboo": {"mock/a": 2, "mock/b": 4, "mock/c": 1, "mock/d": 0, "mock/e": 3}}
WINS_B = {"akinator": {"mock/a": 4, "mock/b": 2, "mock/c": 3, "mock/d": 1},
          "taboo": {"mock/a": 2, "mock/b": 3, "mock/c": 1, "mock/d": 0, "mock/f": 2}}


def _write_run(store: Store, wins: dict[str, dict[str, int]]) -> str:
    run = store.create_run(",".join(wins), 1, {"n": 4})
    index = 0
    for game, by_model in wins.items():
        spec = AKI if game == "akinator" else TABOO
        for model, won in by_model.items():
            for k in range(4):
                seats = [SeatAssignment(seat="guesser", player_kind="llm", model=model, prompt_variant=0,
                                        evaluated=True),
                         SeatAssignment(seat=OTHER[game], player_kind="scripted", prompt_variant=0, evaluated=False)]
                match_id = store.create_match(spec=spec, seats=seats, run_id=run, match_index=index)
                index += 1
                winner = "guesser" if k < won else OTHER[game]
                store.finish_match(match_id, Outcome(status="finished", winners=(winner,), reason="test", rounds=3))
    return run


@pytest.fixture
def written(tmp_path: Path) -> tuple[str, str, str]:
    db = f"sqlite:///{tmp_path / 'written.db'}"
    with Store.open(db) as store:
        return db, _write_run(store, WINS_A), _write_run(store, WINS_B)


def _invoke(*args: str) -> tuple[int, str]:
    done = CliRunner().invoke(app, list(args), env={"COLUMNS": "200"})
    return done.exit_code, done.output


def test_stability_of_two_written_runs(written: tuple[str, str, str]) -> None:
    db, run_a, run_b = written
    code, out = _invoke("analyze", "stability", run_a, run_b, "--db", db)
    assert code == 0, out
    lines = out.splitlines()
    assert lines[0] == f"stability: {run_a} (A) vs {run_b} (B)"
    table = {line.split()[0]: line.split()[1:] for line in lines[3:6]}
    assert table["overall"] == ["4", "0", "0.67", "0.1667", "exact", "0.90", "1"]
    assert table["akinator"][:5] == ["4", "0", "0.67", "0.1667", "exact"] and table["akinator"][-1] == "1"
    assert table["taboo"] == ["4", "0", "1.00", "0.0417", "exact", "1.00", "0"]
    assert "overall: swapped (order in A, reversed in B): mock/b > mock/a" in lines
    assert "akinator: swapped (order in A, reversed in B): mock/b > mock/c" in lines
    assert "taboo: left out, ranked only in A: mock/e; only in B: mock/f" in lines
    assert "baseline/random" not in out  # a baseline is a reference, never ranked
    assert "* even" not in out and "with ties" not in out

    code, out = _invoke("analyze", "stability", run_a, run_b, "--json", "--db", db)
    assert code == 0, out
    data = json.loads(out)
    scopes = {s["scope"]: s for s in data["scopes"]}
    assert list(scopes) == ["overall", "akinator", "taboo"]
    assert scopes["overall"]["order_a"] == ["mock/b", "mock/a", "mock/c", "mock/d"]
    assert scopes["overall"]["order_b"] == ["mock/a", "mock/b", "mock/c", "mock/d"]
    assert scopes["akinator"]["swapped"] == [["mock/b", "mock/c"]]
    assert scopes["taboo"]["p"] == pytest.approx(1 / 24) and scopes["taboo"]["only_b"] == ["mock/f"]
    assert (data["a"], data["b"]) == (run_a, run_b)


def test_stability_refuses_in_one_line(written: tuple[str, str, str], tmp_path: Path) -> None:
    db, run_a, _ = written
    code, _, err = run_main(["analyze", "stability", run_a, "nosuchrun", "--db", db])
    assert code != 0 and len(err.strip().splitlines()) == 1 and "nosuchrun" in err and "Traceback" not in err
    with Store.open(db) as store:
        lone = _write_run(store, {"taboo": {"mock/a": 1, "mock/b": 1}})  # everyone ties: nothing is ranked
        bluff = _write_run(store, {"akinator": {"mock/a": 1, "mock/b": 2}})
    code, _, err = run_main(["analyze", "stability", run_a, lone, "--db", db])
    assert code == 2 and err.startswith(f"error: run {lone} ranks no models") and len(err.strip().splitlines()) == 1
    code, out = _invoke("analyze", "stability", bluff, run_a, "--db", db)
    assert code == 0 and "akinator" in out  # akinator and overall are ranked by both
    other = f"sqlite:///{tmp_path / 'other.db'}"
    with Store.open(other) as store:
        only_aki = _write_run(store, {"akinator": {"mock/a": 1, "mock/b": 2}})
        only_taboo = _write_run(store, {"taboo": {"mock/a": 1, "mock/b": 2}})
    code, out = _invoke("analyze", "stability", only_aki, only_taboo, "--db", other)
    # each run's overall holds the models of its one game, so overall is shared even where no game is
    assert code == 0 and "scopes ranked on one side only: A: akinator; B: taboo" in out


def test_compare_refuses_three_models_and_too_few_matches(written: tuple[str, str, str], tmp_path: Path) -> None:
    db, run_a, _ = written
    rankings = tmp_path / "rankings.json"
    rankings.write_text(json.dumps({"three": ["mock/a", "mock/b", "mock/c"]}), encoding="utf-8")
    code, _, err = run_main(["analyze", "compare", run_a, "--rankings", str(rankings), "--db", db])
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert err.startswith("error: no comparison can be told from chance:")
    assert "share 3 models; at least 4 are needed (with 3, even identical rankings have p = 1/6" in err
    rankings.write_text(json.dumps({"four": ["mock/a", "mock/b", "mock/c", "mock/d"]}), encoding="utf-8")
    code, out = _invoke("analyze", "compare", run_a, "--rankings", str(rankings), "--db", db)
    assert code == 0, out
    row = next(line.split() for line in out.splitlines() if line.split()[:1] == ["Akinator-Outcome"])
    assert row[:4] == ["Akinator-Outcome", "four", "4", "4"]  # n, then the fewest matches of a model
    assert row[5:9] == ["1.00", "0.0417", "exact", "1.00"]
    # the same four models from three matches each: refused, saying how many are needed
    with Store.open(db) as store:
        three_each = store.create_run("akinator", 1, {"n": 3})
        for index, (model, won) in enumerate((m, k < w) for m, w in (("mock/a", 3), ("mock/b", 2), ("mock/c", 1),
                                                                      ("mock/d", 0)) for k in range(3)):
            seats = [SeatAssignment(seat="guesser", player_kind="llm", model=model, prompt_variant=0, evaluated=True),
                     SeatAssignment(seat="answerer", player_kind="scripted", prompt_variant=0, evaluated=False)]
            match_id = store.create_match(spec=AKI, seats=seats, run_id=three_each, match_index=index)
            store.finish_match(match_id, Outcome(status="finished", winners=("guesser" if won else "answerer",),
                                                 reason="test", rounds=3))
    code, _, err = run_main(["analyze", "compare", three_each, "--rankings", str(rankings), "--db", db])
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "Akinator-Outcome: mock/a has 3 scored matches; at least 4 per model are needed" in err


def _bluff_questioner(verdict: str, request: ModelRequest) -> str:
    """A Bluffing questioner that gives its verdict at once; 'garbage' never gives a readable move (forfeits)."""
    if verdict == "garbage":
        return "~~ not a move ~~"
    return f"I believe your statement is: {verdict}"


SCRIPTS = {"true": functools.partial(_bluff_questioner, "True"), "false": functools.partial(_bluff_questioner, "False"),
           "garbage": functools.partial(_bluff_questioner, "garbage")}


def _play(db: str, models: tuple[str, ...], seed: int) -> str:
    config = RunConfig(games=("bluffing",), models=models, opponent="scripted", n=6, seed=seed)

    async def play() -> str:
        with Store.open(db) as store:
            run = create_run(store, default_registry(), config)
            async with ModelHub(use_cache=False, mock_scripts=SCRIPTS) as hub:
                await BatchRunner(store, hub, default_registry()).run(run)
            return run

    return asyncio.run(play())


def test_stability_of_played_runs(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'played.db'}"
    first = _play(db, ("mock/true", "mock/false", "mock/garbage"), seed=1)
    replay = _play(db, ("mock/true", "mock/false", "mock/garbage"), seed=1)
    other = _play(db, ("mock/true", "mock/garbage", "mock/player"), seed=2)
    code, out = _invoke("analyze", "stability", first, replay, "--json", "--db", db)
    assert code == 0, out
    bluffing = {s["scope"]: s for s in json.loads(out)["scopes"]}["bluffing"]
    # the same seed and deterministic players: the same matches, the same order; a model that forfeits every
    # match wins none, so it is last
    assert bluffing["order_a"] == bluffing["order_b"] and bluffing["tau"] == 1.0 and bluffing["swapped"] == []
    assert bluffing["order_a"][-1] == "mock/garbage" and bluffing["can_be_significant"] is False
    code, out = _invoke("analyze", "stability", first, other, "--json", "--db", db)
    assert code == 0, out
    bluffing = {s["scope"]: s for s in json.loads(out)["scopes"]}["bluffing"]
    assert bluffing["only_a"] == ["mock/false"] and bluffing["only_b"] == ["mock/player"]
    assert bluffing["order_a"] == ["mock/true", "mock/garbage"] == bluffing["order_b"]


def test_models_tied_in_both_runs_do_not_make_a_significant_agreement(tmp_path: Path) -> None:
    # mock/true, mock/false and mock/player each win half of these Bluffing matches in both runs; ordered by
    # name, the four models would agree perfectly (tau = 1, p = 1/24 < 0.05) on nothing but the alphabet
    db = f"sqlite:///{tmp_path / 'tied.db'}"
    models = ("mock/true", "mock/false", "mock/garbage", "mock/player")
    first, second = _play(db, models, seed=1), _play(db, models, seed=1)
    code, out = _invoke("analyze", "stability", first, second, "--json", "--db", db)
    assert code == 0, out
    bluffing = {s["scope"]: s for s in json.loads(out)["scopes"]}["bluffing"]
    assert bluffing["order_a"] == [["mock/false", "mock/player", "mock/true"], "mock/garbage"]
    assert bluffing["tied"] == 3 and bluffing["p"] == pytest.approx(0.25) and not bluffing["can_be_significant"]
    code, out = _invoke("analyze", "stability", first, second, "--db", db)
    assert "bluffing: with ties, A: (mock/false = mock/player = mock/true) > mock/garbage" in out


def test_baselines_can_be_ranked_with_the_models_and_win_rates_ranked_instead(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'base.db'}"

    def play(seed: int) -> str:
        config = RunConfig(games=("bluffing",), models=("mock/true", "mock/garbage"), opponent="scripted", n=6,
                           seed=seed, baselines=True)

        async def run() -> str:
            with Store.open(db) as store:
                run_id = create_run(store, default_registry(), config)
                async with ModelHub(use_cache=False, mock_scripts=SCRIPTS) as hub:
                    await BatchRunner(store, hub, default_registry()).run(run_id)
                return run_id

        return asyncio.run(run())

    first, second = play(1), play(2)
    code, out = _invoke("analyze", "stability", first, second, "--json", "--with-baselines", "--db", db)
    assert code == 0, out
    ranked = {s["scope"]: s for s in json.loads(out)["scopes"]}["bluffing"]
    flat = [p for entry in ranked["order_a"] for p in (entry if isinstance(entry, list) else [entry])]
    assert {"baseline/random", "baseline/naive", "mock/true", "mock/garbage"} <= set(flat)
    code, out = _invoke("analyze", "stability", first, second, "--json", "--db", db)
    assert code == 0, out
    assert "baseline/" not in out
    code, out = _invoke("analyze", "stability", first, second, "--by", "win-rate", "--db", db)
    assert code == 0, out
    code, out = _invoke("analyze", "stability", first, second, "--by", "luck", "--db", db)
    assert code != 0 and "--by" in out
