"""What the leaderboard reads of a finished match: who held each seat, how it ended, on which board it counts, and
when two stored matches are one match played twice.

**Players.** A seat's player on the leaderboard is its model's address, a baseline's (``baseline/NAME``) included;
a person's seat has none (people have a row of their own, never a rating). A scripted player in an evaluated seat
is the game's own play: it counts as the board's pseudo-opponent, ``game:BOARD``.

**Comparisons** (:func:`match_comparisons`, one ``MatchComparisons`` per match, for ``analysis.bradley_terry``):

* a table (several evaluated seats, as Undercover's): every pair of evaluated seats on opposite teams (a seat
  without a team is a side of its own) held by two different players, ``first``'s score ``(1 + v1 - v2) / 2``
  from the seats' values below (1 won, ½ drawn, 0 lost: so a win over a loss is 1, equal results ½); the match's
  pairs share its weight of 1;
* one evaluated seat (Akinator, Taboo, Bluffing, the rule games): its player against ``game:BOARD``, scored by
  the seat's value.

A seat's value follows the win rate's rule (``analysis.outcomes.scored_win``): its own forfeit is a loss; a seat
of an aborted match, or of a match another seat forfeited, is not scored, and a pair with such a seat is left
out, except that a seat's forfeit is still its loss to the seats it faced (the other seat's win is then implied
by the comparison, though its own win rate leaves the match out).

**Copies** (:func:`distinct`): on the same board, the same setup (the whole spec: game, level, seed, drawn
setup, options, prompt variants, thresholds), the same lineup (who held each seat and role, with which prompt
variant) and the same temperature, played by two runs, is one match played twice; the second answers often come
from the response cache and would count the first's outcome again. Each such match counts once, from the first
source that played it (a run, or the match itself when played outside runs): a run's own matches are never copies
of each other (each has its match number). A match a person played is never a copy.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from playeval.analysis.boards import BoardKey
from playeval.analysis.bradley_terry import Comparison, MatchComparisons
from playeval.analysis.outcomes import scored_win
from playeval.core.events import RoleAssignment, SeatAssignment
from playeval.core.match import Outcome

HUMAN = "human"
GAME_PREFIX = "game:"


def game_player(board: str) -> str:
    """The pseudo-opponent of a board's single-seat matches and scripted seats: ``game:taboo L1``."""
    return f"{GAME_PREFIX}{board}"


def is_game_player(player: str) -> bool:
    return player.startswith(GAME_PREFIX)


@dataclass(frozen=True)
class PlayedSeat:
    """One seat of a finished match: who held it, and whether the match counts for it."""

    seat: str
    kind: str
    """The kind of player (``llm``, ``scripted``, ``human``...)."""
    model: str | None
    evaluated: bool
    left: bool = False
    """A person's seat its person left (a model finished it): it counts for nobody."""

    @property
    def human(self) -> bool:
        return self.kind == HUMAN

    @property
    def player(self) -> str | None:
        """The seat's player on the leaderboard: its model's or baseline's address (``None``: a person, or a seat
        with no model)."""
        return None if self.human or not self.model else self.model


@dataclass(frozen=True)
class PlayedMatch:
    """A finished match as the leaderboard reads it."""

    id: str
    board: BoardKey
    outcome: Outcome
    seats: tuple[PlayedSeat, ...]
    source: str
    """The run that played it, or ``match:ID`` for a match played outside runs (the arena, a terminal)."""
    copy: str | None
    """What makes two plays the same match (:func:`copy_key`); ``None`` for a match a person played."""
    order: tuple[str, str]
    """When it was made, then its id: the first copy is kept."""

    @property
    def in_run(self) -> bool:
        return not self.source.startswith("match:")

    @property
    def evaluated(self) -> tuple[PlayedSeat, ...]:
        return tuple(seat for seat in self.seats if seat.evaluated)


