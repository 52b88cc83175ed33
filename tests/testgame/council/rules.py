"""Council: a small game of two teams, written to prove that a new game is one folder.

Four seats in two teams (red: north and south; blue: east and west). Each team shares a secret word that only
its own seats see. Every round, each seat still in the game gives a one-line clue about its team's word, in
seat order (the first speaker moves one seat on each round); the ``judge`` role says whether the clue fits the
word, and a clue that does not puts its speaker out. Then every seat still in votes, in secret and at once, for
a seat of the other team; the seat with the most votes is out (a tie puts nobody out). A team with nobody left
loses; after ``rounds`` rounds the team with more seats left wins, and equal numbers are a draw. A seat that
runs out of re-asks is out, and the game goes on.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar, Literal

from council.players import ScriptedJudge, ScriptedSeat
from playeval.core import (
    Action,
    Ask,
    ConfigError,
    Disclosure,
    FormatError,
    GameBase,
    GameOption,
    LevelInfo,
    MatchSpec,
    Outcome,
    OutputConstraint,
    Presentation,
    RoleInfo,
    RuleViolation,
    Scalar,
    SeatInfo,
    SeatResult,
)
from playeval.core.messages import system, user
from playeval.core.normalize import normalize_name
from playeval.core.votes import plurality

SEATS: tuple[str, ...] = ("north", "east", "south", "west")
TEAMS: dict[str, str] = {"north": "red", "south": "red", "east": "blue", "west": "blue"}
JUDGE = "judge"
FITS, OFF = "fits", "off-topic"
WORDS: tuple[tuple[str, str], ...] = (("river", "mountain"), ("lantern", "anchor"), ("orchard", "glacier"),
                                      ("violin", "compass"))
MAX_CLUE_CHARS = 80

Phase = Literal["clue", "verdict", "vote"]


@dataclass(frozen=True)
class Clue:
    round: int
    seat: str
    text: str
    verdict: str | None = None


@dataclass(frozen=True)
class Out:
    seat: str
    round: int
    reason: str
    after: int = 0
    """How many clues had been given when the seat went out (where a forfeit shows in the transcript)."""


@dataclass(frozen=True)
class CouncilState:
    spec: MatchSpec
    round: int = 1
    clues: tuple[Clue, ...] = ()
    votes: tuple[tuple[str, str], ...] = ()
    """(voter, target) of the round's open vote."""
    tallies: tuple[str, ...] = ()
    """What each closed vote did, as public lines."""
    out: tuple[Out, ...] = ()

    @property
    def rounds(self) -> int:
        return int(self.spec.params.get("rounds", 3))

    def alive(self) -> list[str]:
        gone = {item.seat for item in self.out}
        return [seat for seat in SEATS if seat not in gone]

    def word(self, seat: str) -> str:
        return str(self.spec.setup["words"][TEAMS[seat]])

    def speakers(self) -> list[str]:
        """This round's speaking order: seat order, starting one seat later each round."""
        start = (self.round - 1) % len(SEATS)
        order = [*SEATS[start:], *SEATS[:start]]
        return [seat for seat in order if seat in self.alive()]

    def phase(self) -> Phase:
        spoken = [clue for clue in self.clues if clue.round == self.round]
        if spoken and spoken[-1].verdict is None:
            return "verdict"
        said = {clue.seat for clue in spoken}
        return "clue" if any(seat not in said for seat in self.speakers()) else "vote"


def _team_left(state: CouncilState, team: str) -> int:
    return sum(1 for seat in state.alive() if TEAMS[seat] == team)


