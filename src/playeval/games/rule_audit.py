"""Every shipped rule of the rule games, with what one of its matches can show (``guess_rule.audit.RuleSupply``).

The counts are of turn 1: the units a match offers then and the first check's items. A later guess's check takes
fresh items from the rule's reserve and, while more than ten would stay unshown, from units not yet shown
(``guess_rule.base``): the units beyond turn 1 counted here are what a player who guesses rightly, or not at
all, can be shown, and a wrong guess never takes the last ten of them.

The counts follow each game's own drawing code, named beside each function; ``tests/games/test_rule_audit.py``
checks them against matches the games set up, so a change to a game's drawing that is not made here fails there.
A rule's counts do not depend on the match's seed: the seed orders the items, it does not change how many there are
(the negatives of the picnic games are far more than the positives).

* Static Picnic (``static_picnic.rules.StaticPicnic.new_spec``): of a rule's P items, min(5, P // 2) go to the
  check with as many items it refuses; the rest, at most ``MAX_UNITS``, are the example units.
* Code Functions Picnic (``functions_picnic.examples.listed_round``): 10 held-out words, 5 of each side, then up to
  ``MAX_UNITS`` units from what is left of each side. The truth values come from running each library rule in the
  sandbox on the packaged word list (``RuleEvaluator``), as a match's setup does.
* Math Game (``math.sequences.draw_rule``): a rule is its steps and its start; every rule ``draw_rule`` can return is
  enumerated (operations, operands and the start's factor from 1 to 9), and each valid one shows
  ``SEQUENCE_LENGTH`` values and checks ``HELD_OUT`` next values.
* Dynamic Picnic: the rule bank shipped with playeval (``bank.shipped_bank``), which a match plays by default, and
  any bank file given, each rule counted as ``game.DynamicPicnic`` plays it (its examples, at most as many units as
  the shorter side, and its held-out items). A rule the game master generates is not shipped, so not counted.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from pathlib import Path

from playeval.core.info import GameOption
from playeval.games.dynamic_picnic.bank import RuleBank, shipped_bank
from playeval.games.dynamic_picnic.game import DynamicPicnic
from playeval.games.functions_picnic.game import HELD_OUT as FUNCTION_HELD_OUT
from playeval.games.functions_picnic.game import MAX_UNITS as FUNCTION_UNITS
from playeval.games.functions_picnic.game import FunctionsPicnic
from playeval.games.functions_picnic.library import LIBRARY
from playeval.games.math.rules import MathGame
from playeval.games.math.sequences import SEQUENCE_LENGTH, MathRule, Op, Step, held_out
from playeval.games.static_picnic.data import load_items, load_rules
from playeval.games.static_picnic.rules import HELD_OUT_PER_SIDE, MAX_UNITS, StaticPicnic
from playeval.guess_rule.audit import RuleSupply
from playeval.sandbox import Sandbox

RULE_GAMES: tuple[str, ...] = ("static_picnic", "functions_picnic", "math", "dynamic_picnic")
PAIR = 2
"""Things seen in one unit of a picnic game: an item (word) that may come and one that may not."""


def _first(options: Sequence[GameOption]) -> int:
    """The game's default ``num_init_examples``: the units turn 1 shows."""
    return int(next(option.default for option in options if option.name == "num_init_examples"))


