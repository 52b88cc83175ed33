"""GuessTheRuleBench's Math Game on playeval's core: find the hidden next-value rule of a number sequence.

The flow (turns, requests, guesses, the rule-application check, the judge, the end) is the shared
``playeval.guess_rule.GuessRuleGame``; here are the rules (``sequences``), how the values read, the held-out
values the player predicts after a guess (next values from another start of the same sequence) and the texts.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from playeval.core.errors import ConfigError
from playeval.core.game import JudgeCase
from playeval.core.info import GameOption, LevelInfo, Presentation, Scalar, SeatInfo
from playeval.core.match import MatchSpec
from playeval.games.math import prompts
from playeval.games.math.calibration import judge_cases
from playeval.games.math.sequences import SEQUENCE_LENGTH, MathRule, draw_rule, held_out
from playeval.guess_rule import JUDGE, PLAYER, GuessRuleGame, HeldOut
from playeval.guess_rule.baselines import StatementJudge, StatementSolver


class MathGame(GuessRuleGame):
    id: ClassVar[str] = "math"
    title: ClassVar[str] = "Math Game (guess the rule of a sequence)"
    seats: ClassVar[tuple[SeatInfo, ...]] = (
        SeatInfo(name=PLAYER, role="sees values of a number sequence and finds the rule that makes each from the "
                                   "one before", evaluated=True),)
    levels: ClassVar[tuple[LevelInfo, ...]] = (
        LevelInfo(level=1, description="one operation (add, subtract, multiply or divide) at every step"),
        LevelInfo(level=2, description="one multiplication or division by a negative number: the sign jumps"),
        LevelInfo(level=3, description="one operation at even positions and another at odd ones"),
    )
    options: ClassVar[tuple[GameOption, ...]] = GuessRuleGame.turn_options(2, SEQUENCE_LENGTH)
    presentation: ClassVar[Presentation] = Presentation(
        name="Math Game", tagline="Find the rule behind a number sequence.",
        pitch=("A hidden rule turns each number into the next. Ask for more numbers or name the rule; every "
               "request and every guess costs a turn."),
        how=("The first numbers appear with their positions (the first is position 0).",
             "Ask for more numbers (MORE: 3) or guess the rule in words (GUESS: multiply by 2, then add 3).",
             "After a guess, predict ten next values from another start, then the judge rules."),
        person_seat=PLAYER)
    player_variants: ClassVar[tuple[str, ...]] = prompts.PLAYER_VARIANTS
    judge_system: ClassVar[str] = prompts.JUDGE_SYSTEM
    apply_request: ClassVar[str] = prompts.APPLY
    apply_answer: ClassVar[str] = '"-"? [0-9]{1,14}'
    example_unit: ClassVar[str] = "values"

    def new_spec(self, level: int, seed: int, rng: random.Random, *, inputs: Mapping[str, str] | None = None,
                 secret_set: str | None = None, options: Mapping[str, Scalar] | None = None) -> MatchSpec:
        if level not in (1, 2, 3):
            raise ConfigError(f"math has levels 1, 2 and 3, not {level}")
        params = self.turn_params(inputs, secret_set, options)
        rule = draw_rule(level, rng)
        return MatchSpec(game=self.id, level=level, seed=seed, setup={"rule": rule.to_setup()},
                         variants={PLAYER: rng.randrange(len(prompts.PLAYER_VARIANTS))},
                         params=params)

    def rule_of(self, spec: MatchSpec) -> MathRule:
        rule = MathRule.from_setup(spec.setup["rule"])
        if rule.sequence() is None:
            raise ConfigError("the match's rule does not give a valid sequence")
        return rule

    def example_total(self, rule: MathRule) -> int:
        return SEQUENCE_LENGTH

    def examples(self, rule: MathRule, start: int, stop: int) -> str:
        values = rule.sequence() or []
        listed = "\n".join(f"position {index}: {values[index]}" for index in range(start, stop))
        return f"Values of the sequence:\n{listed}"

    def example_data(self, rule: MathRule, start: int, stop: int) -> dict[str, Any]:
        values = rule.sequence() or []
        return {"values": [[index, values[index]] for index in range(start, stop)]}

    def held_out(self, rule: MathRule) -> Sequence[HeldOut]:
        return tuple(HeldOut(prompt=f"position {index}: {value}", answer=str(following))
                     for value, index, following in held_out(rule) or [])

    def statement(self, rule: MathRule) -> str:
        return rule.describe()

    def normalize_answer(self, text: str) -> str:
        try:
            return str(int(text.strip()))
        except ValueError:
            return text.strip().lower()

    def judge_cases(self) -> Sequence[JudgeCase]:
        return judge_cases()

    def scripted_player(self, party: str, spec: MatchSpec) -> Any:
        rule = self.rule_of(spec)
        if party == JUDGE:
            return StatementJudge(rule.describe())
        return StatementSolver(rule.describe(), self.held_out(rule), more=2)
