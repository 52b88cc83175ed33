"""GuessTheRuleBench's Math Game on playeval's core: find the hidden next-value rule of a number sequence.

Turn 1 shows ``num_init_examples`` values. Every later turn the player asks for N more values (``MORE: N``) or
states the rule (``GUESS: ...``); each counts one turn, and asking for more values than remain is refused with
the reason and counts nothing. After a guess the player first applies its rule to ``HELD_OUT`` values from
another start of the same sequence (the judge-free rule-application check, recorded), then the ``judge`` role
rules on the guess. The player wins on an accepted guess; the game ends at ``max_turns``, or when a guess made
after every value was shown is refused (the examples ran out).
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar, Literal

from playeval.core.ask import Ask, OutputConstraint
from playeval.core.errors import ConfigError, FormatError, RuleViolation
from playeval.core.game import GameBase
from playeval.core.info import Disclosure, GameOption, LevelInfo, Presentation, RoleInfo, Scalar, SeatInfo
from playeval.core.match import Action, MatchSpec, Outcome, SeatResult
from playeval.core.messages import Message, assistant, system, user
from playeval.games.math import prompts
from playeval.games.math.baselines import ScriptedJudge, ScriptedSolver
from playeval.games.math.sequences import HELD_OUT, SEQUENCE_LENGTH, MathRule, draw_rule, held_out

PLAYER = "player"
JUDGE = "judge"
MAX_GUESS_CHARS = 300

_MORE = re.compile(r"^\W*more\W*(\d{1,3})\b", re.IGNORECASE)
_GUESS = re.compile(r"^\W*guess\s*[:\-]\s*(?P<rule>\S.*)$", re.IGNORECASE)
_VERDICT = re.compile(r"verdict\s*:\s*\**\s*(yes|no)\b", re.IGNORECASE)
_REASON = re.compile(r"reason\s*:\s*(.+)", re.IGNORECASE)
_LINE = re.compile(r"^\s*(\d{1,2})\s*[.):]\s*(-?\d{1,15})\s*$")

Phase = Literal["move", "apply", "judge"]


@dataclass(frozen=True)
class More:
    turn: int
    count: int


@dataclass(frozen=True)
class Guess:
    turn: int
    text: str
    all_shown: bool
    """Every value had been shown when the guess was made: a refused guess then ends the game."""
    applied: tuple[int, ...] | None = None
    verdict: str | None = None
    reason: str | None = None


@dataclass(frozen=True)
class MathState:
    spec: MatchSpec
    rule: MathRule
    values: tuple[int, ...]
    shown: int
    turns: int = 1
    history: tuple[More | Guess, ...] = ()

    @property
    def limit(self) -> int:
        return int(self.spec.params["max_turns"])

    @property
    def guesses(self) -> tuple[Guess, ...]:
        return tuple(move for move in self.history if isinstance(move, Guess))

    def phase(self) -> Phase:
        last = self.history[-1] if self.history else None
        if not isinstance(last, Guess) or last.verdict is not None:
            return "move"
        return "apply" if last.applied is None else "judge"

    @property
    def won(self) -> bool:
        guesses = self.guesses
        return bool(guesses) and guesses[-1].verdict == "yes"

    def with_last_guess(self, guess: Guess) -> MathState:
        return replace(self, history=(*self.history[:-1], guess))


def _listing(values: Sequence[int]) -> str:
    return "\n".join(f"{index}: {value}" for index, value in enumerate(values))


class MathGame(GameBase):
    id: ClassVar[str] = "math"
    title: ClassVar[str] = "Math Game (guess the rule of a sequence)"
    seats: ClassVar[tuple[SeatInfo, ...]] = (
        SeatInfo(name=PLAYER, role="sees values of a number sequence and finds the rule that makes each from the "
                                   "one before", evaluated=True),)
    roles: ClassVar[tuple[RoleInfo, ...]] = (
        RoleInfo(name=JUDGE, does="decides whether a guess states the hidden rule", default="local"),)
    levels: ClassVar[tuple[LevelInfo, ...]] = (
        LevelInfo(level=1, description="one operation (add, subtract, multiply or divide) at every step"),
        LevelInfo(level=2, description="one multiplication or division by a negative number: the sign jumps"),
        LevelInfo(level=3, description="one operation at even positions and another at odd ones"),
    )
    options: ClassVar[tuple[GameOption, ...]] = (
        GameOption(name="num_init_examples", description="values shown in turn 1", default=2, minimum=1,
                   maximum=SEQUENCE_LENGTH),
        GameOption(name="max_turns", description="turns before the game ends", default=20, minimum=1, maximum=100),
    )
    presentation: ClassVar[Presentation] = Presentation(
        name="Math Game", tagline="Find the rule behind a number sequence.",
        pitch=("A hidden rule turns each number into the next. Ask for more numbers or name the rule; every "
               "request and every guess costs a turn."),
        how=("The first numbers appear with their positions (the first is position 0).",
             "Ask for more numbers (MORE: 3) or guess the rule in words (GUESS: multiply by 2, then add 3).",
             "After a guess, predict ten next values from another start, then the judge rules."),
        person_seat=PLAYER)

    def new_spec(self, level: int, seed: int, rng: random.Random, *, inputs: Mapping[str, str] | None = None,
                 secret_set: str | None = None, options: Mapping[str, Scalar] | None = None) -> MatchSpec:
        if level not in (1, 2, 3):
            raise ConfigError(f"math has levels 1, 2 and 3, not {level}")
        if inputs:
            raise ConfigError("math takes no inputs")
        if secret_set is not None:
            raise ConfigError("math draws its rules; it has no named sets")
        chosen = dict(options or {})
        rule = draw_rule(level, rng)
        return MatchSpec(game=self.id, level=level, seed=seed, setup={"rule": rule.to_setup()},
                         variants={PLAYER: rng.randrange(len(prompts.PLAYER_VARIANTS))},
                         params={"num_init_examples": int(chosen.get("num_init_examples", 2)),
                                 "max_turns": int(chosen.get("max_turns", 20))})

    def initial_state(self, spec: MatchSpec) -> MathState:
        rule = MathRule.from_setup(spec.setup["rule"])
        values = rule.sequence()
        if values is None:
            raise ConfigError("the match's rule does not give a valid sequence")
        return MathState(spec=spec, rule=rule, values=tuple(values), shown=int(spec.params["num_init_examples"]))

    def disclosures(self, spec: MatchSpec) -> Sequence[Disclosure]:
        rule = MathRule.from_setup(spec.setup["rule"])
        return (Disclosure(key="rule", value=rule.describe(), label="The rule", revealed_label="The rule"),)

    # -- asks -------------------------------------------------------------------------------------------------

    def next_asks(self, state: MathState) -> tuple[Ask, ...]:
        phase = state.phase()
        if phase == "judge":
            guess = state.guesses[-1]
            return (Ask(role=JUDGE, kind="verdict", display=f"Guess: {guess.text}", instructions="Verdict: yes or no",
                        messages=(system(prompts.JUDGE_SYSTEM),
                                  user(prompts.JUDGE_USER.format(rule=state.rule.describe(), guess=guess.text,
                                                                 values=", ".join(map(str,
                                                                                      state.values[:state.shown]))))),
                        constraint=OutputConstraint(grammar=prompts.JUDGE_GRAMMAR), max_tokens=80),)
        conversation = self._conversation(state)
        if phase == "apply":
            pairs = held_out(state.rule) or []
            listed = "\n".join(f"{number}. position {index}: value {value}"
                               for number, (value, index, _) in enumerate(pairs, start=1))
            request = prompts.APPLY.format(count=len(pairs), pairs=listed)
            return (Ask(seat=PLAYER, kind="apply", display=request, instructions=f"{len(pairs)} lines: '1. <integer>'",
                        messages=(*conversation, user(request)),
                        constraint=OutputConstraint(grammar=prompts.apply_grammar(len(pairs))), max_tokens=160,
                        max_chars=600),)
        left = len(state.values) - state.shown
        note = prompts.TURN.format(turn=state.turns + 1, limit=state.limit, left=left)
        if left == 0:
            note += " " + prompts.LAST_EXAMPLES
        sequence = prompts.SEQUENCE.format(values=_listing(state.values[:state.shown]))
        return (Ask(seat=PLAYER, kind="move", display=f"{sequence}\n{note}", instructions=prompts.MOVE_FORMAT,
                    messages=(*conversation[:-1], user(f"{conversation[-1].content}\n\n{note}")),
                    constraint=OutputConstraint(grammar=prompts.GUESS_GRAMMAR if left == 0 else prompts.MOVE_GRAMMAR),
                    max_tokens=80,
                    max_chars=MAX_GUESS_CHARS, one_line=True),)

    def _conversation(self, state: MathState) -> tuple[Message, ...]:
        """The player's conversation: its system prompt and the first values, then each move and what it got."""
        variant = prompts.PLAYER_VARIANTS[state.spec.variants.get(PLAYER, 0)]
        shown = int(state.spec.params["num_init_examples"])
        messages: list[Message] = [system(f"{variant}\n\n{prompts.MOVE_FORMAT}"),
                                   user(prompts.SEQUENCE.format(values=_listing(state.values[:shown])))]
        for move in state.history:
            if isinstance(move, More):
                messages.append(assistant(f"MORE: {move.count}"))
                more = "\n".join(f"{index}: {state.values[index]}" for index in range(shown, shown + move.count))
                messages.append(user(f"More values:\n{more}"))
                shown += move.count
            else:
                messages.append(assistant(f"GUESS: {move.text}"))
                if move.verdict == "no":
                    messages.append(user(prompts.WRONG.format(guess=move.text)))
        return tuple(messages)

    # -- moves ------------------------------------------------------------------------------------------------

    def parse(self, state: MathState, ask: Ask, text: str) -> Action:
        line = text.strip()
        if ask.role == JUDGE:
            verdict = _VERDICT.search(line)
            if verdict is None:
                raise FormatError("reply 'Verdict: yes' or 'Verdict: no', then 'Reason: ...'.")
            reason = _REASON.search(line)
            return Action(role=JUDGE, kind="verdict", text=verdict.group(1).lower(),
                          data={"reason": reason.group(1).strip()[:300] if reason else ""})
        if ask.kind == "apply":
            found: dict[int, int] = {}
            for row in line.splitlines():
                matched = _LINE.match(row)
                if matched:
                    found.setdefault(int(matched.group(1)), int(matched.group(2)))
            missing = [n for n in range(1, HELD_OUT + 1) if n not in found]
            if missing:
                raise FormatError(f"give an integer for every line; missing: {', '.join(map(str, missing))}.")
            return Action(seat=PLAYER, kind="apply", text=",".join(str(found[n]) for n in range(1, HELD_OUT + 1)))
        if "\n" in line:
            raise FormatError("reply with one line: 'MORE: <n>' or 'GUESS: <rule>'.")
        more = _MORE.match(line)
        if more:
            return Action(seat=PLAYER, kind="more", text=more.group(1))
        guess = _GUESS.match(line)
        if guess and len(guess.group("rule").strip()) >= 3:
            return Action(seat=PLAYER, kind="guess", text=guess.group("rule").strip()[:MAX_GUESS_CHARS])
        raise FormatError("reply 'MORE: <n>' to see n more values, or 'GUESS: <the rule>'.")

    def apply(self, state: MathState, action: Action) -> MathState:
        if self.outcome(state) is not None:
            raise RuleViolation("the game is over.")
        phase = state.phase()
        if action.role == JUDGE:
            if phase != "judge" or action.text not in ("yes", "no"):
                raise RuleViolation("there is no guess to judge.")
            last = replace(state.guesses[-1], verdict=action.text, reason=str(action.data.get("reason", "")))
            return state.with_last_guess(last)
        if action.kind == "apply":
            if phase != "apply":
                raise RuleViolation("there is nothing to apply the rule to now.")
            answers = tuple(int(part) for part in action.text.split(","))
            return state.with_last_guess(replace(state.guesses[-1], applied=answers))
        if phase != "move":
            raise RuleViolation("finish the guess first.")
        if action.kind == "more":
            wanted, left = int(action.text), len(state.values) - state.shown
            if wanted < 1:
                raise RuleViolation("ask for at least one value.")
            if left == 0:
                raise RuleViolation("every value has been shown: guess the rule ('GUESS: ...').")
            if wanted > left:
                raise RuleViolation(f"only {left} more values remain; ask for at most {left}, or guess.")
            return replace(state, shown=state.shown + wanted, turns=state.turns + 1,
                           history=(*state.history, More(turn=state.turns + 1, count=wanted)))
        if action.kind == "guess":
            guess = Guess(turn=state.turns + 1, text=action.text, all_shown=state.shown == len(state.values))
            return replace(state, history=(*state.history, guess), turns=state.turns + 1)
        raise RuleViolation(f"the player cannot {action.kind}.")

    # -- the end ----------------------------------------------------------------------------------------------

    def outcome(self, state: MathState) -> Outcome | None:
        if state.phase() != "move":
            return None
        guesses = state.guesses
        exhausted = bool(guesses) and guesses[-1].verdict == "no" and guesses[-1].all_shown
        if not (state.won or state.turns >= state.limit or exhausted):
            return None
        result = SeatResult(seat=PLAYER, won=state.won, score=application_accuracy(state))
        if state.won:
            last = guesses[-1]
            return Outcome(status="finished", winners=(PLAYER,), rounds=state.turns, results=(result,),
                           reason=f"guessed the rule in turn {last.turn} (the judge: {last.reason or 'yes'})")
        why = "every value was shown and the last guess was refused" if exhausted else \
            f"no accepted guess within {state.limit} turns"
        return Outcome(status="finished", rounds=state.turns, results=(result,), reason=why)

    def rounds(self, state: MathState) -> int:
        return state.turns

    def transcript(self, state: MathState) -> Sequence[tuple[str, str]]:
        shown = int(state.spec.params["num_init_examples"])
        lines: list[tuple[str, str]] = [("game", "Values: " + ", ".join(map(str, state.values[:shown])))]
        for guess in state.history:
            if isinstance(guess, More):
                lines.append((PLAYER, f"MORE: {guess.count}"))
                lines.append(("game", "Values: " + ", ".join(map(str, state.values[shown:shown + guess.count]))))
                shown += guess.count
                continue
            lines.append((PLAYER, f"GUESS: {guess.text}"))
            if guess.applied is not None:
                right = sum(1 for a, (_, _, b) in zip(guess.applied, held_out(state.rule) or [], strict=False)
                            if a == b)
                lines.append(("game", f"applied it to {HELD_OUT} held-out values: {right} right"))
            if guess.verdict is not None:
                lines.append(("game", f"the judge: {guess.verdict}" + (f" ({guess.reason})" if guess.reason else "")))
        return lines

    def scripted_player(self, party: str, spec: MatchSpec) -> Any:
        rule = MathRule.from_setup(spec.setup["rule"])
        return ScriptedJudge(rule) if party == JUDGE else ScriptedSolver(rule)


def application_accuracy(state: MathState) -> float | None:
    """The share of held-out next values the player's last applied rule got right (``None`` before any)."""
    expected = [following for _, _, following in held_out(state.rule) or []]
    applied = [guess.applied for guess in state.guesses if guess.applied is not None]
    if not applied or not expected:
        return None
    return sum(1 for got, want in zip(applied[-1], expected, strict=False) if got == want) / len(expected)
