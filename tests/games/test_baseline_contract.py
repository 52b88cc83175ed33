"""The baseline contract, checked on every game of ``default_registry()`` (built-in or installed), so a new game
cannot leave it out:

* it declares a ``random`` baseline, and every baseline it declares can be made for each evaluated seat;
* it names two ``split_sets`` among its ``secret_sets``, and specs drawn from the two share no secret (the values of
  their hidden parts, ``Game.disclosures``), level by level;
* a baseline never reads a hidden part: in a whole match against the game's scripted players, each of its asks gets
  the same reply from the baseline made for a spec whose hidden parts are another match's, or empty;
* the game's scripted player (the strong policy, ``core.scripted``) wins at least as often as the ``random``
  baseline over 20 seeds.

The games' own baseline tests (``test_*_baselines.py``) check each game's baselines in detail; this module holds
every game to the same minimum.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import pytest
from baseline_kit import Checked, play, rejected, same_replies, scripted_table

from playeval.core.baselines import RANDOM, game_baselines, make_baseline_player
from playeval.core.errors import ConfigError
from playeval.core.game import Game, evaluated_seats, split_sets_of
from playeval.core.match import MatchSpec
from playeval.core.normalize import normalize_name
from playeval.core.registry import default_registry
from playeval.models import ModelHub

REGISTRY = default_registry()
GAMES: tuple[str, ...] = tuple(REGISTRY.ids())
DRAWS = 600
"""Specs drawn from each split set at each level: enough that two Undercover pairs sharing a word, one in each half,
were both drawn (at 200 draws neither was)."""
SEEDS = 20
"""Seeds of the strong-against-random comparison."""
SHOWN_ITEM: Mapping[str, tuple[str, ...]] = {"bluffing": ("statement",)}
"""Games whose hidden part is only a verdict on an item the evaluated seat is shown, named here with the params that
hold the item: Bluffing hides whether its statement is true, so the secret a set holds is the statement (the truth,
true or false, is in both halves). A game's split is compared on these params instead of its hidden parts."""


def _game(game_id: str) -> Game[Any]:
    return REGISTRY.get(game_id)


def _spec(game: Game[Any], level: int, seed: int, secret_set: str | None = None) -> MatchSpec:
    return game.new_spec(level, seed, random.Random(seed), secret_set=secret_set)


def _levels(game: Game[Any]) -> list[int]:
    return [info.level for info in game.levels]


def _secrets(game: Game[Any], spec: MatchSpec) -> set[str]:
    """What a spec holds secret, normalised (``a Lamp`` and ``lamps`` are one secret): the values of its hidden
    parts, or for a game in ``SHOWN_ITEM`` the item its verdict is about."""
    shown = SHOWN_ITEM.get(game.id)
    values = [spec.params.get(key) for key in shown] if shown else [part.value for part in game.disclosures(spec)]
    return {normalize_name(str(value)) for value in values if value is not None and str(value).strip()}


def _hidden_replaced(game: Game[Any], spec: MatchSpec) -> list[MatchSpec]:
    """``spec`` with its hidden setup emptied, and with the setup of another seed of the same level and set: one drawn
    under the same public params and table where one of the next 300 seeds draws it, else any other (Bluffing's
    statement decides its truth, so another truth comes with another statement). A player that reads only its asks
    and the params cannot tell these from ``spec``."""
    secret_set = str(spec.params["secret_set"]) if "secret_set" in spec.params else None
    fallback: MatchSpec | None = None
    for seed in range(spec.seed + 1, spec.seed + 301):
        other = _spec(game, spec.level, seed, secret_set)
        if other.seats != spec.seats or other.setup == spec.setup:
            continue
        if other.params == spec.params:
            fallback = other
            break
        fallback = fallback or other
    assert fallback is not None, f"{game.id}: 300 seeds drew no other setup"
    return [spec.model_copy(update={"setup": {}}), spec.model_copy(update={"setup": fallback.setup})]


async def _match(game: Game[Any], spec: MatchSpec, held: Mapping[str, Any], hub: ModelHub
                 ) -> tuple[Any, list[Any]]:
    outcome, events = await play(game, spec, scripted_table(game, spec, held, hub))
    return outcome, events


# -- declared -------------------------------------------------------------------------------------


@pytest.mark.parametrize("game_id", GAMES)
def test_a_random_baseline_is_declared_and_every_baseline_plays_every_evaluated_seat(game_id: str) -> None:
    game = _game(game_id)
    declared = game_baselines(game)
    names = [info.name for info in declared]
    assert RANDOM in names, f"{game_id} declares no random baseline (core.baselines): {names}"
    assert len(set(names)) == len(names) and all(info.description.strip() for info in declared)
    for level in _levels(game):
        spec = _spec(game, level, level)
        seats = evaluated_seats(game, spec)
        assert seats
        for seat in seats:
            for name in names:
                player = make_baseline_player(game, name, seat, spec)
                assert (player.kind, player.model) == ("scripted", None), (game_id, name, seat)
                assert callable(getattr(player, "act", None))


