"""A simulated person's re-asks are sampled; the evaluated seat keeps the run's temperature."""

from __future__ import annotations

from playeval.core.ask import Ask
from playeval.core.messages import user
from playeval.core.rng import match_rng
from playeval.engine import MemoryRecorder, RunConfig, build_players, play_match, seat_assignments
from playeval.games.taboo import CLUE_GIVER, GUESSER, Taboo
from playeval.models import ModelHub, ModelRequest

game = Taboo()


def _ask(attempt: int) -> Ask:
    return Ask(seat=CLUE_GIVER, kind="clue", messages=(user("give a clue"),), display="", instructions="",
               attempt=attempt)


async def test_reask_temperature_only_where_asked_for() -> None:
    seen: list[float] = []

    def record(request: ModelRequest) -> str:
        seen.append(request.config.temperature)
        return "a clue"

    config = RunConfig(games=("taboo",), models=("mock/eval",), opponent="mock/eval", n=1)
    spec = game.new_spec(1, 5, match_rng(5), secret="meerkat")
    async with ModelHub(use_cache=False, mock_scripts={"eval": record}) as hub:
        players = build_players(game, spec, config, "mock/eval", hub, seed=5)
        for seat in (GUESSER, CLUE_GIVER):
            await players[seat].act(_ask(0))
            await players[seat].act(_ask(1))
    # guesser (evaluated): 0.0 then 0.0; clue-giver (simulated person): 0.0 then 0.8
    assert seen == [0.0, 0.0, 0.0, 0.8]


async def test_a_clue_giver_that_repeats_itself_greedily_recovers_on_a_sampled_reask() -> None:
    def clue_giver(request: ModelRequest) -> str:
        if request.config.temperature == 0.0:
            return "The meerkat stands on its hind legs."  # the greedy reply, refused every time
        return "A small desert animal that stands guard on its hind legs."

    def guesser(request: ModelRequest) -> str:
        return "My guess of the word is: meerkat"

    config = RunConfig(games=("taboo",), models=("mock/guesser",), opponent="mock/clues", n=1)
    spec = game.new_spec(1, 7, match_rng(7), secret="meerkat")
    recorder = MemoryRecorder()
    async with ModelHub(use_cache=False, mock_scripts={"clues": clue_giver, "guesser": guesser}) as hub:
        players = build_players(game, spec, config, "mock/guesser", hub, seed=7)
        match_id = recorder.create_match(spec=spec, seats=seat_assignments(spec, players))
        outcome = await play_match(game, spec, players, recorder, match_id)
    assert outcome.status == "finished" and outcome.winner == GUESSER
