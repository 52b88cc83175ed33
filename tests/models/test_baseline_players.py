"""``baseline/NAME`` plays a game's baseline player through the request's origin, never priced nor cached, and
``mock/skill?p=P&seed=S`` mixes the game's scripted player with its random baseline at a known rate."""

from __future__ import annotations

from pathlib import Path

import pytest
from baseline_games import NUMBERS, Pick, Plain, RandomPicker, SecretPicker

from playeval.core import Ask, MatchSpec
from playeval.core.messages import system, user
from playeval.core.rng import match_rng
from playeval.core.scripted import MatchContext
from playeval.models import ModelError, ModelHub, ModelRequest, UnknownModel
from playeval.models.pricing import Price, PriceTable
from playeval.models.providers.skill import SkillSettings, parse_skill

GAME = Pick()


def _spec(seed: int = 3) -> MatchSpec:
    return GAME.new_spec(1, seed, match_rng(seed))


def _ask(tried: tuple[str, ...] = (), attempt: int = 0) -> Ask:
    left = tuple(number for number in NUMBERS if number not in tried)
    ask = GAME.next_ask(GAME.initial_state(_spec()))
    return ask.model_copy(update={"messages": (system("Name it."), *(user(f"Not {n}.") for n in tried)),
                                  "constraint": ask.constraint.model_copy(update={"choices": left})
                                  if ask.constraint else None, "attempt": attempt})


def _request(ask: Ask, spec: MatchSpec, game: Pick | None = None) -> ModelRequest:
    return ModelRequest(messages=ask.messages, constraint=ask.constraint,
                        origin=MatchContext(game=game or GAME, spec=spec).origin(ask))


async def test_a_baseline_answers_as_the_games_baseline_player_would(tmp_path: Path) -> None:
    spec = _spec()
    async with ModelHub(cache_path=tmp_path / "cache.db") as hub:
        naive, random_ = hub.get("baseline/naive"), hub.get("baseline/random")
        assert naive.reads_origin and random_.reads_origin
        for tried in ((), ("1",), ("1", "3")):
            ask = _ask(tried)
            response = await naive.generate(_request(ask, spec))
            assert response.text == min(n for n in NUMBERS if n not in tried)
            assert (await random_.generate(_request(ask, spec))).text == (await RandomPicker(spec).act(ask)).text
            # no tokens, no cost, never cached (the cache is on for this hub)
            assert (response.prompt_tokens, response.completion_tokens, response.cost_usd) == (0, 0, 0.0)
            again = await naive.generate(_request(ask, spec))
            assert not again.cached and again.attempts == 1


async def test_a_baseline_outside_a_match_or_unknown_to_the_game_is_one_clear_error() -> None:
    spec = _spec()
    async with ModelHub(use_cache=False) as hub:
        with pytest.raises(ModelError, match=r"baseline/random plays a game's baseline player, so it answers only "
                                             r"a seat's move in a match, and this request comes from none"):
            await hub.get("baseline/random").generate(ModelRequest(messages=(user("hi"),)))
        with pytest.raises(ModelError, match=r"baseline/passive cannot play pick's picker: pick has no baseline "
                                             r"player 'passive' \(it offers: random, naive\)"):
            await hub.get("baseline/passive").generate(_request(_ask(), spec))
        plain = Plain()
        with pytest.raises(ModelError, match=r"plain has no baseline player 'random' \(it offers: none\)"):
            await hub.get("baseline/random").generate(_request(_ask(), spec, plain))
        for bad in ("baseline/Random", "baseline/random?p=1", "baseline/a b"):
            with pytest.raises(UnknownModel, match="is not a baseline's address: baseline/NAME"):
                hub.get(bad)


def test_a_baseline_is_never_priced() -> None:
    table = PriceTable({"baseline/*": Price(input=3.0, output=9.0), "mock/*": Price(input=0.0, output=0.0)})
    assert table.price("baseline/random") == Price(input=0.0, output=0.0)
    assert table.cost("baseline/naive", 1_000_000, 1_000_000) == 0.0
    assert PriceTable({}).price("baseline/random") is not None  # no entry: still nothing, not unknown
    assert PriceTable({}).price("openai/unknown") is None


