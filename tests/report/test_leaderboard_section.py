"""The report's leaderboard: the run's ratings per board and overall with intervals, win rates beside the
baselines' with "not above chance" marks, and people's row, as ``playeval leaderboard`` gives them for the run.

The run: Taboo level 1, twelve setups each: ``mock/a`` wins all, ``mock/b`` three, ``baseline/random`` one; a person
guessed once in the arena on the same board."""

from __future__ import annotations

from pathlib import Path

from playeval.core.events import SeatAssignment
from playeval.core.match import MatchSpec, Outcome
from playeval.core.registry import default_registry
from playeval.report import build_report, write_report
from playeval.report.tables import leaderboard_tables
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


def _store(url: str, wins: dict[str, int]) -> str:
    with Store.open(url) as store:
        run = store.create_run("taboo", 1, CONFIG)
        index = 0
        for model, won in wins.items():
            for seed in range(12):
                match_id = store.create_match(spec=_spec(seed), seats=_seats(model), run_id=run, match_index=index)
                store.finish_match(match_id, _won("guesser" if seed < won else "clue_giver"))
                index += 1
        person = store.create_web_match(spec=_spec(99), seats=_seats(None, "human"), mode="play",
                                        people={"guesser": "ab" * 32}, joined=("guesser",), anonymous=True)
        store.finish_match(person, _won("guesser"))
    return run


def test_the_report_has_the_run_s_leaderboard(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'r.db'}"
    run = _store(url, WINS)
    with Store.open(url) as store:
        data = build_report(store, run, default_registry())
    assert data.leaderboard is not None
    overall, taboo = leaderboard_tables(data)
    assert [[cell.text for cell in row][:2] for row in overall.rows] == [["1", "mock/a"], ["2", "mock/b"],
                                                                          ["—", RANDOM]]
    assert "bootstrap" in overall.caption and "not above chance" in overall.caption
    assert taboo.title == "taboo L1: 36 matches (36 rated, 1 played by people)"
    rows = {row[1].text: [cell.text for cell in row] for row in taboo.rows}
    assert rows["mock/b"][-1] == "not above chance" and rows["mock/a"][-1] == ""
    assert rows["mock/b"][5:8] == ["25%", "[9-53%]", "12"]  # Wilson, 3 of 12
    assert rows[RANDOM][-1] == "baseline" and rows["people, arena (as guesser)"][-1] == "not rated"
    files = write_report(data, tmp_path / "out")
    markdown = files.markdown.read_text("utf-8")
    assert "### Leaderboard" in markdown and "#### taboo L1: 36 matches" in markdown
    html = files.html.read_text("utf-8")
    assert 'id="leaderboard"' in html and 'href="#leaderboard"' in html
    assert '<span class="badge loss">not above chance</span>' in html


def test_a_run_with_nothing_scored_has_no_leaderboard(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'r.db'}"
    with Store.open(url) as store:
        run = store.create_run("taboo", 1, CONFIG)
        match_id = store.create_match(spec=_spec(1), seats=_seats("mock/a"), run_id=run, match_index=0)
        store.finish_match(match_id, Outcome(status="aborted", reason="stopped", rounds=0))
        data = build_report(store, run, default_registry())
    assert data.leaderboard is None and leaderboard_tables(data) == []
    files = write_report(data, tmp_path / "out")
    assert "Leaderboard" not in files.markdown.read_text("utf-8")
