"""``playeval leaderboard``: the boards' ratings with intervals, chance and people beside them, the overall rating,
the JSON scripts read, and one clear line when there is nothing to rate.

The database: one Taboo run (``mock/a`` wins all twelve setups, ``mock/b`` three, ``baseline/random`` one), the same
run played again (its matches are copies), and a person who guessed once in the arena."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from playeval.cli.main import app
from playeval.core.events import SeatAssignment
from playeval.core.match import MatchSpec, Outcome
from playeval.store import Store

RANDOM = "baseline/random"
CONFIG = {"games": ["taboo"], "models": ["mock/a", "mock/b", RANDOM], "opponent": "scripted", "n": 12}
WINS = {"mock/a": 12, "mock/b": 3, RANDOM: 1}


def _spec(seed: int) -> MatchSpec:
    return MatchSpec(game="taboo", level=1, seed=seed, setup={"secret": f"word{seed}"},
                     variants={"guesser": 0, "clue_giver": 0}, params={"secret_set": "animals"})


def _seats(model: str | None, kind: str = "llm") -> list[SeatAssignment]:
    return [SeatAssignment(seat="guesser", player_kind=kind, model=model, prompt_variant=0, evaluated=True),
            SeatAssignment(seat="clue_giver", player_kind="scripted", prompt_variant=0, evaluated=False)]


def _won(winner: str) -> Outcome:
    return Outcome(status="finished", winners=(winner,), reason="fixture", rounds=3)


def _run(store: Store) -> str:
    run = store.create_run("taboo", 1, CONFIG)
    index = 0
    for model, wins in WINS.items():
        for seed in range(12):
            match_id = store.create_match(spec=_spec(seed), seats=_seats(model), run_id=run, match_index=index)
            store.finish_match(match_id, _won("guesser" if seed < wins else "clue_giver"))
            index += 1
    return run


@pytest.fixture
def db(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'board.db'}"
    with Store.open(url) as store:
        _run(store)
        _run(store)
        person = store.create_web_match(spec=_spec(99), seats=_seats(None, "human"), mode="play",
                                        people={"guesser": "ab" * 32}, joined=("guesser",), anonymous=True)
        store.finish_match(person, _won("guesser"))
    return url


def _invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["leaderboard", *args], env={"COLUMNS": "200"})
    return result.exit_code, result.output


def test_the_table_shows_ratings_chance_baselines_people_and_the_overall_rating(db: str) -> None:
    code, output = _invoke("--db", db, "--resamples", "40")
    assert code == 0, output
    lines = output.splitlines()
    assert any(line.strip().startswith("taboo L1: 36 matches (36 rated, people's: 1)") for line in lines)
    board = lines[:next(index for index, line in enumerate(lines) if "overall:" in line)]
    rows = {line.split()[1]: line.split() for line in board if line.split()[1:2] and line.split()[1] in WINS}
    assert rows["mock/a"][0] == "1" and rows["mock/b"][0] == "2"  # separated: no tie mark
    assert rows["mock/b"][-3:] == ["not", "above", "chance"] and "chance" not in rows["mock/a"]
    assert rows[RANDOM][0] == "—" and rows[RANDOM][-1] == "baseline"
    assert "0.25" in rows["mock/b"] and "[0.09, 0.53]" in " ".join(rows["mock/b"])  # Wilson, 3 of 12
    people = next(line for line in lines if "people, arena (as guesser)" in line)
    assert "1.00" in people and people.rstrip().endswith("not rated")
    overall = lines[len(board):]
    assert "overall: 1 board, each game weighing the same" in overall[0]
    assert [line.split()[:2] for line in overall if "mock/" in line] == [["1", "mock/a"], ["2", "mock/b"]]
    assert "36 stored match(es) left out as copies" in output


def test_json_is_the_documented_shape_best_first(db: str) -> None:
    code, output = _invoke("--db", db, "--json", "--resamples", "20", "--seed", "3")
    assert code == 0, output
    data = json.loads(output)
    assert {"overall", "games", "baselines"} <= set(data)
    assert [row["model"] for row in data["overall"]] == ["mock/a", "mock/b"]
    assert all(set(row) == {"model", "rating", "low", "high", "matches"} for row in data["overall"])
    assert list(data["games"]) == ["taboo L1"]
    assert [row["model"] for row in data["games"]["taboo L1"]] == ["mock/a", "mock/b"]
    assert [(row["player"], row["n"]) for row in data["rates"]["taboo L1"]] == [
        ("mock/a", 12), ("mock/b", 12), (RANDOM, 12)]
    assert [(row["player"], row["n"]) for row in data["baselines"]["taboo L1"]] == [(RANDOM, 12)]
    assert all(set(row) == {"player", "rate", "low", "high", "n"} for row in data["baselines"]["taboo L1"])
    assert data["not_above_chance"] == {"taboo L1": ["mock/b"]}
    assert data["copies_left_out"] == 36
    again = json.loads(_invoke("--db", db, "--json", "--resamples", "20", "--seed", "3")[1])
    assert again == data  # seeded: the same intervals every time


def test_a_run_names_its_own_matches(db: str) -> None:
    with Store.open(db) as store:
        only = store.create_run("taboo", 1, CONFIG)
        match_id = store.create_match(spec=_spec(50), seats=_seats("mock/c"), run_id=only, match_index=0)
        store.finish_match(match_id, _won("guesser"))
    code, output = _invoke(only, "--db", db, "--json", "--resamples", "10")
    assert code == 0, output
    assert [row["player"] for row in json.loads(output)["rates"]["taboo L1"]] == ["mock/c"]


def test_nothing_scored_or_an_unknown_run_is_one_clear_line(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'empty.db'}"
    with Store.open(url) as store:
        code, output = _invoke("--db", url)
        assert code == 2 and "no runs recorded yet" in output
        run = store.create_run("taboo", 1, CONFIG)
        match_id = store.create_match(spec=_spec(1), seats=_seats("mock/a"), run_id=run, match_index=0)
        store.finish_match(match_id, Outcome(status="aborted", reason="stopped", rounds=0))
    code, output = _invoke(run, "--db", url)
    assert code == 2 and f"nothing scored in run(s) {run}" in output
    code, output = _invoke("nope", "--db", url)
    assert code == 2 and "no run 'nope'" in output


def test_a_board_named_with_its_options_prints_whole(db: str) -> None:
    with Store.open(db) as store:
        guess = store.create_run("taboo", 1, {**CONFIG, "options": {"taboo": {"scoring": "guess"}}})
        match_id = store.create_match(spec=_spec(0), seats=_seats("mock/a"), run_id=guess, match_index=0)
        store.finish_match(match_id, _won("clue_giver"))
    code, output = _invoke("--db", db, "--resamples", "10")
    assert code == 0, output
    assert "taboo L1 [scoring=guess]: 1 match (1 rated)" in output  # brackets are not read as markup
    code, output = _invoke(guess, "--db", db, "--json", "--resamples", "10")
    assert list(json.loads(output)["games"]) == ["taboo L1 [scoring=guess]"]
