"""The leaderboard: Bradley-Terry ratings per board and overall, chance beside every rate, and people apart.

Built from finished matches (``analysis.played``: one board per game and configuration, copies of a match played
by two runs counted once). Per board:

* **ratings** (``analysis.bradley_terry.rate``) from each match's comparisons, with bootstrap 95 % intervals over
  matches, anchored so the board's models average 1000. Baselines are rated with them (they played the same
  setups) but listed apart; the game's pseudo-opponent (``game:BOARD``) is fitted and never shown. Two models whose
  intervals overlap are shown as tied (:func:`tied_pairs`, :func:`ranks`);
* **win rates** of every model and baseline: the seats it won of its scored evaluated seats, with a 95 % interval
  over matches: Wilson's where it held one seat per match, a cluster bootstrap over matches where it held several
  seats of one table (seats of a table are not independent); ``n`` counts the matches. A model whose interval
  overlaps the ``random`` baseline's is **not above chance** on that board (only where the board has one);
* **people** (``people, arena``): the seats people held to the end in matches outside runs (the arena), pooled
  over people, per seat they played, with Wilson intervals; never rated;
* **team Elo**: CK-Arena's rating (``analysis.ratings``) for a game that declares one, as its own column.

The **overall** rating fits every board's comparisons at once with every game weighing the same, its boards
sharing its weight, and a board's weight spread over its models' matches (``equal_boards``); each board keeps its
own pseudo-opponent.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from playeval.analysis.boards import BoardKey, Boards, board_key, opponent_players
from playeval.analysis.bradley_terry import DEFAULT_RESAMPLES, MatchComparisons, RatedPlayer, RatingFit, rate
from playeval.analysis.chance import BELOW, NOT_ABOVE, interval_verdict
from playeval.analysis.intervals import match_rate_interval, wilson_interval
from playeval.analysis.outcomes import unscored_reason
from playeval.analysis.played import (
    PlayedMatch,
    PlayedSeat,
    copy_key,
    distinct,
    is_game_player,
    match_comparisons,
    people_wins,
    seat_wins,
    source_of,
)
from playeval.analysis.ratings import RatedModel, elo_intervals
from playeval.analysis.sides import StoredMatch, elo_games, elo_rule, team_analysis
from playeval.core.baselines import RANDOM, baseline_address, is_baseline
from playeval.core.game import Game, seat_evaluated
from playeval.core.registry import GameRegistry
from playeval.engine.batch import recorded_config
from playeval.engine.plan import RunConfig
from playeval.store import MatchRecord, Store

PEOPLE = "people, arena"
"""How the people's row is labelled: people pooled, from the arena, kept apart from the ratings."""
"""Bootstrap resamples of the cluster intervals of win rates (cheap: no refit)."""
ELO_RESAMPLES = 1000
"""Bootstrap resamples of the team Elo's games (as ``playeval analyze elo``)."""


@dataclass(frozen=True)
class WinRate:
    """A player's win rate on a board: ``n`` scored matches, ``seats`` scored seats in them."""

    player: str
    rate: float
    low: float
    high: float
    n: int
    seats: int
    clustered: bool = False
    """The interval is a cluster bootstrap over matches (the player held several seats of a match)."""

    @property
    def baseline(self) -> bool:
        return is_baseline(self.player)

    def overlaps(self, other: WinRate) -> bool:
        return self.low <= other.high and other.low <= self.high


@dataclass(frozen=True)
class PeopleRate:
    """People's seat of a board, pooled over people: won of ``n`` scored matches, with its Wilson interval."""

    seat: str
    rate: float
    low: float
    high: float
    n: int
    label: str = PEOPLE


