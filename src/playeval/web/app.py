"""Building the arena's FastAPI app: ``create_app(settings)``; ``app_from_env()`` for ``uvicorn --factory``.

Everything the app holds lives on ``app.state`` and is made in its lifespan: the store, the model hub (a
given hub is used and left open; one made here is closed here), the rate limiters and the arena service,
which on start-up schedules the live matches whose model move is due (a restart resumes them) and then sweeps
the live matches every ``sweep_s`` (time-outs, due model moves) until the app stops.

Every error leaves as JSON ``{"detail": "<message>"}``: validation errors (422, one readable message),
unknown routes (404), bodies over ``max_body_bytes`` (413), and anything unexpected (500, without the
exception's text, which may quote a request). Request bodies are never logged.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from playeval.core.registry import default_registry
from playeval.models import ModelHub
from playeval.store import Store
from playeval.web import pages
from playeval.web.api import router as api_router
from playeval.web.arena import Arena
from playeval.web.board import ALL_GAMES
from playeval.web.collector import tune_collector
from playeval.web.errors import ArenaError, MoveRefused
from playeval.web.ratelimit import RateLimiter
from playeval.web.settings import ArenaSettings
from playeval.web.write_gate import WriteGate

log = logging.getLogger("playeval.web")

STATIC_DIR = Path(__file__).resolve().parent / "static"
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"content-security-policy",
     (b"default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; "
      b"form-action 'self'")),
)


def create_app(settings: ArenaSettings, *, hub: ModelHub | None = None) -> FastAPI:
    """The arena's app for ``settings``; ``hub`` (optional) is the model hub to use, which the caller closes."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store.open(settings.db)
        gate = WriteGate(store.engine) if WriteGate.needed(store.engine) else None
        if gate is not None:
            gate.install()
        own_hub = hub is None
        models = hub if hub is not None else ModelHub(use_cache=settings.use_cache, cache_path=settings.cache_path)
        try:
            for address in settings.models:
                models.get(address)  # an unknown model fails here, at start-up, with a clear message
            arena = Arena(store, models, default_registry(), settings)
            app.state.arena = arena
            app.state.limits = {"writes": RateLimiter(settings.writes) if settings.writes else None,
                                "reads": RateLimiter(settings.reads) if settings.reads else None}
            log.info("arena started on %s with %d model(s)", store.url, len(settings.models))
            await arena.start()
            try:
                yield
            finally:
                await arena.aclose()
        finally:
            if own_hub:
                await models.aclose()
            if gate is not None:
                gate.remove()
            store.close()

    app = FastAPI(
        title="playeval arena",
        summary="Play language games against models, watch models play each other, and see how they rank.",
        version="1",
        lifespan=lifespan,
        openapi_url="/api/openapi.json",
        docs_url="/api/docs",
        redoc_url=None,
    )
    app.add_exception_handler(ArenaError, _arena_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(Exception, _unexpected_error)
    app.include_router(api_router)
    app.include_router(pages.router)
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes)
    app.add_middleware(SecurityHeaders)
    _document_choices(app, default_registry().ids(), list(settings.models))
    return app


def _document_choices(app: FastAPI, games: list[str], models: list[str]) -> None:
    """Name the known games and models in the OpenAPI schema (the code checks them at run time, with messages)."""
    build = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is not None:
            return app.openapi_schema
        schema = build()
        components = schema.get("components", {}).get("schemas", {})
        for name in ("StartMatch", "StartWatch"):
            if name in components:
                components[name]["properties"]["game"]["enum"] = games
        if "StartMatch" in components:
            components["StartMatch"]["properties"]["model"]["anyOf"][0]["enum"] = models
            components["StartMatch"]["properties"]["seats"]["additionalProperties"]["enum"] = [
                "person", "random", *models]
        if "StartWatch" in components:
            components["StartWatch"]["properties"]["models"]["anyOf"][0]["additionalProperties"]["enum"] = models
        for item in schema.get("paths", {}).values():
            for parameter in item.get("get", {}).get("parameters", []):
                if parameter.get("name") != "game":
                    continue
                if "anyOf" in parameter["schema"]:
                    parameter["schema"]["anyOf"][0]["enum"] = games
                else:
                    parameter["schema"]["enum"] = [ALL_GAMES, *games]
        app.openapi_schema = schema
        return schema

    app.openapi = openapi  # type: ignore[method-assign]


def app_from_env() -> FastAPI:
    """The app with settings from the environment (``PLAYEVAL_DB``, ``PLAYEVAL_ARENA_MODELS``), in a serving
    process of its own (``playeval serve --workers N``): its collector tuned for serving."""
    app = create_app(ArenaSettings.from_env())
    tune_collector()
    return app


# -- errors ---------------------------------------------------------------------------------------------------


