"""Two disjoint secret sets per guess-the-rule game (``--secret-set set1|set2``, ``split_sets``): the halves share
no rule, a spec drawn with a set uses only its half, a spec drawn without one is as it always was."""

from __future__ import annotations

import importlib.util
import json
import random
from importlib.resources import files
from pathlib import Path

import pytest

from playeval.core import ConfigError
from playeval.core.registry import default_registry
from playeval.games.dynamic_picnic import (
    GAME_MASTER,
    SETS,
    TAXONOMY,
    VALIDATOR,
    BankRule,
    DynamicPicnic,
    RuleBank,
    kinds_in,
    rule_id,
    set_of,
)
from playeval.games.dynamic_picnic._scripted_rules import SCRIPTED_RULES
from playeval.games.functions_picnic import LIBRARY, FunctionsPicnic, rule_by_id, rule_set, rules_at_level
from playeval.games.math import MathGame
from playeval.games.math import rule_set as math_rule_set
from playeval.games.static_picnic import StaticPicnic, load_rules, rules_of_level
from playeval.games.static_picnic.data import load_sets
from playeval.guess_rule import JUDGE, PLAYER, SECRET_SET, SECRET_SETS

GAMES = ("static_picnic", "dynamic_picnic", "functions_picnic", "math")
SEEDS = range(25)


@pytest.mark.parametrize("game_id", GAMES)
def test_every_rule_game_declares_two_named_sets_and_refuses_others(game_id: str) -> None:
    game = default_registry().get(game_id)
    assert game.secret_sets == SECRET_SETS == ("set1", "set2") and game.split_sets == SECRET_SETS
    with pytest.raises(ConfigError, match="no secret set 'set3' \\(it has: set1, set2\\)"):
        game.new_spec(1, 1, random.Random(1), secret_set="set3")
    spec = game.new_spec(1, 1, random.Random(1), secret_set="set2")
    assert spec.params[SECRET_SET] == "set2"
    assert SECRET_SET not in game.new_spec(1, 1, random.Random(1)).params  # no set named: the spec as it was


def test_default_draws_are_unchanged() -> None:
    """Pinned draws of seeded specs without a set (made before the sets existed; Static Picnic's re-pinned after
    its data was rebuilt for issue 23, and again after the rule-by-rule review): a seeded run plays the same."""
    assert [StaticPicnic().new_spec(level, 3, random.Random(3)).setup["rule"] for level in (1, 2, 3)] == [
        "L1:tree", "L2:large+mammal", "L3:vessel~bottle~jar"]
    assert [MathGame().new_spec(level, 3, random.Random(3)).setup["rule"] for level in (1, 2, 3)] == [
        {"even": ["sub", 10], "odd": ["sub", 10], "start": 9, "check": "spread"},
        {"even": ["mul", -4], "odd": ["mul", -4], "start": 9, "check": "spread"},
        {"even": ["sub", 10], "odd": ["sub", 6], "start": 8, "check": "spread"}]
    assert [DynamicPicnic().new_spec(1, seed, random.Random(seed), options={"rules": "generated"}).setup["type"]
            for seed in range(4)] == ["relational", "semantic", "attribute", "semantic"]
    assert [FunctionsPicnic().new_spec(level, 3, random.Random(3)).setup["rule"] for level in (1, 2, 3)] == [
        "L1.three-or-more-vowels", "L2.first-half-start-with-t", "L3.vowel-at-odd-positions"]


# -- Static Picnic: the categories split ---------------------------------------------------------------------------


def test_static_picnic_s_halves_split_the_categories_and_so_the_rules() -> None:
    halves = load_sets()
    assert set(halves) == set(SECRET_SETS) and not halves["set1"] & halves["set2"]
    raw = json.loads(files("playeval.games.static_picnic").joinpath("data/items.json").read_text("utf-8"))
    assert halves["set1"] | halves["set2"] == {category["id"] for category in raw["categories"]}
    for level in (1, 2, 3):
        first, second = (set(rules_of_level(level, name)) for name in SECRET_SETS)
        assert first and second and not first & second
        assert min(len(first), len(second)) >= {1: 35, 2: 50, 3: 30}[level]
        assert first | second <= set(rules_of_level(level))


def test_static_picnic_s_split_file_is_what_its_script_makes() -> None:
    script = Path(__file__).resolve().parents[2] / "scripts" / "split_static_picnic.py"
    loaded = importlib.util.spec_from_file_location("split_static_picnic", script)
    assert loaded is not None and loaded.loader is not None
    module = importlib.util.module_from_spec(loaded)
    loaded.loader.exec_module(module)
    raw = json.loads(files("playeval.games.static_picnic").joinpath("data/rules.json").read_text("utf-8"))
    listed = json.loads(files("playeval.games.static_picnic").joinpath("data/items.json").read_text("utf-8"))
    halves, _ = module.split(raw["rules"], (category["id"] for category in listed["categories"]))
    assert {name: frozenset(categories) for name, categories in halves.items()} == load_sets()


@pytest.mark.parametrize("level", [1, 2, 3])
def test_static_picnic_draws_only_rules_of_the_named_half(level: int) -> None:
    game, by_id = StaticPicnic(), {rule.id: rule for rule in load_rules()}
    for name in SECRET_SETS:
        drawn = {game.new_spec(level, seed, random.Random(seed), secret_set=name).setup["rule"] for seed in SEEDS}
        assert len(drawn) > 3 and all(set(by_id[rule].categories) <= load_sets()[name] for rule in drawn)


