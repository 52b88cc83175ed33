"""The words a game declares are the words shown: its name (``Presentation.name``) in the report, its score's label
and unit, a role's transcript lines under the role, and a terminal table line for any number of seats and roles."""

from __future__ import annotations

from dataclasses import replace

from playeval.analysis import ModelResult
from playeval.cli.play_cmd import table_line, verdict_line
from playeval.core.events import RoleAssignment
from playeval.core.info import ScoreInfo
from playeval.core.match import Outcome
from playeval.core.registry import default_registry
from playeval.report.data import GameFacts, ReportData
from playeval.report.tables import outcome_table
from playeval.web.present import speaker_label


def _result(game: str, score: float | None) -> ModelResult:
    return ModelResult(game=game, model="mock/a", matches=2, wins=1, win_rate=0.5, variants=1,
                       avg_rounds=3.0, forfeits=0, opponent_forfeits=0, tokens=10, seconds=1.0,
                       scored=2, score=score)


def _data(*results: ModelResult) -> ReportData:
    return ReportData(run_id="r", title="t", created="2026-01-01T00:00:00", config={}, outcomes=results,
                      procedural=(), metric_specs={}, skills=(), recall_curves=(), trajectories=(), profiles=(),
                      transcripts=())


def test_the_report_names_a_game_by_its_presentation_and_shows_its_score() -> None:
    game = default_registry().get("static_picnic")
    facts = GameFacts(name=game.presentation.name, score=game.score)
    data = replace(_data(_result("static_picnic", 0.75), _result("bluffing", None)),
                   games={"static_picnic": facts, "bluffing": GameFacts(name="Bluffing")})
    table = outcome_table(data)
    assert [group.label for group in table.groups] == ["", "Static Picnic", "Bluffing"]  # not "Static picnic"
    assert table.columns[1:8] == ("Win rate", "Avg. rounds", "Matches", "Not scored", "Forfeits",
                                  "Invalid moves (%)", "Check accuracy")
    assert len(table.columns) == 1 + 7 + 6
    assert table.rows[0][7].text == "75%" and "Check accuracy (Static Picnic)" in table.caption


def test_a_score_reads_with_its_unit() -> None:
    assert ScoreInfo(label="check accuracy", unit="%").text(0.8) == "80%"
    assert ScoreInfo(label="team points", unit="points").text(1.5) == "1.5 points"
    assert ScoreInfo(label="team points", unit="points").text(2.0) == "2 points"
    assert ScoreInfo(label="chips").text(1234.0) == "1,234" and ScoreInfo(label="x").text(None) == "n/a"
    assert all(default_registry().get(game).score == ScoreInfo(label="check accuracy", unit="%")
               for game in ("static_picnic", "dynamic_picnic", "functions_picnic", "math"))


def test_a_role_s_lines_are_labelled_by_the_role() -> None:
    undercover = default_registry().get("undercover")
    assert speaker_label(undercover, "judge") == "Judge" and speaker_label(undercover, "judge#2") == "Judge#2"
    assert speaker_label(undercover, "game") == "Game"
    assert speaker_label(default_registry().get("bluffing"), "judge") == "Game"  # Bluffing has no judge role


def test_the_terminal_names_every_seat_and_role() -> None:
    assert table_line("alpha", ["alpha", "beta", "gamma"], "M", ()) == (
        "you are alpha; beta and gamma are played by M.")
    assert table_line("guesser", ["guesser", "answerer"], "M", ()) == (
        "you are the guesser; the answerer is played by M.")
    judges = (RoleAssignment(role="judge", player_kind="llm", model="J"),
              RoleAssignment(role="judge#2", player_kind="llm", model="J"),
              RoleAssignment(role="game_master", player_kind="scripted"))
    assert table_line("north", ["north", "east", "south", "west"], "M", judges) == (
        "you are north; east, south and west are played by M; the judge and judge#2 are played by J; the "
        "game_master is played by scripted.")


def test_the_terminal_names_the_seat_that_forfeited() -> None:
    forfeit = Outcome(status="forfeit", forfeit_seat="east", reason="east ran out of re-asks", rounds=1)
    assert verdict_line(forfeit, "north").startswith("[bold]East forfeited.[/]")
    assert verdict_line(forfeit, "east").startswith("[bold]You forfeited.[/]")
