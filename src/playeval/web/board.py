"""The leaderboard and the statistics page, computed from the store on each request, and their plot.

Leaderboard rows are per model and game (or all games): every evaluated seat the model held (two seats of one
match count twice), whatever its team, scored like the batch reports (``analysis.summarize``: a seat's own
forfeit is a loss, seats of aborted matches and of matches another seat forfeited are left out of the win
rate), with a Wilson 95% interval on the win rate and the procedural metrics of the matches that have
retrospective outputs. People's rows are the same numbers per game and seat, for every seat people held.
``source``: ``live`` is every match outside a batch run (the arena and the terminal), ``batch`` the matches of
runs, ``all`` both.

Statistics are about the sessions people played in the arena: a session is useful when it ended with an
outcome (not abandoned); the surveys' answers are counted per question and value.
"""

from __future__ import annotations

import io
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from playeval.analysis import MatchRetro, MatchRow, score_retro, summarize, summarize_procedural
from playeval.analysis.intervals import wilson_interval
from playeval.core.game import Game, seat_evaluated
from playeval.core.registry import GameRegistry
from playeval.store import MatchRecord, Store, SurveyRecord
from playeval.web.views import GameStats, LeaderboardView, ModelRow, PeopleRow, StatsView

Source = Literal["all", "live", "batch"]
ALL_GAMES = "all"
SURVEY_QUESTIONS: tuple[str, ...] = ("enjoyment", "satisfaction", "frequency")


@dataclass(frozen=True)
class _Seen:
    """A finished match from one seat: who held it and how it ended for that seat."""

    row: MatchRow
    human: bool


PEOPLE = "people"
"""The player of a person's seat, in a leaderboard row."""


def in_source(match: MatchRecord, source: Source) -> bool:
    if source == "live":
        return match.run_id is None
    if source == "batch":
        return match.run_id is not None
    return True


def _finished(store: Store, source: Source, game: str) -> list[MatchRecord]:
    return [m for m in store.list_matches(status="finished")
            if m.outcome is not None and in_source(m, source) and (game == ALL_GAMES or m.game == game)]


def _left_seats(store: Store) -> dict[str, set[str]]:
    """Per arena match, the people's seats whose person left (or never came) and a model took over."""
    return {web.match_id: {person.seat for person in web.people if person.left_at is not None}
            for web, _ in store.web_matches(status="finished")}


def _seen(matches: Iterable[MatchRecord], registry: GameRegistry,
          left: dict[str, set[str]] | None = None) -> list[_Seen]:
    """One entry per seat a person held, and one per evaluated seat a model (or a scripted player) held. A seat
    a model took over from a person who left counts for neither: nobody played it from start to end."""
    games: dict[str, Game[Any]] = {}
    seen: list[_Seen] = []
    for match in matches:
        if match.outcome is None or match.game not in registry.ids():
            continue
        game = games.setdefault(match.game, registry.get(match.game))
        gone = (left or {}).get(match.id, set())
        for assignment in match.seats:
            if assignment.seat in gone:
                continue
            human = assignment.player_kind == "human"
            if not human and not seat_evaluated(game, match.spec, assignment):
                continue
            player = PEOPLE if human else (assignment.model or assignment.player_kind)
            seen.append(_Seen(MatchRow(game=match.game, level=match.level, model=player, seat=assignment.seat,
                                       variant=assignment.prompt_variant, outcome=match.outcome, tokens=0,
                                       seconds=0.0, match_id=match.id), human))
    return seen


def _retros(store: Store, registry: GameRegistry, matches: Sequence[MatchRecord],
            seen: Sequence[_Seen]) -> list[MatchRetro]:
    """The scored retrospective outputs of the matches in which a model held an evaluated seat."""
    outputs = store.all_retro_outputs()
    with_models = {entry.row.match_id for entry in seen if not entry.human}
    found: list[MatchRetro] = []
    for match in matches:
        if match.id in outputs and match.id in with_models:
            retro = score_retro(registry.get(match.game), match, outputs[match.id])
            if retro is not None:
                found.append(retro)
    return found


def leaderboard(store: Store, registry: GameRegistry, *, game: str = ALL_GAMES,
                source: Source = "all") -> LeaderboardView:
    matches = _finished(store, source, game)
    seen = _seen(matches, registry, _left_seats(store))
    model_rows = [entry.row for entry in seen if not entry.human]
    people_rows = [entry.row for entry in seen if entry.human]
    summaries = summarize_procedural(_retros(store, registry, matches, seen), registry)
    procedural = {(s.game, s.model): s.values for s in summaries}
    if game == ALL_GAMES:
        grouped = [replace(row, game=ALL_GAMES) for row in model_rows]
        metrics: dict[str, dict[str, float | None]] = defaultdict(dict)
        for (game_id, model), values in procedural.items():
            metrics[model].update({f"{game_id}:{name}": value for name, value in values.items()})
        rows = _model_rows(grouped, lambda _game, model: metrics.get(model, {}))
    else:
        rows = _model_rows(model_rows, lambda game_id, model: procedural.get((game_id, model), {}))
    return LeaderboardView(game=game, source=source, rows=rows, people=_people_rows(people_rows))