# -- split sets -----------------------------------------------------------------------------------


@pytest.mark.parametrize("game_id", GAMES)
def test_the_split_sets_share_no_secret_at_any_level(game_id: str) -> None:
    """200 specs drawn from each set at each level: no secret of one is a secret of the other. A level that refuses
    a set with a ``ConfigError`` is passed over, but some level must draw from both."""
    game = _game(game_id)
    pair = split_sets_of(game)
    assert pair is not None, f"{game_id} names no split_sets (two secret sets that share no secret)"
    first, second = pair
    assert first != second and {first, second} <= set(game.secret_sets), pair
    compared = 0
    for level in _levels(game):
        try:
            drawn = [[_spec(game, level, seed, name) for seed in range(DRAWS)] for name in pair]
        except ConfigError as err:
            assert str(err).strip(), f"{game_id} L{level}: a ConfigError without a message"
            continue
        if game.id in SHOWN_ITEM:  # its hidden parts are only verdicts (true or false): nothing to share but those
            verdicts = {str(part.value) for specs in drawn for spec in specs for part in game.disclosures(spec)}
            assert len(verdicts) <= 2, f"{game_id} hides more than a verdict: {sorted(verdicts)[:5]}"
        held = [set().union(*(_secrets(game, spec) for spec in specs)) for specs in drawn]
        assert all(held), f"{game_id} L{level}: a set's specs hold no secret"
        shared = held[0] & held[1]
        assert not shared, f"{game_id} L{level}: {first} and {second} share {sorted(shared)}"
        assert all(spec.params.get("secret_set") == name for name, specs in zip(pair, drawn, strict=True)
                   for spec in specs if "secret_set" in spec.params)
        compared += 1
    assert compared, f"{game_id}: no level draws from both of {pair}"


# -- blind to the hidden parts --------------------------------------------------------------------


def _baseline_cases() -> list[tuple[str, str]]:
    return [(game_id, info.name) for game_id in GAMES for info in game_baselines(_game(game_id))]


@pytest.mark.parametrize(("game_id", "name"), _baseline_cases())
async def test_a_baseline_reads_no_hidden_part(game_id: str, name: str) -> None:
    """A whole match (level 1, the baseline in every evaluated seat, the game's scripted players in the others and
    in the roles): every reply it made was legal for its ask, nothing was refused, and each ask gets the same reply
    from the baseline made for the spec with its hidden parts emptied or another seed's."""
    game = _game(game_id)
    spec = _spec(game, 1, 7)
    others = _hidden_replaced(game, spec)
    held = {seat: Checked(game.baseline_player(name, seat, spec)) for seat in evaluated_seats(game, spec)}
    async with ModelHub(use_cache=False) as hub:
        outcome, events = await _match(game, spec, held, hub)
    assert outcome.status == "finished", outcome.reason
    assert rejected(events) == []
    compared = 0
    for seat, player in held.items():
        compared += await same_replies(game, name, seat, spec, player.asks, others)
    assert compared >= 1


# -- the strong policy beats chance ---------------------------------------------------------------


@pytest.mark.parametrize("game_id", GAMES)
async def test_the_scripted_player_wins_at_least_as_often_as_the_random_baseline(game_id: str) -> None:
    """Twenty seeds, levels in turn, default options. Each seed is played twice, the scripted player and the random
    baseline taking every other evaluated seat, then the other way round, so each seat is held once by each; the
    rate is the share of its seats each won. Measured (scripted, random): Akinator 1.00 / 0.05; Bluffing 1.00 / 0.55
    (random's coin against the share of true statements); Taboo 1.00 / 0.30 (random wins when it happens never to
    say the word, the paper's rule); the four rule games 1.00 / 0.00; Undercover, per seat at mixed tables,
    0.71 / 0.44. The games' own baseline tests pin their rates; this one holds every game to the order."""
    game = _game(game_id)
    levels = _levels(game)
    won = {"scripted": 0, RANDOM: 0}
    held_seats = {"scripted": 0, RANDOM: 0}
    async with ModelHub(use_cache=False) as hub:
        for seed in range(SEEDS):
            spec = _spec(game, levels[seed % len(levels)], seed)
            seats = evaluated_seats(game, spec)
            for turn in (0, 1):
                who = {seat: "scripted" if (index + turn) % 2 == 0 else RANDOM for index, seat in enumerate(seats)}
                held = {seat: game.scripted_player(seat, spec) if kind == "scripted"
                        else game.baseline_player(RANDOM, seat, spec) for seat, kind in who.items()}
                outcome, _ = await _match(game, spec, held, hub)
                assert outcome.status == "finished", (game_id, seed, outcome.reason)
                for seat, kind in who.items():
                    held_seats[kind] += 1
                    won[kind] += bool(outcome.result_for(seat).won)
    rates = {kind: won[kind] / held_seats[kind] for kind in won}
    assert rates["scripted"] >= rates[RANDOM], (game_id, rates)
