"""The leaderboard's numbers as sums: one tally per (source, person or model, board, model or seat).

Every number a leaderboard row shows is a sum over the matches it counts (matches, scored seats, wins, rounds of
the played ones, forfeits, aborted matches), so a finished match adds its tallies once and the rows are read off
the totals, whatever the number of stored matches. A seat is scored as ``analysis.outcomes`` scores it
(``MatchRow.won``: a seat's own forfeit is a loss, an aborted match scores nobody), so the rows are the ones
``analysis.summarize`` gives for the same seats. A board is a game with its configuration
(``analysis.boards``): rows are per board, or per model over every board on the all-games leaderboard.

A match adds one tally per player it seated, however many seats that player held (Undercover's civilians, a
Council team): the win rate is over the seats, but its 95% interval is over the matches, as ``playeval results``
gives it (``analysis.intervals.match_rate_interval``: Wilson's where each match gave the player one seat, else
the cluster bootstrap over matches, since the seats of one table share its fate). So each tally keeps how many
matches gave which (wins, scored seats), and its ``n`` is the scored matches.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Literal

from playeval.analysis import MatchRow
from playeval.analysis.boards import BoardKey
from playeval.analysis.intervals import match_rate_interval
from playeval.web.views import ModelRow, PeopleRow

Source = Literal["all", "live", "batch"]
"""Whose matches a leaderboard's models count: ``batch`` the runs', ``live`` those played outside runs (the arena,
against people or watched, and the terminal), ``all`` both pooled."""
DEFAULT_SOURCE: Source = "batch"
"""The runs' matches, as ``playeval leaderboard`` rates them: a model's matches against people, or watched in the
arena, are another population of opponents and are shown only when asked for."""
COUNTED: Mapping[str, str] = {"batch": "run matches", "live": "arena matches", "all": "run and arena matches"}
"""Each source in words, as the page and the plot label a board."""
ALL_GAMES = "all"


@dataclass(frozen=True)
class TallyKey:
    """Whose tally: a live (arena or terminal) or batch match, people or a model, the board (its game's id in
    ``game``), the model or seat."""

    live: bool
    human: bool
    game: str
    name: str
    board: BoardKey | None = None


@dataclass
class Tally:
    """A player's matches on a board, summed: one match's (:meth:`of_match`) or many."""

    matches: int = 0
    """Matches the player held a seat of."""
    scored: int = 0
    """Scored seats: the win rate's denominator."""
    wins: int = 0
    """Scored seats won."""
    played: int = 0
    """Matches with a scored seat that ended by the rules (not forfeited): the ones whose rounds are averaged,
    each once however many of its seats the player held (as ``playeval results`` averages them)."""
    rounds: int = 0
    forfeits: int = 0
    """Seats lost by their own forfeit."""
    aborted: int = 0
    """Matches aborted."""
    clusters: Counter[tuple[int, int]] = field(default_factory=Counter)
    """Per scored match's (seats won, scored seats): how many matches gave it. The interval's input."""

    @classmethod
    def of(cls, row: MatchRow) -> Tally:
        """One seat of one finished match, scored like ``analysis.summarize``."""
        won = row.won
        scored = won is not None
        played = scored and row.outcome.status == "finished"
        return cls(matches=1, scored=int(scored), wins=int(won is True), played=int(played),
                   rounds=row.outcome.rounds if played else 0, forfeits=int(row.result.forfeited),
                   aborted=int(row.outcome.status == "aborted"),
                   clusters=Counter({(int(won is True), 1): 1}) if scored else Counter())

    @classmethod
    def of_match(cls, seats: Iterable[Tally]) -> Tally:
        """One match of a player from the tallies of the seats it held there (:meth:`of`): one match, its
        rounds once, and one cluster of its scored seats."""
        held = list(seats)
        scored = sum(seat.scored for seat in held)
        wins = sum(seat.wins for seat in held)
        played = [seat for seat in held if seat.played]
        return cls(matches=1 if held else 0, scored=scored, wins=wins, played=int(bool(played)),
                   rounds=played[0].rounds if played else 0, forfeits=sum(seat.forfeits for seat in held),
                   aborted=int(any(seat.aborted for seat in held)),
                   clusters=Counter({(wins, scored): 1}) if scored else Counter())

    def add(self, other: Tally, sign: int = 1) -> None:
        self.matches += sign * other.matches
        self.scored += sign * other.scored
        self.wins += sign * other.wins
        self.played += sign * other.played
        self.rounds += sign * other.rounds
        self.forfeits += sign * other.forfeits
        self.aborted += sign * other.aborted
        for cluster, count in other.clusters.items():
            self.clusters[cluster] += sign * count
            if self.clusters[cluster] == 0:
                del self.clusters[cluster]

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.scored if self.scored else None

    @property
    def avg_rounds(self) -> float | None:
        return self.rounds / self.played if self.played else None

    @property
    def n(self) -> int:
        """Scored matches: the interval's n."""
        return sum(self.clusters.values())

    @property
    def clustered(self) -> bool:
        """Some scored match gave the player several seats: the interval is the cluster bootstrap."""
        return any(seats > 1 for _, seats in self.clusters)

    def interval(self) -> tuple[float | None, float | None]:
        """The win rate's 95% interval over matches (``analysis.intervals.match_rate_interval``), in a fixed
        order of the matches, so that the bootstrap gives the same interval however they were added."""
        return match_rate_interval([cluster for cluster, count in sorted(self.clusters.items())
                                    for _ in range(count)])


