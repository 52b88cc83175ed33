"""The scripted-player contract, and the match a model's request comes from.

A game's ``scripted_player(party, spec)`` gives an instant, deterministic player for any of its seats and roles
(tests, benchmarks, ``--opponent scripted``, a role bound to ``scripted``, a person's seat handed to the game).
It is a ``playeval.players.Player``, held to this contract:

* ``kind`` is ``"scripted"``, ``model`` is ``None``, ``max_retries`` is how often a refused reply is re-asked
  (usually 0: a scripted move is legal).
* ``await act(ask)`` returns its move as a :class:`~playeval.core.ask.Reply`, made from the ask alone (and the
  party and spec the player was made for). An ask carries the party (``seat`` or ``role``), its ``kind`` (the
  game's name for the move: ``clue``, ``vote``...), ``messages`` (the conversation a model in the seat sees),
  ``display`` and ``instructions`` (what a person is shown), ``constraint`` (the replies the rules take: a list of
  ``choices`` or a grammar), ``max_chars`` and ``one_line``, and ``attempt`` (re-asks so far, after refusals).
* It keeps no state between asks: the same ask gets the same reply, and a player made afresh for an ask plays it
  as the one made at the match's start would. ``mock/player`` relies on this: it plays a game it was not written
  for by making the game's scripted player for each request (:class:`AskOrigin`).

**The strong policy.** An evaluated seat's scripted player is also the game's *strong* player: it may read the
spec's hidden parts (the secret, the rule) and should win far more often than the game's ``random`` baseline
(``core.baselines``). ``mock/skill?p=P`` mixes the two move by move to simulate a player of known skill, and the
leaderboard's validity test checks that ratings recover the order of such players; a plugin that provides a
scripted player and a ``random`` baseline takes part in it too.

:class:`AskOrigin` is what a model request may carry about where it comes from: the game, the match's spec (secrets
included) and the ask. A model player in a match attaches it only for a provider that declares ``reads_origin``
(the mock, which answers as the game's scripted player would); it is not part of the response cache's key and it is
never recorded.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from playeval.core.ask import Ask, Reply
from playeval.core.game import Game
from playeval.core.match import MatchSpec


@dataclass(frozen=True)
class MatchContext:
    """The game and match a player plays in, as the engine hands it to a model's player."""

    game: Game[Any]
    spec: MatchSpec

    def origin(self, ask: Ask) -> AskOrigin:
        """Where a request for ``ask`` comes from."""
        return AskOrigin(match=self, ask=ask)


@dataclass(frozen=True)
class AskOrigin:
    """The match and the ask a model request answers (see the module's note)."""

    match: MatchContext
    ask: Ask

    @property
    def game_id(self) -> str:
        return self.match.game.id

    async def scripted_reply(self) -> Reply:
        """The move the game's scripted player for the ask's party makes to this ask (raising what the game raises
        when it has no such player)."""
        reply: Reply = await self.match.game.scripted_player(self.ask.party, self.match.spec).act(self.ask)
        return reply
