"""Arena settings from code and from the environment, the app failing early on a model it cannot serve, and the
games listed as they declare themselves."""

from __future__ import annotations

import statistics
from pathlib import Path

import pytest
from arena_client import make_settings, running, wait_view
from pydantic import ValidationError

from playeval.core.registry import default_registry
from playeval.models import DEFAULT_MODEL, UnknownModel
from playeval.store import Store
from playeval.web import ArenaSettings
from playeval.web.timings import POOLED


def test_settings_from_the_environment() -> None:
    settings = ArenaSettings.from_env({"PLAYEVAL_DB": "sqlite:////tmp/a.db",
                                       "PLAYEVAL_ARENA_MODELS": " mock/player, mock/echo ,,mock/player",
                                       "PLAYEVAL_ARENA_NO_CACHE": "1", "PLAYEVAL_ARENA_JOIN_TIMEOUT_S": "90",
                                       "PLAYEVAL_ARENA_TURN_TIMEOUT_S": " 45.5 ", "PLAYEVAL_ARENA_SWEEP_S": "2",
                                       "PLAYEVAL_ARENA_ROLE_MODEL": "mock/echo"})
    assert settings.db == "sqlite:////tmp/a.db" and settings.use_cache is False
    assert settings.models == ("mock/player", "mock/echo") and settings.default_model == "mock/player"
    assert (settings.join_timeout_s, settings.turn_timeout_s, settings.sweep_s) == (90.0, 45.5, 2.0)
    assert settings.role_model == "mock/echo" and settings.local_model == "mock/echo"
    defaults = ArenaSettings.from_env({})
    assert defaults.db is None and defaults.models == (DEFAULT_MODEL,) and defaults.use_cache is True
    assert (defaults.join_timeout_s, defaults.turn_timeout_s, defaults.sweep_s) == (600.0, 300.0, 5.0)
    assert defaults.local_model == DEFAULT_MODEL  # a role bound to "local" gets the local model when it is served
    assert ArenaSettings(models=("mock/player",)).local_model == "mock/player"  # else the arena's first model


def test_settings_refuse_nonsense() -> None:
    with pytest.raises(ValidationError, match="at least one model"):
        ArenaSettings(models=(" ",))
    with pytest.raises(ValidationError, match="poll_s must be shorter"):
        ArenaSettings(poll_s=5, lease_s=1)
    with pytest.raises(ValidationError):
        ArenaSettings(max_body_bytes=10)
    with pytest.raises(ValidationError):
        ArenaSettings(colour="blue")  # type: ignore[call-arg]
    with pytest.raises(ValidationError, match="role_model 'mock/echo' must be one of the models"):
        ArenaSettings(models=("mock/player",), role_model="mock/echo")
    for field in ("join_timeout_s", "turn_timeout_s", "sweep_s"):
        with pytest.raises(ValidationError):
            ArenaSettings.model_validate({field: 0})


async def test_an_unknown_model_stops_the_app_at_start_up(tmp_path: Path) -> None:
    with pytest.raises(UnknownModel, match="mock/nope"):
        async with running(make_settings(tmp_path, models=("mock/player", "mock/nope"))):
            pass


async def test_models_and_games_are_listed(tmp_path: Path) -> None:
    async with running(make_settings(tmp_path, models=("mock/player", "mock/echo"))) as client:
        unmeasured = [{"model": POOLED, "median_s": None, "moves": 0}]  # one figure for several models
        assert (await client.get("/api/models")).json() == {"models": ["mock/player", "mock/echo"],
                                                            "default": "mock/player", "timings": unmeasured}
        games = {game["id"]: game for game in (await client.get("/api/games")).json()}
    assert set(games) == set(default_registry().ids())
    assert games["akinator"]["person_seat"] == "answerer" and games["taboo"]["person_seat"] == "clue_giver"
    assert (games["akinator"]["name"], games["akinator"]["tagline"]) == ("Akinator",
                                                                        "You hold the secret; the model asks.")
    assert games["taboo"]["how"][0] == "The word appears once the game starts."
    assert games["akinator"]["person_inputs"] == [{
        "key": "secret", "prompt": "Your secret object (hidden, never shown to the model)", "seat": "answerer",
        "hidden": True, "choices": None, "required": False, "max_chars": 100}]
    assert [item["key"] for item in games["bluffing"]["person_inputs"]] == ["statement", "secret"]
    assert games["bluffing"]["person_inputs"][1]["choices"] == ["true", "false"]
    assert games["bluffing"]["person_inputs"][1]["hidden"] is True
    assert {item["seat"] for item in games["bluffing"]["person_inputs"]} == {"bluffer"}
    assert [seat["seat"] for seat in games["taboo"]["seats"]] == ["guesser", "clue_giver"]
    assert [(seat["evaluated"], seat["person"]) for seat in games["taboo"]["seats"]] == [(True, True), (False, True)]
    assert [role["role"] for role in games["akinator"]["roles"]] == ["judge"]
    assert games["taboo"]["roles"] == [] and [option["name"] for option in games["taboo"]["options"]] == ["scoring"]
    assert games["taboo"]["options"][0]["choices"] == ["paper", "guess"]
    assert [level["level"] for level in games["akinator"]["levels"]] == [1, 2, 3]
    # each game's baselines, as it declares them, and its held-out pair of secret sets
    assert [(item["name"], item["address"]) for item in games["taboo"]["baselines"]] == [
        ("random", "baseline/random"), ("passive", "baseline/passive"), ("naive", "baseline/naive")]
    assert games["bluffing"]["baselines"][1]["description"].startswith('says "True" at once')
    assert games["akinator"]["split_sets"] == ["set1", "set2-only"]
    assert games["undercover"]["split_sets"] == ["half1", "half2"]
    assert all(game["baselines"] and len(game["split_sets"]) == 2 for game in games.values())


