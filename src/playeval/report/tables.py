"""The report's tables as plain data, shared by the HTML and the Markdown writers.

A ``Table`` holds text only: the writers decide how bold, links, grouped
headings and secondary lines look. Numbers are formatted here, once, so both
outputs show the same figures ("0.55", "[0.40, 0.69], n=40", "27.83", "n/a").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from playeval.analysis import ModelResult
from playeval.analysis.bradley_terry import RatedPlayer
from playeval.analysis.cells import Figure, Mean, Rate, ResultTable
from playeval.analysis.chance import NOT_ABOVE, chance_verdicts, key_of, player_label, split_baselines
from playeval.analysis.leaderboard import BoardLine, board_lines, leaderboard_notes, overall_lines
from playeval.analysis.load import ALL_MODELS
from playeval.analysis.sides import ALL, elo_formula, possessive, sides_caption
from playeval.core.info import MetricSpec, ScoreInfo
from playeval.models.pricing import format_usd
from playeval.report.data import ReportData, TeamReport

NA = "n/a"
"""No data: a value that could not be computed (never shown as 0)."""
ABSENT = "—"
"""The model did not play this game in the run."""


@dataclass(frozen=True)
class Cell:
    text: str
    bold: bool = False
    href: str | None = None
    numeric: bool = False
    """Right-aligned, tabular figures."""
    aux: bool = False
    """Secondary column (counts, rates kept apart from the headline figures): shown muted."""
    sub: tuple[str, ...] = ()
    """Small lines under the text (the metrics behind a rank)."""
    badge: str | None = None
    """A short class for a coloured label, e.g. the outcome of a match ("win", "loss")."""
    wrap: bool = False
    """Long free text: let it wrap instead of widening the table."""


@dataclass(frozen=True)
class Group:
    """A heading over ``span`` neighbouring columns; an empty label heads a single ungrouped column."""

    label: str
    span: int


@dataclass(frozen=True)
class Table:
    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]
    groups: tuple[Group, ...] = ()
    """When given, the spans add up to ``len(columns)``."""
    caption: str = ""
    sections: tuple[tuple[int, str], ...] = ()
    """Labelled groups of rows: (the index of a group's first row, its label), drawn as a row of their own."""


# --------------------------------------------------------------------------- labels and numbers


def skill_label(skill: str) -> str:
    """``multi-hop`` -> ``Multi-hop reasoning`` (as in the paper's Table 1)."""
    text = skill.replace("_", " ").strip()
    return (text[:1].upper() + text[1:] + " reasoning") if text else skill


def fmt_num(value: float | None, digits: int = 2) -> str:
    return NA if value is None else f"{value:.{digits}f}"


def fmt_metric(value: float | None, percent: bool) -> str:
    if value is None:
        return NA
    return f"{value * 100:.2f}" if percent else f"{value:.2f}"


def metric_heading(metric: MetricSpec) -> str:
    label = metric.label
    if metric.percent and "%" not in label:
        label += " (%)"
    if metric.lower_is_better and "↓" not in label:
        label += " ↓"
    return label


def fmt_created(created: str) -> str:
    """ISO 8601 -> ``2025-03-01 14:05 UTC``; anything else is shown as given."""
    try:
        moment = datetime.fromisoformat(created.replace("Z", "+00:00"))
    except ValueError:
        return created
    offset = moment.utcoffset()
    zone = "UTC" if offset is None or offset.total_seconds() == 0 else moment.strftime("%z")
    return f"{moment:%Y-%m-%d %H:%M} {zone}"


def fmt_config_value(value: object) -> str:
    if value is None:
        return ABSENT
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Mapping):
        return ", ".join(f"{key}={fmt_config_value(item)}" for key, item in value.items()) or ABSENT
    if isinstance(value, (list, tuple, set, frozenset)):
        return ", ".join(fmt_config_value(item) for item in value) or ABSENT
    return str(value)


def config_items(config: Mapping[str, object]) -> list[tuple[str, str]]:
    return [(str(key), fmt_config_value(value)) for key, value in config.items()]


def _unique(items: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(items))


