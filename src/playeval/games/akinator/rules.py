"""Akinator (twenty questions) as a pure state machine.

The guesser (the evaluated seat) asks one yes/no question per turn or
guesses; the answerer replies. A guess uses a turn. A guess that matches the
secret after normalisation is confirmed by the rules; any other guess goes to
the answerer to confirm or deny. The guesser wins when a guess is confirmed
within the level's turn limit (20, 18, 16).

The ``judge`` role may be a panel (``--role judge=A,B,C``: members ``judge``,
``judge#2``, ``judge#3``, their number the spec's ``judges`` param, absent for
one judge): each member is asked the same confirmation in turn, and once all
have answered the panel's verdict is the majority's; a tie goes to the members'
mean probability of accepting (at least 0.5 confirms) when every member's action
recorded one, else the guess is refused (``core.judge_panel``). The members'
answers are kept with the turn and shown beside the panel's at once.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, ClassVar, Literal

from playeval.core.ask import Ask, OutputConstraint
from playeval.core.baselines import NAIVE, RANDOM, BaselineInfo
from playeval.core.errors import ConfigError, FormatError, RuleViolation
from playeval.core.game import GameBase, JudgeCase, RetroOutput, RetroPoint, RetroScore
from playeval.core.info import (
    ConversationBreak,
    Disclosure,
    LevelInfo,
    MetricSpec,
    PersonInput,
    PlotKind,
    Presentation,
    RoleInfo,
    Scalar,
    SeatInfo,
    panel_member,
    panel_role,
)
from playeval.core.judge_cases import context_text, packaged_cases
from playeval.core.judge_panel import MemberVerdict, action_p_accept, panel_verdict
from playeval.core.match import Action, MatchSpec, Outcome
from playeval.core.messages import Message, assistant, system, user
from playeval.core.normalize import normalize_name, same_name
from playeval.core.rng import derive_seed
from playeval.core.verdicts import VerdictQuestion
from playeval.games.akinator import prompts
from playeval.games.akinator.baselines import (
    NAIVE_QUESTIONS,
    ListGuesser,
    NaiveGuesser,
    OracleAnswerer,
    OracleGuesser,
    RandomGuesser,
)
from playeval.games.akinator.data import SECRET_SETS, SPLIT_SETS, load_secrets
from playeval.metrics.retro import candidate_metrics, score_candidates

GUESSER = "guesser"
ANSWERER = "answerer"
JUDGE = "judge"
JUDGES = "judges"
"""The param (and panel option) holding the number of judges of a panel (``RoleInfo.panel_option``)."""

FULL_ANSWERS: tuple[str, ...] = ("Yes", "No", "Probably yes", "Probably no", "Don't know")
STRICT_ANSWERS: tuple[str, ...] = ("Yes", "No", "Don't know")
CONFIRM_ANSWERS: tuple[str, ...] = ("Yes", "No")
CONFIRM_QUESTION = VerdictQuestion(answers=CONFIRM_ANSWERS, accept=("Yes",))
"""The judge's confirmation as a verdict (``core.verdicts``)."""
_CONFIRM_SYSTEM = system(prompts.CONFIRM_SYSTEM)
_CONFIRM_CONSTRAINT = OutputConstraint(choices=CONFIRM_ANSWERS)
"""The judge's system message and answers: the same in every match (frozen, shared by every confirmation ask)."""
UNNAMED_SECRET = "the object you have in mind"
"""What the answerer and the judge are told when the person keeps the object in their head."""

LIMITS = {1: 20, 2: 18, 3: 16}
MAX_QUESTION_CHARS = 300
MAX_SECRET_CHARS = 100

_HEADER = re.compile(r"^\s*question\s*(\d+)\s*[:.)-]\s*", re.IGNORECASE)
_GUESS = re.compile(
    r"^\s*this\s+is\s+a\s+guess\s*[-\u2013\u2014:,]*\s*are\s+you\s+thinking\s+of\s+(?P<object>.+?)\s*\??\s*$",
    re.IGNORECASE,
)
_SHORT_GUESS = re.compile(r"^\s*guess\s*[:\-]?\s+(?P<object>.+?)\s*\??\s*$", re.IGNORECASE)
# Guesses that name nothing: a model that says "the object" has not guessed.
_PLACEHOLDERS = frozenset({"object", "thing", "something", "item", "it", "this", "that", "anything", "everything",
                           "stuff", "your object", "secret object", "secret", "unknown", "x"})
