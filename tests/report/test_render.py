"""The report renderer: files written, PNGs real, tables formatted as in the paper, text escaped."""

from __future__ import annotations

import re
import struct
from dataclasses import replace
from pathlib import Path

import pytest

from playeval.report.data import (
    SKILLS,
    CapabilityProfile,
    MetricValue,
    OutcomeRow,
    ProceduralRow,
    RecallCurve,
    RecallPoint,
    ReportData,
    RetroLine,
    SkillScore,
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

MODELS = ("claude-3-5-sonnet", "gpt-4o", "llama-3.1-405b")
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _outcomes() -> tuple[OutcomeRow, ...]:
    # (win rate, std, avg rounds, std) per game and model, after the paper's Table 2
    table = {
        "akinator": [(0.55, 0.11, 16.61, 1.75), (0.49, 0.13, 16.36, 0.86), (0.44, 0.04, 17.15, 0.66)],
        "taboo": [(0.61, 0.18, 3.36, 0.88), (0.67, 0.11, 3.19, 0.34), (0.62, 0.18, 3.08, 0.18)],
        "bluffing": [(0.67, 0.13, 6.0, 0.0), (0.58, 0.13, 5.92, 0.18), (0.0, 0.0, None, None)],
    }
    rows = []
    for game, values in table.items():
        for model, (rate, rate_std, rounds, rounds_std) in zip(MODELS, values, strict=True):
            rows.append(OutcomeRow(game=game, model=model, matches=20, wins=round(rate * 20), win_rate=rate,
                                   win_rate_std=rate_std, variants=5, avg_rounds=rounds, avg_rounds_std=rounds_std,
                                   forfeits=3 if rounds is None else 0, invalid_move_rate=0.125 if rounds is None
                                   else 0.01))
    return tuple(rows)


def _metric(name: str, label: str, value: float | None, skill: str, *, percent: bool = False,
            lower: bool = False) -> MetricValue:
    return MetricValue(name=name, label=label, value=value, percent=percent, lower_is_better=lower, skill=skill)


def _procedural() -> tuple[ProceduralRow, ...]:
    rows = []
    akinator = [(0.2783, 0.2458, 0.2726, 0.0057, 11.63, 5.31), (0.2032, 0.17, 0.1957, 0.0055, 11.96, 6.64),
                (0.159, 0.1372, 0.1497, 0.006, 14.67, 9.88)]
    for model, (rr, t5, t10, dr, far, fr) in zip(MODELS, akinator, strict=True):
        rows.append(ProceduralRow("akinator", model, 18, (
            _metric("recall_rate", "Recall rate (%)", rr, "multi-hop", percent=True),
            _metric("top5_recall_rate", "Top 5 recall rate (%)", t5, "multi-hop", percent=True),
            _metric("top10_recall_rate", "Top 10 recall rate (%)", t10, "multi-hop", percent=True),
            _metric("disparity_ratio", "Disparity ratio (%)", dr, "multi-hop", percent=True, lower=True),
            _metric("first_appear_round", "Avg. first appear round", far, "deductive", lower=True),
            _metric("final_rank", "Avg. final rank", fr, "deductive", lower=True),
        )))
    taboo = [(0.6885, 1.56, 1.48), (0.5578, 2.47, 3.83), (0.7122, 1.98, 4.04)]
    for model, (rr, far, fr) in zip(MODELS, taboo, strict=True):
        rows.append(ProceduralRow("taboo", model, 20, (
            _metric("recall_rate", "Recall rate (%)", rr, "multi-hop", percent=True),
            _metric("first_appear_round", "Avg. first appear round", far, "abductive", lower=True),
            _metric("final_rank", "Avg. final rank", fr, "abductive", lower=True),
        )))
    bluffing = [(0.1412, -0.39, 0.2, 2.46, 1.47), (0.0764, -0.15, 0.44, 3.0, 2.06), (0.0, -0.2, 0.27, None, 1.53)]
    for model, (rr, sp, hp, far, fr) in zip(MODELS, bluffing, strict=True):
        rows.append(ProceduralRow("bluffing", model, 20, (
            _metric("recall_rate", "Recall rate (%)", rr, "multi-hop", percent=True),
            _metric("spearman", "Spearman's coefficient", sp, "multi-hop", lower=True),
            _metric("hopping_penalty", "Hopping penalty", hp, "multi-hop", lower=True),
            _metric("first_appear_round", "Avg. first appear round", far, "inductive", lower=True),
            _metric("final_rank", "Avg. final rank", fr, "inductive", lower=True),
        )))
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
            out.append(Trajectory(f"b-{i}-t{j}", model, True, levels, won=levels[-1] <= 2))
        for j, levels in enumerate(shapes_false[: 3 + i % 2]):
            out.append(Trajectory(f"b-{i}-f{j}", model, False, levels, won=levels[-1] >= 4 if j != 3 else None))
    return tuple(out)


def _profiles() -> tuple[CapabilityProfile, ...]:
    ranks = {"deductive": (1.0, 2.0, 3.0), "abductive": (1.0, 2.5, 2.5), "inductive": (1.0, 2.0, None),
             "multi-hop": (1.6, 2.4, 2.0)}
    profiles = []
    for i, model in enumerate(MODELS):
        skills = []
        for skill in SKILLS:
            rank = ranks[skill][i]
            metrics = (("akinator", "Recall rate (%)", 0.2783),) if skill == "multi-hop" else (
                ("taboo" if skill == "abductive" else "akinator", "Avg. final rank", 5.31 if rank else None),)
            skills.append(SkillScore(skill, rank, metrics))
        profiles.append(CapabilityProfile(model, tuple(skills)))
    return tuple(profiles)


def _transcripts() -> tuple[TranscriptPage, ...]:
    return (
        TranscriptPage(
            match_id="m-0001", game="akinator", level=1, model=MODELS[0], opponent="scripted", variant=2,
            secret="guitar", outcome="win", reason="guessed the object in 7 questions", rounds=7,
            lines=(("guesser", "Question 1: Is it alive?"), ("answerer", "No"),
                   ("guesser", "Is it <script>alert('x')</script> a tool?"), ("answerer", "Yes & no")),
            retro=(RetroLine(1, "car, chair, guitar", True), RetroLine(2, "hammer, saw", False),
                   RetroLine(3, "(unparsed)", None)),
        ),
        TranscriptPage(
            match_id="m-0002", game="bluffing", level=2, model=MODELS[1], opponent="local/qwen2.5-coder-1.5b",
            variant=None, secret="false: I have climbed Everest", outcome="forfeit",
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
    # Table 2: win rate and rounds with their spread; the best win rate per game in bold
    assert "<strong>0.55 ± 0.11</strong>" in html  # akinator
    assert "<strong>0.67 ± 0.11</strong>" in html  # taboo, gpt-4o
    assert "<strong>0.67 ± 0.13</strong>" in html  # bluffing
    assert "16.61 ± 1.75" in html and "0.49 ± 0.13" in html
    assert "<strong>0.49" not in html
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
    assert "| claude-3-5-sonnet | **0.55 ± 0.11** | 16.61 ± 1.75 |" in markdown
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
                      recall_curves=(), trajectories=(), profiles=(), transcripts=())
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
                                 capability_figure(()))):
        width, _ = png_size(save(fig, tmp_path / f"{index}.png"))
        assert width > 300


def test_win_rate_error_bars_stay_between_0_and_1() -> None:
    rows = tuple(OutcomeRow(game="bluffing", model=model, matches=3, wins=wins, win_rate=rate, win_rate_std=0.47,
                            variants=3, avg_rounds=1.0, avg_rounds_std=0.0, forfeits=0, invalid_move_rate=0.0)
                 for model, wins, rate in (("local/a", 2, 2 / 3), ("local/b", 0, 0.0), ("local/c", 3, 1.0)))
    fig = win_rate_figure(rows)
    segments = [segment for collection in fig.axes[0].collections for segment in collection.get_segments()]
    ys = [y for segment in segments for _, y in segment]
    assert segments and max(ys) == pytest.approx(1.0) and min(ys) == pytest.approx(0.0)
