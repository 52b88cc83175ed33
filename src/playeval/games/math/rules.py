"""GuessTheRuleBench's Math Game on playeval's core: find the hidden next-value rule of a number sequence.

The flow (turns, requests, guesses, the rule-application check, the judge, the end) is the shared
``playeval.guess_rule.GuessRuleGame``; here are the rules, how the values read, the held-out values the player
predicts after a guess (next values, each from its own start value) and the texts.

The ``rules`` option says where the rule comes from: ``procedural`` (the default: drawn from the match's seed,
``sequences``, offline and unlimited) or ``generated``: the match starts with the template's rule-writing phase,
in which the ``game_master`` role writes ``generate_next(current_value, index)`` with a start value and the
``code_executor`` role runs it in the sandbox and accepts it or says why not (``written``); three rejections
abort the match. With ``--role game_master=scripted`` the game master writes the procedural rule of the match's
seed as code, an offline check of the whole path.

The ``judge`` may be a panel (``--role judge=A,B,C``): the majority of its members' verdicts rules, a tie goes to
their mean probability of accepting when every member recorded one, else the guess is refused
(``guess_rule.base``, ``core.judge_panel``).

``--secret-set set1|set2`` (procedural rules only) draws from one half of the rules (``sequences.SETS``: set1 adds
and multiplies, set2 subtracts and divides); without it any rule of the level may be drawn, as before. The player
seat has a ``random`` and a ``naive`` baseline (``guess_rule.baselines``); the check's answers being open numbers,
its chance level is taken as 0.

Beside a guess in the rule's own words, the rules accept a guess that reads as a formula (``formulas``: ``x/3``,
``divide by three``, ``a(n+1) = a(n)/3``, ``at even positions ..., at odd positions ...``) when it gives every
value of the sequence from the one before it and every held-out next value (``rules_accept``); any other guess,
a formula that misses a value included, goes to the judge.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from playeval.core.ask import Ask, Reply
from playeval.core.baselines import BaselineInfo
from playeval.core.errors import ConfigError
from playeval.core.game import JudgeCase
from playeval.core.info import GameOption, LevelInfo, Presentation, RoleInfo, Scalar, SeatInfo, panel_role
from playeval.core.match import MatchSpec
from playeval.core.rng import derive_seed
from playeval.games.math import prompts
from playeval.games.math.calibration import judge_cases, written_cases
from playeval.games.math.formulas import gives_values, read_guess
from playeval.games.math.sequences import MAX_ABS, SEQUENCE_LENGTH, MathRule, draw_rule, held_out, later_held_out
from playeval.games.math.written import (
    HEADER,
    WrittenSequence,
    WrittenSequenceCheck,
    accepted_sequence,
    read_math_draft,
)
from playeval.guess_rule import JUDGE, PLAYER, SECRET_SETS, GuessRuleGame, GuessState, HeldOut
from playeval.guess_rule.base import Check
from playeval.guess_rule.baselines import StatementJudge, StatementSolver, rule_baselines
from playeval.guess_rule.writing import (
    CODE_EXECUTOR,
    GAME_MASTER,
    WRITING_ROLES,
    CodeExecutor,
    Draft,
    code_draft_ask,
    code_grammar,
    seeded_hint,
)

PROCEDURAL = "procedural"
SequenceRule = MathRule | WrittenSequence
"""A match's rule: drawn (``MathRule``) or written by the game master (``WrittenSequence``)."""
START_GRAMMAR = '"-"? [1-9] [0-9]{0,5}'
_POSITION = re.compile(r"position (\d+): (-?\d+)")
"""A value as the examples and the check's items show it: ``position 3: 27``."""


def value_triples(rule: SequenceRule) -> list[tuple[int, int, int]]:
    """Every (value, its position, the next value) the rule defines in a match: the sequence's consecutive values
    and the held-out items."""
    values = rule.sequence() or []
    triples = [(values[index], index, values[index + 1]) for index in range(len(values) - 1)]
    return triples + list(rule.held if isinstance(rule, WrittenSequence) else held_out(rule) or [])