def test_a_skill_address_parses() -> None:
    assert parse_skill("skill?p=0.8&seed=1") == SkillSettings(p=0.8, seed=1)
    assert parse_skill("skill?p=0") == SkillSettings(p=0.0, seed=0)
    assert parse_skill("skill?seed=-2&p=1") == SkillSettings(p=1.0, seed=-2)


@pytest.mark.parametrize(("name", "message"), [
    ("skill", "give the skill, the probability of the scripted player's move"),
    ("skill?seed=1", "give the skill"),
    ("skill?p=1.5", "p is a probability, between 0 and 1, not 1.5"),
    ("skill?p=-0.1", "p is a probability"),
    ("skill?p=nan", "p is a probability"),
    ("skill?p=high", "p must be a number, not 'high'"),
    ("skill?p=0.5&seed=1.5", "seed must be an integer, not '1.5'"),
    ("skill?p=0.5&p=0.6", "p is given twice"),
    ("skill?p=0.5&level=2", "unknown parameter 'level'; known: p, seed"),
    ("skill?p", "not name=value"),
])
async def test_a_bad_skill_is_refused_when_the_model_is_asked_for(name: str, message: str) -> None:
    async with ModelHub(use_cache=False) as hub:
        with pytest.raises(UnknownModel, match=message):
            hub.get(f"mock/{name}")


def _asks() -> list[Ask]:
    """Many different asks: every set of tried numbers up to two, each asked as a first try and a re-ask."""
    tried = [(), *((a,) for a in NUMBERS), *((a, b) for a in NUMBERS for b in NUMBERS if a < b)]
    return [_ask(t, attempt) for t in tried for attempt in (0, 1)]


async def _moves(address: str, spec: MatchSpec, asks: list[Ask]) -> list[str]:
    async with ModelHub(use_cache=False) as hub:
        model = hub.get(address)
        return [(await model.generate(_request(ask, spec))).text for ask in asks]


async def test_a_skill_of_one_plays_the_scripted_player_and_of_zero_the_random_baseline() -> None:
    spec, asks = _spec(), _asks()
    assert await _moves("mock/skill?p=1&seed=4", spec, asks) == [str(spec.setup["secret"])] * len(asks)
    assert await _moves("mock/skill?p=0&seed=4", spec, asks) == [(await RandomPicker(spec).act(ask)).text
                                                                for ask in asks]


async def test_a_skill_mixes_the_two_per_request_reproducibly_and_coupled_across_skills() -> None:
    asks = _asks()
    strong: dict[float, list[bool]] = {}
    for p in (0.3, 0.7):
        picks: list[bool] = []
        for seed in range(4):  # four matches (setups)
            spec = _spec(seed)
            scripted = [(await SecretPicker(spec).act(ask)).text for ask in asks]
            randomly = [(await RandomPicker(spec).act(ask)).text for ask in asks]
            moves = await _moves(f"mock/skill?p={p}&seed=9", spec, asks)
            assert moves == await _moves(f"mock/skill?p={p}&seed=9", spec, asks)  # the same ask, the same move
            assert all(move in (s, r) for move, s, r in zip(moves, scripted, randomly, strict=True))
            picks += [move == s != r for move, s, r in zip(moves, scripted, randomly, strict=True)
                      if s != r]  # where the two differ, which one played
        strong[p] = picks
    share = {p: sum(picks) / len(picks) for p, picks in strong.items()}
    assert abs(share[0.3] - 0.3) < 0.12 and abs(share[0.7] - 0.7) < 0.12, share
    assert all(high or not low for low, high in zip(strong[0.3], strong[0.7], strict=True))  # coupled draws
    spec = _spec()
    other = await _moves("mock/skill?p=0.5&seed=10", spec, asks)
    assert other != await _moves("mock/skill?p=0.5&seed=9", spec, asks)  # the seed changes the draws


async def test_a_skill_outside_a_match_or_without_a_random_baseline_is_one_clear_error() -> None:
    async with ModelHub(use_cache=False) as hub:
        model = hub.get("mock/skill?p=0")
        with pytest.raises(ModelError, match=r"mock/skill\?p=0 plays a game's scripted and random players, so it "
                                             r"answers only a seat's move in a match"):
            await model.generate(ModelRequest(messages=(user("hi"),)))
        with pytest.raises(ModelError, match=r"plays plain's picker through its random baseline: plain has no "
                                             r"baseline player 'random'"):
            await model.generate(_request(_ask(), _spec(), Plain()))
