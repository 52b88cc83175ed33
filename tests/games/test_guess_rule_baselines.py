"""The guess-the-rule games' baseline players (``guess_rule.baselines``): declared on every game, legal to the end
of a full match with the games' scripted roles, blind to the rule and the check's answers, and far below the
strong scripted player (``StatementSolver``) over thirty seeds."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import pytest

from playeval.core import Ask, ConfigError, Reply
from playeval.core.baselines import NAIVE, RANDOM, make_baseline_player
from playeval.core.events import AskIssued, ReplyRejected, RoleAssignment, SeatAssignment
from playeval.core.match import MatchSpec, Outcome
from playeval.core.registry import default_registry
from playeval.engine import MemoryRecorder, play_match
from playeval.games.dynamic_picnic import GAME_MASTER, VALIDATOR
from playeval.guess_rule import JUDGE, PLAYER, GuessRuleGame, examples_left

GAMES = ("static_picnic", "dynamic_picnic", "functions_picnic", "math")
ROLES: Mapping[str, tuple[str, ...]] = {"dynamic_picnic": (JUDGE, GAME_MASTER, VALIDATOR)}
"""The roles a full match needs, played by the game's scripted players (the judge alone elsewhere)."""


def _game(game_id: str) -> GuessRuleGame:
    game = default_registry().get(game_id)
    assert isinstance(game, GuessRuleGame)
    return game


class _Recording:
    """Plays as ``inner`` and keeps every ask it is given."""

    kind = "scripted"
    model: str | None = None
    max_retries = 0

    def __init__(self, inner: Any) -> None:
        self._inner = inner
        self.asks: list[Ask] = []

    async def act(self, ask: Ask) -> Reply:
        self.asks.append(ask)
        reply: Reply = await self._inner.act(ask)
        return reply


async def _play(game: GuessRuleGame, spec: MatchSpec, player: Any) -> tuple[Outcome, list[Any]]:
    roles = ROLES.get(game.id, (JUDGE,))
    players = {role: game.scripted_player(role, spec) for role in roles}
    players[PLAYER] = player
    recorder = MemoryRecorder()
    match_id = recorder.create_match(spec=spec, seats=[SeatAssignment(seat=PLAYER, player_kind="scripted")],
                                     roles=[RoleAssignment(role=role, player_kind="scripted") for role in roles])
    outcome = await play_match(game, spec, players, recorder, match_id)
    return outcome, list(recorder.events[match_id])


def _spec(game: GuessRuleGame, level: int, seed: int) -> MatchSpec:
    return game.new_spec(level, seed, random.Random(seed))


def _hidden_swapped(game: GuessRuleGame, spec: MatchSpec) -> MatchSpec:
    """``spec`` with another match's hidden setup (another rule, other items, another rule type): the same seed,
    level, prompt variants and params, so a player that reads only what is public cannot tell the two apart."""
    for other_seed in range(spec.seed + 1, spec.seed + 200):
        other = _spec(game, spec.level, other_seed)
        if other.setup != spec.setup:
            swapped = spec.model_copy(update={"setup": other.setup})
            assert swapped.setup != spec.setup and swapped.seed == spec.seed
            return swapped
    raise AssertionError("no other setup found")


