"""Labelled judge cases as JSON lines: the format of ``playeval analyze judge --cases FILE.jsonl`` and of the
hand-written sets each judged game ships.

One JSON object a line::

    {"game": "math", "id": "m-01", "context": {...}, "answer": "divide by 3", "correct": true, "kind": "paraphrase"}

``context`` holds the keys the game's ``judge_case_ask`` reads (each judged game lists them in
``JudgedGame.judge_case_keys``, with what they hold); ``answer`` is the reply judged (a guess, a sentence);
``correct`` the right verdict; ``kind`` what sort of case it is, so that error rates can be read per kind. Blank
lines and lines starting with ``#`` are skipped. Every error names the file's line and, once it is known, the
case's id.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import Any

from playeval.core.errors import PlayevalError
from playeval.core.game import JudgeCase

FIELDS: tuple[str, ...] = ("game", "id", "context", "answer", "correct", "kind")
_SAID_ID = re.compile(r'"id"\s*:\s*"([^"\\]+)"')


class CaseFileError(PlayevalError):
    """A labelled-case file that cannot be read; the message names the line and the case id."""


@dataclass(frozen=True)
class LabelledCase:
    """A case of a labelled-case file: the game it is for, and the case."""

    game: str
    case: JudgeCase


def _where(source: str, number: int, case_id: object = None) -> str:
    found = f"{source}, line {number}"
    return f"{found} (case {case_id})" if isinstance(case_id, str) and case_id else found


def parse_case(raw: object, *, source: str = "<cases>", number: int = 0) -> LabelledCase:
    """One case from its decoded JSON object; ``CaseFileError`` naming the line (and the id) when it is malformed."""
    if not isinstance(raw, dict):
        raise CaseFileError(f"{_where(source, number)}: a case is a JSON object with {', '.join(FIELDS)}")
    case_id = raw.get("id")
    where = _where(source, number, case_id)
    missing = [key for key in FIELDS if key not in raw]
    if missing:
        raise CaseFileError(f"{where}: missing {', '.join(missing)}")
    extra = sorted(set(raw) - set(FIELDS))
    if extra:
        raise CaseFileError(f"{where}: unknown field {', '.join(extra)} (a case has {', '.join(FIELDS)})")
    checks: list[tuple[str, type, str]] = [("game", str, "a string"), ("id", str, "a string"),
                                           ("context", dict, "an object"), ("answer", str, "a string"),
                                           ("correct", bool, "true or false"), ("kind", str, "a string")]
    for key, kind, said in checks:
        if not isinstance(raw[key], kind) or (kind is str and not raw[key].strip()):
            raise CaseFileError(f"{where}: '{key}' must be {said}{'' if kind is not str else ', not empty'}")
    return LabelledCase(game=raw["game"], case=JudgeCase(id=raw["id"], context=raw["context"], answer=raw["answer"],
                                                         correct=raw["correct"], kind=raw["kind"]))


def parse_cases(lines: Iterable[str], *, source: str = "<cases>") -> list[LabelledCase]:
    """Every case of a JSON-lines text; ``CaseFileError`` at the first bad line or a repeated id."""
    found: list[LabelledCase] = []
    seen: dict[tuple[str, str], int] = {}
    for number, line in enumerate(lines, start=1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        try:
            raw: Any = json.loads(text)
        except ValueError as err:
            said = _SAID_ID.search(text)  # name the case the broken line seems to hold, to find it
            raise CaseFileError(f"{_where(source, number, said.group(1) if said else None)}: not JSON ({err})"
                                ) from None
        case = parse_case(raw, source=source, number=number)
        key = (case.game, case.case.id)
        if key in seen:
            raise CaseFileError(f"{_where(source, number, case.case.id)}: the id is used already on line {seen[key]}")
        seen[key] = number
        found.append(case)
    return found


def read_cases(path: Path) -> list[LabelledCase]:
    """The cases of a file; ``CaseFileError`` when it is missing, unreadable or malformed."""
    try:
        text = path.read_text("utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise CaseFileError(f"{path}: cannot read it ({err.__class__.__name__}: {err})") from None
    return parse_cases(text.splitlines(), source=str(path))


def packaged_cases(package: str, resource: str, game: str,
                   keys: Mapping[str, str] | None = None) -> tuple[JudgeCase, ...]:
    """A game's shipped hand-written set (``resource`` in ``package``), every case checked to be for ``game`` and,
    when ``keys`` (``JudgedGame.judge_case_keys``) is given, to hold each of them in its context: a set that lost
    a key fails when it is loaded, naming the case, not when a model is already being measured on it."""
    source = f"{package}/{resource}"
    text = files(package).joinpath(resource).read_text("utf-8")
    cases = parse_cases(text.splitlines(), source=source)
    wrong = [case.case.id for case in cases if case.game != game]
    if wrong:
        raise CaseFileError(f"{source}: cases for another game than {game}: {', '.join(wrong[:5])}")
    for case in cases:
        lacking = missing_keys(case.case, keys or {})
        if lacking:
            said = "; ".join(f"'{key}' ({(keys or {})[key]})" for key in lacking)
            raise CaseFileError(f"{source} (case {case.case.id}): the context lacks {said}")
    return tuple(case.case for case in cases)


def missing_keys(case: JudgeCase, keys: Mapping[str, str]) -> list[str]:
    """The keys of ``keys`` (``JudgedGame.judge_case_keys``) that the case's context lacks."""
    return [key for key in keys if key not in case.context]


def context_text(case: JudgeCase, key: str) -> str:
    """The case's ``context[key]`` as the text it must be; ``ValueError`` naming the case and the key when it is
    missing or not a non-empty string (a list or ``null`` would otherwise be asked as its Python form)."""
    value = case.context.get(key)
    if not isinstance(value, str) or not value.strip():
        shown = "missing" if key not in case.context else f"a {type(value).__name__}" if value is not None else "null"
        raise ValueError(f"case {case.id}: '{key}' must be a non-empty string, not {shown}")
    return value
