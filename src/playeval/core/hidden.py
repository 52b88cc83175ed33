"""What a viewer may see of a match's hidden parts, and which roles may be bound to a seat because of them.

A game declares its hidden parts with ``Game.disclosures``: who may see each one while the match is played, and
the label of each form (:class:`~playeval.core.info.Disclosure`). Every view of a match, in the arena, its stream
and the terminal, takes them from here, so the rules hold for every game alike:

* while the match is played, a viewer holding some seats sees the *live form* of the parts those seats hold
  (:func:`live_disclosures`: key, value and the holder's label), and nothing of any other part;
* once it is over, everyone sees the *revealed form* of every part (:func:`revealed_disclosures`).

A role's asks may carry hidden parts too (a judge shown every seat's word): the game lists their keys in
``RoleInfo.sees``, and :func:`check_role_seat` refuses to bind such a role to a seat that may not see them, before
the match starts (batch runs, the terminal and the arena bind roles through ``engine.plan.role_assignments``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from playeval.core.errors import ConfigError
from playeval.core.info import Disclosure, LiveDisclosure, panel_role
from playeval.core.match import MatchSpec

if TYPE_CHECKING:
    from playeval.core.game import Game


def live_disclosures(game: Game[Any], spec: MatchSpec, seats: Iterable[str], *,
                     state: Any = None) -> list[LiveDisclosure]:
    """The hidden parts a viewer holding ``seats`` may see while the match is played, in their live form;
    ``state`` is the match so far, when the caller has it (see ``Game.disclosures``)."""
    held = set(seats)
    return [item.live() for item in game.disclosures(spec, state) if held.intersection(item.seats)]


def revealed_disclosures(game: Game[Any], spec: MatchSpec, *, state: Any = None) -> list[Disclosure]:
    """Every hidden part of a match in its revealed form: what everyone sees once the match is over."""
    return list(game.disclosures(spec, state))


def disclosed_to(game: Game[Any], spec: MatchSpec, seats: Iterable[str], *, over: bool,
                 state: Any = None) -> Sequence[LiveDisclosure]:
    """What a viewer holding ``seats`` may see now: the live form of their own parts while the match is played
    (:func:`live_disclosures`), every part revealed once it is over (:func:`revealed_disclosures`, whose items
    are :class:`Disclosure`)."""
    if over:
        return revealed_disclosures(game, spec, state=state)
    return live_disclosures(game, spec, seats, state=state)


def made_in_play(game: Game[Any], spec: MatchSpec) -> tuple[str, ...]:
    """The keys of the hidden parts ``game`` makes during this match (``Game.made_in_play``; none for a game
    written before the hook existed that does not derive from ``GameBase``)."""
    hook = getattr(game, "made_in_play", None)
    return tuple(hook(spec)) if hook is not None else ()


def unseen_part(game: Game[Any], spec: MatchSpec, role: str, seat: str) -> str | None:
    """The key of a hidden part that ``role``'s asks may carry (``RoleInfo.sees``) and ``seat`` may not see
    while the match is played, or ``None``: the role may be bound to the seat. A part the game makes during play
    is one no seat may see; a part this match lacks (an object a person keeps in mind) carries nothing."""
    name = panel_role(role)
    info = next((item for item in game.roles if item.name == name), None)
    if info is None or not info.sees:
        return None
    parts = revealed_disclosures(game, spec)
    later = made_in_play(game, spec)
    for key in info.sees:
        found = [part for part in parts if part.key == key]
        if any(seat not in part.seats for part in found) or (not found and key in later):
            return key
    return None


def check_role_seat(game: Game[Any], spec: MatchSpec, role: str, seat: str) -> None:
    """Refuse (``ConfigError``, one line) to bind ``role`` to ``seat`` when the role's asks may carry a hidden part
    the seat may not see (:func:`unseen_part`): whoever holds the seat would read it in the role's asks."""
    key = unseen_part(game, spec, role, seat)
    if key is not None:
        raise ConfigError(f"{game.id}: the role {role} cannot be bound to seat {seat}: its asks show the hidden "
                          f"{key}, which {seat} may not see")
