"""Running many matches: scheduling, persistence as it happens, and resume."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from playeval.core.errors import NotFoundError, PlayevalError
from playeval.core.events import SeatAssignment
from playeval.core.game import Game, evaluated_seat
from playeval.core.match import MatchSpec, Outcome
from playeval.core.registry import GameRegistry
from playeval.core.rng import match_rng
from playeval.engine.match import play_match
from playeval.engine.plan import SCRIPTED, PlannedMatch, RunConfig, plan_matches
from playeval.models import Model, ModelHub
from playeval.players.base import Player
from playeval.players.llm import DEFAULT_MAX_RETRIES, LLMPlayer
from playeval.store import MatchRecord, Store

OnMatch = Callable[[PlannedMatch, Outcome], None]

OPPONENT_RETRY_TEMPERATURE = 0.8
"""Least sampling temperature of a simulated person's re-ask (see ``LLMPlayer``); seeded, so reruns repeat."""


class RunInterrupted(PlayevalError):
    """A run stopped before its end; it can be finished with ``--resume``."""

    def __init__(self, run_id: str, cause: BaseException) -> None:
        super().__init__(f"run {run_id} stopped: {cause}. Finish it with: playeval run --resume {run_id}")
        self.run_id = run_id


def model_player(game: Game[Any], seat: str, model: Model, *, seed: int, temperature: float = 0.0,
                 max_retries: int = DEFAULT_MAX_RETRIES) -> LLMPlayer:
    """A model in ``seat``. The evaluated seat keeps the run's settings on re-asks; any other seat (a simulated
    person) re-asks with fresh, sampled tries (``OPPONENT_RETRY_TEMPERATURE``), since greedy decoding repeats
    the refused reply word for word."""
    retry_temperature = None if seat == evaluated_seat(game) else OPPONENT_RETRY_TEMPERATURE
    return LLMPlayer(model, seed=seed, temperature=temperature, max_retries=max_retries,
                     retry_temperature=retry_temperature)


def build_players(game: Game[Any], spec: MatchSpec, config: RunConfig, model: str, hub: ModelHub,
                  seed: int) -> dict[str, Player]:
    """The evaluated seat gets ``model``; every other seat gets the opponent (a model or ``scripted``)."""
    target = evaluated_seat(game)
    players: dict[str, Player] = {}
    for seat in game.seats:
        address = model if seat.name == target else config.opponent
        if address == SCRIPTED:
            players[seat.name] = game.scripted_player(seat.name, spec)
        else:
            players[seat.name] = model_player(game, seat.name, hub.get(address), seed=seed,
                                              temperature=config.temperature, max_retries=config.max_retries)
    return players


def seat_assignments(spec: MatchSpec, players: dict[str, Player]) -> list[SeatAssignment]:
    return [
        SeatAssignment(seat=seat, player_kind=player.kind, model=player.model, prompt_variant=spec.variants.get(seat))
        for seat, player in players.items()
    ]


def create_run(store: Store, registry: GameRegistry, config: RunConfig) -> str:
    """Check the config against the games and record a new run."""
    for name in config.games:
        game = registry.get(name)
        if config.level not in {level.level for level in game.levels}:
            levels = ", ".join(str(level.level) for level in game.levels)
            raise PlayevalError(f"{name} has levels {levels}, not {config.level}")
    return store.create_run(config.label, config.level, config.model_dump(mode="json"))


def run_config(store: Store, run_id: str) -> RunConfig:
    return RunConfig.model_validate(store.get_run(run_id).config)


def pending_matches(store: Store, run_id: str) -> list[PlannedMatch]:
    """The planned matches of a run that have not finished."""
    done = {m.match_index for m in store.run_matches(run_id) if m.status == "finished"}
    return [planned for planned in plan_matches(run_config(store, run_id)) if planned.index not in done]


class BatchRunner:
    """Plays a run's planned matches with bounded concurrency, recording each as it happens."""

    def __init__(self, store: Store, hub: ModelHub, registry: GameRegistry) -> None:
        self._store = store
        self._hub = hub
        self._registry = registry

    async def run(self, run_id: str, on_match: OnMatch | None = None) -> None:
        """Play every match of ``run_id`` not yet finished (a fresh run, or one being resumed)."""
        config = run_config(self._store, run_id)
        existing = {m.match_index: m for m in self._store.run_matches(run_id)}
        gate = asyncio.Semaphore(config.concurrency)
        self._store.set_run_status(run_id, "running")

        async def one(planned: PlannedMatch) -> None:
            async with gate:
                game = self._registry.get(planned.game)
                outcome = await self._play(game, config, run_id, planned, existing.get(planned.index))
            if on_match is not None:
                on_match(planned, outcome)

        tasks = [asyncio.create_task(one(planned)) for planned in pending_matches(self._store, run_id)]
        try:
            await asyncio.gather(*tasks)
        except BaseException as err:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            self._store.set_run_status(run_id, "interrupted")
            if isinstance(err, (KeyboardInterrupt, asyncio.CancelledError)):
                raise
            raise RunInterrupted(run_id, err) from err
        self._store.set_run_status(run_id, "finished")

    async def _play(self, game: Game[Any], config: RunConfig, run_id: str, planned: PlannedMatch,
                    record: MatchRecord | None) -> Outcome:
        if record is None:
            spec = game.new_spec(config.level, planned.seed, match_rng(planned.seed),
                                 secret_set=config.secret_sets.get(planned.game))
            players = build_players(game, spec, config, planned.model, self._hub, planned.seed)
            match_id = self._store.create_match(spec=spec, seats=seat_assignments(spec, players), run_id=run_id,
                                                match_index=planned.index, evaluated_model=planned.model)
            return await play_match(game, spec, players, self._store, match_id)
        if record.status == "finished" and record.outcome is not None:
            return record.outcome
        players = build_players(game, record.spec, config, planned.model, self._hub, planned.seed)
        events = self._store.events(record.id)
        return await play_match(game, record.spec, players, self._store, record.id, prior_events=events)


def require_run(store: Store, run_id: str | None) -> str:
    """The given run id, or the latest run's; a clear error when there is none."""
    if run_id:
        store.get_run(run_id)
        return run_id
    latest = store.latest_run_id()
    if latest is None:
        raise NotFoundError("no runs recorded yet; start one with: playeval run GAME --models ...")
    return latest
