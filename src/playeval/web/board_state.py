"""The leaderboard and the statistics, kept up to date from the store without reading every match per request.

``BoardState`` holds, per finished match, the tallies of the seats it counts (``web.tallies``) and their totals;
per arena session (a played match) its game and whether it ended with an outcome; the survey answers' counts;
and the scored retrospective outputs. Each request first reads the store's version in one cheap query -- the
highest event id, the highest retrospective output id, the number of surveys and of people's seats left --
and when nothing changed the views are served from memory. When something did, only what changed is read:

* matches that started or ended since the last read: the ``match_started``/``match_ended`` events above the
  highest event id seen (an index range), each such match read again and its tallies replaced;
* seats left (a person left, or never came): the left seats, and the matches whose set changed;
* retrospective outputs above the highest seen, and the survey answers' counts (``GROUP BY``).

Each finished match counts on its board (a game and configuration, ``analysis.boards``). A match a second run
played again (the same setup, seed and lineup, ``analysis.played``) is kept but not counted: per group of copies
only the first source's matches count, and the group is settled again whenever one of its matches comes or goes.
The ratings (``analysis.leaderboard``, with ``WEB_RESAMPLES`` bootstrap resamples) are fitted when a view is
first asked for after a change, from the counted matches it shows.

Which matches a view's models count is its source (``web.tallies.Source``): by default the runs' (``batch``),
the matches ``playeval leaderboard`` rates, so the page and the command line agree; the arena's (``live``: against
people, or watched) or both pooled (``all``) only when asked for, and every view says which it counts
(``LeaderboardView.counted``). People's rows are the arena's whatever the source: every finished match people
played, pooled per seat and board as ``people, arena``, never rated, as the command line shows them.

Each model's rate is marked against the random baseline's on its board as ``playeval results`` marks it
(``analysis.chance.interval_verdict``: above, not above or below chance), and a board of a game with a team Elo
(Undercover) shows CK-Arena's team Elo beside the ratings, as ``playeval leaderboard`` does; a match's team-Elo
game is read (its log replayed for the game's measures) the first time a view needs it, and kept.

Ids are re-read in a window below the highest seen and skipped when already seen, since PostgreSQL may make a
lower id visible after a higher one (its sequence hands ids out before the commit). More than
``REBUILD_OVER`` changed matches, or the first request, read everything (``Store.list_matches``).

Every server process keeps its own state; the version query makes each see the others' writes. Safe to call
from several threads at once (one lock).
"""

from __future__ import annotations

import json
import threading
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError
from sqlalchemy import Text, cast, func, select
from sqlalchemy.orm import Session

from playeval.analysis import MatchRetro, MatchRow, score_retro, summarize_procedural
from playeval.analysis.boards import BoardKey, Boards, board_key, opponent_players
from playeval.analysis.bradley_terry import RatedPlayer
from playeval.analysis.chance import ABOVE, BELOW, NOT_ABOVE, interval_verdict
from playeval.analysis.leaderboard import BoardResult, Leaderboard, build_leaderboard, leaderboard_notes, ranks
from playeval.analysis.played import PlayedMatch, PlayedSeat, copy_key, source_of
from playeval.analysis.ratings import RatedModel, SeatResult, elo_intervals
from playeval.analysis.sides import StoredMatch as EloMatch
from playeval.analysis.sides import elo_games, elo_rule, team_analysis
from playeval.core.baselines import is_baseline
from playeval.core.events import RoleAssignment, SeatAssignment
from playeval.core.game import seat_evaluated
from playeval.core.match import MatchSpec, Outcome
from playeval.core.registry import GameRegistry
from playeval.engine.plan import RunConfig
from playeval.store import RetroRecord, Store
from playeval.store.schema import (
    EventRow,
    RetroOutputRow,
    RoleRow,
    RunRow,
    SeatRow,
    SurveyRow,
    WebMatchRow,
    WebSeatRow,
)
from playeval.store.schema import MatchRow as StoredMatch
from playeval.web.tallies import (
    ALL_GAMES,
    COUNTED,
    DEFAULT_SOURCE,
    Source,
    Tally,
    TallyKey,
    grouped,
    model_rows,
    people_rows,
)
from playeval.web.views import (
    BoardView,
    GameStats,
    LeaderboardView,
    PeopleRateRow,
    RateRow,
    RatingRow,
    StatsView,
    TeamEloRow,
)