def models_of(data: ReportData) -> list[str]:
    """Every evaluated model, in order of first appearance (outcomes first)."""
    return _unique(
        [r.model for r in data.outcomes]
        + [r.model for r in data.procedural]
        + [p.model for p in data.profiles]
        + [c.model for c in data.recall_curves]
        + [t.model for t in data.trajectories]
        + [seat.player for t in data.transcripts for seat in t.evaluated]
    )


def skill_columns(data: ReportData) -> list[str]:
    """The skills the capability profile shows: the registry's (``data.skills``, in its order) that a profile
    ranks, then any other a profile names; all the registry's when there is no profile."""
    named = _unique(standing.skill for profile in data.profiles for standing in profile.skills)
    columns = [skill for skill in data.skills if skill in named] + [s for s in named if s not in data.skills]
    return columns or list(data.skills)


def has_teams(results: Iterable[ModelResult]) -> bool:
    """Whether any result is a team's: only then do the tables show a team column."""
    return any(result.team is not None for result in results)


def best_flags(values: Sequence[float | None], lower_is_better: bool) -> list[bool]:
    """Which values are the best of their column: only when there are at least two different values."""
    present = [v for v in values if v is not None]
    if len(set(present)) < 2:
        return [False] * len(values)
    best = min(present) if lower_is_better else max(present)
    return [v is not None and abs(v - best) < 1e-12 for v in values]


# --------------------------------------------------------------------------- the tables

OUTCOME_COLUMNS = ("Win rate", "Avg. rounds", "Matches", "Not scored", "Forfeits", "Invalid moves (%)")
_OUTCOME_AUX = 4
"""The columns after the first two are counts, shown muted."""


def _interval_sub(low: float | None, high: float | None, n: str) -> str:
    return f"[{low:.2f}, {high:.2f}], {n}" if low is not None and high is not None else n


def _win_cell(row: ModelResult, bold: bool, verdict: str | None) -> Cell:
    """The win rate with its 95% interval over matches and its n under it, and the verdict against chance."""
    if row.win_rate is None:
        return Cell(NA, numeric=True)
    n = f"n={row.scored_matches} matches ({row.scored} seats)" if row.clustered else f"n={row.scored_matches}"
    return Cell(f"{row.win_rate:.2f}", bold=bold, numeric=True,
                sub=(_interval_sub(row.win_low, row.win_high, n), *((verdict,) if verdict else ())))


def _rounds_cell(row: ModelResult) -> Cell:
    if row.avg_rounds is None:
        return Cell(NA, numeric=True)
    sub = (f"[{row.rounds_low:.2f}, {row.rounds_high:.2f}]",) if row.rounds_low is not None and \
        row.rounds_high is not None else ()
    return Cell(f"{row.avg_rounds:.2f}", numeric=True, sub=sub)


