"""Small games that declare baseline players, for the tests of ``baseline/NAME``, ``mock/skill`` and ``--baselines``
(independent of the built-in games' own baselines).

``Pick``: one evaluated seat, the ``picker``, names the hidden number (1 to 5) in up to three tries, each told which
numbers were wrong; a ``host`` seat that never moves is the opponent's. Its scripted picker reads the secret (the
strong policy); its baselines are ``random`` (a number not yet tried, drawn by ``core.baselines.ask_rng``) and
``naive`` (the lowest number not yet tried).

``Trio``: a table of three evaluated seats that each name a number at once (one round); the seats that name the
hidden one win. Scripted: the secret; one baseline, ``random``.

``Plain``: ``Pick`` without baselines (a game written before they were).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from playeval.core import (
    Action,
    Ask,
    ConfigError,
    GameBase,
    LevelInfo,
    MatchSpec,
    Outcome,
    OutputConstraint,
    Presentation,
    Reply,
    RuleViolation,
    Scalar,
    SeatInfo,
)
from playeval.core.baselines import NAIVE, RANDOM, BaselineInfo, ask_rng
from playeval.core.match import SeatResult
from playeval.core.messages import system, user
from playeval.core.registry import GameRegistry

NUMBERS = ("1", "2", "3", "4", "5")
TRIES = 3


class _Player:
    kind = "scripted"
    model: str | None = None
    max_retries = 0


class SecretPicker(_Player):
    """The strong policy: names the secret (it may read the spec's hidden parts)."""

    def __init__(self, spec: MatchSpec) -> None:
        self._secret = str(spec.setup["secret"])

    async def act(self, ask: Ask) -> Reply:
        return Reply(text=self._secret)


class RandomPicker(_Player):
    """A legal number drawn at random from the ask alone."""

    def __init__(self, spec: MatchSpec) -> None:
        self._spec = spec

    async def act(self, ask: Ask) -> Reply:
        choices = ask.constraint.choices if ask.constraint and ask.constraint.choices else NUMBERS
        return Reply(text=ask_rng(self._spec, "baseline random", ask).choice(choices))


class LowestPicker(_Player):
    """The naive policy: the lowest number the ask still offers."""

    async def act(self, ask: Ask) -> Reply:
        choices = ask.constraint.choices if ask.constraint and ask.constraint.choices else NUMBERS
        return Reply(text=min(choices))


class Idle(_Player):
    async def act(self, ask: Ask) -> Reply:
        raise AssertionError("the host is never asked")


@dataclass(frozen=True)
class PickState:
    spec: MatchSpec
    tried: tuple[str, ...] = ()

    @property
    def found(self) -> bool:
        return str(self.spec.setup["secret"]) in self.tried


class Pick(GameBase):
    id: ClassVar[str] = "pick"
    title: ClassVar[str] = "Pick"
    seats: ClassVar[tuple[SeatInfo, ...]] = (SeatInfo(name="picker", role="names the number", evaluated=True),
                                             SeatInfo(name="host", role="holds the number"))
    levels: ClassVar[tuple[LevelInfo, ...]] = (LevelInfo(level=1, description="one to five"),)
    presentation: ClassVar[Presentation] = Presentation(name="Pick", tagline="Name it.", pitch="Name it.")
    baselines: ClassVar[tuple[BaselineInfo, ...]] = (
        BaselineInfo(name=RANDOM, description="names a number not yet tried, at random"),
        BaselineInfo(name=NAIVE, description="names the lowest number not yet tried"),
    )

    def new_spec(self, level: int, seed: int, rng: random.Random, *, inputs: Mapping[str, str] | None = None,
                 secret_set: str | None = None, options: Mapping[str, Scalar] | None = None) -> MatchSpec:
        return MatchSpec(game=self.id, level=level, seed=seed, setup={"secret": rng.choice(NUMBERS)},
                         variants={"picker": rng.randrange(4)})

    def initial_state(self, spec: MatchSpec) -> PickState:
        return PickState(spec=spec)

    def next_ask(self, state: PickState) -> Ask:
        left = tuple(number for number in NUMBERS if number not in state.tried)
        wrong = [user(f"Not {number}.") for number in state.tried]
        return Ask(seat="picker", kind="pick", display="Name a number.", instructions="One of 1 to 5.",
                   messages=(system("Name the hidden number from 1 to 5."), *wrong),
                   constraint=OutputConstraint(choices=left))

    def parse(self, state: PickState, ask: Ask, text: str) -> Action:
        return Action(seat="picker", kind="pick", text=text.strip())

    def apply(self, state: PickState, action: Action) -> PickState:
        if action.text not in NUMBERS or action.text in state.tried:
            raise RuleViolation(f"name a number from 1 to 5 not yet tried, not {action.text!r}.")
        return replace(state, tried=(*state.tried, action.text))

    def outcome(self, state: PickState) -> Outcome | None:
        if state.found:
            return Outcome(status="finished", winners=("picker",), reason="named it", rounds=len(state.tried),
                           results=(SeatResult(seat="picker", won=True),))
        if len(state.tried) >= TRIES:
            return Outcome(status="finished", reason="three misses", rounds=len(state.tried),
                           results=(SeatResult(seat="picker", won=False),))
        return None

    def rounds(self, state: PickState) -> int:
        return len(state.tried)

    def transcript(self, state: PickState) -> Sequence[tuple[str, str]]:
        return [("picker", number) for number in state.tried]

    def scripted_player(self, party: str, spec: MatchSpec) -> Any:
        if party == "host":
            return Idle()
        if party != "picker":
            raise ConfigError(f"pick has no scripted {party}")
        return SecretPicker(spec)

    def baseline_player(self, name: str, party: str, spec: MatchSpec) -> Any:
        if party != "picker":
            raise ConfigError(f"pick's baselines play the picker, not {party}")
        if name == RANDOM:
            return RandomPicker(spec)
        if name == NAIVE:
            return LowestPicker()
        raise ConfigError(f"pick has no baseline {name!r}")


class Plain(Pick):
    id: ClassVar[str] = "plain"
    title: ClassVar[str] = "Plain"
    baselines: ClassVar[tuple[BaselineInfo, ...]] = ()

    def new_spec(self, level: int, seed: int, rng: random.Random, **kwargs: Any) -> MatchSpec:
        return super().new_spec(level, seed, rng, **kwargs).model_copy(update={"game": self.id})

    def baseline_player(self, name: str, party: str, spec: MatchSpec) -> Any:
        raise ConfigError(f"plain provides no baseline player {name!r}")


TRIO = ("ann", "bob", "cy")


@dataclass(frozen=True)
class TrioState:
    spec: MatchSpec
    named: tuple[tuple[str, str], ...] = ()


class Trio(GameBase):
    id: ClassVar[str] = "trio"
    title: ClassVar[str] = "Trio"
    seats: ClassVar[tuple[SeatInfo, ...]] = tuple(SeatInfo(name=s, role="names a number", evaluated=True)
                                                  for s in TRIO)
    levels: ClassVar[tuple[LevelInfo, ...]] = (LevelInfo(level=1, description="one round"),)
    presentation: ClassVar[Presentation] = Presentation(name="Trio", tagline="Name it.", pitch="Name it.")
    baselines: ClassVar[tuple[BaselineInfo, ...]] = (BaselineInfo(name=RANDOM, description="a number at random"),)

    def new_spec(self, level: int, seed: int, rng: random.Random, *, inputs: Mapping[str, str] | None = None,
                 secret_set: str | None = None, options: Mapping[str, Scalar] | None = None) -> MatchSpec:
        return MatchSpec(game=self.id, level=level, seed=seed, setup={"secret": rng.choice(NUMBERS)},
                         variants={seat: rng.randrange(3) for seat in TRIO})

    def initial_state(self, spec: MatchSpec) -> TrioState:
        return TrioState(spec=spec)

    def next_asks(self, state: TrioState) -> tuple[Ask, ...]:
        done = {seat for seat, _ in state.named}
        return tuple(Ask(seat=seat, kind="name", display="Name a number.", instructions="One of 1 to 5.",
                         messages=(user(f"You are {seat}. Name the hidden number from 1 to 5."),),
                         constraint=OutputConstraint(choices=NUMBERS))
                     for seat in TRIO if seat not in done)

    def parse(self, state: TrioState, ask: Ask, text: str) -> Action:
        return Action(seat=ask.seat, kind="name", text=text.strip())

    def apply(self, state: TrioState, action: Action) -> TrioState:
        if action.text not in NUMBERS:
            raise RuleViolation(f"name a number from 1 to 5, not {action.text!r}.")
        return replace(state, named=(*state.named, (str(action.seat), action.text)))

    def outcome(self, state: TrioState) -> Outcome | None:
        if len(state.named) < len(TRIO):
            return None
        secret = str(state.spec.setup["secret"])
        winners = tuple(seat for seat, number in state.named if number == secret)
        return Outcome(status="finished", winners=winners, reason="all named", rounds=1,
                       results=tuple(SeatResult(seat=seat, won=seat in winners) for seat in TRIO))

    def rounds(self, state: TrioState) -> int:
        return 1 if len(state.named) == len(TRIO) else 0

    def transcript(self, state: TrioState) -> Sequence[tuple[str, str]]:
        return list(state.named)

    def scripted_player(self, party: str, spec: MatchSpec) -> Any:
        if party not in TRIO:
            raise ConfigError(f"trio has no scripted {party}")
        return SecretPicker(spec)

    def baseline_player(self, name: str, party: str, spec: MatchSpec) -> Any:
        if name != RANDOM:
            raise ConfigError(f"trio has no baseline {name!r}")
        return RandomPicker(spec)


def baseline_registry() -> GameRegistry:
    """A registry of the three games."""
    registry = GameRegistry()
    registry.add("pick", Pick)
    registry.add("plain", Plain)
    registry.add("trio", Trio)
    return registry
