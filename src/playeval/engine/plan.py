"""What a batch run consists of: its configuration and the list of matches it implies."""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field, field_validator

from playeval.core.rng import derive_seed

SCRIPTED = "scripted"


class RunConfig(BaseModel):
    """A batch run. Stored with the run, so ``--resume`` rebuilds exactly the same plan."""

    model_config = ConfigDict(frozen=True)

    game: str
    level: int = 1
    models: tuple[str, ...]
    opponent: str
    n: int = Field(ge=1)
    seed: int = 0
    concurrency: int = Field(default=1, ge=1)
    secret_set: str | None = None
    temperature: float = Field(default=0.0, ge=0.0, le=2.0)
    max_retries: int = Field(default=2, ge=0)

    @field_validator("models")
    @classmethod
    def _distinct(cls, models: tuple[str, ...]) -> tuple[str, ...]:
        if not models:
            raise ValueError("at least one model is needed")
        if len(set(models)) != len(models):
            raise ValueError("a model is listed twice")
        return models


@dataclass(frozen=True)
class PlannedMatch:
    """One match of a run. ``game_number`` is shared by all models, so they meet the same secrets."""

    index: int
    model: str
    game_number: int
    seed: int


def plan_matches(config: RunConfig) -> list[PlannedMatch]:
    """Matches interleaved by game number, so a partial run covers every model evenly."""
    planned: list[PlannedMatch] = []
    for number in range(config.n):
        seed = derive_seed(config.seed, config.game, config.level, number)
        for model in config.models:
            planned.append(PlannedMatch(index=len(planned), model=model, game_number=number, seed=seed))
    return planned
