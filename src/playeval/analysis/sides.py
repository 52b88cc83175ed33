"""A team game's results from stored runs, as the game declares them (``Game.teams``, a ``core.info.TeamAnalysis``):
per model and side, per model overall, per match category, the team Elo's input, and the game's own tables
(``playeval analyze GAME``, ``playeval analyze elo``, the tables of ``playeval results`` and the report).

Only finished matches count (an aborted or unfinished one is left out). A seat counts for the team its outcome
gives it (``SeatResult.team``), and for whoever held it: its model, a baseline player (``baseline/NAME``), or its
kind of player ("scripted", "human"). Per model and side (and per model overall):

- win rate: seats whose side won (a seat out before the end still wins with its side, as the game scores it);
  beside it ``reference``, what the model's seats would win at the run's own rates: the share of matches each
  seat's team won, averaged over the seats. It is the observed rate of the whole run, not a chance baseline.
- each declared measure (``SeatMeasure``), from the game's ``seat_measures`` (``core.game.TeamGame``) and the
  outcome (``won``, ``forfeited``): a ``mean`` over the seats that have it (a measure in [0, 1]); a ``share`` of
  seats where it is not 0; or a ``count`` summed.

Every interval is a 95% interval over **matches**, the unit a run draws: a model often holds several seats of one
table (Undercover's civilians), and those seats share the table's words, votes, judges and result, so they are no
independent trials and an interval over seats would be too narrow by about the square root of the seats per
table. A rate or a share is ``Rate.over_matches`` (Wilson's over the matches where each gave one seat, else the
cluster bootstrap of ``intervals.cluster_rate_interval``), a mean ``Mean.over_matches`` (the cluster bootstrap of
``intervals.cluster_mean_interval``); each keeps its n as matches, and the seats beside them.

Baseline players (``playeval run --baselines``: at a table they sit among the models) get rows like a model's,
kept apart (``SideResults.baselines``), and each model's row on a team is marked against the ``random``
baseline's row on the same team (``analysis.chance``: "not above chance" when the two intervals overlap), where
the runs have one. A model's overall row gets no mark: its seats and the baseline's are different mixes of the
teams, whose base rates differ, so only a team's rates compare.

The win rate by category (a game that declares ``category``): per category, the share of its matches the first
declared team won, then each model's seats in it (the baselines' after them), won with their side.

The team Elo's input (``elo_games``): each finished match is a game of the seats held by a model (a baseline's seat
is a reference, not a rated player, and is left out), each with its actual score as the game's ``TeamElo`` weighs
its measures (a measure without a value counts 0); a match without a model seat on each of the two teams is
skipped, since the rating compares them.
"""

from __future__ import annotations

import importlib
import statistics
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from playeval.analysis.cells import GameTables, Mean, Rate, seats_text
from playeval.analysis.chance import NOT_ABOVE, RANDOM_BASELINE, interval_verdict
from playeval.analysis.ratings import SeatResult, TeamRule
from playeval.core import ConfigError, Event, RoleAssignment, SeatAssignment
from playeval.core.baselines import is_baseline
from playeval.core.game import Game, TeamGame
from playeval.core.info import TeamAnalysis
from playeval.core.match import MatchSpec, Outcome
from playeval.core.registry import GameRegistry
from playeval.engine.match import state_from_events
from playeval.store import Store

ALL = "all"
"""The side of a model's overall row."""
UNKNOWN_CATEGORY = "?"

Value = Rate | Mean | int


@dataclass(frozen=True)
class StoredMatch:
    """What the analysis needs of one finished match."""

    game: str
    spec: MatchSpec
    seats: tuple[SeatAssignment, ...]
    roles: tuple[RoleAssignment, ...]
    outcome: Outcome
    events: tuple[Event, ...]


@dataclass(frozen=True)
class SideRow:
    """One model on one side (a team's name, or ``all`` for its overall row)."""

    model: str
    side: str
    seats: int
    matches: int
    """The matches those seats were held in: the intervals' n."""
    wins: Rate
    reference: float | None
    """What these seats would win at the run's own side win rates (see the module's note)."""
    values: Mapping[str, Value]
    """Each declared measure: a ``Mean``, a ``Rate`` (a share of seats) or an ``int`` (a count)."""
    verdict: str | None = None
    """Against the random baseline on the same team (``analysis.chance``); ``None`` for a baseline, an overall
    row, or where the runs have no random baseline on that team."""

    def n_text(self) -> str:
        """``4``, or ``4 (8 seats)`` where the model held several seats of a match."""
        return seats_text(self.matches, self.seats)


