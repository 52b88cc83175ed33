"""Baseline players of known character, and how a game provides them.

A number without its chance level misleads: a model that "wins" 60 % of a game a random player wins 55 % of has
learnt little. So every game names players whose play is known in advance and puts them on the same setups as the
models (``playeval run ... --baselines``). They are addressed like models, ``baseline/NAME``, and played by the
``baseline`` provider, which asks the game for the named player afresh for each request (as ``mock/player`` does
with scripted players), so they run anywhere a model runs and are recorded like one.

The names a game may declare (:class:`BaselineInfo`, ``Game.baselines``):

* ``random`` (:data:`RANDOM`, every game): a legal move drawn at random; the reference for "not above chance".
* ``naive`` (:data:`NAIVE`, where one fits): the simplest fixed policy a reader would think of (Bluffing: always
  "True"; Akinator: the same questions in the same order; a picnic player that asks for every example, then
  guesses the first category shown; Undercover: describes nothing and votes at random).
* ``passive`` (:data:`PASSIVE`, where a rule rewards doing nothing, as Taboo's does): a player that does nothing.

A baseline player follows the scripted-player contract (:mod:`playeval.core.scripted`: ``act(ask)`` from the
ask alone, no state between asks) and one more rule: **it never reads a hidden part of the spec** (the secret, a
rule, another seat's word). Only what its seat is shown (the ask) and the spec's public ``params`` may shape its
move, so its rate is what knowing nothing earns. Its randomness comes from :func:`ask_rng`, seeded by the match and
the ask: the same ask gets the same move, and a rerun with the same seed plays the same game.

``mock/skill?p=P&seed=S`` (``models.providers``) plays any game at a known skill by mixing, move by move, the
game's scripted player (the strong policy, see ``core.scripted``) with probability ``P`` and its ``random``
baseline otherwise: the leaderboard's validity test runs on it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from playeval.core.ask import Ask
from playeval.core.errors import ConfigError
from playeval.core.match import MatchSpec
from playeval.core.rng import derive_seed

BASELINE_PROVIDER = "baseline"
"""The provider name of baseline players: ``baseline/random``, ``baseline/naive``..."""
RANDOM = "random"
"""The baseline every game provides: it plays at random (what it says, and when it guesses or how it votes), the
floor of chance a model's rate is marked against."""
NAIVE = "naive"
"""A baseline that plays one simple fixed strategy (the same questions, the first item shown), reading nothing
hidden."""
PASSIVE = "passive"
"""A baseline that does nothing useful on purpose (Taboo: neutral sentences, never a guess), where a game's rule
rewards doing nothing."""


@dataclass(frozen=True)
class BaselineInfo:
    """A baseline player a game provides: its ``name`` (``random``, ``naive``, ``passive`` or the game's own) and a
    sentence saying how it plays, shown beside its rate."""

    name: str
    description: str


def baseline_address(name: str) -> str:
    """The model address a baseline is played under in a lineup (``baseline/random``)."""
    return f"{BASELINE_PROVIDER}/{name}"


def baseline_name(address: str | None) -> str | None:
    """The baseline's name when ``address`` is a baseline's (``baseline/naive`` -> ``naive``), else ``None``."""
    if address is None:
        return None
    provider, _, name = address.partition("/")
    return name if provider == BASELINE_PROVIDER and name else None


def is_baseline(address: str | None) -> bool:
    """Whether a seat's model is a baseline player rather than a model (kept apart from ratings)."""
    return baseline_name(address) is not None


def game_baselines(game: Any) -> tuple[BaselineInfo, ...]:
    """The baselines a game declares (none for a game written before baselines were)."""
    declared: Sequence[BaselineInfo] = getattr(game, "baselines", ())
    return tuple(declared)


def make_baseline_player(game: Any, name: str, party: str, spec: MatchSpec) -> Any:
    """The game's baseline ``name`` for ``party``, raising ``ConfigError`` when the game declares no such baseline."""
    known = [info.name for info in game_baselines(game)]
    if name not in known:
        offered = ", ".join(known) if known else "none"
        raise ConfigError(f"{game.id} has no baseline player {name!r} (it offers: {offered})")
    return game.baseline_player(name, party, spec)


def ask_rng(spec: MatchSpec, label: str, ask: Ask) -> random.Random:
    """The random generator of one move of a random player (``label`` names the player, e.g. ``"baseline random"``).

    Seeded from the match's seed, the label, the party, the ask's kind, every message the party was shown and the
    attempt: the same ask always gets the same move (the scripted contract), successive turns and re-asks get
    fresh draws, and nothing hidden from the party goes in."""
    shown = [f"{message.role}:{message.content}" for message in ask.messages]
    return random.Random(derive_seed(spec.seed, label, ask.party, ask.kind, ask.attempt, *shown))