class Council(GameBase):
    id: ClassVar[str] = "council"
    title: ClassVar[str] = "Council (two teams, a judge and a secret vote)"
    seats: ClassVar[tuple[SeatInfo, ...]] = tuple(
        SeatInfo(name=seat, role=f"plays for the {TEAMS[seat]} team: gives clues about its word and votes",
                 evaluated=True) for seat in SEATS)
    roles: ClassVar[tuple[RoleInfo, ...]] = (
        RoleInfo(name=JUDGE, does="says whether a clue fits its team's word", default="local",
                 sees=("red_word", "blue_word")),)
    levels: ClassVar[tuple[LevelInfo, ...]] = (LevelInfo(level=1, description="two teams of two, one word each"),)
    options: ClassVar[tuple[GameOption, ...]] = (
        GameOption(name="rounds", description="rounds before the team with more seats left wins", default=3,
                   minimum=1, maximum=6),)
    presentation: ClassVar[Presentation] = Presentation(
        name="Council", tagline="Give clues your partner understands; vote out the other team.",
        pitch="Two teams, two secret words, one judge. Stay on topic, and vote wisely.",
        how=("You see your team's word; nobody else does.", "Give a one-line clue about it without saying it.",
             "Vote, in secret, for a seat of the other team."),
        person_seat="north")

    def new_spec(self, level: int, seed: int, rng: random.Random, *, inputs: Mapping[str, str] | None = None,
                 secret_set: str | None = None, options: Mapping[str, Scalar] | None = None) -> MatchSpec:
        if level != 1:
            raise ConfigError(f"council has one level, 1, not {level}")
        if inputs:
            raise ConfigError("council takes no inputs")
        red, blue = rng.choice(WORDS)
        rounds = int((options or {}).get("rounds", 3))
        return MatchSpec(game=self.id, level=level, seed=seed, setup={"words": {"red": red, "blue": blue}},
                         params={"rounds": rounds})

    def initial_state(self, spec: MatchSpec) -> CouncilState:
        return CouncilState(spec=spec)

    def disclosures(self, spec: MatchSpec, state: Any = None) -> Sequence[Disclosure]:
        words = spec.setup["words"]
        return tuple(Disclosure(key=f"{team}_word", value=str(words[team]),
                                seats=tuple(seat for seat in SEATS if TEAMS[seat] == team),
                                label="Your team's word", revealed_label=f"The {team} team's word")
                     for team in ("red", "blue"))

    # -- asks -------------------------------------------------------------------------------------------------

    def next_asks(self, state: CouncilState) -> tuple[Ask, ...]:
        phase = state.phase()
        if phase == "verdict":
            clue = state.clues[-1]
            word = state.word(clue.seat)
            return (Ask(role=JUDGE, kind="verdict", display=f"Clue for '{word}': {clue.text}",
                        instructions=f"Answer {FITS} or {OFF}.",
                        messages=(system("You judge a word game. Say whether a clue fits a word: would a fair "
                                         f"player take it as a hint for that word? Answer with one of: {FITS}, "
                                         f"{OFF}."),
                                  user(f"Word: {word}\nClue: {clue.text}")),
                        constraint=OutputConstraint(choices=(FITS, OFF)), max_tokens=8),)
        if phase == "clue":
            said = {clue.seat for clue in state.clues if clue.round == state.round}
            seat = next(seat for seat in state.speakers() if seat not in said)
            return (self._clue_ask(state, seat),)
        voted = {voter for voter, _ in state.votes}
        return tuple(self._vote_ask(state, seat) for seat in state.alive() if seat not in voted)

    def _public(self, state: CouncilState) -> str:
        lines = [f"Round {clue.round}, {clue.seat}: {clue.text}" for clue in state.clues]
        return "\n".join([*lines, *state.tallies]) or "(nothing said yet)"

    def _clue_ask(self, state: CouncilState, seat: str) -> Ask:
        word = state.word(seat)
        return Ask(seat=seat, kind="clue", display=f"Round {state.round}. Your team's word: {word}.",
                   instructions=f"One line, at most {MAX_CLUE_CHARS} characters, without the word itself.",
                   messages=(system(f"You are {seat}, on the {TEAMS[seat]} team; your team's word is '{word}'. "
                                    "Give a one-line clue that fits the word without saying it."),
                             user(f"So far:\n{self._public(state)}\nYour clue:")),
                   constraint=OutputConstraint(grammar="root ::= [A-Za-z] [^\\n]{0,79}\n"), max_tokens=32,
                   max_chars=MAX_CLUE_CHARS, one_line=True)

    def _vote_ask(self, state: CouncilState, seat: str) -> Ask:
        targets = tuple(other for other in state.alive() if TEAMS[other] != TEAMS[seat])
        return Ask(seat=seat, kind="vote", display=f"Round {state.round}: vote for a seat of the other team.",
                   instructions="Vote for one of: " + ", ".join(targets),
                   messages=(system(f"You are {seat}, on the {TEAMS[seat]} team. Vote, in secret, for the seat "
                                    "of the other team you want out."),
                             user(f"So far:\n{self._public(state)}\nVote for one of: {', '.join(targets)}")),
                   constraint=OutputConstraint(choices=targets), max_tokens=8)

    # -- moves ------------------------------------------------------------------------------------------------

    def parse(self, state: CouncilState, ask: Ask, text: str) -> Action:
        line = text.strip()
        if ask.role == JUDGE:
            verdict = next((choice for choice in (FITS, OFF) if line.lower() == choice), None)
            if verdict is None:
                raise FormatError(f"answer {FITS} or {OFF}.")
            return Action(role=JUDGE, kind="verdict", text=verdict)
        if not line or "\n" in line:
            raise FormatError("reply with one line.")
        if ask.kind == "vote":
            return Action(seat=ask.seat, kind="vote", text=normalize_name(line))
        if len(line) > MAX_CLUE_CHARS:
            raise FormatError(f"a clue has at most {MAX_CLUE_CHARS} characters.")
        return Action(seat=ask.seat, kind="clue", text=line)

    def apply(self, state: CouncilState, action: Action) -> CouncilState:
        if self.outcome(state) is not None:
            raise RuleViolation("the game is over.")
        phase = state.phase()
        if action.role == JUDGE:
            if phase != "verdict" or action.text not in (FITS, OFF):
                raise RuleViolation("there is no clue to judge.")
            clue = replace(state.clues[-1], verdict=action.text)
            state = replace(state, clues=(*state.clues[:-1], clue))
            if action.text == OFF:
                state = replace(state, out=(*state.out, Out(clue.seat, state.round, "off-topic clue")))
            return self._after(state)
        seat = action.seat or ""
        if seat not in state.alive():
            raise RuleViolation(f"{seat} is out of the game.")
        if action.kind == "clue":
            if phase != "clue" or self.next_asks(state)[0].seat != seat:
                raise RuleViolation(f"it is not {seat}'s turn to give a clue.")
            if normalize_name(state.word(seat)) in normalize_name(action.text).split():
                raise RuleViolation("the clue says the word itself.")
            return replace(state, clues=(*state.clues, Clue(state.round, seat, action.text)))
        if action.kind == "vote":
            if phase != "vote" or any(voter == seat for voter, _ in state.votes):
                raise RuleViolation(f"{seat} has no vote to cast now.")
            if action.text not in state.alive() or TEAMS[action.text] == TEAMS[seat]:
                raise RuleViolation(f"vote for a seat of the other team still in the game, not {action.text!r}.")
            return self._after(replace(state, votes=(*state.votes, (seat, action.text))))
        raise RuleViolation(f"{seat} cannot {action.kind}.")

    def eliminate(self, state: CouncilState, seat: str, reason: str) -> CouncilState:
        out = Out(seat, state.round, f"forfeit: {reason}", after=len(state.clues))
        return self._after(replace(state, out=(*state.out, out)))

    def _after(self, state: CouncilState) -> CouncilState:
        """Close the vote once every seat still in has voted (the tally does not depend on the order)."""
        if state.phase() != "vote" or self._decided(state):
            return state
        alive = state.alive()
        if any(seat not in {voter for voter, _ in state.votes} for seat in alive):
            return state
        top = plurality(target for voter, target in state.votes if target in alive and voter in alive)
        shown = ", ".join(f"{voter} for {target}" for voter, target in sorted(state.votes))
        if top is not None:
            loser, count = top
            line = f"Round {state.round} votes: {shown}; {loser} is out."
            out = (*state.out, Out(loser, state.round, f"voted out with {count} votes"))
        else:
            line, out = f"Round {state.round} votes: {shown}; a tie, nobody is out.", state.out
        return replace(state, votes=(), tallies=(*state.tallies, line), out=out, round=state.round + 1)

    # -- the end ----------------------------------------------------------------------------------------------

    def _decided(self, state: CouncilState) -> bool:
        return _team_left(state, "red") == 0 or _team_left(state, "blue") == 0 or state.round > state.rounds

    def outcome(self, state: CouncilState) -> Outcome | None:
        if not self._decided(state):
            return None
        red, blue = _team_left(state, "red"), _team_left(state, "blue")
        team = "red" if red > blue else "blue" if blue > red else None
        out = {item.seat: item for item in state.out}
        results = tuple(SeatResult(seat=seat, team=TEAMS[seat], won=TEAMS[seat] == team,
                                   placement=1 if team is None or TEAMS[seat] == team else 2,
                                   eliminated_round=out[seat].round if seat in out else None,
                                   elimination=out[seat].reason if seat in out else None,
                                   forfeited=seat in out and out[seat].reason.startswith("forfeit"))
                        for seat in SEATS)
        reason = f"{red} red and {blue} blue seats left after {self.rounds(state)} rounds"
        if team is None:
            return Outcome(status="finished", reason=f"a draw: {reason}", rounds=self.rounds(state), results=results)
        winners = tuple(seat for seat in SEATS if TEAMS[seat] == team)
        return Outcome(status="finished", winners=winners, winning_team=team, reason=reason,
                       rounds=self.rounds(state), results=results)

    def rounds(self, state: CouncilState) -> int:
        """Rounds begun: the closed ones, and the open one once anything happened in it."""
        begun = max([clue.round for clue in state.clues] + [item.round for item in state.out] + [0])
        return min(max(begun, state.round - 1), state.rounds)

    def transcript(self, state: CouncilState) -> Sequence[tuple[str, str]]:
        """The public lines in the order things happened (a transcript only grows): a forfeit shows where it
        happened, after the clues given before it in its round."""
        lines: list[tuple[str, str]] = []
        tallies = iter(state.tallies)
        forfeits = [item for item in state.out if item.reason.startswith("forfeit")]

        def forfeited(round_: int, after: int) -> None:
            lines.extend(("game", f"{item.seat} is out: {item.reason}") for item in forfeits
                         if item.round == round_ and item.after == after)

        given = 0
        for round_ in range(1, state.round + 1):
            forfeited(round_, given)
            for clue in (c for c in state.clues if c.round == round_):
                given += 1
                lines.append((clue.seat, clue.text))
                if clue.verdict == OFF:
                    lines.append(("game", f"the judge found {clue.seat}'s clue off-topic; {clue.seat} is out"))
                forfeited(round_, given)
            if round_ < state.round:
                lines.append(("game", next(tallies, "")))
        return lines

    def scripted_player(self, party: str, spec: MatchSpec) -> Any:
        if party == JUDGE:
            return ScriptedJudge()
        if party not in SEATS:
            raise ConfigError(f"council has no seat or role {party!r}")
        return ScriptedSeat(party)
