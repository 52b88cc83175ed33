"""The arena's HTML pages: thin Jinja2 shells that the browser fills from the JSON API.

Pages are built from the game registry: every game, built in or installed through the ``playeval.games`` entry
point, is presented in its own words (``Game.presentation``) and played through the same pages. Every page is
rendered without any match data: what a page shows about a match comes from ``/api`` in the browser (so the same
privacy rules apply to pages and scripts alike), and live updates arrive over the match's server-sent event
stream. Templates carry no inline script or style, so a strict Content Security Policy can be used; page
scripts live in ``static/`` and find their parameters in ``data-`` attributes.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates

from playeval.core.game import Game
from playeval.core.info import LevelInfo
from playeval.core.registry import GameRegistry

__all__ = ["GamePage", "game_pages", "offered_games", "router"]

_TEMPLATES: Final = Jinja2Templates(directory=Path(__file__).parent / "templates")
MAX_MATCH_ID_CHARS = 100


@dataclass(frozen=True)
class GamePage:
    """How the arena presents one game to a person, from the game's ``presentation``."""

    id: str
    name: str
    tagline: str
    pitch: str
    how: tuple[str, ...]
    levels: tuple[LevelInfo, ...]

    @classmethod
    def of(cls, game: Game[Any]) -> GamePage:
        shown = game.presentation
        return cls(id=game.id, name=shown.name, tagline=shown.tagline, pitch=shown.pitch, how=shown.how,
                   levels=game.levels)


def game_pages(registry: GameRegistry) -> list[GamePage]:
    """Every registered game's page, in the registry's order."""
    return [GamePage.of(game) for game in registry]


def offered_games(registry: GameRegistry) -> str:
    """The games the arena offers, by the names its home page gives them: "A, B and C" (what the Quick start's
    banner and ``playeval serve`` print, read from the registry so an added game is listed)."""
    names = [page.name for page in game_pages(registry)]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


router = APIRouter(include_in_schema=False)


def _registry(request: Request) -> GameRegistry:
    registry: GameRegistry = request.app.state.arena.registry
    return registry


def _render(request: Request, template: str, page: str, **context: object) -> HTMLResponse:
    games = game_pages(_registry(request))
    names = {game.id: game.name for game in games}
    return _TEMPLATES.TemplateResponse(request, template, {"page": page, "games": games, "game_names": names,
                                                           **context})


@router.get("/", response_class=HTMLResponse)
def home(request: Request) -> HTMLResponse:
    return _render(request, "home.html", "home")


@router.get("/play/{game}", response_class=HTMLResponse)
def play(request: Request, game: str, level: str = "", model: str = "") -> HTMLResponse:
    """The set-up page; ``level`` and ``model`` pre-select the home page's choices (ignored when unknown). The
    form itself is built in the browser from ``GET /api/games``."""
    registry = _registry(request)
    if game not in registry.ids():
        raise HTTPException(status_code=404, detail=f"no such game: {game[:40]}")
    info = GamePage.of(registry.get(game))
    known = {str(item.level) for item in info.levels}
    chosen = level if level in known else str(info.levels[0].level)
    return _render(request, "play.html", "play", game=info, level=chosen, model=model[:200])


def _match_id(match_id: str) -> str:
    if not match_id or len(match_id) > MAX_MATCH_ID_CHARS:
        raise HTTPException(status_code=404, detail="no such match")
    return match_id


@router.get("/matches/{match_id}", response_class=HTMLResponse)
def match(request: Request, match_id: str) -> HTMLResponse:
    return _render(request, "match.html", "match", match_id=_match_id(match_id))


@router.get("/matches/{match_id}/join", response_class=HTMLResponse)
def join(request: Request, match_id: str) -> HTMLResponse:
    """The page of an invite link: its script posts the token from the fragment (never sent to the server)."""
    return _render(request, "join.html", "join", match_id=_match_id(match_id))


@router.get("/watch", response_class=HTMLResponse)
def watch(request: Request) -> HTMLResponse:
    return _render(request, "watch.html", "watch")


@router.get("/leaderboard", response_class=HTMLResponse)
def leaderboard(request: Request) -> HTMLResponse:
    return _render(request, "leaderboard.html", "leaderboard")


@router.get("/stats", response_class=HTMLResponse)
def stats(request: Request) -> HTMLResponse:
    return _render(request, "stats.html", "stats")
