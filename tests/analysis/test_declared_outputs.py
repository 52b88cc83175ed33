"""Undercover and Bluffing declare their analyses (team Elo, side tables, measures, plots) like any game, and
``results``, ``report`` and ``analyze`` print for a stored run exactly what they printed when those analyses were
written for Undercover alone (the fixtures in tests/fixtures/declared, see stored_outputs.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from stored_outputs import FIXTURES, outputs


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    with pytest.MonkeyPatch.context() as patch:
        home = tmp_path_factory.mktemp("home")
        patch.setenv("PLAYEVAL_HOME", str(home / "home"))
        patch.setenv("PLAYEVAL_CACHE_DIR", str(home / "cache"))
        return outputs(tmp_path_factory.mktemp("run"))


@pytest.mark.parametrize("name", ["results.txt", "analyze_metrics.txt", "analyze_elo.txt", "analyze_undercover.txt",
                                  "report.md"])
def test_the_stored_run_prints_what_it_printed_before(played: dict[str, str], name: str) -> None:
    assert played[name] == (FIXTURES / name).read_text("utf-8")


def test_the_fixtures_show_every_analysis_they_guard() -> None:
    report = (FIXTURES / "report.md").read_text("utf-8")
    assert "#### Undercover: team Elo" in report and "#### Undercover: per model and side" in report
    assert "plots/bluffing_trajectories.png" in report
    assert "team Elo over 4 undercover games" in (FIXTURES / "analyze_elo.txt").read_text("utf-8")
    assert Path(FIXTURES / "results.txt").read_text("utf-8").count("mock/") >= 8
