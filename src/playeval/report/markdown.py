"""The report as Markdown (GitHub pipe tables), with the plots embedded and links to the transcript pages."""

from __future__ import annotations

import html
import re
from collections.abc import Sequence

from playeval.report.data import ReportData
from playeval.report.plots import Plot
from playeval.report.tables import Cell, Table, TeamSection, config_items, fmt_created

_SPECIAL = re.compile(r"([\\`*_\[\]|])")


def escape(text: str) -> str:
    """Plain text for a Markdown line or table cell: no HTML, no emphasis, no pipes, one line."""
    one_line = " ".join(text.split())
    return _SPECIAL.sub(r"\\\1", html.escape(one_line, quote=False))


def _cell(cell: Cell) -> str:
    text = escape(cell.text)
    if cell.bold:
        text = f"**{text}**"
    if cell.href:
        text = f"[{text}]({cell.href})"
    if cell.sub:
        text += "<br>" + "<br>".join(f"<sub>{escape(s)}</sub>" for s in cell.sub)
    return text


def _headings(table: Table) -> list[str]:
    if not table.groups:
        return [escape(c) for c in table.columns]
    headings: list[str] = []
    index = 0
    for group in table.groups:
        for offset in range(group.span):
            column = escape(table.columns[index + offset])
            headings.append(f"{escape(group.label)}: {column}" if group.label else column)
        index += group.span
    return headings


def table(t: Table) -> str:
    """A GitHub pipe table; numeric columns are right-aligned."""
    numeric = [bool(t.rows) and all(row[i].numeric for row in t.rows) for i in range(len(t.columns))]
    lines = [
        "| " + " | ".join(_headings(t)) + " |",
        "|" + "|".join("---:" if n else "---" for n in numeric) + "|",
    ]
    sections = dict(t.sections)
    for index, row in enumerate(t.rows):
        if index in sections:  # a labelled group of rows: a row of its own, the label in the first column
            lines.append("| " + " | ".join([f"**{escape(sections[index])}**", *[""] * (len(t.columns) - 1)]) + " |")
        lines.append("| " + " | ".join(_cell(c) for c in row) + " |")
    if t.caption:
        lines += ["", f"*{escape(t.caption)}*"]
    return "\n".join(lines)


def render_markdown(
    data: ReportData,
    *,
    outcomes: Table,
    procedural: Sequence[Table],
    capability: Table,
    matches: Table,
    plots: Sequence[Plot],
    how_to_read: Sequence[str],
    rules: Sequence[Table] = (),
    teams: Sequence[TeamSection] = (),
    costs: Table | None = None,
    leaderboard: Sequence[Table] = (),
) -> str:
    out: list[str] = [f"# {escape(data.title)}", ""]
    out.append(f"Run `{data.run_id.replace('`', '')}` · created {escape(fmt_created(data.created))} · "
               f"{len(data.transcripts)} matches")
    out.append("")
    for key, value in config_items(data.config):
        out.append(f"- **{escape(key)}**: {escape(value)}")
    out += ["", "## 1. Outcomes", ""]
    out.append(table(outcomes) if outcomes.rows else "*No scored matches in this run.*")
    if leaderboard:
        out += ["", "### Leaderboard"]
        for t in leaderboard:
            out += ["", f"#### {escape(t.title)}", "", table(t)]
    for t in rules:
        out += ["", f"### {escape(t.title)}", "", table(t)]
    for section in teams:
        out += ["", f"### {escape(section.name)}"]
        for t in section.tables:
            out += ["", f"#### {escape(t.title)}", "", table(t)]
    if costs is not None and costs.rows:
        out += ["", "### Cost", "", table(costs)]
    out += ["", "## 2. Procedural metrics", ""]
    if not procedural:
        out += ["*No retrospective analysis in this run.*", ""]
    for t in procedural:
        out += [f"### {escape(t.title)}", "", table(t), ""]
    out += ["## 3. Plots", ""]
    for plot in plots:
        out += [f"### {escape(plot.title)}", "", f"![{escape(plot.title)}]({plot.rel})", "", escape(plot.caption), ""]
    out += ["## 4. Capability profile", ""]
    out.append(table(capability) if capability.rows else "*No capability profile in this run.*")
    out += ["", "## 5. Matches", ""]
    out.append(table(matches) if matches.rows else "*No matches recorded.*")
    out += ["", "## 6. Notes", ""]
    out += [f"- {escape(note)}" for note in data.notes] or ["*No caveats were recorded for this run.*"]
    out += ["", "### How to read this", ""]
    for paragraph in how_to_read:
        out += [escape(paragraph), ""]
    return "\n".join(out).rstrip() + "\n"
