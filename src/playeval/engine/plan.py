"""What a batch run consists of: its configuration, and the matches and lineups it implies.

**The lineup schedule.** For each game and game number ``g`` (``0 .. n-1``) the run draws one match setup
from the seed ``derive_seed(seed, game, level, g)``, so every model meets the same secrets, words and prompt
variants. Seats the game does not evaluate get the ``opponent`` (a model, or ``scripted``); roles get their
binding (``--role``) or the game's default. The evaluated seats get the run's models:

* one evaluated seat (Akinator, Taboo, Bluffing): one match per model, in the order the models were given;
* several (a table of players): the models are shuffled once per game number with a seeded RNG
  (``derive_seed(seed, game, level, g, "lineup")``) into an order ``m``, and the game number is played in
  ``k = len(models)`` rotations: in rotation ``r`` evaluated seat ``j`` gets ``m[(j + r) mod k]``. Every model
  so plays every evaluated seat exactly once per game number, on the same setup, and (with more seats than
  models) a model may hold several seats of one match.

**Baselines** (``--baselines``, ``RunConfig.baselines``). A game's lineup entries are then the run's models
followed by one ``baseline/NAME`` per baseline the game declares (``core.baselines``), in its order; they are
scheduled exactly as models are (one match each at one evaluated seat, shuffled and rotated in at a table), so a
baseline plays every game number on the same setup as the models. The setup depends only on the game number, so
adding baselines changes no model's seed, secret or prompt variant; a model's match at one evaluated seat is the
same match (its rotation number too), while at a table the baselines sit among the models. The baselines' names
are looked up when the run is recorded and kept with it (``RunConfig.baseline_names``, :func:`with_baselines`),
so a resume plans the same lineups whatever the games declare by then. A game that declares none gets none.

Matches are interleaved by game number, then game, so a partial run covers every game and model evenly. Each
game number holds, per game, one match per lineup entry (``RunConfig.matches_per_game``: the number of models,
plus that game's baselines with ``--baselines``), the same for every game number, so a match's index is known
without planning the ones before it: the plan is a generator (:func:`iter_plan`), and a run of a large ``n``
starts at once. ``n`` is at most :data:`MAX_N`. Without ``--baselines`` every index, seed and lineup is what it
was before baselines existed.

**Rounds decided as the run goes** (``--until-separated``, ``RunConfig.until``). The ``n`` game numbers above
are the first round; each later round is a list of :class:`Allocated` entries (a game, a game number from ``n``
on, the lineup entries that play it: a pair of models at a one-seat game, every entry at a table), appended to the
stored configuration before it is played. Their matches follow the first round's, in order, each game number on
the setup a uniform run would draw for it; so the plan stays a function of the stored configuration, and a resume
plays the same matches.

**Calibrated verdicts.** Each planned match's spec carries the thresholds its models decide their verdicts by
(``MatchSpec.thresholds``), taken from the calibrations recorded with the run (``RunConfig.calibrations``), so
a match plans the same on every resume and in every process.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    field_validator,
    model_serializer,
    model_validator,
)

from playeval.core.baselines import baseline_address, game_baselines
from playeval.core.errors import ConfigError
from playeval.core.events import RoleAssignment, SeatAssignment
from playeval.core.game import Game
from playeval.core.hidden import check_role_seat
from playeval.core.info import Scalar, binding_members, panel_member, panel_options
from playeval.core.inputs import check_options
from playeval.core.match import MatchSpec
from playeval.core.registry import GameRegistry
from playeval.core.rng import derive_seed, match_rng
from playeval.core.verdicts import Thresholds
from playeval.engine.calibrations import ModelCalibration, match_models, with_thresholds
from playeval.models.model import MAX_TIMEOUT_S

MAX_N = 100_000
"""The most game numbers a run may have (``--n``): checked before anything is planned or recorded."""
SCRIPTED = "scripted"
LOCAL = "local"
SEAT_BINDING = "seat:"


class Allocated(BaseModel):
    """One game number of a later round of a ``--until-separated`` run: ``game``'s setup ``number`` played by
    ``models`` (lineup entries; at a table game all of them, in its rotations)."""

    model_config = ConfigDict(frozen=True)

    game: str
    number: int = Field(ge=0)
    models: tuple[str, ...]


class UntilSeparated(BaseModel):
    """A run that plays rounds until every adjacent pair of its overall ranking is separated at 95 %, or ``budget``
    matches are spent (``--until-separated --budget N``). ``rounds``: the later rounds' allocations, recorded as
    they are decided; ``stopped``: why the run stopped (``separated`` or ``budget``), once it has; ``strategy``:
    ``adaptive`` (the least certain pair next, ``analysis.allocation``) or ``uniform`` (every model in every game,
    the comparison)."""

    model_config = ConfigDict(frozen=True)

    budget: int = Field(ge=1)
    round_size: int = Field(default=0, ge=0)
    """Matches per later round (0: as many as one uniform game number holds)."""
    strategy: str = Field(default="adaptive", pattern="^(adaptive|uniform)$")
    rounds: tuple[tuple[Allocated, ...], ...] = ()
    stopped: str | None = None


class RunConfig(BaseModel):
    """A batch run of one or more games. Stored with the run, so ``--resume`` rebuilds exactly the same plan.

    ``secret_sets`` maps a game to its named set of secrets (a game not named uses its default). ``roles``
    binds roles to models: ``judge`` for the role of that name in every game of the run, or ``akinator.judge``
    for one game's. ``options`` holds each game's options. Runs recorded before multi-game runs stored ``game``
    and ``secret_set``; they still load.

    ``calibration``: whether calibrated thresholds decide the models' verdicts (``--no-calibration`` turns it
    off). ``calibrations`` are the calibrations found for the run's models when it was recorded, by address
    (``engine.create_run`` looks them up): a resumed run decides by these, whatever files exist by then. A run
    recorded before calibrations were applied holds none, and resumes without.

    ``baselines``: whether each game's baseline players join its lineups (``--baselines``; see the module's note).
    ``baseline_names`` are the baselines each game declared when the run was recorded, by game (``()`` for a game
    that declares none; :func:`with_baselines` looks them up), so a resume plans the same lineups. A run recorded
    before baselines existed loads without either.
    """

    model_config = ConfigDict(frozen=True)

    games: tuple[str, ...]
    level: int = 1
    models: tuple[str, ...]
    opponent: str
    n: int = Field(ge=1, le=MAX_N)
    seed: int = 0
    concurrency: int = Field(default=1, ge=1)
    secret_sets: dict[str, str] = Field(default_factory=dict)
    temperature: float = Field(default=0.0, ge=0.0, le=2.0)
    max_retries: int = Field(default=2, ge=0)
    timeout_s: float | None = Field(default=None, gt=0, le=MAX_TIMEOUT_S)
    """Seconds an attempt of a model call may take (``--timeout``); ``None``: each provider's own timeout."""
    roles: dict[str, str] = Field(default_factory=dict)
    options: dict[str, dict[str, Scalar]] = Field(default_factory=dict)
    calibration: bool = True
    calibrations: dict[str, ModelCalibration] = Field(default_factory=dict)
    baselines: bool = False
    baseline_names: dict[str, tuple[str, ...]] = Field(default_factory=dict)
    until: UntilSeparated | None = None
    """``--until-separated``: the run plays later rounds (see the module's note); ``None``: the ``n`` game numbers."""

    @model_serializer(mode="wrap")
    def _without_baselines_off(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """A run without baselines (or later rounds) is stored (and reported) as it was before they existed."""
        data: dict[str, Any] = handler(self)
        if not self.baselines and not self.baseline_names:
            data.pop("baselines", None)
            data.pop("baseline_names", None)
        if self.until is None:
            data.pop("until", None)
        return data

    @model_validator(mode="before")
    @classmethod
    def _single_game_form(cls, data: Any) -> Any:
        if isinstance(data, dict) and "game" in data and "games" not in data:
            data = dict(data)
            game = data.pop("game")
            data["games"] = tuple(part.strip() for part in str(game).split(",") if part.strip())
            secret_set = data.pop("secret_set", None)
            if secret_set is not None:
                if len(data["games"]) != 1:
                    raise ValueError("secret_set names one game's set; use secret_sets for several games")
                data["secret_sets"] = {data["games"][0]: secret_set}
        return data

    @field_validator("games")
    @classmethod
    def _distinct_games(cls, games: tuple[str, ...]) -> tuple[str, ...]:
        if not games:
            raise ValueError("at least one game is needed")
        if len(set(games)) != len(games):
            raise ValueError("a game is listed twice")
        return games

    @field_validator("models")
    @classmethod
    def _distinct(cls, models: tuple[str, ...]) -> tuple[str, ...]:
        if not models:
            raise ValueError("at least one model is needed")
        if len(set(models)) != len(models):
            raise ValueError("a model is listed twice")
        return models

    @model_validator(mode="after")
    def _keys_name_games(self) -> RunConfig:
        for what, keys in (("secret sets", self.secret_sets), ("options", self.options)):
            unknown = sorted(set(keys) - set(self.games))
            if unknown:
                raise ValueError(f"{what} given for games not in the run: {', '.join(unknown)}")
        if self.calibrations and not self.calibration:
            raise ValueError("calibrations are recorded only for a run with calibration on")
        if self.baseline_names and not self.baselines:
            raise ValueError("baseline names are recorded only for a run with baselines on")
        unknown = sorted(set(self.baseline_names) - set(self.games))
        if unknown:
            raise ValueError(f"baselines given for games not in the run: {', '.join(unknown)}")
        for game, names in self.baseline_names.items():
            if len(set(names)) != len(names):
                raise ValueError(f"{game} lists a baseline twice")
            both = [address for address in map(baseline_address, names) if address in self.models]
            if both:
                raise ValueError(f"{', '.join(both)} is both a model of the run and one of {game}'s baselines "
                                 "(--baselines adds it); list it once")
        return self

    def lineup(self, game: str) -> tuple[str, ...]:
        """The entries of ``game``'s lineups, in order: the run's models, then (with ``baselines``) one
        ``baseline/NAME`` per baseline the game declared. ``ConfigError`` when the run has baselines that were not
        looked up yet (:func:`with_baselines`): its plan is not known without them."""
        if not self.baselines:
            return self.models
        names = self.baseline_names.get(game)
        if names is None:
            raise ConfigError(f"the baselines of {game} have not been looked up (engine.plan.with_baselines)")
        return (*self.models, *map(baseline_address, names))

    def matches_per_game(self, game: str) -> int:
        """How many matches each game number holds of ``game``: one per lineup entry."""
        return len(self.lineup(game))

    @property
    def matches_per_number(self) -> int:
        """How many matches each game number holds (see the module's note on the schedule)."""
        return sum(self.matches_per_game(game) for game in self.games)

    @property
    def first_round_size(self) -> int:
        """How many matches the ``n`` game numbers hold."""
        return self.n * self.matches_per_number

    @property
    def size(self) -> int:
        """How many matches the run holds, without planning them (later rounds recorded so far included)."""
        return self.first_round_size + sum(self.allocated_size(entry) for entry in self.allocations)

    @property
    def allocations(self) -> tuple[Allocated, ...]:
        """The later rounds' game numbers, in play order (none without ``--until-separated``)."""
        return tuple(entry for round_ in self.until.rounds for entry in round_) if self.until else ()

    def allocated_size(self, entry: Allocated) -> int:
        """The matches one allocated game number holds: one per entry at a one-seat game, one rotation per entry at
        a table."""
        return len(entry.models)

    @property
    def label(self) -> str:
        """The games as one string, for titles and the store's ``runs.game`` column."""
        return ",".join(self.games)

    def role_binding(self, game: str, role: str) -> str | None:
        """The run's binding of a game's role (``game.role`` first, then ``role``), if it names one."""
        return self.roles.get(f"{game}.{role}", self.roles.get(role))

    def thresholds(self, game: str, addresses: Iterable[str]) -> dict[str, Thresholds]:
        """The recorded thresholds each of ``addresses`` decides its verdicts by in ``game``, by address."""
        found: dict[str, Thresholds] = {}
        for address in addresses:
            held = self.calibrations.get(address)
            if held is not None and game in held.games:
                found[address] = held.games[game]
        return found


@dataclass(frozen=True)
class PlannedMatch:
    """One match of a run. ``game_number`` is shared by all lineups of that number, so they meet the same setup;
    ``rotation`` numbers the lineups of one game number."""

    index: int
    game: str
    game_number: int
    rotation: int
    seed: int
    spec: MatchSpec
    seats: tuple[SeatAssignment, ...]
    roles: tuple[RoleAssignment, ...]

    @property
    def evaluated_models(self) -> tuple[str, ...]:
        """The models of the evaluated seats, each once, in seat order."""
        found: list[str] = []
        for seat in self.seats:
            if seat.evaluated and seat.model and seat.model not in found:
                found.append(seat.model)
        return tuple(found)

    @property
    def label(self) -> str:
        """The evaluated models, for progress lines."""
        return ",".join(self.evaluated_models) or "-"


def with_baselines(config: RunConfig, registry: GameRegistry) -> RunConfig:
    """``config`` with the baselines each of its games declares (``RunConfig.baseline_names``), when it has
    baselines on and they were not looked up yet; unchanged otherwise (a recorded run keeps what it recorded)."""
    if not config.baselines or set(config.baseline_names) == set(config.games):
        return config
    found = {name: tuple(info.name for info in game_baselines(registry.get(name))) for name in config.games}
    for game, names in found.items():
        both = [address for address in map(baseline_address, names) if address in config.models]
        if both:
            raise ConfigError(f"{', '.join(both)} is both a model of the run and one of {game}'s baselines, which "
                              "--baselines adds; leave it out of --models")
    return config.model_copy(update={"baseline_names": {**found, **config.baseline_names}})


def baseline_lines(config: RunConfig) -> list[str]:
    """What ``--baselines`` adds to each game's lineups, as a run's header says it: one line for the games that
    have baselines and one naming those that declare none (nothing without ``--baselines``)."""
    if not config.baselines:
        return []
    held = {game: names for game in config.games if (names := config.baseline_names.get(game))}
    lines = ["baselines on the same setups: " + "; ".join(f"{game}: {', '.join(names)}"
                                                          for game, names in held.items())] if held else []
    without = [game for game in config.games if game not in held]
    if without:
        lines.append(f"no baselines for {', '.join(without)} (the game declares none)")
    return lines


def match_spec(game: Game[Any], config: RunConfig, seed: int) -> MatchSpec:
    """The setup of one game number, from its seed: the same for every model and lineup."""
    options = check_options(game.id, game.options, config.options.get(game.id, {}))
    options.update(panel_options(game.roles, lambda role: config.role_binding(game.id, role)))
    return game.new_spec(config.level, seed, match_rng(seed), secret_set=config.secret_sets.get(game.id),
                         options=options or None)


def _seat(name: str, address: str, spec: MatchSpec, *, evaluated: bool) -> SeatAssignment:
    scripted = address == SCRIPTED
    return SeatAssignment(seat=name, player_kind="scripted" if scripted else "llm",
                          model=None if scripted else address, prompt_variant=spec.variants.get(name),
                          evaluated=evaluated)


def role_assignments(game: Game[Any], config: RunConfig, seats: Mapping[str, SeatAssignment],
                     default_model: str, *, spec: MatchSpec) -> tuple[RoleAssignment, ...]:
    """Each role's binding: the run's, else the game's default (``local``: ``default_model``; ``seat:NAME``:
    that seat's occupant, as a role). A panel role bound to several (``judge=A,B``) gets one assignment per
    member, ``judge`` and ``judge#2`` (``core.info.panel_member``), as ``match_spec`` told the game their number.

    A role whose asks carry a hidden part a seat may not see is never bound to that seat (``ConfigError``,
    :func:`playeval.core.hidden.check_role_seat`, against the match ``spec``): batch runs, the terminal and the
    arena all bind roles here, so none of them shows a seat's holder what the seat hides from them."""
    found: list[RoleAssignment] = []
    for info in game.roles:
        members = binding_members(config.role_binding(game.id, info.name) or info.default)
        if not members:
            raise ConfigError(f"{game.id}: role {info.name} is bound to nothing")
        if len(members) > 1 and info.panel_option is None:
            raise ConfigError(f"{game.id}: role {info.name} takes one model, not {len(members)}; only a panel role "
                              "(such as undercover's judge) takes several")
        for index, binding in enumerate(members):
            name = panel_member(info.name, index)
            if binding.startswith(SEAT_BINDING):
                seat = binding.removeprefix(SEAT_BINDING)
                held = seats.get(seat)
                if held is None:
                    raise ConfigError(f"{game.id}: role {info.name} is bound to seat {seat!r}, which the game lacks")
                check_role_seat(game, spec, name, seat)
                found.append(RoleAssignment(role=name, player_kind=held.player_kind, model=held.model, seat=seat))
            elif binding == SCRIPTED:
                found.append(RoleAssignment(role=name, player_kind="scripted"))
            else:
                model = default_model if binding == LOCAL else binding
                found.append(RoleAssignment(role=name, player_kind="llm", model=model))
    return tuple(found)


def _lineups(game: Game[Any], config: RunConfig, spec: MatchSpec, number: int) -> list[dict[str, str]]:
    table = game.table(spec)
    evaluated = [seat.name for seat in table if seat.evaluated]
    others = {seat.name: config.opponent for seat in table if not seat.evaluated}
    entries = config.lineup(game.id)
    if len(evaluated) <= 1:
        return [{**{name: entry for name in evaluated}, **others} for entry in entries]
    order = list(entries)  # without baselines, the models alone: the same shuffle as before baselines existed
    random.Random(derive_seed(config.seed, game.id, config.level, number, "lineup")).shuffle(order)
    k = len(order)
    return [{**{name: order[(j + r) % k] for j, name in enumerate(evaluated)}, **others} for r in range(k)]


def iter_plan(config: RunConfig, registry: GameRegistry, default_model: str,
              numbers: Iterable[int] | None = None) -> Iterator[PlannedMatch]:
    """The run's matches in play order, each planned when it is taken (see the module's note on the schedule);
    only those of the game numbers ``numbers`` (ascending; default: all)."""
    config = with_baselines(config, registry)
    games = {name: registry.get(name) for name in config.games}
    per_number = config.matches_per_number
    for number in range(config.n) if numbers is None else numbers:
        index = number * per_number
        for name, game in games.items():
            seed = derive_seed(config.seed, name, config.level, number)
            spec = match_spec(game, config, seed)
            evaluated = {seat.name for seat in game.table(spec) if seat.evaluated}
            for rotation, lineup in enumerate(_lineups(game, config, spec, number)):
                seats = {seat.name: _seat(seat.name, lineup[seat.name], spec, evaluated=seat.name in evaluated)
                         for seat in game.table(spec)}
                roles = role_assignments(game, config, seats, default_model, spec=spec)
                calibrated = with_thresholds(spec, config.thresholds(name, match_models(seats.values(), roles)))
                yield PlannedMatch(index=index, game=name, game_number=number, rotation=rotation, seed=seed,
                                   spec=calibrated, seats=tuple(seats.values()), roles=roles)
                index += 1


def iter_allocated(config: RunConfig, registry: GameRegistry, default_model: str,
                   skip: Iterable[int] = ()) -> Iterator[PlannedMatch]:
    """The later rounds' matches (``RunConfig.until``), indexed after the first round's, in play order; an
    allocated game number all of whose indexes are in ``skip`` is not planned."""
    config = with_baselines(config, registry)
    done = set(skip)
    index = config.first_round_size
    for entry in config.allocations:
        size = config.allocated_size(entry)
        if all(i in done for i in range(index, index + size)):
            index += size
            continue
        game = registry.get(entry.game)
        seed = derive_seed(config.seed, entry.game, config.level, entry.number)
        spec = match_spec(game, config, seed)
        evaluated = {seat.name for seat in game.table(spec) if seat.evaluated}
        table_config = config.model_copy(update={"models": entry.models, "baselines": False, "baseline_names": {}})
        for rotation, lineup in enumerate(_lineups(game, table_config, spec, entry.number)):
            seats = {seat.name: _seat(seat.name, lineup[seat.name], spec, evaluated=seat.name in evaluated)
                     for seat in game.table(spec)}
            roles = role_assignments(game, config, seats, default_model, spec=spec)
            calibrated = with_thresholds(spec, config.thresholds(entry.game, match_models(seats.values(), roles)))
            yield PlannedMatch(index=index, game=entry.game, game_number=entry.number, rotation=rotation, seed=seed,
                               spec=calibrated, seats=tuple(seats.values()), roles=roles)
            index += 1


def plan_matches(config: RunConfig, registry: GameRegistry, default_model: str) -> list[PlannedMatch]:
    """Every match of the run, in play order, as a list (mind ``n``: :func:`iter_plan` plans as it goes); later
    rounds recorded so far included."""
    return [*iter_plan(config, registry, default_model), *iter_allocated(config, registry, default_model)]


def first_matches(config: RunConfig, registry: GameRegistry, default_model: str) -> list[PlannedMatch]:
    """The matches of game number 0: every game's setup and every model, role and option the run uses, planned
    (so a bad option or an unknown model fails before a run is recorded) without planning the rest."""
    return list(iter_plan(config, registry, default_model, numbers=range(1)))
