"""A regular expression equivalent to a GBNF grammar without recursion, for servers that take a pattern.

JSON schema ``pattern`` (OpenAI-style ``response_format``) and vLLM's ``regex`` want a regular expression,
while the games state their move formats as GBNF grammars (``models.grammar``). Grammars whose rules do not
refer to themselves, directly or not, are regular: each rule reference is inlined as a group. The output uses
only what ECMA-262, Python's ``re`` and llama.cpp's pattern converter all read alike: plain groups (never
``(?:``), character classes, ``|``, ``* + ?`` and ``{m,n}``, anchored with ``^...$``.

Understood GBNF: ``name ::= ...`` rules (``root`` first used), string literals with ``\\n \\r \\t \\\\ \\"
\\xHH`` escapes, character classes (``[^...]``, ranges), ``.``, groups, alternation, ``* + ?`` and ``{m}``,
``{m,}``, ``{m,n}``, and ``#`` comments. Anything else raises ``GrammarNotRegular``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from playeval.core.errors import PlayevalError

_TOKEN = re.compile(
    r"""\s*(?:
    (?P<comment>\#[^\n]*)
  | (?P<define>::=)
  | (?P<string>"(?:\\.|[^"\\])*")
  | (?P<cls>\[(?:\\.|[^\]\\])*\])
  | (?P<name>[A-Za-z][A-Za-z0-9_-]*)
  | (?P<repeat>\{\s*\d+\s*(?:,\s*\d*\s*)?\})
  | (?P<op>[|()*+?.])
    )""",
    re.VERBOSE,
)
_SIMPLE_ESCAPES = {"n": "\n", "r": "\r", "t": "\t", "\\": "\\", '"': '"', "[": "[", "]": "]", "-": "-", "^": "^"}
_REGEX_SPECIAL = set("\\.^$|?*+()[]{}/")
_CLASS_SPECIAL = set("\\]^-[")
_CONTROL = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


class GrammarNotRegular(PlayevalError):
    """The grammar recurses, or uses GBNF this converter does not read."""


@dataclass(frozen=True)
class _Token:
    kind: str
    text: str


def _tokens(grammar: str) -> list[_Token]:
    found: list[_Token] = []
    position = 0
    text = grammar.rstrip()
    while position < len(text):
        match = _TOKEN.match(text, position)
        if match is None or match.end() == position:
            raise GrammarNotRegular(f"cannot read the grammar at {text[position:position + 20]!r}")
        kind = match.lastgroup or ""
        if kind != "comment":
            found.append(_Token(kind, match.group(kind)))
        position = match.end()
    return found


def _unescape(body: str) -> list[str]:
    """The characters of a literal's or class's body, escapes resolved, each as a one-char string or an
    escaped class character kept apart by a leading NUL marker (so ``\\-`` stays a literal dash in a class)."""
    chars: list[str] = []
    i = 0
    while i < len(body):
        ch = body[i]
        if ch != "\\":
            chars.append(ch)
            i += 1
            continue
        if i + 1 >= len(body):
            raise GrammarNotRegular("a grammar escape ends too early")
        code = body[i + 1]
        if code == "x" and i + 4 <= len(body):
            chars.append("\0" + chr(int(body[i + 2:i + 4], 16)))
            i += 4
        elif code in _SIMPLE_ESCAPES:
            chars.append("\0" + _SIMPLE_ESCAPES[code])
            i += 2
        else:
            raise GrammarNotRegular(f"unknown grammar escape \\{code}")
    return chars


def _literal_regex(ch: str) -> str:
    if ch in _CONTROL:
        return _CONTROL[ch]
    return "\\" + ch if ch in _REGEX_SPECIAL else ch


def _class_char(ch: str) -> str:
    if ch in _CONTROL:
        return _CONTROL[ch]
    return "\\" + ch if ch in _CLASS_SPECIAL else ch


def _string_regex(token: str) -> str:
    return "".join(_literal_regex(ch[-1]) for ch in _unescape(token[1:-1]))


def _class_regex(token: str) -> str:
    body = token[1:-1]
    negated = body.startswith("^")
    chars = _unescape(body[1:] if negated else body)
    out: list[str] = []
    i = 0
    while i < len(chars):
        ch = chars[i]
        if ch == "-" and out and i + 1 < len(chars):  # an unescaped dash between two characters: a range
            out.append("-" + _class_char(chars[i + 1][-1]))
            i += 2
            continue
        out.append(_class_char(ch[-1]))
        i += 1
    return "[" + ("^" if negated else "") + "".join(out) + "]"


class _Parser:
    """Recursive descent over one rule's tokens; rule references are resolved through ``rules``."""

    def __init__(self, rules: dict[str, list[_Token]]) -> None:
        self._rules = rules
        self._active: list[str] = []
        self._done: dict[str, str] = {}

    def rule(self, name: str) -> str:
        if name in self._done:
            return self._done[name]
        if name in self._active:
            raise GrammarNotRegular(f"rule {name!r} refers to itself")
        body = self._rules.get(name)
        if body is None:
            raise GrammarNotRegular(f"rule {name!r} is used but not defined")
        self._active.append(name)
        tokens = list(body)
        regex = self._alternatives(tokens)
        if tokens:
            raise GrammarNotRegular(f"unexpected {tokens[0].text!r} in rule {name!r}")
        self._active.pop()
        self._done[name] = regex
        return regex

    def _alternatives(self, tokens: list[_Token]) -> str:
        options = [self._sequence(tokens)]
        while tokens and tokens[0].text == "|" and tokens[0].kind == "op":
            tokens.pop(0)
            options.append(self._sequence(tokens))
        return options[0] if len(options) == 1 else "|".join(options)

    def _sequence(self, tokens: list[_Token]) -> str:
        parts: list[str] = []
        while tokens and not (tokens[0].kind == "op" and tokens[0].text in "|)"):
            atom = self._atom(tokens)
            while tokens and (tokens[0].kind == "repeat" or (tokens[0].kind == "op" and tokens[0].text in "*+?")):
                atom = f"({atom})" if not _single(atom) else atom
                atom += tokens.pop(0).text.replace(" ", "")
            parts.append(atom)
        return "".join(parts)

    def _atom(self, tokens: list[_Token]) -> str:
        token = tokens.pop(0)
        if token.kind == "string":
            return _string_regex(token.text)
        if token.kind == "cls":
            return _class_regex(token.text)
        if token.kind == "name":
            inner = self.rule(token.text)
            return f"({inner})" if "|" in inner else inner
        if token.kind == "op" and token.text == ".":
            return "[\\s\\S]"
        if token.kind == "op" and token.text == "(":
            inner = self._alternatives(tokens)
            if not tokens or tokens.pop(0).text != ")":
                raise GrammarNotRegular("a group is not closed")
            return f"({inner})"
        raise GrammarNotRegular(f"unexpected {token.text!r}")