def copy_key(board: BoardKey, spec: Mapping[str, Any], seats: Sequence[SeatAssignment],
             roles: Sequence[RoleAssignment], temperature: float | None) -> str | None:
    """What two plays of one match share (see the module's note); ``None`` when a person held a seat."""
    if any(seat.player_kind == HUMAN for seat in seats):
        return None
    return json.dumps({
        "board": [board.game, board.level, board.options, board.secret_set, board.roles],
        "spec": spec,
        "seats": [[s.seat, s.player_kind, s.model, s.prompt_variant, s.evaluated] for s in seats],
        "roles": [[r.role, r.player_kind, r.model, r.seat] for r in roles],
        "temperature": temperature,
    }, sort_keys=True, default=str)


def source_of(match_id: str, run_id: str | None) -> str:
    return run_id if run_id is not None else f"match:{match_id}"


def distinct(matches: Iterable[PlayedMatch]) -> tuple[list[PlayedMatch], int]:
    """The matches that count, in their order (``order``), and how many were left out as copies of a match an
    earlier source played (see the module's note)."""
    ordered = sorted(matches, key=lambda match: match.order)
    first_source: dict[str, str] = {}
    kept: list[PlayedMatch] = []
    for match in ordered:
        if match.copy is not None:
            source = first_source.setdefault(match.copy, match.source)
            if source != match.source:
                continue
        kept.append(match)
    return kept, len(ordered) - len(kept)


def seat_value(outcome: Outcome, seat: str) -> float | None:
    """1 won, ½ drawn, 0 lost (its own forfeit included), ``None`` not scored."""
    won = scored_win(outcome, seat)
    if won is None:
        return None
    if won:
        return 1.0
    return 0.5 if outcome.drawn else 0.0


def _opponent(seat: PlayedSeat, board: str) -> str | None:
    if seat.human or seat.left:
        return None
    return seat.player if seat.player is not None else game_player(board)


def _pair_score(outcome: Outcome, first: str, second: str) -> float | None:
    a, b = seat_value(outcome, first), seat_value(outcome, second)
    if a is not None and b is not None:
        return (1.0 + a - b) / 2.0
    if a is None and b is None:
        return None
    if a is None:  # only ``second`` is scored: it counts when it was ``second``'s own forfeit
        return 1.0 if outcome.result_for(second).forfeited else None
    return 0.0 if outcome.result_for(first).forfeited else None


def match_comparisons(match: PlayedMatch, board: str) -> MatchComparisons | None:
    """The match's comparisons on ``board`` (its name), or ``None`` when it gives none (see the module's note)."""
    evaluated = [seat for seat in match.evaluated if not seat.left]
    found: list[tuple[str, str, float]] = []
    if len(evaluated) == 1:
        seat = evaluated[0]
        value = seat_value(match.outcome, seat.seat)
        if seat.player is not None and value is not None:
            found.append((seat.player, game_player(board), value))
    else:
        for index, first in enumerate(evaluated):
            for second in evaluated[index + 1:]:
                a, b = _opponent(first, board), _opponent(second, board)
                team_a = match.outcome.result_for(first.seat).team
                team_b = match.outcome.result_for(second.seat).team
                if a is None or b is None or a == b or (team_a is not None and team_a == team_b):
                    continue
                score = _pair_score(match.outcome, first.seat, second.seat)
                if score is not None:
                    found.append((a, b, score))
    if not found:
        return None
    weight = 1.0 / len(found)
    return MatchComparisons(board=board, match=match.id, game=match.board.game,
                            comparisons=tuple(Comparison(a, b, score, weight) for a, b, score in found))


def seat_wins(match: PlayedMatch) -> dict[str, tuple[int, int]]:
    """Per player (model or baseline): the match's scored evaluated seats it held and how many it won."""
    found: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for seat in match.evaluated:
        won = scored_win(match.outcome, seat.seat)
        if seat.player is None or seat.left or won is None:
            continue
        found[seat.player][0] += int(won)
        found[seat.player][1] += 1
    return {player: (wins, seats) for player, (wins, seats) in found.items()}


def people_wins(match: PlayedMatch) -> dict[str, bool]:
    """Per seat a person held to the end: whether it won (scored seats only)."""
    found: dict[str, bool] = {}
    for seat in match.seats:
        won = scored_win(match.outcome, seat.seat)
        if seat.human and not seat.left and won is not None:
            found[seat.seat] = won
    return found
