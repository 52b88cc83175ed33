"""The rule audit (issue 23 section 1): the counting on tiny made-up rules, the counts checked against the matches
the games set up, and the minimum every shipped rule of every rule game meets (issue 23), with Static Picnic's and
Dynamic Picnic's data also asserted on their own."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from playeval.games.dynamic_picnic import DynamicPicnic
from playeval.games.dynamic_picnic._scripted_rules import SCRIPTED_RULES
from playeval.games.dynamic_picnic.bank import BankRule, RuleBank, rule_id, shipped_bank
from playeval.games.functions_picnic import FunctionsPicnic
from playeval.games.math import MathGame, MathRule
from playeval.games.rule_audit import (
    RULE_GAMES,
    dynamic_picnic,
    every_rule,
    functions_picnic,
    listed_counts,
    math_rules,
    static_picnic,
)
from playeval.games.static_picnic import StaticPicnic
from playeval.guess_rule.audit import MIN_CHECK, MIN_UNITS, RuleSupply, short, summarize, table


def _supply(rule: str, units: int, check: int, *, level: int = 1, first: int = 2, per_unit: int = 2) -> RuleSupply:
    return RuleSupply(game="fake", level=level, rule=rule, units=units, first=first, check=check, per_unit=per_unit)


# -- the counting, on made-up rules ---------------------------------------------------------------------------------


def test_units_after_turn_one_and_what_they_show() -> None:
    deep = _supply("deep", units=14, check=10)
    assert (deep.beyond_first, deep.seen_beyond_first) == (12, 24)
    assert not deep.short_of()
    assert _supply("two", units=2, check=10).beyond_first == 0  # turn 1 shows every unit
    assert _supply("one", units=1, check=10).beyond_first == 0  # fewer units than turn 1 asks for: none left
    values = _supply("values", units=15, check=10, per_unit=1)
    assert (values.beyond_first, values.seen_beyond_first) == (13, 13)


def test_a_rule_is_short_under_either_minimum_and_just_meeting_it_is_enough() -> None:
    assert not _supply("exact", units=MIN_UNITS + 2, check=MIN_CHECK).short_of()
    assert _supply("few units", units=MIN_UNITS + 1, check=MIN_CHECK).short_of()
    assert _supply("few checks", units=40, check=MIN_CHECK - 1).short_of()
    assert not _supply("lower bar", units=5, check=4).short_of(min_units=3, min_check=4)


def test_counts_cannot_be_negative() -> None:
    with pytest.raises(ValueError):
        _supply("bad", units=-1, check=10)
    with pytest.raises(ValueError):
        _supply("bad", units=3, check=10, per_unit=0)


def test_the_summary_is_over_rules_per_game_and_level() -> None:
    supplies = [_supply("a", 4, 4), _supply("b", 12, 10), _supply("c", 30, 10), _supply("d", 20, 8, level=2)]
    one, two = summarize(supplies)
    assert (one.level, one.rules) == (1, 3)
    assert (one.units.low, one.units.median, one.units.high) == (2, 10.0, 28)
    assert (one.seen.low, one.seen.high) == (4, 56)
    assert (one.check.low, one.check.median, one.check.high) == (4, 10.0, 10)
    assert (one.short_units, one.short_check, one.short) == (1, 1, 1)  # "a" is under both, and counted once
    assert (two.rules, two.short_units, two.short_check, two.short) == (1, 0, 1, 1)
    assert [item.rule for item in short(supplies)] == ["a", "d"]
    assert "fake  1      3      2/10/28" in table((one, two))


# -- the counts are what the games' matches show -------------------------------------------------------------------


class _Picking(random.Random):
    """A seeded generator whose ``choice`` takes the element ``pick`` selects (a rule of the game's list)."""

    def __init__(self, seed: int, pick: Any) -> None:
        super().__init__(seed)
        self._pick = pick

    def choice(self, seq: Any) -> Any:
        return next(item for item in seq if self._pick(item))


def test_static_picnic_counts_are_every_rule_s_matches() -> None:
    game = StaticPicnic()
    for supply in static_picnic():
        spec = game.new_spec(supply.level, 3, _Picking(3, lambda rule, wanted=supply.rule: rule.id == wanted))
        assert spec.setup["rule"] == supply.rule
        round_ = game.rule_of(spec)
        assert game.example_total(round_) == supply.units, supply.rule
        assert len(game.held_out(round_)) == supply.check, supply.rule


def test_functions_picnic_counts_are_its_matches() -> None:
    counted = {item.rule: item for item in functions_picnic()}
    assert len(counted) > 100  # every library rule, run in the sandbox
    game = FunctionsPicnic()
    for seed in range(12):
        spec = game.new_spec(1 + seed % 3, seed, random.Random(seed))
        round_ = game.rule_of(spec)
        supply = counted[str(spec.setup["rule"])]
        assert (game.example_total(round_), len(game.held_out(round_))) == (supply.units, supply.check)


def test_listed_counts_follow_the_draw() -> None:
    assert listed_counts(500, 4000, 10, 30) == (30, 10)
    assert listed_counts(12, 4000, 10, 30) == (7, 10)  # 5 of the 12 are held out
    assert listed_counts(4, 4000, 10, 30) == (0, 0)  # too few to hold 5 out: no round can be drawn


def test_math_enumerates_every_rule_a_match_can_draw() -> None:
    game = MathGame()
    for level in (1, 2, 3):
        known = {(rule.even, rule.odd, rule.start) for rule in math_rules(level)}
        for seed in range(40):
            spec = game.new_spec(level, seed, random.Random(seed))
            rule = MathRule.from_setup(spec.setup["rule"])
            assert (rule.even, rule.odd, rule.start) in known, (level, seed)
    assert {item.units for item in every_rule(["math"])} == {15}


def test_dynamic_picnic_counts_a_bank_as_its_matches_play_it(tmp_path: Path) -> None:
    scripted = SCRIPTED_RULES[0]
    held = [(item, "yes") for item in scripted.positives[:5]] + [(item, "no") for item in scripted.negatives[:5]]
    entry = BankRule(id=rule_id(scripted.statement), statement=scripted.statement, level=scripted.level,
                     type=scripted.type, positives=scripted.positives[5:], negatives=scripted.negatives[5:],
                     held_out=tuple(held))  # type: ignore[arg-type]
    path = tmp_path / "bank.json"
    RuleBank(rules=(entry,)).save(path)
    counted = [item for item in dynamic_picnic(path) if item.rule == entry.id]
    game = DynamicPicnic()
    spec = game.new_spec(1, 4, random.Random(4), options={"rules": "bank", "bank": str(path)})
    state = game.initial_state(spec)
    assert len(counted) == 1
    assert (state.total, len(game.held_out(state.rule))) == (counted[0].units, counted[0].check)


def test_dynamic_picnic_counts_the_shipped_bank_as_its_default_matches_play_it() -> None:
    shipped = shipped_bank()
    counted = {item.rule: item for item in dynamic_picnic()}
    assert set(counted) == {f"shipped:{rule.id}" for rule in shipped.rules}  # the shipped bank, and nothing else
    game = DynamicPicnic()
    for rule in shipped.rules:
        spec = game.new_spec(rule.level, 4, random.Random(4), options={"bank_rule": rule.id})  # the default bank
        state = game.initial_state(spec)
        supply = counted[f"shipped:{rule.id}"]
        assert spec.setup["rule"] == rule.id and supply.level == rule.level
        assert (state.total, len(game.held_out(state.rule))) == (supply.units, supply.check), rule.statement


# -- the minimum every shipped rule must meet ------------------------------------------------------------------------


def test_every_shipped_rule_offers_ten_units_after_turn_one_and_ten_check_items() -> None:
    supplies = every_rule(RULE_GAMES)
    assert {item.game for item in supplies} == set(RULE_GAMES)
    under = short(supplies)
    listed = ", ".join(f"{item.game} {item.rule} ({item.beyond_first} units, {item.check} checks)"
                       for item in under[:10])
    assert not under, f"{len(under)} rules under the minimum, among them: {listed}"


def test_every_static_picnic_rule_meets_the_minimum_at_every_level() -> None:
    """The Static Picnic data (rebuilt for issue 23) on its own: every rule of every level meets the minimum, and
    each level keeps at least 30 rules to draw from."""
    supplies = every_rule(["static_picnic"])
    assert {item.level for item in supplies} == {1, 2, 3}
    for level in (1, 2, 3):
        assert sum(item.level == level for item in supplies) >= 30, level
    under = short(supplies)
    assert not under, ", ".join(f"{item.rule} ({item.beyond_first} units, {item.check} checks)" for item in under[:10])


def test_every_rule_of_dynamic_picnic_s_shipped_bank_meets_the_minimum() -> None:
    """The game's own row of the minimum above: every rule of the shipped bank, which a default match plays, offers
    ``MIN_UNITS`` units after turn 1 and ``MIN_CHECK`` check items."""
    supplies = every_rule(["dynamic_picnic"])
    assert len(supplies) == len(shipped_bank().rules) >= 15
    assert {item.level for item in supplies} == {1, 2, 3}
    under = short(supplies)
    assert not under, [(item.rule, item.beyond_first, item.check) for item in under]
    assert min(item.beyond_first for item in supplies) >= MIN_UNITS
    assert min(item.check for item in supplies) >= MIN_CHECK
