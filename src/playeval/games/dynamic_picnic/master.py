"""The game master's and the validator's asks in a Dynamic Picnic match: what is due next, how each is asked
(with a GBNF grammar, so a local model replies in a form the parser reads), how a reply is read and applied.

The flow, before the player's first turn and again whenever the player asks for more than has been validated:

1. ``rule`` (game master): write a rule of the match's taxonomy type and level, starting from a theme drawn per
   attempt from the match's seed (``taxonomy.inspiration``: a role decodes greedily, and the same request would
   give every match the same rule), none of the rules to avoid (the match's earlier attempts, and the bank's rules
   of the level when a bank is given); a repeat is refused and re-asked.
2. ``classify`` (validator): the rule's level, L1-L3. Another level: back to 1, the game master told the level
   its last rule got and whether to make the next simpler or harder; at most ``MAX_RULE_TRIES`` rules, then the
   match falls back to the bank rule its setup holds, or, with none, is given up (aborted, with every rule tried
   and its level in the reason: a level the classifier does not confirm is not a level the results may be reported
   under).
3. ``items`` (game master): items that follow the rule and items that do not, the need and a few spare, with a
   theme drawn per round (a greedy model asked the same thing after a round that added nothing repeats itself);
   repeats of items already used are dropped at once.
4. ``check`` (validator): each new item, unlabelled, in a seeded order: does it follow the rule? An item is kept
   only when the validator puts it on the game master's side; the rest are dropped (and stay in the log).
   Rounds of 3-4 go on until the need is met, at most ``MAX_ITEM_ROUNDS`` for one need, then the match falls back
   to its bank rule (before the player's first move) or is given up.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Literal

from playeval.core.ask import Ask, OutputConstraint
from playeval.core.errors import FormatError, RuleViolation
from playeval.core.match import Action
from playeval.core.messages import system, user
from playeval.core.verdicts import VerdictQuestion
from playeval.games.dynamic_picnic import prompts
from playeval.games.dynamic_picnic import state as flow
from playeval.games.dynamic_picnic.state import DynamicState
from playeval.games.dynamic_picnic.taxonomy import LEVEL_DESCRIPTIONS, inspiration, rule_kind
from playeval.guess_rule import numbered_answers, numbered_grammar

GAME_MASTER = "game_master"
VALIDATOR = "validator"
MAX_ITEM_CHARS = 40

GmPhase = Literal["rule", "classify", "items", "check"]
FALLBACK = "fallback"
"""The kind of the stand-in move of a game master or validator out of re-asks before the player's first move: the
match plays its bank rule (``state.give_up``)."""

RULE_GRAMMAR = 'root ::= "Rule: " [^\\n]{10,160}\n'
CLASSIFY_GRAMMAR = 'root ::= "Level: L" [1-3]\n'
CHECK_QUESTION = VerdictQuestion(answers=("yes", "no"), accept=("yes",), context=r"(?:\A|\n)\d+", lead=". ")
"""The validator's numbered answers as verdicts, one per item (``core.verdicts``)."""
_ITEM = "item ::= [A-Za-z0-9] [A-Za-z0-9 '-]{0,39}\n"

_RULE = re.compile(r"^\W*rule\s*:[\s*_]*(?P<rule>\S.{3,199}?)[\s*_]*$", re.IGNORECASE)
_SECOND_RULE = re.compile(r"\brule\s*:", re.IGNORECASE)
_LEVEL = re.compile(r"\bL\s*([123])\b", re.IGNORECASE)
_FITS = re.compile(r"^\W*fits\s*:[\s*_]*(?P<items>.*)$", re.IGNORECASE)
_OTHERS = re.compile(r"^\W*does\s+not\s+fit\s*:[\s*_]*(?P<items>.*)$", re.IGNORECASE)
# A line answered "yes" and nothing else that could be an answer ("3. yes or no" answers it two ways).
_LINE = re.compile(r"^\s*(\d{1,2})\s*[.):]\s*(yes|no)\b(?!.*\b(?:yes|no)\b)", re.IGNORECASE)


def gm_phase(state: DynamicState) -> GmPhase | None:
    """What the game master or the validator must do before the player may go on (``None``: nothing)."""
    if state.failure is not None or state.fell_back is not None:
        return None
    if not state.accepted:
        return "rule" if not state.attempts or state.attempts[-1].level is not None else "classify"
    if state.pending is not None:
        return "check"
    return "items" if state.needed() != (0, 0) else None


