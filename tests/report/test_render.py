"""The report renderer: files written, PNGs real, tables formatted as in the paper, text escaped."""

from __future__ import annotations

import re
import struct
from dataclasses import replace
from pathlib import Path

import pytest
from matplotlib.collections import LineCollection
from matplotlib.container import BarContainer

from playeval.analysis import ModelResult, ProceduralSummary, Profile, SkillStanding, skills
from playeval.analysis.cells import GameTables, Mean, Rate
from playeval.analysis.intervals import wilson_interval
from playeval.analysis.ratings import OrderCheck, RatedModel
from playeval.analysis.rule_games import RuleGameRow
from playeval.analysis.sides import CategoryRow, SideResults, SideRow
from playeval.analysis.undercover_judging import JudgeRow, judge_report_tables
from playeval.core.info import MetricSpec
from playeval.core.registry import default_registry
from playeval.games.undercover import Undercover
from playeval.report.data import (
    RecallCurve,
    RecallPoint,
    ReportData,
    RetroLine,
    SeatLine,
    TeamReport,
    Trajectory,
    TranscriptPage,
)
from playeval.report.plots import (
    capability_figure,
    recall_figure,
    save,
    trajectories_figure,
    win_rate_figure,
)
from playeval.report.render import ReportFiles, write_report
from playeval.report.tables import capability_table, outcome_table, rule_game_tables, team_sections

MODELS = ("claude-3-5-sonnet", "gpt-4o", "llama-3.1-405b")
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
SKILLS = skills(default_registry())


def _result(game: str, model: str, rate: float | None, rounds: float | None, rounds_half: float | None,
            *, team: str | None = None, matches: int = 20, variants: int = 5) -> ModelResult:
    """A row of ``matches`` one-seat matches (none scored when ``rate`` is ``None``), its rounds' interval
    ``rounds`` ± ``rounds_half``."""
    wins = 0 if rate is None else round(rate * matches)
    low, high = wilson_interval(wins, matches) if rate is not None else (None, None)
    return ModelResult(game=game, model=model, matches=matches, wins=wins, win_rate=rate, variants=variants,
                       avg_rounds=rounds, forfeits=3 if rounds is None else 0, opponent_forfeits=0, tokens=0,
                       seconds=0.0, invalid_move_rate=0.125 if rounds is None else 0.01,
                       scored=0 if rate is None else matches, team=team, win_low=low, win_high=high,
                       scored_matches=0 if rate is None else matches, played=matches,
                       rounds_low=None if rounds is None or rounds_half is None else rounds - rounds_half,
                       rounds_high=None if rounds is None or rounds_half is None else rounds + rounds_half,
                       unscored=(("opponent forfeit", matches),) if rate is None else ())


def _outcomes() -> tuple[ModelResult, ...]:
    # (win rate, avg rounds, its half-interval) per game and model, after the paper's Table 2
    table: dict[str, list[tuple[float, float | None, float | None]]] = {
        "akinator": [(0.55, 16.61, 1.75), (0.49, 16.36, 0.86), (0.44, 17.15, 0.66)],
        "taboo": [(0.61, 3.36, 0.88), (0.67, 3.19, 0.34), (0.62, 3.08, 0.18)],
        "bluffing": [(0.67, 6.0, 0.0), (0.58, 5.92, 0.18), (0.0, None, None)],
    }
    return tuple(_result(game, model, *values) for game, rows in table.items()
                 for model, values in zip(MODELS, rows, strict=True))


def _spec(name: str, label: str, skill: str, *, percent: bool = False, lower: bool = False) -> MetricSpec:
    return MetricSpec(name=name, label=label, percent=percent, lower_is_better=lower, skill=skill)


