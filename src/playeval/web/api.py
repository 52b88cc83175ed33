"""The arena's JSON API (prefix ``/api``): everything the pages do, for scripts too.

Errors are ``{"detail": "<message>"}`` with a 4xx status. A seat's token travels in the match's cookie or the
``X-Match-Token`` header, never in a URL the server sees (an invite carries it in the link's fragment, and the
join page posts it). Requests that change something and the other requests have separate per-client rate
limits.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, HTTPException, Path, Query, Request, Response
from fastapi.responses import StreamingResponse

from playeval.core.baselines import baseline_address, game_baselines
from playeval.core.game import Game, person_seat, split_sets_of
from playeval.web.arena import Arena
from playeval.web.board import ALL_GAMES, DEFAULT_SOURCE, Source, plot_png
from playeval.web.bodies import Check, Join, Move, StartMatch, StartWatch, Survey
from playeval.web.export import export_lines
from playeval.web.ratelimit import RateLimiter, retry_after
from playeval.web.timings import arena_timings
from playeval.web.tokens import cookie_name, cookie_token, request_token
from playeval.web.views import (
    BaselineView,
    CheckView,
    ErrorView,
    GameInfo,
    GameSeatView,
    InputView,
    LeaderboardView,
    LevelView,
    MatchSummary,
    MatchView,
    ModelsView,
    OptionView,
    RejectedMove,
    ReplayView,
    RoleView,
    StatsView,
    SurveyView,
)

COOKIE_MAX_AGE_S = 30 * 24 * 3600
ERRORS: dict[int | str, dict[str, object]] = {
    status: {"model": ErrorView, "description": text}
    for status, text in ((400, "the request body could not be read as JSON"),
                         (403, ("the match is other people's, the token proves no seat of it, or it cannot be "
                                "moved")),
                         (404, "no such match (or no token for a live one)"),
                         (409, ("not the time for this request (not your turn, outdated view, match over, "
                                "seat taken over)")),
                         (413, "the request body is too large"),
                         (422, "a field is missing, malformed, too long or not allowed"),
                         (429, "too many requests; see Retry-After"))
}
MatchId = Annotated[str, Path(min_length=1, max_length=64, description="the match's id")]


def _arena(request: Request) -> Arena:
    arena: Arena = request.app.state.arena
    return arena


def _client(request: Request) -> str:
    return request.client.host if request.client is not None else "unknown"


def _limit(request: Request, kind: str) -> None:
    limiter: RateLimiter | None = request.app.state.limits.get(kind)
    if limiter is None:
        return
    wait = limiter.take(_client(request))
    if wait > 0:
        raise HTTPException(status_code=429, detail=f"too many requests; try again in {retry_after(wait)} s",
                            headers={"Retry-After": retry_after(wait)})


async def limit_writes(request: Request) -> None:
    _limit(request, "writes")


async def limit_reads(request: Request) -> None:
    _limit(request, "reads")


router = APIRouter(prefix="/api", responses=ERRORS)
reads = [Depends(limit_reads)]
writes = [Depends(limit_writes)]


def game_info(game: Game[Any]) -> GameInfo:
    """A game as the arena presents it: everything from the game's own declarations."""
    shown = game.presentation
    return GameInfo(
        id=game.id, title=game.title, name=shown.name, tagline=shown.tagline, pitch=shown.pitch, how=list(shown.how),
        levels=[LevelView(level=info.level, description=info.description) for info in game.levels],
        options=[OptionView(name=option.name, description=option.description, default=option.default,
                            minimum=option.minimum, maximum=option.maximum,
                            choices=list(option.choices) if option.choices is not None else None,
                            seat_count=option.seat_count)
                 for option in game.options if not option.local_only],
        seats=[GameSeatView(seat=seat.name, role=seat.role, evaluated=seat.evaluated, person=seat.person)
               for seat in game.seats],
        roles=[RoleView(role=role.name, does=role.does) for role in game.roles],
        person_seat=person_seat(game),
        person_inputs=[InputView(key=item.key, prompt=item.prompt, seat=item.seat, hidden=item.hidden,
                                 choices=list(item.choices) if item.choices else None, required=item.required,
                                 max_chars=item.max_chars) for item in game.person_inputs],
        baselines=[BaselineView(name=info.name, address=baseline_address(info.name), description=info.description)
                   for info in game_baselines(game)],
        split_sets=list(pair) if (pair := split_sets_of(game)) is not None else None,
    )


@router.get("/games", dependencies=reads)
def games(request: Request) -> list[GameInfo]:
    """The games (built-in and installed), their presentation, levels, options, seats, roles, what a person in each
    seat provides to start one, their baseline players and their pair of disjoint secret sets."""
    return [game_info(game) for game in _arena(request).registry]


@router.get("/models", dependencies=reads)
def models(request: Request) -> ModelsView:
    """The models a person can meet here; one is drawn at random unless the person picks one."""
    arena = _arena(request)
    settings = arena.settings
    return ModelsView(models=list(settings.models), default=settings.default_model,
                      timings=arena_timings(arena.store, tuple(settings.models)))


def _set_cookie(request: Request, response: Response, match_id: str, token: str) -> None:
    response.set_cookie(cookie_name(match_id), token, max_age=COOKIE_MAX_AGE_S, path="/", httponly=True,
                        samesite="strict", secure=_arena(request).settings.secure_cookies)


@router.post("/matches", status_code=201, dependencies=writes)
async def start_match(body: StartMatch, request: Request, response: Response) -> MatchView:
    """Set a table up and take a seat at it. The response carries the setter's token once (and sets its cookie)
    and, once, a join link for every invited person's seat (its token in the link's fragment)."""
    view, token = await _arena(request).start_play(body)
    _set_cookie(request, response, view.id, token)
    response.headers["Location"] = f"/api/matches/{view.id}"
    return view