@dataclass(frozen=True)
class BoardResult:
    """One board's ratings, rates, people and team Elo."""

    key: BoardKey
    name: str
    matches: int
    """Matches of the models and baselines counted on the board (copies left out), scored or not."""
    rated: int
    """Of those, matches that gave the ratings a comparison."""
    people_matches: int = 0
    """Matches people played on the board (outside runs)."""
    ratings: tuple[RatedPlayer, ...] = ()
    """The models, best first."""
    baseline_ratings: tuple[RatedPlayer, ...] = ()
    rates: tuple[WinRate, ...] = ()
    """Models and baselines, best rate first."""
    not_above_chance: tuple[str, ...] = ()
    """Models whose rate interval overlaps the random baseline's."""
    below_chance: tuple[str, ...] = ()
    """Models whose rate interval lies wholly below the random baseline's."""
    people: tuple[PeopleRate, ...] = ()
    team_elo: tuple[RatedModel, ...] = ()
    fit: RatingFit | None = None
    """The board's fit with its bootstrap draws (differences between two players: ``RatingFit.difference``)."""
    unscored: tuple[tuple[str, int], ...] = ()
    """Matches of the board that scored no seat, by why (``outcomes.unscored_reason``: the opponent's forfeit, a
    role's failure, an abort), most first."""

    @property
    def game(self) -> str:
        return self.key.game

    def rate_of(self, player: str) -> WinRate | None:
        return next((row for row in self.rates if row.player == player), None)

    @property
    def random(self) -> WinRate | None:
        """The random baseline's rate, where it played this board."""
        return self.rate_of(baseline_address(RANDOM))


@dataclass(frozen=True)
class Leaderboard:
    overall: tuple[RatedPlayer, ...]
    """The models over every board, each game weighing the same, best first."""
    overall_baselines: tuple[RatedPlayer, ...]
    boards: tuple[BoardResult, ...]
    """By name."""
    copies: int = 0
    """Stored matches left out as copies of a match an earlier run played."""
    resamples: int = DEFAULT_RESAMPLES
    seed: int = 0
    people_matches: int = 0
    overall_fit: RatingFit | None = None
    """The overall fit with its bootstrap draws, baselines included."""

    @property
    def scored(self) -> bool:
        """Whether any model's or baseline's seat was scored (people alone make no leaderboard)."""
        return any(board.rates for board in self.boards)

    def board(self, name: str) -> BoardResult | None:
        return next((board for board in self.boards if board.name == name), None)

    def to_json(self) -> dict[str, Any]:
        """``{"overall": [...], "games": {BOARD: [...]}, "baselines": {BOARD: [...]}}`` (ratings ``model``,
        ``rating``, ``low``, ``high``, ``matches``; rates ``player``, ``rate``, ``low``, ``high``, ``n``; best
        first), and beside them the baselines' ratings, the ties, the boards' "not above chance" models, people's
        rows and the team Elo."""
        return {
            "overall": [_rating_json(row) for row in self.overall],
            "games": {board.name: [_rating_json(row) for row in board.ratings] for board in self.boards},
            "baselines": {board.name: [_rate_json(row) for row in board.rates if row.baseline]
                          for board in self.boards},
            "rates": {board.name: [_rate_json(row) for row in board.rates] for board in self.boards},
            "baseline_ratings": {
                "overall": [_rating_json(row) for row in self.overall_baselines],
                "games": {board.name: [_rating_json(row) for row in board.baseline_ratings]
                          for board in self.boards}},
            "ties": {"overall": [list(pair) for pair in tied_pairs(self.overall)],
                     "games": {board.name: [list(pair) for pair in tied_pairs(board.ratings)]
                               for board in self.boards}},
            "not_above_chance": {board.name: list(board.not_above_chance) for board in self.boards
                                 if board.random is not None},
            "below_chance": {board.name: list(board.below_chance) for board in self.boards
                             if board.random is not None},
            "people": {board.name: [{"player": row.label, "seat": row.seat, "rate": round(row.rate, 4),
                                     "low": round(row.low, 4), "high": round(row.high, 4), "n": row.n}
                                    for row in board.people] for board in self.boards if board.people},
            "team_elo": {board.name: [{"model": row.model, "rating": round(row.rating, 1), "low": round(row.low, 1),
                                       "high": round(row.high, 1), "games": row.games} for row in board.team_elo]
                         for board in self.boards if board.team_elo},
            "matches": {board.name: board.matches for board in self.boards},
            "not_scored": {board.name: dict(board.unscored) for board in self.boards if board.unscored},
            "copies_left_out": self.copies,
            "resamples": self.resamples,
        }


def _rating_json(row: RatedPlayer) -> dict[str, Any]:
    return {"model": row.player, "rating": round(row.rating, 1), "low": round(row.low, 1),
            "high": round(row.high, 1), "matches": row.matches}