REBUILD_OVER = 2000
"""More matches changed than this since the last read: read every match again instead of each."""
WINDOW = 5000
"""How far below the highest id seen ids are read again (and skipped when seen)."""
SURVEY_QUESTIONS: tuple[str, ...] = ("enjoyment", "satisfaction", "frequency")
PEOPLE = "people"
"""The player of a person's seat, in a leaderboard row."""
CHANGES = ("match_started", "match_ended")
WEB_RESAMPLES = 100
"""Bootstrap resamples of the arena's ratings and team Elo (fewer than the command line's: a view is fitted on
request)."""


@dataclass(frozen=True)
class Version:
    """What the views were computed from; any change means something to read."""

    events: int
    retros: int
    surveys: int
    left: int


@dataclass(frozen=True)
class _Finished:
    """A finished match's part of the leaderboard."""

    live: bool
    tallies: tuple[tuple[TallyKey, Tally], ...]
    retro: MatchRetro | None
    played: PlayedMatch

    def shown(self, source: Source, game: str) -> bool:
        """Whether the match counts on the leaderboard of ``game`` (or all games) and ``source``."""
        if source != "all" and self.live != (source == "live"):
            return False
        return game == ALL_GAMES or self.played.board.game == game


class _NewIds:
    """The ids of one table read so far, in a window below the highest (see the module's note)."""

    def __init__(self) -> None:
        self.top = 0
        self.seen: set[int] = set()

    def low(self) -> int:
        return max(0, self.top - WINDOW)

    def keep(self, rows: Iterable[tuple[int, str]]) -> set[str]:
        """The match ids of the rows not seen yet; remembers them and forgets ids below the window."""
        fresh: set[str] = set()
        for row_id, match_id in rows:
            if row_id not in self.seen:
                self.seen.add(row_id)
                fresh.add(match_id)
                self.top = max(self.top, row_id)
        low = self.low()
        self.seen = {row_id for row_id in self.seen if row_id > low}
        return fresh


class _Reading:
    """What one read of the matches parsed already: outcomes by their stored JSON, and the seat tallies they
    give (many matches end alike). A seat's tally is never changed once made (only totals are)."""

    def __init__(self) -> None:
        self._outcomes: dict[str, Outcome] = {}
        self._tallies: dict[tuple[str, int, str, str, int | None], Tally] = {}

    def outcome(self, outcome_text: str) -> Outcome:
        found = self._outcomes.get(outcome_text)
        if found is None:
            found = self._outcomes[outcome_text] = Outcome.model_validate_json(outcome_text)
        return found

    def tally(self, game: str, level: int, outcome_text: str, seat: str, variant: int | None) -> Tally:
        key = (game, level, outcome_text, seat, variant)
        found = self._tallies.get(key)
        if found is None:
            found = self._tallies[key] = Tally.of(MatchRow(game=game, level=level, model="", seat=seat,
                                                           variant=variant, outcome=self.outcome(outcome_text),
                                                           tokens=0, seconds=0.0))
        return found


