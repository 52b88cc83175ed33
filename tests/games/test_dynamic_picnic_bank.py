"""Dynamic Picnic's rule bank: collected from stored matches, de-duplicated and merged, saved and loaded, and
replayed in a new match with the same items and no game master."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from playeval.core import ConfigError
from playeval.core.events import ActionApplied, AskIssued, RoleAssignment, SeatAssignment
from playeval.core.normalize import normalize_name
from playeval.engine import play_match, state_from_events
from playeval.games.dynamic_picnic import (
    GAME_MASTER,
    SETS,
    TAXONOMY,
    VALIDATOR,
    BankRule,
    DynamicPicnic,
    RuleBank,
    add_rules,
    kinds_in,
    rule_id,
    set_of,
)
from playeval.games.dynamic_picnic.bank import shipped_bank
from playeval.guess_rule import JUDGE, PLAYER
from playeval.library import collect_bank
from playeval.store import Store

game = DynamicPicnic()
PARTIES = (PLAYER, JUDGE, GAME_MASTER, VALIDATOR)


async def _store_match(store: Store, level: int, seed: int, **options: str) -> str:
    """A generated match, played by the scripted players and stored."""
    spec = game.new_spec(level, seed, random.Random(seed), options={"rules": "generated", **options})
    match_id = store.create_match(spec=spec, seats=[SeatAssignment(seat=PLAYER, player_kind="scripted")],
                                  roles=[RoleAssignment(role=role, player_kind="scripted")
                                         for role in (JUDGE, GAME_MASTER, VALIDATOR)])
    await play_match(game, spec, {party: game.scripted_player(party, spec) for party in PARTIES}, store, match_id)
    return match_id


def _seed_of_type(level: int, rule_type: str, skip: int = 0) -> int:
    found = [seed for seed in range(200)
             if game.new_spec(level, seed, random.Random(seed), options={"rules": "generated"}).setup["type"]
             == rule_type]
    return found[skip]


async def test_rules_are_collected_once_with_their_items_and_every_source(tmp_path: Path) -> None:
    with Store.open(f"sqlite:///{tmp_path / 'b.db'}") as store:
        first = await _store_match(store, 1, _seed_of_type(1, "categorical"))
        again = await _store_match(store, 1, _seed_of_type(1, "categorical", skip=1))  # the same scripted rule
        other = await _store_match(store, 2, _seed_of_type(2, "logical"))
        bank = collect_bank(store)
        state = state_from_events(game, store.get_match(first).spec, store.events(first))
        second = state_from_events(game, store.get_match(again).spec, store.events(again))
    assert [rule.statement for rule in bank.rules] == ["Fruits", "Items that are edible but not sweet"]
    fruits = bank.rules[0]
    assert fruits.sources == (first, again) and fruits.level == 1 and fruits.type == "categorical"
    assert fruits.id == rule_id("fruit.") and fruits.game_master == "scripted"
    assert fruits.held_out == state.round.held_out and len(fruits.dropped) == 1
    held = {item for item, _ in fruits.held_out}
    assert not held & set(fruits.positives + fruits.negatives)
    # every item validated in either match is in the merged entry, once
    validated = {item for s in (state, second) for item in (*s.round.positives, *s.reserve_yes)}
    assert set(fruits.positives) | {item for item, answer in fruits.held_out if answer == "yes"} == validated
    assert second.round.held_out != state.round.held_out  # each match drew its own held-out items
    assert bank.rules[1].sources == (other,)


def test_merging_leaves_out_items_validated_on_both_sides() -> None:
    base = BankRule(id=rule_id("Red things"), statement="Red things", level=1, type="attribute",
                    positives=("apple", "cherry"), negatives=("sky", "grass"),
                    held_out=(("ruby", "yes"), ("snow", "no")), sources=("m1",))
    other = base.model_copy(update={"statement": "red things.", "positives": ("cherries", "tomato", "grass"),
                                    "negatives": ("sea",), "held_out": (("brick", "yes"),), "sources": ("m2",)})
    [merged] = add_rules(RuleBank(rules=(base,)), [other]).rules
    assert merged.statement == "Red things" and merged.sources == ("m1", "m2")
    # cherries folds into cherry; grass is on both sides; the other's held-out brick becomes an example
    assert merged.positives == ("apple", "cherry", "tomato", "brick")
    assert merged.negatives == ("sky", "sea") and merged.held_out == base.held_out


async def test_a_banked_rule_is_replayed_with_the_same_items_and_no_game_master(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'b.db'}"
    path = tmp_path / "bank.json"
    with Store.open(db) as store:
        source = await _store_match(store, 2, 4)
        collect_bank(store).save(path)
        original = state_from_events(game, store.get_match(source).spec, store.events(source))
    bank = RuleBank.load(path)
    [rule] = bank.rules
    spec = game.new_spec(2, 99, random.Random(99), options={"rules": "bank", "bank": str(path),
                                                            "num_init_examples": 2, "max_turns": 20})
    assert spec.setup["source"] == "bank" and spec.params["bank_rule"] == rule.id
    with Store.open(db) as store:
        replay = store.create_match(spec=spec, seats=[SeatAssignment(seat=PLAYER, player_kind="scripted")])
        outcome = await play_match(game, spec, {party: game.scripted_player(party, spec) for party in PARTIES},
                                   store, replay)
        events = store.events(replay)
    assert outcome.winner == PLAYER and outcome.result_for(PLAYER).score == 1.0
    parties = {event.party for event in events if isinstance(event, AskIssued)} | \
        {event.action.party for event in events if isinstance(event, ActionApplied)}
    # no game master, no validator; and no judge: the scripted solver states the rule, which the rules accept
    assert parties == {PLAYER}
    state = state_from_events(game, spec, events)
    assert state.round.statement == original.round.statement
    assert state.round.positives[:state.shown] == original.round.positives[:state.shown]
    assert state.round.negatives[:state.shown] == original.round.negatives[:state.shown]
    assert state.round.held_out == original.round.held_out
    # the same rule picked by (a prefix of) its id
    picked = game.new_spec(2, 1, random.Random(1), options={"rules": "bank", "bank": str(path),
                                                            "bank_rule": rule.id[:6]})
    assert picked.setup["statement"] == rule.statement


async def test_generating_with_a_bank_avoids_its_rules(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'b.db'}"
    path = tmp_path / "bank.json"
    seed = _seed_of_type(1, "semantic")
    with Store.open(db) as store:
        await _store_match(store, 1, seed)
        collect_bank(store).save(path)
        spec = game.new_spec(1, seed, random.Random(seed), options={"rules": "generated", "bank": str(path)})
        assert spec.setup["avoid"] == ["Items associated with the beach"]
        again = await _store_match(store, 1, seed, bank=str(path))
        state = state_from_events(game, store.get_match(again).spec, store.events(again))
        assert state.round.statement != "Items associated with the beach"  # another rule of the level
        assert len(collect_bank(store, into=RuleBank.load(path)).rules) == 2


def test_bank_errors_are_clear(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read the rule bank"):
        game.new_spec(1, 1, random.Random(1), options={"rules": "bank", "bank": str(tmp_path / "none.json")})
    (tmp_path / "bad.json").write_text('{"rules": 3}', encoding="utf-8")
    with pytest.raises(ConfigError, match="is not a rule bank"):
        RuleBank.load(tmp_path / "bad.json")
    RuleBank().save(tmp_path / "empty.json")
    with pytest.raises(ConfigError, match="no rule of level 3"):
        game.new_spec(3, 1, random.Random(1), options={"rules": "bank", "bank": str(tmp_path / "empty.json")})
    with pytest.raises(ConfigError, match="no rule"):
        RuleBank().get("abc")


async def test_a_banked_rule_runs_out_of_examples_and_the_form_then_only_guesses(tmp_path: Path) -> None:
    path = tmp_path / "bank.json"
    with Store.open(f"sqlite:///{tmp_path / 'b.db'}") as store:
        await _store_match(store, 1, 3)
        collect_bank(store).save(path)
    spec = game.new_spec(1, 5, random.Random(5), options={"rules": "bank", "bank": str(path)})
    state = game.initial_state(spec)
    assert state.total == RuleBank.load(path).rules[0].units
    ask = game.next_asks(state)[0]
    state = game.apply(state, game.parse(state, ask, f"MORE: {state.total - state.shown}"))
    move = next(form for form in game.panel(state, PLAYER).forms if form.kind == "move")
    assert [action.key for action in move.actions] == ["guess"] and move.note


# -- the bank shipped with playeval, played by default ---------------------------------------------------------------


def test_the_shipped_bank_is_what_its_source_builds() -> None:
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, str(root / "scripts" / "build_dynamic_picnic_bank.py"), "--check"],
                          capture_output=True, text=True, timeout=120, check=False,
                          env={**os.environ, "PYTHONPATH": str(root / "src")})
    assert done.returncode == 0, done.stdout + done.stderr
    shipped = root / "src" / "playeval" / "games" / "dynamic_picnic" / "data" / "default_bank.json"
    assert RuleBank.load(shipped) == shipped_bank()  # the bank's own format: a file the bank options read


def test_the_shipped_bank_has_every_level_and_type_and_both_halves_with_items_on_one_side_only() -> None:
    bank = shipped_bank()
    assert {(rule.level, rule.type) for rule in bank.rules} == {(level, kind.id) for level in (1, 2, 3)
                                                                for kind in TAXONOMY}
    for level in (1, 2, 3):
        for name in SETS:
            assert {rule.type for rule in bank.of_level(level) if set_of(level, rule.type) == name} == \
                {kind.id for kind in kinds_in(name, level)}
    for rule in bank.rules:
        assert rule.id == rule_id(rule.statement)
        yes = [normalize_name(item) for item in rule.positives] + \
            [normalize_name(item) for item, answer in rule.held_out if answer == "yes"]
        no = [normalize_name(item) for item in rule.negatives] + \
            [normalize_name(item) for item, answer in rule.held_out if answer == "no"]
        assert len(set(yes)) == len(yes) and len(set(no)) == len(no) and not set(yes) & set(no), rule.statement
        assert sorted(answer for _, answer in rule.held_out) == ["no"] * 5 + ["yes"] * 5


@pytest.mark.parametrize("level", [1, 2, 3])
async def test_a_default_match_plays_a_shipped_rule_and_asks_no_game_master(level: int, tmp_path: Path) -> None:
    shipped = {rule.id: rule for rule in shipped_bank().rules}
    specs = [game.new_spec(level, seed, random.Random(seed)) for seed in range(30)]
    assert {spec.setup["source"] for spec in specs} == {"bank"} and {spec.params["rules"] for spec in specs} == {"bank"}
    drawn = {spec.setup["rule"] for spec in specs}
    assert drawn == {rule.id for rule in shipped.values() if rule.level == level}  # every rule of the level, seeded
    for name in SETS:  # a secret set's half only
        for seed in range(10):
            spec = game.new_spec(level, seed, random.Random(seed), secret_set=name)
            assert set_of(level, shipped[spec.setup["rule"]].type) == name
    with Store.open(f"sqlite:///{tmp_path / 'b.db'}") as store:
        spec = specs[0]
        match_id = store.create_match(spec=spec, seats=[SeatAssignment(seat=PLAYER, player_kind="scripted")])
        outcome = await play_match(game, spec, {party: game.scripted_player(party, spec) for party in PARTIES},
                                   store, match_id)
        events = store.events(match_id)
    assert outcome.winner == PLAYER
    assert {event.action.party for event in events if isinstance(event, ActionApplied)} == {PLAYER}
    assert game.initial_state(spec).round.statement == shipped[spec.setup["rule"]].statement


@pytest.mark.parametrize("level", [1, 2, 3])
def test_a_generated_match_has_a_shipped_rule_of_its_type_to_fall_back_to(level: int) -> None:
    for secret_set in (None, *SETS):
        for seed in range(12):
            spec = game.new_spec(level, seed, random.Random(seed), secret_set=secret_set,
                                 options={"rules": "generated"})
            fallback = spec.setup["fallback"]
            assert fallback["type"] == spec.setup["type"] and "statement" not in spec.setup
            assert shipped_bank().get(fallback["rule"]).level == level