def _single(atom: str) -> bool:
    """``atom`` is one regex unit that a quantifier may follow directly (one character, class or group)."""
    if re.fullmatch(r"\\?.|\[(?:\\.|[^\]\\])*\]|\[\\s\\S\]", atom, re.DOTALL):
        return True
    if atom.startswith("(") and atom.endswith(")"):
        depth = 0
        for index, ch in enumerate(atom):
            depth += ch == "(" and (index == 0 or atom[index - 1] != "\\")
            depth -= ch == ")" and atom[index - 1] != "\\"
            if depth == 0 and index < len(atom) - 1:
                return False
        return True
    return False


def grammar_regex(grammar: str) -> str:
    """An anchored regular expression (``^...$``) matching exactly what ``grammar``'s ``root`` matches."""
    tokens = _tokens(grammar)
    rules: dict[str, list[_Token]] = {}
    current: list[_Token] | None = None
    for index, token in enumerate(tokens):
        if token.kind == "define":
            continue
        if token.kind == "name" and index + 1 < len(tokens) and tokens[index + 1].kind == "define":
            if token.text in rules:
                raise GrammarNotRegular(f"rule {token.text!r} is defined twice")
            current = rules[token.text] = []
            continue
        if current is None:
            raise GrammarNotRegular("the grammar does not start with a rule")
        current.append(token)
    if "root" not in rules:
        raise GrammarNotRegular("the grammar has no root rule")
    return "^(" + _Parser(rules).rule("root") + ")$"
