"""The rule bank: Dynamic Picnic rules collected from stored matches, de-duplicated, to be played again.

A generated match's log holds everything the game master wrote and the validator decided.
``playeval.library.collect_bank`` folds every ``dynamic_picnic`` match of a store whose rule was accepted and whose
held-out items were complete, and keeps one entry per rule (rules are the same when their statements are, after
``state.statement_key``): its validated items of both sides, its held-out items, the items the validator dropped,
its level and type, the models that wrote and checked it, and every match it came from. Items of a rule seen in
several matches are merged; an item validated on both sides across them is left out of both.

A bank is a JSON file (:meth:`RuleBank.save`, :meth:`RuleBank.load`). playeval ships one (:func:`shipped_bank`,
``data/default_bank.json``: hand-checked rules of every level and type, built by
``scripts/build_dynamic_picnic_bank.py``; ``data/PROVENANCE.md``), and a match plays from it by default
(``rules=bank``, ``bank`` empty): a small local game master rarely gets a rule and its items past its validator,
and a person starting the game should get a turn within seconds. ``--option bank=FILE`` plays another bank (and
``bank_rule=ID`` one rule of it): the match's setup holds the rule and its items, so the match needs no game master
and shows the same items in the same order. With ``rules=generated`` the game master writes the rule; a bank given
then holds rules it is told not to write again, and the bank (given, else shipped) the rule the match falls back
to when the game master's part fails (``game.DynamicPicnic``).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from importlib.resources import files
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from playeval.core.errors import ConfigError
from playeval.core.normalize import normalize_name
from playeval.games.dynamic_picnic.state import statement_key

BANK_FORMAT = "playeval.dynamic_picnic.rule_bank"
SHIPPED = "data/default_bank.json"
"""The shipped bank, inside the package ``playeval.games.dynamic_picnic``."""


class BankRule(BaseModel):
    """One banked rule (see the module's note). ``id`` is derived from the normalised statement."""

    model_config = ConfigDict(frozen=True)

    id: str
    statement: str
    level: int = Field(ge=1, le=3)
    type: str
    rated: int | None = None
    """The classifier's level (differs from ``level`` only in a match played with ``level_check=record``)."""
    positives: tuple[str, ...]
    negatives: tuple[str, ...]
    held_out: tuple[tuple[str, Literal["yes", "no"]], ...]
    dropped: tuple[str, ...] = ()
    game_master: str | None = None
    validator: str | None = None
    sources: tuple[str, ...] = ()
    """The ids of the matches it was written or validated in, oldest first."""

    @property
    def units(self) -> int:
        """Example units it can show (a unit: one item that follows it and one that does not)."""
        return min(len(self.positives), len(self.negatives))


class RuleBank(BaseModel):
    model_config = ConfigDict(frozen=True)

    format: str = BANK_FORMAT
    version: int = 1
    rules: tuple[BankRule, ...] = ()

    def of_level(self, level: int) -> tuple[BankRule, ...]:
        """The rules of ``level``, by id (a seeded draw from them does not depend on the file's order)."""
        return tuple(sorted((rule for rule in self.rules if rule.level == level), key=lambda rule: rule.id))

    def get(self, rule_id: str) -> BankRule:
        """The rule whose id is or starts with ``rule_id``; ``ConfigError`` when none or several match."""
        found = [rule for rule in self.rules if rule.id.startswith(rule_id)] if rule_id else []
        if len(found) != 1:
            raise ConfigError(f"the rule bank has {'no' if not found else 'several'} rule(s) with id {rule_id!r}")
        return found[0]

    def save(self, path: Path) -> None:
        path.write_text(self.model_dump_json(indent=1) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: Path | str) -> RuleBank:
        """The bank in the file at ``path``; ``ConfigError`` when it cannot be read as a rule bank."""
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as err:
            raise ConfigError(f"cannot read the rule bank {path}: {err.strerror or err}") from None
        return cls.parse(text, str(path))

    @classmethod
    def parse(cls, text: str, where: str) -> RuleBank:
        """The bank ``text`` holds (read from ``where``, named in errors); ``ConfigError`` when it is none."""
        try:
            bank = cls.model_validate(json.loads(text))
        except (ValueError, ValidationError) as err:
            raise ConfigError(f"{where} is not a rule bank: {str(err).splitlines()[0]}") from None
        if bank.format != BANK_FORMAT:
            raise ConfigError(f"{where} is not a rule bank (format {bank.format!r})")
        return bank


def shipped_bank() -> RuleBank:
    """The rule bank shipped with playeval (read afresh: a caller keeps it if it wants it kept)."""
    text = files("playeval.games.dynamic_picnic").joinpath(SHIPPED).read_text("utf-8")
    return RuleBank.parse(text, f"the shipped rule bank ({SHIPPED})")


def bank_at(path: str) -> RuleBank:
    """The bank of the ``bank`` option: the file at ``path``, the shipped bank when it is empty."""
    return RuleBank.load(path) if path else shipped_bank()


def rule_id(statement: str) -> str:
    return hashlib.sha256(statement_key(statement).encode("utf-8")).hexdigest()[:12]


def _unique(names: Iterable[str], leave_out: set[str]) -> tuple[str, ...]:
    seen: set[str] = set()
    kept: list[str] = []
    for name in names:
        key = normalize_name(name)
        if key not in seen and key not in leave_out:
            seen.add(key)
            kept.append(name)
    return tuple(kept)


def merge(first: BankRule, other: BankRule) -> BankRule:
    """One entry for a rule found twice: the first's statement, level, type and held-out items, the items of both
    (the other's held-out items become examples; an item on both sides is left out of both; no held-out item is an
    example), every source."""
    held = {normalize_name(item) for item, _ in first.held_out}
    yes = {normalize_name(name) for name in (*first.positives, *other.positives)} | \
        {normalize_name(item) for item, answer in (*first.held_out, *other.held_out) if answer == "yes"}
    no = {normalize_name(name) for name in (*first.negatives, *other.negatives)} | \
        {normalize_name(item) for item, answer in (*first.held_out, *other.held_out) if answer == "no"}
    conflicting = yes & no
    return first.model_copy(update={
        "positives": _unique((*first.positives, *other.positives,
                              *(item for item, answer in other.held_out if answer == "yes")), held | conflicting),
        "negatives": _unique((*first.negatives, *other.negatives,
                              *(item for item, answer in other.held_out if answer == "no")), held | conflicting),
        "dropped": _unique((*first.dropped, *other.dropped), set()),
        "sources": (*first.sources, *(source for source in other.sources if source not in first.sources))})


def add_rules(bank: RuleBank, found: Iterable[BankRule]) -> RuleBank:
    """``bank`` with ``found`` added, a rule already there merged into its entry."""
    by_key = {statement_key(rule.statement): rule for rule in bank.rules}
    for rule in found:
        key = statement_key(rule.statement)
        by_key[key] = merge(by_key[key], rule) if key in by_key else rule
    return bank.model_copy(update={"rules": tuple(sorted(by_key.values(), key=lambda r: (r.level, r.id)))})
