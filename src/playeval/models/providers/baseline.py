"""``baseline/NAME``: a game's baseline player of known character, addressed and recorded like a model.

``playeval run ... --baselines`` puts each game's baselines (``core.baselines``: ``random``, ``naive``...) on the
same setups as the models, so their rates stand beside the models'. Playing them through a provider, rather than
as scripted seats, keeps every downstream reader unchanged: a baseline's match is stored with its address as the
evaluated model, its moves as model calls.

For each request the provider makes the game's baseline ``NAME`` for the ask's party afresh
(``core.baselines.make_baseline_player``, from the request's origin, as ``mock/player`` does with scripted
players) and returns its move: the scripted contract (the move made from the ask alone, no state between asks)
makes that the same as one player kept for the whole match. A request that names no match (``origin`` is
``None``: a judge's question outside a match, the retrospective analysis), or a game without that baseline, is one
``ModelError``.

A baseline reads no prompt and runs no model: its calls count zero tokens and are never priced
(``models.pricing``), and its replies are never cached (they cost nothing to make again).
"""

from __future__ import annotations

import re

from playeval.core.baselines import BASELINE_PROVIDER, make_baseline_player
from playeval.core.errors import PlayevalError
from playeval.models.errors import ModelError, UnknownModel
from playeval.models.types import ModelRequest, ProviderResult

_NAME = re.compile(r"[a-z][a-z0-9_-]*")
"""What a baseline's name looks like (``random``, ``naive``, ``passive``, a game's own such as ``first_category``)."""


class BaselineProvider:
    name = BASELINE_PROVIDER
    max_concurrency = 1024
    """Instant and CPU-light: never the thing a run waits on."""
    timeout_s = 30.0
    cacheable = False
    reads_origin = True
    """A baseline is the game's own player: it needs the match and the ask a request answers."""

    def check_model(self, model_name: str) -> None:
        """A well-formed name; whether a game declares it is known only when a match asks (see the module's
        note), and ``engine.batch.check_models`` checks a run's baselines against its games before it starts."""
        if not _NAME.fullmatch(model_name):
            raise UnknownModel(f"{BASELINE_PROVIDER}/{model_name} is not a baseline's address: baseline/NAME, where "
                               "NAME is one a game declares, such as random or naive (see `playeval games`)")

    async def generate(self, model_name: str, request: ModelRequest) -> ProviderResult:
        self.check_model(model_name)
        address = f"{BASELINE_PROVIDER}/{model_name}"
        origin = request.origin
        if origin is None:
            raise ModelError(f"{address} plays a game's baseline player, so it answers only a seat's move in a "
                             "match, and this request comes from none")
        try:
            player = make_baseline_player(origin.match.game, model_name, origin.ask.party, origin.match.spec)
            reply = await player.act(origin.ask)
        except PlayevalError as err:
            raise ModelError(f"{address} cannot play {origin.game_id}'s {origin.ask.party}: {err}") from err
        return ProviderResult(text=reply.text, prompt_tokens=0, completion_tokens=0)

    async def aclose(self) -> None:
        return None