METRICS: dict[str, tuple[MetricSpec, ...]] = {
    "akinator": (
        _spec("recall_rate", "Recall rate (%)", "multi-hop", percent=True),
        _spec("top5_recall_rate", "Top 5 recall rate (%)", "multi-hop", percent=True),
        _spec("top10_recall_rate", "Top 10 recall rate (%)", "multi-hop", percent=True),
        _spec("disparity_ratio", "Disparity ratio (%)", "multi-hop", percent=True, lower=True),
        _spec("first_appear_round", "Avg. first appear round", "deductive", lower=True),
        _spec("final_rank", "Avg. final rank", "deductive", lower=True),
    ),
    "taboo": (
        _spec("recall_rate", "Recall rate (%)", "multi-hop", percent=True),
        _spec("first_appear_round", "Avg. first appear round", "abductive", lower=True),
        _spec("final_rank", "Avg. final rank", "abductive", lower=True),
    ),
    "bluffing": (
        _spec("recall_rate", "Recall rate (%)", "multi-hop", percent=True),
        _spec("spearman", "Spearman's coefficient", "multi-hop", lower=True),
        _spec("hopping_penalty", "Hopping penalty", "multi-hop", lower=True),
        _spec("first_appear_round", "Avg. first appear round", "inductive", lower=True),
        _spec("final_rank", "Avg. final rank", "inductive", lower=True),
    ),
}


def _procedural() -> tuple[ProceduralSummary, ...]:
    values: dict[str, tuple[int, list[tuple[float | None, ...]]]] = {
        "akinator": (18, [(0.2783, 0.2458, 0.2726, 0.0057, 11.63, 5.31), (0.2032, 0.17, 0.1957, 0.0055, 11.96, 6.64),
                          (0.159, 0.1372, 0.1497, 0.006, 14.67, 9.88)]),
        "taboo": (20, [(0.6885, 1.56, 1.48), (0.5578, 2.47, 3.83), (0.7122, 1.98, 4.04)]),
        "bluffing": (20, [(0.1412, -0.39, 0.2, 2.46, 1.47), (0.0764, -0.15, 0.44, 3.0, 2.06),
                          (0.0, -0.2, 0.27, None, 1.53)]),
    }
    rows = []
    for game, (matches, per_model) in values.items():
        for model, numbers in zip(MODELS, per_model, strict=True):
            named = {spec.name: value for spec, value in zip(METRICS[game], numbers, strict=True)}
            rows.append(ProceduralSummary(game, model, matches, named, (), 0))
    return tuple(rows)


