"""Mock models for tests: ``mock/echo``, ``mock/garbage``, ``mock/slow``, ``mock/yes``, ``mock/player``, scripted ones,
simulated endpoints ``mock/sim?latency=0.1&errors=0.2...`` (``mock/player`` with latency and faults; see ``sim``),
and simulated players of known skill ``mock/skill?p=0.8&seed=1`` (see ``skill``).

``mock/skill?p=P&seed=S`` plays any game at a known skill: for each request a draw, seeded by ``S``, the match's
seed, the ask's party, kind and attempt and the messages the party was shown, picks the move of the game's
scripted player (its strong policy) with probability ``P``, else the move of the game's ``random`` baseline.
``P`` is a number in [0, 1] and is required; ``S`` an integer, 0 when left out; anything else is refused before a
run starts. The leaderboard's validity test plays such players, whose true order is known.

``mock/player`` plays every seat and role of every game deterministically (``mock_player``: a game it was not
written for, such as a plugin, through the game's own scripted players); it waits
``PLAYEVAL_MOCK_DELAY`` seconds per reply when that is set (default: no wait), like ``mock/slow`` does.

A mock returns exactly what it is scripted to, ignoring output constraints,
so tests can exercise the parsers' error paths. Mock replies are never
cached (``cacheable = False``): a scripted list must be consumed the same
way on every run.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TypeAlias

from playeval.models.errors import ModelError, UnknownModel
from playeval.models.providers.mock_player import mock_player_reply
from playeval.models.providers.sim import SimEndpoint, is_sim, parse_sim
from playeval.models.providers.skill import SkillSettings, is_skill, parse_skill, skill_reply
from playeval.models.types import ModelRequest, ProviderResult

MockScript: TypeAlias = Callable[[ModelRequest], str | ProviderResult] | Sequence[str]
"""A function from request to reply, or a list of replies consumed in order (never cycled). A function may
return a whole ``ProviderResult`` to script more than the text (a judge's answer probabilities)."""

GARBAGE = "~~ not a move ~~"
BUILTIN_MOCKS: tuple[str, ...] = ("echo", "garbage", "player", "slow", "yes")
_DEFAULT_DELAY_S = 0.2


def _last_user_message(request: ModelRequest) -> str:
    for message in reversed(request.messages):
        if message.role == "user":
            return message.content
    return ""


def _words(text: str) -> int:
    return len(text.split())


class _ScriptedReplies:
    """A list of replies handed out one at a time."""

    def __init__(self, name: str, replies: Sequence[str]) -> None:
        self._name = name
        self._total = len(replies)
        self._replies: Iterator[str] = iter(tuple(replies))

    def __call__(self, request: ModelRequest) -> str:
        try:
            return next(self._replies)
        except StopIteration:
            raise ModelError(f"mock/{self._name}: script exhausted after {self._total} replies") from None


class MockProvider:
    name = "mock"
    max_concurrency = 1024
    """High enough that a simulated endpoint is never held back by the hub at any sensible ``--concurrency``."""
    timeout_s = 30.0
    cacheable = False
    reads_origin = True
    """``mock/player`` plays a game it was not written for through the request's origin (see ``mock_player``), and
    ``mock/skill`` every game through it (see ``skill``)."""

    def __init__(self, scripts: Mapping[str, MockScript] | None = None) -> None:
        self._scripts: dict[str, Callable[[ModelRequest], str | ProviderResult]] = {}
        self._sims: dict[str, SimEndpoint] = {}
        self._skills: dict[str, SkillSettings] = {}
        for script_name, script in (scripts or {}).items():
            if isinstance(script, str):
                raise TypeError(f"mock script {script_name!r}: give a list of replies or a function, not a string")
            if callable(script):
                self._scripts[script_name] = script
            else:
                self._scripts[script_name] = _ScriptedReplies(script_name, script)

    def known_models(self) -> tuple[str, ...]:
        return tuple(sorted({*BUILTIN_MOCKS, *self._scripts}))

    def check_model(self, model_name: str) -> None:
        if model_name not in self._scripts and is_sim(model_name):
            self._sim(model_name)
            return
        if model_name not in self._scripts and is_skill(model_name):
            self._skill(model_name)
            return
        if model_name not in self._scripts and model_name not in BUILTIN_MOCKS:
            names = ", ".join(f"mock/{n}" for n in self.known_models())
            raise UnknownModel(f"unknown mock model mock/{model_name}; known: {names}, mock/sim?latency=SECONDS&..., "
                               "mock/skill?p=P&seed=S")

    async def generate(self, model_name: str, request: ModelRequest) -> ProviderResult:
        self.check_model(model_name)
        reply = await self._reply(model_name, request)
        if isinstance(reply, ProviderResult):
            return reply
        prompt_tokens = sum(_words(m.content) for m in request.messages)
        return ProviderResult(text=reply, prompt_tokens=prompt_tokens, completion_tokens=_words(reply))

    async def _reply(self, model_name: str, request: ModelRequest) -> str | ProviderResult:
        script = self._scripts.get(model_name)
        if script is not None:
            return script(request)
        if is_sim(model_name):
            return await self._sim(model_name).reply(request)
        if is_skill(model_name):
            return await skill_reply(f"mock/{model_name}", self._skill(model_name), request)
        if model_name == "garbage":
            return GARBAGE
        if model_name == "yes":
            return "Yes"
        if model_name == "slow":
            await asyncio.sleep(_mock_delay())
        if model_name == "player":
            delay = _mock_delay(default=0.0)
            if delay:
                await asyncio.sleep(delay)
            return await mock_player_reply(request)
        return _last_user_message(request)

    def _sim(self, model_name: str) -> SimEndpoint:
        """The endpoint of ``mock/<model_name>``, parsed (and checked) on first use."""
        endpoint = self._sims.get(model_name)
        if endpoint is None:
            endpoint = SimEndpoint(f"mock/{model_name}", parse_sim(model_name))
            self._sims[model_name] = endpoint
        return endpoint

    def _skill(self, model_name: str) -> SkillSettings:
        """The skill of ``mock/<model_name>``, parsed (and checked) on first use."""
        settings = self._skills.get(model_name)
        if settings is None:
            settings = parse_skill(model_name)
            self._skills[model_name] = settings
        return settings

    async def aclose(self) -> None:
        return None


def _mock_delay(default: float = _DEFAULT_DELAY_S) -> float:
    raw = os.environ.get("PLAYEVAL_MOCK_DELAY")
    if raw is None or not raw.strip():
        return default
    try:
        return max(0.0, float(raw))
    except ValueError:
        raise ModelError(f"PLAYEVAL_MOCK_DELAY must be a number of seconds, not {raw!r}") from None