def _rate_json(row: WinRate) -> dict[str, Any]:
    return {"player": row.player, "rate": round(row.rate, 4), "low": round(row.low, 4), "high": round(row.high, 4),
            "n": row.n}


# -- ties --------------------------------------------------------------------------------------------------------


def tied_pairs(rows: Sequence[RatedPlayer]) -> list[tuple[str, str]]:
    """Every two players (in ``rows``' order) whose 95 % intervals overlap: the board shows them as tied."""
    return [(a.player, b.player) for index, a in enumerate(rows) for b in rows[index + 1:] if a.overlaps(b)]


def ranks(rows: Sequence[RatedPlayer]) -> dict[str, tuple[int, bool]]:
    """Each player's rank, 1 plus the players whose interval lies wholly above its own (so players that cannot be
    told apart share a rank), and whether it is tied with any other."""
    found: dict[str, tuple[int, bool]] = {}
    for row in rows:
        above = sum(1 for other in rows if other.low > row.high)
        tied = any(other is not row and other.overlaps(row) for other in rows)
        found[row.player] = (1 + above, tied)
    return found


NOT_ABOVE_CHANCE = "not above chance"
BASELINE = "baseline"
NOT_RATED = "not rated"
NO_RANK = "—"


@dataclass(frozen=True)
class BoardLine:
    """One line of a board's (or the overall) table as every output shows it: a model by rating (then a model with
    a win rate but no comparison), a baseline, or people."""

    player: str
    rank: str
    """``1``, ``2=`` (tied: its interval overlaps another's), or ``—`` (a baseline, people, an unrated model)."""
    rating: RatedPlayer | None = None
    rate: float | None = None
    low: float | None = None
    high: float | None = None
    n: int | None = None
    clustered: bool = False
    team_elo: RatedModel | None = None
    mark: str = ""
    """``not above chance``, ``baseline``, ``not rated`` (people) or nothing."""
    boards: int | None = None
    """Overall: the boards the player is rated on."""


def rank_text(rows: Sequence[RatedPlayer], player: str) -> str:
    rank, tied = ranks(rows).get(player, (0, False))
    return f"{rank}=" if tied else str(rank)


def board_lines(board: BoardResult) -> list[BoardLine]:
    """A board's lines: models by rating, models with a win rate only, baselines, people."""
    elo = {row.model: row for row in board.team_elo}
    ranked = ranks(board.ratings)

    def line(player: str, rank: str, rating: RatedPlayer | None, mark: str) -> BoardLine:
        rate = board.rate_of(player)
        return BoardLine(player=player, rank=rank, rating=rating, rate=rate.rate if rate else None,
                         low=rate.low if rate else None, high=rate.high if rate else None, n=rate.n if rate else None,
                         clustered=rate.clustered if rate else False, team_elo=elo.get(player), mark=mark)

    def chance(player: str) -> str:
        return NOT_ABOVE_CHANCE if player in board.not_above_chance else BELOW if player in board.below_chance else ""

    lines = [line(row.player, f"{ranked[row.player][0]}{'=' if ranked[row.player][1] else ''}", row,
                  chance(row.player)) for row in board.ratings]
    shown = {row.player for row in board.ratings}
    lines += [line(rate.player, NO_RANK, None, chance(rate.player)) for rate in board.rates
              if not rate.baseline and rate.player not in shown]
    baselines = {row.player: row for row in board.baseline_ratings}
    lines += [line(name, NO_RANK, baselines.get(name), BASELINE)
              for name in dict.fromkeys([*baselines, *(rate.player for rate in board.rates if rate.baseline)])]
    lines += [BoardLine(player=f"{person.label} (as {person.seat})", rank=NO_RANK, rate=person.rate, low=person.low,
                        high=person.high, n=person.n, mark=NOT_RATED) for person in board.people]
    return lines


def overall_lines(board: Leaderboard) -> list[BoardLine]:
    """The overall table's lines: the models by rating, then the baselines."""
    def rated_on(player: str) -> int:
        return sum(1 for result in board.boards
                   if any(row.player == player for row in (*result.ratings, *result.baseline_ratings)))

    return [*(BoardLine(player=row.player, rank=rank_text(board.overall, row.player), rating=row,
                        boards=rated_on(row.player)) for row in board.overall),
            *(BoardLine(player=row.player, rank=NO_RANK, rating=row, boards=rated_on(row.player), mark=BASELINE)
              for row in board.overall_baselines)]