@dataclass(frozen=True)
class CategoryRow:
    """A category's matches (``model`` is ``None``: the share the first team won), or one model's seats in it."""

    category: str
    model: str | None
    wins: Rate


@dataclass(frozen=True)
class SideResults:
    game: str
    matches: int
    team_wins: Mapping[str, Rate]
    """Per team: the matches it won, of all matches: the run's side win rates, the reference beside the models'."""
    rows: tuple[SideRow, ...]
    """Per model (by name): each team it played for, in the declared order, then ``all``."""
    categories: tuple[CategoryRow, ...]
    """Per category (by name): the category's row, then its models' rows, then its baselines'."""
    tables: GameTables
    """The game's own tables (``TeamAnalysis.tables``), empty for most games."""
    baselines: tuple[SideRow, ...] = ()
    """The baseline players' rows (``baseline/NAME``), as the models' are, kept apart from them."""

    @property
    def verdicts(self) -> bool:
        """Whether any model's row is marked against the random baseline."""
        return any(row.verdict is not None for row in self.rows)


@dataclass(frozen=True)
class _Seat:
    match: int
    """The match's place among those summarized: a cluster of the intervals."""
    model: str
    side: str
    won: bool
    category: str
    measures: Mapping[str, float | None]


def team_analysis(game: Game[Any]) -> TeamAnalysis | None:
    """The game's team analysis, when it declares one and computes its measures."""
    declared: TeamAnalysis | None = getattr(game, "teams", None)
    return declared if declared is not None and isinstance(game, TeamGame) else None


def team_games(registry: GameRegistry, games: Sequence[str]) -> list[str]:
    """Of ``games`` (ids, in order, repeats dropped), those with a team analysis."""
    known = set(registry.ids())
    return [game for game in dict.fromkeys(games) if game in known and team_analysis(registry.get(game))]


def stored_matches(store: Store, run_ids: Sequence[str], game: str) -> list[StoredMatch]:
    """The runs' finished matches of ``game``, run by run in the order given, by match index within a run."""
    found: list[StoredMatch] = []
    for run_id in run_ids:
        for match in sorted(store.run_matches(run_id), key=lambda record: record.match_index or 0):
            if match.game != game or match.outcome is None or match.outcome.status != "finished":
                continue
            found.append(StoredMatch(game=game, spec=match.spec, seats=match.seats, roles=match.roles,
                                     outcome=match.outcome, events=tuple(store.events(match.id))))
    return found


def run_games(store: Store, run_ids: Sequence[str]) -> list[str]:
    """The games the runs' matches played, in order of first appearance."""
    return list(dict.fromkeys(match.game for run_id in run_ids for match in store.run_matches(run_id)))


def seat_measures(game: Game[Any], match: StoredMatch) -> dict[str, dict[str, float | None]]:
    """Per seat: the game's own measures, and ``won`` and ``forfeited`` (1 or 0) from the outcome."""
    assert isinstance(game, TeamGame)
    state = state_from_events(game, match.spec, match.events)
    own = game.seat_measures(match.spec, state, match.events)
    found: dict[str, dict[str, float | None]] = {}
    for assignment in match.seats:
        result = match.outcome.result_for(assignment.seat)
        found[assignment.seat] = {**own.get(assignment.seat, {}), "won": 1.0 if result.won else 0.0,
                                  "forfeited": 1.0 if result.forfeited else 0.0}
    return found


def _category(game: Game[Any], match: StoredMatch) -> str:
    return (game.match_category(match.spec) if isinstance(game, TeamGame) else None) or UNKNOWN_CATEGORY


def _seats(game: Game[Any], analysis: TeamAnalysis, index: int, match: StoredMatch) -> list[_Seat]:
    measures = seat_measures(game, match)
    category = _category(game, match)
    teams = {team.name for team in analysis.teams}
    found: list[_Seat] = []
    for assignment in match.seats:
        result = match.outcome.result_for(assignment.seat)
        if result.team not in teams:
            continue
        found.append(_Seat(match=index, model=assignment.model or assignment.player_kind, side=result.team,
                           won=bool(result.won), category=category, measures=measures[assignment.seat]))
    return found


