"""Structured output through OpenAI-compatible servers: which server is behind a base URL, and how to send it a
request's ``OutputConstraint``.

Output paths (recorded per call as ``ProviderResult.output_path``):

* ``llama_grammar``: llama.cpp's server (``GET /props`` answers with its settings) or llama-cpp-python's
  (``GET /openapi.json`` is titled "llama.cpp Python API"); the GBNF grammar goes in the request's ``grammar``
  field.
* ``guided``: vLLM (``GET /version`` answers ``{"version": ...}``); ``structured_outputs`` (vLLM >= 0.11) or the
  older ``guided_choice`` / ``guided_regex`` / ``guided_grammar`` fields: the choices, else the grammar as a
  regular expression when it is one, else the GBNF grammar itself.
* ``json_schema``: openai.com, and any other server until it refuses: ``response_format`` with a JSON schema
  ``{"move": string}`` whose string is an ``enum`` of the choices or has the grammar's regular expression as its
  ``pattern``; the reply's ``move`` is handed to the game as plain text.
* ``parse``: nothing is sent; the game's parser reads the reply and re-asks on a format error. Taken by servers
  that refused the first ``response_format`` sent to them (an error status whose message names it), and for a
  grammar that is not regular on the paths that need a regular expression.

An address may force a path: ``openai/NAME?format=parse`` (or ``json_schema``, ``llama_grammar``, ``guided``;
``auto``, the default, detects).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Literal

from playeval.core.ask import OutputConstraint
from playeval.models.errors import UnknownModel
from playeval.models.gbnf_regex import GrammarNotRegular, grammar_regex
from playeval.models.grammar import constraint_grammar

OutputPath = Literal["llama_grammar", "json_schema", "guided", "parse"]
OUTPUT_PATHS: tuple[OutputPath, ...] = ("llama_grammar", "json_schema", "guided", "parse")
FORMATS = ("auto", *OUTPUT_PATHS)
SERVER_KINDS = ("openai", "llama_cpp", "vllm", "generic")
SCHEMA_NAME = "move"
MOVE_FIELD = "move"
JSON_OVERHEAD_TOKENS = 16
"""Extra tokens allowed for the JSON wrapper around the move (``{"move": "..."}``)."""
_VLLM_STRUCTURED_OUTPUTS = (0, 11)
_SCHEMA_REFUSAL = re.compile(r"response_format|json_schema|schema|structured", re.IGNORECASE)


@dataclass(frozen=True)
class Endpoint:
    """What serves a base URL: ``kind`` (one of ``SERVER_KINDS``) and, for vLLM, its version."""

    kind: str
    version: tuple[int, ...] = ()

    @property
    def default_path(self) -> OutputPath:
        return {"llama_cpp": "llama_grammar", "vllm": "guided"}.get(self.kind, "json_schema")  # type: ignore[return-value]


@dataclass(frozen=True)
class Shaped:
    """A request's extra parameters for one output path, and the path actually taken."""

    path: OutputPath | None
    params: dict[str, Any]
    wrapped: bool = False
    """The reply is a JSON object whose ``move`` is the text for the game."""


def split_model_name(model_name: str) -> tuple[str, str]:
    """``NAME?format=F`` -> (``NAME``, ``F``); a name without options has format ``auto``."""
    name, sep, query = model_name.partition("?")
    if not name:
        raise UnknownModel(f"openai/{model_name}: no model name before '?'")
    if not sep:
        return name, "auto"
    fmt = "auto"
    for item in query.split("&"):
        key, eq, value = item.partition("=")
        if key != "format" or not eq:
            raise UnknownModel(f"openai/{model_name}: unknown option {item!r}; the only option is format=F")
        if value not in FORMATS:
            raise UnknownModel(f"openai/{model_name}: format must be one of {', '.join(FORMATS)}, not {value!r}")
        fmt = value
    return name, fmt