def leaderboard_notes(board: Leaderboard) -> list[str]:
    """How to read the leaderboard, as the command line, the report and the arena say it."""
    lines = [
        ("rating: Bradley-Terry by maximum likelihood on the Elo scale (400 points: 10-to-1 odds), the models of "
         f"each board (overall: of all boards) averaging 1000; 95% interval: {board.resamples} bootstrap resamples "
         "of matches within each board; '=' marks a rank shared with a model whose interval overlaps (a tie); a "
         "game with one evaluated seat rates it against the game itself, a table compares seats of opposite teams."),
        ("win rate: seats won of the scored seats (a seat's own forfeit is a loss; aborted matches and the "
         "opponent's forfeits are left out); 95% CI: Wilson's over matches, * a cluster bootstrap over matches "
         "where a player held several seats of a table; n: matches. not above chance: the model's interval overlaps "
         "the random baseline's on that board."),
        (f"baselines are rated with the models but kept apart; {PEOPLE}: people's seats in matches played outside "
         "runs, pooled, never rated."),
    ]
    if board.copies:
        lines.append(f"{board.copies} stored match(es) left out as copies of a match an earlier run played (same "
                     "setup, seed, options and lineup).")
    if any(result.team_elo for result in board.boards):
        lines.append("team Elo: CK-Arena's rating of a team game (ratings start at 0), as `playeval analyze elo`.")
    return lines


# -- building -----------------------------------------------------------------------------------------------------


def _unscored(matches: Sequence[PlayedMatch]) -> tuple[tuple[str, int], ...]:
    """Why the matches none of whose evaluated seats was scored were not, counted, most first."""
    reasons: Counter[str] = Counter()
    for match in matches:
        seats = [seat.seat for seat in match.evaluated if seat.player is not None]
        found = [unscored_reason(match.outcome, seat) for seat in seats]
        if seats and all(reason is not None for reason in found):
            reasons[str(found[0])] += 1
    return tuple(reasons.most_common())


def _win_rate(player: str, per_match: Sequence[tuple[int, int]]) -> WinRate:
    """The player's win rate with the interval every table shows (``intervals.match_rate_interval``: Wilson's over
    one-seat matches, the cluster bootstrap where it held several seats of a table), so ``results``, ``analyze``
    and the leaderboard print the same interval for the same matches."""
    wins, seats = sum(w for w, _ in per_match), sum(s for _, s in per_match)
    clustered = any(s > 1 for _, s in per_match)
    low, high = match_rate_interval(per_match)
    value = wins / seats
    return WinRate(player=player, rate=value, low=value if low is None else min(low, value),
                   high=value if high is None else max(high, value), n=len(per_match), seats=seats,
                   clustered=clustered)


def _rates(matches: Sequence[PlayedMatch], seed: int) -> tuple[WinRate, ...]:
    per_player: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for match in matches:
        for player, counted in seat_wins(match).items():
            per_player[player].append(counted)
    rows = [_win_rate(player, counted) for player, counted in per_player.items()]
    return tuple(sorted(rows, key=lambda row: (-row.rate, -row.n, row.player)))


def _people(matches: Sequence[PlayedMatch]) -> tuple[PeopleRate, ...]:
    per_seat: dict[str, list[bool]] = defaultdict(list)
    for match in matches:
        for seat, won in people_wins(match).items():
            per_seat[seat].append(won)
    rows: list[PeopleRate] = []
    for seat, results in sorted(per_seat.items()):
        low, high = wilson_interval(sum(results), len(results))
        value = sum(results) / len(results)
        rows.append(PeopleRate(seat=seat, rate=value, low=value if low is None else low,
                               high=value if high is None else high, n=len(results)))
    return tuple(rows)


def _split(fit_rows: Iterable[RatedPlayer]) -> tuple[tuple[RatedPlayer, ...], tuple[RatedPlayer, ...]]:
    """Models, then baselines (the pseudo-opponents left out)."""
    rows = [row for row in fit_rows if not is_game_player(row.player)]
    return (tuple(row for row in rows if not is_baseline(row.player)),
            tuple(row for row in rows if is_baseline(row.player)))


