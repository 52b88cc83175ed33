"""From a run of all three games to the retrospective analysis, metrics, comparison and report, through the CLI.

The models are scripted mocks, so the whole path runs in seconds; the real-model path is measured by hand
(see the issue notes) and by tests/games/*_llm.py.
"""

from __future__ import annotations

import asyncio
import functools
import json
from pathlib import Path

import pytest
from bad_stores import run_main
from typer.testing import CliRunner

from playeval.cli import analyze_cmd
from playeval.cli.main import app
from playeval.core.registry import default_registry
from playeval.engine import BatchRunner, RunConfig, create_run
from playeval.models import ModelHub, ModelRequest
from playeval.store import Store

MODELS = ("mock/bold", "mock/shy", "mock/slowpoke")


def _turn(request: ModelRequest) -> int:
    return sum(1 for m in request.messages if m.role == "assistant") + 1


def player(style: str, request: ModelRequest) -> str:
    """A mock that can play every seat of the three games and answer every retrospective request."""
    grammar = request.constraint.grammar if request.constraint and request.constraint.grammar else ""
    last = request.messages[-1].content
    if grammar.startswith("root ::= item{"):
        return "".join(f"{n}. {name}\n" for n, name in enumerate(["dog", "cat", "fish", "horse", "cow"], 1))
    if "Judgement" in grammar:
        level = {"bold": "True", "shy": "Unknown", "slowpoke": "Possibly false"}[style]
        return f"Judgement: {level}\nReason: the answers so far."
    if last.startswith("Question:"):
        count = sum(1 for line in last.splitlines() if line[:1].isdigit())
        return "".join(f"{n}. {'Yes' if n == 1 else 'No'}\n" for n in range(1, count + 1))
    if "This is a guess" in grammar:  # akinator guesser
        return f"Question {_turn(request)}: Is it bigger than a shoebox?"
    if "I believe your statement is" in grammar:  # bluffing questioner
        if _turn(request) > 5 or (style == "bold" and _turn(request) > 1):
            return "I believe your statement is: True"
        return f"Question {_turn(request)}: When did that happen?"
    if "My guess of the word is" in grammar:  # taboo guesser
        return "My guess of the word is: dog" if style == "bold" else "That reminds me of something."
    raise AssertionError(f"unexpected request: {last[:80]!r} / {grammar[:80]!r}")


SCRIPTS = {name.split("/")[1]: functools.partial(player, name.split("/")[1]) for name in MODELS}


@pytest.fixture
def run_id(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    db = f"sqlite:///{tmp_path / 'cli.db'}"
    monkeypatch.setenv("PLAYEVAL_DB", db)
    monkeypatch.setattr(analyze_cmd, "ModelHub", functools.partial(ModelHub, mock_scripts=SCRIPTS))
    config = RunConfig(games=("akinator", "bluffing", "taboo"), models=MODELS, opponent="scripted", n=2, seed=3)

    async def play() -> str:
        with Store.open(db) as store:
            run = create_run(store, default_registry(), config)
            async with ModelHub(use_cache=False, mock_scripts=SCRIPTS) as hub:
                await BatchRunner(store, hub, default_registry()).run(run)
            return run

    return asyncio.run(play())


def test_retro_metrics_compare_and_report(run_id: str, tmp_path: Path) -> None:
    runner = CliRunner()
    results = runner.invoke(app, ["results", run_id], env={"COLUMNS": "200"})
    assert results.exit_code == 0, results.output
    assert all(game in results.output for game in ("akinator", "bluffing", "taboo"))
    head = next(line.split() for line in results.output.splitlines() if line.split()[:2] == ["game", "model"])
    assert head[2:5] == ["matches", "win", "[95%"] and "team" not in head  # no game of this run has teams
    rows = [cells for cells in map(str.split, results.output.splitlines())
            if cells and cells[0] in ("akinator", "bluffing", "taboo")]
    assert len(rows) == 9 and all(row[2] == "2" for row in rows)  # one evaluated seat per match: 2 per model

    retro = runner.invoke(app, ["analyze", "retro", run_id], env={"COLUMNS": "200"})
    assert retro.exit_code == 0, retro.output
    assert "capability profile" in retro.output and "mock/shy" in retro.output
    again = runner.invoke(app, ["analyze", "retro", run_id], env={"COLUMNS": "200"})
    assert again.exit_code == 0 and "0 retrospective outputs to produce" in again.output

    rankings = tmp_path / "rankings.json"
    rankings.write_text(json.dumps({"by size": list(MODELS), "reversed": {m: 3 - i for i, m in enumerate(MODELS)}}))
    compared = run_main(["analyze", "compare", run_id, "--rankings", str(rankings)])
    # three models from two matches each: even identical rankings could not be told from chance (p = 1/6)
    assert compared[0] == 2 and compared[2].startswith("error: no comparison can be told from chance: ")
    assert "Bluffing-Retro (inductive) vs by size share 3 models; at least 4 are needed" in compared[2]
    # no mock ever wins Akinator: all three tie, and a ranking of ties (alphabetical) is left out
    assert "Akinator-Outcome" not in compared[2]

    out = tmp_path / "report"
    report = runner.invoke(app, ["report", run_id, "--out", str(out)], env={"COLUMNS": "200"})
    assert report.exit_code == 0, report.output
    html = (out / "index.html").read_text("utf-8")
    assert "mock/bold" in html and "taboo" in html.lower()
    assert (out / "plots" / "win_rate.png").stat().st_size > 10_000
    assert (out / "plots" / "bluffing_trajectories.png").exists()
    assert any(path.name.startswith("recall_") for path in (out / "plots").iterdir())
    pages = list((out / "transcripts").iterdir())
    assert len(pages) == 18  # 3 games x 3 models x 2
    with Store.open() as store:
        retro_roles = {call.role for match in store.run_matches(run_id) for call in store.calls(match.id)
                       if call.role is not None and call.role.startswith("retro:")}
    assert retro_roles == {"retro:candidates", "retro:judgement", "retro:split"}
    for path in pages:
        page = path.read_text("utf-8")
        seats = page.split("<h2>Seats</h2>")[1].split("</table>")[0]
        assert seats.count("<tr><td>") == 2 and "retro" not in seats  # the analysis's calls are not a seat's
        assert "retro:" not in page
