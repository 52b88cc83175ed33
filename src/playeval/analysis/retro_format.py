"""The output formats of the retrospective analysis: what is asked for, the grammar that forces it, the parser.

A game words its own retrospective request (``RetroPoint.request``); the format sentence here is added to it,
so every game's candidate lists and judgements come back in one shape. Local models are held to the shape by a
GBNF grammar; other backends are parsed leniently and re-asked when the reply cannot be read. ``FORMATS`` holds
the kinds a game's ``RetroPoint`` may ask for; ``split`` (the Yes/No classification behind Akinator's disparity
ratio) is not asked of a round but of the previous round's candidates, by ``split_prompt``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from playeval.core.errors import FormatError
from playeval.core.normalize import normalize_name
from playeval.metrics.procedural import JUDGEMENT_LEVELS
from playeval.metrics.retro import CANDIDATES, JUDGEMENT

MIN_CANDIDATES = 5
MAX_CANDIDATES = 16

CANDIDATES_FORMAT = (
    f"Reply with the list alone: between {MIN_CANDIDATES} and {MAX_CANDIDATES} lines, one name per line, "
    "each line numbered like '1. <name>', the most likely first. No other text."
)
JUDGEMENT_FORMAT = (
    "Reply with exactly two lines. First line: 'Judgement: ' followed by one of True, Possibly true, "
    "Unknown, Possibly false, False. Second line: 'Reason: ' followed by one short sentence."
)
SPLIT_SYSTEM = (
    "You classify objects for a game of twenty questions. For each object in a numbered list, decide how "
    "a fair, well-informed person would answer the given yes/no question about that object, and answer "
    "Yes or No for it."
)
SPLIT_USER = "Question: {question}\nObjects:\n{objects}\nAnswer each line as '<number>. Yes' or '<number>. No'."

CANDIDATES_GRAMMAR = (
    f"root ::= item{{{MIN_CANDIDATES},{MAX_CANDIDATES}}}\n"
    'item ::= [1-9] [0-9]? ". " [A-Za-z] [^\\n]{0,59} "\\n"\n'
)
JUDGEMENT_GRAMMAR = (
    'root ::= "Judgement: " level "\\nReason: " [^\\n]{1,160}\n'
    "level ::= " + " | ".join(f'"{level}"' for level in JUDGEMENT_LEVELS) + "\n"
)

_ITEM = re.compile(r"^\s*(?:\d{1,2}\s*[.):-]|[-*\u2022])\s*(?P<name>.+?)\s*$")
_OBJECT_TAG = re.compile(r"^\s*\**\s*(?:object|word|candidate)\s*:\s*(?P<name>.+?)\s*\**\s*$", re.IGNORECASE)
_TRAILING = re.compile(r"\s+(?:[-\u2013\u2014:]\s+.*|\(.*\))$")
_JUDGEMENT = re.compile(
    r"(?:judgement|judgment|statement is|prediction)\s*:?\s*\**\s*(?P<level>possibly true|possibly false|unknown|"
    r"true|false)\b",
    re.IGNORECASE,
)
_REASON = re.compile(r"reason\s*:\s*(?P<reason>.+)", re.IGNORECASE | re.DOTALL)


def split_grammar(count: int) -> str:
    """Exactly ``count`` numbered Yes/No lines."""
    lines = " ".join(f'"{number}. " answer "\\n"' for number in range(1, count + 1))
    return f'root ::= {lines}\nanswer ::= "Yes" | "No"\n'


def split_prompt(question: str, objects: tuple[str, ...]) -> str:
    listed = "\n".join(f"{number}. {name}" for number, name in enumerate(objects, start=1))
    return SPLIT_USER.format(question=question, objects=listed)


def parse_candidates(text: str) -> list[str]:
    """The names of a numbered (or bulleted, or ``Object: X``) list, deduplicated, in order of first mention."""
    names: list[str] = []
    seen: set[str] = set()
    for line in text.splitlines():
        match = _ITEM.match(line) or _OBJECT_TAG.match(line)
        if not match:
            continue
        name = _TRAILING.sub("", match.group("name").replace("*", "").strip()).strip(" .\"'`")
        key = normalize_name(name)
        if key and any(char.isalpha() for char in key) and key not in seen:
            seen.add(key)
            names.append(name)
    if not names:
        raise FormatError(f"no list found; {CANDIDATES_FORMAT}")
    return names[:MAX_CANDIDATES]


def parse_judgement(text: str) -> dict[str, str]:
    """``{"level": one of the five levels, "reason": ...}``."""
    match = _JUDGEMENT.search(text)
    if not match:
        raise FormatError(f"no judgement found; {JUDGEMENT_FORMAT}")
    spoken = match.group("level").lower()
    level = next(level for level in JUDGEMENT_LEVELS if level.lower() == spoken)
    reason_match = _REASON.search(text[match.end():])
    reason = reason_match.group("reason").strip() if reason_match else text[match.end():].strip(" *.\n")
    return {"level": level, "reason": reason[:500]}


def parse_split(text: str, count: int) -> list[str]:
    """``count`` Yes/No answers, one per numbered line."""
    answers: dict[int, str] = {}
    for line in text.splitlines():
        found = re.match(r"^\s*(\d{1,2})\s*[.):-]\s*(yes|no)\b", line, re.IGNORECASE)
        if found:
            answers.setdefault(int(found.group(1)), found.group(2).capitalize())
    missing = [number for number in range(1, count + 1) if number not in answers]
    if missing:
        raise FormatError(f"no Yes/No for line(s) {', '.join(map(str, missing))}; answer every line.")
    return [answers[number] for number in range(1, count + 1)]


@dataclass(frozen=True)
class OutputFormat:
    """How the analysis asks for one kind of retrospective output."""

    sentence: str
    """Added to the game's request: the shape of the reply."""
    grammar: str
    """The GBNF grammar that holds a local model to that shape."""
    parse: Callable[[str], Any]
    """Reads a reply (raising ``FormatError``) into what is stored."""
    max_tokens: int


FORMATS: Mapping[str, OutputFormat] = {
    CANDIDATES: OutputFormat(CANDIDATES_FORMAT, CANDIDATES_GRAMMAR, parse_candidates, 180),
    JUDGEMENT: OutputFormat(JUDGEMENT_FORMAT, JUDGEMENT_GRAMMAR, parse_judgement, 64),
}
"""The kinds of retrospective output a game's ``RetroPoint`` may ask for, by kind."""
