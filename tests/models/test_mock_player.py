"""``mock/player`` holds every seat of the built-in games and plays each match to a rules-made end; a game it was
not written for it plays through the game's scripted players."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Sequence
from typing import Any, ClassVar

import pytest

from playeval.core import (
    Action,
    Ask,
    ConfigError,
    GameBase,
    LevelInfo,
    MatchSpec,
    Outcome,
    Presentation,
    Reply,
    RuleViolation,
    SeatInfo,
)
from playeval.core.ask import OutputConstraint
from playeval.core.events import ActionApplied, ReplyRejected, SeatAssignment
from playeval.core.messages import system, user
from playeval.core.registry import default_registry
from playeval.core.rng import match_rng
from playeval.core.scripted import MatchContext
from playeval.engine import MemoryRecorder, build_players, play_match
from playeval.games import BUILTIN_GAMES
from playeval.games.akinator.rules import _guess_grammar
from playeval.games.bluffing.parsing import move_grammar
from playeval.models import Model, ModelError, ModelHub, ModelRequest, ProviderResult
from playeval.models.cache import request_key
from playeval.models.providers.mock_player import WRITTEN_FOR, mock_player_reply, player_reply
from playeval.players import LLMPlayer, Player

CASES = [("akinator", 1), ("akinator", 3), ("taboo", 1), ("taboo", 2), ("taboo", 3), ("bluffing", 1)]


@pytest.mark.parametrize(("game_id", "level"), CASES)
async def test_mock_player_finishes_a_match_in_every_seat(game_id: str, level: int) -> None:
    game = default_registry().get(game_id)
    for seed in range(4):
        spec = game.new_spec(level, seed, match_rng(seed))
        recorder = MemoryRecorder()
        async with ModelHub(use_cache=False) as hub:
            parties = [seat.name for seat in game.seats] + [role.name for role in game.roles]
            players: dict[str, Player | None] = {party: LLMPlayer(hub.get("mock/player"), seed=seed, max_retries=0)
                                                 for party in parties}
            match_id = recorder.create_match(spec=spec, seats=[
                SeatAssignment(seat=seat.name, player_kind="llm", model="mock/player") for seat in game.seats])
            outcome = await play_match(game, spec, players, recorder, match_id)
        # max_retries=0: a single refused reply would have forfeited the match
        assert outcome.status == "finished", outcome.reason
        assert outcome.winner in {seat.name for seat in game.seats}
        assert not [e for e in recorder.events[match_id] if isinstance(e, ReplyRejected)]


def test_mock_player_is_deterministic_and_follows_the_protocol() -> None:
    from playeval.core.messages import user

    guesser = ModelRequest(messages=(system("s"), user("go")),
                           constraint=OutputConstraint(grammar=_guess_grammar(4)))
    assert player_reply(guesser) == "This is a guess -- are you thinking of cat?"
    assert player_reply(guesser) == player_reply(guesser)
    first = ModelRequest(messages=(system("s"),), constraint=OutputConstraint(grammar=_guess_grammar(1)))
    assert player_reply(first).startswith("Question 1: ")
    verdict = ModelRequest(messages=(system("s"),), constraint=OutputConstraint(grammar=move_grammar(3)))
    assert player_reply(verdict) == "I believe your statement is: True"


async def test_mock_player_waits_for_the_configured_delay(monkeypatch: pytest.MonkeyPatch) -> None:
    request = ModelRequest(messages=(user("Question 1: Is it alive?"),))
    async with ModelHub(use_cache=False) as hub:
        model = hub.get("mock/player")
        started = time.monotonic()
        await model.generate(request)
        assert time.monotonic() - started < 0.2
        monkeypatch.setenv("PLAYEVAL_MOCK_DELAY", "0.3")
        started = time.monotonic()
        await model.generate(request)
        assert time.monotonic() - started >= 0.3


class _Echo(GameBase):
    """A plugin-style game of free-text moves: the speaker must say back each word it is shown (no constraint
    tells a model what to say); a judge role, which has no scripted player, may be bound too."""

    id: ClassVar[str] = "echo"
    title: ClassVar[str] = "Echo"
    seats: ClassVar[tuple[SeatInfo, ...]] = (SeatInfo(name="speaker", role="says each word back", evaluated=True),)
    levels: ClassVar[tuple[LevelInfo, ...]] = (LevelInfo(level=1, description="three words"),)
    presentation: ClassVar[Presentation] = Presentation(name="Echo", tagline="Say it back.", pitch="", how=())

    def new_spec(self, level: int, seed: int, rng: random.Random, **_: Any) -> MatchSpec:
        return MatchSpec(game=self.id, level=level, seed=seed,
                         setup={"words": rng.sample(["heron", "quartz", "meadow", "lantern", "pebble"], 3)})

    def initial_state(self, spec: MatchSpec) -> tuple[MatchSpec, tuple[str, ...]]:
        return spec, ()

    def next_ask(self, state: tuple[MatchSpec, tuple[str, ...]]) -> Ask:
        spec, said = state
        word = spec.setup["words"][len(said)]
        return Ask(seat="speaker", kind="say", display=f"Say: {word}", instructions="Say the word back.",
                   messages=(system("Say back the word you are shown, and nothing else."), user(f"The word: {word}")))

    def parse(self, state: Any, ask: Ask, text: str) -> Action:
        return Action(seat="speaker", kind="say", text=text.strip())

    def apply(self, state: tuple[MatchSpec, tuple[str, ...]], action: Action) -> tuple[MatchSpec, tuple[str, ...]]:
        spec, said = state
        if action.text != spec.setup["words"][len(said)]:
            raise RuleViolation(f"say {spec.setup['words'][len(said)]!r}, not {action.text!r}.")
        return spec, (*said, action.text)

    def outcome(self, state: tuple[MatchSpec, tuple[str, ...]]) -> Outcome | None:
        done = len(state[1]) == len(state[0].setup["words"])
        return Outcome(status="finished", winners=("speaker",), reason="every word said", rounds=3) if done else None

    def rounds(self, state: tuple[MatchSpec, tuple[str, ...]]) -> int:
        return len(state[1])

    def transcript(self, state: tuple[MatchSpec, tuple[str, ...]]) -> Sequence[tuple[str, str]]:
        return [("speaker", word) for word in state[1]]

    def scripted_player(self, party: str, spec: MatchSpec) -> Any:
        if party != "speaker":
            raise ConfigError(f"echo has no scripted {party}")
        return _Echoer()


class _Echoer:
    kind = "scripted"
    model: str | None = None
    max_retries = 0

    async def act(self, ask: Ask) -> Reply:
        return Reply(text=ask.display.removeprefix("Say: "))


async def test_mock_player_plays_a_plugin_of_free_text_moves_through_its_scripted_player() -> None:
    game = _Echo()
    spec = game.new_spec(1, 3, match_rng(3))
    recorder = MemoryRecorder()
    match_id = recorder.create_match(spec=spec, seats=[SeatAssignment(seat="speaker", player_kind="llm",
                                                                       model="mock/player")])
    async with ModelHub(use_cache=False) as hub:
        players = build_players(game, spec, [SeatAssignment(seat="speaker", player_kind="llm", model="mock/player",
                                                            evaluated=True)], [], hub.get, people={}, max_retries=0)
        outcome = await play_match(game, spec, players, recorder, match_id)
    assert outcome.status == "finished", outcome.reason
    said = [e.action.text for e in recorder.events[match_id] if isinstance(e, ActionApplied)]
    assert said == list(spec.setup["words"])


async def test_a_request_names_its_ask_for_a_mock_only() -> None:
    game = _Echo()
    spec = game.new_spec(1, 0, match_rng(0))
    ask = game.next_ask(game.initial_state(spec))
    bare = ModelRequest(messages=ask.messages)
    named = ModelRequest(messages=ask.messages, origin=MatchContext(game=game, spec=spec).origin(ask))
    assert request_key("mock/player", bare) == request_key("mock/player", named)  # the cache's key ignores it
    assert "origin" not in named.model_dump()
    assert player_reply(named) == player_reply(bare)  # the written replies read the messages alone
    assert await mock_player_reply(named) == spec.setup["words"][0]
    judge = ask.model_copy(update={"seat": None, "role": "judge"})
    no_script = ModelRequest(messages=ask.messages, origin=MatchContext(game=game, spec=spec).origin(judge))
    with pytest.raises(ModelError, match="echo through its scripted players, and it has none for judge"):
        await mock_player_reply(no_script)


class _Listening:
    """A provider that keeps the requests it is sent (as a real backend would see them)."""

    name = "listening"
    max_concurrency = 1

    def __init__(self) -> None:
        self.requests: list[ModelRequest] = []

    async def generate(self, model_name: str, request: ModelRequest) -> ProviderResult:
        self.requests.append(request)
        return ProviderResult(text="heron")

    async def aclose(self) -> None:
        return None


async def test_only_a_provider_that_reads_the_origin_is_handed_it() -> None:
    game = _Echo()
    spec = game.new_spec(1, 0, match_rng(0))
    ask = game.next_ask(game.initial_state(spec))
    match = MatchContext(game=game, spec=spec)
    listening = _Listening()
    model = Model("listening/x", listening, "x", cache=None, limiter=asyncio.Semaphore(1))
    await LLMPlayer(model, seed=0, match=match).act(ask)
    assert listening.requests[0].origin is None and not model.reads_origin  # the spec holds the secrets
    async with ModelHub(use_cache=False) as hub:
        mock = hub.get("mock/player")
        assert mock.reads_origin
        reply = await LLMPlayer(mock, seed=0, match=match).act(ask)
    assert reply.text == spec.setup["words"][0]


def test_the_written_replies_cover_exactly_the_built_in_games() -> None:
    assert {cls.id for cls in BUILTIN_GAMES} == WRITTEN_FOR