def counted(key: TallyKey, source: Source, game: str) -> bool:
    """Whether a tally counts on the board of ``game`` (or all games) and ``source``."""
    if source != "all" and key.live != (source == "live"):
        return False
    return game == ALL_GAMES or key.game == game


Group = tuple[str, BoardKey | None, str]
"""(game or ``all``, board or ``None`` on the all-games row, model or seat)."""


def grouped(totals: Mapping[TallyKey, Tally], source: Source, game: str, *, human: bool) -> dict[Group, Tally]:
    """The totals a board shows, per (board, model) for models (per model over every board, game ``all``, on the
    all-games board) or per (board, seat) for people."""
    found: dict[Group, Tally] = defaultdict(Tally)
    for key, tally in totals.items():
        if key.human != human or tally.matches == 0 or not counted(key, source, game):
            continue
        if game == ALL_GAMES and not human:
            found[(ALL_GAMES, None, key.name)].add(tally)
        else:
            found[(key.game, key.board, key.name)].add(tally)
    return found


MetricsOf = Callable[[BoardKey | None, str], Mapping[str, float | None]]
"""(board, or ``None`` for all games; model) -> the procedural metrics shown in that model's row."""
NameOf = Callable[[BoardKey | None], str]


def model_rows(groups: Mapping[Group, Tally], metrics: MetricsOf, name_of: NameOf) -> list[ModelRow]:
    """One row per model and board, best win rate first."""
    found: list[ModelRow] = []
    for (game, board, model), tally in groups.items():
        low, high = tally.interval()
        found.append(ModelRow(game=game, board=name_of(board), model=model, matches=tally.matches,
                              scored=tally.scored, wins=tally.wins, win_rate=tally.win_rate, ci_low=low, ci_high=high,
                              n=tally.n, clustered=tally.clustered, avg_rounds=tally.avg_rounds,
                              forfeits=tally.forfeits, metrics=dict(metrics(board, model))))
    return sorted(found, key=lambda r: (r.board, -(r.win_rate or 0.0), -r.scored, r.model))


def people_rows(groups: Mapping[Group, Tally], name_of: NameOf) -> list[PeopleRow]:
    """People's records per board and seat, scored like the models'."""
    found: list[PeopleRow] = []
    for (game, board, seat), tally in groups.items():
        low, high = tally.interval()
        found.append(PeopleRow(game=game, board=name_of(board), seat=seat, matches=tally.matches,
                               scored=tally.scored, wins=tally.wins, win_rate=tally.win_rate, ci_low=low,
                               ci_high=high, n=tally.n, clustered=tally.clustered, avg_rounds=tally.avg_rounds,
                               abandoned=tally.aborted))
    return sorted(found, key=lambda r: (r.board, r.seat))
