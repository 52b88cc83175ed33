"""A leaderboard's boards: a game together with the configuration its matches were played under.

Two runs of one game under different rules measure different things (Taboo scored by the paper's rule or only by
guessing the word, Akinator with one judge or another, a secret set or its held-out twin), so the leaderboard keeps
their matches apart: each configuration is a board of its own, rated and named on its own. A :class:`BoardKey`
holds what tells configurations apart, read from the match itself, so a run's matches and the arena's fall on the
same board when they were played alike:

* the level;
* the game's declared options whose value is not their default: as the run recorded them (``RunConfig.options``,
  what the user chose) for a run's match, else as the match's spec holds them (a game may fill an option per match,
  as Dynamic Picnic's ``bank_rule``, which only the run's record tells apart from a choice);
* the secret set the match drew from (``params["secret_set"]``, where the game names one);
* who played each role (a judge's model, a panel's members, a seat's occupant, a scripted stand-in), and whether
  calibrated thresholds decided that model's verdicts (the spec's ``thresholds``);
* who held each seat the game does not evaluate (the opponent: Akinator's answerer, Taboo's clue-giver).

A board's name (:meth:`Boards.names`) says the game, its level where the game has several ("math L2"), the options
that are not their default and a secret set that is not the level's default ("taboo L1 [scoring=guess]"), and who
played the roles or the calibration only where two boards of the data would otherwise read the same.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from playeval.core.errors import PlayevalError
from playeval.core.events import RoleAssignment, SeatAssignment
from playeval.core.game import Game
from playeval.core.info import panel_role
from playeval.core.inputs import check_options
from playeval.core.registry import GameRegistry

SECRET_SET = "secret_set"
"""The spec param naming the set a match's secret was drawn from."""
CALIBRATED = " (calibrated)"


@dataclass(frozen=True)
class BoardKey:
    """What tells one configuration of a game from another (see the module's note)."""

    game: str
    level: int
    options: tuple[tuple[str, str], ...] = ()
    """The declared options that are not their default, by name, their values as text."""
    secret_set: str | None = None
    roles: tuple[tuple[str, str], ...] = ()
    """Each role (a panel counted once, by its role) and who played it: model addresses (marked when calibrated
    thresholds decided their verdicts), ``seat:NAME``, or the kind of player."""

    @property
    def order(self) -> tuple[str, int, tuple[tuple[str, str], ...], str, tuple[tuple[str, str], ...]]:
        """A sort key (a key without a secret set first)."""
        return self.game, self.level, self.options, self.secret_set or "", self.roles


def _text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def chosen_options(game: Game[Any], params: Mapping[str, Any],
                   run_options: Mapping[str, Any] | None) -> tuple[tuple[str, str], ...]:
    """The declared options whose value is not their default: from ``run_options`` (a run's recorded choice, its
    values converted as the run converted them) when given, else from the spec's ``params``."""
    declared = {option.name: option for option in getattr(game, "options", ())}
    if run_options is not None:
        given = {name: value for name, value in run_options.items() if name in declared}
        values: Mapping[str, Any] = check_options(game.id, declared.values(), given) if given else {}
    else:
        values = {name: params[name] for name in declared if name in params}
    return tuple(sorted((name, _text(value)) for name, value in values.items()
                        if name in declared and value != declared[name].default))


def role_players(roles: Sequence[RoleAssignment], calibrated: Collection[str]) -> tuple[tuple[str, str], ...]:
    """Who played each role (a panel's members together, in order), by role."""
    found: dict[str, list[str]] = defaultdict(list)
    for assignment in roles:
        if assignment.seat is not None:
            who = f"seat:{assignment.seat}"
        elif assignment.model:
            who = assignment.model + (CALIBRATED if assignment.model in calibrated else "")
        else:
            who = assignment.player_kind
        found[panel_role(assignment.role)].append(who)
    return tuple(sorted((role, ",".join(members)) for role, members in found.items()))