# A category ("a man-made object", "a household item", "a metal object") is a guess that names no object: the rules
# answer it No, as a person would, instead of asking the answerer; a lenient 1.5B answerer confirmed "a man-made
# object" for eyeglasses. It uses the turn like any wrong guess.
_GENERIC_HEADS = frozenset({"object", "thing", "item", "stuff", "something", "anything", "everything"})
# Two objects in one guess: "a cat or a dog", "a cat/a dog", "a cat, a dog", "a cat? This is a guess -- are you
# thinking of a dog". One secret has " or " ("a dishwasher detergent or cleaning agent"): a guess that names it is
# read as one. " and " is left alone: names have it ("a bow and arrow").
_TWO_OBJECTS = re.compile(r"\s(?:or|and/or)\s|/|\?|,\s*(?:or\s+)?(?:a|an|the)\s", re.IGNORECASE)
_DECORATION = re.compile(r"^[\s*_`\"'>#]+|[\s*_`\"']+$")
_LEADING_DECORATION = frozenset("*_`\"'>#")
_TRAILING_DECORATION = frozenset("*_`\"'")
_NOT_ANSWER = re.compile(r"[^a-z' ]")
_WHITESPACE = re.compile(r"\s+")
_ANSWER_ALIASES = {"not sure": "Don't know", "dont know": "Don't know", "unknown": "Don't know"}


def _names_nothing(guess: str) -> bool:
    """A placeholder left unfilled ("the object", "something"): the reply is not a guess at all."""
    name = normalize_name(guess)
    return not name or name in _PLACEHOLDERS


def guessable(obj: str) -> bool:
    """Whether a guess naming ``obj`` is accepted whatever the secret is: it names something, one thing, and fits
    the grammar (no question mark, one line). A baseline guesses only such objects: it cannot know when naming two
    is the secret's own name."""
    return not _names_nothing(obj) and not _TWO_OBJECTS.search(obj) and "\n" not in obj


def is_category(guess: str) -> bool:
    """A guess whose head noun is generic ("a man-made object"): a class of objects, not one."""
    return _category_name(normalize_name(guess))


def _category_name(name: str) -> bool:
    words = name.split()
    return bool(words) and words[-1] in _GENERIC_HEADS


@dataclass(frozen=True)
class Turn:
    number: int
    kind: Literal["question", "guess"]
    text: str
    answer: str | None = None
    confirmed_by_rules: bool = False
    category: bool = False
    """A guess that named a category; the rules answered it No."""
    panel: tuple[MemberVerdict, ...] = ()
    """A panel's members' answers to the guess, in the order they answered (empty for one judge)."""

    def said(self) -> str:
        """The guesser's line as it was said: the question, or the guess in the protocol's words."""
        return self.text if self.kind == "question" else prompts.GUESS_FORMAT.format(object=self.text)


@dataclass(frozen=True)
class _Fixed:
    """What stays the same through a match, built once for it: the guesser's first two messages, the answerer's
    system message and answer constraint, and the secret's normalised name (``spec``: the match
    they were built for)."""

    spec: MatchSpec
    opening: tuple[Message, Message]
    answerer_system: Message
    answerer_constraint: OutputConstraint
    secret_name: str


@dataclass(frozen=True)
class AkinatorState:
    spec: MatchSpec
    turns: tuple[Turn, ...] = ()
    won: bool = False
    said: tuple[int, tuple[Turn, ...], tuple[Message, ...]] = field(default=(0, (), ()), compare=False, repr=False)
    """The guesser's conversation after its opening, built once as turns are answered rather than for every ask:
    the turn limit and turns it was built for, and their messages (a cache, used only for the same limit and
    turns: the messages depend on nothing else)."""
    fixed: _Fixed | None = field(default=None, compare=False, repr=False)
    """The match's fixed messages (a cache, built by ``initial_state``; used only if built for this spec)."""

    @property
    def secret(self) -> str | None:
        return self.spec.hidden("secret")

    @property
    def limit(self) -> int:
        return LIMITS[self.spec.level]

    @property
    def answers(self) -> tuple[str, ...]:
        return STRICT_ANSWERS if self.spec.level == 3 else FULL_ANSWERS

    @property
    def judges(self) -> int:
        """The judges of the panel (1 unless the role was bound to several models)."""
        return int(self.spec.params.get(JUDGES, 1))

    @property
    def pending(self) -> Turn | None:
        if self.turns and self.turns[-1].answer is None:
            return self.turns[-1]
        return None