def avoided(state: DynamicState) -> tuple[str, ...]:
    """Rules the game master must not write: the bank's (from the setup) and its own earlier attempts."""
    return (*(str(rule) for rule in state.spec.setup.get("avoid", ())),
            *(attempt.statement for attempt in state.attempts))


def _items_grammar(fits: int, others: int) -> str:
    def listed(count: int) -> str:
        return "item" if count == 1 else f'item (", " item){{0,{count - 1}}}'
    return (f'root ::= "Fits: " fits "\\nDoes not fit: " others\nfits ::= {listed(fits)}\n'
            f"others ::= {listed(others)}\n{_ITEM}")


def gm_ask(state: DynamicState, phase: GmPhase) -> Ask:
    """The ask of ``phase``. Its ``display`` holds the request's data in plain lines (what a person in the role
    would read; the scripted game master reads it too)."""
    statement = state.round.statement or (state.attempts[-1].statement if state.attempts else "")
    if phase == "rule":
        kind = rule_kind(str(state.spec.setup["type"]))
        avoid = avoided(state)
        listed = prompts.RULE_AVOID.format(rules="\n".join(f"- {rule}" for rule in avoid)) if avoid else ""
        theme = inspiration(state.spec.seed, len(state.attempts))
        last = state.attempts[-1].level if state.attempts else None
        rated = "" if last is None else prompts.RULE_RATED.format(
            got=last, wanted=state.spec.level, direction="simpler" if last > state.spec.level else "harder")
        request = prompts.RULE_REQUEST.format(kind=kind.name, description=kind.description, theme=theme,
                                              level_text=LEVEL_DESCRIPTIONS[state.spec.level], rated=rated,
                                              avoid=listed)
        return Ask(role=GAME_MASTER, kind="rule",
                   display=f"Type: {kind.id}\nLevel: {state.spec.level}\nTheme: {theme}\n{listed}",
                   instructions="One line: 'Rule: <the rule>'",
                   messages=(system(prompts.GAME_MASTER_SYSTEM), user(request)),
                   constraint=OutputConstraint(grammar=RULE_GRAMMAR), max_tokens=80, max_chars=200, one_line=True)
    if phase == "classify":
        levels = "\n".join(LEVEL_DESCRIPTIONS.values())
        return Ask(role=VALIDATOR, kind="classify", display=f"The rule: {statement}",
                   instructions="'Level: L1', 'Level: L2' or 'Level: L3'",
                   messages=(system(prompts.CLASSIFIER_SYSTEM.format(levels=levels)),
                             user(prompts.CLASSIFY_REQUEST.format(statement=statement))),
                   constraint=OutputConstraint(grammar=CLASSIFY_GRAMMAR), max_tokens=8, max_chars=20,
                   one_line=True)
    if phase == "items":
        fits, others = flow.wanted(state)
        used = sorted({name for batch in state.batches for name, _ in batch.items})
        listed = prompts.ITEMS_USED.format(items="; ".join(used)) if used else ""
        theme = inspiration(state.spec.seed, 1000 + len(state.batches))  # a round's request differs from the last
        request = prompts.ITEMS_REQUEST.format(statement=statement, fits=fits, others=others, used=listed,
                                               theme=theme)
        return Ask(role=GAME_MASTER, kind="items",
                   display=f"The rule: {statement}\nFits: {fits}\nDoes not fit: {others}\nUsed: {'; '.join(used)}",
                   instructions="Two lines: 'Fits: <item>, <item>, ...' and 'Does not fit: <item>, <item>, ...'",
                   messages=(system(prompts.GAME_MASTER_SYSTEM), user(request)),
                   constraint=OutputConstraint(grammar=_items_grammar(fits, others)),
                   max_tokens=10 * (fits + others) + 24, max_chars=2000)
    batch = state.pending
    assert batch is not None
    return check_ask(statement, [name for name, _ in batch.items])


def check_ask(statement: str, names: Sequence[str]) -> Ask:
    """The validator's ask: does each item, numbered and unlabelled, follow the rule? The same ask in a match
    and for a labelled validator case (``DynamicPicnic.judge_case_ask``), so the validator is measured as it plays."""
    items = "\n".join(f"{number}. {name}" for number, name in enumerate(names, start=1))
    return Ask(role=VALIDATOR, kind="check", display=f"The rule: {statement}\n{items}",
               instructions=f"{len(names)} lines: '<number>. yes' or '<number>. no'",
               messages=(system(prompts.VALIDATOR_SYSTEM),
                         user(prompts.CHECK_REQUEST.format(statement=statement, count=len(names), items=items))),
               constraint=OutputConstraint(grammar=numbered_grammar(len(names), '"yes" | "no"')),
               max_tokens=6 * len(names) + 8, max_chars=1000, verdict=CHECK_QUESTION)


