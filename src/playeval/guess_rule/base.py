"""The flow GuessTheRuleBench's games share (section 3.4), as a template on playeval's core.

A game master holds a concealed rule. Turn 1 shows ``num_init_examples`` examples; every later turn the player asks
for N more (``MORE: N``) or states the rule (``GUESS: ...``); each counts one turn, and asking for more examples
than remain is refused with the reason and counts nothing. After a guess the player first applies its rule to
held-out items (the judge-free rule-application check, recorded as the seat's score), then the ``judge`` role
rules on the guess. The player wins on an accepted guess; the game ends at ``max_turns``, or when a guess made
after every example was shown is refused (the examples ran out). The rule is revealed at the end.

**A panel of judges** (``--role judge=A,B,C``: members ``judge``, ``judge#2``, ``judge#3``; their number is the
spec's ``judges`` param, absent for one judge). Each member is asked the same question in turn and its verdict is
kept with the guess (``Guess.panel``); once all have answered, the panel's verdict is the majority's, and a tie
goes to the members' mean probability of accepting (at least 0.5 accepts) when every member's action recorded one
(``core.verdicts``), else the guess is refused (``core.judge_panel``). The player reads each member's verdict as
it comes and the panel's; every member's reason is held until the end, as a single judge's is. One judge plays
exactly as before: its verdict is the guess's.

**What the rules decide.** A guess the rules can see is right is accepted by them, as Akinator's rules confirm a
guess that names the secret: no judge is asked and there is no judge phase (the check is still asked for, so the
seat's score is measured the same way). By default a guess is right when it states the rule in the rule's own words
(``stated.states_rule``: the same words after normalising case, punctuation, number words, articles and the
like); a game may accept more (``rules_accept``: the Math Game accepts a formula that gives every value of the
sequence and of the check). The rules only accept: a guess they do not accept goes to the judge, which may still
accept it. The guess records who decided (``Guess.decided``), derived in ``apply`` from the guess's words, so the
match still folds from its log; matches recorded before the rules decided (without the ``rules_decide`` param)
fold as they were played, every guess judged.

**Fresh check items for every guess, and how the pool is shared.** Each guess's check (``Guess.check``, drawn by
``next_check`` when the guess is made, so the match still folds from its log) asks as many items as the first,
with as many of each answer. The first check's items are set apart before the examples are drawn, as they always
were. A later guess gets items no earlier check asked and the player was never shown, taken in this order:

1. the round's reserve: items the game's pool has to spare beyond its example units (a picnic rule's items past
   the cap on units, the many items a rule refuses; the Math Game's values from further start values, without
   end);
2. example units not yet shown, from the last one back, while more than ``FAIR_LEFT`` (10, the least every rule
   offers beyond turn 1) stay to be shown: a unit so taken is never shown, and the examples left shrink by one
   (the check's ask and the transcript say so). Units already shown are never check items;
3. only then items of the earliest checks again, counted as reused (the check's ask and the transcript say how
   many).

So a wrong guess never costs the player more than the examples beyond the first ten still to come, and a rule
whose pool is small repeats items rather than fail. The order of a later check's items is drawn from the match's
seed and the check's number. A match recorded without ``FRESH_CHECKS`` asks the first check's items after every
guess, and folds so.

**The last move is announced.** When every example has been shown a refused guess ends the game, and the turn at
``max_turns`` ends it too: the move ask of such a turn ends with ``LAST_GUESS`` or ``LAST_TURN`` (a model reads it
in its prompt's turn note, a person on the page, in the terminal and through the library; ``last_move`` reads it
back from an ask).

A game derives from :class:`GuessRuleGame` and gives what is its own: the rule (``rule_of``), how many example
units there are and how a range of them reads, the held-out items with their answers, the texts, and the judge's
wording. The state machine, the parsing, the outcome and the transcript are here, once.

**The rule-writing phase.** A match whose rule is written during play (``writes_rule(spec)``: by default when the
game's ``rules`` option is ``generated``) starts without a rule (``GuessState.rule`` is ``None``, no turn taken)
and with this phase, which the player never sees: the ``game_master`` role writes a draft (``draft_ask``,
``read_draft``); the checker role (``rule_checker``, by default ``code_executor``: the sandbox as a role, see
``guess_rule.writing``) accepts it or rejects it with a reason (``check_ask``, its verdict read by
``writing.read_verdict``); an accepted draft becomes the rule (``written_rule``, which may still refuse a verdict
that does not hold together) and turn 1 begins; a rejected one goes back to the game master with the reason. After
``rule_tries`` rejections the match is aborted (no seat is to blame); a game master whose reply cannot be read is
re-asked by the engine and, out of re-asks, aborts the match too. A game without a checker
(``rule_checker = None``) builds the rule from the draft at once, ``written_rule`` refusing a bad one. Every
reply is recorded, so folding the match replays the phase without running anything.
"""

from __future__ import annotations

import random
import re
from abc import abstractmethod
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar, Literal

from playeval.core.ask import Ask, NumberedReply, OutputConstraint
from playeval.core.errors import ConfigError, FormatError, RuleViolation
from playeval.core.game import GameBase, JudgeCase
from playeval.core.info import (
    ConversationBreak,
    Disclosure,
    GameOption,
    RoleInfo,
    Scalar,
    ScoreInfo,
    panel_member,
    panel_role,
)
from playeval.core.judge_cases import context_text
from playeval.core.judge_panel import MemberVerdict, action_p_accept, panel_verdict
from playeval.core.match import Action, MatchSpec, Outcome, SeatResult
from playeval.core.messages import Message, assistant, system, user
from playeval.core.panel import Panel, PanelList
from playeval.core.rng import derive_seed
from playeval.core.verdicts import VERDICTS_KEY, VerdictQuestion, recorded_verdicts, rules_verdict
from playeval.guess_rule.stated import states_rule
from playeval.guess_rule.writing import CODE_EXECUTOR, GAME_MASTER, GENERATED, Draft, code_check_ask, read_verdict

PLAYER = "player"
JUDGE = "judge"
JUDGES = "judges"
"""The param (and the panel option) that holds the number of judges of a panel (``RoleInfo.panel_option``)."""
SKIP = "skip"
"""The reply that skips the rule-application check (a person may; a model's grammar does not allow it)."""
MAX_GUESS_CHARS = 300
REASON = "reason"
"""The key of the judge's reason in its action's data."""
CONCEALED = "The concealed rule: "
"""How the judge's ask states the rule (its first line)."""
RULES_DECIDE = "rules_decide"
"""The spec param (``True``) of a match whose rules accept the guesses they can see are right (``rules_accept``);
a match recorded without it had every guess judged, and folds so."""
BY_RULES = "accepted by the rules"
BY_JUDGE = "accepted by the judge"
SECRET_SETS: tuple[str, str] = ("set1", "set2")
"""The two named halves of a guess-the-rule game's rules (``--secret-set set1|set2``, the games' ``split_sets``):
no rule is in both, so a run on each is a held-out comparison. How a game splits its rules is its own (categories,
a rule bank, rule types); without a set a match draws from all of them, as it always did, and its spec holds no
``secret_set`` param."""
SECRET_SET = "secret_set"
"""The spec param naming the set a match's rule was drawn from (absent: every rule)."""
FRESH_CHECKS = "fresh_checks"
"""The spec param (``True``) of a match whose later guesses get fresh check items (see the module's note); a match
recorded without it asked the same items after every guess, and folds so."""
FAIR_LEFT = 10
"""Example units a later check leaves unshown at least when it takes units the player has not seen (the minimum
every rule offers beyond turn 1, ``audit.MIN_UNITS``): the check never takes the player's room to ask for more."""
RESERVE_CHECKS = 10
"""Later checks' worth of items a game sets apart, beyond the first check, where its pool has them to spare."""