def outcome_table(data: ReportData) -> Table:
    """Table 2's form: a row per model (and team, where a game has teams), a group of columns per game; the
    baseline players' rows under the models', by name (``analysis.chance``)."""
    games = _unique(r.game for r in data.outcomes)
    teams = has_teams(data.outcomes)
    models, baselines = split_baselines(data.outcomes)
    keys = list(dict.fromkeys((r.model, r.team) for r in models))
    baseline_keys = list(dict.fromkeys((r.model, r.team) for r in baselines))
    by_key = {(r.game, r.model, r.team): r for r in data.outcomes}
    verdicts = chance_verdicts(data.outcomes)
    best: dict[tuple[str, str, str | None], bool] = {}
    for game in games:  # the best model: a baseline is no contender
        rates = [by_key[(game, *key)].win_rate if (game, *key) in by_key else None for key in keys]
        for key, flag in zip(keys, best_flags(rates, lower_is_better=False), strict=True):
            best[(game, *key)] = flag
    scores = {game: facts.score for game in games if (facts := data.games.get(game)) is not None and facts.score}
    rows: list[tuple[Cell, ...]] = []
    for model, team in [*keys, *baseline_keys]:
        cells = [Cell(player_label(model)), *((Cell(team or ABSENT),) if teams else ())]
        for game in games:
            row = by_key.get((game, model, team))
            if row is None:
                cells += [Cell(ABSENT, numeric=True)] * 2 + [Cell(ABSENT, numeric=True, aux=True)] * _OUTCOME_AUX
                cells += [Cell(ABSENT, numeric=True)] if game in scores else []
                continue
            cells += [
                _win_cell(row, best.get((game, model, team), False), verdicts.get(key_of(row))),
                _rounds_cell(row),
                Cell(str(row.played), numeric=True, aux=True),
                Cell(str(row.unscored_matches), numeric=True, aux=True,
                     sub=tuple(f"{count} {reason}" for reason, count in row.unscored)),
                Cell(str(row.forfeits), numeric=True, aux=True),
                Cell(f"{row.invalid_move_rate * 100:.2f}", numeric=True, aux=True),
            ]
            if game in scores:
                cells.append(Cell(scores[game].text(row.score), numeric=True))
        rows.append(tuple(cells))
    caption = ("Win rate: wins over scored seats, with its 95% interval over matches and n, the scored matches, "
               "under it: the Wilson interval where each match gave the model one seat, a bootstrap of the matches "
               "where it held several seats of one table (their seats share the table's fate); n/a when nothing "
               "was scored. Average rounds: over the matches the rules finished, with a t 95% interval. Not "
               "scored: matches left out of the win rate, by why (opponent forfeit: another seat ran out of "
               "re-asks; role failed: the game master or another role gave no usable reply; aborted: stopped from "
               "outside). Forfeits count as losses in the win rate and are also shown on their own; invalid moves "
               "are rejected replies per reply, kept apart from losses. Bold: best model's win rate per game.")
    if verdicts:
        caption += (f" Under a model's rate, against the random baseline's on the same game and setups: {NOT_ABOVE} "
                    "when the two 95% intervals overlap, above or below chance when they do not.")
    if baselines:
        caption += (" Baselines: players of known character the game provides, on the same setups as the models, "
                    "named under the models and not ranked among them.")
    if scores:
        caption += (" " + "; ".join(f"{scores[g].label.capitalize()} ({data.name_of(g)}): the game's own per-seat "
                                    "number, the mean over seats" for g in scores) + ".")
    if teams:
        caption += (" Where a game has teams, a model has a row per team it played for, and every seat it held "
                    "counts.")
    return Table(
        title="Outcomes",
        columns=("Model", *(("Team",) if teams else ()), *[c for g in games for c in _outcome_columns(g, scores)]),
        groups=(Group("", 1), *((Group("", 1),) if teams else ()),
                *[Group(data.name_of(g), len(_outcome_columns(g, scores))) for g in games]),
        rows=tuple(rows),
        caption=caption,
        sections=((len(keys), "Baselines"),) if baseline_keys else (),
    )


def _outcome_columns(game: str, scores: Mapping[str, ScoreInfo]) -> tuple[str, ...]:
    score = scores.get(game)
    return (*OUTCOME_COLUMNS, score.label.capitalize()) if score is not None else OUTCOME_COLUMNS


def _rate_cell(wins: int, matches: int, low: float | None, high: float | None, bold: bool) -> Cell:
    if not matches or low is None or high is None:
        return Cell(NA, numeric=True)
    return Cell(f"{wins / matches * 100:.0f}%", bold=bold, numeric=True,
                sub=(f"[{low * 100:.0f}-{high * 100:.0f}%], n={matches}",))


