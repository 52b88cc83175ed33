"""``playeval serve``: the live web arena."""

from __future__ import annotations

import asyncio
import os
import socket

import typer
from pydantic import ValidationError

from playeval.cli.console import db_option, fail, stderr
from playeval.core.registry import default_registry
from playeval.engine.calibrations import CalibrationBook
from playeval.models import DEFAULT_MODEL, ModelHub
from playeval.store import Store
from playeval.store.location import default_db_url

_FACTORY = "playeval.web.app:app_from_env"
MOCK_PLAYER = "mock/player"
MIN_PORT = 1
MAX_PORT = 65535
KEEP_ALIVE_S = 75
"""How long an idle connection stays open: longer than a person thinks between moves. uvicorn's default (5 s)
closes it while they think, and a move sent as it closes fails on the reused connection (the load test saw it)."""


def _check_models(models: tuple[str, ...], use_cache: bool, *, calibration: bool = True) -> None:
    """Unknown models, missing API keys and a local model without its extra or weights fail here, before the
    server starts, with the provider's message (not at a person's first move); so does a calibration file that
    cannot be read (the arena looks the models' calibrations up as tables are set up)."""

    async def check() -> None:
        async with ModelHub(use_cache=use_cache) as hub:
            for address in models:
                hub.check(address)

    asyncio.run(check())
    if calibration:
        book = CalibrationBook()
        for address in models:
            book.calibration(address)


def _check_port(host: str, port: int) -> None:
    """A clear error for a port out of range or an address in use, before the models load (uvicorn would say it
    after start-up, or fail with a traceback)."""
    if not MIN_PORT <= port <= MAX_PORT:
        fail(f"--port {port} is not a port number; choose one from {MIN_PORT} to {MAX_PORT}")
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as err:
        fail(f"cannot listen on {host}: {err.strerror}")
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as err:
            fail(f"cannot listen on {host}:{port}: {err.strerror}; choose another port with --port")


def register(app: typer.Typer) -> None:
    @app.command("serve")
    def serve(
        host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on."),
        port: int = typer.Option(8000, "--port", help="Port to listen on."),
        models: str = typer.Option(DEFAULT_MODEL, "--models", "-m",
                                   help="Comma-separated models people can play against (the first is the default)."),
        workers: int = typer.Option(1, "--workers", min=1,
                                    help="Server processes (use a PostgreSQL --db when more than one)."),
        no_cache: bool = typer.Option(False, "--no-cache", help="Do not read or write the response cache."),
        join_timeout: float = typer.Option(None, "--join-timeout", min=0.1,
                                           help="Seconds a table waits for an invited person before a model takes "
                                                "the seat (default 600; or PLAYEVAL_ARENA_JOIN_TIMEOUT_S)."),
        turn_timeout: float = typer.Option(None, "--turn-timeout", min=0.1,
                                           help="Seconds a person at a table of several people may take for a move "
                                                "before a model takes the seat (default 300)."),
        role_model: str = typer.Option(None, "--role-model",
                                       help="Model for roles a game binds to the local model (a judge), default the "
                                            "local model when served, else the first of --models."),
        no_calibration: bool = typer.Option(False, "--no-calibration",
                                            help="Let every judge's verdict be its own word, even where a "
                                                 "calibration fitted for that judge model holds a threshold (or "
                                                 "PLAYEVAL_ARENA_NO_CALIBRATION=1)."),
        role: list[str] = typer.Option(None, "--role",
                                       help="Bind a role: ROLE=BINDING or GAME.ROLE=BINDING, BINDING one of "
                                            "--models, 'local', 'seat:NAME' or 'scripted' (the game's scripted "
                                            "player, e.g. a judge that accepts only the rule's own words); "
                                            "repeatable (or PLAYEVAL_ARENA_ROLES)."),
        mock_player: bool = typer.Option(False, "--mock-player",
                                         help=f"Also offer {MOCK_PLAYER} (replies at once, plays every game) "
                                              "beside --models: to try the pages without waiting for a model."),
        db: str | None = db_option(),
    ) -> None:
        """Start the web arena: people play the games against the models, watch models play, see the leaderboard."""
        import uvicorn

        from playeval.web import ArenaSettings, create_app
        from playeval.web.collector import tune_collector
        from playeval.web.pages import offered_games
        from playeval.web.settings import ENV_NO_CALIBRATION, ENV_ROLES, parse_roles

        addresses = tuple(part.strip() for part in models.split(",") if part.strip())
        if not addresses:
            fail("--models names no model")
        if mock_player and MOCK_PLAYER not in addresses:
            addresses = (*addresses, MOCK_PLAYER)
        url = db or os.environ.get("PLAYEVAL_DB") or default_db_url()
        if workers > 1 and url.startswith("sqlite"):
            fail("several workers need a shared PostgreSQL database: pass --db postgresql://... "
                 "(SQLite serves one process)")
        chosen: dict[str, object] = {"db": url, "models": addresses, "use_cache": not no_cache}
        if no_calibration:
            chosen["calibration"] = False
        for field, value in (("join_timeout_s", join_timeout), ("turn_timeout_s", turn_timeout),
                             ("role_model", role_model)):
            if value is not None:
                chosen[field] = value
        try:
            if role:
                chosen["roles"] = parse_roles(role, "--role")
            settings = ArenaSettings.model_validate({**ArenaSettings.from_env().model_dump(), **chosen})
        except ValidationError as err:
            fail("; ".join(str(error["msg"]).removeprefix("Value error, ") for error in err.errors()))
        except ValueError as err:
            fail(str(err))
        _check_port(host, port)
        _check_models(settings.models, settings.use_cache, calibration=settings.calibration)
        with Store.open(url) as store:  # creates or migrates the database now: a bad URL fails before serving
            shown = store.url
        stderr().print(f"[bold]playeval arena[/] on [bold]http://{host}:{port}/[/]  "
                       f"(models: {', '.join(settings.models)}; database: {shown})", markup=True, soft_wrap=True)
        stderr().print(f"games: {offered_games(default_registry())}", markup=False, soft_wrap=True)
        if workers == 1:
            app = create_app(settings)
            tune_collector()
            uvicorn.run(app, host=host, port=port, log_level="info", proxy_headers=True,
                        timeout_keep_alive=KEEP_ALIVE_S)
            return
        os.environ["PLAYEVAL_DB"] = url
        os.environ["PLAYEVAL_ARENA_MODELS"] = ",".join(settings.models)
        if no_cache:
            os.environ["PLAYEVAL_ARENA_NO_CACHE"] = "1"
        if not settings.calibration:
            os.environ[ENV_NO_CALIBRATION] = "1"
        os.environ["PLAYEVAL_ARENA_JOIN_TIMEOUT_S"] = str(settings.join_timeout_s)
        os.environ["PLAYEVAL_ARENA_TURN_TIMEOUT_S"] = str(settings.turn_timeout_s)
        if settings.role_model is not None:
            os.environ["PLAYEVAL_ARENA_ROLE_MODEL"] = settings.role_model
        if settings.roles:
            os.environ[ENV_ROLES] = ",".join(f"{name}={binding}" for name, binding in settings.roles.items())
        uvicorn.run(_FACTORY, factory=True, host=host, port=port, workers=workers, log_level="info",
                    proxy_headers=True, timeout_keep_alive=KEEP_ALIVE_S)