class BoardState:
    """The numbers behind the leaderboard and the statistics of one store, for one server process."""

    def __init__(self, store: Store, registry: GameRegistry) -> None:
        self.store = store
        self.registry = registry
        self._lock = threading.Lock()
        self._version: Version | None = None
        self._finished: dict[str, _Finished] = {}
        self._totals: dict[TallyKey, Tally] = defaultdict(Tally)
        self._counted: set[str] = set()
        """The finished matches whose tallies are in the totals: all but copies (see the module's note)."""
        self._copies: dict[str, dict[str, tuple[tuple[str, str], str]]] = {}
        """Per copy key: each of its matches' order and source."""
        self._run_configs: dict[str, RunConfig | None] = {}
        self._names = Boards(registry)
        self._sessions: dict[str, tuple[str, bool]] = {}
        self._left: dict[str, frozenset[str]] = {}
        self._retro_outputs: dict[str, list[RetroRecord]] = {}
        self._surveys: dict[str, dict[str, int]] = _no_answers()
        self._survey_count = 0
        self._events = _NewIds()
        self._retro_ids = _NewIds()
        self._boards: dict[tuple[str, Source], LeaderboardView] = {}
        self._stats: StatsView | None = None
        self._elo: dict[str, list[SeatResult] | None] = {}
        """Per finished match of a game with a team Elo, read once: its team-Elo game (``None``: it gives none)."""

    # -- the views --------------------------------------------------------------------------------------------

    def leaderboard(self, game: str = ALL_GAMES, source: Source = DEFAULT_SOURCE) -> LeaderboardView:
        with self._lock:
            self._refresh()
            board = self._boards.get((game, source))
            if board is None:
                board = self._boards[(game, source)] = self._board(game, source)
            return board

    def stats(self) -> StatsView:
        with self._lock:
            self._refresh()
            if self._stats is None:
                self._stats = self._statistics()
            return self._stats

    def _board(self, game: str, source: Source) -> LeaderboardView:
        shown = [self._finished[match_id] for match_id in sorted(self._counted)
                 if self._finished[match_id].shown(source, game)]
        copies = sum(1 for match_id, entry in self._finished.items()
                     if match_id not in self._counted and entry.shown(source, game))
        people = [entry.played for match_id in sorted(self._counted)
                  if (entry := self._finished[match_id]).shown("all", game)
                  and any(seat.human for seat in entry.played.seats)]
        board = build_leaderboard([entry.played for entry in shown], self._names, people=people, copies=copies,
                                  team_elo=self._team_elo(shown), resamples=WEB_RESAMPLES)
        names = {result.key: result.name for result in board.boards}

        def name_of(key: BoardKey | None) -> str:
            if key is None:
                return ALL_GAMES
            return names.get(key) or self._names.names([key])[key]

        retros: dict[BoardKey, list[MatchRetro]] = defaultdict(list)
        for entry in shown:
            if entry.retro is not None:
                retros[entry.played.board].append(entry.retro)
        procedural = {(key, summary.model): summary.values for key, found in retros.items()
                      for summary in summarize_procedural(found, self.registry)}
        models = grouped(self._totals, source, game, human=False)
        if game == ALL_GAMES:
            metrics: dict[str, dict[str, float | None]] = defaultdict(dict)
            for (key, model), values in procedural.items():
                metrics[model].update({f"{name_of(key)}:{name}": value for name, value in values.items()})
            rows = model_rows(models, lambda _board, model: metrics.get(model, {}), name_of)
        else:
            rows = model_rows(models, lambda key, model: procedural.get((key, model), {}) if key else {}, name_of)
        return LeaderboardView(game=game, source=source, counted=COUNTED[source], rows=rows,
                               people=people_rows(grouped(self._totals, "all", game, human=True), name_of),
                               overall=_ratings(board.overall), overall_baselines=_ratings(board.overall_baselines),
                               boards=_boards(board), copies=copies, notes=_notes(board, source))

    def _team_elo(self, shown: Sequence[_Finished]) -> dict[BoardKey, list[RatedModel]]:
        """Each team-Elo board's team Elo over its shown matches in the order they were played, as ``playeval
        leaderboard`` rates it (``analysis.leaderboard``), with ``WEB_RESAMPLES`` resamples."""
        games: dict[BoardKey, list[list[SeatResult]]] = defaultdict(list)
        for entry in sorted(shown, key=lambda item: item.played.order):
            found = self._elo_game(entry.played)
            if found is not None:
                games[entry.played.board].append(found)
        found_elo: dict[BoardKey, list[RatedModel]] = {}
        for key, played in games.items():
            analysis = team_analysis(self.registry.get(key.game))
            assert analysis is not None
            found_elo[key] = elo_intervals(played, elo_rule(analysis), resamples=WEB_RESAMPLES)
        return found_elo

    def _elo_game(self, match: PlayedMatch) -> list[SeatResult] | None:
        """A finished match's team-Elo game (``analysis.sides.elo_games``), read from the store the first time."""
        if match.outcome.status != "finished" or match.board.game not in self.registry.ids():
            return None
        game = self.registry.get(match.board.game)
        analysis = team_analysis(game)
        if analysis is None or analysis.elo is None:
            return None
        if match.id not in self._elo:
            record = self.store.get_match(match.id)
            assert record.outcome is not None
            stored = EloMatch(game=game.id, spec=record.spec, seats=record.seats, roles=record.roles,
                              outcome=record.outcome, events=tuple(self.store.events(match.id)))
            found = elo_games(game, [stored])
            self._elo[match.id] = found[0] if found else None
        return self._elo[match.id]

    def _statistics(self) -> StatsView:
        by_game: dict[str, list[bool]] = defaultdict(list)
        for game, useful in self._sessions.values():
            by_game[game].append(useful)
        started = len(self._sessions)
        finished = sum(useful for _, useful in self._sessions.values())
        return StatsView(
            matches_started=started,
            matches_finished=finished,
            useful_session_rate=finished / started if started else None,
            by_game={game: GameStats(started=len(flags), finished=sum(flags),
                                     useful_session_rate=sum(flags) / len(flags))
                     for game, flags in sorted(by_game.items())},
            surveys=self._survey_count,
            survey_distributions={question: dict(counts) for question, counts in self._surveys.items()},
        )

    # -- reading what changed ---------------------------------------------------------------------------------

    def _read_version(self, session: Session) -> Version:
        row = session.execute(select(
            select(func.coalesce(func.max(EventRow.id), 0)).scalar_subquery(),
            select(func.coalesce(func.max(RetroOutputRow.id), 0)).scalar_subquery(),
            select(func.count()).select_from(SurveyRow).scalar_subquery(),
            select(func.count()).select_from(WebSeatRow).where(WebSeatRow.left_at.is_not(None)).scalar_subquery(),
        )).one()
        return Version(events=int(row[0]), retros=int(row[1]), surveys=int(row[2]), left=int(row[3]))

    def _refresh(self) -> None:
        with Session(self.store.engine) as session:
            version = self._read_version(session)
            if version == self._version:
                return
            if self._version is None:
                self._rebuild(session, version)
                return
            changed: set[str] = set()
            if version.left != self._version.left:
                changed |= self._read_left(session)
            if version.surveys != self._version.surveys:
                self._read_surveys(session)
                self._stats = None
            if version.retros != self._version.retros:
                changed |= self._new_retros(session)
            if version.events != self._version.events:
                changed |= self._events.keep(session.execute(
                    select(EventRow.id, EventRow.match_id)
                    .where(EventRow.id > self._events.low(), EventRow.type.in_(CHANGES))))
            if len(changed) > REBUILD_OVER:
                self._rebuild(session, version)
                return
            for match_id in changed:
                self._drop(match_id)
            self._read_matches(session, changed)
        self._version = version
        if changed:
            self._boards.clear()
            self._stats = None

    def _read_left(self, session: Session) -> set[str]:
        """Read the left seats again; the matches whose left seats changed."""
        left: dict[str, set[str]] = defaultdict(set)
        for match_id, seat in session.execute(select(WebSeatRow.match_id, WebSeatRow.seat)
                                              .where(WebSeatRow.left_at.is_not(None))):
            left[match_id].add(seat)
        fresh = {match_id: frozenset(seats) for match_id, seats in left.items()}
        changed = {match_id for match_id in fresh.keys() | self._left.keys()
                   if fresh.get(match_id) != self._left.get(match_id)}
        self._left = fresh
        return changed

    def _read_surveys(self, session: Session) -> None:
        counts = _no_answers()
        for question in SURVEY_QUESTIONS:
            column = getattr(SurveyRow, question)
            for value, count in session.execute(select(column, func.count()).group_by(column)):
                counts[question][str(value)] = int(count)
        self._surveys = counts
        self._survey_count = sum(counts[SURVEY_QUESTIONS[0]].values())

    def _new_retros(self, session: Session) -> set[str]:
        changed = self._retro_ids.keep(session.execute(
            select(RetroOutputRow.id, RetroOutputRow.match_id).where(RetroOutputRow.id > self._retro_ids.low())
        ))
        for match_id in changed:
            self._retro_outputs[match_id] = self.store.retro_outputs(match_id)
        return changed

    def _rebuild(self, session: Session, version: Version) -> None:
        """Read everything: the ids now in the windows first (what they hold is read after them)."""
        self._events = _NewIds()
        self._events.keep(session.execute(select(EventRow.id, EventRow.match_id).where(
            EventRow.id > max(0, version.events - WINDOW), EventRow.type.in_(CHANGES))))
        self._events.top = max(self._events.top, version.events)
        self._retro_ids = _NewIds()
        self._retro_ids.keep(session.execute(select(RetroOutputRow.id, RetroOutputRow.match_id).where(
            RetroOutputRow.id > max(0, version.retros - WINDOW))))
        self._retro_ids.top = max(self._retro_ids.top, version.retros)
        self._left = {}
        self._read_left(session)
        self._read_surveys(session)
        self._retro_outputs = self.store.all_retro_outputs()
        self._finished = {}
        self._totals = defaultdict(Tally)
        self._counted = set()
        self._copies = {}
        self._sessions = {}
        self._read_matches(session, None)
        self._version = version
        self._boards.clear()
        self._stats = None
        self._elo = {}

    # -- matches ----------------------------------------------------------------------------------------------

    def _read_matches(self, session: Session, match_ids: Iterable[str] | None) -> None:
        """Add the arena sessions and the finished matches among ``match_ids`` (every one for ``None``): read
        with plain column queries, a match's JSON spec parsed only for a seat that does not record whether it
        is evaluated (logs of schema version 1)."""
        for where in _chunks(match_ids):
            query = (select(StoredMatch.id, StoredMatch.game, StoredMatch.status, StoredMatch.outcome)
                     .join(WebMatchRow, WebMatchRow.match_id == StoredMatch.id).where(WebMatchRow.mode == "play"))
            for match_id, game, status, outcome in session.execute(query if where is None else
                                                                   query.where(StoredMatch.id.in_(where))):
                useful = status == "finished" and outcome is not None and outcome.get("status") != "aborted"
                self._sessions[match_id] = (game, useful)
            finished = (StoredMatch.status == "finished", StoredMatch.outcome.is_not(None))
            seats: dict[str, list[Any]] = defaultdict(list)
            query = (select(SeatRow.match_id, SeatRow.seat, SeatRow.player_kind, SeatRow.model,
                            SeatRow.prompt_variant, SeatRow.evaluated)
                     .join(StoredMatch, SeatRow.match_id == StoredMatch.id).where(*finished)
                     .order_by(SeatRow.match_id, SeatRow.position))
            for seat_row in session.execute(query if where is None else query.where(StoredMatch.id.in_(where))):
                seats[seat_row[0]].append(seat_row)
            roles: dict[str, list[RoleAssignment]] = defaultdict(list)
            query = (select(RoleRow.match_id, RoleRow.role, RoleRow.player_kind, RoleRow.model, RoleRow.seat)
                     .join(StoredMatch, RoleRow.match_id == StoredMatch.id).where(*finished)
                     .order_by(RoleRow.match_id, RoleRow.position))
            for match_id, role, kind, model, seat in session.execute(query if where is None else
                                                                     query.where(StoredMatch.id.in_(where))):
                roles[match_id].append(RoleAssignment(role=role, player_kind=kind, model=model, seat=seat))
            query = (select(StoredMatch.id, StoredMatch.run_id, StoredMatch.game, StoredMatch.level,
                            cast(StoredMatch.outcome, Text), cast(StoredMatch.spec, Text), StoredMatch.created_at)
                     .where(*finished))
            rows = list(session.execute(query if where is None else query.where(StoredMatch.id.in_(where))))
            self._read_run_configs(session, {row[1] for row in rows if row[1] is not None})
            reading = _Reading()
            for match_row in rows:
                self._add_finished(match_row, seats.get(match_row[0], []), roles.get(match_row[0], []), reading)

    def _read_run_configs(self, session: Session, run_ids: set[str]) -> None:
        """The recorded configuration of each run not read yet (``None`` for a run stored without one)."""
        missing = sorted(run_ids - self._run_configs.keys())
        for start in range(0, len(missing), 500):
            for run_id, config in session.execute(select(RunRow.id, RunRow.config)
                                                  .where(RunRow.id.in_(missing[start:start + 500]))):
                try:
                    self._run_configs[run_id] = RunConfig.model_validate(config)
                except ValidationError:
                    self._run_configs[run_id] = None

    def _add_finished(self, match_row: Any, seats: Sequence[Any], roles: Sequence[RoleAssignment],
                      reading: _Reading) -> None:
        """A finished match from its row, its seats' and its roles' rows: its tallies on its board, its scored
        retrospective outputs and what its ratings need; counted unless it is a copy."""
        match_id, run_id, game_id, level, outcome_text, spec_text, created_at = match_row
        if game_id not in self.registry.ids():
            return
        game = self.registry.get(game_id)
        gone = self._left.get(match_id, frozenset())
        live = run_id is None
        spec_data: dict[str, Any] = json.loads(spec_text)
        spec: MatchSpec | None = None
        assignments: list[SeatAssignment] = []
        played_seats: list[PlayedSeat] = []
        for _, seat, kind, model, variant, recorded in seats:
            assignment = SeatAssignment(seat=seat, player_kind=kind, model=model, prompt_variant=variant,
                                        evaluated=recorded)
            evaluated = recorded
            if evaluated is None:  # a log of schema version 1: the game says
                spec = spec or MatchSpec.model_validate_json(spec_text)
                evaluated = seat_evaluated(game, spec, assignment)
            assignments.append(assignment)
            played_seats.append(PlayedSeat(seat=seat, kind=kind, model=model, evaluated=bool(evaluated),
                                           left=seat in gone))
        config = self._run_configs.get(run_id) if run_id is not None else None
        key = board_key(game, level=level, params=spec_data.get("params") or {}, roles=roles,
                        calibrated=tuple(spec_data.get("thresholds") or ()),
                        run_options=dict(config.options.get(game_id, {})) if config is not None else None,
                        opponents=opponent_players(assignments, {s.seat for s in played_seats if s.evaluated}),
                        secret_set=config.secret_sets.get(game_id) if config is not None else None)
        seat_tallies: dict[TallyKey, list[Tally]] = defaultdict(list)
        for entry in played_seats:
            if entry.left or (not entry.human and not entry.evaluated):
                continue
            name = entry.seat if entry.human else (entry.model or entry.kind)
            variant = next(a.prompt_variant for a in assignments if a.seat == entry.seat)
            seat_tallies[TallyKey(live, entry.human, game_id, name, key)].append(
                reading.tally(game_id, level, outcome_text, entry.seat, variant))
        if not seat_tallies:
            return
        tallies = [(tally_key, Tally.of_match(held)) for tally_key, held in seat_tallies.items()]
        outputs = self._retro_outputs.get(match_id)
        with_model = any(not tally_key.human for tally_key, _ in tallies)
        retro = score_retro(game, self.store.get_match(match_id), outputs) if outputs and with_model else None
        played = PlayedMatch(id=match_id, board=key, outcome=reading.outcome(outcome_text), seats=tuple(played_seats),
                             source=source_of(match_id, run_id),
                             copy=copy_key(key, spec_data, assignments, roles,
                                           config.temperature if config is not None else None),
                             order=(created_at.isoformat(), match_id))
        self._finished[match_id] = _Finished(live, tuple(tallies), retro, played)
        if played.copy is None:
            self._count(match_id, True)
        else:
            self._copies.setdefault(played.copy, {})[match_id] = (played.order, played.source)
            self._settle(played.copy)

    def _count(self, match_id: str, counts: bool) -> None:
        """Put a match's tallies in the totals, or take them out, when that changes."""
        if counts == (match_id in self._counted):
            return
        entry = self._finished[match_id]
        for key, tally in entry.tallies:
            self._totals[key].add(tally, 1 if counts else -1)
        if counts:
            self._counted.add(match_id)
        else:
            self._counted.discard(match_id)

    def _settle(self, copy: str) -> None:
        """Count the matches of the first source that played the copy key's match, and none of the others'."""
        group = self._copies.get(copy, {})
        if not group:
            self._copies.pop(copy, None)
            return
        first = min(group.values())[1]
        for match_id, (_, source) in group.items():
            self._count(match_id, source == first)

    def _drop(self, match_id: str) -> None:
        self._sessions.pop(match_id, None)
        self._elo.pop(match_id, None)
        if match_id not in self._finished:
            return
        self._count(match_id, False)
        entry = self._finished.pop(match_id)
        copy = entry.played.copy
        if copy is not None:
            self._copies.get(copy, {}).pop(match_id, None)
            self._settle(copy)


