"""GuessTheRuleBench's Code Functions Picnic on playeval's core: find the spelling rule a hidden function tests.

A match draws a reviewed rule of its level from the built-in library (``library``), runs it in the sandbox on the
packaged word list once (``checks.RuleEvaluator``), and keeps in its setup, from the match's seed, the words it
will show (each example unit: a word that passes and one that fails) and ten held-out words, balanced, for the
rule-application check. Running the code happens when the match is set up; the game itself only reads the
setup, so it stays pure. (Rules a game-master model writes, through the sandbox and ``checks.check_rule``, are
for a later step.)
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from playeval.core.errors import ConfigError
from playeval.core.info import GameOption, LevelInfo, Presentation, Scalar, SeatInfo
from playeval.core.match import MatchSpec
from playeval.games.functions_picnic import prompts
from playeval.games.functions_picnic.checks import RuleEvaluator
from playeval.games.functions_picnic.examples import draw_examples, draw_held_out
from playeval.games.functions_picnic.library import rules_at_level
from playeval.guess_rule import JUDGE, PLAYER, GuessRuleGame, ListedRound, ListedRuleGame
from playeval.guess_rule.baselines import StatementJudge, StatementSolver

HELD_OUT = 10
MAX_UNITS = 30


class FunctionsPicnic(ListedRuleGame):
    id: ClassVar[str] = "functions_picnic"
    title: ClassVar[str] = "Code Functions Picnic (guess the spelling rule)"
    seats: ClassVar[tuple[SeatInfo, ...]] = (
        SeatInfo(name=PLAYER, role="sees words a hidden function accepts and refuses, and states its rule",
                 evaluated=True),)
    levels: ClassVar[tuple[LevelInfo, ...]] = (
        LevelInfo(level=1, description="one property of the letters (length, first letter, vowels...)"),
        LevelInfo(level=2, description="two properties combined"),
        LevelInfo(level=3, description="positions and relations of letters"),
    )
    options: ClassVar[tuple[GameOption, ...]] = GuessRuleGame.turn_options(2, MAX_UNITS)
    presentation: ClassVar[Presentation] = Presentation(
        name="Code Functions Picnic", tagline="Work out the spelling rule a hidden function tests.",
        pitch=("A hidden Python function lets some words pass and not others, judging only how they are "
               "written. Ask for more words, or say what it checks."),
        how=("You see words that pass and words that fail.",
             "Ask for more (MORE: 2) or guess the rule (GUESS: words that start with a vowel).",
             "After a guess, say for ten new words whether they pass, then the judge rules."),
        person_seat=PLAYER)
    player_variants: ClassVar[tuple[str, ...]] = prompts.PLAYER_VARIANTS
    judge_system: ClassVar[str] = prompts.JUDGE_SYSTEM
    apply_request: ClassVar[str] = prompts.APPLY
    admitted_label: ClassVar[str] = "Pass"
    refused_label: ClassVar[str] = "Fail"
    example_unit: ClassVar[str] = "examples"

    def __init__(self) -> None:
        self._evaluator: RuleEvaluator | None = None

    def new_spec(self, level: int, seed: int, rng: random.Random, *, inputs: Mapping[str, str] | None = None,
                 secret_set: str | None = None, options: Mapping[str, Scalar] | None = None) -> MatchSpec:
        if level not in (1, 2, 3):
            raise ConfigError(f"functions_picnic has levels 1, 2 and 3, not {level}")
        params = self.turn_params(inputs, secret_set, options)
        variant = rng.randrange(len(prompts.PLAYER_VARIANTS))
        rule = rng.choice(rules_at_level(level))  # type: ignore[arg-type]
        if self._evaluator is None:
            self._evaluator = RuleEvaluator()
        truth = self._evaluator.truth(rule.source)
        held = draw_held_out(truth, (), HELD_OUT, rng)
        kept = {word.word for word in held}
        shown = draw_examples(truth, kept, MAX_UNITS, rng)
        units = min(len(shown.positives), len(shown.negatives))
        round_ = ListedRound(statement=rule.statement, positives=shown.positives[:units],
                             negatives=shown.negatives[:units],
                             held_out=tuple((word.word, "yes" if word.truth else "no") for word in held))
        return MatchSpec(game=self.id, level=level, seed=seed, setup=round_.to_setup(rule.id),
                         variants={PLAYER: variant},
                         params=params)

    def scripted_player(self, party: str, spec: MatchSpec) -> Any:
        rule = self.rule_of(spec)
        return StatementJudge(rule.statement) if party == JUDGE else StatementSolver(rule.statement,
                                                                                    self.held_out(rule))