def _moved(state: AkinatorState, turns: tuple[Turn, ...], *, won: bool = False,
           said: tuple[int, tuple[Turn, ...], tuple[Message, ...]] | None = None) -> AkinatorState:
    """``replace(state, turns=turns, won=won[, said=said])``, built directly: a move's hot path."""
    return AkinatorState(spec=state.spec, turns=turns, won=won, said=state.said if said is None else said,
                         fixed=state.fixed)


def _clean(text: str) -> str:
    stripped = text.strip()
    line = stripped.splitlines()[0] if stripped else ""
    line = line.replace("*", "").replace("`", "")
    # The decoration is only ever at the ends (\s is str.isspace): most lines have none, and skip the regex.
    if line and (line[0] in _LEADING_DECORATION or line[0].isspace() or line[-1] in _TRAILING_DECORATION
                 or line[-1].isspace()):
        line = _DECORATION.sub("", line)
    return line.strip()


def _match_answer(text: str, allowed: tuple[str, ...]) -> str | None:
    key = _NOT_ANSWER.sub("", text.strip().lower().replace("\u2019", "'")).strip()
    key = _WHITESPACE.sub(" ", key)
    for answer in allowed:
        if key == answer.lower():
            return answer
    alias = _ANSWER_ALIASES.get(key)
    return alias if alias in allowed else None


def _guess_grammar(number: int) -> str:
    return (
        f'root ::= "Question {number}: " text "?" | "This is a guess -- are you thinking of " text "?"\n'
        'text ::= [^\\n?]+\n'
    )


def _feedback_text(answer: str, left: int) -> str:
    return prompts.LAST_TURN.format(answer=answer) if left == 1 else prompts.TURNS_LEFT.format(answer=answer, left=left)


# Every feedback message the rules can send the guesser (an answer, or a guess's verdict, with the turns left), built
# once: frozen, shared by every match's conversation.
_FEEDBACK: Mapping[str, Message] = MappingProxyType({
    text: user(text) for text in (
        _feedback_text(answer, left)
        for answer in (*(f"{answer}." for answer in FULL_ANSWERS), prompts.RIGHT_GUESS, prompts.WRONG_GUESS)
        for left in range(max(LIMITS.values())))
})

# The guesser's constraint for each turn of the longest level, built once (frozen: asks share them).
_GUESS_CONSTRAINTS: tuple[OutputConstraint, ...] = tuple(
    OutputConstraint(grammar=_guess_grammar(number)) for number in range(1, max(LIMITS.values()) + 1))


def confirm_ask(secret: str, guess: str, *, role: str = JUDGE) -> Ask:
    """The judge's ask on a guess the rules cannot settle: does ``guess`` (the object as the guess names it) name
    ``secret``? Built here for a match and for the judge's calibration cases alike, so both ask the same words
    (``role``: the panel member asked, ``judge`` itself unless there is a panel)."""
    return Ask(role=role, kind="confirm", display=prompts.GUESS_FORMAT.format(object=guess),
               messages=(_CONFIRM_SYSTEM, user(prompts.CONFIRM_USER.format(secret=secret, guess=guess))),
               instructions="Is that your object? Answer Yes or No.",
               constraint=_CONFIRM_CONSTRAINT, max_tokens=8, verdict=CONFIRM_QUESTION)


def read_answer(text: str, allowed: tuple[str, ...]) -> str:
    """An answerer's or a judge's reply as one of ``allowed`` (case, decoration and a final full stop folded);
    ``FormatError`` when it holds two lines or no allowed answer."""
    lines = [line for line in text.strip().splitlines() if line.strip()]
    if len(lines) > 1:
        raise FormatError(f"give one answer, not two: reply with exactly one of: {', '.join(allowed)}, "
                          "on one line.")
    answer = _match_answer(_clean(text), allowed)
    if answer is None:
        raise FormatError(f"the answer must be exactly one of: {', '.join(allowed)}.")
    return answer


