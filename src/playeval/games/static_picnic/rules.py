"""GuessTheRuleBench's Static Picnic on playeval's core: find the kind of item a concealed rule admits.

Rules and items are the shipped data (WordNet categories and description facets: one at L1, two combined at L2,
three at L3, as "items that are small American birds", "items that are baked goods, except bread", "items that
are African or Asian hoofed mammals"; every rule has 17 items or more, ``data/PROVENANCE.md``). A match draws one
rule of its level and, from the match's seed, the order in which its items are shown: each example unit is one item
that may come and one that may not. Up to five items of each kind are kept apart for the rule-application check
(balanced yes and no); the items left over after the cap on units (``MAX_UNITS``), and some of the many items the
rule refuses, are the reserve of the later guesses' checks (``guess_rule.base``: fresh items for every guess). The
flow is the shared ``playeval.guess_rule.GuessRuleGame``.

``--secret-set set1|set2`` draws only rules of one half of the categories (``data/sets.json``: no category, so no
rule, is in both; a rule whose categories straddle the halves is in neither); without it every rule may be drawn,
as before. The player seat has a ``random`` and a ``naive`` baseline (``guess_rule.baselines``).

The ``judge`` may be a panel (``--role judge=A,B,C``): the majority of its members' verdicts rules, a tie goes to
their mean probability of accepting when every member recorded one, else the guess is refused
(``guess_rule.base``, ``core.judge_panel``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from playeval.core.baselines import BaselineInfo
from playeval.core.errors import ConfigError
from playeval.core.game import JudgeCase
from playeval.core.info import GameOption, LevelInfo, Presentation, Scalar, SeatInfo, panel_role
from playeval.core.match import MatchSpec
from playeval.games.static_picnic import prompts
from playeval.games.static_picnic.calibration import judge_cases, written_cases
from playeval.games.static_picnic.data import load_items, rules_of_level
from playeval.guess_rule import JUDGE, PLAYER, SECRET_SETS, GuessRuleGame, ListedRound, ListedRuleGame
from playeval.guess_rule.base import spare
from playeval.guess_rule.baselines import StatementJudge, StatementSolver, rule_baselines

HELD_OUT_PER_SIDE = 5
MAX_UNITS = 40


class StaticPicnic(ListedRuleGame):
    id: ClassVar[str] = "static_picnic"
    title: ClassVar[str] = "Static Picnic (guess which items may come)"
    seats: ClassVar[tuple[SeatInfo, ...]] = (
        SeatInfo(name=PLAYER, role="sees items that may and may not come to the picnic and names the rule",
                 evaluated=True),)
    levels: ClassVar[tuple[LevelInfo, ...]] = (
        LevelInfo(level=1, description="items of one category"),
        LevelInfo(level=2, description="two categories combined (both, either, or one except the other)"),
        LevelInfo(level=3, description="three categories combined (as 'drinks, except beers and wines')"),
    )
    options: ClassVar[tuple[GameOption, ...]] = GuessRuleGame.turn_options(2, MAX_UNITS)
    secret_sets: ClassVar[tuple[str, ...]] = SECRET_SETS
    split_sets: ClassVar[tuple[str, str] | None] = SECRET_SETS
    baselines: ClassVar[tuple[BaselineInfo, ...]] = rule_baselines(
        "guesses 'things like <the first item that may come>' once; answers 'yes' for every item of the check")
    presentation: ClassVar[Presentation] = Presentation(
        name="Static Picnic", tagline="Work out which items may come to the picnic.",
        pitch=("A secret rule decides which items may come to the picnic. Each turn shows some that may and some "
               "that may not; ask for more, or name the rule."),
        how=("You see items that may come and items that may not.",
             "Ask for more (MORE: 2 shows two more of each) or guess the rule (GUESS: kitchen utensils).",
             "After a guess, say for ten new items whether they may come, then the judge rules."),
        person_seat=PLAYER)
    player_variants: ClassVar[tuple[str, ...]] = prompts.PLAYER_VARIANTS
    judge_system: ClassVar[str] = prompts.JUDGE_SYSTEM
    apply_request: ClassVar[str] = prompts.APPLY

    def new_spec(self, level: int, seed: int, rng: random.Random, *, inputs: Mapping[str, str] | None = None,
                 secret_set: str | None = None, options: Mapping[str, Scalar] | None = None) -> MatchSpec:
        known = [info.level for info in self.levels]
        if level not in known:
            raise ConfigError(f"static_picnic has levels {', '.join(map(str, known))}, not {level}")
        params = self.turn_params(inputs, secret_set, options)
        rules = rules_of_level(level, secret_set)
        if not rules:
            raise ConfigError(f"static_picnic has no rule of level {level} in {secret_set!r}")
        variant = rng.randrange(len(prompts.PLAYER_VARIANTS))
        rule = rng.choice(rules)
        positives = list(rule.positives)
        rng.shuffle(positives)
        negatives = [item for item in load_items() if item not in set(rule.positives)]
        rng.shuffle(negatives)
        kept = min(HELD_OUT_PER_SIDE, len(positives) // 2)
        held = [(item, "yes") for item in positives[:kept]] + [(item, "no") for item in negatives[:kept]]
        rng.shuffle(held)
        shown = min(len(positives) - kept, MAX_UNITS)
        round_ = ListedRound(statement=rule.statement, positives=tuple(positives[kept:kept + shown]),
                             negatives=tuple(negatives[kept:kept + shown]), held_out=tuple(held),
                             reserve=spare(positives[kept + shown:], negatives[kept + shown:], kept))
        return MatchSpec(game=self.id, level=level, seed=seed, setup=round_.to_setup(rule.id),
                         variants={PLAYER: variant},
                         params=params)

    def judge_cases(self) -> Sequence[JudgeCase]:
        """The template set, then the hand-written one (ids ``hw-...``)."""
        return (*judge_cases(), *written_cases(self.judge_case_keys))

    def scripted_player(self, party: str, spec: MatchSpec) -> Any:
        rule = self.rule_of(spec)
        return StatementJudge(rule.statement) if panel_role(party) == JUDGE else StatementSolver(rule.statement,
                                                                                    self.held_out(rule))
