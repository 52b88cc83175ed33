"""The rule-writing phase of a guess-the-rule match: a game-master model writes the rule as code, the
``code_executor`` role runs it in the sandbox and rules on it (GuessTheRuleBench sections 4.3 and 4.4).

The template (``base.GuessRuleGame``) owns the phase's flow: the ``game_master`` writes a ``Draft``, the
checker role (``code_executor``) accepts it or rejects it with a reason, a rejected draft goes back to the game
master with the reason, and after ``GuessRuleGame.rule_tries`` rejections the match is aborted (no seat is
blamed). This module holds what games whose game master writes *code* share:

* ``read_code_draft``: a game master's reply read as ``RULE: <words>`` (the statement the judge compares
  guesses with), optional ``NAME: value`` lines a game asks for, and the code (markdown fences stripped);
* ``code_grammar``: a loose GBNF grammar for that reply (the header lines, then the function in a fenced
  block whose body is free text), for backends that enforce grammars;
* ``draft_messages``: the game master's conversation, with every rejected draft and its reason;
* ``CodeExecutor``: the scripted player of the ``code_executor`` role. It runs a game's check (which calls
  ``playeval.sandbox``) on the code of the ask, in a worker thread, and replies with the verdict as JSON;
  ``read_verdict`` reads such a reply back. The verdict is recorded like any move, so folding a match never
  runs code.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from playeval.core.ask import Ask, OutputConstraint, Reply
from playeval.core.errors import FormatError
from playeval.core.info import RoleInfo
from playeval.core.messages import Message, assistant, system, user
from playeval.core.rng import derive_seed

GAME_MASTER = "game_master"
CODE_EXECUTOR = "code_executor"
GENERATED = "generated"
"""The value of a game's ``rules`` option that starts a match with the rule-writing phase."""
MAX_CODE_CHARS = 4000
MAX_STATEMENT_CHARS = 300
GRAMMAR_STATEMENT_CHARS = 160
"""The longest ``RULE:`` line the grammar admits (a small model decoded greedily can loop on a long one)."""
REJECTED = ("Your rule was rejected: {reason}\nWrite a different rule of the same kind, in the same format.")

_FENCE = re.compile(r"```[A-Za-z0-9_+-]*[ \t]*\n(?P<code>.*?)(?:```|\Z)", re.DOTALL)
_HEADER = re.compile(r"^[\s*#>_-]*(?P<name>[A-Za-z]+)[\s*_]*:[\s*_]*(?P<value>[^\s*_].*?)[\s*_]*$")

Verdict = Literal["accepted", "rejected"]

WRITING_ROLES: tuple[RoleInfo, ...] = (
    RoleInfo(name=GAME_MASTER, does="writes the rule's code when rules=generated", default="local",
             sees=("rule", "code")),
    RoleInfo(name=CODE_EXECUTOR, does="runs a written rule in the sandbox and accepts or rejects it",
             default="scripted", sees=("rule", "code")),
)
"""The roles of a game whose game master writes code: declared by the game, played only when it does."""


@dataclass(frozen=True)
class Draft:
    """One try of the rule-writing phase: what the game master wrote (``text``, as read: ``data``), and the
    checker's ``verdict`` with its ``reason`` once it has ruled."""

    text: str
    data: Mapping[str, Any] = field(default_factory=dict)
    verdict: Verdict | None = None
    reason: str = ""


def draft_messages(system_text: str, request: str, drafts: Sequence[Draft],
                   hints: Sequence[str] = ()) -> tuple[Message, ...]:
    """The game master's conversation: its instructions, then each rejected draft with the reason. ``hints[k]``,
    when given, ends the request for draft ``k`` (a role decodes greedily: without a new hint it tends to write
    the rejected rule again, and every match of a level would get the same rule)."""
    def hinted(text: str, attempt: int) -> str:
        return f"{text}\n{hints[attempt]}" if attempt < len(hints) else text

    messages: list[Message] = [system(system_text), user(hinted(request, 0))]
    for attempt, draft in enumerate(drafts, start=1):
        if draft.verdict == "rejected":
            messages.append(assistant(draft.text))
            messages.append(user(hinted(REJECTED.format(reason=draft.reason), attempt)))
    return tuple(messages)


