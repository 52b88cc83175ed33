"""Write a report to a directory: ``index.html``, ``report.md``, ``plots/*.png`` and ``transcripts/*.html``.

Rendering adds layout only: every figure comes from ``ReportData``. Game ids
are handled generically, so a new game shows up in every table and plot
without changes here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from playeval.report.data import ReportData, TranscriptPage
from playeval.report.html import HOW_TO_READ, render_index, render_transcript
from playeval.report.markdown import render_markdown
from playeval.report.plots import safe_name, write_plots
from playeval.report.tables import (
    badge,
    capability_table,
    cost_table,
    leaderboard_tables,
    matches_table,
    models_of,
    outcome_table,
    procedural_tables,
    result_table,
    rule_game_tables,
    team_sections,
)

__all__ = ["ReportFiles", "transcript_paths", "write_report"]


@dataclass(frozen=True)
class ReportFiles:
    html: Path
    markdown: Path
    plots: tuple[Path, ...]
    transcripts: tuple[Path, ...]


def transcript_paths(pages: Sequence[TranscriptPage]) -> dict[str, str]:
    """Match id -> ``transcripts/<match_id>.html``, with the id made file-name safe and unique."""
    paths: dict[str, str] = {}
    taken: set[str] = set()
    for page in pages:
        if page.match_id in paths:
            continue
        stem = safe_name(page.match_id)
        name, number = stem, 2
        while name.lower() in taken:
            name, number = f"{stem}-{number}", number + 1
        taken.add(name.lower())
        paths[page.match_id] = f"transcripts/{name}.html"
    return paths


def write_report(data: ReportData, out_dir: Path) -> ReportFiles:
    """Render ``data`` into ``out_dir`` (created if needed; files of the same names are replaced)."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    models = models_of(data)
    plots = write_plots(data, out_dir / "plots", models)

    links = transcript_paths(data.transcripts)
    outcomes, procedural = outcome_table(data), procedural_tables(data)
    rules = [*rule_game_tables(data), *(result_table(table) for table in data.verdicts)]
    teams = team_sections(data)
    capability, matches = capability_table(data), matches_table(data, links)
    costs = cost_table(data)
    leaderboard = leaderboard_tables(data)

    transcripts: list[Path] = []
    written: set[str] = set()
    for page in data.transcripts:
        rel = links[page.match_id]
        if rel in written:
            continue
        written.add(rel)
        path = out_dir / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        title = f"{data.title} · run {data.run_id}"
        path.write_text(
            render_transcript(page, back="../index.html", title=title, badge=badge(page.outcome)),
            encoding="utf-8",
        )
        transcripts.append(path)

    index = out_dir / "index.html"
    index.write_text(
        render_index(data, outcomes=outcomes, rules=rules, teams=teams, procedural=procedural,
                     capability=capability, matches=matches, plots=plots, costs=costs, leaderboard=leaderboard),
        encoding="utf-8",
    )
    markdown = out_dir / "report.md"
    markdown.write_text(
        render_markdown(data, outcomes=outcomes, rules=rules, teams=teams, procedural=procedural,
                        capability=capability, matches=matches, plots=plots, how_to_read=HOW_TO_READ, costs=costs,
                        leaderboard=leaderboard),
        encoding="utf-8",
    )
    return ReportFiles(
        html=index,
        markdown=markdown,
        plots=tuple(p.path for p in plots),
        transcripts=tuple(transcripts),
    )
