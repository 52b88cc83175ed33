"""``playeval play``: a person at the terminal against a model."""

from __future__ import annotations

import asyncio
import getpass
import secrets

import typer

from playeval.cli.console import db_option, fail, outcome_label, stdout
from playeval.core.ask import Ask, Reply
from playeval.core.game import Game, PersonInput
from playeval.core.match import MatchSpec, Outcome
from playeval.core.registry import default_registry
from playeval.core.rng import match_rng
from playeval.engine import play_match, seat_assignments, state_from_events
from playeval.models import DEFAULT_MODEL, ModelHub
from playeval.players import LLMPlayer, Player, TerminalPlayer
from playeval.store import Store


class _Announced:
    """Tells the person the model is thinking while it is."""

    def __init__(self, inner: LLMPlayer, seat: str) -> None:
        self._inner = inner
        self._seat = seat
        self.kind = inner.kind
        self.model = inner.model
        self.max_retries = inner.max_retries

    async def act(self, ask: Ask) -> Reply:
        console = stdout()
        with console.status(f"the model ({self._seat}) is thinking…"):
            reply = await self._inner.act(ask)
        return reply


def _verdict(outcome: Outcome, human_seat: str) -> str:
    """The outcome told to the person, from their side of the table."""
    if outcome.status == "aborted":
        return f"[bold]Game abandoned[/] after {outcome.rounds} rounds; recorded as aborted."
    if outcome.status == "forfeit":
        who = "You" if outcome.forfeit_seat == human_seat else "The model"
        return f"[bold]{who} forfeited.[/] {outcome.reason}"
    return f"[bold]You {outcome_label(outcome, human_seat)}.[/] {outcome.reason}"


def _ask_person(item: PersonInput) -> str | None:
    """One input from the person; hidden ones are typed without echo. Re-asked until valid."""
    suffix = f" [{'/'.join(item.choices)}]" if item.choices else ""
    optional = "" if item.required else " (Enter to keep it in your head)"
    while True:
        prompt = f"{item.prompt}{suffix}{optional}: "
        typed = (getpass.getpass(prompt) if item.hidden else input(prompt)).strip()
        if not typed and not item.required:
            return None
        if item.choices and typed.lower() not in {c.lower() for c in item.choices}:
            stdout().print(f"please answer one of: {', '.join(item.choices)}")
            continue
        if typed:
            return typed.lower() if item.choices else typed


def _person_spec(game: Game[object], level: int, seed: int) -> MatchSpec:
    """The spec of a match whose secret seat a person holds: what they type, or a drawn secret shown to them."""
    answers = {item.key: _ask_person(item) for item in game.person_inputs}
    secret = answers.pop("secret", None)
    options = {key: value for key, value in answers.items() if value is not None}
    spec = game.new_spec(level, seed, match_rng(seed), secret=secret, options=options or None)
    if not game.person_inputs:
        stdout().print(f"Your secret is: [bold]{spec.secret}[/] (the model does not see it)")
    elif "secret" in {item.key for item in game.person_inputs} and secret is None:
        spec = spec.model_copy(update={"secret": None})  # kept in the person's head: nothing is drawn for them
    return spec


def register(app: typer.Typer) -> None:
    @app.command("play")
    def play(
        game_id: str = typer.Argument(..., metavar="GAME", help="Game id (see `playeval games`)."),
        model: str = typer.Option(DEFAULT_MODEL, "--model", "-m", help="The model you play against."),
        seat: str = typer.Option(None, "--as", help="Your seat (default: the person's seat of the game)."),
        level: int = typer.Option(1, "--level", help="Game level."),
        seed: int = typer.Option(None, "--seed", help="Seed (default: random)."),
        no_cache: bool = typer.Option(False, "--no-cache", help="Do not read or write the response cache."),
        db: str | None = db_option(),
    ) -> None:
        """Play a game in the terminal against a model; the match is recorded like any other."""
        game = default_registry().get(game_id)
        names = [s.name for s in game.seats]
        human_seat = seat or next(s.name for s in game.seats if not s.evaluated)
        if human_seat not in names:
            fail(f"{game.id} has the seats {', '.join(names)}; --as {seat} is not one of them")
        asyncio.run(_play(game, model, human_seat, level, seed, not no_cache, db))


async def _play(game: Game[object], model: str, human_seat: str, level: int, seed: int | None, use_cache: bool,
                db: str | None) -> None:
    console = stdout()
    seed = secrets.randbelow(2**31) if seed is None else seed
    spec = _person_spec(game, level, seed) if human_seat == game.secret_owner else \
        game.new_spec(level, seed, match_rng(seed))
    async with ModelHub(use_cache=use_cache) as hub:
        players: dict[str, Player] = {}
        for info in game.seats:
            if info.name == human_seat:
                players[info.name] = TerminalPlayer(name="you")
            else:
                players[info.name] = _Announced(LLMPlayer(hub.get(model), seed=seed), info.name)
        assignments = seat_assignments(spec, players)
        console.print(f"[bold]{game.title}[/], level {level}: you are the {human_seat}; "
                      f"the other seat is played by {model}.")
        with Store.open(db) as store:
            match_id = store.create_match(spec=spec, seats=assignments)
            try:
                outcome = await play_match(game, spec, players, store, match_id)
                state = state_from_events(game, spec, store.events(match_id))
            except (EOFError, KeyboardInterrupt):
                state = state_from_events(game, spec, store.events(match_id))
                outcome = Outcome(status="aborted", winner=None, reason="the person left the game",
                                  rounds=game.rounds(state))
                store.finish_match(match_id, outcome)
    console.print()
    for seat_name, text in game.transcript(state):
        console.print(f"  {seat_name}: {text}", markup=False)
    console.print("\n" + _verdict(outcome, human_seat))
    if spec.secret:
        console.print(f"The secret was: [bold]{spec.secret}[/]")
    console.print(f"(match {match_id} recorded)")