def _ratings(rows: Sequence[RatedPlayer]) -> list[RatingRow]:
    ranked = ranks(rows)
    return [RatingRow(model=row.player, rating=row.rating, low=row.low, high=row.high, matches=row.matches,
                      rank=ranked[row.player][0], tied=ranked[row.player][1]) for row in rows]


def _verdict(result: BoardResult, player: str, low: float, high: float) -> str | None:
    """A model's verdict against the board's random baseline (``analysis.chance.interval_verdict``, the test
    ``playeval results`` applies): ``None`` for a baseline, or where the board has no random baseline."""
    chance = result.random
    if chance is None or is_baseline(player):
        return None
    return interval_verdict((low, high), (chance.low, chance.high))


def _boards(board: Leaderboard) -> list[BoardView]:
    views: list[BoardView] = []
    for result in board.boards:
        rates: list[RateRow] = []
        for row in result.rates:
            verdict = _verdict(result, row.player, row.low, row.high)
            rates.append(RateRow(player=row.player, baseline=row.baseline, rate=row.rate, low=row.low, high=row.high,
                                 n=row.n, seats=row.seats, clustered=row.clustered, chance=verdict,
                                 not_above_chance=verdict in (NOT_ABOVE, BELOW)))
        views.append(BoardView(
            board=result.name, game=result.game, level=result.key.level, matches=result.matches, rated=result.rated,
            ratings=_ratings(result.ratings), baselines=_ratings(result.baseline_ratings), rates=rates,
            people=[PeopleRateRow(label=row.label, seat=row.seat, rate=row.rate, low=row.low, high=row.high,
                                  n=row.n) for row in result.people],
            team_elo=[TeamEloRow(model=row.model, rating=row.rating, low=row.low, high=row.high, games=row.games)
                      for row in result.team_elo]))
    return views


