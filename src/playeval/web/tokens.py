"""Match tokens: what proves that a request comes from the browser (or script) that started a match.

A token is 32 random bytes, URL-safe base64. Only its SHA-256 is stored. The browser keeps it in an
HttpOnly, SameSite=Strict cookie named for the match; a script sends it in the ``X-Match-Token`` header.
Tokens never appear in URLs, so access logs never hold one.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from starlette.requests import Request

TOKEN_HEADER = "X-Match-Token"
COOKIE_PREFIX = "pe_"
MAX_TOKEN_CHARS = 100


def new_token() -> str:
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    """The SHA-256 of ``token``, in hex: what the store keeps."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def token_matches(token: str, stored_hash: str) -> bool:
    """Whether ``token`` hashes to ``stored_hash``, compared in constant time."""
    return hmac.compare_digest(token_hash(token), stored_hash)


def cookie_name(match_id: str) -> str:
    return f"{COOKIE_PREFIX}{match_id}"


def request_token(request: Request, match_id: str) -> str | None:
    """The token the request carries for ``match_id``: the header first, then the match's cookie."""
    for candidate in (request.headers.get(TOKEN_HEADER), request.cookies.get(cookie_name(match_id))):
        if candidate and len(candidate) <= MAX_TOKEN_CHARS:
            return candidate
    return None
