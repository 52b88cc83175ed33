"""The leaderboard's numbers as sums: one tally per (source, person or model, board, model or seat).

Every number a leaderboard row shows is a sum over the seats it counts (matches, scored seats, wins, rounds of
the played ones, forfeits, aborted matches), so a finished match adds its seats' tallies once and the rows are
read off the totals, whatever the number of stored matches. A seat is scored as ``analysis.outcomes`` scores it
(``MatchRow.won``: a seat's own forfeit is a loss, an aborted match scores nobody), so the rows are the ones
``analysis.summarize`` gives for the same seats. A board is a game with its configuration
(``analysis.boards``): rows are per board, or per model over every board on the all-games leaderboard.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Literal

from playeval.analysis import MatchRow
from playeval.analysis.boards import BoardKey
from playeval.analysis.intervals import wilson_interval
from playeval.web.views import ModelRow, PeopleRow

Source = Literal["all", "live", "batch"]
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
    matches: int = 0
    scored: int = 0
    wins: int = 0
    played: int = 0
    """Scored seats of matches that ended by the rules (not forfeited): the ones whose rounds are averaged."""
    rounds: int = 0
    forfeits: int = 0
    aborted: int = 0

    @classmethod
    def of(cls, row: MatchRow) -> Tally:
        """One seat of one finished match, scored like ``analysis.summarize``."""
        won = row.won
        scored = won is not None
        played = scored and row.outcome.status == "finished"
        return cls(matches=1, scored=int(scored), wins=int(won is True), played=int(played),
                   rounds=row.outcome.rounds if played else 0, forfeits=int(row.result.forfeited),
                   aborted=int(row.outcome.status == "aborted"))

    def add(self, other: Tally, sign: int = 1) -> None:
        self.matches += sign * other.matches
        self.scored += sign * other.scored
        self.wins += sign * other.wins
        self.played += sign * other.played
        self.rounds += sign * other.rounds
        self.forfeits += sign * other.forfeits
        self.aborted += sign * other.aborted

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.scored if self.scored else None

    @property
    def avg_rounds(self) -> float | None:
        return self.rounds / self.played if self.played else None


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
        low, high = wilson_interval(tally.wins, tally.scored)
        found.append(ModelRow(game=game, board=name_of(board), model=model, matches=tally.matches,
                              scored=tally.scored, wins=tally.wins, win_rate=tally.win_rate, ci_low=low, ci_high=high,
                              avg_rounds=tally.avg_rounds, forfeits=tally.forfeits,
                              metrics=dict(metrics(board, model))))
    return sorted(found, key=lambda r: (r.board, -(r.win_rate or 0.0), -r.scored, r.model))


def people_rows(groups: Mapping[Group, Tally], name_of: NameOf) -> list[PeopleRow]:
    """People's records per board and seat, scored like the models'."""
    found: list[PeopleRow] = []
    for (game, board, seat), tally in groups.items():
        low, high = wilson_interval(tally.wins, tally.scored)
        found.append(PeopleRow(game=game, board=name_of(board), seat=seat, matches=tally.matches,
                               scored=tally.scored, wins=tally.wins, win_rate=tally.win_rate, ci_low=low,
                               ci_high=high, avg_rounds=tally.avg_rounds, abandoned=tally.aborted))
    return sorted(found, key=lambda r: (r.board, r.seat))
