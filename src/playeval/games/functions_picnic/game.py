"""GuessTheRuleBench's Code Functions Picnic on playeval's core: find the spelling rule a hidden function tests.

The ``rules`` option says where the match's rule comes from:

* ``library`` (the default, offline): a reviewed rule of the match's level from the built-in library
  (``library``), run in the sandbox on the packaged word list when the match is set up (``checks.RuleEvaluator``,
  cached per rule); the setup keeps, from the match's seed, the words the match shows (each example unit: a word
  that passes and one that fails) and ten balanced held-out words for the rule-application check.
* ``generated``: the match starts with the template's rule-writing phase (``guess_rule.base``). The
  ``game_master`` role writes ``RULE: <words>`` and a ``def rule(word):`` of the level's kind
  (``prompts.LEVEL_KINDS``); the ``code_executor`` role runs it in the sandbox through ``checks.check_rule``
  (``written.WrittenRuleCheck``) and replies with the verdict; a rejected rule goes back to the game master with
  the reason, three rejections abort the match. The words are then drawn, from a seed derived from the match's,
  out of the truth values the accepting verdict carries.

``--secret-set set1|set2`` (library rules only) draws from one half of the library (``library.SETS``: within each
level, alternate rules), no rule being in both; without it every rule of the level may be drawn, as before. The
player seat has a ``random`` and a ``naive`` baseline (``guess_rule.baselines``).

Either way the game itself runs no code: a library rule's values are computed before the match (so that a spec
holds the whole round, as the other picnic games' do), a written rule's arrive as a recorded reply.

The ``judge`` may be a panel (``--role judge=A,B,C``): the majority of its members' verdicts rules, a tie goes to
their mean probability of accepting when every member recorded one, else the guess is refused
(``guess_rule.base``, ``core.judge_panel``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from playeval.core.ask import Ask
from playeval.core.baselines import BaselineInfo
from playeval.core.errors import ConfigError
from playeval.core.game import JudgeCase
from playeval.core.info import GameOption, LevelInfo, Presentation, RoleInfo, Scalar, SeatInfo, panel_role
from playeval.core.match import MatchSpec
from playeval.core.rng import derive_seed
from playeval.games.functions_picnic import prompts
from playeval.games.functions_picnic.calibration import judge_cases, written_cases
from playeval.games.functions_picnic.checks import RuleEvaluator
from playeval.games.functions_picnic.examples import listed_round
from playeval.games.functions_picnic.library import CONVENTIONS, rules_at_level
from playeval.games.functions_picnic.written import HEADER, WrittenRuleCheck, accepted_truth
from playeval.guess_rule import JUDGE, PLAYER, SECRET_SETS, GuessRuleGame, GuessState, ListedRound, ListedRuleGame
from playeval.guess_rule.baselines import StatementJudge, StatementSolver, rule_baselines
from playeval.guess_rule.writing import (
    CODE_EXECUTOR,
    GAME_MASTER,
    WRITING_ROLES,
    CodeExecutor,
    Draft,
    code_draft_ask,
    code_grammar,
    read_code_draft,
    seeded_hint,
)

HELD_OUT = 10
MAX_UNITS = 30
LIBRARY_RULES = "library"


class FunctionsPicnic(ListedRuleGame):
    id: ClassVar[str] = "functions_picnic"
    title: ClassVar[str] = "Code Functions Picnic (guess the spelling rule)"
    seats: ClassVar[tuple[SeatInfo, ...]] = (
        SeatInfo(name=PLAYER, role="sees words a hidden function accepts and refuses, and states its rule",
                 evaluated=True),)
    roles: ClassVar[tuple[RoleInfo, ...]] = (
        *ListedRuleGame.roles,
        *WRITING_ROLES,
    )
    levels: ClassVar[tuple[LevelInfo, ...]] = (
        LevelInfo(level=1, description="one property of the letters (length, first letter, vowels...)"),
        LevelInfo(level=2, description="two properties combined"),
        LevelInfo(level=3, description="positions and relations of letters"),
    )
    options: ClassVar[tuple[GameOption, ...]] = (
        *GuessRuleGame.turn_options(2, MAX_UNITS),
        GuessRuleGame.rules_option(LIBRARY_RULES, "where the rule comes from: the reviewed library, or written by "
                                                  "the game_master role and checked in the sandbox"),
    )
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
    seen_label: ClassVar[str] = "Words seen"
    secret_sets: ClassVar[tuple[str, ...]] = SECRET_SETS
    split_sets: ClassVar[tuple[str, str] | None] = SECRET_SETS
    generic_guesses: ClassVar[tuple[str, ...]] = (
        "long words", "short words", "words with many vowels", "words with a double letter",
        "words that start with a common letter", "words that are easy to spell")
    naive_template: ClassVar[str] = "words like {first}"
    baselines: ClassVar[tuple[BaselineInfo, ...]] = rule_baselines(
        "guesses 'words like <the first word that passes>' once; answers 'yes' for every word of the check")

    def __init__(self) -> None:
        self._evaluator: RuleEvaluator | None = None
        self._check: WrittenRuleCheck | None = None

    def _rule_evaluator(self) -> RuleEvaluator:
        if self._evaluator is None:
            self._evaluator = RuleEvaluator()
        return self._evaluator

    def new_spec(self, level: int, seed: int, rng: random.Random, *, inputs: Mapping[str, str] | None = None,
                 secret_set: str | None = None, options: Mapping[str, Scalar] | None = None) -> MatchSpec:
        if level not in (1, 2, 3):
            raise ConfigError(f"functions_picnic has levels 1, 2 and 3, not {level}")
        params = self.turn_params(inputs, secret_set, options)
        variant = rng.randrange(len(prompts.PLAYER_VARIANTS))
        spec = MatchSpec(game=self.id, level=level, seed=seed, variants={PLAYER: variant}, params=params)
        if self.writes_rule(spec):
            if secret_set is not None:
                raise ConfigError(f"functions_picnic: a secret set is a half of the rule library; with "
                                  f"rules=generated the game master writes the rule, so --secret-set {secret_set} "
                                  f"does not apply")
            return spec  # the rule is written during the match
        rule = rng.choice(rules_at_level(level, secret_set))  # type: ignore[arg-type]
        truth = self._rule_evaluator().truth(rule.source)
        round_ = listed_round(rule.statement, truth, rng, held=HELD_OUT, units=MAX_UNITS)
        return spec.model_copy(update={"setup": round_.to_setup(rule.id)})

    # -- the rule-writing phase -----------------------------------------------------------------------------------

    def draft_ask(self, state: GuessState) -> Ask:
        request = prompts.GAME_MASTER_REQUEST.format(kind=prompts.LEVEL_KINDS[state.spec.level],
                                                     conventions=CONVENTIONS)
        return code_draft_ask(prompts.GAME_MASTER_SYSTEM, request, state.drafts, code_grammar(HEADER),
                              [self._hint(state.spec, attempt) for attempt in range(len(state.drafts) + 1)])

    def _hint(self, spec: MatchSpec, attempt: int) -> str:
        """The idea the game master is pointed to for its ``attempt``-th draft, drawn from the match's seed."""
        idea = seeded_hint(spec.seed, self.id, attempt, prompts.LEVEL_HINTS[spec.level])
        rng = random.Random(derive_seed(spec.seed, self.id, "hint letters", attempt))
        a, b = rng.sample(prompts.HINT_LETTERS, 2)
        p, q = sorted(rng.sample(range(2, 6), 2))
        return prompts.HINT.format(idea=idea.format(a=a, b=b, p=p, q=q))

    def read_draft(self, state: GuessState, ask: Ask, text: str) -> dict[str, Any]:
        return read_code_draft(text, "def rule(")

    def written_rule(self, state: GuessState, draft: Draft, verdict: Mapping[str, Any] | None) -> ListedRound:
        truth = accepted_truth(verdict or {})
        rng = random.Random(derive_seed(state.spec.seed, self.id, "written rule", len(state.drafts)))
        return listed_round(str(draft.data["statement"]), truth, rng, held=HELD_OUT, units=MAX_UNITS,
                            code=str(draft.data["code"]))

    def judge_cases(self) -> Sequence[JudgeCase]:
        """The template set, then the hand-written one (ids ``hw-...``)."""
        return (*judge_cases(), *written_cases(self.judge_case_keys))

    # -- scripted players ---------------------------------------------------------------------------------------

    def scripted_player(self, party: str, spec: MatchSpec) -> Any:
        written = self.writes_rule(spec)
        if party == CODE_EXECUTOR:
            if self._check is None:
                self._check = WrittenRuleCheck(self._rule_evaluator())
            return CodeExecutor(self._check)
        if panel_role(party) == JUDGE:
            return StatementJudge(None if written else self.rule_of(spec).statement)
        if party == GAME_MASTER:
            raise ConfigError("functions_picnic: the game_master writes the rule's code; bind it to a model "
                              "(--role game_master=MODEL), not to 'scripted'")
        if written:
            raise ConfigError("functions_picnic: with rules=generated no scripted player knows the rule; seat a "
                              "model or a person")
        rule = self.rule_of(spec)
        return StatementSolver(rule.statement, self.held_out(rule))