def seeded_hint(seed: int, game: str, attempt: int, hints: Sequence[str]) -> str:
    """One of ``hints`` for a match's ``attempt``-th draft, drawn from the match's seed (replayable)."""
    return random.Random(derive_seed(seed, game, "rule hint", attempt)).choice(list(hints))


def code_draft_ask(system_text: str, request: str, drafts: Sequence[Draft], grammar: str,
                   hints: Sequence[str] = ()) -> Ask:
    """The ``game_master``'s ask for a draft of code (``draft_messages``), loosely constrained by ``grammar``."""
    return Ask(role=GAME_MASTER, kind="draft", display=request, instructions="RULE: <words>, then the code",
               messages=draft_messages(system_text, request, drafts, hints), max_tokens=400,
               constraint=OutputConstraint(grammar=grammar), max_chars=MAX_CODE_CHARS)


def _code(text: str, header: str) -> str:
    """The function of a reply: from ``header`` to the end of its fenced block (or of the reply), with the
    import lines written before it."""
    blocks = [block.group("code") for block in _FENCE.finditer(text) if header in block.group("code")]
    code = blocks[0] if blocks else text
    start = code.find(header)
    if start < 0:
        raise FormatError(f"write the function, starting with '{header}', in a ```python block.")
    if len(set(blocks)) > 1 or code.count(header) > 1:
        raise FormatError(f"the reply has two functions; give one answer, not two: one '{header}' block.")
    imports = [line.strip() for line in code[:start].splitlines() if line.strip().startswith(("import ", "from "))]
    body = code[start:].split("```")[0].rstrip()
    code = "\n".join([*imports, body]) + "\n"
    if len(code) > MAX_CODE_CHARS:
        raise FormatError(f"the code is longer than {MAX_CODE_CHARS} characters; write a shorter function.")
    return code


def read_code_draft(text: str, header: str, fields: Sequence[str] = ()) -> dict[str, str]:
    """A game master's reply read as ``{"statement": ..., "code": ..., <field>: ...}``.

    The reply holds a line ``RULE: <the rule in words>``, a line ``<FIELD>: <value>`` for each of ``fields``
    (upper case in the reply, lower case in the result), and the function starting with ``header``
    (``def rule(word):``), in a fenced block or not. Raises ``FormatError`` saying what is missing.
    """
    found: dict[str, str] = {}
    for line in _FENCE.sub("\n", text).split("```")[0].splitlines():
        matched = _HEADER.match(line)
        if matched is None:
            continue
        name, value = matched.group("name").lower(), matched.group("value")
        if name in ("rule", *(field.lower() for field in fields)) and \
                found.setdefault(name, value).strip() != value.strip():
            raise FormatError(f"the reply has two {name.upper()}: lines; give one answer, not two.")
    statement = found.get("rule", "").strip()
    if len(statement) < 5:
        raise FormatError("start with a line 'RULE: <the rule in words>', before the code.")
    data = {"statement": statement[:MAX_STATEMENT_CHARS], "code": _code(text, header)}
    for name in fields:
        value = found.get(name.lower())
        if value is None:
            raise FormatError(f"give a line '{name.upper()}: <value>' before the code.")
        data[name.lower()] = value
    return data