def test_roles_are_bound_by_a_setting() -> None:
    settings = ArenaSettings.from_env({"PLAYEVAL_ARENA_MODELS": "mock/player",
                                       "PLAYEVAL_ARENA_ROLES": " judge=scripted , math.judge=mock/player,"})
    assert settings.roles == {"judge": "scripted", "math.judge": "mock/player"}
    for binding in ("local", "seat:player", "scripted", "mock/player"):
        assert ArenaSettings(models=("mock/player",), roles={"judge": binding}).roles == {"judge": binding}
    with pytest.raises(ValidationError, match="bind it to one of the models"):
        ArenaSettings(models=("mock/player",), roles={"judge": "mock/echo"})
    with pytest.raises(ValidationError, match=r"is not ROLE or GAME\.ROLE"):
        ArenaSettings(models=("mock/player",), roles={"a.b.c": "scripted"})
    with pytest.raises(ValueError, match="PLAYEVAL_ARENA_ROLES: expected ROLE=BINDING"):
        ArenaSettings.from_env({"PLAYEVAL_ARENA_ROLES": "judge"})


async def test_a_table_binds_its_roles_as_the_settings_say(tmp_path: Path) -> None:
    from playeval.store import Store

    settings = make_settings(tmp_path, roles={"math.judge": "scripted"})
    async with running(settings) as client:
        scripted = (await client.post("/api/matches", json={"game": "math"})).json()["id"]
        default = (await client.post("/api/matches", json={"game": "static_picnic"})).json()["id"]
        bad = await client.post("/api/matches", json={"game": "akinator", "inputs": {"secret": "a cat"}})
        assert bad.status_code == 201  # a binding for another game's role leaves this one alone
    with Store.open(settings.db or "") as store:
        judges = {match_id: next((r.player_kind, r.model) for r in store.get_match(match_id).roles
                                 if r.role == "judge") for match_id in (scripted, default)}
        assert judges == {scripted: ("scripted", None), default: ("llm", "mock/player")}


def test_a_panel_binding_in_the_environment_keeps_its_members() -> None:
    settings = ArenaSettings.from_env({"PLAYEVAL_ARENA_MODELS": "mock/player,mock/a",
                                       "PLAYEVAL_ARENA_ROLES": "judge=mock/player,mock/a,taboo.judge=scripted"})
    assert settings.roles == {"judge": "mock/player,mock/a", "taboo.judge": "scripted"}
    with pytest.raises(ValidationError, match="bind it to one of the models"):
        ArenaSettings.from_env({"PLAYEVAL_ARENA_MODELS": "mock/player", "PLAYEVAL_ARENA_ROLES": "judge=mock/player,x"})


async def test_a_model_s_move_time_is_the_median_of_what_this_server_measured(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The home page's figure comes from the stored calls of the model (a watched match here), never a constant;
    with one model offered it is that model's, "not yet measured" (``median_s`` null) before any call; with
    several, one figure pools them, so a model drawn at random cannot be told by its speed."""
    monkeypatch.setenv("PLAYEVAL_MOCK_DELAY", "0.05")
    async with running(make_settings(tmp_path, models=("mock/player",))) as client:
        before = (await client.get("/api/models")).json()["timings"]
        # both seats named: a seat left out gets a random served model
        seats = {seat.name: "mock/player" for seat in default_registry().get("taboo").seats}
        created = await client.post("/api/watch", json={"game": "taboo", "models": seats})
        assert created.status_code == 201, created.text
        await wait_view(client, created.json()["id"], {"finished"})
        timings = (await client.get("/api/models")).json()["timings"]
        home = await client.get("/")
    assert before == [{"model": "mock/player", "median_s": None, "moves": 0}]
    with Store.open(f"sqlite:///{tmp_path / 'arena.db'}") as store:
        stored = store.recent_latencies("mock/player")
    assert len(timings) == 1 and timings[0]["model"] == "mock/player"
    assert timings[0]["moves"] == len(stored) > 0 and timings[0]["median_s"] == round(statistics.median(stored), 3)
    assert timings[0]["median_s"] >= 0.05  # the mock's delay is part of each move
    assert 'id="speed"' in home.text and "/static/home.js" in home.text
    async with running(make_settings(tmp_path, models=("mock/player", "mock/echo"))) as client:
        pooled = (await client.get("/api/models")).json()["timings"]
    assert pooled == [{"model": POOLED, "median_s": round(statistics.median(stored), 3), "moves": len(stored)}]
