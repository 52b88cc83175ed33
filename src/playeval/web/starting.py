"""Setting a table up: the match's setup drawn by its game, who sits where, who plays each role, the tokens.

A played table has one seat for the person who sets it up and, for every other seat, an invited person or a
model (chosen, or drawn at random from the arena's models). Its setup comes from ``game.new_spec``, with the
setter's inputs for their seat checked by ``core.inputs.check_inputs`` (the one check the terminal uses too):
``inputs`` is a dict when people's seats provide inputs (even an empty one: Akinator's person may keep the
object in their head) and ``None`` otherwise. Roles are bound as batch runs bind them
(``engine.plan.role_assignments``), the arena's ``roles`` setting first: ``local`` means the arena's role model,
``seat:NAME`` whoever holds that seat (refused, 422, for a role whose asks show what that seat may not
see: ``core.hidden.check_role_seat``), ``scripted`` the game's scripted player. Every person's seat gets its
own token; the store keeps only their hashes. The match's spec keeps the calibrated thresholds its models decide
their verdicts by (``engine.calibrations``; each model's calibration looked up once per process), unless the
arena's ``calibration`` setting is off.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from playeval.core.errors import ConfigError
from playeval.core.events import RoleAssignment, SeatAssignment
from playeval.core.game import Game, person_seat
from playeval.core.info import Scalar, SeatInfo, panel_options
from playeval.core.inputs import check_inputs, check_options, inputs_for
from playeval.core.match import MatchSpec
from playeval.core.rng import match_rng
from playeval.engine.calibrations import CalibrationBook, match_models, with_thresholds
from playeval.store import Store
from playeval.web.bodies import PERSON, RANDOM, StartMatch, StartWatch
from playeval.web.errors import Busy, Invalid
from playeval.web.settings import ArenaSettings
from playeval.web.table import HUMAN, bind_roles
from playeval.web.tokens import join_path, new_token, token_hash
from playeval.web.views import InviteView

SEED_BITS = 31


@dataclass(frozen=True)
class NewTable:
    """A table just set up: the match, the setter's seat and token, and an invite for every other person."""

    match_id: str
    seat: str
    token: str
    invites: tuple[InviteView, ...]


