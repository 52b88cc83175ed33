"""Bluffing's baseline questioners (random, naive), its strong scripted questioner, and its two halves of statements."""

from __future__ import annotations

import hashlib
import random

import pytest
from baseline_kit import Checked, play, rejected, same_replies

from playeval.core.baselines import NAIVE, RANDOM, make_baseline_player
from playeval.core.errors import ConfigError
from playeval.core.events import ActionApplied
from playeval.core.match import MatchSpec
from playeval.games.bluffing import BLUFFER, QUESTIONER, SPLIT_SETS, STATEMENT_SETS, Bluffing, load_statements
from playeval.games.bluffing.baselines import GENERIC_QUESTIONS

game = Bluffing()


def new_spec(seed: int, secret_set: str | None = None) -> MatchSpec:
    return game.new_spec(1, seed, random.Random(seed), secret_set=secret_set)


def with_truth(spec: MatchSpec, truth: str | None) -> MatchSpec:
    return spec.model_copy(update={"setup": {} if truth is None else {"secret": truth}})


def table(spec: MatchSpec, questioner: object) -> dict[str, object]:
    return {QUESTIONER: questioner, BLUFFER: game.scripted_player(BLUFFER, spec)}


def test_the_questioners_baselines_are_declared_and_only_for_the_questioner() -> None:
    assert [info.name for info in game.baselines] == [RANDOM, NAIVE]
    spec = new_spec(1)
    for name in (RANDOM, NAIVE):
        assert make_baseline_player(game, name, QUESTIONER, spec).kind == "scripted"
        with pytest.raises(ConfigError):
            game.baseline_player(name, BLUFFER, spec)
    with pytest.raises(ConfigError):
        game.baseline_player("oracle", QUESTIONER, spec)


@pytest.mark.parametrize("name", [RANDOM, NAIVE])
@pytest.mark.parametrize("secret_set", STATEMENT_SETS)
async def test_baselines_play_whole_matches_with_legal_moves_only(name: str, secret_set: str) -> None:
    for seed in range(8):
        spec = new_spec(seed, secret_set)
        outcome, events = await play(game, spec, table(spec, Checked(game.baseline_player(name, QUESTIONER, spec))))
        assert outcome.status == "finished" and outcome.winners and rejected(events) == []


@pytest.mark.parametrize("name", [RANDOM, NAIVE])
async def test_baselines_never_read_the_truth(name: str) -> None:
    """The same ask with the statement's truth turned round, or absent: the same reply."""
    compared = 0
    for seed in range(12):
        spec = new_spec(seed)
        player = Checked(game.baseline_player(name, QUESTIONER, spec))
        await play(game, spec, table(spec, player))
        flipped = "false" if spec.setup["secret"] == "true" else "true"
        compared += await same_replies(game, name, QUESTIONER, spec, player.asks,
                                       [with_truth(spec, flipped), with_truth(spec, None)])
    assert compared >= 12


async def test_the_random_questioner_asks_generic_questions_and_draws_its_verdict() -> None:
    verdicts: list[str] = []
    questions: list[str] = []
    for seed in range(40):
        spec = new_spec(seed)
        _, events = await play(game, spec, table(spec, game.baseline_player(RANDOM, QUESTIONER, spec)))
        said = [e.action for e in events if isinstance(e, ActionApplied) and e.action.seat == QUESTIONER]
        verdicts.append(said[-1].text)
        questions += [action.text.split(": ", 1)[1] for action in said[:-1]]
    assert set(verdicts) == {"True", "False"} and set(questions) <= set(GENERIC_QUESTIONS)
    assert 0 < len(questions) < 5 * 40  # some verdicts came before the fifth question


async def test_the_naive_questioner_says_true_at_once() -> None:
    for seed in range(6):
        spec = new_spec(seed)
        outcome, events = await play(game, spec, table(spec, game.baseline_player(NAIVE, QUESTIONER, spec)))
        said = [e.action for e in events if isinstance(e, ActionApplied)]
        assert [(a.kind, a.text) for a in said] == [("verdict", "True")] and outcome.rounds == 1
        assert (outcome.winners == (QUESTIONER,)) == (spec.setup["secret"] == "true")


async def test_the_strong_questioner_wins_clearly_more_often_than_the_baselines() -> None:
    """40 seeded matches on our statements: the scripted questioner (its verdict is the truth) won 40, the random
    baseline 23 and the naive one 17 (the share of true statements drawn)."""
    wins = {"scripted": 0, RANDOM: 0, NAIVE: 0}
    for seed in range(40):
        spec = new_spec(seed)
        for who in wins:
            questioner = game.scripted_player(QUESTIONER, spec) if who == "scripted" else \
                game.baseline_player(who, QUESTIONER, spec)
            outcome, _ = await play(game, spec, table(spec, questioner))
            wins[who] += outcome.winners == (QUESTIONER,)
    assert wins == {"scripted": 40, RANDOM: 23, NAIVE: 17}


def test_the_split_sets_are_disjoint_halves_of_our_statements() -> None:
    assert game.split_sets == SPLIT_SETS == ("half1", "half2") and set(SPLIT_SETS) <= set(game.secret_sets)
    one, two = (load_statements(name) for name in SPLIT_SETS)
    assert set(one).isdisjoint(two) and sorted(one + two) == sorted(load_statements("ours"))
    assert len(one) == len(two) == 41


def test_a_half_is_drawn_from_and_the_default_draws_are_unchanged() -> None:
    for name in SPLIT_SETS:
        drawn = {new_spec(seed, name).params["statement"] for seed in range(60)}
        assert drawn <= set(load_statements(name)) and len(drawn) > 20
        assert new_spec(2, name).params["secret_set"] == name
    with pytest.raises(ConfigError, match="half1"):
        new_spec(1, "half3")
    # the specs of 20 seeds with no set named, as drawn before the halves existed (seeded runs are unchanged)
    specs = "\n".join(new_spec(seed).model_dump_json() for seed in range(20))
    assert hashlib.sha256(specs.encode()).hexdigest()[:16] == "4e39adc093ff87ef"