async def _arena_error(request: Request, exc: Exception) -> JSONResponse:
    if not isinstance(exc, ArenaError):
        raise exc
    body: dict[str, object] = {"detail": exc.detail}
    if isinstance(exc, MoveRefused):
        body["seq"] = exc.seq
    return JSONResponse(body, status_code=exc.status)


def _location(loc: Sequence[Any]) -> str:
    parts = [str(part) for part in loc if part not in ("body", "query", "path", "header", "cookie")]
    return ".".join(parts) or "body"


_JSON_TYPES: tuple[tuple[type, str], ...] = (
    (bool, "a boolean"), (int, "a number"), (float, "a number"), (str, "a string"), (list, "a list"),
    (dict, "an object"), (type(None), "null"),
)


def _json_type(value: Any) -> str:
    """What a JSON value is, in words (``bool`` before ``int``: a boolean is an int in Python)."""
    return next((name for kind, name in _JSON_TYPES if isinstance(value, kind)), "something else")


def validation_message(errors: Sequence[Any]) -> str:
    """One readable sentence for pydantic's errors: where each problem is and what it is."""
    messages: list[str] = []
    for error in errors[:5]:
        where = _location(error.get("loc", ()))
        kind = error.get("type", "")
        ctx = error.get("ctx") or {}
        if kind == "extra_forbidden":
            text = "is not a known field"
        elif kind == "missing":
            text = "is required"
        elif kind == "string_too_long":
            text = f"is too long: at most {ctx.get('max_length')} characters"
        elif kind == "json_invalid":
            where, text = "body", "is not valid JSON"
        else:
            text = str(error.get("msg", "is not valid")).replace("Value error, ", "")
            text = text[:1].lower() + text[1:]
            if kind.endswith("_type") and "input" in error:  # a strict body: say what came instead
                text += f", not {_json_type(error['input'])}"
        messages.append(f"{where}: {text}")
    more = f" (and {len(errors) - 5} more)" if len(errors) > 5 else ""
    return "; ".join(messages) + more


async def _validation_error(request: Request, exc: Exception) -> JSONResponse:
    if not isinstance(exc, RequestValidationError):
        raise exc
    return JSONResponse({"detail": validation_message(exc.errors())}, status_code=422)


async def _http_error(request: Request, exc: Exception) -> JSONResponse:
    if not isinstance(exc, StarletteHTTPException):
        raise exc
    detail = exc.detail if isinstance(exc.detail, str) else "the request could not be served"
    if exc.status_code == 404 and detail == "Not Found":
        detail = f"no such page or endpoint: {request.url.path[:100]}"
    elif exc.status_code == 400 and detail == "There was an error parsing the body":
        detail = "the request body could not be read as JSON"
    elif exc.status_code == 405:
        # no route at this path: a mounted app refused (static files, which serve GET and HEAD)
        allowed = _allowed_methods(request) or (exc.headers or {}).get("Allow", "GET, HEAD").split(", ")
        detail = f"method {request.method} is not allowed here; allowed: {', '.join(allowed)}"
        return JSONResponse({"detail": detail}, status_code=405, headers={"Allow": ", ".join(allowed)})
    return JSONResponse({"detail": detail}, status_code=exc.status_code, headers=exc.headers)


_METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE")


def _allowed_methods(request: Request) -> list[str]:
    """Every method some route serves at this path (Starlette names only the first route's): each method is tried
    on the routes as they are (an included router is one route that matches for its own routes)."""
    routes = request.app.router.routes
    return [method for method in _METHODS
            if any(route.matches({**request.scope, "method": method})[0] == Match.FULL for route in routes)]


async def _unexpected_error(request: Request, exc: Exception) -> JSONResponse:
    log.error("%s %s failed with %s", request.method, request.url.path, type(exc).__name__)
    return JSONResponse({"detail": "the server failed to handle this request"}, status_code=500)


# -- middleware -----------------------------------------------------------------------------------------------


class BodyLimit:
    """Refuse request bodies over ``max_bytes`` with 413, whether announced by Content-Length or streamed."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_bytes):
            await self._refuse(scope, send)
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                await self._refuse(scope, send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        delivered = False

        async def replay() -> Message:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, scope: Scope, send: Send) -> None:
        response = JSONResponse({"detail": f"the request body is too large: at most {self.max_bytes} bytes"},
                                status_code=413)
        await response(scope, _empty_receive, send)


async def _empty_receive() -> Message:
    return {"type": "http.disconnect"}


class SecurityHeaders:
    """Headers every response gets; ``/api`` responses are also never cached."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        api = str(scope.get("path", "")).startswith("/api/")

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _ in headers}
                headers += [(name, value) for name, value in SECURITY_HEADERS if name not in present]
                if api and b"cache-control" not in present:
                    headers.append((b"cache-control", b"no-store"))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)