def rule_game_tables(data: ReportData) -> list[Table]:
    """GuessTheRuleBench: the paper's Table 2 (judged win rate per game and level, a row per model, with Wilson
    95% intervals), then a row per game, level and model with turns, items seen, time and the judge-free
    rule-application check. Empty when the run has no guess-the-rule matches."""
    rows = data.rule_games
    if not rows:
        return []
    games = _unique(r.game for r in rows)
    levels = {game: sorted({r.level for r in rows if r.game == game}) for game in games}
    models = _unique(r.model for r in rows)
    by_key = {(r.game, r.level, r.model): r for r in rows}
    columns = [(game, level) for game in games for level in levels[game]]
    best = {column: best_flags([by_key[(*column, m)].win_rate if (*column, m) in by_key else None
                                for m in models], lower_is_better=False) for column in columns}
    table2: list[tuple[Cell, ...]] = []
    for index, model in enumerate(models):
        cells = [Cell(model)]
        for column in columns:
            row = by_key.get((*column, model))
            cells.append(Cell(ABSENT, numeric=True) if row is None else
                         _rate_cell(row.wins, row.matches, row.ci_low, row.ci_high, best[column][index]))
        table2.append(tuple(cells))
    wins = Table(
        title="Guess the rule: judged win rate",
        columns=("Model", *[f"L{level}" for _, level in columns]),
        groups=(Group("", 1), *[Group(data.name_of(game), len(levels[game])) for game in games]),
        rows=tuple(table2),
        caption=("Share of matches won by an accepted guess (accepted by the rules when it stated the rule, no judge "
                 "asked; else by the judge role: the next table counts them apart), with its Wilson 95% interval "
                 "and the number of matches; forfeits count as losses, aborted matches are left out. Bold: best per "
                 "column. A judge's verdicts are only as good as its measured accuracy (`playeval analyze judge`): "
                 "read these beside the check in the next table, which no judge decides."),
    )
    detail = tuple(
        (Cell(data.name_of(r.game)), Cell(f"L{r.level}"), Cell(r.model),
         Cell(str(r.matches), numeric=True, aux=True),
         Cell(fmt_num(r.turns, 1), numeric=True), Cell(fmt_num(r.examples_seen, 1), numeric=True),
         Cell(fmt_num(r.seconds, 1), numeric=True),
         Cell(NA if r.check_accuracy is None else f"{r.check_accuracy * 100:.0f}%", numeric=True),
         Cell(NA if r.check_chance is None else f"{r.check_chance * 100:.0f}%", numeric=True,
              sub=(f"{r.check_items} items",) if r.check_items else ()),
         Cell(NA if r.check_kappa is None else f"{r.check_kappa:+.2f}", numeric=True),
         Cell(NA if r.agreement is None else f"{r.agreement * 100:.0f}%", numeric=True,
              sub=(f"of {r.judged} guesses",) if r.judged else ()),
         Cell(f"{r.rule_wins}/{r.wins - r.rule_wins}", numeric=True))
        for r in rows)
    checks = Table(
        title="Guess the rule: turns, examples and the rule-application check",
        columns=("Game", "Level", "Model", "Matches", "Turns", "Items seen", "Seconds", "Check accuracy",
                 "Chance", "Kappa", "Judge agrees", "Won by rules/judge"),
        rows=detail,
        caption=("Means per match. Items seen counts what the player was shown: items (each picnic example is one item"
                 " that may come and one that may not) or, in the Math Game, values. Check accuracy: the share of 10 "
                 "held-out items the player's last guessed rule got right when asked to apply it (each guess's check "
                 "asks fresh items where the rule's pool allows). Chance: what chance scores on the items those checks"
                 " asked, the share of the commonest right answer (50% on the picnic games' balanced yes/no items; 0% "
                 "for the Math Game's next values, open numbers): an accuracy at its chance level shows no grasp of "
                 "the rule. Kappa: Cohen's kappa of the answers against the right ones over the same items, the "
                 "accuracy corrected for chance (0: no better than chance, 1: all right; answering 'yes' to everything"
                 " scores 0). Judge agrees: the share of judged guesses whose verdict matches the check (a guess "
                 "passes with 80% or more right). Won by rules/judge: the wins whose guess the rules accepted without "
                 "asking the judge / those the judge accepted."),
    )
    return [wins, checks]


def _share(rate: Rate, verdict: str | None = None) -> Cell:
    """A share with its interval and n under it (``n=4 (8 seats)`` over matches), and a verdict against chance."""
    if not rate.n or rate.low is None or rate.high is None:
        return Cell(NA, numeric=True)
    return Cell(f"{rate.count / rate.n * 100:.0f}%", numeric=True,
                sub=(f"[{rate.low * 100:.0f}-{rate.high * 100:.0f}%], n={rate.n_text()}",
                     *((verdict,) if verdict else ())))


def _mean_cell(mean: Mean) -> Cell:
    if mean.mean is None:
        return Cell(NA, numeric=True)
    n = f"n={mean.n_text()}"
    sub = f"[{mean.low:.2f}, {mean.high:.2f}], {n}" if mean.low is not None and mean.high is not None else n
    return Cell(f"{mean.mean:.2f}", numeric=True, sub=(sub,))


@dataclass(frozen=True)
class TeamSection:
    """A team game's tables in the report, under its name."""

    game: str
    name: str
    tables: tuple[Table, ...]


