"""Loading the statement sets and personas shipped with the package (see data/PROVENANCE.md).

``half1`` and ``half2`` split ``ours`` in two halves that share no statement (``Bluffing.split_sets``, for a
held-out comparison): the statements grouped by topic, then every other one, so both halves hold 41 statements and
every topic splits evenly, or within one statement.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from typing import Any

from playeval.core.errors import ConfigError

STATEMENT_SETS = ("ours", "set1", "set2", "half1", "half2")
SPLIT_SETS = ("half1", "half2")
"""The two halves of ``ours`` (``Game.split_sets``)."""


@dataclass(frozen=True)
class Persona:
    """An invented person an LLM bluffer plays."""

    name: str
    age: int
    job: str
    home: str
    habits: tuple[str, ...]

    def describe(self) -> str:
        """One short paragraph, as the bluffer's system prompt shows it."""
        *first, last = self.habits
        habits = f"{', '.join(first)} and {last}" if first else last
        return f"{self.name}, {self.age}, who lives in {self.home}, is {_article(self.job)} {self.job}, {habits}."


def _article(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


def _read(name: str) -> Any:
    return json.loads(files("playeval.games.bluffing").joinpath("data", f"{name}.json").read_text("utf-8"))


@cache
def load_statements(name: str) -> tuple[str, ...]:
    """The statements of a named set: ``ours`` (written for playeval), ``set1`` and ``set2`` (the paper's B.2),
    ``half1`` and ``half2`` (the halves of ``ours``)."""
    if name not in STATEMENT_SETS:
        raise ConfigError(f"unknown bluffing statement set {name!r}; known: {', '.join(STATEMENT_SETS)}")
    if name in SPLIT_SETS:
        return _half(SPLIT_SETS.index(name))
    raw = _read(name)
    return tuple(str(item["statement"] if isinstance(item, dict) else item) for item in raw)


def _half(which: int) -> tuple[str, ...]:
    """Half ``which`` (0 or 1) of ``ours``: its statements grouped by topic (topics in the order they first come,
    statements in the file's order), then every other one, so each topic splits within one statement."""
    by_topic: dict[str, list[str]] = {}
    for item in _read("ours"):
        by_topic.setdefault(str(item["topic"]), []).append(str(item["statement"]))
    grouped = [statement for statements in by_topic.values() for statement in statements]
    return tuple(grouped[which::2])


@cache
def load_personas() -> tuple[Persona, ...]:
    """The invented people an LLM bluffer can play."""
    return tuple(Persona(name=str(item["name"]), age=int(item["age"]), job=str(item["job"]), home=str(item["home"]),
                         habits=tuple(str(habit) for habit in item["habits"])) for item in _read("personas"))