def opponent_players(seats: Sequence[SeatAssignment], evaluated: Collection[str]) -> tuple[tuple[str, str], ...]:
    """Who held each seat the game does not evaluate (Akinator's answerer, Taboo's clue-giver), as ``("answerer
    seat", model or kind of player)``: a run against a scripted opponent and one against a model measure different
    things."""
    return tuple(sorted((f"{seat.seat} seat", seat.model or seat.player_kind) for seat in seats
                        if seat.seat not in evaluated))


def board_key(game: Game[Any], *, level: int, params: Mapping[str, Any], roles: Sequence[RoleAssignment] = (),
              calibrated: Collection[str] = (), run_options: Mapping[str, Any] | None = None,
              opponents: Sequence[tuple[str, str]] = (), secret_set: str | None = None) -> BoardKey:
    """The board of a match of ``game`` (see the module's note): ``params`` and ``calibrated`` (the addresses its
    spec holds thresholds for) from its spec, ``roles`` from its record, ``run_options`` the game's options as its
    run recorded them (``None`` for a match outside a run, or a run without a recorded configuration),
    ``opponents`` who held the seats the game does not evaluate (:func:`opponent_players`), ``secret_set`` the set
    the run named where the spec does not record it."""
    named = params.get(SECRET_SET, secret_set)
    return BoardKey(game=game.id, level=level, options=chosen_options(game, params, run_options),
                    secret_set=None if named is None else str(named),
                    roles=tuple(sorted((*role_players(roles, calibrated), *opponents))))


class Boards:
    """Names the boards of one leaderboard; keeps each game's default secret set per level once found."""

    def __init__(self, registry: GameRegistry) -> None:
        self.registry = registry
        self._default_sets: dict[tuple[str, int], str | None] = {}

    def game(self, game_id: str) -> Game[Any] | None:
        return self.registry.get(game_id) if game_id in self.registry.ids() else None

    def default_set(self, game_id: str, level: int) -> str | None:
        """The secret set a match of the level draws from when none is named: the one a setup drawn without
        a choice names (``None`` when the game names none, or cannot draw a setup unaided, as a game that needs a
        person's inputs: its set is then always named)."""
        key = (game_id, level)
        if key not in self._default_sets:
            game = self.game(game_id)
            found: str | None = None
            if game is not None:
                try:
                    value = game.new_spec(level, 0, random.Random(0)).params.get(SECRET_SET)
                    found = None if value is None else str(value)
                except (PlayevalError, ValueError, LookupError, OSError):  # a plugin's own complaint included
                    found = None
            self._default_sets[key] = found
        return self._default_sets[key]

    def _levels(self, game_id: str) -> int:
        game = self.game(game_id)
        return len(getattr(game, "levels", ())) if game is not None else 0

    def _stated(self, key: BoardKey) -> list[str]:
        parts = [f"{name}={value}" for name, value in key.options]
        if key.secret_set is not None and key.secret_set != self.default_set(key.game, key.level):
            parts.append(f"set={key.secret_set}")
        return parts

    def _base(self, key: BoardKey) -> str:
        return key.game + (f" L{key.level}" if self._levels(key.game) != 1 else "")

    def names(self, keys: Iterable[BoardKey]) -> dict[BoardKey, str]:
        """Each board's name: unique among ``keys``, and the same for a board whatever else is in ``keys`` unless
        boards differing only in their roles are there (then the roles that differ are named too)."""
        unique = sorted(set(keys), key=lambda key: key.order)
        by_stated: dict[str, list[BoardKey]] = defaultdict(list)
        for key in unique:
            stated = self._stated(key)
            by_stated[self._base(key) + (f" [{', '.join(stated)}]" if stated else "")].append(key)
        names: dict[BoardKey, str] = {}
        for plain, keys_alike in by_stated.items():
            if len(keys_alike) == 1:
                names[keys_alike[0]] = plain
                continue
            differing = sorted({role for key in keys_alike for role in dict(key.roles)
                                if len({dict(k.roles).get(role) for k in keys_alike}) > 1})
            for key in keys_alike:
                roles = dict(key.roles)
                stated = self._stated(key) + [f"{role}={roles.get(role, 'none')}" for role in differing]
                names[key] = self._base(key) + f" [{', '.join(stated)}]"
        return names
