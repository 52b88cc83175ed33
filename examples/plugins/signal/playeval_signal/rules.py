"""Signal: two teams of two try to pick the same symbol as their partner, without talking.

Seats: north and south play for the red team, east and west for the blue team. Every round draws four symbols
from one set (shapes, fruits or colours: the match's category); each seat sees them in its own order, and all seats
pick one at once, in secret. A team whose two seats picked the same symbol scores a point. After ``rounds`` rounds
the team with more points wins; equal points are a draw. A seat that runs out of re-asks is out, and its team can
score no more. The focal point (the symbol first in alphabetical order) is how a thoughtful pair agrees.

What playeval shows of it is declared here: the team analysis (each seat's agreement with its partner and its
focal picks per model and side, a team Elo, the win rate per symbol set), the seat's score (its team's points)
and the team Elo plot.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from playeval.core import (
    Action,
    Ask,
    ConfigError,
    Event,
    FormatError,
    GameBase,
    GameOption,
    LevelInfo,
    MatchSpec,
    MeasureGroup,
    Outcome,
    OutputConstraint,
    PlotKind,
    Presentation,
    RuleViolation,
    Scalar,
    ScoreInfo,
    SeatInfo,
    SeatMeasure,
    SeatResult,
    TeamAnalysis,
    TeamElo,
    TeamInfo,
)
from playeval.core.messages import assistant, system, user
from playeval_signal.players import FocalPlayer

SEATS: tuple[str, ...] = ("north", "east", "south", "west")
TEAMS: dict[str, str] = {"north": "red", "south": "red", "east": "blue", "west": "blue"}
PARTNER: dict[str, str] = {"north": "south", "south": "north", "east": "west", "west": "east"}
SYMBOLS: dict[str, tuple[str, ...]] = {
    "shapes": ("circle", "square", "star", "triangle", "diamond", "cross"),
    "fruits": ("apple", "cherry", "lemon", "pear", "plum", "grape"),
    "colours": ("amber", "blue", "green", "red", "violet", "white"),
}
CHOICES = 4


@dataclass(frozen=True)
class SignalState:
    spec: MatchSpec
    round: int = 1
    picks: tuple[tuple[int, str, str], ...] = ()
    """(round, seat, symbol) of every pick, the open round's too."""
    out: tuple[tuple[str, int, str], ...] = ()
    """(seat, round, reason) of the seats put out."""

    @property
    def rounds(self) -> int:
        return int(self.spec.params["rounds"])

    def alive(self) -> list[str]:
        gone = {seat for seat, _, _ in self.out}
        return [seat for seat in SEATS if seat not in gone]

    def picked(self, round_: int) -> dict[str, str]:
        return {seat: symbol for number, seat, symbol in self.picks if number == round_}

    def agreed(self, round_: int, team: str) -> bool:
        picked = self.picked(round_)
        first, second = (seat for seat in SEATS if TEAMS[seat] == team)
        return first in picked and picked.get(first) == picked.get(second)

    def points(self, team: str) -> int:
        return sum(self.agreed(number, team) for number in range(1, self.round))