class TableMaker:
    """Validates what a person asks for and stores the new match."""

    def __init__(self, store: Store, settings: ArenaSettings, games: Callable[[str], Game[Any]]) -> None:
        self.store = store
        self.settings = settings
        self.games = games
        self._draw = random.SystemRandom()
        self._calibrations = CalibrationBook() if settings.calibration else None

    def model(self, address: str | None) -> str:
        """A model the arena serves: the one named, or one drawn at random."""
        if address is None:
            return self._draw.choice(self.settings.models)
        if address not in self.settings.models:
            raise Invalid(f"unknown model {address!r}; choose one of: {', '.join(self.settings.models)}")
        return address

    def _roles(self, game: Game[Any], spec: MatchSpec,
               seats: Mapping[str, SeatAssignment]) -> tuple[RoleAssignment, ...]:
        try:
            return bind_roles(game, spec, seats, self.settings.local_model, self.settings.roles)
        except ConfigError as err:
            raise Invalid(str(err)) from None

    def _calibrated(self, game: Game[Any], spec: MatchSpec, seats: Mapping[str, SeatAssignment],
                    roles: tuple[RoleAssignment, ...], stand_in: str | None) -> MatchSpec:
        """``spec`` with the thresholds of the match's models (the stand-in's too: it may take a person's seat)."""
        if self._calibrations is None:
            return spec
        return with_thresholds(spec, self._calibrations.thresholds(game.id, match_models(seats.values(), roles,
                                                                                         stand_in)))

    def _level(self, game: Game[Any], level: int) -> int:
        levels = [info.level for info in game.levels]
        if level not in levels:
            raise Invalid(f"{game.id} has levels {', '.join(map(str, levels))}, not {level}")
        return level

    def _spec(self, game: Game[Any], level: int, inputs: dict[str, str] | None,
              options: Mapping[str, Scalar]) -> MatchSpec:
        seed = secrets.randbelow(2**SEED_BITS)
        try:
            local = sorted(name for name in options if any(o.name == name and o.local_only for o in game.options))
            if local:
                raise ConfigError(f"{game.id}: the option {', '.join(local)} can only be set on the command line")
            checked = check_options(game.id, game.options, options)
            roles = self.settings.roles
            checked.update(panel_options(game.roles, lambda role: roles.get(f"{game.id}.{role}", roles.get(role))))
            spec = game.new_spec(self._level(game, level), seed, match_rng(seed), inputs=inputs,
                                 options=checked or None)
            game.initial_state(spec)
        except ConfigError as err:
            raise Invalid(str(err)) from None
        return spec

    def play(self, body: StartMatch) -> NewTable:
        """Store a played table set up by ``body``'s person; raises ``Invalid`` for what cannot be served."""
        game = self.games(body.game)
        seat = body.seat or person_seat(game)
        declared = {info.name: info for info in game.seats}
        _check_seat(game, declared, seat)
        unknown = sorted(set(body.seats) - set(declared))
        if unknown:
            raise Invalid(f"{game.id} has the seats {', '.join(declared)}; unknown: {', '.join(unknown)}")
        if seat in body.seats:
            raise Invalid(f"you take the {seat} seat yourself; seats names the other seats only")
        invited = [name for name, occupant in body.seats.items() if occupant == PERSON]
        for name in invited:
            _check_seat(game, declared, name)
        people = [seat, *invited]
        wanted = inputs_for(game.person_inputs, people)
        for item in wanted:
            if item.seat != seat and item.required:
                raise Invalid(f"the {item.seat} provides {item.key} before the match starts; take that seat "
                              "yourself or let a model hold it")
        try:
            given = check_inputs(game.id, inputs_for(game.person_inputs, (seat,)), body.inputs)
        except ConfigError as err:
            raise Invalid(str(err)) from None
        spec = self._spec(game, body.level, given if wanted else None, body.options)
        table_model = self.model(body.model)
        drawn = body.model is None
        chosen: dict[str, str] = {}
        for info in game.table(spec):
            if info.name in people:
                continue
            occupant = body.seats.get(info.name)
            if occupant == RANDOM:
                chosen[info.name], drawn = self.model(None), True
            else:
                chosen[info.name] = self.model(occupant) if occupant is not None else table_model
        seats = {info.name: _assignment(info, spec, None if info.name in people else chosen[info.name])
                 for info in game.table(spec)}
        missing = sorted(set(people) - set(seats))
        if missing:
            raise Invalid(f"this {game.id} table has no {', '.join(missing)} seat")
        beyond = sorted(set(body.seats) - set(seats))
        if beyond:  # an option made the table smaller than the game's declared seats (Undercover's players)
            raise Invalid(f"this {game.id} table seats {', '.join(seats)}, not {', '.join(beyond)}")
        tokens = {name: new_token() for name in people}
        roles = self._roles(game, spec, seats)
        match_id = self.store.create_web_match(
            spec=self._calibrated(game, spec, seats, roles, table_model), seats=list(seats.values()), mode="play",
            people={n: token_hash(t) for n, t in tokens.items()}, joined=(seat,), anonymous=drawn, roles=roles,
            stand_in=table_model)
        invites = tuple(InviteView(seat=name, url=join_path(match_id, tokens[name])) for name in invited)
        return NewTable(match_id=match_id, seat=seat, token=tokens[seat], invites=invites)

    def watch(self, body: StartWatch) -> str:
        """Store a model-vs-model match set up by ``body``; its id."""
        game = self.games(body.game)
        chosen = dict(body.models or {})
        spec = self._spec(game, body.level, None, body.options)
        names = [info.name for info in game.table(spec)]
        unknown = sorted(set(chosen) - set(names))
        if unknown:
            raise Invalid(f"{game.id} has the seats {', '.join(names)}; unknown: {', '.join(unknown)}")
        models = {name: self.model(chosen.get(name)) for name in names}
        live = self.store.web_matches(mode="watch", status="running", limit=self.settings.max_live_watches)
        if len(live) >= self.settings.max_live_watches:
            raise Busy("too many model-vs-model matches are running; watch one of them or try again later")
        seats = {info.name: _assignment(info, spec, models[info.name]) for info in game.table(spec)}
        roles = self._roles(game, spec, seats)
        return self.store.create_web_match(spec=self._calibrated(game, spec, seats, roles, None),
                                           seats=list(seats.values()), mode="watch", people={}, anonymous=False,
                                           roles=roles, stand_in=None)


def _check_seat(game: Game[Any], declared: Mapping[str, SeatInfo], seat: str) -> None:
    open_seats = [name for name, info in declared.items() if info.person]
    if seat not in open_seats:
        raise Invalid(f"{game.id} has the seats {', '.join(open_seats)} for a person, not {seat!r}")


def _assignment(info: SeatInfo, spec: MatchSpec, model: str | None) -> SeatAssignment:
    """A seat held by ``model``, or by a person (``None``); a person's seat is never counted for a model."""
    return SeatAssignment(seat=info.name, player_kind=HUMAN if model is None else "llm", model=model,
                          prompt_variant=spec.variants.get(info.name), evaluated=info.evaluated and model is not None)