@pytest.mark.parametrize("game_id", GAMES)
def test_every_rule_game_declares_a_random_and_a_naive_baseline_for_the_player_seat(game_id: str) -> None:
    game = _game(game_id)
    assert [info.name for info in game.baselines] == [RANDOM, NAIVE]
    assert all(info.description for info in game.baselines)
    spec = _spec(game, 1, 3)
    for name in (RANDOM, NAIVE):
        player = make_baseline_player(game, name, PLAYER, spec)
        assert (player.kind, player.model, player.max_retries) == ("scripted", None, 0)
    with pytest.raises(ConfigError, match="baseline players play the player seat"):
        game.baseline_player(RANDOM, JUDGE, spec)
    with pytest.raises(ConfigError, match="no baseline player 'passive'"):
        make_baseline_player(game, "passive", PLAYER, spec)


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("name", [RANDOM, NAIVE])
async def test_a_baseline_finishes_full_matches_with_legal_moves_only(game_id: str, name: str) -> None:
    game = _game(game_id)
    for level in (1, 2, 3):
        for seed in (0, 1):
            spec = _spec(game, level, seed)
            outcome, events = await _play(game, spec, game.baseline_player(name, PLAYER, spec))
            assert outcome.status == "finished", outcome.reason
            result = outcome.result_for(PLAYER)
            assert not result.forfeited and result.score is not None  # it made the check
            assert not [event for event in events if isinstance(event, ReplyRejected)]  # nothing refused
            assert any(isinstance(event, AskIssued) and event.kind == "apply" for event in events)


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("name", [RANDOM, NAIVE])
async def test_a_baseline_never_reads_the_rule_or_the_check_s_answers(game_id: str, name: str) -> None:
    """Every ask of a match is answered the same by the baseline made for the match's spec and by one made for a
    spec whose hidden setup is another match's; the strong scripted player, which reads the rule, is not (so the
    comparison can tell a reader of hidden parts)."""
    game = _game(game_id)
    spec = _spec(game, 1, 4)
    swapped = _hidden_swapped(game, spec)
    recording = _Recording(game.baseline_player(name, PLAYER, spec))
    await _play(game, spec, recording)
    assert {ask.kind for ask in recording.asks} == {"move", "apply"}
    blind = game.baseline_player(name, PLAYER, swapped)
    for ask in recording.asks:
        assert (await blind.act(ask)).text == (await game.baseline_player(name, PLAYER, spec).act(ask)).text
    strong, other = game.scripted_player(PLAYER, spec), game.scripted_player(PLAYER, swapped)
    differs = [ask for ask in recording.asks if (await strong.act(ask)).text != (await other.act(ask)).text]
    assert differs


async def test_the_naive_player_asks_for_every_example_then_guesses_the_first_item_and_says_yes() -> None:
    game = _game("static_picnic")
    spec = _spec(game, 1, 6)
    recording = _Recording(game.baseline_player(NAIVE, PLAYER, spec))
    outcome, _ = await _play(game, spec, recording)
    first, second, check = recording.asks[:3]
    left = examples_left(first)
    assert left is not None and left > 0
    assert (await game.baseline_player(NAIVE, PLAYER, spec).act(first)).text == f"MORE: {left}"
    assert examples_left(second) == 0
    shown_first = game.rule_of(spec).positives[0]
    assert (await game.baseline_player(NAIVE, PLAYER, spec).act(second)).text == f"GUESS: things like {shown_first}"
    answers = (await game.baseline_player(NAIVE, PLAYER, spec).act(check)).text.splitlines()
    assert answers == [f"{number}. yes" for number in range(1, 11)]
    assert not outcome.result_for(PLAYER).won and outcome.result_for(PLAYER).score == 0.5  # balanced items


async def test_the_random_player_s_moves_come_from_the_match_seed_and_the_ask() -> None:
    game = _game("math")
    spec = _spec(game, 1, 2)
    recording = _Recording(game.baseline_player(RANDOM, PLAYER, spec))
    await _play(game, spec, recording)
    replies = [(await game.baseline_player(RANDOM, PLAYER, spec).act(ask)).text for ask in recording.asks]
    assert replies == [(await game.baseline_player(RANDOM, PLAYER, spec).act(ask)).text for ask in recording.asks]
    reseeded = spec.model_copy(update={"seed": spec.seed + 1})
    other = [(await game.baseline_player(RANDOM, PLAYER, reseeded).act(ask)).text for ask in recording.asks]
    assert other != replies  # another match's seed, other draws
    moves = [text for ask, text in zip(recording.asks, replies, strict=True) if ask.kind == "move"]
    assert any(text.startswith("MORE: ") for text in moves) and any(text.startswith("GUESS: ") for text in moves)
    assert {text.removeprefix("GUESS: ") for text in moves if text.startswith("GUESS: ")} <= set(game.generic_guesses)


@pytest.mark.parametrize("game_id", GAMES)
async def test_the_strong_scripted_player_wins_far_more_often_than_the_random_baseline(game_id: str) -> None:
    """Thirty seeds, levels 1 to 3 in turn, the game's scripted roles: measured, the strong player wins every
    match of every game and the random baseline none (``mock/skill`` mixes the two)."""
    game = _game(game_id)
    wins = {"strong": 0, RANDOM: 0}
    for seed in range(30):
        spec = _spec(game, seed % 3 + 1, seed)
        for who in wins:
            player = game.scripted_player(PLAYER, spec) if who == "strong" else game.baseline_player(who, PLAYER, spec)
            outcome, _ = await _play(game, spec, player)
            assert outcome.status == "finished"
            wins[who] += bool(outcome.result_for(PLAYER).won)
    assert wins["strong"] >= 27 and wins[RANDOM] <= 3, wins
    assert wins["strong"] - wins[RANDOM] >= 24
