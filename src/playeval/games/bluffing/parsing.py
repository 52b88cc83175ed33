"""Reading Bluffing replies, and the GBNF grammars (llama.cpp) that shape them.

The questioner's reply is a verdict when ``I believe your statement is: True`` (or ``False``)
appears anywhere in it, in any case, with or without asterisks or quotes; otherwise it must be one
question on one line, headed ``Question N:`` with the right number (a missing header is added).
The bluffer's reply is one paragraph of free text.
"""

from __future__ import annotations

import re

from playeval.core.errors import FormatError

MAX_QUESTION_CHARS = 300
MAX_ANSWER_CHARS = 500

_VERDICT = re.compile(
    r"\bi\s+believe\s+(?:that\s+)?your\s+statement\s+is\s*[:\-]?\s*[\"'\u201c\u201d\u2018\u2019(\[]*\s*"
    r"(?P<verdict>true|false)\b",
    re.IGNORECASE,
)
# The verdict hedged: "True or False", "True/False", "True, false".
_HEDGE = re.compile(r"[\"'\u201c\u201d\u2018\u2019)\]]*\s*(?:[,;]?\s*(?:/|\||\bor\b|\band\b)|,|;)\s*"
                    r"[\"'\u201c\u201d\u2018\u2019(\[]*\s*(?P<other>true|false)\b", re.IGNORECASE)
_HEADER = re.compile(r"^\s*question\s*(\d+)\s*[:.)-]\s*", re.IGNORECASE)
_MARKUP = re.compile(r"[*_`]")
_DECORATION = re.compile(r"^[\s\"'>#\u201c\u201d]+|[\s\"'\u201c\u201d]+$")
_PARAGRAPH_BREAK = re.compile(r"\n\s*\n")
_LABEL = re.compile(r"^(?:answer|a|me|bluffer|player)\s*:\s*", re.IGNORECASE)
_SPACES = re.compile(r"\s+")

VERDICT_RULE = 'verdict ::= "I believe your statement is: " ("True" | "False")\n'
VERDICT_GRAMMAR = "root ::= verdict\n" + VERDICT_RULE
ANSWER_GRAMMAR = "root ::= [^\\n\\t ] [^\\n]*\n"


def move_grammar(number: int) -> str:
    """Question ``number`` or a verdict, on one line."""
    return f'root ::= "Question {number}: " text "?" | verdict\n' + VERDICT_RULE + "text ::= [^\\n?]+\n"


def find_verdict(text: str) -> str | None:
    """``True`` or ``False`` when the reply gives a verdict anywhere; ``None`` when it gives none."""
    plain = _MARKUP.sub("", text)
    found: set[str] = set()
    for match in _VERDICT.finditer(plain):
        found.add(match.group("verdict").capitalize())
        if (hedge := _HEDGE.match(plain, match.end())) is not None:
            found.add(hedge.group("other").capitalize())
    if len(found) > 1:
        raise FormatError("the reply gives both verdicts; give one answer, not two.")
    return found.pop() if found else None


def parse_question(text: str, number: int) -> str:
    """The question in its canonical form, ``Question N: ...?``."""
    if not text.strip():
        raise FormatError("the reply was empty.")
    if len([line for line in text.strip().splitlines() if line.strip()]) > 1:
        raise FormatError("reply with a single line: one question, or your verdict.")
    line = _DECORATION.sub("", _MARKUP.sub("", text.strip())).strip()
    header = _HEADER.match(line)
    if header:
        if int(header.group(1)) != number:
            raise FormatError(f"this question must be headed 'Question {number}:'.")
        line = line[header.end():].strip()
    if line.count("?") != 1 or not line.endswith("?") or not line[:-1].strip():
        raise FormatError(
            f"ask exactly one question ending with '?', headed 'Question {number}:', or give your verdict: "
            "'I believe your statement is: True' or 'I believe your statement is: False'."
        )
    if len(line) > MAX_QUESTION_CHARS:
        raise FormatError(f"the question is longer than {MAX_QUESTION_CHARS} characters.")
    return f"Question {number}: {line}"


def parse_answer(text: str) -> str:
    """The answer on one line, whitespace folded."""
    stripped = text.strip()
    if _PARAGRAPH_BREAK.search(stripped):
        raise FormatError("answer in a single paragraph.")
    answer = _LABEL.sub("", _SPACES.sub(" ", stripped))
    if len(answer) >= 2 and answer[0] in "\"\u201c" and answer[-1] in "\"\u201d":
        answer = answer[1:-1].strip()
    if not answer:
        raise FormatError("the answer was empty.")
    if len(answer) > MAX_ANSWER_CHARS:
        raise FormatError(f"the answer is longer than {MAX_ANSWER_CHARS} characters.")
    return answer