class ProceduralGameMaster:
    """The scripted ``game_master``: writes the procedural rule of the match's seed as ``generate_next``."""

    kind = "scripted"
    model: str | None = None
    max_retries = 0

    def __init__(self, rule: MathRule) -> None:
        self._reply = f"RULE: {rule.describe()}\nSTART: {rule.start}\n```python\n{rule.code()}\n```"

    async def act(self, ask: Ask) -> Reply:
        return Reply(text=self._reply)


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
    roles: ClassVar[tuple[RoleInfo, ...]] = (
        *GuessRuleGame.roles,
        *WRITING_ROLES,
    )
    options: ClassVar[tuple[GameOption, ...]] = (
        *GuessRuleGame.turn_options(2, SEQUENCE_LENGTH),
        GuessRuleGame.rules_option(PROCEDURAL, "where the rule comes from: drawn from the seed, or written by the "
                                               "game_master role and checked in the sandbox"),
    )
    presentation: ClassVar[Presentation] = Presentation(
        name="Math Game", tagline="Find the rule behind a number sequence.",
        pitch=("A hidden rule turns each number into the next. Ask for more numbers or name the rule; every "
               "request and every guess costs a turn."),
        how=("The first numbers appear with their positions (the first is position 0).",
             "Ask for more numbers (MORE: 3) or guess the rule in words (GUESS: multiply by 2, then add 3).",
             "After a guess, predict the next value after ten others, then the judge rules."),
        person_seat=PLAYER)
    player_variants: ClassVar[tuple[str, ...]] = prompts.PLAYER_VARIANTS
    judge_system: ClassVar[str] = prompts.JUDGE_SYSTEM
    apply_request: ClassVar[str] = prompts.APPLY
    apply_answer: ClassVar[str] = '"-"? [0-9]{1,14}'
    check_whole_numbers: ClassVar[bool] = True
    example_unit: ClassVar[str] = "values"
    seen_label: ClassVar[str] = "Values seen"
    secret_sets: ClassVar[tuple[str, ...]] = SECRET_SETS
    split_sets: ClassVar[tuple[str, str] | None] = SECRET_SETS
    generic_guesses: ClassVar[tuple[str, ...]] = (
        "add 1", "add 2", "subtract 1", "multiply by 2", "divide by 2", "it grows a little each time")
    naive_template: ClassVar[str] = "each value is {first}"
    baselines: ClassVar[tuple[BaselineInfo, ...]] = rule_baselines(
        "guesses 'each value is <the first value shown>' once; answers every item of the check with the value it "
        "shows (the sequence stands still)")

    def new_spec(self, level: int, seed: int, rng: random.Random, *, inputs: Mapping[str, str] | None = None,
                 secret_set: str | None = None, options: Mapping[str, Scalar] | None = None) -> MatchSpec:
        if level not in (1, 2, 3):
            raise ConfigError(f"math has levels 1, 2 and 3, not {level}")
        params = self.turn_params(inputs, secret_set, options)
        if params.get("rules") != PROCEDURAL:  # the rule is written during the match
            if secret_set is not None:
                raise ConfigError(f"math: a secret set is a half of the procedural rules; with rules=generated the "
                                  f"game master writes the rule, so --secret-set {secret_set} does not apply")
            return MatchSpec(game=self.id, level=level, seed=seed, params=params,
                             variants={PLAYER: rng.randrange(len(prompts.PLAYER_VARIANTS))})
        rule = draw_rule(level, rng, secret_set)
        return MatchSpec(game=self.id, level=level, seed=seed, setup={"rule": rule.to_setup()},
                         variants={PLAYER: rng.randrange(len(prompts.PLAYER_VARIANTS))},
                         params=params)

    def rule_of(self, spec: MatchSpec) -> MathRule:
        rule = MathRule.from_setup(spec.setup["rule"])
        if rule.sequence() is None:
            raise ConfigError("the match's rule does not give a valid sequence")
        return rule

    # -- the rule-writing phase -----------------------------------------------------------------------------------

    def draft_ask(self, state: GuessState) -> Ask:
        request = prompts.GAME_MASTER_REQUEST.format(kind=prompts.LEVEL_KINDS[state.spec.level],
                                                     length=SEQUENCE_LENGTH, limit=f"{MAX_ABS:,}",
                                                     body=prompts.LEVEL_BODIES[state.spec.level])
        hints = [prompts.HINT.format(idea=seeded_hint(state.spec.seed, self.id, attempt,
                                                      prompts.LEVEL_HINTS[state.spec.level]))
                 for attempt in range(len(state.drafts) + 1)]
        return code_draft_ask(prompts.GAME_MASTER_SYSTEM, request, state.drafts,
                              code_grammar(HEADER, (("START", START_GRAMMAR),)), hints)

    def read_draft(self, state: GuessState, ask: Ask, text: str) -> dict[str, Any]:
        return read_math_draft(text)

    def written_rule(self, state: GuessState, draft: Draft, verdict: Mapping[str, Any] | None) -> WrittenSequence:
        return accepted_sequence(draft.data, verdict or {})

    def rule_code(self, rule: SequenceRule) -> str | None:
        return rule.code if isinstance(rule, WrittenSequence) else None

    # -- the rule's reading ---------------------------------------------------------------------------------------

    def example_total(self, rule: SequenceRule) -> int:
        return SEQUENCE_LENGTH

    def examples(self, rule: SequenceRule, start: int, stop: int) -> str:
        values = rule.sequence() or []
        listed = "\n".join(f"position {index}: {values[index]}" for index in range(start, stop))
        return f"Values of the sequence:\n{listed}"

    def example_data(self, rule: SequenceRule, start: int, stop: int) -> dict[str, Any]:
        values = rule.sequence() or []
        return {"values": [[index, values[index]] for index in range(start, stop)]}

    def held_out(self, rule: SequenceRule) -> Sequence[HeldOut]:
        triples = rule.held if isinstance(rule, WrittenSequence) else held_out(rule) or []
        return tuple(HeldOut(prompt=f"position {index}: {value}", answer=str(following))
                     for value, index, following in triples)

    def later_check(self, state: GuessState, earlier: Sequence[Sequence[HeldOut]]) -> Check:
        """A drawn rule's values from further start values (``sequences.later_held_out``): the pool has no end, so
        every item is fresh but one whose sequence overflows, for which the first check's item is asked again. A
        written rule's check is what its verdict carries: asked again."""
        rule = state.rule
        if isinstance(rule, WrittenSequence):
            return super().later_check(state, earlier)
        first = tuple(earlier[0])
        items: list[HeldOut] = []
        for triple, asked in zip(later_held_out(rule, len(earlier)), first, strict=False):
            if triple is None:
                items.append(asked)
            else:
                value, position, following = triple
                items.append(HeldOut(prompt=f"position {position}: {value}", answer=str(following)))
        return Check(items=tuple(items), reused=sum(1 for item, asked in zip(items, first, strict=True)
                                                     if item == asked))

    def statement(self, rule: SequenceRule) -> str:
        return rule.describe()

    def rules_accept(self, rule: SequenceRule, guess: str) -> bool:
        """The rule's own words, or a formula that gives every next value: of each value of the sequence but the
        last, and of each held-out item (``formulas``)."""
        if super().rules_accept(rule, guess):
            return True
        guessed = read_guess(guess)
        return guessed is not None and gives_values(guessed, value_triples(rule))

    def normalize_answer(self, text: str) -> str:
        try:
            return str(int(text.strip()))
        except ValueError:
            return text.strip().lower()

    def judge_cases(self) -> Sequence[JudgeCase]:
        """The template set, then the hand-written one (ids ``hw-...``)."""
        return (*judge_cases(), *written_cases(self.judge_case_keys))

    # -- the baselines' reading of what they are shown ------------------------------------------------------------

    def first_shown(self, display: str) -> str | None:
        """The first value of the sequence shown."""
        found = _POSITION.search(display)
        return found.group(2) if found else None

    def random_answer(self, prompt: str, rng: random.Random) -> str:
        """A whole number drawn evenly from -(2|v| + 100) to 2|v| + 100, ``v`` the value the item shows: an exact
        next value is hit about once in 200 items or fewer, the check's chance level being taken as 0."""
        found = _POSITION.search(prompt)
        spread = 2 * abs(int(found.group(2))) + 100 if found else 100
        return str(rng.randint(-spread, spread))

    def naive_answer(self, prompt: str) -> str:
        """The value the item shows: the next value the same (never right, as no sequence stands still)."""
        found = _POSITION.search(prompt)
        return found.group(2) if found else "0"

    def scripted_player(self, party: str, spec: MatchSpec) -> Any:
        if party == CODE_EXECUTOR:
            return CodeExecutor(WrittenSequenceCheck(spec.level))
        if party == GAME_MASTER:
            return ProceduralGameMaster(draw_rule(spec.level, random.Random(derive_seed(spec.seed, self.id,
                                                                                        "scripted game master"))))
        written = self.writes_rule(spec)
        if panel_role(party) == JUDGE:
            return StatementJudge(None if written else self.rule_of(spec).describe())
        if written:
            raise ConfigError("math: with rules=generated no scripted player knows the rule; seat a model or a "
                              "person")
        rule = self.rule_of(spec)
        return StatementSolver(rule.describe(), self.held_out(rule), more=2)
