"""``playeval play``: a person at the terminal, at a table of models."""

from __future__ import annotations

import asyncio
import getpass
import secrets
from collections import Counter
from collections.abc import Sequence
from typing import Any

import typer

from playeval.cli.console import db_option, fail, outcome_label, stdout
from playeval.cli.run_cmd import _pairs
from playeval.core.ask import Ask, Reply
from playeval.core.errors import ConfigError
from playeval.core.events import RoleAssignment, SeatAssignment
from playeval.core.game import Game, person_seat
from playeval.core.held import live_state
from playeval.core.hidden import live_disclosures, revealed_disclosures
from playeval.core.info import PersonInput, Scalar, panel_options
from playeval.core.inputs import check_inputs, check_options, inputs_for
from playeval.core.match import MatchSpec, Outcome
from playeval.core.registry import default_registry
from playeval.core.rng import match_rng
from playeval.engine import RunConfig, build_players, play_match, role_assignments, state_from_events
from playeval.engine.calibrations import CalibrationBook, match_models, with_thresholds
from playeval.models import DEFAULT_MODEL, ModelHub
from playeval.players import Player, TerminalPlayer
from playeval.store import Store


class _Announced:
    """Tells the person that a model is thinking while it is."""

    def __init__(self, inner: Player, party: str) -> None:
        self._inner = inner
        self._party = party
        self.kind = inner.kind
        self.model = inner.model
        self.max_retries = inner.max_retries

    async def act(self, ask: Ask) -> Reply:
        with stdout().status(f"the model ({self._party}) is thinking…"):
            return await self._inner.act(ask)


