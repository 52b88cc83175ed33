"""Who plays each seat and role of a match: from its assignments (and later take-overs) to players.

One function builds a model's player in a seat and one in a role, for batch runs, the terminal and the arena
alike. An evaluated seat keeps the run's settings on re-asks, so its invalid moves are measured as they are
(unless its game sets ``reask_temperature``, as Undercover does). A
seat that is not evaluated is a simulated person: its re-asks are fresh, sampled tries, since greedy decoding
repeats a refused reply word for word. A role (a judge, a game master) decodes greedily, re-asks included, and
its sampling seeds derive from the match and the ask, so its verdicts are reproducible. A model's verdicts (a
judge's) are decided by the calibrated thresholds the match's spec holds for it (``MatchSpec.thresholds``, fixed
when the match was set up), so a match resumed by any process decides as it began.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from playeval.core.events import Event, MatchStarted, RoleAssignment, SeatAssignment, SeatTakenOver
from playeval.core.game import Game
from playeval.core.match import MatchSpec
from playeval.core.scripted import MatchContext
from playeval.core.verdicts import Thresholds
from playeval.models import Model
from playeval.players.base import Player
from playeval.players.llm import DEFAULT_MAX_RETRIES, LLMPlayer

OPPONENT_RETRY_TEMPERATURE = 0.8
"""Least sampling temperature of a simulated person's re-ask (see ``LLMPlayer``); seeded, so reruns repeat."""

ModelLookup = Callable[[str], Model]


def model_player(model: Model, *, evaluated: bool, seed: int, temperature: float = 0.0,
                 max_retries: int = DEFAULT_MAX_RETRIES, reask_temperature: float | None = None,
                 match: MatchContext | None = None, thresholds: Thresholds | None = None) -> LLMPlayer:
    """A model in a seat (see the module's note on re-asks; ``reask_temperature`` is the game's, for an
    evaluated seat; ``match``: the match, which its requests name for a mock model; ``thresholds``: the model's
    calibration for this game, for the seat's asks that carry a verdict)."""
    return LLMPlayer(model, seed=seed, temperature=temperature, max_retries=max_retries,
                     retry_temperature=reask_temperature if evaluated else OPPONENT_RETRY_TEMPERATURE, match=match,
                     thresholds=thresholds)


def role_player(model: Model, *, seed: int, max_retries: int = DEFAULT_MAX_RETRIES,
                match: MatchContext | None = None, thresholds: Thresholds | None = None) -> LLMPlayer:
    """A model in a role: greedy, re-asks included; ``thresholds`` decide its verdicts (a judge's)."""
    return LLMPlayer(model, seed=seed, temperature=0.0, max_retries=max_retries, match=match, thresholds=thresholds)


def assignments(events: Sequence[Event]) -> tuple[tuple[SeatAssignment, ...], tuple[RoleAssignment, ...]]:
    """The seats and roles as they stand after ``events``: the start's, with every take-over applied."""
    start = next((event for event in events if isinstance(event, MatchStarted)), None)
    if start is None:
        raise ValueError("the log has no match_started event")
    seats = {seat.seat: seat for seat in start.seats}
    for event in events:
        if isinstance(event, SeatTakenOver) and event.seat in seats:
            seats[event.seat] = seats[event.seat].model_copy(
                update={"player_kind": event.player_kind, "model": event.model})
    return tuple(seats.values()), start.roles


def build_players(game: Game[Any], spec: MatchSpec, seats: Sequence[SeatAssignment],
                  roles: Sequence[RoleAssignment], lookup: ModelLookup, *, people: Mapping[str, Player | None],
                  temperature: float = 0.0, max_retries: int = DEFAULT_MAX_RETRIES,
                  evaluated: Callable[[SeatAssignment], bool] | None = None) -> dict[str, Player | None]:
    """A player for every seat and role, keyed by its name.

    ``people`` holds the seats people play: their player (a terminal), or ``None`` for a person whose moves
    arrive from elsewhere (the web). A role bound to a person's seat is played by that person. ``evaluated``
    says whether a model seat is evaluated (default: as its assignment says). Each model decides its verdicts by
    the thresholds ``spec`` holds for it (none: by its own word).
    """
    players: dict[str, Player | None] = {}
    match = MatchContext(game=game, spec=spec)
    calibrated = spec.thresholds
    is_evaluated = evaluated or (lambda assignment: bool(assignment.evaluated))
    for assignment in seats:
        name = assignment.seat
        if name in people:
            players[name] = people[name]
        elif assignment.player_kind == "llm" and assignment.model:
            players[name] = model_player(lookup(assignment.model), evaluated=is_evaluated(assignment),
                                         seed=spec.seed, temperature=temperature, max_retries=max_retries,
                                         reask_temperature=game.reask_temperature, match=match,
                                         thresholds=calibrated.get(assignment.model))
        else:
            players[name] = game.scripted_player(name, spec)
    by_seat = {assignment.seat: assignment for assignment in seats}
    for role in roles:
        bound = by_seat.get(role.seat) if role.seat is not None else None
        if role.seat is not None and role.seat in people:
            players[role.role] = people[role.seat]
        elif bound is not None:  # played as its seat's occupant is now, as a role
            players[role.role] = (role_player(lookup(bound.model), seed=spec.seed, max_retries=max_retries,
                                              match=match, thresholds=calibrated.get(bound.model))
                                  if bound.player_kind == "llm" and bound.model else
                                  game.scripted_player(role.role, spec))
        elif role.player_kind == "llm" and role.model:
            players[role.role] = role_player(lookup(role.model), seed=spec.seed, max_retries=max_retries,
                                             match=match, thresholds=calibrated.get(role.model))
        else:
            players[role.role] = game.scripted_player(role.role, spec)
    return players
