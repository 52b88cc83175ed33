"""Scripted stand-ins for every party of a Dynamic Picnic match (tests, the arena's test runs, ``scripted``
bindings). They play from the hand-written ``SCRIPTED_RULES`` and read what an ask holds from its ``display``:

* the game master writes the hand-written rule of the match's level and type (another of the level, and of the
  match's secret set when it names one, when that one is to be avoided) and gives its items in list order; in its
  first batch it slips one item of the wrong side among those that follow the rule, so that every scripted match
  shows the validator dropping an item;
* the validator classifies a hand-written rule at its own level (another rule at the level asked, as it cannot
  tell) and says an item follows the rule when it is one of the rule's listed followers;
* the judge accepts exactly the rule's own words (normalised), read from its ask;
* the player asks for one more example, states the rule the scripted game master writes (or the banked one) and
  answers the check from the rule's lists.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from playeval.core.ask import Ask, Reply
from playeval.core.info import panel_role
from playeval.core.match import MatchSpec
from playeval.core.normalize import normalize_name
from playeval.games.dynamic_picnic._scripted_rules import SCRIPTED_RULES, ScriptedRule
from playeval.games.dynamic_picnic.state import same_statement
from playeval.games.dynamic_picnic.taxonomy import set_of
from playeval.guess_rule import SECRET_SET, HeldOut
from playeval.guess_rule.baselines import StatementSolver

_RULE_LINE = re.compile(r"^The (?:concealed )?rule: (.*)$", re.MULTILINE)
_NUMBERED = re.compile(r"^\s*(\d{1,2})\. (.+)$", re.MULTILINE)


def scripted_rule(level: int, rule_type: str, avoid: Sequence[str] = (), secret_set: str | None = None
                  ) -> ScriptedRule | None:
    """The hand-written rule of ``level`` and ``rule_type``, else another of the level (of ``secret_set``, when
    one is named: ``taxonomy.set_of``); none that is avoided."""
    allowed = [rule for rule in SCRIPTED_RULES if rule.level == level and not same_statement(rule.statement,
                                                                                                list(avoid))
               and (secret_set is None or set_of(rule.level, rule.type) == secret_set)]
    return next((rule for rule in allowed if rule.type == rule_type), allowed[0] if allowed else None)


def rule_by_statement(statement: str) -> ScriptedRule | None:
    return next((rule for rule in SCRIPTED_RULES if same_statement(statement, [rule.statement])), None)


def _field(display: str, name: str) -> str:
    found = re.search(rf"^{name}: (.*)$", display, re.MULTILINE)
    return found.group(1).strip() if found else ""


def _statement(ask: Ask) -> str:
    judge = ask.role is not None and panel_role(ask.role) == "judge"  # a panel's further members too
    text = "\n".join(message.content for message in ask.messages) if judge else ask.display
    found = _RULE_LINE.search(text)
    return found.group(1).strip() if found else ""


class _Scripted:
    kind = "scripted"
    model: str | None = None
    max_retries = 0


class ScriptedGameMaster(_Scripted):
    def __init__(self, spec: MatchSpec) -> None:
        self._level = spec.level
        self._type = str(spec.setup.get("type", ""))
        named = spec.params.get(SECRET_SET)
        self._set = str(named) if named is not None else None

    async def act(self, ask: Ask) -> Reply:
        if ask.kind == "rule":
            avoid = [line[2:] for line in ask.display.splitlines() if line.startswith("- ")]
            rule = scripted_rule(self._level, self._type, avoid, self._set) or scripted_rule(self._level, self._type)
            assert rule is not None
            return Reply(text=f"Rule: {rule.statement}")
        rule = rule_by_statement(_statement(ask))
        used = {normalize_name(name) for name in _field(ask.display, "Used").split(";") if name.strip()}
        fits, others = int(_field(ask.display, "Fits") or 1), int(_field(ask.display, "Does not fit") or 1)
        if rule is None:  # a rule it did not write: it knows no items for it
            return Reply(text="Fits: picnic blanket\nDoes not fit: picnic basket")
        positives = [name for name in rule.positives if normalize_name(name) not in used]
        negatives = [name for name in rule.negatives if normalize_name(name) not in used]
        if not used and negatives:  # the slip the validator is to catch
            slip = negatives.pop()
            positives = [*positives[:fits - 1], slip]
        chosen_yes = positives[:fits] or [rule.positives[0]]
        chosen_no = negatives[:others] or [rule.negatives[0]]
        return Reply(text=f"Fits: {', '.join(chosen_yes)}\nDoes not fit: {', '.join(chosen_no)}")


class ScriptedValidator(_Scripted):
    def __init__(self, spec: MatchSpec) -> None:
        self._level = spec.level

    async def act(self, ask: Ask) -> Reply:
        rule = rule_by_statement(_statement(ask))
        if ask.kind == "classify":
            return Reply(text=f"Level: L{rule.level if rule is not None else self._level}")
        followers = {normalize_name(name) for name in rule.positives} if rule is not None else set()
        lines = [f"{number}. {'yes' if normalize_name(name) in followers else 'no'}"
                 for number, name in _NUMBERED.findall(ask.display)]
        return Reply(text="\n".join(lines))


class ScriptedJudge(_Scripted):
    async def act(self, ask: Ask) -> Reply:
        guess = ask.display.removeprefix("Guess:").strip()
        same = same_statement(guess, [_statement(ask)])
        return Reply(text=f"Verdict: {'yes' if same else 'no'}\nReason: compared with the rule's own words.")


class ScriptedSolver(StatementSolver):
    """``StatementSolver`` with the check answered from a hand-written rule's lists (items unknown to it: no)."""

    def __init__(self, rule: ScriptedRule | None, statement: str, held_out: Sequence[HeldOut]) -> None:
        super().__init__(statement, held_out)
        self._followers = {normalize_name(name) for name in rule.positives} if rule is not None else set()

    async def act(self, ask: Ask) -> Reply:
        if ask.kind != "apply" or not self._followers:
            return await super().act(ask)
        request = ask.messages[-1].content
        return Reply(text="\n".join(f"{number}. {'yes' if normalize_name(name) in self._followers else 'no'}"
                                    for number, name in _NUMBERED.findall(request)))
