"""The report's HTML pages: one self-contained index and one page per match.

Templates are jinja2 with autoescaping on, so every text that comes from the
data (model output, secrets, reasons) is escaped. Pages carry their CSS inline
and need no scripts, fonts or other files besides the plots they show.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import jinja2
from markupsafe import Markup

from playeval.report.data import ReportData, TranscriptPage, game_label
from playeval.report.plots import Plot
from playeval.report.tables import Cell, Table, TeamSection, config_items, fmt_created
from playeval.report.tables import badge as badge_of

CSS = """
:root {
  --fg: #1f2328; --muted: #59636e; --line: #d1d9e0; --bg: #ffffff; --head: #f6f8fa; --stripe: #fafbfc;
  --accent: #0969da; --win: #1a7f37; --loss: #cf222e; --forfeit: #9a6700; --other: #59636e;
  color-scheme: light;
}
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body {
  margin: 0; background: var(--bg); color: var(--fg); line-height: 1.5; font-size: 16px;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans",
    "Liberation Sans", sans-serif;
}
main { max-width: 72rem; margin: 0 auto; padding: 1.25rem 1rem 3rem; }
h1 { font-size: 1.65rem; line-height: 1.25; margin: 0.25rem 0 0.4rem; }
h2 { font-size: 1.3rem; margin: 2.4rem 0 0.6rem; padding-bottom: 0.3rem; border-bottom: 1px solid var(--line); }
h3 { font-size: 1.05rem; margin: 1.6rem 0 0.4rem; }
p { margin: 0.5rem 0; }
a { color: var(--accent); text-decoration: none; }
a:hover, a:focus { text-decoration: underline; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; font-size: 0.9em; }
.meta { color: var(--muted); margin: 0; }
.meta span + span::before { content: " · "; }
nav.toc { margin: 1rem 0 0; font-size: 0.92rem; }
nav.toc a { margin-right: 0.9rem; white-space: nowrap; }
.caption, figcaption { color: var(--muted); font-size: 0.88rem; }
dl.config {
  display: grid; grid-template-columns: max-content 1fr; gap: 0.15rem 1rem; margin: 0.8rem 0;
  font-size: 0.9rem; padding: 0.6rem 0.8rem; background: var(--head); border: 1px solid var(--line);
  border-radius: 6px;
}
dl.config dt { color: var(--muted); }
dl.config dd { margin: 0; overflow-wrap: anywhere; }
.scroll {
  overflow-x: auto; -webkit-overflow-scrolling: touch; margin: 0.6rem 0; border: 1px solid var(--line);
  border-radius: 6px;
}
table { border-collapse: collapse; width: 100%; font-size: 0.9rem; }
th, td { padding: 0.4rem 0.65rem; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top;
  white-space: nowrap; }
thead th { background: var(--head); font-weight: 600; vertical-align: bottom; }
thead tr:first-child th.group { text-align: center; border-bottom: 1px solid var(--line); }
th.group, th.start, td.start { border-left: 1px solid var(--line); }
tbody tr:nth-child(even) { background: var(--stripe); }
tbody tr:last-child td { border-bottom: 0; }
tbody tr.section th { background: var(--head); font-weight: 600; font-size: 0.82rem; letter-spacing: 0.03em; }
.num { text-align: right; font-variant-numeric: tabular-nums; }
td.aux { color: var(--muted); }
td.wrap { white-space: normal; min-width: 16rem; }
td .sub { display: block; color: var(--muted); font-size: 0.78rem; font-weight: normal; text-align: left;
  white-space: nowrap; }
.badge { display: inline-block; padding: 0 0.45rem; border-radius: 1rem; font-size: 0.8rem; font-weight: 600;
  border: 1px solid currentColor; }