def parse_version(text: str) -> tuple[int, ...]:
    """``"0.11.2rc1"`` -> ``(0, 11, 2)``: the leading numbers of a version string."""
    numbers: list[int] = []
    for part in text.split("."):
        digits = re.match(r"\d+", part)
        if digits is None:
            break
        numbers.append(int(digits.group()))
    return tuple(numbers)


def identify(props: object, version: object, openapi: object = None) -> Endpoint | None:
    """The server behind the answers to ``GET /props``, ``GET /version`` and ``GET /openapi.json`` (``None``
    when none of them names llama.cpp or vLLM)."""
    if isinstance(props, dict) and ({"default_generation_settings", "total_slots"} & set(props)):
        return Endpoint("llama_cpp")
    if isinstance(version, dict) and isinstance(version.get("version"), str) and len(version) == 1:
        return Endpoint("vllm", parse_version(version["version"]))
    info = openapi.get("info") if isinstance(openapi, dict) else None
    if isinstance(info, dict) and "llama.cpp" in str(info.get("title", "")):
        return Endpoint("llama_cpp")
    return None


def refuses_schema(status: int, message: str) -> bool:
    """An error status whose message names ``response_format`` or the schema: the server takes no JSON schema
    (most say 400 or 422; llama-cpp-python's says 500 with its validation error)."""
    return status in (400, 422, 500) and _SCHEMA_REFUSAL.search(message) is not None


def _regex(constraint: OutputConstraint) -> str | None:
    grammar = constraint.grammar
    if grammar is None:
        return None
    try:
        return grammar_regex(grammar)
    except GrammarNotRegular:
        return None


def _json_schema(constraint: OutputConstraint) -> dict[str, Any] | None:
    if constraint.grammar is None and constraint.choices is not None:
        move: dict[str, Any] = {"type": "string", "enum": list(dict.fromkeys(constraint.choices))}
    else:
        pattern = _regex(constraint)
        if pattern is None:
            return None
        move = {"type": "string", "pattern": pattern}
    schema = {"type": "object", "properties": {MOVE_FIELD: move}, "required": [MOVE_FIELD],
              "additionalProperties": False}
    return {"type": "json_schema", "json_schema": {"name": SCHEMA_NAME, "strict": True, "schema": schema}}


def _guided(constraint: OutputConstraint, endpoint: Endpoint) -> dict[str, Any]:
    new = endpoint.kind != "vllm" or endpoint.version >= _VLLM_STRUCTURED_OUTPUTS
    key: str
    value: object
    if constraint.grammar is None and constraint.choices is not None:
        key, value = "choice", list(dict.fromkeys(constraint.choices))
    else:
        regex = _regex(constraint)
        key, value = ("regex", regex) if regex is not None else ("grammar", constraint_grammar(constraint))
    return {"structured_outputs": {key: value}} if new else {f"guided_{key}": value}


def shape(constraint: OutputConstraint | None, path: OutputPath, endpoint: Endpoint) -> Shaped:
    """The extra request parameters that send ``constraint`` on ``path`` to ``endpoint``."""
    grammar = constraint_grammar(constraint)
    if constraint is None or grammar is None:
        return Shaped(None, {})
    if path == "llama_grammar":
        return Shaped(path, {"extra_body": {"grammar": grammar}})
    if path == "guided":
        return Shaped(path, {"extra_body": _guided(constraint, endpoint)})
    if path == "json_schema":
        response_format = _json_schema(constraint)
        if response_format is not None:
            return Shaped(path, {"response_format": response_format}, wrapped=True)
    return Shaped("parse", {})


def unwrap(text: str) -> str:
    """The ``move`` of a JSON-wrapped reply; the text itself when it is not such an object (the game's parser
    then rejects it and re-asks)."""
    try:
        data = json.loads(text)
    except ValueError:
        return text
    if isinstance(data, dict) and isinstance(data.get(MOVE_FIELD), str):
        return str(data[MOVE_FIELD])
    return text