MOVE_FORMAT = ("Reply with exactly one line: 'MORE: <n>' to see more examples, or 'GUESS: <the rule in words, as "
               "precisely as you can>'.")
LAST_EXAMPLES = "Every example has been shown: this turn must be a guess ('GUESS: ...')."
LAST_GUESS = "This is your last guess: every example has been shown, and the game ends if it is not accepted."
"""Said before the last guess a player can make because the examples ran out (a refused guess ends the game)."""
LAST_TURN = "This is your last turn: the game ends after it unless a guess is accepted."
"""Said before the last turn of ``max_turns`` while examples remain."""
TURN = "Turn {turn} of {limit}. {left} more can be shown."
_TURN_LEFT = re.compile(r"Turn \d+ of \d+\. (\d+) more can be shown\.")
WRONG = "The judge did not accept your guess \"{guess}\"."
JUDGE_FORMAT = "Reply with two lines: 'Verdict: yes' or 'Verdict: no', then 'Reason: <one short sentence>'."
JUDGE_GRAMMAR = 'root ::= "Verdict: " ("yes" | "no") "\\nReason: " [^\\n]{1,200}\n'

JUDGE_QUESTION = VerdictQuestion(answers=("yes", "no"), accept=("yes",), lead="Verdict: ",
                                 explained_after="\nReason:")
"""Where the judge's reply holds its verdict (``core.verdicts``)."""

GUESS_GRAMMAR = 'root ::= "GUESS: " [^\\n<\\[:] [^\\n:]{4,299}\n'
"""A guess: it may not open with '<' or '[', so a model cannot copy the instructions' template
(``GUESS: <the rule in words, ...>``) as its guess, and holds no ':', so it cannot write a second move
(``GUESS: 56 ... or 'MORE: 56'``, which SmolLM2 wrote, copying the instructions) that the parser refuses."""
_TEMPLATE_GUESS = re.compile(r"^\s*[<\[].*[>\]]\s*$|^\s*(?:the\s+)?rule(?:\s+in\s+words)?\s*$",
                             re.IGNORECASE | re.DOTALL)
"""A guess that is the instructions' placeholder rather than a rule: ``<the rule in words>``, ``[rule]``,
``the rule``."""


def examples_left(ask: Ask) -> int | None:
    """How many example units a move ask says can still be shown (its turn note, ``TURN``), as a player reads it;
    ``None`` when the ask says nothing of it (not a move ask)."""
    found = _TURN_LEFT.search(ask.display)
    return int(found.group(1)) if found else None


def last_move(ask: Ask) -> str | None:
    """What a move ask says of being the player's last (``LAST_GUESS`` or ``LAST_TURN``), as a player reads it;
    ``None`` when it is not the last (or not a move ask)."""
    return next((said for said in (LAST_GUESS, LAST_TURN) if said in ask.display), None)


def _last_note(turn: int, limit: int, left: int) -> str | None:
    """What the move of ``turn`` is told of being the last: the examples ran out (a refused guess ends the game), or
    it is the turn limit's."""
    if left == 0:
        return LAST_GUESS
    return LAST_TURN if turn >= limit else None


def move_grammar(left: int) -> str:
    """A move: 'MORE: n' with n from 1 to ``left`` (what can still be shown), or 'GUESS: ...'; a model decoded
    with it cannot over-request (a person who does is refused at no cost)."""
    if left < 1:
        return GUESS_GRAMMAR
    counts = " | ".join(f'"{count}"' for count in range(1, left + 1))
    return f'root ::= "MORE: " ({counts}) | "GUESS: " [^\\n<\\[:] [^\\n:]{{4,299}}\n'


# The count is ASCII digits with no sign before them: "MORE: -3" and "MORE: " + a full-width 3 are format errors, not
# "MORE: 3" ("\W*" would skip the minus and "\d" takes any script's digits).
_MORE = re.compile(r"^\W*more\W*(?<![-+\u2212\uff0d\uff0b])([0-9]{1,3})\b", re.IGNORECASE)
_MORE_COUNT = re.compile(r"^\W*more\W*\d", re.IGNORECASE)  # a count _MORE refused: signed, in other digits, too long
_GUESS = re.compile(r"^\W*guess\s*[:\-]\s*(?P<rule>\S.*)$", re.IGNORECASE)
_VERDICT = re.compile(r"verdict\s*:\s*\**\s*(yes|no)\b", re.IGNORECASE)
# A verdict hedged between the two: "Verdict: yes or no", "yes/no", "yes, no" at the end of its line.
_VERDICT_HEDGE = re.compile(r"verdict\s*:\s*\**\s*(?P<one>yes|no)\b\**\s*(?:[,;]?\s*(?:/|\||\bor\b|\band\b)\s*\**\s*"
                            r"(?P<other>yes|no)\b|[,;]\s*(?P<last>yes|no)\W*$)", re.IGNORECASE | re.MULTILINE)
# A second move on a 'MORE: n' line ("MORE: 1 or 2", "MORE: 1 or GUESS: ..."), or in a guess ("... or MORE: 2").
_AFTER_MORE = re.compile(r"\d|\b(?:more|guess)\s*:", re.IGNORECASE)
_ANOTHER_MOVE = re.compile(r"\b(?:more\s*:\s*\d|guess\s*:)", re.IGNORECASE)
_EDGE_MARKUP = re.compile(r"^[\s*`]+|[\s*`]+$")
_REASON = re.compile(r"reason\s*:\s*(.+)", re.IGNORECASE)
_LINE = re.compile(r"^\s*(\d{1,2})\s*[.):]\s*(\S.*?)\s*$")

Phase = Literal["write", "check", "move", "apply", "judge"]
Decider = Literal["rules", "judge"]


def numbered_answers(text: str, line: re.Pattern[str], normalize: Callable[[str], str]) -> dict[int, str]:
    """The answers of a numbered reply, by number: ``line`` matches a row as (number, answer). A number answered
    twice the same way counts once; answered two ways, it is a ``FormatError`` (one answer per line, not two)."""
    found: dict[int, str] = {}
    for row in text.splitlines():
        matched = line.match(row)
        if matched is None:
            continue
        number, answer = int(matched.group(1)), normalize(matched.group(2))
        if found.setdefault(number, answer) != answer:
            raise FormatError(f"line {number} has two answers; give one answer, not two.")
    return found