.badge.win { color: var(--win); } .badge.loss { color: var(--loss); }
.badge.forfeit { color: var(--forfeit); } .badge.other { color: var(--other); }
figure { margin: 1.6rem 0; }
figure img { display: block; max-width: 100%; height: auto; border: 1px solid var(--line); border-radius: 6px; }
figure h3 { margin-top: 0; }
ul.notes { padding-left: 1.2rem; }
.empty { color: var(--muted); font-style: italic; }
.chat { display: flex; flex-direction: column; gap: 0.55rem; margin: 1rem 0; }
.bubble { max-width: min(44rem, 88%); padding: 0.45rem 0.8rem 0.55rem; border-radius: 14px;
  white-space: pre-wrap; overflow-wrap: anywhere; border: 1px solid var(--line); }
.bubble .seat { display: block; font-size: 0.72rem; font-weight: 700; letter-spacing: 0.04em;
  text-transform: uppercase; color: var(--muted); white-space: normal; }
.side-0 { align-self: flex-start; background: #eef4fc; border-top-left-radius: 4px; }
.side-1 { align-self: flex-end; background: #eef7ef; border-top-right-radius: 4px; }
.side-2 { align-self: center; background: #f7f3ea; }
.hit-yes { color: var(--win); font-weight: 700; } .hit-no { color: var(--loss); font-weight: 700; }
.hit-none { color: var(--muted); }
.back { display: inline-block; margin: 0.2rem 0 0.8rem; }
footer { margin-top: 3rem; color: var(--muted); font-size: 0.8rem; }
@media (max-width: 40rem) {
  main { padding: 0.8rem 0.7rem 2rem; }
  h1 { font-size: 1.35rem; }
  dl.config { grid-template-columns: 1fr; }
  dl.config dd { margin-bottom: 0.3rem; }
  .bubble { max-width: 95%; }
}
"""

_MACROS = """
{% macro table(t) -%}
<div class="scroll"><table>
<thead>
{%- for header_row in head(t) %}
<tr>{% for h in header_row %}<th{% if h.colspan > 1 %} colspan="{{ h.colspan }}"{% endif %}
{%- if h.rowspan > 1 %} rowspan="{{ h.rowspan }}"{% endif %}
{%- if h.classes %} class="{{ h.classes }}"{% endif %} scope="{{ 'colgroup' if h.colspan > 1 else 'col' }}">
{{- h.text }}</th>{% endfor %}</tr>
{%- endfor %}
</thead>
<tbody>
{%- set sections = dict(t.sections) %}
{%- for row in t.rows %}
{%- if loop.index0 in sections %}
<tr class="section"><th colspan="{{ t.columns|length }}" scope="rowgroup">{{ sections[loop.index0] }}</th></tr>
{%- endif %}
<tr>{% for c in row %}<td{% if classes(t, loop.index0, c) %} class="{{ classes(t, loop.index0, c) }}"{% endif %}>
{%- if c.href %}<a href="{{ c.href }}">{% endif %}
{%- if c.badge %}<span class="badge {{ c.badge }}">{% endif %}
{%- if c.bold %}<strong>{{ c.text }}</strong>{% else %}{{ c.text }}{% endif %}
{%- if c.badge %}</span>{% endif %}
{%- if c.href %}</a>{% endif %}
{%- for s in c.sub %}<span class="sub">{{ s }}</span>{% endfor %}</td>{% endfor %}</tr>
{%- endfor %}
</tbody>
</table></div>
{%- if t.caption %}<p class="caption">{{ t.caption }}</p>{% endif %}
{%- endmacro %}
"""

_BASE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{% block title %}{% endblock %}</title>
<style>{{ css }}</style>
</head>
<body>
<main>
{% block body %}{% endblock %}
<footer>Generated by playeval from recorded matches; every figure is recomputed from the store.</footer>
</main>
</body>
</html>
"""

_INDEX = """{% extends "base.html" %}
{% from "macros.html" import table %}
{% block title %}{{ data.title }} · {{ data.run_id }}{% endblock %}
{% block body %}
<header>
<h1>{{ data.title }}</h1>
<p class="meta"><span>Run <code>{{ data.run_id }}</code></span><span>created {{ created }}</span>
<span>{{ data.transcripts | length }} match{{ '' if data.transcripts | length == 1 else 'es' }}</span></p>
{%- if config %}
<dl class="config">
{%- for key, value in config %}<dt>{{ key }}</dt><dd>{{ value }}</dd>{% endfor %}
</dl>
{%- endif %}
<nav class="toc"><a href="#outcomes">Outcomes</a>{% if leaderboard %}<a href="#leaderboard">Leaderboard</a>{% endif %}
{%- for section in teams %}<a href="#{{ section.game }}">{{ section.name }}</a>{% endfor %}
<a href="#procedural">Procedural metrics</a>
<a href="#plots">Plots</a><a href="#capability">Capability profile</a><a href="#matches">Matches</a>
<a href="#notes">Notes</a><a href="#how-to-read">How to read this</a></nav>
</header>

<section id="outcomes">
<h2>1. Outcomes</h2>
{% if outcomes.rows %}{{ table(outcomes) }}{% else %}<p class="empty">No scored matches in this run.</p>{% endif %}
{% if leaderboard %}
<h3 id="leaderboard">Leaderboard</h3>
{% for t in leaderboard %}
<h4>{{ t.title }}</h4>
{{ table(t) }}
{% endfor %}
{% endif %}
{% for t in rules %}
<h3>{{ t.title }}</h3>
{{ table(t) }}
{% endfor %}
{% for section in teams %}
<h3 id="{{ section.game }}">{{ section.name }}</h3>
{% for t in section.tables %}
<h4>{{ t.title }}</h4>
{{ table(t) }}
{% endfor %}
{% endfor %}
{% if costs %}
<h3 id="cost">Cost</h3>
{{ table(costs) }}
{% endif %}
</section>

<section id="procedural">
<h2>2. Procedural metrics</h2>
<p class="caption">From the retrospective analysis: after each round the model is asked again, with the same
history, for its ranked candidates or its judgement. Skills follow the paper's Table 1.</p>
{% for t in procedural %}
<h3>{{ t.title }}</h3>
{{ table(t) }}
{% else %}<p class="empty">No retrospective analysis in this run.</p>
{% endfor %}
</section>

<section id="plots">
<h2>3. Plots</h2>
{% for p in plots %}
<figure id="plot-{{ loop.index }}">
<h3>{{ p.title }}</h3>
<img src="{{ p.rel }}" alt="{{ p.title }}"{% if p.width %} width="{{ p.width }}" height="{{ p.height }}"{% endif %}
 loading="lazy">
<figcaption>{{ p.caption }}</figcaption>
</figure>
{% endfor %}
</section>

<section id="capability">
<h2>4. Capability profile</h2>
{% if capability.rows %}{{ table(capability) }}{% else %}<p class="empty">No capability profile in this run.</p>
{% endif %}
</section>

<section id="matches">
<h2>5. Matches</h2>
{% if matches.rows %}{{ table(matches) }}{% else %}<p class="empty">No matches recorded.</p>{% endif %}
</section>

<section id="notes">
<h2>6. Notes</h2>
{% if data.notes %}<ul class="notes">{% for n in data.notes %}<li>{{ n }}</li>{% endfor %}</ul>
{% else %}<p class="empty">No caveats were recorded for this run.</p>{% endif %}
</section>

<section id="how-to-read">
<h3>How to read this</h3>
{% for paragraph in how_to_read %}<p>{{ paragraph }}</p>{% endfor %}
</section>
{% endblock %}
"""

_TRANSCRIPT = """{% extends "base.html" %}
{% block title %}{{ page.match_id }} · {{ game }}{% endblock %}
{% block body %}
<a class="back" href="{{ back }}">← Back to the report</a>
<h1>{{ game }}: {{ page.model }}{% if page.opponent %} vs. {{ page.opponent }}{% endif %}</h1>
<p class="meta"><span>Match <code>{{ page.match_id }}</code></span><span>{{ title }}</span></p>
<dl class="config">
<dt>Game</dt><dd>{{ game }}</dd>
<dt>Level</dt><dd>{{ page.level }}</dd>
<dt>Model</dt><dd>{{ page.model }}</dd>
{%- if page.opponent %}
<dt>Opponent</dt><dd>{{ page.opponent }}</dd>
{%- endif %}
{%- if page.evaluated | length <= 1 %}
<dt>Prompt variant</dt><dd>{{ page.variant if page.variant is not none else '—' }}</dd>
{%- endif %}
<dt>Secret</dt><dd>{{ page.secret }}</dd>
<dt>Outcome</dt><dd><span class="badge {{ badge }}">{{ page.outcome }}</span></dd>
<dt>Reason</dt><dd>{{ page.reason }}</dd>
<dt>Rounds</dt><dd>{{ page.rounds }}</dd>
</dl>

<h2>Seats</h2>
<div class="scroll"><table>
<thead><tr><th scope="col">Seat</th>{% if page.teams %}<th scope="col">Team</th>{% endif %}<th scope="col">Player</th>
<th scope="col">Evaluated</th><th class="num" scope="col">Prompt variant</th><th scope="col">Result</th>
{%- if outs %}<th scope="col">Out</th>{% endif %}{% if scores %}<th scope="col">Score</th>{% endif %}</tr></thead>
<tbody>
{%- for s in page.seats %}
<tr><td>{{ s.seat }}</td>{% if page.teams %}<td>{{ s.team or '—' }}</td>{% endif %}<td>{{ s.player }}</td>
<td>{{ 'yes' if s.evaluated else 'no' }}</td><td class="num">{{ s.variant if s.variant is not none else '—' }}</td>
<td><span class="badge {{ badge_of(s.result) }}">{{ s.result }}</span></td>
{%- if outs %}<td class="wrap">{{ s.out or '—' }}</td>{% endif %}
{%- if scores %}<td>{{ s.score or '—' }}</td>{% endif %}</tr>
{%- endfor %}
</tbody>
</table></div>

<h2>Conversation</h2>
{% if page.lines %}
<div class="chat">
{%- for seat, text, side in lines %}
<div class="bubble side-{{ side }}"><span class="seat">{{ seat }}</span>{{ text }}</div>
{%- endfor %}
</div>
{% else %}<p class="empty">No lines were recorded for this match.</p>{% endif %}

{% if page.retro %}
<h2>Retrospective analysis</h2>
<p class="caption">After each round the model was asked again, with the same history, for its ranked candidates or
its judgement. ✓: the secret is in the list, or the judgement leans to the truth's side.</p>
<div class="scroll"><table>
<thead><tr><th class="num" scope="col">Round</th><th scope="col">Output</th><th scope="col">Hit</th></tr></thead>
<tbody>
{%- for r in page.retro %}
<tr><td class="num">{{ r.round }}</td><td class="wrap">{{ r.text }}</td>
<td>{% if r.hit is none %}<span class="hit-none" title="not parsed">—</span>
{%- elif r.hit %}<span class="hit-yes" title="hit">✓</span>
{%- else %}<span class="hit-no" title="miss">✗</span>{% endif %}</td></tr>
{%- endfor %}
</tbody>
</table></div>
{% endif %}
<p><a href="{{ back }}">← Back to the report</a></p>
{% endblock %}
"""

HOW_TO_READ: tuple[str, ...] = (
    ("Every figure was computed from this run's recorded matches. A win rate “0.55” has under it its 95% "
     "interval over matches and n, the matches scored: a run draws matches, so a model's seats in one match (a "
     "team game's) share that match's fate and count as one draw, by a bootstrap of the matches. A rate whose "
     "interval overlaps the random baseline's on the same game is marked “not above chance”; the baseline "
     "players' own rows stand under the models', by name. A cell where no match was scored reads “n/a”, and "
     "Not scored says how many matches were left out and why. Average rounds are over the matches the rules "
     "finished."),
    ("A forfeit (the model kept breaking the format or the rules until it ran out of re-asks) counts as a loss in "
     "the win rate, but forfeits are also counted in a column of their own, and the invalid-move rate (rejected "
     "replies per reply) is kept apart from losses, so a model that plays and loses can be told from one that "
     "cannot follow the game's format."),
    ("In the procedural tables, ↓ marks a metric where lower is better; for the others, higher is better. Bold "
     "marks the best value of a column when the models differ. “n/a” means there was no data to compute a value "
     "(it is never a zero); “—” means the model did not play that game. The capability profile ranks the "
     "models of this run on each metric and averages the ranks per skill, so 1 is the best of these models, "
     "not an absolute score."),
)


@dataclass(frozen=True)
class HeaderCell:
    text: str
    colspan: int = 1
    rowspan: int = 1
    classes: str = ""


def header_rows(table: Table) -> list[list[HeaderCell]]:
    """One heading row, or two when the table groups columns (ungrouped columns span both rows)."""
    numeric = _numeric_columns(table)
    if not table.groups:
        return [[HeaderCell(c, classes="num" if numeric[i] else "") for i, c in enumerate(table.columns)]]
    top: list[HeaderCell] = []
    bottom: list[HeaderCell] = []
    index = 0
    for group in table.groups:
        if not group.label and group.span == 1:
            cls = "num" if numeric[index] else ""
            top.append(HeaderCell(table.columns[index], rowspan=2, classes=cls))
        else:
            top.append(HeaderCell(group.label, colspan=group.span, classes="group"))
            for offset in range(group.span):
                classes = ["num"] if numeric[index + offset] else []
                if offset == 0:
                    classes.append("start")
                bottom.append(HeaderCell(table.columns[index + offset], classes=" ".join(classes)))
        index += group.span
    return [top, bottom]


def _numeric_columns(table: Table) -> list[bool]:
    return [bool(table.rows) and all(row[i].numeric for row in table.rows) for i in range(len(table.columns))]


def _group_starts(table: Table) -> set[int]:
    starts: set[int] = set()
    index = 0
    for group in table.groups:
        if group.label or group.span > 1:
            starts.add(index)
        index += group.span
    return starts


def cell_classes(table: Table, index: int, cell: Cell) -> str:
    classes = []
    if cell.numeric:
        classes.append("num")
    if cell.aux:
        classes.append("aux")
    if cell.wrap:
        classes.append("wrap")
    if index in _group_starts(table):
        classes.append("start")
    return " ".join(classes)


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.DictLoader(
            {"base.html": _BASE, "macros.html": _MACROS, "index.html": _INDEX, "transcript.html": _TRANSCRIPT}
        ),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=False,
        lstrip_blocks=False,
        keep_trailing_newline=True,
    )
    env.globals.update(css=Markup(CSS), head=header_rows, classes=cell_classes)
    return env


_ENV = _environment()


def render_index(
    data: ReportData,
    *,
    outcomes: Table,
    procedural: Sequence[Table],
    capability: Table,
    matches: Table,
    plots: Sequence[Plot],
    rules: Sequence[Table] = (),
    teams: Sequence[TeamSection] = (),
    costs: Table | None = None,
    leaderboard: Sequence[Table] = (),
) -> str:
    return _ENV.get_template("index.html").render(
        leaderboard=list(leaderboard),
        costs=costs if costs is not None and costs.rows else None,
        data=data,
        created=fmt_created(data.created),
        config=config_items(data.config),
        outcomes=outcomes,
        rules=list(rules),
        teams=list(teams),
        procedural=list(procedural),
        capability=capability,
        matches=matches,
        plots=list(plots),
        how_to_read=HOW_TO_READ,
    )


def render_transcript(page: TranscriptPage, *, back: str, title: str, badge: str) -> str:
    sides: dict[str, int] = {}
    lines = []
    for seat, text in page.lines:
        side = sides.setdefault(seat, min(len(sides), 2))
        lines.append((seat, text, side))
    return _ENV.get_template("transcript.html").render(
        page=page, game=page.name or game_label(page.game), lines=lines, back=back, title=title, badge=badge,
        badge_of=badge_of,
        outs=any(seat.out for seat in page.seats),
        scores=any(seat.score for seat in page.seats),
    )
