"""Undercover's baseline seats (random, naive), its strong scripted seat, and its two halves of concept categories."""

from __future__ import annotations

import hashlib
import random
import re

import pytest
from baseline_kit import Checked, fits, play, rejected, same_replies

from playeval.core.baselines import NAIVE, RANDOM, make_baseline_player
from playeval.core.errors import ConfigError
from playeval.core.events import ActionApplied
from playeval.core.match import MatchSpec
from playeval.core.normalize import normalize_name
from playeval.games.undercover import CIVILIAN, JUDGE, UNDERCOVER, Undercover
from playeval.games.undercover.pairs import categories, load_pairs
from playeval.games.undercover.players import GENERIC_SENTENCES, RandomSeat
from playeval.games.undercover.sets import HALVES, SPLIT_SETS

game = Undercover()


def new_spec(seed: int, secret_set: str | None = None, **options: int) -> MatchSpec:
    return game.new_spec(1, seed, random.Random(seed), secret_set=secret_set, options=options or None)


def with_setup(spec: MatchSpec, setup: dict[str, object]) -> MatchSpec:
    return spec.model_copy(update={"setup": setup})


def seats_of(spec: MatchSpec, who: str) -> dict[str, object]:
    """Every seat held by ``who`` (a baseline's name, or ``scripted``), and the scripted judge."""
    players: dict[str, object] = {seat: game.scripted_player(seat, spec) if who == "scripted" else
                                  game.baseline_player(who, seat, spec) for seat in spec.seats}
    return {**players, JUDGE: game.scripted_player(JUDGE, spec)}


def test_the_seats_baselines_are_declared_and_only_for_a_seat() -> None:
    assert [info.name for info in game.baselines] == [RANDOM, NAIVE]
    spec = new_spec(1)
    for name in (RANDOM, NAIVE):
        assert make_baseline_player(game, name, "player3", spec).kind == "scripted"
        for party in (JUDGE, "player8"):  # a role, and a seat this table of six does not have
            with pytest.raises(ConfigError):
                game.baseline_player(name, party, spec)


@pytest.mark.parametrize("name", [RANDOM, NAIVE])
@pytest.mark.parametrize("options", [{}, {"players": 8, "undercover": 3, "max_rounds": 12},
                                     {"players": 4, "undercover": 1}])
async def test_baselines_play_whole_matches_with_legal_moves_only(name: str, options: dict[str, int]) -> None:
    for seed in range(5):
        spec = new_spec(seed, **options)
        players = {party: Checked(player) for party, player in seats_of(spec, name).items()}
        outcome, events = await play(game, spec, players)
        assert outcome.status == "finished" and rejected(events) == []
        assert not any(result.forfeited for result in outcome.results)


@pytest.mark.parametrize("name", [RANDOM, NAIVE])
async def test_baselines_never_read_a_word_or_a_side(name: str) -> None:
    """The same ask, a spec holding another pair with the sides swapped, or no hidden part at all: the same reply."""
    compared = 0
    for seed in range(3):
        spec = new_spec(seed)
        checked = {seat: Checked(game.baseline_player(name, seat, spec)) for seat in spec.seats}
        await play(game, spec, {**checked, JUDGE: game.scripted_player(JUDGE, spec)})
        other = new_spec(seed + 100)
        swapped = {seat: UNDERCOVER if side == CIVILIAN else CIVILIAN for seat, side in spec.setup["sides"].items()}
        others = [with_setup(spec, {**other.setup, "sides": swapped}), with_setup(spec, {})]
        for seat, player in checked.items():
            compared += await same_replies(game, name, seat, spec, player.asks, others)
    assert compared >= 30


def test_the_generic_sentences_name_no_word_of_any_pair_and_are_accepted() -> None:
    words = {normalize_name(word) for pair in load_pairs() for word in (pair.civilian, pair.undercover)}
    spec = new_spec(2)
    state = game.initial_state(spec)
    [ask] = game.next_asks(state)
    assert ask.kind == "statement"
    for sentence in GENERIC_SENTENCES:
        assert not set(normalize_name(sentence).split()) & words, sentence
        assert fits(ask, sentence) and game.parse(state, ask, sentence).text == sentence
    assert len({normalize_name(sentence) for sentence in GENERIC_SENTENCES}) == len(GENERIC_SENTENCES)


async def test_the_random_seat_says_nothing_twice_even_when_its_sentences_run_out() -> None:
    spec = new_spec(4)
    state = game.initial_state(spec)
    history = "\n".join(f"Round 1, player{n % 6 + 1}: {s}" for n, s in enumerate(GENERIC_SENTENCES))
    [ask] = game.next_asks(state)
    ask = ask.model_copy(update={"messages": (*ask.messages[:-1], ask.messages[-1].model_copy(
        update={"content": f"Round 3.\nWhat has been said so far:\n{history}\nYour turn."})),
        "display": "Round 3. Your word: x."})
    reply = (await RandomSeat(spec).act(ask)).text
    assert reply.endswith(f", says {ask.seat} in round 3.") and fits(ask, reply)
    assert normalize_name(reply) not in {normalize_name(s) for s in GENERIC_SENTENCES}