def _models(comparisons: Iterable[MatchComparisons]) -> set[str]:
    return {player for match in comparisons for player in match.players
            if not is_game_player(player) and not is_baseline(player)}


def build_leaderboard(matches: Sequence[PlayedMatch], boards: Boards, *, people: Sequence[PlayedMatch] = (),
                      copies: int = 0, team_elo: Mapping[BoardKey, Sequence[RatedModel]] | None = None,
                      resamples: int = DEFAULT_RESAMPLES, seed: int = 0) -> Leaderboard:
    """The leaderboard of ``matches`` (copies already left out, see ``analysis.played.distinct``; ``copies`` says
    how many were) with people's rows from ``people`` and each board's team Elo from ``team_elo``."""
    keys = {match.board for match in matches} | {match.board for match in people}
    names = boards.names(keys)
    by_board: dict[BoardKey, list[PlayedMatch]] = defaultdict(list)
    for match in sorted(matches, key=lambda m: m.order):
        by_board[match.board].append(match)
    people_by_board: dict[BoardKey, list[PlayedMatch]] = defaultdict(list)
    for match in sorted(people, key=lambda m: m.order):
        people_by_board[match.board].append(match)
    everything: list[MatchComparisons] = []
    results: list[BoardResult] = []
    for key in sorted(keys, key=lambda k: names[k]):
        name = names[key]
        played = by_board.get(key, [])
        compared = [found for match in played if (found := match_comparisons(match, name)) is not None]
        everything += compared
        models = _models(compared)
        fit = rate(compared, anchor=models or None, resamples=resamples, seed=seed)
        rated, baseline_rated = _split(fit.rows)
        rates = _rates(played, seed)
        random_rate = next((row for row in rates if row.player == baseline_address(RANDOM)), None)
        verdicts = {row.player: interval_verdict((row.low, row.high), (random_rate.low, random_rate.high))
                    for row in rates if random_rate is not None and not row.baseline}
        chance = tuple(player for player, verdict in verdicts.items() if verdict == NOT_ABOVE)
        below = tuple(player for player, verdict in verdicts.items() if verdict == BELOW)
        people_here = people_by_board.get(key, [])
        results.append(BoardResult(
            key=key, name=name, matches=len(played), rated=len(compared), people_matches=len(people_here),
            unscored=_unscored(played),
            ratings=rated, baseline_ratings=baseline_rated, rates=rates,
            not_above_chance=chance, below_chance=below, people=_people(people_here),
            team_elo=tuple((team_elo or {}).get(key, ())),
            fit=fit))
    overall = rate(everything, anchor=_models(everything) or None, equal_boards=True, resamples=resamples, seed=seed)
    overall_models, overall_baselines = _split(overall.rows)
    return Leaderboard(overall=overall_models, overall_baselines=overall_baselines, boards=tuple(results),
                       copies=copies, resamples=resamples, seed=seed,
                       people_matches=len({m.id for m in people if people_wins(m)}), overall_fit=overall)


# -- from the store -----------------------------------------------------------------------------------------------


def played_match(record: MatchRecord, game: Game[Any], *, run_config: RunConfig | None,
                 left: Collection[str] = (), run_started: str | None = None) -> PlayedMatch:
    """A stored finished match as the leaderboard reads it; ``left``: people's seats their person left;
    ``run_started``: when its run was recorded (ISO time), so a run's matches are taken in plan order (the same on
    every rerun, however concurrency interleaved their starts) after the matches of earlier runs."""
    assert record.outcome is not None
    spec = record.spec
    run_options = dict(run_config.options.get(game.id, {})) if run_config is not None else None
    seats = tuple(PlayedSeat(seat=s.seat, kind=s.player_kind, model=s.model, evaluated=seat_evaluated(game, spec, s),
                             left=s.seat in left) for s in record.seats)
    key = board_key(game, level=record.level, params=spec.params, roles=record.roles,
                    calibrated=tuple(spec.thresholds), run_options=run_options,
                    opponents=opponent_players(record.seats, {s.seat for s in seats if s.evaluated}),
                    secret_set=run_config.secret_sets.get(game.id) if run_config is not None else None)
    if run_started is not None and record.match_index is not None:
        order = (run_started, f"{record.run_id}:{record.match_index:012d}")
    else:
        order = (record.created_at.isoformat(), record.id)
    return PlayedMatch(id=record.id, board=key, outcome=record.outcome, seats=seats,
                       source=source_of(record.id, record.run_id),
                       copy=copy_key(key, spec.model_dump(mode="json"), record.seats, record.roles,
                                     run_config.temperature if run_config is not None else None),
                       order=order)


