"""Bluffing (truth or bluff) as a pure state machine.

The bluffer makes a statement about themselves and privately marks it true or false (``setup["secret"]``).
The questioner (the evaluated seat) asks up to five questions, which the bluffer answers, and gives
its verdict whenever it is confident; after the fifth answer the verdict is due. The questioner wins
when its verdict matches the truth. A match's rounds are the questioner's turns: questions plus the
verdict, so a full game has six.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from playeval.core.ask import Ask, OutputConstraint
from playeval.core.baselines import NAIVE, RANDOM, BaselineInfo
from playeval.core.errors import ConfigError, FormatError, RuleViolation
from playeval.core.game import GameBase, RetroOutput, RetroPoint, RetroScore
from playeval.core.info import Disclosure, LevelInfo, MetricSpec, PersonInput, PlotKind, Presentation, Scalar, SeatInfo
from playeval.core.match import Action, MatchSpec, Outcome
from playeval.core.messages import Message, assistant, system, user
from playeval.core.rng import derive_seed
from playeval.games.bluffing import parsing, prompts
from playeval.games.bluffing.baselines import NaiveQuestioner, RandomQuestioner, ScriptedBluffer, ScriptedQuestioner
from playeval.games.bluffing.data import SPLIT_SETS, STATEMENT_SETS, load_personas, load_statements
from playeval.metrics.retro import score_judgements

QUESTIONER = "questioner"
BLUFFER = "bluffer"

LIMIT = 5
TRUTHS: tuple[str, ...] = ("true", "false")
OWN_STATEMENT = "own"
"""``params["secret_set"]`` of a match whose statement a person made up."""


@dataclass(frozen=True)
class Exchange:
    """One question and, once given, its answer."""

    number: int
    question: str
    answer: str | None = None


@dataclass(frozen=True)
class BluffingState:
    spec: MatchSpec
    exchanges: tuple[Exchange, ...] = ()
    verdict: str | None = None

    @property
    def statement(self) -> str:
        return str(self.spec.params["statement"])

    @property
    def truth(self) -> str:
        return self.spec.hidden("secret") or ""

    @property
    def pending(self) -> Exchange | None:
        if self.exchanges and self.exchanges[-1].answer is None:
            return self.exchanges[-1]
        return None


def _truth(secret: str | None) -> str:
    truth = (secret or "").strip().lower()
    if truth not in TRUTHS:
        raise ConfigError(f"a bluffing statement's truth must be 'true' or 'false', not {secret!r}")
    return truth


class Bluffing(GameBase):
    """Truth or bluff: a person (or a simulated person) makes a statement, the model questions and judges it."""

    id: ClassVar[str] = "bluffing"
    title: ClassVar[str] = "Bluffing (truth or bluff)"
    seats: ClassVar[tuple[SeatInfo, ...]] = (
        SeatInfo(name=QUESTIONER, role="asks up to five questions and judges whether the statement is true",
                 evaluated=True),
        SeatInfo(name=BLUFFER, role="makes a statement about themselves, true or not, and answers the questions"),
    )
    levels: ClassVar[tuple[LevelInfo, ...]] = (
        LevelInfo(level=1, description=f"up to {LIMIT} questions, then a verdict: True or False"),
    )
    secret_sets: ClassVar[tuple[str, ...]] = STATEMENT_SETS
    split_sets: ClassVar[tuple[str, str] | None] = SPLIT_SETS
    """The two halves of our own statements (``data.load_statements``)."""
    baselines: ClassVar[tuple[BaselineInfo, ...]] = (
        BaselineInfo(name=RANDOM, description="asks questions drawn from a generic list and gives a verdict drawn "
                                              "at random, on a turn drawn at random"),
        BaselineInfo(name=NAIVE, description='says "True" at once, whatever the statement'),
    )
    verdict_seat: ClassVar[str] = QUESTIONER
    """The seat whose two-sided verdict (True or False) is scored against the truth (``verdict_truth``): the
    analysis shows its balanced accuracy beside its accuracy (``analysis.verdict_accuracy``)."""
    person_inputs: ClassVar[tuple[PersonInput, ...]] = (
        PersonInput(key="statement", seat=BLUFFER, prompt="Your statement about yourself (the model will see it)"),
        PersonInput(key="secret", seat=BLUFFER,
                    prompt="Is your statement true or false? (hidden, never shown to the model)",
                    hidden=True, choices=TRUTHS),
    )
    presentation: ClassVar[Presentation] = Presentation(
        name="Bluffing",
        tagline="You make a claim; the model judges it.",
        pitch=("Say something about yourself, true or invented, and defend it. The model may ask up to five "
               "questions before it decides whether you told the truth."),
        how=("Write a statement about yourself and mark, privately, whether it is true.",
             "Answer the model's questions; if you are bluffing, keep the story straight.",
             "At the end the model gives its verdict: True or False."),
        person_seat=BLUFFER,
    )
    metrics: ClassVar[tuple[MetricSpec, ...]] = (
        MetricSpec(name="recall_rate", label="Recall rate", percent=True, lower_is_better=False, skill="multi-hop"),
        MetricSpec(name="spearman", label="Spearman's coefficient", percent=False, lower_is_better=True,
                   skill="multi-hop"),
        MetricSpec(name="hopping_penalty", label="Hopping penalty", percent=False, lower_is_better=True,
                   skill="multi-hop"),
        MetricSpec(name="first_correct_round", label="Avg. first correct round", percent=False,
                   lower_is_better=True, skill="inductive"),
        MetricSpec(name="final_distance", label="Avg. final distance", percent=False, lower_is_better=True,
                   skill="inductive"),
    )
    ranking_skill: ClassVar[str | None] = "inductive"
    plots: ClassVar[tuple[PlotKind, ...]] = ("judgement_trajectories",)

    def new_spec(self, level: int, seed: int, rng: random.Random, *, inputs: Mapping[str, str] | None = None,
                 secret_set: str | None = None, options: Mapping[str, Scalar] | None = None) -> MatchSpec:
        """Draw prompt variants, then (unless a person gives their own statement) a statement, its truth and a persona.

        ``inputs={"statement": ..., "secret": "true" | "false"}`` is a person's own statement and its truth.
        """
        self._check_level(level)
        if options:
            raise ConfigError(f"bluffing takes no options, got: {', '.join(sorted(options))}")
        if secret_set is not None and secret_set not in STATEMENT_SETS:
            raise ConfigError(f"unknown bluffing statement set {secret_set!r}; known: {', '.join(STATEMENT_SETS)}")
        variants = {
            QUESTIONER: rng.randrange(len(prompts.QUESTIONER_VARIANTS)),
            BLUFFER: rng.randrange(len(prompts.BLUFFER_VARIANTS)),
        }
        params: dict[str, Scalar]
        if inputs is not None and "statement" in inputs:
            statement = inputs["statement"]
            if not statement.strip():
                raise ConfigError("the bluffing statement must be non-empty text")
            if inputs.get("secret") is None:
                raise ConfigError("say whether your own statement is true or false (secret 'true' or 'false')")
            truth = _truth(inputs["secret"])
            params = {"statement": statement.strip(), "secret_set": OWN_STATEMENT}
        else:
            set_name = secret_set or "ours"
            statement = rng.choice(load_statements(set_name))
            truth = rng.choice(TRUTHS)
            persona = rng.choice(load_personas())
            params = {"statement": statement, "persona": persona.describe(), "secret_set": set_name}
        return MatchSpec(game=self.id, level=level, seed=seed, setup={"secret": truth}, variants=variants,
                         params=params)

    def disclosures(self, spec: MatchSpec, state: Any = None) -> Sequence[Disclosure]:
        truth = spec.hidden("secret") or ""
        return (Disclosure(key="secret", value=truth, seats=(BLUFFER,), label="Your statement is",
                           revealed_label="The statement was"),) if truth else ()

    def initial_state(self, spec: MatchSpec) -> BluffingState:
        self._check_level(spec.level)
        statement = spec.params.get("statement")
        if not isinstance(statement, str) or not statement.strip():
            raise ConfigError("a bluffing match needs a statement (params['statement'])")
        _truth(spec.hidden("secret"))
        return BluffingState(spec=spec)

    @staticmethod
    def _check_level(level: int) -> None:
        if level != 1:
            raise ConfigError(f"bluffing has one level, 1, not {level}")

    # -- asks ---------------------------------------------------------------

    def next_ask(self, state: BluffingState) -> Ask:
        pending = state.pending
        if pending is not None:
            return self._bluffer_ask(state, pending)
        return self._questioner_ask(state)

    def _questioner_messages(self, state: BluffingState) -> tuple[Message, ...]:
        messages: list[Message] = [
            system(prompts.questioner_system(state.spec.variants.get(QUESTIONER, 0), LIMIT)),
            user(prompts.OPENING.format(statement=state.statement)),
        ]
        for exchange in state.exchanges:
            if exchange.answer is None:
                break
            messages.append(assistant(exchange.question))
            messages.append(user(_feedback(exchange)))
        return tuple(messages)

    def _questioner_ask(self, state: BluffingState) -> Ask:
        number = len(state.exchanges) + 1
        last = state.exchanges[-1].answer if state.exchanges else None
        heard = f"\nLast answer: {last}" if last else ""
        head = f"Statement: \"{state.statement}\"{heard}\n"
        if number > LIMIT:
            return Ask(seat=QUESTIONER, kind="verdict", messages=self._questioner_messages(state),
                       display=head + f"All {LIMIT} questions are asked.",
                       instructions=prompts.VERDICT_INSTRUCTIONS,
                       constraint=OutputConstraint(grammar=parsing.VERDICT_GRAMMAR), max_tokens=16,
                       max_chars=parsing.MAX_QUESTION_CHARS, one_line=True)
        return Ask(seat=QUESTIONER, kind="move", messages=self._questioner_messages(state),
                   display=head + f"Question {number} of {LIMIT}.",
                   instructions=prompts.QUESTIONER_INSTRUCTIONS.format(number=number),
                   constraint=OutputConstraint(grammar=parsing.move_grammar(number)), max_tokens=64,
                   max_chars=parsing.MAX_QUESTION_CHARS, one_line=True)

    def _bluffer_ask(self, state: BluffingState, pending: Exchange) -> Ask:
        truth = state.truth == "true"
        persona = state.spec.params.get("persona")
        messages: list[Message] = [system(prompts.bluffer_system(
            state.spec.variants.get(BLUFFER, 0), str(persona) if persona else None, state.statement, truth, LIMIT))]
        for exchange in state.exchanges:
            messages.append(user(exchange.question))
            if exchange.answer is not None:
                messages.append(assistant(exchange.answer))
        instructions = prompts.BLUFFER_INSTRUCTIONS.format(
            statement=state.statement, truth=state.truth, limit=parsing.MAX_ANSWER_CHARS,
            keep="" if truth else prompts.KEEP_BLUFFING)
        return Ask(seat=BLUFFER, kind="answer", messages=tuple(messages), display=pending.question,
                   instructions=instructions, constraint=OutputConstraint(grammar=parsing.ANSWER_GRAMMAR),
                   max_tokens=96, max_chars=parsing.MAX_ANSWER_CHARS)

    # -- parsing and applying ---------------------------------------------------

    def parse(self, state: BluffingState, ask: Ask, text: str) -> Action:
        if ask.seat == BLUFFER:
            return Action(seat=BLUFFER, kind="answer", text=parsing.parse_answer(text))
        verdict = parsing.find_verdict(text)
        if verdict is not None:
            return Action(seat=QUESTIONER, kind="verdict", text=verdict)
        if ask.kind == "verdict":
            raise FormatError(f"you have asked all {LIMIT} questions; give your verdict now: "
                              "'I believe your statement is: True' or 'I believe your statement is: False'.")
        return Action(seat=QUESTIONER, kind="question",
                      text=parsing.parse_question(text, len(state.exchanges) + 1))

    def apply(self, state: BluffingState, action: Action) -> BluffingState:
        if self.outcome(state) is not None:
            raise RuleViolation("the game is over.")
        pending = state.pending
        if action.seat == QUESTIONER:
            if pending is not None:
                raise RuleViolation("it is the bluffer's turn to answer.")
            if action.kind == "verdict":
                if action.text not in prompts.VERDICTS:
                    raise RuleViolation("the verdict must be True or False.")
                return replace(state, verdict=action.text)
            if action.kind != "question":
                raise RuleViolation(f"the questioner cannot {action.kind}.")
            number = len(state.exchanges) + 1
            if number > LIMIT:
                raise RuleViolation(f"all {LIMIT} questions are asked; only a verdict is left.")
            if not action.text.startswith(f"Question {number}: "):
                raise RuleViolation(f"this question must be headed 'Question {number}:'.")
            return replace(state, exchanges=(*state.exchanges, Exchange(number=number, question=action.text)))
        if action.seat == BLUFFER:
            if pending is None:
                raise RuleViolation("there is no question to answer.")
            if action.kind != "answer" or not action.text.strip():
                raise RuleViolation("the bluffer can only answer the question.")
            return replace(state, exchanges=(*state.exchanges[:-1], replace(pending, answer=action.text)))
        raise RuleViolation(f"unknown seat {action.seat!r}.")

    # -- results ------------------------------------------------------------

    def outcome(self, state: BluffingState) -> Outcome | None:
        if state.verdict is None:
            return None
        right = state.verdict.lower() == state.truth
        return Outcome(status="finished", winners=(QUESTIONER if right else BLUFFER,), rounds=self.rounds(state),
                       reason=f"verdict {state.verdict} after {len(state.exchanges)} questions; "
                              f"the statement was {state.truth}")

    def rounds(self, state: BluffingState) -> int:
        return len(state.exchanges) + (1 if state.verdict is not None else 0)

    def retro_points(self, state: BluffingState) -> Sequence[RetroPoint]:
        """After each answered question: the questioner's conversation through that answer."""
        points: list[RetroPoint] = []
        for index, exchange in enumerate(state.exchanges):
            if exchange.answer is None:
                break
            so_far = replace(state, exchanges=state.exchanges[: index + 1])
            question = exchange.question.split(": ", 1)[1]
            points.append(RetroPoint(round=exchange.number, kind="judgement",
                                     messages=self._questioner_messages(so_far), request=prompts.RETRO_REQUEST,
                                     question=question, seat=QUESTIONER))
        return points

    def score_retro(self, spec: MatchSpec, outputs: Sequence[RetroOutput]) -> RetroScore:
        """GameArena's Bluffing metrics of the questioner's judgements against the statement's truth."""
        return score_judgements(outputs, (spec.hidden("secret") or "").strip().lower() == "true")

    def scripted_player(self, seat: str, spec: MatchSpec) -> ScriptedQuestioner | ScriptedBluffer:
        """The bluffer gives the same answers whatever the truth; the questioner is the game's strong player
        (``core.scripted``): it asks its five questions, then gives the statement's truth as its verdict. A spec
        without a truth (none is drawn only in a hand-made spec) gets a verdict drawn from the seed."""
        if seat == BLUFFER:
            return ScriptedBluffer()
        if seat != QUESTIONER:
            raise ConfigError(f"bluffing has no seat {seat!r}")
        truth = self.verdict_truth(spec)
        if truth is not None:
            return ScriptedQuestioner(prompts.VERDICTS[0] if truth else prompts.VERDICTS[1])
        rng = random.Random(derive_seed(spec.seed, "scripted questioner"))
        return ScriptedQuestioner(rng.choice(prompts.VERDICTS))

    def baseline_player(self, name: str, party: str, spec: MatchSpec) -> RandomQuestioner | NaiveQuestioner:
        """The questioner's baselines (``baselines``); neither reads the truth."""
        if party != QUESTIONER:
            raise ConfigError(f"bluffing's baseline players hold the questioner's seat, not {party!r}")
        if name == RANDOM:
            return RandomQuestioner(spec)
        if name == NAIVE:
            return NaiveQuestioner()
        raise ConfigError(f"bluffing has no baseline player {name!r}")

    def verdict_truth(self, spec: MatchSpec) -> bool | None:
        """Whether the statement is true (``None``: the spec holds no readable truth): what the questioner's
        verdict is scored against."""
        truth = (spec.hidden("secret") or "").strip().lower()
        return truth == "true" if truth in TRUTHS else None

    def transcript(self, state: BluffingState) -> Sequence[tuple[str, str]]:
        lines: list[tuple[str, str]] = [(BLUFFER, state.statement)]
        for exchange in state.exchanges:
            lines.append((QUESTIONER, exchange.question))
            if exchange.answer is not None:
                lines.append((BLUFFER, exchange.answer))
        if state.verdict is not None:
            lines.append((QUESTIONER, prompts.verdict_line(state.verdict)))
        return lines


def _feedback(exchange: Exchange) -> str:
    """The answer as the questioner hears it, with how many questions are left."""
    left = LIMIT - exchange.number
    if left == 0:
        return prompts.NONE_LEFT.format(answer=exchange.answer)
    if left == 1:
        return prompts.ONE_LEFT.format(answer=exchange.answer)
    return prompts.QUESTIONS_LEFT.format(answer=exchange.answer, left=left)