class _Narrated:
    """The person at the terminal, shown what the other seats said since their last turn before each ask (the
    match's live state: a role's held text, such as a judge's reason, waits for the end; ``core.held``). A line
    the ask itself shows (a rule game's examples) is left to the ask, so every block is printed once; ``seen``
    keeps every line the person has read or said, so the end shows only what they have not."""

    kind = "human"
    model: str | None = None

    def __init__(self, inner: TerminalPlayer, game: Game[Any], spec: MatchSpec, seat: str, store: Store,
                 match_id: str) -> None:
        self._inner = inner
        self._game = game
        self._spec = spec
        self._seat = seat
        self._store = store
        self._match_id = match_id
        self._shown = 0
        self.seen: Counter[tuple[str, str]] = Counter()
        self.max_retries = inner.max_retries

    async def act(self, ask: Ask) -> Reply:
        live = live_state(self._game, self._spec, self._store.events(self._match_id), over=False)
        lines = list(self._game.transcript(live))
        console = stdout()
        for speaker, text in lines[self._shown:]:
            if speaker != self._seat and not shown_by(text, ask.display):
                console.print(f"  {speaker}: {text}", markup=False)
        self.seen.update(lines[self._shown:])
        self._shown = len(lines)
        return await self._inner.act(ask)

    def unseen(self, lines: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
        """The lines of a transcript the person has not been shown yet, in order (each line once)."""
        left = Counter(self.seen)
        fresh: list[tuple[str, str]] = []
        for line in lines:
            if left[line] > 0:
                left[line] -= 1
            else:
                fresh.append(line)
        return fresh


def _listed(line: str) -> tuple[str, set[str]] | None:
    """``Label: a, b, c`` as its label and items; ``None`` for a line that is not such a list."""
    label, colon, rest = line.partition(": ")
    return (label.strip(), {item.strip() for item in rest.split(",")}) if colon and rest.strip() else None


def shown_by(text: str, display: str) -> bool:
    """Whether an ask's ``display`` already shows every line of a transcript ``text``: as a whole line, or, for a
    list (``May come: teacup, coffee cup``, the examples a ``MORE`` added), as items of the ask's list of the same
    label (``May come: chalice, teaspoon, teacup, coffee cup``), so the new examples are not printed twice."""
    whole = set(display.split("\n"))
    lists: dict[str, set[str]] = {}
    for line in whole:
        found = _listed(line)
        if found is not None:
            lists.setdefault(found[0], set()).update(found[1])
    for line in text.split("\n"):
        if line in whole or not line.strip():
            continue
        found = _listed(line)
        if found is None or not found[1] <= lists.get(found[0], set()):
            return False
    return True


def _names(names: list[str]) -> str:
    """``a``; ``a and b``; ``a, b and c``."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _part(name: str) -> str:
    """A role, or a seat of a table of one or two, in a sentence: a name with a number in it is a name
    ("judge#2"), any other a part at the table ("the guesser", "the judge")."""
    return name if any(char.isdigit() for char in name) else f"the {name}"


DUEL_SEATS = 2
"""Up to this many seats, a seat is a part ("the guesser"); at a bigger table its name is a name ("north")."""
MANY_OTHERS = 4
"""From this many other seats, the line counts them before naming them."""


def table_line(human_seat: str, seats: list[str], model: str, roles: tuple[RoleAssignment, ...]) -> str:
    """Who plays what, for any number of seats and roles: "you are the guesser; the answerer is played by M",
    "you are player3, one of 6 seats; the other 5 (player1, player2, ...) are played by M; the judge is played by
    J"."""
    others = [name for name in seats if name != human_seat]
    named = _part if len(seats) <= DUEL_SEATS else str
    line = f"you are {named(human_seat)}"
    if len(others) >= MANY_OTHERS:
        line += f", one of {len(seats)} seats; the other {len(others)} ({', '.join(others)}) are played by {model}"
    elif others:
        parts = [named(name) for name in others]
        line += f"; {_names(parts)} {'is' if len(parts) == 1 else 'are'} played by {model}"
    by_player: dict[str, list[str]] = {}
    for role in roles:  # a role bound to the person's own seat (Akinator's judge) is theirs
        player = "you" if role.seat == human_seat else role.model or role.player_kind
        by_player.setdefault(player, []).append(_part(role.role))
    for player, names in by_player.items():
        line += f"; {_names(names)} {'is' if len(names) == 1 else 'are'} played by {player}"
    return line + "."


def verdict_line(outcome: Outcome, human_seat: str) -> str:
    """The outcome told to the person, from their side of the table."""
    if outcome.status == "aborted":
        return f"[bold]Game abandoned[/] after {outcome.rounds} rounds; recorded as aborted."
    if outcome.status == "forfeit":
        seat = outcome.forfeit_seat or "a seat"
        who = "You" if seat == human_seat else seat[:1].upper() + seat[1:]
        return f"[bold]{who} forfeited.[/] {outcome.reason}"
    return f"[bold]You {outcome_label(outcome, human_seat)}.[/] {outcome.reason}"


def _ask_person(item: PersonInput) -> str:
    """One input from the person; hidden ones are typed without echo. Re-asked until it is well-formed."""
    suffix = f" [{'/'.join(item.choices)}]" if item.choices else ""
    optional = "" if item.required else " (Enter to keep it in your head)"
    while True:
        prompt = f"{item.prompt}{suffix}{optional}: "
        typed = (getpass.getpass(prompt) if item.hidden else input(prompt)).strip()
        try:
            return check_inputs("this game", (item,), {item.key: typed}).get(item.key, "")
        except ConfigError as err:
            stdout().print(str(err).replace(f"inputs.{item.key}", "this"))


def _spec(game: Game[Any], level: int, seed: int, human_seat: str, options: dict[str, Scalar]) -> MatchSpec:
    """The match's setup: what the person provides for their seat (asked here), the rest drawn."""
    wanted = inputs_for(game.person_inputs, (human_seat,))
    given = {item.key: _ask_person(item) for item in wanted}
    inputs = {key: value for key, value in given.items() if value}
    return game.new_spec(level, seed, match_rng(seed), inputs=inputs if wanted else None, options=options or None)


def _checked(game: Game[Any], option: list[str] | None, role: list[str] | None
             ) -> tuple[dict[str, Scalar], dict[str, str]]:
    """``--option NAME=VALUE`` checked against the game's options, and ``--role ROLE=MODEL`` against its roles."""
    try:
        options = check_options(game.id, game.options, dict(_pairs(option, "--option"))) if option else {}
    except ConfigError as err:
        fail(str(err))
    roles = dict(_pairs(role, "--role"))
    unknown = sorted(set(roles) - {info.name for info in game.roles})
    if unknown:
        known = ", ".join(info.name for info in game.roles) or "none"
        fail(f"--role {', '.join(unknown)}: {game.id} has no such role (its roles: {known})")
    options.update(panel_options(game.roles, roles.get))
    return options, roles


def register(app: typer.Typer) -> None:
    @app.command("play")
    def play(
        game_id: str = typer.Argument(..., metavar="GAME", help="Game id (see `playeval games`)."),
        model: str = typer.Option(DEFAULT_MODEL, "--model", "-m", help="The model that plays every other seat."),
        seat: str = typer.Option(None, "--as", help="Your seat (default: the person's seat of the game)."),
        level: int = typer.Option(1, "--level", help="Game level."),
        seed: int = typer.Option(None, "--seed", help="Seed (default: random)."),
        option: list[str] = typer.Option(None, "--option", help="A game option: NAME=VALUE (see `playeval games`); "
                                                                "repeatable."),
        role: list[str] = typer.Option(None, "--role", help="Bind a role to a model: ROLE=MODEL (MODEL may be "
                                                            "'scripted'); repeatable. Default: the game's."),
        no_cache: bool = typer.Option(False, "--no-cache", help="Do not read or write the response cache."),
        no_calibration: bool = typer.Option(False, "--no-calibration",
                                            help="Let the judge's verdicts be its own words, even where a "
                                                 "calibration fitted for the judge model holds a threshold."),
        db: str | None = db_option(),
    ) -> None:
        """Play a game in the terminal against models; the match is recorded like any other."""
        game = default_registry().get(game_id)
        names = [s.name for s in game.seats if s.person]
        human_seat = seat or person_seat(game)
        if human_seat not in names:
            fail(f"{game.id} has the seats {', '.join(names)} for a person; --as {seat} is not one of them")
        options, roles = _checked(game, option, role)
        with Store.open(db) as store:  # a store that cannot be written fails before the person is asked anything
            asyncio.run(_play(game, model, human_seat, level, seed, not no_cache, store, options, roles,
                              calibration=not no_calibration))


async def _play(game: Game[Any], model: str, human_seat: str, level: int, seed: int | None, use_cache: bool,
                store: Store, options: dict[str, Scalar], roles: dict[str, str], *, calibration: bool = True) -> None:
    console = stdout()
    seed = secrets.randbelow(2**31) if seed is None else seed
    try:
        spec = _spec(game, level, seed, human_seat, options)
    except ConfigError as err:
        fail(str(err))
    table = game.table(spec)
    if human_seat not in {info.name for info in table}:
        fail(f"this {game.id} table has the seats {', '.join(info.name for info in table)}; "
             f"--as {human_seat} is not one of them")
    seats = {info.name: SeatAssignment(seat=info.name, player_kind="human" if info.name == human_seat else "llm",
                                       model=None if info.name == human_seat else model,
                                       prompt_variant=spec.variants.get(info.name),
                                       evaluated=info.evaluated and info.name != human_seat)
             for info in table}
    config = RunConfig(games=(game.id,), models=(model,), opponent=model, n=1, level=level, roles=roles)
    bound = role_assignments(game, config, seats, model, spec=spec)
    if calibration:  # the match keeps the thresholds its models' verdicts are decided by
        spec = with_thresholds(spec, CalibrationBook().thresholds(game.id, match_models(seats.values(), bound)))
    for item in live_disclosures(game, spec, (human_seat,)):
        console.print(f"{item.label}: [bold]{item.value}[/] (the model does not see it)")
    async with ModelHub(use_cache=use_cache) as hub:
        addresses = [seat.model for seat in seats.values()] + [role.model for role in bound]
        for address in dict.fromkeys(address for address in addresses if address):
            hub.check(address)  # an unknown model, a missing key or missing weights: one line, no match recorded
        console.print(f"[bold]{game.title}[/], level {level}: {table_line(human_seat, list(seats), model, bound)}",
                      markup=True)
        for address, thresholds in spec.thresholds.items():
            console.print(f"({address} decides its verdicts by calibrated thresholds: {thresholds.label})",
                          markup=False)
        match_id = store.create_match(spec=spec, seats=tuple(seats.values()), roles=bound)
        person = _Narrated(TerminalPlayer(name="you"), game, spec, human_seat, store, match_id)
        built = build_players(game, spec, tuple(seats.values()), bound, hub.get, people={human_seat: person})
        players = {party: player if player is None or player.kind == "human" else _Announced(player, party)
                   for party, player in built.items()}
        try:
            outcome = await play_match(game, spec, players, store, match_id)
            state = state_from_events(game, spec, store.events(match_id))
        except (EOFError, KeyboardInterrupt):
            state = state_from_events(game, spec, store.events(match_id))
            outcome = Outcome(status="aborted", reason="the person left the game", rounds=game.rounds(state))
            store.finish_match(match_id, outcome)
    console.print()
    for seat_name, text in person.unseen(game.transcript(state)):  # what came after the person's last turn
        if seat_name != human_seat:  # the person's own last words they have just typed
            console.print(f"  {seat_name}: {text}", markup=False)
    console.print("\n" + verdict_line(outcome, human_seat))
    for item in revealed_disclosures(game, spec, state=state):
        console.print(f"{item.revealed_label}: [bold]{item.value}[/]")
    console.print(f"(match {match_id} recorded)")