def static_picnic() -> Iterator[RuleSupply]:
    first = _first(StaticPicnic.options)
    items = len(load_items())
    for rule in load_rules():
        positives = len(rule.positives)
        kept = min(HELD_OUT_PER_SIDE, positives // 2)
        units = min(positives - kept, MAX_UNITS, items - positives - kept)
        yield RuleSupply(game="static_picnic", level=rule.level, rule=rule.id, units=units, first=first,
                         check=2 * kept, per_unit=PAIR)


def listed_counts(positives: int, negatives: int, held: int, most: int) -> tuple[int, int]:
    """(units, check items) of ``functions_picnic.examples.listed_round`` for a rule true on ``positives`` words and
    false on ``negatives``: ``held`` balanced held-out words (none when a side is too small: the round cannot be
    drawn), then up to ``most`` units of what is left."""
    side = held // 2
    if positives < side or negatives < held - side:
        return 0, 0
    return min(most, positives - side, negatives - (held - side)), held


def functions_picnic(sandbox: Sandbox | None = None) -> Iterator[RuleSupply]:
    """Runs every library rule on the word list in the sandbox (``sandbox``, else the process's default one)."""
    from playeval.games.functions_picnic.checks import RuleEvaluator  # only this game runs code to be counted

    first = _first(FunctionsPicnic.options)
    evaluator = RuleEvaluator(sandbox=sandbox)
    for rule in LIBRARY:
        truth = evaluator.truth(rule.source)
        yes = sum(1 for value in truth.values() if value)
        units, check = listed_counts(yes, len(truth) - yes, FUNCTION_HELD_OUT, FUNCTION_UNITS)
        yield RuleSupply(game="functions_picnic", level=rule.level, rule=rule.id, units=units, first=first,
                         check=check, per_unit=PAIR)


_OPS: tuple[Op, ...] = ("add", "sub", "mul", "div")


def _steps(negative: bool) -> list[Step]:
    """Every step ``sequences._step`` can draw."""
    if negative:
        return [Step(op, -operand) for op in ("mul", "div") for operand in range(2, 5)]
    return [Step(op, operand) for op in _OPS for operand in (range(1, 13) if op in ("add", "sub") else range(2, 5))]


def math_rules(level: int) -> Iterator[MathRule]:
    """Every rule ``sequences.draw_rule`` can return at ``level`` (without a secret set: both halves are in it)."""
    if level == 3:
        pairs: Iterator[tuple[Step, Step]] = ((even, odd) for even, odd in itertools.product(_steps(False), repeat=2)
                                              if even != odd)
    else:
        pairs = ((step, step) for step in _steps(level == 2))
    for even, odd in pairs:
        factor = 1
        for index in range(SEQUENCE_LENGTH - 1):
            step = even if index % 2 == 0 else odd
            if step.op == "div":
                factor *= abs(step.operand)
        for base in range(1, 10):
            rule = MathRule(even=even, odd=odd, start=base * factor, spread_check=True)
            if rule.sequence() is not None and held_out(rule) is not None:
                yield rule


def math() -> Iterator[RuleSupply]:
    game = MathGame()
    first = _first(MathGame.options)
    for level in (1, 2, 3):
        for rule in math_rules(level):
            yield RuleSupply(game="math", level=level, rule=f"{rule.describe()}; start {rule.start}",
                             units=game.example_total(rule), first=first, check=len(game.held_out(rule)))


def dynamic_picnic(bank: Path | None = None) -> Iterator[RuleSupply]:
    """The shipped bank's rules (``rule`` ids ``shipped:<id>``), then ``bank``'s (their plain ids)."""
    first = _first(DynamicPicnic.options)
    banks = [("shipped:", shipped_bank())] + ([("", RuleBank.load(bank))] if bank is not None else [])
    for prefix, found in banks:
        for rule in found.rules:
            yield RuleSupply(game="dynamic_picnic", level=rule.level, rule=f"{prefix}{rule.id}", units=rule.units,
                             first=first, check=len(rule.held_out), per_unit=PAIR)


def every_rule(games: Sequence[str] = RULE_GAMES, *, bank: Path | None = None,
               sandbox: Sandbox | None = None) -> tuple[RuleSupply, ...]:
    """The shipped rules of ``games``, by game, then level, then rule."""
    unknown = [name for name in games if name not in RULE_GAMES]
    if unknown:
        raise ValueError(f"not a rule game: {', '.join(unknown)} (the rule games: {', '.join(RULE_GAMES)})")
    found: list[RuleSupply] = []
    for name in games:
        supplies = (static_picnic() if name == "static_picnic" else functions_picnic(sandbox)
                    if name == "functions_picnic" else math() if name == "math" else dynamic_picnic(bank))
        found.extend(sorted(supplies, key=lambda item: (item.level, item.rule)))
    return tuple(found)