class Signal(GameBase):
    id: ClassVar[str] = "signal"
    title: ClassVar[str] = "Signal (two teams pick the same symbol without talking)"
    seats: ClassVar[tuple[SeatInfo, ...]] = tuple(
        SeatInfo(name=seat, role=f"plays for the {TEAMS[seat]} team: picks the symbol its partner picks",
                 evaluated=True) for seat in SEATS)
    levels: ClassVar[tuple[LevelInfo, ...]] = (LevelInfo(level=1, description="four symbols a round"),)
    options: ClassVar[tuple[GameOption, ...]] = (
        GameOption(name="rounds", description="rounds played", default=3, minimum=1, maximum=8),)
    presentation: ClassVar[Presentation] = Presentation(
        name="Signal", tagline="Pick what your partner picks, without a word.",
        pitch="Two teams of two. Every round, four symbols, and a point for each pair that picks the same one.",
        how=("You see four symbols, in your own order.", "Pick one; your partner picks at the same time.",
             "The same symbol scores your team a point."),
        person_seat="north")
    score: ClassVar[ScoreInfo | None] = ScoreInfo(label="team points", unit="points")
    teams: ClassVar[TeamAnalysis | None] = TeamAnalysis(
        teams=(TeamInfo(name="red", label="red team"), TeamInfo(name="blue", label="blue team")),
        groups=(MeasureGroup(label="Play", measures=(
                    SeatMeasure(name="agreement", label="agreed", title="Agreement", kind="mean"),
                    SeatMeasure(name="focal", label="focal", title="Focal picks", kind="mean"))),
                MeasureGroup(label="Counts", measures=(
                    SeatMeasure(name="forfeited", label="forfeits", title="Forfeits", kind="count"),))),
        elo=TeamElo(weights=(("won", 0.8), ("agreement", 0.2))),
        category="symbol set",
        counts=("forfeited",),
        counts_title="forfeits per model",
        counts_note="forfeits: seats put out because their re-asks ran out. Per side, with agreement and focal picks:",
        caption=("Per model and side, every seat it held in a finished match. Win: seats whose team won, with a "
                 "Wilson 95% interval; run's rate: what those seats would win at this run's own team win rates (red "
                 "won {red}, blue {blue} of the {matches} matches). Agreement: rounds its pick matched its "
                 "partner's; focal picks: picks of the alphabetically first symbol; means over seats with a "
                 "Student-t 95% interval."))
    plots: ClassVar[tuple[PlotKind, ...]] = ("team_elo",)

    def new_spec(self, level: int, seed: int, rng: random.Random, *, inputs: Mapping[str, str] | None = None,
                 secret_set: str | None = None, options: Mapping[str, Scalar] | None = None) -> MatchSpec:
        if level != 1:
            raise ConfigError(f"signal has one level, 1, not {level}")
        if inputs:
            raise ConfigError("signal takes no inputs")
        rounds = int((options or {}).get("rounds", 3))
        category = rng.choice(sorted(SYMBOLS))
        orders: list[dict[str, list[str]]] = []
        for _ in range(rounds):
            drawn = rng.sample(SYMBOLS[category], CHOICES)
            orders.append({seat: rng.sample(drawn, CHOICES) for seat in SEATS})
        return MatchSpec(game=self.id, level=level, seed=seed, setup={"category": category, "orders": orders},
                         params={"rounds": rounds})

    def initial_state(self, spec: MatchSpec) -> SignalState:
        return SignalState(spec=spec)

    def next_asks(self, state: SignalState) -> tuple[Ask, ...]:
        picked = state.picked(state.round)
        return tuple(self._ask(state, seat) for seat in state.alive() if seat not in picked)

    def _ask(self, state: SignalState, seat: str) -> Ask:
        """The seat's pick of the open round. A seat's asks are one conversation that only grows (each round adds
        the last round's result, the new symbols and the seat's pick), so a local model keeps its context from one
        round to the next and reads only what is new."""
        messages = [system(f"You are {seat}, on the {TEAMS[seat]} team with {PARTNER[seat]}. Each round you both "
                           "see the same four symbols, each in your own order, and pick one at once; the same pick "
                           "scores your team a point.")]
        for number in range(1, state.round + 1):
            heard = "\n".join(self._round_lines(state, number - 1)) or "(the first round)"
            listed = ", ".join(state.spec.setup["orders"][number - 1][seat])
            messages.append(user(f"{heard}\nRound {number}. Pick one of: {listed}"))
            if number < state.round:  # a seat still asked picked in every round before
                messages.append(assistant(state.picked(number)[seat]))
        symbols = tuple(state.spec.setup["orders"][state.round - 1][seat])
        listed = ", ".join(symbols)
        return Ask(seat=seat, kind="pick", display=f"Round {state.round}: pick one of {listed}.",
                   instructions="Reply with one of: " + listed, messages=tuple(messages),
                   constraint=OutputConstraint(choices=symbols), max_tokens=8)

    def parse(self, state: SignalState, ask: Ask, text: str) -> Action:
        choice = text.strip().lower()
        if not choice or "\n" in choice:
            raise FormatError("reply with one symbol.")
        return Action(seat=ask.seat, kind="pick", text=choice)

    def apply(self, state: SignalState, action: Action) -> SignalState:
        seat = action.seat or ""
        if self.outcome(state) is not None or seat not in state.alive() or seat in state.picked(state.round):
            raise RuleViolation(f"{seat} has no pick to make now.")
        if action.text not in state.spec.setup["orders"][state.round - 1][seat]:
            raise RuleViolation(f"{action.text!r} is not one of this round's symbols.")
        return self._after(replace(state, picks=(*state.picks, (state.round, seat, action.text))))

    def eliminate(self, state: SignalState, seat: str, reason: str) -> SignalState:
        return self._after(replace(state, out=(*state.out, (seat, state.round, f"forfeit: {reason}"))))

    def _after(self, state: SignalState) -> SignalState:
        """Close the round once every seat still in has picked."""
        if state.round > state.rounds or any(seat not in state.picked(state.round) for seat in state.alive()):
            return state
        return replace(state, round=state.round + 1)

    def outcome(self, state: SignalState) -> Outcome | None:
        if state.round <= state.rounds and state.alive():
            return None
        red, blue = state.points("red"), state.points("blue")
        team = "red" if red > blue else "blue" if blue > red else None
        out = {seat: (number, reason) for seat, number, reason in state.out}
        results = tuple(SeatResult(seat=seat, team=TEAMS[seat], won=TEAMS[seat] == team,
                                   eliminated_round=out[seat][0] if seat in out else None,
                                   elimination=out[seat][1] if seat in out else None,
                                   score=float(state.points(TEAMS[seat])), forfeited=seat in out)
                        for seat in SEATS)
        reason = f"red {red}, blue {blue} points after {self.rounds(state)} rounds"
        if team is None:
            return Outcome(status="finished", reason=f"a draw: {reason}", rounds=self.rounds(state), results=results)
        return Outcome(status="finished", winners=tuple(s for s in SEATS if TEAMS[s] == team), winning_team=team,
                       reason=reason, rounds=self.rounds(state), results=results)

    def rounds(self, state: SignalState) -> int:
        return min(state.round - 1, state.rounds)

    def transcript(self, state: SignalState) -> Sequence[tuple[str, str]]:
        return [("game", line) for number in range(1, state.round) for line in self._round_lines(state, number)]

    @staticmethod
    def _round_lines(state: SignalState, number: int) -> list[str]:
        """What round ``number`` did, as public lines (none for round 0)."""
        lines: list[str] = []
        if number < 1:
            return lines
        picked = state.picked(number)
        for team in ("red", "blue"):
            shown = ", ".join(f"{seat} {picked[seat]}" for seat in SEATS if TEAMS[seat] == team and seat in picked)
            scored = "a point" if state.agreed(number, team) else "no point"
            lines.append(f"Round {number}, {team}: {shown or 'no picks'}: {scored}.")
        return lines

    def scripted_player(self, party: str, spec: MatchSpec) -> Any:
        if party not in SEATS:
            raise ConfigError(f"signal has no seat or role {party!r}")
        return FocalPlayer()

    # -- analysis ---------------------------------------------------------------------------------------------

    def seat_measures(self, spec: MatchSpec, state: SignalState, events: Sequence[Event]
                      ) -> dict[str, dict[str, float | None]]:
        found: dict[str, dict[str, float | None]] = {}
        for seat in SEATS:
            mine = [(number, symbol) for number, who, symbol in state.picks if who == seat]
            agreed = [state.picked(number).get(PARTNER[seat]) == symbol for number, symbol in mine]
            focal = [symbol == min(spec.setup["orders"][number - 1][seat]) for number, symbol in mine]
            found[seat] = {"agreement": sum(agreed) / len(agreed) if agreed else None,
                           "focal": sum(focal) / len(focal) if focal else None}
        return found

    def match_category(self, spec: MatchSpec) -> str | None:
        return str(spec.setup["category"])