def _figure_cell(value: Figure, numeric: bool, aux: bool) -> Cell:
    if isinstance(value, Rate):
        return _share(value)
    if isinstance(value, Mean):
        return _mean_cell(value)
    return Cell(str(value), numeric=numeric, aux=aux)


def result_table(table: ResultTable) -> Table:
    """A game's own table (``analysis.cells.ResultTable``) as the report draws it."""
    return Table(
        title=table.title,
        columns=tuple(column.heading for column in table.columns),
        rows=tuple(tuple(_figure_cell(value, column.numeric, column.aux)
                         for value, column in zip(row, table.columns, strict=True)) for row in table.rows),
        groups=tuple(Group(label, span) for label, span in table.groups),
        caption=table.caption)


def _sides_table(team: TeamReport, name: str) -> Table:
    """Per model and side, the baseline players' rows under the models' (a section of their own), each model's
    win rate on a team marked against the random baseline's there."""
    analysis, results = team.analysis, team.results
    measures = analysis.measures
    rows = tuple(
        (Cell(player_label(row.model)), Cell("overall" if row.side == ALL else row.side),
         Cell(row.n_text(), numeric=True, aux=True), _share(row.wins, row.verdict),
         Cell(NA if row.reference is None else f"{row.reference * 100:.0f}%", numeric=True, aux=True),
         *(_figure_cell(row.values[measure.name], True, True) for measure in measures))
        for row in (*results.rows, *results.baselines))
    return Table(
        title=f"{name}: per model and side",
        columns=("Model", "Side", "Matches", "Win rate", "Run's rate", *(measure.title for measure in measures)),
        groups=(Group("", 1), Group("", 1), Group("", 1), Group("Wins", 2),
                *(Group(group.label, len(group.measures)) for group in analysis.groups if group.measures)),
        rows=rows, caption=sides_caption(analysis, results),
        sections=((len(results.rows), "Baselines"),) if results.baselines else ())


def _elo_table(team: TeamReport, name: str) -> Table:
    check = team.order
    reverse = check.reverse if check is not None else {}
    pearson = NA if check is None or check.pearson_r is None else f"{check.pearson_r:.3f}"
    largest = NA if check is None else f"{check.largest_difference:.1f}"
    offsets = "".join(f"the {possessive(t.label)} team gets +{t.elo_offset:.1f}, " for t in team.analysis.teams
                      if t.elo_offset)
    return Table(
        title=f"{name}: team Elo",
        columns=("Model", "Games", "Elo", "95% interval", "Reverse order"),
        rows=tuple((Cell(row.model), Cell(str(row.games), numeric=True, aux=True),
                    Cell(f"{row.rating:.1f}", numeric=True), Cell(f"[{row.low:.1f}, {row.high:.1f}]", numeric=True),
                    Cell(fmt_num(reverse.get(row.model), 1), numeric=True, aux=True))
                   for row in team.elo),
        caption=(f"CK-Arena's team Elo over the run's finished {name} games with model seats on both sides, "
                 f"in play order: ratings start at 0, {offsets}a seat's actual score is "
                 f"{elo_formula(team.analysis)}. Interval: {team.elo_resamples} bootstrap "
                 f"resamples of the games, kept in play order. Reverse order: the ratings from the games played "
                 f"backwards; Pearson r {pearson}, largest difference {largest}."))


def _category_table(team: TeamReport, name: str) -> Table:
    first = team.analysis.teams[0].label
    return Table(
        title=f"{name}: win rate by {team.analysis.category}",
        columns=("Category", "Seats of", "Win rate"),
        rows=tuple((Cell(item.category), Cell(item.model or f"the {first} (matches)"), _share(item.wins))
                   for item in team.results.categories),
        caption=(f"A category's first row is the share of its matches the {first} won; the rows under it are each "
                 "model's seats in it (then each baseline's), won with their side. 95% intervals over the matches "
                 "(a bootstrap of them where a model held several seats of one table); n: the matches, and the "
                 "seats in them where they differ."))


def _rating_cells(rating: RatedPlayer | None, aux: bool) -> tuple[Cell, ...]:
    if rating is None:
        return Cell(ABSENT, numeric=True), Cell(ABSENT, numeric=True), Cell(ABSENT, numeric=True, aux=True)
    return (Cell(f"{rating.rating:.0f}", numeric=True, bold=not aux, aux=aux),
            Cell(f"[{rating.low:.0f}, {rating.high:.0f}]", numeric=True, aux=aux),
            Cell(str(rating.matches), numeric=True, aux=True))


