"""The arena's HTML pages: thin Jinja2 shells that the browser fills from the JSON API.

Every page is rendered without any match data: what a page shows about a match comes from ``/api`` in the
browser (so the same privacy rules apply to pages and scripts alike), and live updates arrive over the
match's server-sent event stream. Templates carry no inline script or style, so a strict Content Security
Policy can be used; page scripts live in ``static/`` and find their parameters in ``data-`` attributes.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates

from playeval.core.game import Game, LevelInfo, SeatInfo
from playeval.games import BUILTIN_GAMES

__all__ = ["GAME_PAGES", "GamePage", "router"]

_TEMPLATES: Final = Jinja2Templates(directory=Path(__file__).parent / "templates")


@dataclass(frozen=True)
class GamePage:
    """How the arena presents one game to a person: the pitch on the home page and the set-up page's notes."""

    id: str
    name: str
    role: str
    pitch: str
    how: tuple[str, ...]

    def _game(self) -> type[Game[Any]] | None:
        return next((cls for cls in BUILTIN_GAMES if cls.id == self.id), None)

    @property
    def levels(self) -> tuple[LevelInfo, ...]:
        """The game's levels as the game itself declares them."""
        game = self._game()
        return game.levels if game is not None else (LevelInfo(level=1, description="the only level"),)

    @property
    def seats(self) -> tuple[SeatInfo, ...]:
        game = self._game()
        return game.seats if game is not None else ()

    def public(self) -> dict[str, Any]:
        """What the watch page's script needs to know about the game (no secrets: it has none)."""
        return {
            "id": self.id,
            "name": self.name,
            "levels": [{"level": item.level, "description": item.description} for item in self.levels],
            "seats": [{"seat": seat.name, "role": seat.role} for seat in self.seats],
        }


GAME_PAGES: Final[tuple[GamePage, ...]] = (
    GamePage(
        id="akinator",
        name="Akinator",
        role="You hold the secret; the model asks.",
        pitch=("Pick any object and keep it to yourself. The model fires yes-or-no questions at you and "
               "has a limited number of turns to name it. You answer with a click."),
        how=("Type an object only you know about. The model never sees it.",
             "Answer each question with one of the buttons. Answer honestly: the fun is in seeing how it narrows down.",
             "When the model guesses, tell it whether it got your object."),
    ),
    GamePage(
        id="taboo",
        name="Taboo",
        role="You hold the word; the model must not say it.",
        pitch=("You get a secret word and five short messages to lead the model into a wrong guess. It wins "
               "by naming the word correctly or by getting through five rounds without writing it."),
        how=("The word appears once the game starts.",
             "Each message is at most 140 characters and must not contain the word or any form of it.",
             "If the model slips and writes the word, it gets one guess to save itself."),
    ),
    GamePage(
        id="bluffing",
        name="Bluffing",
        role="You make a claim; the model judges it.",
        pitch=("Say something about yourself, true or invented, and defend it. The model may ask up to five "
               "questions before it decides whether you told the truth."),
        how=("Write a statement about yourself and mark, privately, whether it is true.",
             "Answer the model's questions; if you are bluffing, keep the story straight.",
             "At the end the model gives its verdict: True or False."),
    ),
)
_BY_ID: Final = {page.id: page for page in GAME_PAGES}

router = APIRouter(include_in_schema=False)


def _render(request: Request, template: str, page: str, **context: object) -> HTMLResponse:
    return _TEMPLATES.TemplateResponse(request, template, {"page": page, "games": GAME_PAGES, **context})


@router.get("/", response_class=HTMLResponse)
def home(request: Request) -> HTMLResponse:
    return _render(request, "home.html", "home")


@router.get("/play/{game}", response_class=HTMLResponse)
def play(request: Request, game: str, level: str = "", model: str = "") -> HTMLResponse:
    """The set-up form; ``level`` and ``model`` pre-select the home page's choices (ignored when unknown)."""
    info = _BY_ID.get(game)
    if info is None:
        raise HTTPException(status_code=404, detail=f"no such game: {game[:40]}")
    known = {str(item.level) for item in info.levels}
    chosen = level if level in known else str(info.levels[0].level)
    return _render(request, "play.html", "play", game=info, level=chosen, model=model[:200])


@router.get("/matches/{match_id}", response_class=HTMLResponse)
def match(request: Request, match_id: str) -> HTMLResponse:
    if not match_id or len(match_id) > 100:
        raise HTTPException(status_code=404, detail="no such match")
    return _render(request, "match.html", "match", match_id=match_id)


@router.get("/watch", response_class=HTMLResponse)
def watch(request: Request) -> HTMLResponse:
    return _render(request, "watch.html", "watch", games_data=[game.public() for game in GAME_PAGES])


@router.get("/leaderboard", response_class=HTMLResponse)
def leaderboard(request: Request) -> HTMLResponse:
    return _render(request, "leaderboard.html", "leaderboard")


@router.get("/stats", response_class=HTMLResponse)
def stats(request: Request) -> HTMLResponse:
    return _render(request, "stats.html", "stats")