def one_verdict(text: str) -> str:
    """The judge's ``yes`` or ``no``; ``FormatError`` when the reply gives none, or both."""
    verdicts = {found.group(1).lower() for found in _VERDICT.finditer(text)}
    if not verdicts:
        raise FormatError("reply 'Verdict: yes' or 'Verdict: no', then 'Reason: ...'.")
    hedged = any(found.group("one").lower() != (found.group("other") or found.group("last")).lower()
                 for found in _VERDICT_HEDGE.finditer(text))
    if len(verdicts) > 1 or hedged:
        raise FormatError("the reply gives both verdicts; give one answer, not two: 'Verdict: yes' or 'Verdict: no'.")
    return verdicts.pop()


def numbered_grammar(count: int, answer: str) -> str:
    """``count`` lines ``'<n>. <answer>'``, with ``answer`` a GBNF expression."""
    lines = " ".join(f'"{number}. " answer "\\n"' for number in range(1, count + 1))
    return f"root ::= {lines}\nanswer ::= {answer}\n"


@dataclass(frozen=True)
class HeldOut:
    """An item the player applies its rule to after a guess: what it is shown, and the right answer."""

    prompt: str
    answer: str


@dataclass(frozen=True)
class Check:
    """The items of one guess's rule-application check, and where they came from (see the module's note)."""

    items: tuple[HeldOut, ...]
    reused: int = 0
    """Items an earlier check of the match asked already (the pool had too few fresh ones)."""
    lent: int = 0
    """Example units not yet shown that the check took: they are no longer shown (the examples left shrink)."""

    def said(self) -> str:
        """Where the items came from, as the check's ask and the transcript say it (empty when all are fresh and
        none was taken from the examples)."""
        parts = []
        if self.lent:
            parts.append(f"{self.lent} example {'unit' if self.lent == 1 else 'units'} not yet shown became check "
                         f"items")
        if self.reused:
            parts.append(f"{self.reused} of the {len(self.items)} items were asked in an earlier check (too few "
                         f"fresh items are left)")
        return "; ".join(parts)


@dataclass(frozen=True)
class More:
    turn: int
    count: int
    left: int
    """The examples that could still be shown when the move was asked for (its ask's note said so)."""


@dataclass(frozen=True)
class Guess:
    turn: int
    text: str
    all_shown: bool
    """Every example had been shown when the guess was made: a refused guess then ends the game."""
    left: int
    """The examples that could still be shown when the guess was asked for (its ask's note said so)."""
    applied: tuple[str, ...] | None = None
    verdict: str | None = None
    reason: str | None = None
    """The judge's reason; a panel's: each member's that gave one, ``member: reason``, joined by ``; ``."""
    panel: tuple[MemberVerdict, ...] = ()
    """A panel's members' verdicts, in the order they answered (empty for one judge, whose verdict is the
    guess's own)."""
    decided: Decider | None = None
    """Who gave the verdict: ``rules`` (set with the guess, no judge asked) or ``judge``; ``None`` while judging."""
    check: Check = Check(items=())
    """The items its rule-application check asks (``GuessRuleGame.next_check`` when the guess was made)."""

    def said(self) -> str:
        """The verdict as a page or a transcript says it: who accepted the guess, or that it was refused."""
        if self.verdict == "yes":
            return BY_RULES if self.decided == "rules" else BY_JUDGE
        return "not accepted" if self.verdict == "no" else ""


@dataclass(frozen=True)
class GuessState:
    spec: MatchSpec
    rule: Any
    """``None`` while the rule-writing phase lasts."""
    total: int
    shown: int
    turns: int = 1
    history: tuple[More | Guess, ...] = ()
    drafts: tuple[Draft, ...] = ()
    """The rule-writing phase's drafts, in order (empty when the rule came with the spec)."""

    @property
    def limit(self) -> int:
        return int(self.spec.params["max_turns"])

    @property
    def judges(self) -> int:
        """The judges of the panel (1 unless the role was bound to several models)."""
        return int(self.spec.params.get(JUDGES, 1))

    @property
    def guesses(self) -> tuple[Guess, ...]:
        return tuple(move for move in self.history if isinstance(move, Guess))

    @property
    def rejected(self) -> int:
        """Drafts of the rule-writing phase the checker rejected."""
        return sum(1 for draft in self.drafts if draft.verdict == "rejected")

    def phase(self) -> Phase:
        if self.rule is None:
            return "check" if self.drafts and self.drafts[-1].verdict is None else "write"
        last = self.history[-1] if self.history else None
        if not isinstance(last, Guess):
            return "move"
        if last.applied is None and (last.verdict is None or last.decided == "rules"):
            return "apply"  # a guess the rules accepted is still applied to the held-out items
        return "judge" if last.verdict is None else "move"

    @property
    def won(self) -> bool:
        return bool(self.guesses) and self.guesses[-1].verdict == "yes"

    def with_last_guess(self, guess: Guess) -> GuessState:
        """The state with ``guess`` in place of the last one. A verdict that arrives here without a decider came
        from the judge (the rules set theirs with the guess), and is recorded so."""
        if guess.verdict is not None and guess.decided is None:
            guess = replace(guess, decided="judge")
        return replace(self, history=(*self.history[:-1], guess))


