"""Who may do what with a match: the seat a request's token proves, and the 404/403 rules.

A live played match is its people's: a request without a token gets 404 (as if there were no such match), one
with a token that proves no seat of it gets 403. Once the match is over anyone may read it (and a seat's token
still shows it from that seat). A watched match is anyone's to read and no one's to move.
"""

from __future__ import annotations

from playeval.store import Store, WebSeatRecord
from playeval.web.errors import NO_SUCH_MATCH, Forbidden, NotFound
from playeval.web.table import Loaded
from playeval.web.tokens import seat_of

NOT_YOURS = "this match is being played by other people; it can be read by anyone once it is over"
WATCHED = "a watched match belongs to no one: it cannot be joined, moved, abandoned or surveyed"


def person(loaded: Loaded, token: str | None) -> WebSeatRecord | None:
    """The person's seat the token proves, if any."""
    web = loaded.web
    if web is None or web.mode != "play":
        return None
    return seat_of(web.people, token)


def viewer(loaded: Loaded, token: str | None) -> str | None:
    """The seat the request may see the match as (``None``: the public); raises for a live match it may not read."""
    web = loaded.web
    if web is None or web.mode == "watch":
        return None
    held = person(loaded, token)
    if held is not None:
        return held.seat
    if loaded.finished:
        return None
    if token is None:
        raise NotFound(NO_SUCH_MATCH)
    raise Forbidden(NOT_YOURS)


def mover(loaded: Loaded, token: str | None) -> WebSeatRecord:
    """The person's seat, for a request that changes the match: only a seat's own token may."""
    web = loaded.web
    if web is None:
        raise NotFound(NO_SUCH_MATCH)
    if web.mode == "watch":
        raise Forbidden(WATCHED)
    if token is None:
        raise NotFound(NO_SUCH_MATCH)
    held = person(loaded, token)
    if held is None:
        raise Forbidden(NOT_YOURS)
    return held


def arrive(store: Store, loaded: Loaded, held: WebSeatRecord | None) -> bool:
    """Mark a person as joined the first time their token is used (the join page does this first); whether the
    store changed."""
    if held is None or held.joined_at is not None:
        return False
    return store.join_seat(loaded.match.id, held.seat)
