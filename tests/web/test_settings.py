"""Arena settings from code and from the environment, and the app failing early on a model it cannot serve."""

from __future__ import annotations

from pathlib import Path

import pytest
from arena_client import make_settings, running
from pydantic import ValidationError

from playeval.models import DEFAULT_MODEL, UnknownModel
from playeval.web import ArenaSettings


def test_settings_from_the_environment() -> None:
    settings = ArenaSettings.from_env({"PLAYEVAL_DB": "sqlite:////tmp/a.db",
                                       "PLAYEVAL_ARENA_MODELS": " mock/player, mock/echo ,,mock/player",
                                       "PLAYEVAL_ARENA_NO_CACHE": "1"})
    assert settings.db == "sqlite:////tmp/a.db" and settings.use_cache is False
    assert settings.models == ("mock/player", "mock/echo") and settings.default_model == "mock/player"
    defaults = ArenaSettings.from_env({})
    assert defaults.db is None and defaults.models == (DEFAULT_MODEL,) and defaults.use_cache is True


def test_settings_refuse_nonsense() -> None:
    with pytest.raises(ValidationError, match="at least one model"):
        ArenaSettings(models=(" ",))
    with pytest.raises(ValidationError, match="poll_s must be shorter"):
        ArenaSettings(poll_s=5, lease_s=1)
    with pytest.raises(ValidationError):
        ArenaSettings(max_body_bytes=10)
    with pytest.raises(ValidationError):
        ArenaSettings(colour="blue")  # type: ignore[call-arg]


async def test_an_unknown_model_stops_the_app_at_start_up(tmp_path: Path) -> None:
    with pytest.raises(UnknownModel, match="mock/nope"):
        async with running(make_settings(tmp_path, models=("mock/player", "mock/nope"))):
            pass


async def test_models_and_games_are_listed(tmp_path: Path) -> None:
    async with running(make_settings(tmp_path, models=("mock/player", "mock/echo"))) as client:
        assert (await client.get("/api/models")).json() == {"models": ["mock/player", "mock/echo"],
                                                            "default": "mock/player"}
        games = {game["id"]: game for game in (await client.get("/api/games")).json()}
    assert set(games) == {"akinator", "taboo", "bluffing"}
    assert games["taboo"]["max_clue_chars"] == 140 and games["akinator"]["max_clue_chars"] is None
    assert games["akinator"]["person_seat"] == "answerer"
    assert [item["key"] for item in games["bluffing"]["person_inputs"]] == ["statement", "secret"]
    assert games["bluffing"]["person_inputs"][1]["choices"] == ["true", "false"]
    assert games["bluffing"]["person_inputs"][1]["hidden"] is True
    assert [seat["seat"] for seat in games["taboo"]["seats"]] == ["guesser", "clue_giver"]
    assert [level["level"] for level in games["akinator"]["levels"]] == [1, 2, 3]