class GuessRuleGame(GameBase):
    """The template (see the module's note). Subclasses set the class attributes and implement the hooks."""

    id: ClassVar[str]
    roles: ClassVar[tuple[RoleInfo, ...]] = (
        RoleInfo(name=JUDGE, does="decides whether a guess states the concealed rule; several models make a panel "
                                  "(judge=A,B,C), whose majority decides", default="local",
                 sees=("rule",), held=(REASON,), panel_option=JUDGES),)
    """The judge's reason (``data["reason"]``) is written with the rule in view: it is held back from every live
    view and revealed at the end (``core.held``; a panel member's too); the player reads the verdict only."""
    conversation_breaks: ClassVar[tuple[ConversationBreak, ...]] = (
        ConversationBreak(party=PLAYER, kinds=("apply",), aside=True,
                          reason="the rule-application check is asked in passing after a guess, on held-out "
                                 "items: its items and the player's answers stay out of the later turns, so each "
                                 "check is made as blind as the first and the items never become examples"),
        ConversationBreak(party=JUDGE,
                          reason="each guess is judged on its own: the judge is told the rule, what the player saw "
                                 "and the guess, and none of its earlier verdicts, which would sway the next"),
    )
    player_variants: ClassVar[tuple[str, ...]]
    judge_system: ClassVar[str]
    """What the judge is told about the game; ``JUDGE_FORMAT`` follows it."""
    apply_request: ClassVar[str]
    """Asks the player to apply its rule to the held-out items (``{count}`` and ``{items}`` are filled in)."""
    apply_answer: ClassVar[str]
    """The GBNF expression of one held-out answer."""
    example_unit: ClassVar[str] = "examples"
    seen_label: ClassVar[str] = "Examples seen"
    """What the counter of things seen is called (on the page, in the library's and the report's tables)."""
    seen_per_unit: ClassVar[int] = 1
    """Things a person sees in one example unit: 2 in the picnic games (one that may come and one that may not)."""
    rule_tries: ClassVar[int] = 3
    """Drafts the checker may reject before a match with a rule-writing phase is aborted."""
    rule_checker: ClassVar[str | None] = CODE_EXECUTOR
    """The role that rules on a draft, or ``None`` when ``written_rule`` decides alone."""
    score: ClassVar[ScoreInfo | None] = ScoreInfo(label="check accuracy", unit="%")
    """The seat's score: the share of held-out items its last guessed rule got right (:meth:`accuracy`)."""

    @staticmethod
    def rules_option(offline: str, description: str) -> GameOption:
        """The ``rules`` option: ``offline`` (the default, no model needed) or ``generated`` (a rule-writing
        phase: the ``game_master`` role writes the rule during the match)."""
        return GameOption(name="rules", description=description, default=offline, choices=(offline, GENERATED))

    @staticmethod
    def turn_options(init: int, maximum: int) -> tuple[GameOption, ...]:
        return (GameOption(name="num_init_examples", description="example units shown in turn 1", default=init,
                           minimum=1, maximum=maximum),
                GameOption(name="max_turns", description="turns before the game ends", default=20, minimum=1,
                           maximum=100))

    def turn_params(self, inputs: Mapping[str, str] | None, secret_set: str | None,
                    options: Mapping[str, Scalar] | None) -> dict[str, Scalar]:
        """A new spec's public params: the turn options given, else their declared defaults, and the named set of
        rules when one is (``SECRET_SET``; absent otherwise, so a spec drawn without one is as it always was).
        These games draw their rules: inputs, or a set the game does not name, are a ``ConfigError``."""
        if inputs:
            raise ConfigError(f"{self.id} takes no inputs (its rules are drawn)")
        if secret_set is not None and secret_set not in self.secret_sets:
            offered = ", ".join(self.secret_sets) or "none"
            raise ConfigError(f"{self.id} has no secret set {secret_set!r} (it has: {offered})")
        chosen = dict(options or {})
        params: dict[str, Scalar] = {option.name: int(chosen.get(option.name, option.default))
                                     for option in self.options if option.name in ("num_init_examples", "max_turns")}
        params.update({option.name: str(chosen.get(option.name, option.default)) for option in self.options
                       if option.name == "rules"})
        judges = int(chosen.get(JUDGES, 1))
        if judges < 1:
            raise ConfigError(f"{self.id}: a panel has at least one judge, not {judges}")
        if judges > 1:  # one judge adds nothing, so a single judge's spec is as it always was
            params[JUDGES] = judges
        params[RULES_DECIDE] = True
        params[FRESH_CHECKS] = True
        if secret_set is not None:
            params[SECRET_SET] = secret_set
        return params

    # -- hooks --------------------------------------------------------------------------------------------------

    @abstractmethod
    def rule_of(self, spec: MatchSpec) -> Any:
        """The match's rule, rebuilt from its setup."""

    @abstractmethod
    def example_total(self, rule: Any) -> int:
        """How many example units the rule has (a request for N asks for N units)."""

    @abstractmethod
    def examples(self, rule: Any, start: int, stop: int) -> str:
        """Units ``start`` to ``stop`` (exclusive), as the player reads them."""

    @abstractmethod
    def held_out(self, rule: Any) -> Sequence[HeldOut]:
        """The items of the rule-application check, with their answers."""

    @abstractmethod
    def statement(self, rule: Any) -> str:
        """The rule in words, as the judge is told it and as it is revealed."""

    def next_check(self, state: GuessState) -> Check:
        """The check of the guess the player makes next, from the state before it (pure: the guess's ``apply``
        records it, and the library shows its items before the guess is made). The first guess's check is
        ``held_out``; a later guess's is ``later_check`` in a match played with ``FRESH_CHECKS``, else
        ``held_out`` again (as such a match was played)."""
        first = tuple(self.held_out(state.rule))
        earlier = [guess.check.items for guess in state.guesses]
        if not earlier or not state.spec.params.get(FRESH_CHECKS) or not first:
            return Check(items=first)
        return self.later_check(state, earlier)

    def later_check(self, state: GuessState, earlier: Sequence[Sequence[HeldOut]]) -> Check:
        """A later guess's check, as many items as the first (``earlier[0]``) with as many of each answer, none
        asked before where the game's pool allows (see the module's note). By default the game has no other
        items: the first check's, every one reused."""
        return Check(items=tuple(earlier[0]), reused=len(earlier[0]))

    def last_note(self, state: GuessState) -> str | None:
        """``LAST_GUESS`` or ``LAST_TURN`` when the player's next move is their last, else ``None``."""
        return _last_note(state.turns + 1, state.limit, state.total - state.shown)

    def seen(self, shown: int) -> int:
        """What the person has seen in ``shown`` example units: items, or values (``seen_label``)."""
        return shown * self.seen_per_unit

    def rules_accept(self, rule: Any, guess: str) -> bool:
        """Whether the rules accept ``guess`` without asking the judge (see the module's note): by default, when
        it states the rule in the rule's own words (``stated.states_rule``). A game may accept more guesses it can
        see are right; ``False`` only sends the guess to the judge (the rules refuse nothing). Pure and
        deterministic: the fold calls it whenever the state is rebuilt."""
        statement = self.statement(rule)
        return bool(statement) and states_rule(guess, statement)

    # -- hooks of the rule-writing phase (see the module's note) ------------------------------------------------

    def writes_rule(self, spec: MatchSpec) -> bool:
        """Whether the match starts with the rule-writing phase (default: its ``rules`` param is ``generated``)."""
        return spec.params.get("rules") == GENERATED

    def made_in_play(self, spec: MatchSpec) -> tuple[str, ...]:
        """The rule (and its code) when the game master writes it during the match."""
        return ("rule", "code") if self.writes_rule(spec) else ()

    def draft_ask(self, state: GuessState) -> Ask:
        """The ``game_master``'s ask for a draft, with the rejected drafts and their reasons."""
        raise NotImplementedError(f"{self.id} has no rule-writing phase")

    def read_draft(self, state: GuessState, ask: Ask, text: str) -> dict[str, Any]:
        """A draft read as data (stored in the action); raises ``FormatError`` when it cannot be read."""
        raise NotImplementedError(f"{self.id} has no rule-writing phase")

    def check_ask(self, state: GuessState) -> Ask:
        """The checker's ask about the last draft (default: ``writing.code_check_ask``)."""
        return code_check_ask(state.drafts[-1])

    def written_rule(self, state: GuessState, draft: Draft, verdict: Mapping[str, Any] | None) -> Any:
        """The rule an accepted draft makes, from the draft and the checker's verdict (``None`` without a checker);
        raises ``RuleViolation`` when they do not make a rule."""
        raise NotImplementedError(f"{self.id} has no rule-writing phase")

    def rule_code(self, rule: Any) -> str | None:
        """The rule as code, revealed at the end beside its statement (default: none)."""
        return None

    def example_data(self, rule: Any, start: int, stop: int) -> dict[str, Any]:
        """Units ``start`` to ``stop`` as data, for the library API (default: as the player reads them)."""
        return {"text": self.examples(rule, start, stop)}

    def normalize_answer(self, text: str) -> str:
        """A held-out answer as it is compared with the right one."""
        return text.strip().lower()

    # -- the check's chance level, and what the baseline players say (``guess_rule.baselines``) --------------------

    check_choices: ClassVar[tuple[str, ...] | None] = None
    """The answers the rule-application check takes when it is a choice (the picnics' ``yes``/``no``); ``None``:
    open answers (the Math Game's next values)."""
    check_whole_numbers: ClassVar[bool] = False
    """With open answers, whether each is a whole number (the Math Game): a person's terminal refuses other text."""
    generic_guesses: ClassVar[tuple[str, ...]] = ()
    """The rules the ``random`` baseline guesses from: a short generic list, the same in every match, written
    without looking at any rule. A game with none declares no baselines."""
    naive_template: ClassVar[str] = "things like {first}"
    """The ``naive`` baseline's guess, ``{first}`` being the first thing the examples show (``first_shown``)."""

    def check_chance(self, answers: Sequence[str]) -> float:
        """The accuracy chance gives on check items whose right answers are ``answers``: with a choice of answers,
        the share of the commonest right answer (0.5 on balanced yes/no items: what answering every item the best
        single way scores, and what a coin scores there); with open answers, 0 (an exact value is not hit by
        chance). ``nan`` for no items."""
        if not answers:
            return float("nan")
        if self.check_choices is None:
            return 0.0
        counts = Counter(self.normalize_answer(answer) for answer in answers)
        return max(counts.values()) / len(answers)

    def first_shown(self, display: str) -> str | None:
        """The first thing a move ask's examples show (an item, a value), read from its ``display``."""
        raise NotImplementedError(f"{self.id} has no baseline players")

    def random_answer(self, prompt: str, rng: random.Random) -> str:
        """A check answer drawn at random for the item ``prompt`` (as the check lists it): one of
        ``check_choices`` by default."""
        if self.check_choices is None:
            raise NotImplementedError(f"{self.id} has no baseline players")
        return rng.choice(self.check_choices)

    def naive_answer(self, prompt: str) -> str:
        """The ``naive`` baseline's fixed answer for the item ``prompt``: the first of ``check_choices`` by
        default (``yes``)."""
        if self.check_choices is None:
            raise NotImplementedError(f"{self.id} has no baseline players")
        return self.check_choices[0]

    def baseline_player(self, name: str, party: str, spec: MatchSpec) -> Any:
        """The player seat's ``random`` or ``naive`` baseline (``guess_rule.baselines``)."""
        from playeval.guess_rule.baselines import rule_baseline  # it builds on this module

        return rule_baseline(self, name, party, spec)

    def panel_lists(self, rule: Any, shown: int) -> tuple[PanelList, ...]:
        """The first ``shown`` units as lists for a page (default: the lines of ``examples``, a line ending in ':'
        titling the lines after it)."""
        from playeval.guess_rule.panel import text_lists  # the panel module builds on this one

        return text_lists(self.examples(rule, 0, shown), self.example_unit.capitalize())

    def panel(self, state: GuessState, viewer: str | None) -> Panel:
        """Examples as lists, counters, the clock and, for the player, forms for its moves
        (``guess_rule.panel``); nothing while the rule is being written."""
        from playeval.guess_rule.panel import guess_panel

        return Panel() if state.rule is None else guess_panel(self, state, viewer)

    # -- the template -------------------------------------------------------------------------------------------

    def initial_state(self, spec: MatchSpec) -> GuessState:
        if self.writes_rule(spec):
            return GuessState(spec=spec, rule=None, total=0, shown=0, turns=0)
        return self._with_rule(GuessState(spec=spec, rule=None, total=0, shown=0, turns=0), self.rule_of(spec))

    def _with_rule(self, state: GuessState, rule: Any) -> GuessState:
        """The state at turn 1 of ``rule``: its first examples shown."""
        total = self.example_total(rule)
        shown = min(int(state.spec.params["num_init_examples"]), total)
        return replace(state, rule=rule, total=total, shown=shown, turns=1)

    def disclosures(self, spec: MatchSpec, state: Any = None) -> Sequence[Disclosure]:
        if isinstance(state, GuessState):
            rule = state.rule
        else:
            rule = None if self.writes_rule(spec) else self.rule_of(spec)
        if rule is None:
            return ()
        found = [Disclosure(key="rule", value=self.statement(rule), label="The rule", revealed_label="The rule")]
        code = self.rule_code(rule)
        if code is not None:
            found.append(Disclosure(key="code", value=code, label="The rule's code", revealed_label="The rule's code"))
        return tuple(found)

    def conversation(self, state: GuessState) -> tuple[Message, ...]:
        """The player's conversation: its system prompt and the first examples, then each move and its answer.

        Each user message that asked for a move ends with that turn's note (``TURN``: the turn and how many
        examples are left), as the move's ask showed it, so the conversation only grows: a local model keeps its
        context from one move to the next (the prefix contract, ``core.info.ConversationBreak``). A last user
        message ends with the next move's note."""
        variant = self.player_variants[state.spec.variants.get(PLAYER, 0)]
        shown = min(int(state.spec.params["num_init_examples"]), state.total)
        messages: list[Message] = [system(f"{variant}\n\n{MOVE_FORMAT}")]
        asking: str | None = self.examples(state.rule, 0, shown)  # the user text that asks for the next move
        for move in state.history:
            if asking is not None:
                messages.append(user(self._with_note(state, asking, move.turn, move.left)))
            asking = None
            if isinstance(move, More):
                messages.append(assistant(f"MORE: {move.count}"))
                asking = self.examples(state.rule, shown, shown + move.count)
                shown += move.count
            else:
                messages.append(assistant(f"GUESS: {move.text}"))
                if move.verdict == "no":
                    asking = WRONG.format(guess=move.text)
        if asking is not None:
            messages.append(user(self._with_note(state, asking, state.turns + 1, state.total - state.shown)))
        return tuple(messages)

    @staticmethod
    def _turn_note(state: GuessState, turn: int, left: int) -> str:
        """What a move's ask says of its turn: the turn, the examples left, and a guess is due when none is."""
        note = TURN.format(turn=turn, limit=state.limit, left=left)
        if left == 0:
            note = f"{note} {LAST_EXAMPLES}"
        last = _last_note(turn, state.limit, left)
        return f"{note} {last}" if last is not None else note

    @classmethod
    def _with_note(cls, state: GuessState, text: str, turn: int, left: int) -> str:
        """``text``, which asks for the move of ``turn``, followed by the turn's note."""
        return f"{text}\n\n{cls._turn_note(state, turn, left)}"

    def next_asks(self, state: GuessState) -> tuple[Ask, ...]:
        phase = state.phase()
        if phase == "write":
            return (self.draft_ask(state),)
        if phase == "check":
            return (self.check_ask(state),)
        if phase == "judge":
            return (self._judge_ask(state),)
        conversation = self.conversation(state)
        if phase == "apply":
            check = state.guesses[-1].check
            items = check.items
            listed = "\n".join(f"{number}. {item.prompt}" for number, item in enumerate(items, start=1))
            request = self.apply_request.format(count=len(items), items=listed)
            said = check.said()  # for the person: a model's request stays the game's words
            return (Ask(seat=PLAYER, kind="apply", display=f"{request}\n({said}.)" if said else request,
                        instructions=f"{len(items)} lines: '<number>. <answer>' (or '{SKIP}' to skip the check)",
                        numbered=NumberedReply(count=len(items), choices=self.check_choices, skip=SKIP,
                                               whole_numbers=self.check_whole_numbers) if items else None,
                        messages=(*conversation, user(request)), max_tokens=16 * len(items) + 16, max_chars=1000,
                        constraint=OutputConstraint(grammar=numbered_grammar(len(items), self.apply_answer))),)
        left = state.total - state.shown
        note = self._turn_note(state, state.turns + 1, left)
        shown = self.examples(state.rule, 0, state.shown)
        return (Ask(seat=PLAYER, kind="move", display=f"{shown}\n{note}", instructions=MOVE_FORMAT,
                    messages=conversation, constraint=OutputConstraint(grammar=move_grammar(left)),
                    max_tokens=80, max_chars=MAX_GUESS_CHARS, one_line=True),)

    def _judge_ask(self, state: GuessState) -> Ask:
        """The open question to the panel member due (``judge`` alone, or the next of a panel)."""
        guess = state.guesses[-1]
        return self.judge_ask(self.statement(state.rule), self.examples(state.rule, 0, state.shown), guess.text,
                              member=panel_member(JUDGE, len(guess.panel)))

    def judge_ask(self, statement: str, seen: str, guess: str, *, member: str = JUDGE) -> Ask:
        """The judge's ask: the rule, what the player saw, the guess (the same words in a match and in
        calibration, and for every member of a panel)."""
        user_text = f"{CONCEALED}{statement}\nWhat the player saw:\n{seen}\nThe player's guess: {guess}"
        return Ask(role=member, kind="verdict", display=f"Guess: {guess}", instructions="Verdict: yes or no",
                   messages=(system(f"{self.judge_system}\n\n{JUDGE_FORMAT}"), user(user_text)),
                   constraint=OutputConstraint(grammar=JUDGE_GRAMMAR), max_tokens=80, verdict=JUDGE_QUESTION)

    judge_case_keys: ClassVar[Mapping[str, str]] = {
        "statement": "the hidden rule in words, as the judge is told it",
        "seen": "what the player saw before guessing, as text (the examples as the game lists them)"}

    def judge_case_ask(self, case: JudgeCase) -> Ask:
        return self.judge_ask(context_text(case, "statement"), context_text(case, "seen"), case.answer)

    def judge_case_verdict(self, ask: Ask, text: str) -> bool:
        return one_verdict(text) == "yes"

    def parse(self, state: GuessState, ask: Ask, text: str) -> Action:
        line = text.strip()
        if ask.role == GAME_MASTER:
            return Action(role=GAME_MASTER, kind="draft", text=line, data=self.read_draft(state, ask, line))
        if ask.role is not None and ask.role == self.rule_checker:
            verdict = read_verdict(line)
            return Action(role=ask.role, kind="check", text="accepted" if verdict["accepted"] else "rejected",
                          data=verdict)
        if ask.role is not None and panel_role(ask.role) == JUDGE:
            reason = _REASON.search(line)
            return Action(role=ask.role, kind="verdict", text=one_verdict(line),
                          data={REASON: reason.group(1).strip()[:300] if reason else ""})
        if ask.kind == "apply":
            return self._parse_applied(state, line)
        if "\n" in line:
            raise FormatError("reply with one line: 'MORE: <n>' or 'GUESS: <rule>'.")
        line = _EDGE_MARKUP.sub("", line)
        more = _MORE.match(line)
        if more:
            if _AFTER_MORE.search(line, more.end()):
                raise FormatError("give one move, not two: 'MORE: <n>' or 'GUESS: <rule>'.")
            return Action(seat=PLAYER, kind="more", text=more.group(1))
        if _MORE_COUNT.match(line):
            raise FormatError("'MORE: <n>' takes a count of one to three digits 0-9 with no sign, such as 'MORE: 2'.")
        guess = _GUESS.match(line)
        if guess and _ANOTHER_MOVE.search(guess.group("rule")):
            raise FormatError("give one move, not two: 'MORE: <n>' or 'GUESS: <rule>'.")
        if guess and _TEMPLATE_GUESS.match(guess.group("rule")):
            raise FormatError("write your guess of the rule itself, not the placeholder of the instructions: "
                              "'GUESS: <the rule in words>' shows where your words go.")
        if guess and len(guess.group("rule").strip()) >= 3:
            said = guess.group("rule").strip()[:MAX_GUESS_CHARS]
            # The rules' acceptance is decided here and kept with the move, so a stored match replays as it was
            # played even after the rules' reading of guesses changes.
            ruled = state.spec.params.get(RULES_DECIDE) and self.rules_accept(state.rule, said)
            return Action(seat=PLAYER, kind="guess", text=said,
                          data={VERDICTS_KEY: [rules_verdict(True).model_dump(mode="json")]} if ruled else {})
        raise FormatError(f"reply 'MORE: <n>' to see more {self.example_unit}, or 'GUESS: <the rule>'.")

    def _parse_applied(self, state: GuessState, text: str) -> Action:
        if text.strip().lower() == SKIP:
            return Action(seat=PLAYER, kind="apply", text="")  # recorded as not done, not as wrong
        count = len(state.guesses[-1].check.items)
        found = numbered_answers(text, _LINE, self.normalize_answer)
        missing = [n for n in range(1, count + 1) if n not in found]
        if missing:
            raise FormatError(f"answer every line; missing: {', '.join(map(str, missing))}.")
        return Action(seat=PLAYER, kind="apply", text="\n".join(found[n] for n in range(1, count + 1)))

    def apply(self, state: GuessState, action: Action) -> GuessState:
        if self.outcome(state) is not None:
            raise RuleViolation("the game is over.")
        phase = state.phase()
        if action.role is not None and action.role in (GAME_MASTER, self.rule_checker):
            return self._apply_writing(state, phase, action)
        if phase in ("write", "check"):
            raise RuleViolation("the rule is still being written.")
        if action.role is not None and panel_role(action.role) == JUDGE:
            if phase != "judge" or action.text not in ("yes", "no"):
                raise RuleViolation("there is no guess to judge.")
            return state.with_last_guess(self._judged(state, state.guesses[-1], action))
        if action.kind == "apply":
            if phase != "apply":
                raise RuleViolation("there is nothing to apply the rule to now.")
            applied = tuple(action.text.split("\n")) if action.text else ()
            return state.with_last_guess(replace(state.guesses[-1], applied=applied))
        if phase != "move":
            raise RuleViolation("finish the guess first.")
        if action.kind == "more":
            wanted, left = int(action.text), state.total - state.shown
            if left == 0:
                raise RuleViolation("every example has been shown: guess the rule ('GUESS: ...').")
            if wanted < 1 or wanted > left:
                raise RuleViolation(f"only {left} more can be shown; ask for 1 to {left}, or guess.")
            return replace(state, shown=state.shown + wanted, turns=state.turns + 1,
                           history=(*state.history, More(turn=state.turns + 1, count=wanted, left=left)))
        if action.kind == "guess":
            check = self.next_check(state)
            guess = Guess(turn=state.turns + 1, text=action.text, all_shown=state.shown == state.total,
                          left=state.total - state.shown, check=check)
            if any(record.decided == "rules" and record.accepted for record in recorded_verdicts(action.data)):
                guess = replace(guess, verdict="yes", decided="rules")
            return replace(state, history=(*state.history, guess), turns=state.turns + 1,
                           total=state.total - check.lent)
        raise RuleViolation(f"the player cannot {action.kind}.")

    @staticmethod
    def _judged(state: GuessState, guess: Guess, action: Action) -> Guess:
        """``guess`` with a judge's verdict: one judge's is the guess's; a panel member's joins the panel, and the
        last member's decides (``core.judge_panel``)."""
        member = panel_member(JUDGE, len(guess.panel))
        if action.role != member or len(guess.panel) >= state.judges:
            raise RuleViolation(f"the verdict open is {member}'s." if len(guess.panel) < state.judges
                                else "every judge has ruled on this guess.")
        reason = str(action.data.get(REASON, ""))
        turned = [record for record in recorded_verdicts(action.data)
                  if record.decided == "threshold" and record.word is not None and record.word != action.text]
        if turned and turned[0].p_accept is not None and turned[0].threshold is not None:
            # The reason is the model's, written for its own word: say that a calibrated threshold turned it.
            record = turned[0]
            reason = (f"{reason} [the judge's own word was {record.word}; its probability of accepting, "
                      f"{record.p_accept:.2f}, against its calibrated threshold {record.threshold:.2f} made it "
                      f"{action.text}]").strip()
        if state.judges == 1:
            return replace(guess, verdict=action.text, reason=reason)
        said = MemberVerdict(member=member, word=action.text, accepted=action.text == "yes",
                             p_accept=action_p_accept(action.data), reason=reason)
        panel = (*guess.panel, said)
        if len(panel) < state.judges:
            return replace(guess, panel=panel)
        reasons = "; ".join(f"{item.member}: {item.reason}" for item in panel if item.reason)
        return replace(guess, panel=panel, verdict="yes" if panel_verdict(panel).accepted else "no", reason=reasons)

    def _apply_writing(self, state: GuessState, phase: Phase, action: Action) -> GuessState:
        """A move of the rule-writing phase: a draft, or the checker's verdict on the last one."""
        if action.role == GAME_MASTER:
            if phase != "write":
                raise RuleViolation("no rule is to be written now.")
            draft = Draft(text=action.text, data=dict(action.data))
            if self.rule_checker is None:
                return self._with_rule(replace(state, drafts=(*state.drafts, replace(draft, verdict="accepted"))),
                                       self.written_rule(state, draft, None))
            return replace(state, drafts=(*state.drafts, draft))
        if phase != "check":
            raise RuleViolation("there is no draft to rule on.")
        draft = state.drafts[-1]
        if action.text == "accepted":
            rule = self.written_rule(state, draft, action.data)
            return self._with_rule(replace(state, drafts=(*state.drafts[:-1], replace(draft, verdict="accepted"))),
                                   rule)
        rejected = replace(draft, verdict="rejected", reason=str(action.data.get("message", "")))
        return replace(state, drafts=(*state.drafts[:-1], rejected))

    def accuracy(self, state: GuessState) -> float | None:
        """The share of held-out items the last applied rule got right (``None`` before any)."""
        if state.rule is None:
            return None
        applied = [guess for guess in state.guesses if guess.applied]
        if not applied or not applied[-1].check.items:
            return None
        return self.check_right(applied[-1]) / len(applied[-1].check.items)

    def check_right(self, guess: Guess) -> int:
        """How many items of ``guess``'s check its answers got right (0 when it was skipped or not made)."""
        return sum(1 for got, item in zip(guess.applied or (), guess.check.items, strict=False)
                   if got == self.normalize_answer(item.answer))

    def outcome(self, state: GuessState) -> Outcome | None:
        if state.rule is None and state.rejected >= self.rule_tries:
            last_reason = state.drafts[-1].reason
            return Outcome(status="aborted", rounds=0, reason=f"the game master wrote no rule the checks accept in "
                                                              f"{state.rejected} tries; last: {last_reason}")
        if state.phase() != "move":
            return None
        guesses = state.guesses
        exhausted = bool(guesses) and guesses[-1].verdict == "no" and guesses[-1].all_shown
        if not (state.won or state.turns >= state.limit or exhausted):
            return None
        result = SeatResult(seat=PLAYER, won=state.won, score=self.accuracy(state))
        if state.won:
            last = guesses[-1]
            if last.decided == "rules":
                said = BY_RULES
            elif last.panel:
                said = f"the judges: {panel_verdict(last.panel).describe()}"
            else:
                said = f"the judge: {last.reason or 'yes'}"
            return Outcome(status="finished", winners=(PLAYER,), rounds=state.turns, results=(result,),
                           reason=f"guessed the rule in turn {last.turn} ({said})")
        why = f"every {self.example_unit[:-1]} was shown and the last guess was refused" if exhausted else \
            f"no accepted guess within {state.limit} turns"
        return Outcome(status="finished", rounds=state.turns, results=(result,), reason=why)

    def rounds(self, state: GuessState) -> int:
        return state.turns

    def transcript(self, state: GuessState) -> Sequence[tuple[str, str]]:
        if state.rule is None:
            return []  # the rule-writing phase is not the player's to read
        shown = min(int(state.spec.params["num_init_examples"]), state.total)
        lines: list[tuple[str, str]] = [("game", self.examples(state.rule, 0, shown))]
        for move in state.history:
            if isinstance(move, More):
                lines.append((PLAYER, f"MORE: {move.count}"))
                lines.append(("game", self.examples(state.rule, shown, shown + move.count)))
                shown += move.count
                continue
            lines.append((PLAYER, f"GUESS: {move.text}"))
            if move.check.said():
                lines.append(("game", f"the check's items: {move.check.said()}"))
            if move.applied == ():
                lines.append(("game", "the rule-application check was skipped"))
            elif move.applied is not None:
                said = f"applied it to {len(move.check.items)} held-out items: {self.check_right(move)} right"
                lines.append(("game", said))
            if move.decided == "rules":  # said after the check, as a judge's verdict is
                if move.applied is not None:
                    lines.append(("game", f"yes: {BY_RULES} (the judge was not asked)"))
            else:
                lines.extend((member.member, member.word) for member in move.panel)
                if move.verdict is not None and move.panel:
                    verdict = f"the judges' verdict: {move.verdict} ({panel_verdict(move.panel).describe()})"
                    lines.append(("game", verdict))
                elif move.verdict is not None:
                    lines.append((JUDGE, f"yes: {BY_JUDGE}" if move.verdict == "yes" else move.verdict))
        if self.outcome(state) is not None:  # the judge's reasons name the rule: new lines once it is revealed
            guesses = [move for move in state.history if not isinstance(move, More)]
            for number, move in enumerate(guesses, start=1):
                if move.panel:
                    lines.extend((member.member, f"why guess {number} got {member.word}: {member.reason}")
                                 for member in move.panel if member.reason)
                elif move.verdict is not None and move.reason:
                    lines.append((JUDGE, f"why guess {number} got {move.verdict}: {move.reason}"))
        return lines