def _guess_constraint(number: int) -> OutputConstraint:
    if 1 <= number <= len(_GUESS_CONSTRAINTS):
        return _GUESS_CONSTRAINTS[number - 1]
    return OutputConstraint(grammar=_guess_grammar(number))


class Akinator(GameBase):
    """Twenty questions: the model asks, a person (or a simulated person) answers.

    A guess that does not match the secret after normalisation goes to the ``judge`` role, which confirms or
    denies it; by default the judge is whoever holds the answerer's seat (a person who knows the object, or the
    simulated person's model, asked as a role: greedily). The transcript shows its verdict as the answer to the
    guess, on the answerer's side, as the paper's protocol has it; the log records which party decided. Several
    models bound to the role make a panel whose majority decides (see the module's note).

    The judge is measured on hand-written labelled guesses (``judge_cases``, asked by :func:`confirm_ask` as in a
    match), so a lenient judge's wins are not taken for the guesser's.
    """

    id: ClassVar[str] = "akinator"
    title: ClassVar[str] = "Akinator (twenty questions)"
    seats: ClassVar[tuple[SeatInfo, ...]] = (
        SeatInfo(name=GUESSER, role="asks yes/no questions and guesses the object", evaluated=True),
        SeatInfo(name=ANSWERER, role="holds the secret object and answers"),
    )
    roles: ClassVar[tuple[RoleInfo, ...]] = (
        RoleInfo(name=JUDGE, does="decides whether a guess names the secret object when the rules cannot tell "
                                  "(an exact match is confirmed by the rules); several models make a panel "
                                  "(judge=A,B,C), whose majority decides", default=f"seat:{ANSWERER}",
                 sees=("secret",), panel_option=JUDGES),
    )
    conversation_breaks: ClassVar[tuple[ConversationBreak, ...]] = (
        ConversationBreak(party=ANSWERER,
                          reason="each question is answered about the secret alone: the answerer is shown the "
                                 "question, not the game so far (as a person in the seat is), so an answer never "
                                 "leans on the answers before it"),
        ConversationBreak(party=JUDGE,
                          reason="each guess is confirmed on its own, from the secret and the guess, with none of "
                                 "the judge's earlier answers in view"),
    )
    levels: ClassVar[tuple[LevelInfo, ...]] = (
        LevelInfo(level=1, description="20 turns; answers Yes/No/Probably yes/Probably no/Don't know"),
        LevelInfo(level=2, description="18 turns; same answers"),
        LevelInfo(level=3, description="16 turns; answers only Yes/No/Don't know"),
    )
    secret_sets: ClassVar[tuple[str, ...]] = SECRET_SETS
    split_sets: ClassVar[tuple[str, str] | None] = SPLIT_SETS
    """The paper's Set 1, and Set 2 less the objects Set 1 also holds (``data.load_secrets``)."""
    baselines: ClassVar[tuple[BaselineInfo, ...]] = (
        BaselineInfo(name=RANDOM, description="asks yes/no questions drawn from a fixed list and, on about one "
                                              "turn in four, guesses an object drawn from the match's secret set"),
        BaselineInfo(name=NAIVE, description=f"asks the same {NAIVE_QUESTIONS} questions in the same order, then "
                                             "guesses the secret set's objects in the set's order"),
    )
    person_inputs: ClassVar[tuple[PersonInput, ...]] = (
        PersonInput(key="secret", seat=ANSWERER, prompt="Your secret object (hidden, never shown to the model)",
                    hidden=True, required=False, max_chars=MAX_SECRET_CHARS),
    )
    presentation: ClassVar[Presentation] = Presentation(
        name="Akinator",
        tagline="You hold the secret; the model asks.",
        pitch=("Pick any object and keep it to yourself. The model fires yes-or-no questions at you and "
               "has a limited number of turns to name it. You answer with a click."),
        how=("Type an object only you know about. The model never sees it.",
             ("Answer each question with one of the buttons. Answer honestly: the fun is in seeing how it "
              "narrows down."),
             "When the model guesses, tell it whether it got your object."),
        person_seat=ANSWERER,
    )
    metrics: ClassVar[tuple[MetricSpec, ...]] = (
        *candidate_metrics("deductive")[:3],
        MetricSpec(name="disparity_ratio", label="Disparity ratio", percent=True, lower_is_better=True,
                   skill="multi-hop"),
        *candidate_metrics("deductive")[3:],
    )
    ranking_skill: ClassVar[str | None] = "deductive"
    plots: ClassVar[tuple[PlotKind, ...]] = ("recall_by_round",)

    def new_spec(self, level: int, seed: int, rng: random.Random, *, inputs: Mapping[str, str] | None = None,
                 secret_set: str | None = None, options: Mapping[str, Scalar] | None = None) -> MatchSpec:
        """Draw the prompt variants, then the secret object: the person's (``inputs``; none given means they
        keep it in their head, so nothing is drawn), else one from ``secret_set``."""
        chosen = dict(options or {})
        judges = int(chosen.pop(JUDGES, 1))  # a panel's size, from the role's binding (``panel_options``)
        if chosen:
            raise ConfigError(f"akinator takes no options, got: {', '.join(sorted(chosen))}")
        if judges < 1:
            raise ConfigError(f"akinator: a panel has at least one judge, not {judges}")
        secret_set = secret_set or "everyday"
        if level not in LIMITS:
            raise ConfigError(f"akinator has levels 1, 2 and 3, not {level}")
        variants = {
            GUESSER: rng.randrange(len(prompts.GUESSER_VARIANTS)),
            ANSWERER: rng.randrange(len(prompts.ANSWERER_VARIANTS)),
        }
        secret: str | None = rng.choice(load_secrets(secret_set))
        if inputs is not None:
            secret = inputs.get("secret") or None
        setup = {} if secret is None else {"secret": secret}
        params: dict[str, Scalar] = {"secret_set": secret_set}
        if judges > 1:  # one judge adds nothing, so a single judge's spec is as it always was
            params[JUDGES] = judges
        return MatchSpec(game=self.id, level=level, seed=seed, setup=setup, variants=variants, params=params)

    def disclosures(self, spec: MatchSpec, state: Any = None) -> Sequence[Disclosure]:
        secret = spec.hidden("secret")
        if secret is None:
            return ()
        return (Disclosure(key="secret", value=secret, seats=(ANSWERER,), label="Your secret object",
                           revealed_label="The object"),)

    def initial_state(self, spec: MatchSpec) -> AkinatorState:
        if spec.level not in LIMITS:
            raise ConfigError(f"akinator has levels 1, 2 and 3, not {spec.level}")
        state = AkinatorState(spec=spec)
        return replace(state, fixed=self._build_fixed(state))

    def _build_fixed(self, state: AkinatorState) -> _Fixed:
        secret = state.secret or UNNAMED_SECRET
        variant = state.spec.variants.get(ANSWERER, 0)
        return _Fixed(
            spec=state.spec,
            opening=(system(prompts.guesser_system(state.spec.variants.get(GUESSER, 0), state.limit, state.answers)),
                     user(prompts.OPENING.format(limit=state.limit))),
            answerer_system=system(prompts.answerer_system(variant, secret, state.answers)),
            answerer_constraint=OutputConstraint(choices=state.answers),
            secret_name=normalize_name(state.secret) if state.secret else "",
        )

    def _fixed(self, state: AkinatorState) -> _Fixed:
        fixed = state.fixed
        return fixed if fixed is not None and fixed.spec is state.spec else self._build_fixed(state)

    # -- asks ---------------------------------------------------------------

    def next_ask(self, state: AkinatorState) -> Ask:
        pending = state.pending
        if pending is None:
            return self._guesser_ask(state)
        return self._answerer_ask(state, pending)

    def _guesser_messages(self, state: AkinatorState) -> tuple[Message, ...]:
        return self._fixed(state).opening + self._said(state, state.turns)

    def _said(self, state: AkinatorState, turns: tuple[Turn, ...]) -> tuple[Message, ...]:
        """The messages of ``turns`` (answered turns of ``state``'s match): the cache when it holds them. Comparing
        the turns is a C loop that stops at the first pair that is not the same object (every pair, when cached)."""
        limit, built_for, messages = state.said
        if built_for == turns and limit == state.limit:
            return messages
        return tuple(message for turn in turns for message in self._turn_messages(state, turn))

    def _turn_messages(self, state: AkinatorState, turn: Turn) -> tuple[Message, Message]:
        feedback = self._feedback(state, turn)
        return assistant(turn.said()), _FEEDBACK.get(feedback) or user(feedback)

    def _answered(self, state: AkinatorState, turns: tuple[Turn, ...], *, won: bool = False) -> AkinatorState:
        """``state`` with ``turns``, whose last turn has just been answered: its messages join ``said``."""
        said = self._said(state, turns[:-1]) + self._turn_messages(state, turns[-1])
        return _moved(state, turns, won=won, said=(state.limit, turns, said))

    def _guesser_ask(self, state: AkinatorState) -> Ask:
        number = len(state.turns) + 1
        messages = self._guesser_messages(state)
        last = state.turns[-1] if state.turns else None
        heard = f"Last answer: {last.answer}. " if last else ""
        return Ask(
            seat=GUESSER,
            kind="move",
            messages=messages,
            display=f"{heard}Turn {number} of {state.limit}.",
            instructions="Ask a yes/no question, or guess with: This is a guess -- are you thinking of <object>?",
            constraint=_guess_constraint(number),
            max_tokens=64,
            max_chars=MAX_QUESTION_CHARS,
            one_line=True,
        )

    def _feedback(self, state: AkinatorState, turn: Turn) -> str:
        if turn.kind == "guess":
            answer = prompts.RIGHT_GUESS if turn.answer == "Yes" else prompts.WRONG_GUESS
        else:
            answer = f"{turn.answer}."
        return _feedback_text(answer, state.limit - turn.number)

    def _answerer_ask(self, state: AkinatorState, pending: Turn) -> Ask:
        """The answerer's ask for a question; a guess goes to the judge role instead (:func:`confirm_ask`)."""
        if pending.kind == "guess":
            return confirm_ask(state.secret or UNNAMED_SECRET, pending.text,
                               role=panel_member(JUDGE, len(pending.panel)))
        fixed = self._fixed(state)
        return Ask(seat=ANSWERER, kind="answer", display=pending.text,
                   messages=(fixed.answerer_system, user(pending.text)),
                   instructions="Answer with one of: " + ", ".join(state.answers),
                   constraint=fixed.answerer_constraint, max_tokens=8)

    # -- parsing ------------------------------------------------------------

    def parse(self, state: AkinatorState, ask: Ask, text: str) -> Action:
        if ask.seat == GUESSER:
            return self._parse_move(state, text)
        answer = read_answer(text, CONFIRM_ANSWERS if ask.kind == "confirm" else state.answers)
        return Action(seat=ask.seat, role=ask.role, kind=ask.kind, text=answer)

    def _parse_move(self, state: AkinatorState, text: str) -> Action:
        number = len(state.turns) + 1
        if not text.strip():
            raise FormatError("the reply was empty.")
        if len([line for line in text.strip().splitlines() if line.strip()]) > 1:
            raise FormatError("reply with a single line: one question or one guess.")
        line = _clean(text)
        header = _HEADER.match(line)
        if header:
            if int(header.group(1)) != number:
                raise FormatError(f"this turn's question must be headed 'Question {number}:'.")
            line = line[header.end():]
        guess = _GUESS.match(line) or _SHORT_GUESS.match(line)
        if guess:
            obj = guess.group("object").strip().rstrip("?.!").strip()
            if _names_nothing(obj):
                raise FormatError(f"a guess must name a specific object, not {obj!r}.")
            if _TWO_OBJECTS.search(obj) and not same_name(obj, state.secret or ""):
                raise FormatError("a guess names one object; give one answer, not two: "
                                  "'This is a guess -- are you thinking of <object>?'.")
            return Action(seat=GUESSER, kind="guess", text=obj)
        if line.count("?") != 1 or not line.endswith("?"):
            raise FormatError(
                f"ask exactly one yes/no question ending with '?', headed 'Question {number}:', "
                "or guess with 'This is a guess -- are you thinking of <object>?'."
            )
        if len(line) > MAX_QUESTION_CHARS:
            raise FormatError(f"the question is longer than {MAX_QUESTION_CHARS} characters.")
        return Action(seat=GUESSER, kind="question", text=f"Question {number}: {line}")

    # -- applying -----------------------------------------------------------

    def apply(self, state: AkinatorState, action: Action) -> AkinatorState:
        if self.outcome(state) is not None:
            raise RuleViolation("the game is over.")
        pending = state.pending
        if action.seat == GUESSER:
            if pending is not None:
                raise RuleViolation("it is the answerer's turn.")
            if action.kind not in ("question", "guess"):
                raise RuleViolation(f"the guesser cannot {action.kind}.")
            number = len(state.turns) + 1
            kind = action.kind
            name = normalize_name(action.text) if kind == "guess" else ""
            if name and name == self._fixed(state).secret_name:  # same_name(guess, secret), the secret's name kept
                right = Turn(number=number, kind="guess", text=action.text, answer="Yes", confirmed_by_rules=True)
                return _moved(state, (*state.turns, right), won=True)
            if kind == "guess" and _category_name(name):
                category = Turn(number=number, kind="guess", text=action.text, answer="No", category=True)
                return self._answered(state, (*state.turns, category))
            turn = Turn(number=number, kind=kind, text=action.text)  # type: ignore[arg-type]
            return _moved(state, (*state.turns, turn), won=state.won)
        judge = action.role is not None and panel_role(action.role) == JUDGE
        if action.seat == ANSWERER or judge:
            if pending is None:
                raise RuleViolation("there is no question to answer.")
            # Logs of schema version 1, before the judge was a role, have the answerer confirm guesses.
            judged = judge or (action.seat == ANSWERER and action.kind == "confirm")
            if (pending.kind == "guess") != judged:
                raise RuleViolation("a guess is judged by the judge; a question is answered by the answerer.")
            expected = "confirm" if pending.kind == "guess" else "answer"
            allowed = CONFIRM_ANSWERS if expected == "confirm" else state.answers
            if action.kind != expected or action.text not in allowed:
                raise RuleViolation(f"expected one of {', '.join(allowed)}.")
            if judge:
                member = panel_member(JUDGE, len(pending.panel))
                if action.role != member:
                    raise RuleViolation(f"the confirmation open is {member}'s.")
                if state.judges > 1:
                    return self._panel_answered(state, pending, action)
            answered = Turn(number=pending.number, kind=pending.kind, text=pending.text, answer=action.text,
                            confirmed_by_rules=pending.confirmed_by_rules, category=pending.category)
            won = pending.kind == "guess" and action.text == "Yes"
            return self._answered(state, (*state.turns[:-1], answered), won=won)
        raise RuleViolation(f"unknown seat or role {action.party!r}.")

    def _panel_answered(self, state: AkinatorState, pending: Turn, action: Action) -> AkinatorState:
        """A panel member's confirmation: kept with the guess; the last member's decides (``core.judge_panel``)."""
        said = MemberVerdict(member=action.role or JUDGE, word=action.text, accepted=action.text == "Yes",
                             p_accept=action_p_accept(action.data))
        panel = (*pending.panel, said)
        if len(panel) < state.judges:
            return _moved(state, (*state.turns[:-1], replace(pending, panel=panel)), won=state.won)
        answer = "Yes" if panel_verdict(panel).accepted else "No"
        answered = replace(pending, answer=answer, panel=panel)
        return self._answered(state, (*state.turns[:-1], answered), won=answer == "Yes")

    def outcome(self, state: AkinatorState) -> Outcome | None:
        rounds = len(state.turns)
        if state.won:
            last = state.turns[-1]
            how = "confirmed by the rules" if last.confirmed_by_rules else \
                f"confirmed by the judges: {panel_verdict(last.panel).describe()}" if last.panel else \
                "confirmed by the judge"
            return Outcome(status="finished", winners=(GUESSER,), rounds=rounds,
                           reason=f"guessed {last.text!r} in turn {last.number} ({how})")
        if rounds >= state.limit and state.pending is None:
            return Outcome(status="finished", winners=(ANSWERER,), rounds=rounds,
                           reason=f"no correct guess within {state.limit} turns")
        return None

    def rounds(self, state: AkinatorState) -> int:
        return len(state.turns)

    def retro_points(self, state: AkinatorState) -> Sequence[RetroPoint]:
        """After each answered turn: the guesser's conversation through that answer, and a request for objects."""
        points: list[RetroPoint] = []
        for index, turn in enumerate(state.turns):
            if turn.answer is None:
                break
            so_far = replace(state, turns=state.turns[: index + 1])
            question = _HEADER.sub("", turn.text) if turn.kind == "question" else f"Is it {turn.text}?"
            points.append(RetroPoint(round=turn.number, kind="candidates", messages=self._guesser_messages(so_far),
                                     request=prompts.RETRO_REQUEST, question=question, seat=GUESSER))
        return points

    def score_retro(self, spec: MatchSpec, outputs: Sequence[RetroOutput]) -> RetroScore:
        """Recall of the secret in the guesser's candidate lists; the disparity ratio of its questions' splits."""
        return score_candidates(outputs, spec.hidden("secret") or "", disparity=True)

    def scripted_player(self, party: str, spec: MatchSpec) -> OracleAnswerer | OracleGuesser | ListGuesser:
        """The answerer and the judge answer as the secret says; the guesser is the game's strong player
        (``core.scripted``): it reads the secret and names it on its fourth turn (:class:`OracleGuesser`). With no
        secret to read (a person keeps it in their head) it guesses objects of the set in a seeded order."""
        if party == ANSWERER or panel_role(party) == JUDGE:
            return OracleAnswerer(spec.hidden("secret") or "")
        if party != GUESSER:
            raise ConfigError(f"akinator has no seat or role {party!r}")
        secret = spec.hidden("secret")
        if secret and not _names_nothing(secret) and "?" not in secret and "\n" not in secret:  # it can be named
            return OracleGuesser(secret)
        rng = random.Random(derive_seed(spec.seed, "scripted guesser"))  # independent of the draw of the secret
        pool = list(load_secrets(str(spec.params.get("secret_set", "everyday"))))
        return ListGuesser(rng.sample(pool, k=min(len(pool), LIMITS[spec.level])))

    def baseline_player(self, name: str, party: str, spec: MatchSpec) -> RandomGuesser | NaiveGuesser:
        """The guesser's baselines (``baselines``), made from the public params alone: the secret set's objects
        that a guess may name whatever the secret (:func:`guessable`), never the secret."""
        if party != GUESSER:
            raise ConfigError(f"akinator's baseline players hold the guesser's seat, not {party!r}")
        candidates = tuple(obj for obj in load_secrets(str(spec.params.get("secret_set", "everyday")))
                           if guessable(obj))
        if name == RANDOM:
            return RandomGuesser(spec, candidates)
        if name == NAIVE:
            return NaiveGuesser(candidates)
        raise ConfigError(f"akinator has no baseline player {name!r}")

    def transcript(self, state: AkinatorState) -> Sequence[tuple[str, str]]:
        lines: list[tuple[str, str]] = []
        for turn in state.turns:
            lines.append((GUESSER, turn.said()))
            if turn.answer is not None:
                suffix = " (matched by the rules)" if turn.confirmed_by_rules else \
                    " (a category, not an object: answered by the rules)" if turn.category else \
                    self._panel_note(turn) if turn.panel else ""
                lines.append((ANSWERER, turn.answer + suffix))
        return lines

    # -- the judge's calibration set (``data/judge_cases.jsonl``: ``playeval analyze judge``) -----------------

    judge_case_keys: ClassVar[Mapping[str, str]] = {
        "secret": "the object the answerer holds, as a secret set names it ('a sofa'); the case's answer is the "
                  "guess, the object as the guesser's guess names it ('a couch')"}

    def judge_cases(self) -> Sequence[JudgeCase]:
        """Guesses written and labelled by hand against secrets of the game's sets and everyday objects (see
        ``data/PROVENANCE.md``): other names, spelling variants, broader and narrower names, related and wrong
        objects."""
        return packaged_cases("playeval.games.akinator", "data/judge_cases.jsonl", self.id)

    def judge_case_ask(self, case: JudgeCase) -> Ask:
        return confirm_ask(context_text(case, "secret"), case.answer)

    def judge_case_verdict(self, ask: Ask, text: str) -> bool:
        """The judge's reply read as a match reads it: "Yes" confirms the guess, "No" denies it."""
        return read_answer(text, CONFIRM_ANSWERS) == "Yes"
    @staticmethod
    def _panel_note(turn: Turn) -> str:
        """A panel's answers to a guess and how they combined, after the panel's: `` (the judges: judge Yes,
        judge#2 No, judge#3 Yes; 2 of 3 accepted)``."""
        answers = ", ".join(f"{member.member} {member.word}" for member in turn.panel)
        return f" (the judges: {answers}; {panel_verdict(turn.panel).describe()})"