def _line_rate(line: BoardLine) -> tuple[Cell, ...]:
    if line.rate is None or line.low is None or line.high is None:
        return Cell(NA, numeric=True), Cell(NA, numeric=True), Cell(NA, numeric=True, aux=True)
    return (Cell(f"{line.rate * 100:.0f}%", numeric=True),
            Cell(f"[{line.low * 100:.0f}-{line.high * 100:.0f}%]" + ("*" if line.clustered else ""), numeric=True),
            Cell(str(line.n), numeric=True, aux=True))


def leaderboard_tables(data: ReportData) -> list[Table]:
    """The leaderboard as ``playeval leaderboard`` prints it for the run: the overall rating, then each board's
    ratings with their intervals and ties, win rates beside the baselines' and people's, and the team Elo."""
    board = data.leaderboard
    if board is None:
        return []
    tables = [Table(
        title=f"Overall: {len(board.boards)} board{'' if len(board.boards) == 1 else 's'}, each game weighing the same",
        columns=("Rank", "Model", "Rating", "95% interval", "Matches", "Boards", ""),
        rows=tuple((Cell(line.rank, numeric=True), Cell(line.player), *_rating_cells(line.rating, bool(line.mark)),
                    Cell(str(line.boards), numeric=True, aux=True), Cell(line.mark, aux=True))
                   for line in overall_lines(board)),
        caption=" ".join(leaderboard_notes(board)))]
    for result in board.boards:
        elo = bool(result.team_elo)
        rows: list[tuple[Cell, ...]] = []
        for line in board_lines(result):
            team = line.team_elo
            extra = ((Cell(f"{team.rating:.1f} [{team.low:.1f}, {team.high:.1f}]" if team else ABSENT,
                           numeric=True),) if elo else ())
            rows.append((Cell(line.rank, numeric=True), Cell(line.player),
                         *_rating_cells(line.rating, line.mark in ("baseline", "not rated")), *_line_rate(line),
                         *extra, Cell(line.mark, badge="loss" if line.mark == "not above chance" else None)))
        people = f", {result.people_matches} played by people" if result.people_matches else ""
        tables.append(Table(
            title=f"{result.name}: {result.matches} match{'' if result.matches == 1 else 'es'} "
                  f"({result.rated} rated{people})",
            columns=("Rank", "Player", "Rating", "95% interval", "Matches", "Win rate", "95% CI", "n",
                     *(("Team Elo [95%]",) if elo else ()), ""),
            rows=tuple(rows)))
    return tables


def team_sections(data: ReportData) -> list[TeamSection]:
    """Each team game's tables, as it declares them: per model and side (and overall), the team Elo with its
    bootstrap intervals and order check, the win rate by category, then the game's own tables."""
    sections: list[TeamSection] = []
    for team in data.teams:
        name = data.name_of(team.game)
        tables = [_sides_table(team, name)]
        if team.elo:
            tables.append(_elo_table(team, name))
        if team.analysis.category is not None:
            tables.append(_category_table(team, name))
        tables += [result_table(table) for table in team.results.tables.report]
        sections.append(TeamSection(game=team.game, name=name, tables=tuple(tables)))
    return sections


def procedural_tables(data: ReportData) -> list[Table]:
    """Table 3's form: one table per game, each skill a heading over its metrics."""
    tables: list[Table] = []
    for game in _unique(r.game for r in data.procedural):
        rows = [r for r in data.procedural if r.game == game]
        specs = data.metric_specs.get(game, ())
        skill_order = _unique(spec.skill for spec in specs)
        ordered = sorted(specs, key=lambda spec: skill_order.index(spec.skill))
        flags = {
            spec.name: best_flags([row.values.get(spec.name) for row in rows], spec.lower_is_better)
            for spec in ordered
        }
        table_rows: list[tuple[Cell, ...]] = []
        for index, row in enumerate(rows):
            cells = [Cell(row.model), Cell(str(row.matches), numeric=True, aux=True)]
            for spec in ordered:
                cells.append(Cell(fmt_metric(row.values.get(spec.name), spec.percent), bold=flags[spec.name][index],
                                  numeric=True))
            table_rows.append(tuple(cells))
        groups = [Group("", 1), Group("", 1)]
        for skill in skill_order:
            groups.append(Group(skill_label(skill), sum(1 for spec in ordered if spec.skill == skill)))
        tables.append(
            Table(
                title=data.name_of(game),
                columns=("Model", "Matches", *[metric_heading(spec) for spec in ordered]),
                groups=tuple(groups),
                rows=tuple(table_rows),
            )
        )
    return tables


