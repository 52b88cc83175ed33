"""A person at the terminal.

Most asks take one line. An ask whose reply is numbered lines of answers (``Ask.numbered``: the guess-the-rule
games' check of ten items) is read answer by answer: one per line, each prompted with its item, ``3. yes`` or just
``yes`` (the next item's answer), or several on one line (``yes no yes``, ``1. yes 2. no``); the reply is sent once
every item has an answer. A line that cannot be read (an unknown item number, an answer not among the choices, more
answers than items) is refused with the reason and asked again, the answers already typed kept; an empty line
before the end says which items are still missing. The skip word, alone on a line, skips the whole check.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable

from playeval.core.ask import REFUSED, Ask, NumberedReply, Reply

HUMAN_MAX_RETRIES = 1000
_ITEM = re.compile(r"^\s*(\d{1,3})\.\s+(\S.*?)\s*$", re.MULTILINE)
"""An item as a check lists it: ``3. hammer``."""
_NUMBERED = re.compile(r"(\d{1,3})\s*[.):]\s+(.+?)\s*(?=\b\d{1,3}\s*[.):]\s+\S|$)")
"""Numbered answers on a line: ``3. yes`` or ``1. yes 2. no``."""
_NUMBER = re.compile(r"^-?\d+$")
_LEADING_NUMBER = re.compile(r"^\s*\d{1,3}\s*[.):]\s+\S")
"""A line of numbered answers: a number, a mark and a space (``1.5`` is an answer, not item 1's ``5``)."""


class BadLine(ValueError):
    """A line of numbered answers that cannot be read; the message says why."""


def read_answers(line: str, form: NumberedReply, answers: dict[int, str]) -> dict[int, str]:
    """``answers`` with those of ``line`` added: numbered (``3. yes``, several on a line) or bare (the next items'
    answers in order; several on a line when each is one of the choices, or a whole number where there are none);
    raises ``BadLine`` with the reason, ``answers`` untouched."""
    found = dict(answers)
    if _LEADING_NUMBER.match(line):
        pairs = [(int(number), answer) for number, answer in _NUMBERED.findall(line)]
    else:
        words = [word for word in re.split(r"[,\s]+", line) if word]
        several = len(words) > 1 and all(
            word.lower() in form.choices if form.choices else _NUMBER.match(word) for word in words)
        missing = [number for number in range(1, form.count + 1) if number not in found]
        bare = words if several else [line]
        if len(bare) > len(missing):
            raise BadLine(f"{len(bare)} answers, but only {len(missing)} "
                          f"{'item is' if len(missing) == 1 else 'items are'} left to answer.")
        pairs = list(zip(missing, bare, strict=False))
    for number, answer in pairs:
        if not 1 <= number <= form.count:
            raise BadLine(f"there is no item {number}: the items are numbered 1 to {form.count}.")
        if form.choices and answer.lower() not in form.choices:
            raise BadLine(f"item {number}: answer {' or '.join(form.choices)}, not {answer!r}.")
        if form.whole_numbers and not _NUMBER.match(answer):
            raise BadLine(f"item {number}: answer a whole number, not {answer!r}.")
        found[number] = answer.lower() if form.choices else answer
    return found


def refusal_and_block(display: str) -> tuple[str | None, str]:
    """A re-ask's display split into its newest reason line and the ask it repeats (``Ask.retry`` puts one
    ``Not accepted: ...`` line above the display for each refusal); a first ask has no reason."""
    lines = display.split("\n")
    reasons = 0
    while reasons < len(lines) - 1 and lines[reasons].startswith(REFUSED):
        reasons += 1
    return (lines[0] if reasons else None), "\n".join(lines[reasons:])


class TerminalPlayer:
    """Shows the ask and reads one line, or an ask's numbered answers (see the module's note). Input and output
    are injectable for tests.

    An ask asked again after a refused reply shows the reason and the prompt, not the whole block again: the
    person has just read it."""

    kind = "human"
    model: str | None = None
    max_retries = HUMAN_MAX_RETRIES

    def __init__(self, name: str = "you", *, read: Callable[[str], str] = input,
                 write: Callable[[str], None] = print) -> None:
        self._name = name
        self._read = read
        self._write = write
        self._last: tuple[str, str] | None = None

    async def act(self, ask: Ask) -> Reply:
        reason, block = refusal_and_block(ask.display)
        shown = (block, ask.instructions)
        self._write("")
        if reason is not None and self._last == shown:
            self._write(reason)
        else:
            self._write(ask.display)
            self._write(f"  ({ask.instructions})")
        self._last = shown
        if ask.numbered is not None:
            return Reply(text=await asyncio.to_thread(self._numbered, ask, ask.numbered))
        line = await asyncio.to_thread(self._read, f"{self._name}> ")
        return Reply(text=line.strip())

    def _numbered(self, ask: Ask, form: NumberedReply) -> str:
        """The numbered reply, read answer by answer until every item has one (or the skip word)."""
        items = {int(number): item for number, item in _ITEM.findall(ask.display)}
        choices = f" ({' or '.join(form.choices)})" if form.choices else ""
        skip = f"; '{form.skip}' skips them all" if form.skip else ""
        self._write(f"  Answer each item{choices} on its own line, or several on one line{skip}.")
        answers: dict[int, str] = {}
        while True:
            missing = [number for number in range(1, form.count + 1) if number not in answers]
            if not missing:
                return "\n".join(f"{number}. {answers[number]}" for number in range(1, form.count + 1))
            following = missing[0]
            item = items.get(following)
            line = self._read(f"{self._name} {following}. {item}> " if item else f"{self._name} {following}> ")
            line = line.strip()
            if form.skip and line.lower() == form.skip.lower():
                return form.skip
            if not line:
                self._write(f"  Still to answer: {', '.join(map(str, missing))}" +
                            (f" (or '{form.skip}' to skip)." if form.skip else "."))
                continue
            try:
                answers = read_answers(line, form, answers)
            except BadLine as err:
                self._write(f"  Not taken: {err} Type that line again.")
