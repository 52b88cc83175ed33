"""Free text a role writes with the match's hidden parts in view: held back from every live view until the end.

A judge is told the concealed rule, and its reason for a verdict may name it ("does not follow the rule of
dividing by 3"): a player or a watcher who reads that reason while the match is played has been told the rule.
So such text is *held*. A game declares it on the role (``RoleInfo.held``: keys of the ``data`` of that role's
actions; a panel member ``judge#2`` is its role's), and everything a player or a watcher reads while the match is
played (the arena's views and their stream, the terminal, ``playeval.library``'s summary) is built from the
match's **live state** (:func:`live_state`): the log folded with that text blanked, so the role's move reads as
its verdict (``Action.text``) only. Once the match is over the held text is revealed with everything else: final
views, stored results, exports and reports read the full state.

Asks follow the same line (:func:`live_asks`, used by the engine wherever it opens asks): an ask to a seat is
built from the live state, so a player's conversation never quotes held text; an ask to a role is built from the
full state (a role may need what another wrote).

A game author's part: keep the verdict in ``Action.text`` and the free text in ``data`` under a declared key,
build ``transcript``, ``panel`` and asks from the state as usual (a blank reason shows as none), and let no rule
depend on held text: the live state must open asks to the same seats and reach the same outcome (a game whose
asks differ is an error, raised when it happens). The log keeps everything (the raw reply, the parsed action), as
it keeps the hidden setup.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from playeval.core.ask import Ask
from playeval.core.errors import PlayevalError
from playeval.core.events import ActionApplied, Event
from playeval.core.game import Game, StateT, fold
from playeval.core.info import RoleInfo, panel_role
from playeval.core.match import Action, MatchSpec

HeldKeys = Mapping[str, tuple[str, ...]]
"""Role name -> the keys of its actions' ``data`` that are held."""


def held_keys(roles: Sequence[RoleInfo]) -> dict[str, tuple[str, ...]]:
    """The held keys of each role that declares any (``RoleInfo.held``)."""
    return {info.name: info.held for info in roles if info.held}


def game_held_keys(game: Game[Any]) -> dict[str, tuple[str, ...]]:
    """:func:`held_keys` of a game's roles (none for a game that declares no roles)."""
    return held_keys(getattr(game, "roles", ()))


def holds(action: Action, keys: HeldKeys) -> bool:
    """Whether ``action`` carries held text: a move of a role that declares keys, with one of them not blank."""
    if action.role is None:
        return False
    return any(action.data.get(key) for key in keys.get(panel_role(action.role), ()))


def withhold(action: Action, keys: HeldKeys) -> Action:
    """``action`` as a live view may show it: its held text blanked (``""``), its verdict and the rest kept."""
    if not holds(action, keys):
        return action
    assert action.role is not None  # holds() says so
    held = keys[panel_role(action.role)]
    return action.model_copy(update={"data": {key: ("" if key in held else value)
                                              for key, value in action.data.items()}})


def withheld(events: Iterable[Event], keys: HeldKeys) -> list[Event]:
    """A log with the held text of every applied action blanked (see :func:`withhold`)."""
    return [event.model_copy(update={"action": withhold(event.action, keys)}) if isinstance(event, ActionApplied)
            and holds(event.action, keys) else event for event in events]


def live_state(game: Game[StateT], spec: MatchSpec, events: Sequence[Event], state: StateT | None = None, *,
               over: bool) -> StateT:
    """The state a view of the match is built from: the full state (``state``, or the fold of ``events``) once
    the match is ``over`` or when nothing in the log is held; else the fold of the log with its held text
    blanked (a second fold, made only for a game whose roles hold text and once one has)."""
    keys = game_held_keys(game)
    if over or not keys or not any(isinstance(event, ActionApplied) and holds(event.action, keys)
                                   for event in events):
        return fold(game, spec, events) if state is None else state
    return fold(game, spec, withheld(events, keys))


def live_asks(game: Game[StateT], spec: MatchSpec, events: Sequence[Event], state: StateT,
              asks: Sequence[Ask]) -> tuple[Ask, ...]:
    """The open ``asks`` of ``state`` (the fold of ``events``), each ask to a seat built from the live state
    instead: what a player is shown holds no held text. Raises ``PlayevalError`` when the live state does not open
    asks to the same seats (the game's rules read held text)."""
    if not any(ask.seat is not None for ask in asks) or not game_held_keys(game):
        return tuple(asks)
    live = live_state(game, spec, events, state, over=False)
    if live is state:
        return tuple(asks)
    shown = {ask.party: ask for ask in game.next_asks(live) if ask.seat is not None}
    wanted = [ask.party for ask in asks if ask.seat is not None]
    if sorted(shown) != sorted(wanted):
        raise PlayevalError(f"{game.id}: with its roles' held text blanked the match asks {sorted(shown)} instead of "
                            f"{sorted(wanted)}; a game's rules must not depend on held text (core.held)")
    return tuple(shown[ask.party] if ask.seat is not None else ask for ask in asks)