def read_checks(text: str, count: int) -> list[str]:
    """The validator's ``yes`` or ``no`` for items 1 to ``count``; ``FormatError`` when one is missing or answered
    both ways."""
    found = numbered_answers(text, _LINE, str.lower)
    missing = [n for n in range(1, count + 1) if n not in found]
    if missing:
        raise FormatError(f"answer every line with yes or no; missing: {', '.join(map(str, missing))}.")
    return [found[n] for n in range(1, count + 1)]


def _split_items(text: str) -> list[str]:
    return [part.strip().strip("'\"").strip() for part in text.split(",") if part.strip().strip("'\"").strip()]


def gm_parse(state: DynamicState, ask: Ask, text: str) -> Action:
    """Read the game master's or the validator's reply to ``ask``; ``FormatError`` when it cannot be read."""
    role = str(ask.role)
    if ask.kind == "rule":
        lines = [line for line in text.strip().splitlines() if line.strip()]
        if len(lines) > 1:
            raise FormatError("reply with one line: one 'Rule: ...', not two lines.")
        found = _RULE.match(lines[0] if lines else "")
        if found is None:
            raise FormatError("reply with one line: 'Rule: <the rule in one sentence>'.")
        if _SECOND_RULE.search(found.group("rule")):
            raise FormatError("reply with one rule: one 'Rule: ...', not two.")
        return Action(role=role, kind="rule", text=found.group("rule"))
    if ask.kind == "classify":
        levels = {found.group(1) for found in _LEVEL.finditer(text)}
        if not levels:
            raise FormatError("reply 'Level: L1', 'Level: L2' or 'Level: L3'.")
        if len(levels) > 1:
            raise FormatError("the reply names two levels; give one answer, not two: 'Level: L1', 'L2' or 'L3'.")
        return Action(role=role, kind="classify", text=levels.pop())
    if ask.kind == "items":
        fits: list[str] | None = None
        others: list[str] | None = None
        for line in text.splitlines():
            if (matched := _OTHERS.match(line)) is not None:
                if others is not None:
                    raise FormatError("the reply has two 'Does not fit:' lines; give one of each, not two.")
                others = _split_items(matched.group("items"))
            elif (matched := _FITS.match(line)) is not None:
                if fits is not None:
                    raise FormatError("the reply has two 'Fits:' lines; give one of each, not two.")
                fits = _split_items(matched.group("items"))
        if not fits or not others:
            raise FormatError("reply with two lines: 'Fits: <item>, <item>, ...' and 'Does not fit: <item>, ...'.")
        if any(len(name) > MAX_ITEM_CHARS for name in fits + others):
            raise FormatError(f"name each item in at most {MAX_ITEM_CHARS} characters.")
        return Action(role=role, kind="items", text=f"Fits: {', '.join(fits)}\nDoes not fit: {', '.join(others)}",
                      data={"fits": fits, "others": others})
    batch = state.pending
    count = len(batch.items) if batch is not None else 0
    return Action(role=role, kind="check", text="\n".join(read_checks(text, count)))


def gm_apply(state: DynamicState, action: Action) -> DynamicState:
    """The state after a game-master or validator move; ``RuleViolation`` when it is not the move due."""
    if action.kind == FALLBACK:
        if not flow.can_fall_back(state):
            raise RuleViolation("the match has no bank rule to fall back to now.")
        return flow.give_up(state, action.text)
    phase = gm_phase(state)
    if phase != action.kind:
        raise RuleViolation(f"the {action.party} is not asked to {action.kind} now.")
    if action.kind == "rule":
        if flow.same_statement(action.text, list(avoided(state))):
            raise RuleViolation("that rule has been used already: write a different one.")
        return flow.add_rule(state, action.text)
    if action.kind == "classify":
        return flow.classify(state, int(action.text))
    if action.kind == "items":
        return flow.add_batch(state, list(action.data["fits"]), list(action.data["others"]))
    return flow.validate(state, tuple(answer == "yes" for answer in action.text.split("\n")))