MetricsOf = Callable[[str, str], Mapping[str, float | None]]
"""(game, model) -> the procedural metrics shown in that model's row."""


def _model_rows(rows: Sequence[MatchRow], metrics: MetricsOf) -> list[ModelRow]:
    """One row per model and game, its seats of every team taken together."""
    found: list[ModelRow] = []
    for result in summarize(rows, by_team=False):
        low, high = wilson_interval(result.wins, result.scored)
        found.append(ModelRow(game=result.game, model=result.model, matches=result.matches, scored=result.scored,
                              wins=result.wins, win_rate=result.win_rate if result.scored else None, ci_low=low,
                              ci_high=high, avg_rounds=result.avg_rounds, forfeits=result.forfeits,
                              metrics=dict(metrics(result.game, result.model))))
    return sorted(found, key=lambda r: (r.game, -(r.win_rate or 0.0), -r.scored, r.model))


def _people_rows(rows: Sequence[MatchRow]) -> list[PeopleRow]:
    """People's records per game and seat: the same scoring as the models', grouped by the seat they held."""
    found: list[PeopleRow] = []
    for result in summarize((replace(row, model=row.seat) for row in rows), by_team=False):
        low, high = wilson_interval(result.wins, result.scored)
        found.append(PeopleRow(game=result.game, seat=result.model, matches=result.matches, scored=result.scored,
                               wins=result.wins, win_rate=result.win_rate if result.scored else None, ci_low=low,
                               ci_high=high, avg_rounds=result.avg_rounds, abandoned=result.aborted))
    return sorted(found, key=lambda r: (r.game, r.seat))


# -- statistics -----------------------------------------------------------------------------------------------


def _useful(match: MatchRecord) -> bool:
    return match.status == "finished" and match.outcome is not None and match.outcome.status != "aborted"


def stats(store: Store) -> StatsView:
    sessions = [(web, match) for web, match in store.web_matches(mode="play")]
    by_game: dict[str, list[MatchRecord]] = defaultdict(list)
    for _, match in sessions:
        by_game[match.game].append(match)
    useful = sum(1 for _, match in sessions if _useful(match))
    return StatsView(
        matches_started=len(sessions),
        matches_finished=useful,
        useful_session_rate=useful / len(sessions) if sessions else None,
        by_game={game: _game_stats(group) for game, group in sorted(by_game.items())},
        surveys=len(surveys := store.surveys()),
        survey_distributions=survey_distributions(surveys),
    )


def _game_stats(matches: Sequence[MatchRecord]) -> GameStats:
    useful = sum(1 for match in matches if _useful(match))
    return GameStats(started=len(matches), finished=useful, useful_session_rate=useful / len(matches))


def survey_distributions(surveys: Iterable[SurveyRecord]) -> dict[str, dict[str, int]]:
    """For each question, how many surveys gave each answer 1..5 (every value present, zeros included)."""
    counts = {question: {str(value): 0 for value in range(1, 6)} for question in SURVEY_QUESTIONS}
    for survey in surveys:
        for question in SURVEY_QUESTIONS:
            counts[question][str(getattr(survey, question))] += 1
    return counts


# -- the plot -------------------------------------------------------------------------------------------------


def plot_png(board: LeaderboardView) -> bytes:
    """Win rates with their Wilson 95% intervals, models then people, as a PNG."""
    from matplotlib.figure import Figure

    bars: list[tuple[str, float, float, float, str]] = []
    for row in board.rows:
        if row.win_rate is not None and row.ci_low is not None and row.ci_high is not None:
            bars.append((row.model, row.win_rate, row.ci_low, row.ci_high, "#3b6ea8"))
    for person in board.people:
        if person.win_rate is not None and person.ci_low is not None and person.ci_high is not None:
            bars.append((f"people as {person.seat} ({person.game})", person.win_rate, person.ci_low, person.ci_high,
                         "#c0793a"))
    figure = Figure(figsize=(8, max(2.5, 0.45 * len(bars) + 1.2)), dpi=100)
    axes = figure.add_subplot()
    if bars:
        positions = list(range(len(bars)))
        rates = [bar[1] * 100 for bar in bars]
        errors = [[max(0.0, bar[1] - bar[2]) * 100 for bar in bars], [max(0.0, bar[3] - bar[1]) * 100 for bar in bars]]
        axes.barh(positions, rates, xerr=errors, color=[bar[4] for bar in bars], capsize=4)
        axes.set_yticks(positions, [bar[0] for bar in bars])
        axes.invert_yaxis()
        axes.set_xlim(0, 100)
        axes.set_xlabel("win rate (%), with Wilson 95% interval")
    else:
        axes.text(0.5, 0.5, "no finished matches yet", ha="center", va="center", transform=axes.transAxes)
        axes.set_axis_off()
    axes.set_title(f"{board.game} - {board.source} matches")
    figure.tight_layout()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    return buffer.getvalue()