def capability_table(data: ReportData) -> Table:
    """Per model and skill: the mean rank (1 = best) and the metrics it was taken over."""
    skills = skill_columns(data)
    lookup = {(game, spec.label): spec for game, specs in data.metric_specs.items() for spec in specs}
    ranks = {(p.model, s.skill): s for p in data.profiles for s in p.skills}
    flags = {
        skill: best_flags([ranks[(p.model, skill)].rank if (p.model, skill) in ranks else None for p in data.profiles],
                          lower_is_better=True)
        for skill in skills
    }
    rows: list[tuple[Cell, ...]] = []
    for index, profile in enumerate(data.profiles):
        cells = [Cell(profile.model)]
        for skill in skills:
            score = ranks.get((profile.model, skill))
            if score is None:
                cells.append(Cell(ABSENT))
                continue
            sub = []
            for game, label, value in score.metrics:
                metric = lookup.get((game, label))
                shown = fmt_metric(value, metric.percent if metric else False)
                heading = metric_heading(metric) if metric else label
                sub.append(f"{data.name_of(game)} · {heading}: {shown}")
            cells.append(Cell(fmt_num(score.rank), bold=flags[skill][index], sub=tuple(sub)))
        rows.append(tuple(cells))
    return Table(
        title="Capability profile",
        columns=("Model", *[skill_label(s) for s in skills]),
        rows=tuple(rows),
        caption="Mean rank among this run's models over the skill's metrics (1 = best); "
        "the metrics behind each rank are listed under it.",
    )


def matches_table(data: ReportData, links: Mapping[str, str]) -> Table:
    """Every match, linking to its transcript page (``links``: match id -> relative path); with several
    evaluated seats, Model names each seat's player and Outcome says how the match ended."""
    rows = tuple(
        (
            Cell(page.match_id, href=links.get(page.match_id)),
            Cell(data.name_of(page.game)),
            Cell(page.model),
            Cell(page.opponent or ABSENT),
            Cell(page.outcome, badge=badge(page.outcome)),
            Cell(str(page.rounds), numeric=True),
            Cell(page.reason, wrap=True),
        )
        for page in data.transcripts
    )
    return Table(
        title="Matches",
        columns=("Match", "Game", "Model", "Opponent", "Outcome", "Rounds", "Reason"),
        rows=rows,
    )


def badge(outcome: str) -> str:
    """A CSS-safe class for an outcome label."""
    key = outcome.strip().lower()
    if key == "win":
        return "win"
    if key == "loss":
        return "loss"
    if key == "forfeit":
        return "forfeit"
    return "other"


def cost_table(data: ReportData) -> Table:
    """Tokens and cost per model over every call of the run (judges' and unfinished matches' too), then the total."""
    rows = tuple(
        (
            Cell(row.model, bold=row.model == ALL_MODELS),
            Cell(str(row.calls), numeric=True, aux=True),
            Cell(str(row.cached_calls), numeric=True, aux=True),
            Cell(f"{row.prompt_tokens:,}", numeric=True),
            Cell(f"{row.completion_tokens:,}", numeric=True),
            Cell(format_usd(row.cost_usd), numeric=True, bold=row.model == ALL_MODELS),
        )
        for row in data.costs
    )
    caption = ("Every model call of the run, players' and judges' alike. Cost: tokens priced from playeval's price "
               "table (USD per million input and output tokens; a user's $PLAYEVAL_PRICES or "
               "~/.config/playeval/prices.toml overrides it); calls served from the response cache cost nothing; "
               "\"unknown\" when a call's model has no price.")
    return Table(title="Cost", columns=("Model", "Calls", "Cached", "Tokens in", "Tokens out", "Cost"), rows=rows,
                 caption=caption)