def _by_match(seats: Sequence[_Seat]) -> list[list[_Seat]]:
    """The seats grouped by match, in the order of the matches: the clusters of an interval over matches."""
    found: dict[int, list[_Seat]] = defaultdict(list)
    for seat in seats:
        found[seat.match].append(seat)
    return [found[index] for index in sorted(found)]


def _won(seats: Sequence[_Seat]) -> Rate:
    """The share of ``seats`` won, its interval over their matches."""
    return Rate.over_matches([(sum(seat.won for seat in match), len(match)) for match in _by_match(seats)])


def _value(analysis: TeamAnalysis, name: str, seats: Sequence[_Seat]) -> Value:
    kind = next(measure.kind for measure in analysis.measures if measure.name == name)
    matches = [[seat.measures.get(name) for seat in match] for match in _by_match(seats)]
    if kind == "mean":
        known = [[value for value in values if value is not None] for values in matches]
        outside = next((value for values in known for value in values if not 0.0 <= value <= 1.0), None)
        if outside is not None:
            raise ConfigError(f"the team measure {name!r} is averaged, so its values must lie in [0, 1]; one is "
                              f"{outside}")
        return Mean.over_matches(known)
    if kind == "share":
        return Rate.over_matches([(sum(bool(value) for value in values), len(values)) for values in matches])
    return round(sum(value or 0.0 for values in matches for value in values))


def _side_row(analysis: TeamAnalysis, model: str, side: str, seats: Sequence[_Seat],
              shares: Mapping[str, float | None]) -> SideRow:
    known = [shares[seat.side] for seat in seats]
    reference = statistics.fmean(share for share in known if share is not None) if None not in known else None
    return SideRow(model=model, side=side, seats=len(seats), matches=len({seat.match for seat in seats}),
                   wins=_won(seats), reference=reference,
                   values={measure.name: _value(analysis, measure.name, seats) for measure in analysis.measures})


def _marked(rows: Sequence[SideRow]) -> list[SideRow]:
    """The rows, each model's row on a team with its verdict against the random baseline's row on that team."""
    chance = {row.side: row for row in rows if row.model == RANDOM_BASELINE and row.side != ALL}
    marked: list[SideRow] = []
    for row in rows:
        baseline = chance.get(row.side)
        if baseline is None or is_baseline(row.model):
            marked.append(row)
            continue
        marked.append(replace(row, verdict=interval_verdict((row.wins.low, row.wins.high),
                                                            (baseline.wins.low, baseline.wins.high))))
    return marked


def _players(names: Sequence[str] | set[str]) -> list[str]:
    """Models by name, then baseline players by name."""
    return sorted(names, key=lambda name: (is_baseline(name), name))


def summarize_sides(game: Game[Any], matches: Sequence[StoredMatch]) -> SideResults | None:
    """The tables' rows over ``matches`` of a team game (``None`` when there are none)."""
    analysis = team_analysis(game)
    if analysis is None or not matches:
        return None
    seats: list[_Seat] = []
    first = analysis.teams[0].name
    first_won: list[tuple[str, bool]] = []
    for index, match in enumerate(matches):
        seats += _seats(game, analysis, index, match)
        first_won.append((_category(game, match), match.outcome.winning_team == first))
    team_wins = {team.name: Rate.of(sum(match.outcome.winning_team == team.name for match in matches), len(matches))
                 for team in analysis.teams}
    shares = {name: rate.value for name, rate in team_wins.items()}
    rows: list[SideRow] = []
    for model in _players({seat.model for seat in seats}):
        mine = [seat for seat in seats if seat.model == model]
        for team in analysis.teams:
            held = [seat for seat in mine if seat.side == team.name]
            if held:
                rows.append(_side_row(analysis, model, team.name, held, shares))
        rows.append(_side_row(analysis, model, ALL, mine, shares))
    categories: list[CategoryRow] = []
    for category in sorted({name for name, _ in first_won}) if analysis.category else ():
        outcomes = [won for name, won in first_won if name == category]
        categories.append(CategoryRow(category=category, model=None, wins=Rate.of(sum(outcomes), len(outcomes))))
        held = [seat for seat in seats if seat.category == category]
        for model in _players({seat.model for seat in held}):
            categories.append(CategoryRow(category=category, model=model,
                                          wins=_won([seat for seat in held if seat.model == model])))
    tables = _own_tables(analysis.tables)(game, matches) if analysis.tables else GameTables()
    marked = _marked(rows)
    return SideResults(game=game.id, matches=len(matches), team_wins=team_wins,
                       rows=tuple(row for row in marked if not is_baseline(row.model)),
                       categories=tuple(categories), tables=tables,
                       baselines=tuple(row for row in marked if is_baseline(row.model)))