# -- Code Functions Picnic: the library split ----------------------------------------------------------------------


def test_functions_picnic_s_library_splits_into_alternate_rules() -> None:
    for level in (1, 2, 3):
        first, second = (set(rules_at_level(level, name)) for name in SECRET_SETS)  # type: ignore[arg-type]
        assert not first & second and first | second == set(rules_at_level(level))  # type: ignore[arg-type]
        assert abs(len(first) - len(second)) <= 1
    assert all(rule in rules_at_level(rule.level, rule_set(rule)) for rule in LIBRARY)


@pytest.mark.parametrize("level", [1, 2, 3])
def test_functions_picnic_draws_only_rules_of_the_named_half(level: int) -> None:
    game = FunctionsPicnic()
    for name in SECRET_SETS:
        drawn = {game.new_spec(level, seed, random.Random(seed), secret_set=name).setup["rule"] for seed in range(12)}
        assert len(drawn) > 3 and {rule_set(rule_by_id(str(rule))) for rule in drawn} == {name}
    with pytest.raises(ConfigError, match="rules=generated"):
        game.new_spec(level, 1, random.Random(1), secret_set="set1", options={"rules": "generated"})


# -- Math Game: the operations split -------------------------------------------------------------------------------


@pytest.mark.parametrize("level", [1, 2, 3])
def test_math_draws_only_rules_of_the_named_half(level: int) -> None:
    game = MathGame()
    for name in SECRET_SETS:
        rules = [game.rule_of(game.new_spec(level, seed, random.Random(seed), secret_set=name)) for seed in SEEDS]
        assert {math_rule_set(rule) for rule in rules} == {name}
        assert len({(rule.even, rule.odd) for rule in rules}) >= (3 if level == 2 else 6)
    anywhere = {math_rule_set(game.rule_of(game.new_spec(level, seed, random.Random(seed)))) for seed in SEEDS}
    assert {"set1", "set2"} <= anywhere  # without a set, both halves are drawn
    with pytest.raises(ConfigError, match="rules=generated"):
        game.new_spec(level, 1, random.Random(1), secret_set="set2", options={"rules": "generated"})


# -- Dynamic Picnic: the rule types split by level ----------------------------------------------------------------


def test_dynamic_picnic_s_types_split_by_level_and_so_its_scripted_rules() -> None:
    for level in (1, 2, 3):
        first, second = (set(kinds_in(name, level)) for name in SETS)
        assert first and second and not first & second and first | second == set(TAXONOMY)
    halves = [[rule for rule in SCRIPTED_RULES if set_of(rule.level, rule.type) == name] for name in SETS]
    assert sorted(len(half) for half in halves) == [7, 8] and sum(map(len, halves)) == len(SCRIPTED_RULES)
    assert {rule.type for rule in halves[0]} == {rule.type for rule in halves[1]} == {kind.id for kind in TAXONOMY}


@pytest.mark.parametrize("level", [1, 2, 3])
async def test_dynamic_picnic_draws_types_of_the_named_half_and_its_game_master_writes_its_rules(level: int) -> None:
    from playeval.core.events import RoleAssignment, SeatAssignment
    from playeval.engine import MemoryRecorder, play_match, state_from_events

    game = DynamicPicnic()
    for name in SETS:
        specs = [game.new_spec(level, seed, random.Random(seed), secret_set=name, options={"rules": "generated"})
                 for seed in SEEDS]
        assert {spec.setup["type"] for spec in specs} == {kind.id for kind in kinds_in(name, level)}
        spec = specs[0]
        parties = (PLAYER, JUDGE, GAME_MASTER, VALIDATOR)
        recorder = MemoryRecorder()
        match_id = recorder.create_match(spec=spec, seats=[SeatAssignment(seat=PLAYER, player_kind="scripted")],
                                         roles=[RoleAssignment(role=role, player_kind="scripted")
                                                for role in parties[1:]])
        outcome = await play_match(game, spec, {party: game.scripted_player(party, spec) for party in parties},
                                   recorder, match_id)
        state = state_from_events(game, spec, list(recorder.events[match_id]))
        [written] = [rule for rule in SCRIPTED_RULES if rule.statement == state.round.statement]
        assert outcome.winner == PLAYER and set_of(written.level, written.type) == name


def test_dynamic_picnic_s_bank_rules_are_drawn_from_the_named_half(tmp_path: Path) -> None:
    banked = tuple(BankRule(id=rule_id(rule.statement), statement=rule.statement, level=rule.level, type=rule.type,
                            positives=rule.positives[5:], negatives=rule.negatives[5:],
                            held_out=tuple((item, "yes") for item in rule.positives[:5])
                            + tuple((item, "no") for item in rule.negatives[:5]))
                   for rule in SCRIPTED_RULES if rule.level == 1)
    path = tmp_path / "bank.json"
    RuleBank(rules=banked).save(path)
    game = DynamicPicnic()
    options = {"rules": "bank", "bank": str(path)}
    for name in SETS:
        types = {game.new_spec(1, seed, random.Random(seed), secret_set=name, options=options).setup["type"]
                 for seed in SEEDS}
        assert types == {kind.id for kind in kinds_in(name, 1)}
    outside = next(rule for rule in banked if set_of(1, rule.type) == "set2")
    with pytest.raises(ConfigError, match="is not in set1"):
        game.new_spec(1, 1, random.Random(1), secret_set="set1", options={**options, "bank_rule": outside.id})