def _team_elo(store: Store, registry: GameRegistry, matches: Sequence[PlayedMatch],
              records: Mapping[str, MatchRecord], seed: int) -> dict[BoardKey, list[RatedModel]]:
    """Each team-Elo board's rating over its matches, in the order they were played."""
    found: dict[BoardKey, list[RatedModel]] = {}
    by_board: dict[BoardKey, list[PlayedMatch]] = defaultdict(list)
    for match in matches:
        by_board[match.board].append(match)
    for key, played in by_board.items():
        game = registry.get(key.game)
        analysis = team_analysis(game)
        if analysis is None or analysis.elo is None:
            continue
        stored = [StoredMatch(game=key.game, spec=records[m.id].spec, seats=records[m.id].seats,
                              roles=records[m.id].roles, outcome=m.outcome, events=tuple(store.events(m.id)))
                  for m in sorted(played, key=lambda m: m.order) if m.outcome.status == "finished"]
        games = elo_games(game, stored)
        if games:
            found[key] = elo_intervals(games, elo_rule(analysis), resamples=ELO_RESAMPLES, seed=seed)
    return found


def played_matches(store: Store, registry: GameRegistry,
                   records: Sequence[MatchRecord]) -> list[tuple[MatchRecord, PlayedMatch]]:
    """Run matches as the leaderboard reads them, each with its record: each run's configuration and start read
    once (matches of games not installed here, unfinished ones and matches outside runs are left out)."""
    configs: dict[str, RunConfig | None] = {}
    started: dict[str, str] = {}
    known = set(registry.ids())
    found: list[tuple[MatchRecord, PlayedMatch]] = []
    for record in records:
        if record.game not in known or record.outcome is None or record.run_id is None:
            continue
        if record.run_id not in configs:
            configs[record.run_id] = recorded_config(store, record.run_id)
            started[record.run_id] = store.get_run(record.run_id).created_at.isoformat()
        found.append((record, played_match(record, registry.get(record.game), run_config=configs[record.run_id],
                                           run_started=started[record.run_id])))
    return found


def load_leaderboard(store: Store, registry: GameRegistry, run_ids: Sequence[str] | None = None, *,
                     resamples: int = DEFAULT_RESAMPLES, seed: int = 0, with_people: bool = True) -> Leaderboard:
    """The leaderboard of the finished matches of ``run_ids`` (``None``: every run), with people's rows from the
    finished matches played outside runs (every board's with ``None``, else only the boards the runs have), and each
    team-Elo board's team Elo.
    Matches of games not installed here are left out."""
    everything = store.list_matches(status="finished") if run_ids is None or with_people else []
    if run_ids is None:
        records = [m for m in everything if m.run_id is not None]
    else:  # only the runs' own matches: a round of --until-separated reads its run, not the whole store
        records = [m for run_id in dict.fromkeys(run_ids) for m in store.run_matches(run_id) if m.status == "finished"]
    known = set(registry.ids())
    played = [found for _, found in played_matches(store, registry, records)]
    kept, copies = distinct(played)
    people: list[PlayedMatch] = []
    if with_people:
        boards_here = None if run_ids is None else {match.board for match in kept}
        left = {web.match_id: {p.seat for p in web.people if p.left_at is not None}
                for web, _ in store.web_matches(mode="play", status="finished")}
        for record in everything:
            if record.run_id is not None or record.game not in known or record.outcome is None:
                continue
            if not any(seat.player_kind == "human" for seat in record.seats):
                continue
            match = played_match(record, registry.get(record.game), run_config=None, left=left.get(record.id, ()))
            if boards_here is None or match.board in boards_here:
                people.append(match)
    by_id = {record.id: record for record in records}
    elo = _team_elo(store, registry, kept, by_id, seed)
    return build_leaderboard(kept, Boards(registry), people=people, copies=copies, team_elo=elo,
                             resamples=resamples, seed=seed)