def code_grammar(header: str, fields: Sequence[tuple[str, str]] = ()) -> str:
    """A loose GBNF grammar: ``RULE: <words>``, a line per ``(NAME, GBNF expression)`` of ``fields``, then a
    ```python block that starts with ``header`` and whose body is any text without a backtick."""
    escaped = header.replace("\\", "\\\\").replace('"', '\\"')
    lines = "".join(f' "{name}: " {expression} "\\n"' for name, expression in fields)
    return (f'root ::= "RULE: " [^\\n`]{{5,{GRAMMAR_STATEMENT_CHARS}}} "\\n"{lines} "```python\\n{escaped}\\n" '
            'body "```"\nbody ::= [^`]+\n')


def verdict_text(verdict: Mapping[str, Any]) -> str:
    """A checker's verdict as its reply: one JSON object."""
    return json.dumps(dict(verdict), separators=(",", ":"), sort_keys=True)


def _one_value_per_key(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose keys are distinct; ``FormatError`` for a key given twice (``{"accepted": false,
    "accepted": true}`` carries two answers, and JSON readers disagree on which one counts)."""
    found = dict(pairs)
    if len(found) != len(pairs):
        raise FormatError("the verdict gives a key twice; give one answer, not two.")
    return found


def read_verdict(text: str) -> dict[str, Any]:
    """A checker's reply read back: a JSON object with a boolean ``accepted`` and a ``reason`` (a short code)
    and ``message`` (the reason in words) when rejected. Raises ``FormatError`` otherwise."""
    try:
        verdict = json.loads(text, object_pairs_hook=_one_value_per_key)
    except (ValueError, RecursionError):  # RecursionError: brackets nested too deep to read
        raise FormatError("reply with one JSON object: {\"accepted\": true|false, ...}.") from None
    if not isinstance(verdict, dict) or not isinstance(verdict.get("accepted"), bool):
        raise FormatError("reply with one JSON object whose 'accepted' is true or false.")
    if not verdict["accepted"] and not (isinstance(verdict.get("reason"), str) and
                                        isinstance(verdict.get("message"), str)):
        raise FormatError("a rejection needs a 'reason' and a 'message' (strings).")
    return verdict


def rejection(reason: str, message: str) -> dict[str, Any]:
    """A checker's verdict refusing a draft: ``reason`` a short code, ``message`` what the game master is told."""
    return {"accepted": False, "reason": reason, "message": message}


CodeCheck = Callable[[Mapping[str, Any]], Mapping[str, Any]]
"""A game's check of a draft (its ``data``: the code and the fields the game asked for): the verdict."""

CHECK_SYSTEM = ("Run the rule below (JSON: its statement, code and fields) on the game's checks and reply with the "
                "verdict as one JSON object: {\"accepted\": true, ...} or {\"accepted\": false, \"reason\": ..., "
                "\"message\": ...}.")


def code_check_ask(draft: Draft) -> Ask:
    """The ``code_executor``'s ask: the draft's data as JSON, to run and rule on."""
    code = str(draft.data.get("code", ""))
    return Ask(role=CODE_EXECUTOR, kind="check", display=code, instructions="a JSON verdict",
               messages=(system(CHECK_SYSTEM), user(json.dumps(dict(draft.data), sort_keys=True))),
               max_tokens=64, max_chars=1 << 20)


class CodeExecutor:
    """The scripted player of the ``code_executor`` role: runs ``check`` on the draft the ask carries (its last
    message, as ``code_check_ask`` writes it) in a worker thread (the sandbox blocks), and replies with the verdict
    as JSON. A message that is not a draft is rejected as such."""

    kind = "scripted"
    model: str | None = None
    max_retries = 0

    def __init__(self, check: CodeCheck) -> None:
        self._check = check

    async def act(self, ask: Ask) -> Reply:
        try:
            data = json.loads(ask.messages[-1].content if ask.messages else "")
        except ValueError:
            data = None
        if not isinstance(data, dict) or not isinstance(data.get("code"), str):
            return Reply(text=verdict_text(rejection("not_a_draft", "the ask carries no draft to run")))
        verdict = await asyncio.to_thread(self._check, data)
        return Reply(text=verdict_text(verdict))
