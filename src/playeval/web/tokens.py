"""Seat tokens: what proves that a request comes from the person (browser or script) holding a seat of a match.

Every person's seat at a table has its own token: 32 random bytes, URL-safe base64. Only its SHA-256 is
stored (``web_seats.token_sha256``). A browser keeps its token in an HttpOnly, SameSite=Strict cookie named
for the match; a script sends it in the ``X-Match-Token`` header. The person who sets a table up gets their
token in the response that starts the match; an invited person gets theirs in the join link's fragment
(``/matches/{id}/join#token=...``), which browsers never send to a server, so no token reaches an access log.

A cookie is per match, so one browser holds at most one seat of a match: the join endpoint refuses a second
seat of the same match in a browser that already holds one (two people at one table use two browsers).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable

from starlette.requests import Request

from playeval.store import WebSeatRecord

TOKEN_HEADER = "X-Match-Token"
COOKIE_PREFIX = "pe_"
MAX_TOKEN_CHARS = 100
JOIN_FRAGMENT = "token"


def new_token() -> str:
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    """The SHA-256 of ``token``, in hex: what the store keeps."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def token_matches(token: str, stored_hash: str) -> bool:
    """Whether ``token`` hashes to ``stored_hash``, compared in constant time."""
    return hmac.compare_digest(token_hash(token), stored_hash)


def seat_of(people: Iterable[WebSeatRecord], token: str | None) -> WebSeatRecord | None:
    """The person's seat ``token`` proves, if any (every seat is compared, so the time says nothing)."""
    if not token:
        return None
    found: WebSeatRecord | None = None
    for person in people:
        if person.token_sha256 is not None and token_matches(token, person.token_sha256):
            found = person
    return found


def cookie_name(match_id: str) -> str:
    return f"{COOKIE_PREFIX}{match_id}"


def request_token(request: Request, match_id: str) -> str | None:
    """The token the request carries for ``match_id``: the header first, then the match's cookie."""
    for candidate in (request.headers.get(TOKEN_HEADER), request.cookies.get(cookie_name(match_id))):
        if candidate and len(candidate) <= MAX_TOKEN_CHARS:
            return candidate
    return None


def cookie_token(request: Request, match_id: str) -> str | None:
    """The token the browser's cookie holds for ``match_id`` (the header is a script's, not the browser's)."""
    candidate = request.cookies.get(cookie_name(match_id))
    return candidate if candidate and len(candidate) <= MAX_TOKEN_CHARS else None


def join_path(match_id: str, token: str) -> str:
    """The invite link of a seat: the token rides in the fragment, which the browser keeps to itself."""
    return f"/matches/{match_id}/join#{JOIN_FRAGMENT}={token}"