def _notes(board: Leaderboard, source: Source) -> list[str]:
    """The command line's notes (``analysis.leaderboard.leaderboard_notes``), then what the arena adds: which
    matches the models count, and the verdicts beside chance."""
    counts = {
        "batch": "the matches of batch runs, as `playeval leaderboard` counts them",
        "live": ("the matches played outside runs (the arena, against people or watched, and the terminal): "
                 "other opponents than the runs', so not comparable with a run's board"),
        "all": "the matches of batch runs and those played outside runs (the arena, the terminal), pooled",
    }[source]
    return [
        f"models' ratings and win rates count {counts}; people's rows count every match people played.",
        *leaderboard_notes(board),
        (f"vs chance, as `playeval results`: {ABOVE} where the model's 95% interval lies wholly above the random "
         f"baseline's on that board, {NOT_ABOVE} where the two overlap, {BELOW} where it lies wholly below."),
    ]


def _chunks(match_ids: Iterable[str] | None) -> Iterable[list[str] | None]:
    """``None`` (every match) once, or the ids 500 at a time."""
    if match_ids is None:
        yield None
        return
    ids = sorted(match_ids)
    for start in range(0, len(ids), 500):
        yield ids[start:start + 500]


def _no_answers() -> dict[str, dict[str, int]]:
    return {question: {str(value): 0 for value in range(1, 6)} for question in SURVEY_QUESTIONS}