@router.get("/matches", dependencies=reads)
def list_matches(request: Request,
                 mode: Literal["play", "watch"] | None = None,
                 status: Literal["live", "finished"] | None = None,
                 game: Annotated[str | None, Query(max_length=40)] = None,
                 limit: Annotated[int, Query(ge=1, le=500)] = 20) -> list[MatchSummary]:
    """Public matches, newest first: watched ones and finished ones (a live played match is private)."""
    arena = _arena(request)
    if game is not None:
        arena.game(game)
    return arena.summaries(mode=mode, status=status, game=game, limit=min(limit, arena.settings.list_limit))


@router.get("/matches/{match_id}", dependencies=reads)
def get_match(match_id: MatchId, request: Request) -> MatchView:
    """A match as its viewer may see it (a seat's token for a live played match)."""
    return _arena(request).view(match_id, request_token(request, match_id))


@router.get("/matches/{match_id}/stream", dependencies=reads, response_class=StreamingResponse,
            responses={200: {"content": {"text/event-stream": {}},
                             "description": "`event: state` with a MatchView as data, each time the match "
                                            "changes; ends after the finished view"}})
async def stream_match(match_id: MatchId, request: Request) -> StreamingResponse:
    """Server-sent events of the match's views, live."""
    _, events = await _arena(request).stream(match_id, request_token(request, match_id), request.is_disconnected)
    return StreamingResponse(events, media_type="text/event-stream",
                             headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


@router.post("/matches/{match_id}/join", dependencies=writes)
def join(match_id: MatchId, body: Join, request: Request, response: Response) -> MatchView:
    """Come to your seat with the token of your join link (the join page posts it from the link's fragment); the
    response sets the seat's cookie. A browser holds one seat of a match: a second one is refused (409)."""
    view = _arena(request).join(match_id, body, cookie_token(request, match_id))
    _set_cookie(request, response, match_id, body.token)
    return view


@router.post("/matches/{match_id}/moves", dependencies=writes,
             responses={422: {"model": RejectedMove, "description": "the rules refused the move; the reason"}})
async def move(match_id: MatchId, body: Move, request: Request) -> MatchView:
    """A person's move; the models' answers follow in the background (see the stream)."""
    return await _arena(request).move(match_id, request_token(request, match_id), body)


@router.post("/matches/{match_id}/check", dependencies=reads)
def check(match_id: MatchId, body: Check, request: Request) -> CheckView:
    """Would the rules take this reply to your open ask now? Judged like a move, recorded nowhere."""
    return _arena(request).check(match_id, request_token(request, match_id), body)


@router.post("/matches/{match_id}/abandon", dependencies=writes)
def abandon(match_id: MatchId, request: Request) -> MatchView:
    """Leave a live match: a model takes your seat while other people play on; a person alone ends it (aborted)."""
    return _arena(request).abandon(match_id, request_token(request, match_id))


@router.post("/matches/{match_id}/survey", status_code=201, dependencies=writes)
def survey(match_id: MatchId, body: Survey, request: Request) -> SurveyView:
    """The three survey answers for a finished match, once."""
    return _arena(request).survey(match_id, request_token(request, match_id), body)


@router.get("/matches/{match_id}/replay", dependencies=reads)
def replay(match_id: MatchId, request: Request) -> ReplayView:
    """A finished match (of the arena or of a batch run), or a live watched one, for its permanent page."""
    return _arena(request).replay(match_id)


@router.post("/watch", status_code=201, dependencies=writes)
async def watch(body: StartWatch, request: Request) -> MatchView:
    """Start a model-vs-model match that anyone may watch."""
    return await _arena(request).start_watch(body)


def _board_game(request: Request, game: str) -> str:
    if game != ALL_GAMES:
        _arena(request).game(game)
    return game


@router.get("/leaderboard", dependencies=reads)
def get_leaderboard(request: Request, game: Annotated[str, Query(max_length=40)] = ALL_GAMES,
                    source: Source = DEFAULT_SOURCE) -> LeaderboardView:
    """Each board's (a game and configuration) ratings with 95% intervals, the baselines' and people's rates beside
    the models' with each model's verdict against chance, a team game's team Elo, and the overall rating; per model
    and board: matches, win rate with a 95% interval over matches, rounds, forfeits, procedural metrics; and
    people. ``source``: whose matches the models count, the runs' by default (as ``playeval leaderboard``), the
    arena's (``live``) or both (``all``); people's rows count every match people played."""
    return _arena(request).board.leaderboard(_board_game(request, game), source)


@router.get("/leaderboard/plot.png", dependencies=reads, response_class=Response,
            responses={200: {"content": {"image/png": {}}, "description": "win rates with their intervals"}})
def leaderboard_plot(request: Request, game: Annotated[str, Query(max_length=40)] = ALL_GAMES,
                     source: Source = DEFAULT_SOURCE) -> Response:
    board = _arena(request).board.leaderboard(_board_game(request, game), source)
    return Response(plot_png(board), media_type="image/png", headers={"Cache-Control": "no-store"})


@router.get("/stats", dependencies=reads)
def get_stats(request: Request) -> StatsView:
    """Sessions people played: how many ended with an outcome; the survey answers."""
    return _arena(request).board.stats()


@router.get("/export.jsonl", dependencies=reads, response_class=StreamingResponse,
            responses={200: {"content": {"application/jsonl": {}}, "description": "one finished match per line"}})
def export(request: Request, source: Source = "all") -> StreamingResponse:
    """Finished matches as JSON lines, without anything about the people who played them."""
    return StreamingResponse(export_lines(_arena(request).store, source), media_type="application/jsonl",
                             headers={"Content-Disposition": 'attachment; filename="playeval-arena.jsonl"'})