def _curves() -> tuple[RecallCurve, ...]:
    curves = []
    for i, model in enumerate(MODELS):
        akinator = tuple(
            RecallPoint(round=r, recall=min(1.0, 0.02 + r * (0.045 - 0.01 * i)),
                        matches=max(4, 20 - (r // 3) * (i + 1)))
            for r in range(1, 21)
        )
        taboo = tuple(RecallPoint(round=r, recall=min(1.0, 0.3 + 0.15 * r - 0.05 * i), matches=20 - 3 * r)
                      for r in range(1, 6))
        curves += [RecallCurve("akinator", model, akinator), RecallCurve("taboo", model, taboo)]
    return tuple(curves)


def _trajectories() -> tuple[Trajectory, ...]:
    shapes_true = [(3, 2, 2, 1, 1, 1), (3, 3, 2, 2, 1, 1), (3, 4, 3, 2, 2, 2), (3, 2, 3, 4, 4, 5)]
    shapes_false = [(3, 4, 4, 5, 5, 5), (3, 3, 4, 4, 4, 5), (3, 2, 2, 1, 1, 1), (3, 3, 3, 3, 4, 4)]
    out = []
    for i, model in enumerate(MODELS):
        for j, levels in enumerate(shapes_true[: 4 - i % 2]):
            out.append(Trajectory(f"b-{i}-t{j}", model, True, levels, won=levels[-1] <= 2, game="bluffing"))
        for j, levels in enumerate(shapes_false[: 3 + i % 2]):
            out.append(Trajectory(f"b-{i}-f{j}", model, False, levels, won=levels[-1] >= 4 if j != 3 else None,
                                  game="bluffing"))
    return tuple(out)


def _profiles() -> tuple[Profile, ...]:
    ranks = {"deductive": (1.0, 2.0, 3.0), "abductive": (1.0, 2.5, 2.5), "inductive": (1.0, 2.0, None),
             "multi-hop": (1.6, 2.4, 2.0)}
    profiles = []
    for i, model in enumerate(MODELS):
        skills: list[SkillStanding] = []
        for skill in SKILLS:
            rank = ranks[skill][i]
            metrics = (("akinator", "Recall rate (%)", 0.2783),) if skill == "multi-hop" else (
                ("taboo" if skill == "abductive" else "akinator", "Avg. final rank", 5.31 if rank else None),)
            skills.append(SkillStanding(skill, rank, metrics))
        profiles.append(Profile(model, tuple(skills)))
    return tuple(profiles)


def _transcripts() -> tuple[TranscriptPage, ...]:
    return (
        TranscriptPage(
            match_id="m-0001", game="akinator", level=1,
            seats=(SeatLine("guesser", MODELS[0], True, "win", variant=2),
                   SeatLine("answerer", "scripted", False, "loss")),
            secret="guitar", outcome="win", reason="guessed the object in 7 questions", rounds=7,
            lines=(("guesser", "Question 1: Is it alive?"), ("answerer", "No"),
                   ("guesser", "Is it <script>alert('x')</script> a tool?"), ("answerer", "Yes & no")),
            retro=(RetroLine(1, "car, chair, guitar", True), RetroLine(2, "hammer, saw", False),
                   RetroLine(3, "(unparsed)", None)),
        ),
        TranscriptPage(
            match_id="m-0002", game="bluffing", level=2,
            seats=(SeatLine("player", "local/qwen2.5-coder-1.5b", False, "opp. forfeit"),
                   SeatLine("judge", MODELS[1], True, "forfeit")),
            secret="false: I have climbed Everest", outcome="forfeit",
            reason="ran out of re-asks <b>bold</b>", rounds=3,
            lines=(("player", "I have climbed Everest."), ("judge", "Which route?"), ("player", "The south col.")),
            retro=(RetroLine(1, "Unknown: nothing yet", None), RetroLine(2, "Possibly false: vague", True)),
        ),
    )


def make_data() -> ReportData:
    return ReportData(
        run_id="run-20250301-abc",
        title="GameArena replication",
        created="2025-03-01T14:05:00+00:00",
        config={"games": ["akinator", "taboo", "bluffing"], "level": 1, "models": list(MODELS),
                "opponent": "scripted", "n": 20, "seed": 1, "temperature": 0.0},
        outcomes=_outcomes(),
        procedural=_procedural(),
        metric_specs=METRICS,
        skills=SKILLS,
        recall_curves=_curves(),
        trajectories=_trajectories(),
        profiles=_profiles(),
        transcripts=_transcripts(),
        notes=("Retrospective analysis was not run for 3 matches.", "Scores <not> comparable across levels."),
    )


def png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == PNG_SIGNATURE, f"{path} is not a PNG"
    assert head[12:16] == b"IHDR"
    width, height = struct.unpack(">II", head[16:24])
    return width, height


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> ReportFiles:
    return write_report(make_data(), tmp_path_factory.mktemp("report"))


def test_all_files_are_written(report: ReportFiles) -> None:
    out = report.html.parent
    assert report.html == out / "index.html" and report.html.is_file()
    assert report.markdown == out / "report.md" and report.markdown.is_file()
    names = sorted(p.name for p in report.plots)
    assert names == ["bluffing_trajectories.png", "capability.png", "recall_akinator.png", "recall_taboo.png",
                     "win_rate.png"]
    assert all(p.parent == out / "plots" for p in report.plots)
    assert sorted(p.name for p in report.transcripts) == ["m-0001.html", "m-0002.html"]
    assert all(p.is_file() and p.parent == out / "transcripts" for p in report.transcripts)


def test_plots_are_real_pngs(report: ReportFiles) -> None:
    for path in report.plots:
        width, height = png_size(path)
        assert width > 300 and height > 300, (path.name, width, height)
        assert path.stat().st_size > 10_000, path.name


def test_index_links_to_every_plot_and_transcript(report: ReportFiles) -> None:
    html = report.html.read_text(encoding="utf-8")
    out = report.html.parent
    targets = set(re.findall(r'(?:href|src)="([^"#]+)"', html))
    for path in (*report.plots, *report.transcripts):
        rel = path.relative_to(out).as_posix()
        assert rel in targets, rel
    for rel in targets:
        assert (out / rel).is_file(), rel
    for page in report.transcripts:
        assert 'href="../index.html"' in page.read_text(encoding="utf-8")


def test_index_is_self_contained(report: ReportFiles) -> None:
    html = report.html.read_text(encoding="utf-8")
    assert "<style>" in html and "<script" not in html.lower()
    assert not re.search(r'(?:href|src)="(?:https?:)?//', html)
    assert 'name="viewport"' in html


def test_tables_are_formatted_as_in_the_paper(report: ReportFiles) -> None:
    html = report.html.read_text(encoding="utf-8")
    # Table 2: win rate and rounds with their 95% intervals and n; the best win rate per game in bold
    assert '<strong>0.55</strong><span class="sub">[0.34, 0.74], n=20</span>' in html  # akinator
    assert "<strong>0.67</strong>" in html  # taboo, gpt-4o; bluffing, claude
    assert '16.61<span class="sub">[14.86, 18.36]</span>' in html and "0.49" in html
    assert "<strong>0.49" not in html and "±" not in html
    assert "n/a" in html  # llama's bluffing rounds
    assert "12.50" in html  # invalid-move rate as percent
    # Table 3: grouped skills, percent values, lower-is-better marks, best per column (min for ↓)
    assert re.search(r'<th colspan="4"[^>]*>Multi-hop reasoning</th>', html)
    assert re.search(r'<th colspan="2"[^>]*>Deductive reasoning</th>', html)
    assert "Disparity ratio (%) ↓" in html and "Avg. final rank ↓" in html
    assert "<strong>27.83</strong>" in html and "<strong>0.55</strong>" in html
    assert "<strong>-0.39</strong>" in html and "<strong>71.22</strong>" in html
    # capability: the best rank per skill in bold, the metrics behind it listed
    assert "Akinator · Recall rate (%): 27.83" in html
    # matches table
    assert ">m-0001</a>" in html and "guessed the object in 7 questions" in html
    assert "Retrospective analysis was not run for 3 matches." in html
    assert "How to read this" in html


def test_text_from_the_data_is_escaped(report: ReportFiles) -> None:
    page = (report.html.parent / "transcripts" / "m-0001.html").read_text(encoding="utf-8")
    assert "<script>" not in page
    assert "&lt;script&gt;alert(" in page
    assert "Yes &amp; no" in page
    assert "✓" in page and "✗" in page
    other = (report.html.parent / "transcripts" / "m-0002.html").read_text(encoding="utf-8")
    assert "<b>bold</b>" not in other and "&lt;b&gt;bold&lt;/b&gt;" in other
    index = report.html.read_text(encoding="utf-8")
    assert "&lt;not&gt;" in index and "<not>" not in index
    assert "&lt;b&gt;bold" in index
    markdown = report.markdown.read_text(encoding="utf-8")
    assert "<b>bold</b>" not in markdown and "<not>" not in markdown


def test_transcript_page_shows_the_match(report: ReportFiles) -> None:
    page = (report.html.parent / "transcripts" / "m-0001.html").read_text(encoding="utf-8")
    for text in ("Akinator", "guitar", "scripted", "guessed the object in 7 questions", "Question 1: Is it alive?",
                 "car, chair, guitar", "Retrospective analysis"):
        assert text in page, text
    assert page.count('class="bubble side-0"') == 2 and page.count('class="bubble side-1"') == 2
    other = (report.html.parent / "transcripts" / "m-0002.html").read_text(encoding="utf-8")
    assert "false: I have climbed Everest" in other and "forfeit" in other


def test_markdown_has_pipe_tables_images_and_links(report: ReportFiles) -> None:
    markdown = report.markdown.read_text(encoding="utf-8")
    assert "| Model | Akinator: Win rate | Akinator: Avg. rounds |" in markdown
    assert ("| claude-3-5-sonnet | **0.55**<br><sub>\\[0.34, 0.74\\], n=20</sub> | "
            "16.61<br><sub>\\[14.86, 18.36\\]</sub> |") in markdown
    assert "|---|---:|" in markdown
    assert "Multi-hop reasoning: Recall rate (%)" in markdown
    for path in report.plots:
        assert f"](plots/{path.name})" in markdown
        assert "![" in markdown
    assert "[m-0001](transcripts/m-0001.html)" in markdown
    assert "[m-0002](transcripts/m-0002.html)" in markdown
    assert "n/a" in markdown


def test_empty_parts_still_render(tmp_path: Path) -> None:
    data = replace(make_data(), recall_curves=(), trajectories=(), profiles=(), procedural=())
    files = write_report(data, tmp_path / "r")
    assert sorted(p.name for p in files.plots) == ["capability.png", "win_rate.png"]
    for path in files.plots:
        png_size(path)
    html = files.html.read_text(encoding="utf-8")
    assert "No retrospective analysis in this run." in html
    assert "No capability profile in this run." in html


def test_an_empty_run_renders(tmp_path: Path) -> None:
    data = ReportData(run_id="r0", title="Empty", created="not a date", config={}, outcomes=(), procedural=(),
                      metric_specs={}, skills=SKILLS, recall_curves=(), trajectories=(), profiles=(), transcripts=())
    files = write_report(data, tmp_path / "r")
    assert files.transcripts == ()
    assert {p.name for p in files.plots} == {"win_rate.png", "capability.png"}
    assert "No scored matches in this run." in files.html.read_text(encoding="utf-8")
    assert "# Empty" in files.markdown.read_text(encoding="utf-8")


def test_one_model_and_odd_ids(tmp_path: Path) -> None:
    data = make_data()
    one = MODELS[0]
    page = replace(data.transcripts[0], match_id="../evil/../id 1", game="word_chain")
    data = replace(
        data,
        outcomes=tuple(r for r in data.outcomes if r.model == one),
        procedural=tuple(r for r in data.procedural if r.model == one),
        recall_curves=tuple(c for c in data.recall_curves if c.model == one),
        trajectories=tuple(t for t in data.trajectories if t.model == one),
        profiles=tuple(p for p in data.profiles if p.model == one),
        transcripts=(page,),
    )
    files = write_report(data, tmp_path / "r")
    [transcript] = files.transcripts
    assert transcript.parent == tmp_path / "r" / "transcripts"
    assert transcript.name == "_evil_id_1.html"
    html = files.html.read_text(encoding="utf-8")
    assert "Word chain" in html
    assert "<strong>" not in html.split('id="outcomes"')[1].split("</section>")[0]  # nothing to compare against
    for path in files.plots:
        width, height = png_size(path)
        assert width > 300 and height > 150


def test_figures_draw_no_data_panels(tmp_path: Path) -> None:
    for index, fig in enumerate((win_rate_figure(()), recall_figure("taboo", ()), trajectories_figure(()),
                                 capability_figure((), SKILLS))):
        width, _ = png_size(save(fig, tmp_path / f"{index}.png"))
        assert width > 300


def test_win_rate_error_bars_are_the_intervals_and_n_a_draws_no_bar() -> None:
    rows = tuple(_result("bluffing", model, rate, 1.0, 0.0, matches=3, variants=3)
                 for model, rate in (("local/a", 2 / 3), ("local/b", 0.0), ("local/c", 1.0), ("local/d", None)))
    fig = win_rate_figure(rows)
    segments = [segment for collection in fig.axes[0].collections if isinstance(collection, LineCollection)
                for segment in collection.get_segments()]
    ys = sorted({round(y, 6) for segment in segments for _, y in segment})
    low, high = wilson_interval(2, 3)
    assert ys[0] == 0.0 and ys[-1] == 1.0 and round(low or 0, 6) in ys and round(high or 0, 6) in ys
    bars = {str(c.get_label()): c for c in fig.axes[0].containers if isinstance(c, BarContainer)}
    assert [len(bars[model].patches) for model in ("local/a", "local/b", "local/c", "local/d")] == [1, 1, 1, 0]
    assert [text.get_text() for text in fig.axes[0].texts].count("n/a") == 1
    labels = [text.get_text() for text in fig.legends[0].get_texts()]
    assert labels[-1] == "95% interval over matches"


def _council() -> tuple[tuple[ModelResult, ...], TranscriptPage]:
    """A four-seat team game: mock/a and mock/b each hold two seats, once per team."""
    outcomes = (_result("council", "mock/a", 1.0, 3.0, 0.0, team="red", matches=2, variants=1),
                _result("council", "mock/a", 0.0, 3.0, 0.0, team="blue", matches=2, variants=1),
                _result("council", "mock/b", 0.5, 3.0, 0.0, team="red", matches=2, variants=1),
                _result("council", "mock/b", 0.0, 3.0, 0.0, team="blue", matches=2, variants=1))
    page = TranscriptPage(
        match_id="c-0001", game="council", level=1,
        seats=(SeatLine("north", "mock/a", True, "win", team="red"),
               SeatLine("east", "mock/b", True, "loss", team="blue", out="round 1: voted out with 2 votes"),
               SeatLine("south", "mock/a", True, "forfeit", team="red", out="round 2: forfeit: ran out of re-asks"),
               SeatLine("west", "mock/b", True, "loss", team="blue")),
        secret="The red team's word: river; The blue team's word: mountain", outcome="red won",
        reason="1 red and 0 blue seats left", rounds=2,
        lines=(("north", "It flows"), ("east", "It is tall"), ("game", "Round 1 votes: east is out.")))
    return outcomes, page


def test_a_team_column_appears_only_where_there_are_teams() -> None:
    plain = outcome_table(make_data())
    assert "Team" not in plain.columns and len(plain.rows) == 3
    outcomes, _ = _council()
    teams = outcome_table(replace(make_data(), outcomes=(*make_data().outcomes, *outcomes)))
    assert teams.columns[:2] == ("Model", "Team") and sum(group.span for group in teams.groups) == len(teams.columns)
    keyed = {(row[0].text, row[1].text): row for row in teams.rows}
    assert set(keyed) == {*((model, "—") for model in MODELS), ("mock/a", "red"), ("mock/a", "blue"),
                          ("mock/b", "red"), ("mock/b", "blue")}
    council = teams.columns.index("Win rate", 2 + 3 * 6)  # after the three games without teams
    assert keyed[("mock/a", "red")][council].text == "1.00" and keyed[("mock/a", "red")][council].bold
    assert keyed[("mock/b", "red")][council].text == "0.50" and keyed[(MODELS[0], "—")][council].text == "—"
    assert "a row per team" in teams.caption and "a row per team" not in plain.caption


def test_a_team_match_renders_with_every_seat_and_the_team_outcome(tmp_path: Path) -> None:
    outcomes, page = _council()
    data = replace(make_data(), outcomes=outcomes, procedural=(), profiles=(), recall_curves=(), trajectories=(),
                   transcripts=(page,), metric_specs={})
    files = write_report(data, tmp_path / "r")
    [transcript] = files.transcripts
    html = transcript.read_text(encoding="utf-8")
    assert "<h1>Council: mock/a (north, south), mock/b (east, west)</h1>" in html and " vs. " not in html
    assert '<span class="badge other">red won</span>' in html
    seats = html.split("<h2>Seats</h2>")[1].split("</table>")[0]
    assert '<th scope="col">Team</th>' in seats and '<th scope="col">Out</th>' in seats
    for seat, team, model in (("north", "red", "mock/a"), ("east", "blue", "mock/b"), ("south", "red", "mock/a"),
                              ("west", "blue", "mock/b")):
        assert re.search(rf"<td>{seat}</td><td>{team}</td><td>{model}</td>", seats), seat
    assert "round 2: forfeit: ran out of re-asks" in seats and '<span class="badge forfeit">forfeit</span>' in seats
    index = files.html.read_text(encoding="utf-8")
    assert "mock/a (north, south), mock/b (east, west)" in index and ">red won</span>" in index
    markdown = files.markdown.read_text(encoding="utf-8")
    assert "| Model | Team | Council: Win rate |" in markdown
    assert ("| mock/a | red | **1.00**<br><sub>\\[0.34, 1.00\\], n=2</sub> | "
            "3.00<br><sub>\\[3.00, 3.00\\]</sub> | 2 | 0 | 0 |") in markdown
    row = "| [c-0001](transcripts/c-0001.html) | Council | mock/a (north, south), mock/b (east, west) | — | red won |"
    assert row in markdown
    png_size(files.plots[0])


def test_a_one_seat_match_page_keeps_its_heading_and_has_no_team_column(report: ReportFiles) -> None:
    page = (report.html.parent / "transcripts" / "m-0001.html").read_text(encoding="utf-8")
    assert "<h1>Akinator: claude-3-5-sonnet vs. scripted</h1>" in page
    assert "<dt>Prompt variant</dt><dd>2</dd>" in page
    seats = page.split("<h2>Seats</h2>")[1].split("</table>")[0]
    assert "Team" not in seats and "<th scope=\"col\">Out</th>" not in seats
    assert "<td>guesser</td><td>claude-3-5-sonnet</td>" in seats and "<td>answerer</td><td>scripted</td>" in seats


def test_the_win_rate_plot_has_a_bar_series_per_model_and_team() -> None:
    outcomes, _ = _council()
    fig = win_rate_figure(outcomes)
    labels = [text.get_text() for text in fig.legends[0].get_texts()]
    assert labels == ["mock/a (red)", "mock/a (blue)", "mock/b (red)", "mock/b (blue)", "95% interval over matches"]
    hatches = [bars.patches[0].get_hatch() for bars in fig.axes[0].containers if isinstance(bars, BarContainer)]
    assert hatches == [None, "//", None, "//"]


def test_the_capability_profile_shows_the_registry_s_skills_in_its_order() -> None:
    data = make_data()
    table = capability_table(data)
    assert table.columns == ("Model", *[f"{skill[:1].upper()}{skill[1:]} reasoning" for skill in SKILLS])
    spatial = tuple(Profile(p.model, (*p.skills, SkillStanding("spatial", 1.0, ()))) for p in data.profiles)
    extended = capability_table(replace(data, profiles=spatial, skills=("spatial", *SKILLS)))
    assert extended.columns[1] == "Spatial reasoning" and len(extended.columns) == 6
    assert capability_table(replace(data, profiles=())).columns == table.columns


def _rule_row(game: str, level: int, model: str, wins: int, matches: int, check: float | None) -> RuleGameRow:
    low, high = wilson_interval(wins, matches)
    return RuleGameRow(game=game, level=level, model=model, matches=matches, wins=wins, win_rate=wins / matches,
                       ci_low=low, ci_high=high, turns=4.5, examples_seen=6.0, seconds=12.25,
                       check_accuracy=check, agreement=0.75 if check is not None else None,
                       judged=4 if check is not None else 0)


def test_guess_the_rule_runs_get_the_paper_s_table_2_with_intervals(tmp_path: Path) -> None:
    assert rule_game_tables(make_data()) == []  # no guess-the-rule matches: no such tables
    rows = (_rule_row("math", 1, "mock/a", 3, 5, 0.9), _rule_row("math", 3, "mock/a", 0, 5, None),
            _rule_row("math", 1, "mock/b", 1, 5, 0.4), _rule_row("static_picnic", 2, "mock/b", 5, 5, 1.0))
    wins, checks = rule_game_tables(replace(make_data(), rule_games=rows))
    assert wins.columns == ("Model", "L1", "L3", "L2")
    assert [(g.label, g.span) for g in wins.groups] == [("", 1), ("Math", 2), ("Static picnic", 1)]
    keyed = {row[0].text: row for row in wins.rows}
    assert keyed["mock/a"][1].text == "60%" and keyed["mock/a"][1].bold and not keyed["mock/b"][1].bold
    assert keyed["mock/a"][1].sub == ("[23-88%], n=5",)  # Wilson 95% for 3 of 5
    assert keyed["mock/a"][3].text == "—" and keyed["mock/b"][3].text == "100%"
    assert len(checks.rows) == 4 and checks.rows[1][7].text == "n/a" and checks.rows[0][7].text == "90%"
    files = write_report(replace(make_data(), rule_games=rows), tmp_path / "r")
    html = files.html.read_text("utf-8")
    assert "Guess the rule: judged win rate" in html and "[23-88%], n=5" in html
    assert "Guess the rule: judged win rate" in files.markdown.read_text("utf-8")


def test_undercover_tables_appear_only_for_undercover_runs(tmp_path: Path) -> None:
    assert team_sections(make_data()) == []
    files = write_report(make_data(), tmp_path / "none")
    assert 'id="undercover"' not in files.html.read_text("utf-8")
    assert "### Undercover" not in files.markdown.read_text("utf-8")
    values: dict[str, Mean | Rate | int] = {name: Mean.of([0.5, 0.7]) for name in (
        "survival", "vote_accuracy", "novelty", "relevance", "reasonableness")}
    values.update(out_by_judge=Rate.of(0, 5), out_by_vote=Rate.of(1, 5), forfeited=0, reasks=2, abstentions=1)
    side = SideRow(model="mock/a", side="civilian", seats=5, matches=3,
                   wins=Rate(count=4, n=5, low=0.25, high=1.0, matches=3), reference=2 / 3, values=values,
                   verdict="not above chance")
    judge = JudgeRow(judge="mock/j", scored=3, histograms={name: (0,) * 10 + (3,) for name in
                                                           ("novelty", "relevance", "reasonableness")},
                     off_grid=1, under={"novelty": Rate.of(0, 3), "reasonableness": Rate.of(1, 3)},
                     put_out={"novelty": Rate.of(0, 3), "reasonableness": Rate.of(1, 3)})
    results = SideResults(game="undercover", matches=3, team_wins={"civilian": Rate.of(2, 3),
                                                                   "undercover": Rate.of(1, 3)},
                          rows=(side,), categories=(CategoryRow("animals", None, Rate.of(2, 3)),),
                          tables=GameTables(report=judge_report_tables("Undercover", (judge,))))
    assert Undercover.teams is not None
    team = TeamReport(game="undercover", analysis=Undercover.teams, results=results,
                      elo=(RatedModel("mock/a", 12.5, -3.0, 20.0, 3),),
                      order=OrderCheck({"mock/a": 12.5}, {"mock/a": 11.0}, None, 1.5), elo_resamples=200)
    data = replace(make_data(), teams=(team,))
    [section] = team_sections(data)
    sides, elo, categories, judges = section.tables
    assert sides.rows[0][2].text == "3 (5 seats)"
    assert sides.rows[0][3].text == "80%" and sides.rows[0][3].sub == ("[25-100%], n=3 (5 seats)", "not above chance")
    assert sides.rows[0][4].text == "67%" and sides.rows[0][5].text == "0.60"  # the run's rate; mean survival
    assert sides.rows[0][5].sub == ("[0.00, 1.00], n=2",)  # t with 1 df, clipped to [0, 1]
    assert [c.text for c in sides.rows[0][-3:]] == ["0", "2", "1"]
    assert [c.text for c in elo.rows[0]] == ["mock/a", "3", "12.5", "[-3.0, 20.0]", "11.0"]
    assert "200 bootstrap resamples" in elo.caption and "Pearson r n/a" in elo.caption
    assert categories.rows[0][1].text == "the civilians (matches)"
    assert [c.text for c in judges.rows[1][3:14]] == ["0"] * 10 + ["3"] and judges.rows[1][14].text == "—"
    assert judges.rows[2][14].text == "33%" and "1 scores were off the 0.1 grid" in judges.caption
    files = write_report(data, tmp_path / "uc")
    assert 'href="#undercover"' in files.html.read_text("utf-8")
    assert "#### Undercover: team Elo" in files.markdown.read_text("utf-8")