def _own_tables(path: str) -> Callable[[Any, Sequence[StoredMatch]], GameTables]:
    """The function a game's ``TeamAnalysis.tables`` names (``"module:function"``), imported now."""
    module_name, _, name = path.partition(":")
    try:
        function = getattr(importlib.import_module(module_name), name)
    except (ImportError, AttributeError) as err:
        raise ConfigError(f"the team tables {path!r} a game declares cannot be loaded: {err}") from None
    if not callable(function):
        raise ConfigError(f"the team tables {path!r} a game declares is not a function")
    return function  # type: ignore[no-any-return]


def side_results(store: Store, run_ids: Sequence[str], registry: GameRegistry, game: str) -> SideResults | None:
    """The runs' results of team game ``game`` (``None`` when they hold no finished match of it)."""
    return summarize_sides(registry.get(game), stored_matches(store, run_ids, game))


def elo_rule(analysis: TeamAnalysis) -> TeamRule:
    first, second = (team.name for team in analysis.teams)
    return TeamRule(teams=(first, second), offsets={team.name: team.elo_offset for team in analysis.teams})


def elo_games(game: Game[Any], matches: Sequence[StoredMatch]) -> list[list[SeatResult]]:
    """The matches as the team Elo's games, each a list of the seats a model held (see the module's note); empty
    for a game without a team Elo."""
    analysis = team_analysis(game)
    if analysis is None or analysis.elo is None:
        return []
    teams = {team.name for team in analysis.teams}
    games: list[list[SeatResult]] = []
    for match in matches:
        measures = seat_measures(game, match)
        seats: list[SeatResult] = []
        for assignment in match.seats:
            result = match.outcome.result_for(assignment.seat)
            if not assignment.model or is_baseline(assignment.model) or result.team not in teams:
                continue  # a baseline's seat is a reference, not a rated player: models never gain Elo off it
            values = measures[assignment.seat]
            actual = 0.0
            for name, weight in analysis.elo.weights:
                actual += weight * float(values.get(name) or 0.0)
            seats.append(SeatResult(model=assignment.model, team=result.team, won=bool(result.won), actual=actual))
        if {seat.team for seat in seats} == teams:
            games.append(seats)
    return games


def possessive(label: str) -> str:
    """``civilians`` -> ``civilians'``; ``red team`` -> ``red team's``."""
    return f"{label}'" if label.endswith("s") else f"{label}'s"


def sides_caption(analysis: TeamAnalysis, results: SideResults) -> str:
    """The game's caption of the side table, with the run's figures in it."""
    shares = {name: "n/a" if rate.value is None else f"{rate.value:.0%}" for name, rate in results.team_wins.items()}
    caption = analysis.caption.format(matches=results.matches, **shares)
    if results.verdicts:
        caption += (f" Against the random baseline on the same side: {NOT_ABOVE} when the two 95% intervals "
                    "overlap, above or below chance when they do not (no mark on a model's overall row, whose "
                    "seats mix the sides otherwise than the baseline's).")
    if results.baselines:
        caption += (" Baselines: players of known character the game provides (playeval run --baselines), seated "
                    "among the models on the same setups; listed apart and not ranked among them.")
    return caption


def elo_offsets(analysis: TeamAnalysis) -> list[str]:
    """``civilians' team +120.4`` for each team with an offset."""
    return [f"{possessive(team.label)} team +{team.elo_offset:.1f}" for team in analysis.teams if team.elo_offset]


def elo_formula(analysis: TeamAnalysis) -> str:
    """``0.75 won + 0.15 survival + 0.10 voting accuracy``."""
    assert analysis.elo is not None
    titles = {measure.name: measure.title.lower() for measure in analysis.measures}
    return " + ".join(f"{weight:.2f} {titles.get(name, name)}" for name, weight in analysis.elo.weights)
