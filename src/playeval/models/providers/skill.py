"""``mock/skill``: a simulated player of known skill, for checking that ratings recover a known order.

An address names the skill and a seed, as a query string::

    mock/skill?p=0.8&seed=1

``p``
    required, in [0, 1]: the probability that a move is the one the game's scripted player makes (its strong
    policy, which may read the secret: ``core.scripted``); otherwise the move is the game's ``random`` baseline's
    (``core.baselines``). ``p=1`` plays as the scripted player, ``p=0`` as the random baseline.
``seed``
    an integer (default 0) mixed into every draw, so two players of the same ``p`` play differently.

Which of the two makes a move is drawn per request from a generator seeded by ``seed``, the match's seed, the
ask's party and kind, its attempt and every message the party was shown (``core.baselines.ask_rng``): the same ask
gets the same move, a rerun or a ``--resume`` plays the same match, and a re-ask draws afresh. ``p`` is not in the
seed, so players of one ``seed`` are coupled: where ``p=0.6`` plays the scripted move, ``p=0.8`` does too.

It plays any game (built-in or plugin) that provides a scripted player for the party and a ``random`` baseline,
through the request's origin (``core.scripted.AskOrigin``); a request outside a match, or a game that lacks either
player, is one ``ModelError``.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import parse_qsl

from playeval.core.baselines import RANDOM, ask_rng, make_baseline_player
from playeval.core.errors import PlayevalError
from playeval.models.errors import ModelError, UnknownModel
from playeval.models.types import ModelRequest

SKILL_NAME = "skill"
_PARAMETERS: tuple[str, ...] = ("p", "seed")


@dataclass(frozen=True)
class SkillSettings:
    """A simulated player's skill ``p`` (the probability of the scripted move) and its ``seed``."""

    p: float
    seed: int = 0

    def __post_init__(self) -> None:
        if not 0.0 <= self.p <= 1.0:  # nan fails too
            raise ValueError(f"p is a probability, between 0 and 1, not {self.p:g}")


def is_skill(model_name: str) -> bool:
    """Whether a ``mock`` model name is a simulated player of known skill (``skill`` or ``skill?...``)."""
    return model_name == SKILL_NAME or model_name.startswith(SKILL_NAME + "?")


def parse_skill(model_name: str) -> SkillSettings:
    """The settings of ``skill?p=P&seed=S``; ``UnknownModel`` with a one-line reason for anything else."""
    if not is_skill(model_name):
        raise UnknownModel(f"mock/{model_name} is not a simulated player of known skill (mock/skill?p=P&seed=S)")
    query = model_name[len(SKILL_NAME) + 1:]
    try:
        pairs = parse_qsl(query, keep_blank_values=True, strict_parsing=True) if query else []
    except ValueError:
        raise UnknownModel(f"mock/{model_name}: the query is not name=value&name=value") from None
    p: float | None = None
    seed = 0
    seen: set[str] = set()
    for key, raw in pairs:
        if key not in _PARAMETERS:
            raise UnknownModel(f"mock/{model_name}: unknown parameter {key!r}; known: {', '.join(_PARAMETERS)}")
        if key in seen:
            raise UnknownModel(f"mock/{model_name}: {key} is given twice")
        seen.add(key)
        try:
            if key == "seed":
                seed = int(raw)
            else:
                p = float(raw)
        except ValueError:
            kind = "an integer" if key == "seed" else "a number"
            raise UnknownModel(f"mock/{model_name}: {key} must be {kind}, not {raw!r}") from None
    if p is None:
        raise UnknownModel(f"mock/{model_name}: give the skill, the probability of the scripted player's move: "
                           "mock/skill?p=0.8&seed=1")
    try:
        return SkillSettings(p=p, seed=seed)
    except ValueError as exc:
        raise UnknownModel(f"mock/{model_name}: {exc}") from None


async def skill_reply(address: str, settings: SkillSettings, request: ModelRequest) -> str:
    """The move of the player at ``address`` (``mock/skill?...``, with ``settings``) for ``request``."""
    origin = request.origin
    if origin is None:
        raise ModelError(f"{address} plays a game's scripted and random players, so it answers only a seat's move "
                         "in a match, and this request comes from none")
    spec, ask = origin.match.spec, origin.ask
    strong = ask_rng(spec, f"mock skill {settings.seed}", ask).random() < settings.p
    try:
        if strong:
            reply = await origin.scripted_reply()
        else:
            reply = await make_baseline_player(origin.match.game, RANDOM, ask.party, spec).act(ask)
    except PlayevalError as err:
        player = "scripted player" if strong else "random baseline"
        raise ModelError(f"{address} plays {origin.game_id}'s {ask.party} through its {player}: {err}") from err
    return reply.text