@dataclass(frozen=True)
class ListedRound:
    """A rule whose examples are lists: the items it admits and those it does not, in the order they are shown,
    and the items kept apart for the rule-application check (with ``yes`` or ``no``)."""

    statement: str
    positives: tuple[str, ...]
    negatives: tuple[str, ...]
    held_out: tuple[tuple[str, str], ...]
    code: str | None = None
    """The rule's code, when it was written during the match (revealed at the end)."""
    reserve: tuple[tuple[str, str], ...] = ()
    """Items in no example unit and not in the first check, with their answers, in the order later checks take
    them (see the module's note); a round drawn before fresh checks has none."""

    def to_setup(self, rule_id: str) -> dict[str, object]:
        setup: dict[str, object] = {
            "rule": rule_id, "statement": self.statement, "positives": list(self.positives),
            "negatives": list(self.negatives), "held_out": [list(pair) for pair in self.held_out]}
        if self.reserve:
            setup["reserve"] = [list(pair) for pair in self.reserve]
        return setup


def spare(positives: Sequence[str], negatives: Sequence[str], side: int) -> tuple[tuple[str, str], ...]:
    """A round's reserve (``ListedRound.reserve``) from the items a draw left over, in their drawn order: up to
    ``RESERVE_CHECKS`` later checks' worth, ``side`` items of each answer per check."""
    most = RESERVE_CHECKS * side
    return (*((item, "yes") for item in positives[:most]), *((item, "no") for item in negatives[:most]))