async def test_the_naive_seat_describes_nothing_and_votes_at_random() -> None:
    targets: set[str] = set()
    for seed in range(6):
        spec = new_spec(seed)
        _, events = await play(game, spec, seats_of(spec, NAIVE))
        for event in events:
            if isinstance(event, ActionApplied) and event.action.kind == "statement":
                assert re.fullmatch(r"Nothing to add from player\d in round \d+\.", event.action.text)
            if isinstance(event, ActionApplied) and event.action.kind == "vote":
                targets.add(event.action.text)
    assert len(targets) == 6


async def test_the_strong_seat_wins_clearly_more_often_than_the_baselines() -> None:
    """40 seeded tables of six (two undercover agents, the scripted judge), one side held by the player measured
    and the other by the random baseline. The civilians won 40 when the scripted (strong) player held them and 8
    with the random baseline; the undercover agents won 38 scripted and 32 random (two agents voting together put
    a civilian out each round; the naive baseline, voting at random too, won 12 and 32 on these seeds). Seats taken
    in turn by the scripted player and the random baseline at one table: the scripted seats won 84 of 120, the
    random ones 52 of 120. (The random draws are seeded by what each seat was shown, so the counts moved when a
    seat's asks became one growing conversation: before, 40 / 12, 40 / 28, and 88 / 48.)"""
    wins = {(side, who): 0 for side in (CIVILIAN, UNDERCOVER) for who in ("scripted", RANDOM)}
    shared = {"scripted": 0, RANDOM: 0}
    for seed in range(40):
        spec = new_spec(seed)
        sides = spec.setup["sides"]
        for side, who in wins:
            measured, others = seats_of(spec, who), seats_of(spec, RANDOM)
            players = {party: measured[party] if sides.get(party) == side else others[party] for party in others}
            outcome, _ = await play(game, spec, players)
            wins[(side, who)] += outcome.winning_team == side
        turns = {seat: "scripted" if index % 2 == 0 else RANDOM for index, seat in enumerate(spec.seats)}
        mixed = {seat: seats_of(spec, who)[seat] for seat, who in turns.items()}
        outcome, _ = await play(game, spec, {**mixed, JUDGE: game.scripted_player(JUDGE, spec)})
        for result in outcome.results:
            shared[turns[result.seat]] += bool(result.won)
    assert wins == {(CIVILIAN, "scripted"): 40, (CIVILIAN, RANDOM): 8, (UNDERCOVER, "scripted"): 38,
                    (UNDERCOVER, RANDOM): 32}
    assert shared == {"scripted": 84, RANDOM: 52}


def test_the_halves_are_disjoint_unions_of_whole_categories_about_half_the_pairs_each() -> None:
    assert game.split_sets == SPLIT_SETS == ("half1", "half2") and set(SPLIT_SETS) <= set(game.secret_sets)
    one, two = (set(HALVES[name]) for name in SPLIT_SETS)
    assert one.isdisjoint(two) and one | two == set(categories())
    counts = [sum(1 for pair in load_pairs() if pair.category in half) for half in (one, two)]
    assert counts == [207, 199] and sum(counts) == len(load_pairs())
    words = [{normalize_name(word) for pair in load_pairs() if pair.category in half
              for word in (pair.civilian, pair.undercover)} for half in (one, two)]
    assert words[0].isdisjoint(words[1])  # milk (drinks, food) and stream (landforms, verbs-motion): one half each
    for half in (one, two):  # each half holds every part of speech
        assert {pair.pos for pair in load_pairs() if pair.category in half} == {"noun", "verb", "adjective"}


def test_a_half_or_a_category_is_drawn_from_and_the_default_draws_are_unchanged() -> None:
    for name in SPLIT_SETS:
        drawn = {new_spec(seed, name).setup["pair"]["category"] for seed in range(80)}
        assert drawn <= set(HALVES[name]) and len(drawn) > 8
    assert {new_spec(seed, "mammals").params["category"] for seed in range(10)} == {"mammals"}
    with pytest.raises(ConfigError, match="half1, half2"):
        new_spec(1, "half3")
    # the specs of 20 seeds with no set named, as drawn before the halves existed (seeded runs are unchanged)
    specs = "\n".join(new_spec(seed).model_dump_json() for seed in range(20))
    assert hashlib.sha256(specs.encode()).hexdigest()[:16] == "2a40f242604ab7b0"
