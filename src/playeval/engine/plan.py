"""What a batch run consists of: its configuration and the list of matches it implies."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from playeval.core.rng import derive_seed

SCRIPTED = "scripted"


class RunConfig(BaseModel):
    """A batch run of one or more games. Stored with the run, so ``--resume`` rebuilds exactly the same plan.

    ``secret_sets`` maps a game to its named set of secrets (a game not named uses its default).
    Runs recorded before multi-game runs stored ``game`` and ``secret_set``; they still load.
    """

    model_config = ConfigDict(frozen=True)

    games: tuple[str, ...]
    level: int = 1
    models: tuple[str, ...]
    opponent: str
    n: int = Field(ge=1)
    seed: int = 0
    concurrency: int = Field(default=1, ge=1)
    secret_sets: dict[str, str] = Field(default_factory=dict)
    temperature: float = Field(default=0.0, ge=0.0, le=2.0)
    max_retries: int = Field(default=2, ge=0)

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

    @model_validator(mode="after")
    def _sets_name_games(self) -> RunConfig:
        unknown = sorted(set(self.secret_sets) - set(self.games))
        if unknown:
            raise ValueError(f"secret sets given for games not in the run: {', '.join(unknown)}")
        return self

    @property
    def label(self) -> str:
        """The games as one string, for titles and the store's ``runs.game`` column."""
        return ",".join(self.games)

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
    game: str
    model: str
    game_number: int
    seed: int


def plan_matches(config: RunConfig) -> list[PlannedMatch]:
    """Matches interleaved by game number, then game, so a partial run covers every game and model evenly.

    The seed depends on the game and its number, not on the model or the position in the plan: every
    model meets the same secrets and prompt variants, and a single-game run keeps the seeds it always had.
    """
    planned: list[PlannedMatch] = []
    for number in range(config.n):
        for game in config.games:
            seed = derive_seed(config.seed, game, config.level, number)
            for model in config.models:
                planned.append(PlannedMatch(index=len(planned), game=game, model=model, game_number=number,
                                            seed=seed))
    return planned