class ListedRuleGame(GuessRuleGame):
    """A guess-the-rule game whose example unit is one item the rule admits and one it does not (the picnic
    games): the match's setup holds the whole ``ListedRound``, so the game stays pure."""

    seen_label: ClassVar[str] = "Items seen"
    seen_per_unit: ClassVar[int] = 2
    admitted_label: ClassVar[str] = "May come"
    refused_label: ClassVar[str] = "May not come"
    apply_answer: ClassVar[str] = '"yes" | "no"'
    check_choices: ClassVar[tuple[str, ...] | None] = ("yes", "no")
    generic_guesses: ClassVar[tuple[str, ...]] = (
        "things people use every day", "things you can carry in one hand", "things found at home",
        "things that are useful", "things people like", "natural things")
    """Generic kinds of thing, for the ``random`` baseline (a game's rule may match one by chance: that is chance)."""

    def first_shown(self, display: str) -> str | None:
        """The first item the examples admit (``admitted_label``'s line)."""
        lead = f"{self.admitted_label}: "
        line = next((line for line in display.splitlines() if line.startswith(lead)), "")
        first = line.removeprefix(lead).split(", ")[0].strip()
        return first or None

    def rule_of(self, spec: MatchSpec) -> ListedRound:
        setup = spec.setup
        return ListedRound(statement=str(setup["statement"]), positives=tuple(setup["positives"]),
                           negatives=tuple(setup["negatives"]),
                           held_out=tuple((str(item), str(answer)) for item, answer in setup["held_out"]),
                           reserve=tuple((str(item), str(answer)) for item, answer in setup.get("reserve", ())))

    def lends_units(self, state: GuessState) -> bool:
        """Whether a later check may take example units not yet shown (the round's every unit is drawn); a game
        whose units are made during play says no."""
        return True

    def later_check(self, state: GuessState, earlier: Sequence[Sequence[HeldOut]]) -> Check:
        """Fresh items of each answer as the first check asked: the round's reserve first, then, one unit at a time
        from the last, example units not yet shown while more than ``FAIR_LEFT`` would stay unshown, and only
        then items of the earliest checks again (counted as reused). The order is drawn from the match's seed and
        the check's number."""
        round_: ListedRound = state.rule
        wanted = Counter(item.answer for item in earlier[0])
        asked = {item.prompt for items in earlier for item in items}
        taken: dict[str, list[str]] = {answer: [] for answer in wanted}

        def take(item: str, answer: str) -> None:
            if answer in taken and len(taken[answer]) < wanted[answer] and item not in asked:
                taken[answer].append(item)
                asked.add(item)

        def short() -> bool:
            return any(len(taken[answer]) < count for answer, count in wanted.items())

        for item, answer in round_.reserve:
            take(item, answer)
        lent = 0
        room = max(0, state.total - state.shown - FAIR_LEFT) if self.lends_units(state) else 0
        while short() and lent < room:
            index = state.total - 1 - lent
            lent += 1
            take(round_.positives[index], "yes")
            take(round_.negatives[index], "no")
        reused = 0
        for items in earlier:
            for again in items:
                if again.answer in taken and len(taken[again.answer]) < wanted[again.answer] \
                        and again.prompt not in taken[again.answer]:
                    taken[again.answer].append(again.prompt)
                    reused += 1
        drawn = [HeldOut(prompt=item, answer=answer) for answer, items in taken.items() for item in items]
        random.Random(derive_seed(state.spec.seed, self.id, "check", len(earlier))).shuffle(drawn)
        return Check(items=tuple(drawn), reused=reused, lent=lent)

    def example_total(self, rule: ListedRound) -> int:
        return min(len(rule.positives), len(rule.negatives))

    def examples(self, rule: ListedRound, start: int, stop: int) -> str:
        return (f"{self.admitted_label}: {', '.join(rule.positives[start:stop])}\n"
                f"{self.refused_label}: {', '.join(rule.negatives[start:stop])}")

    def held_out(self, rule: ListedRound) -> Sequence[HeldOut]:
        return tuple(HeldOut(prompt=item, answer=answer) for item, answer in rule.held_out)

    def example_data(self, rule: ListedRound, start: int, stop: int) -> dict[str, Any]:
        return {"positives": list(rule.positives[start:stop]), "negatives": list(rule.negatives[start:stop])}

    def panel_lists(self, rule: ListedRound, shown: int) -> tuple[PanelList, ...]:
        return (PanelList(key="admitted", title=self.admitted_label, items=rule.positives[:shown], tone="yes"),
                PanelList(key="refused", title=self.refused_label, items=rule.negatives[:shown], tone="no"))

    def statement(self, rule: ListedRound) -> str:
        return rule.statement

    def rule_code(self, rule: ListedRound) -> str | None:
        return rule.code
