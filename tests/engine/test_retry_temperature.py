"""A simulated person's re-asks are sampled; the evaluated seat keeps the run's temperature."""

from __future__ import annotations

from playeval.core.ask import Ask
from playeval.core.messages import system, user
from playeval.core.registry import default_registry
from playeval.engine import MemoryRecorder, RunConfig, build_players, plan_matches, play_match
from playeval.games.taboo import CLUE_GIVER, GUESSER, Taboo
from playeval.models import ModelHub, ModelRequest
from playeval.players.llm import _fresh_retry

game = Taboo()


def _ask(seat: str, attempt: int) -> Ask:
    ask = Ask(seat=seat, kind="clue", messages=(system("rules"), user("give a clue")), display="", instructions="")
    for _ in range(attempt):
        ask = ask.retry("REFUSED", "it was refused.")
    return ask


async def test_reask_temperature_only_where_asked_for() -> None:
    seen: list[tuple[float, bool]] = []

    def record(request: ModelRequest) -> str:
        shown = any("REFUSED" in message.content for message in request.messages)
        seen.append((request.config.temperature, shown))
        return "a clue"

    config = RunConfig(games=("taboo",), models=("mock/eval",), opponent="mock/eval", n=1)
    [planned] = plan_matches(config, default_registry(), "mock/eval")
    async with ModelHub(use_cache=False, mock_scripts={"eval": record}) as hub:
        players = build_players(game, planned.spec, planned.seats, planned.roles, hub.get, people={})
        for seat in (GUESSER, CLUE_GIVER):
            await players[seat].act(_ask(seat, 0))
            await players[seat].act(_ask(seat, 2))
    # the evaluated guesser's re-ask is greedy and shows its refused reply; the simulated clue-giver's is a
    # sampled fresh try that only carries the reason
    assert seen == [(0.0, False), (0.0, True), (0.0, False), (0.8, False)]


def test_a_fresh_retry_keeps_the_conversation_and_the_newest_reason() -> None:
    ask = _ask(CLUE_GIVER, 0).retry("first try", "reason one.").retry("second try", "reason two.")
    messages = _fresh_retry(ask)
    assert [m.role for m in messages] == ["system", "user"]
    assert messages[1].content.startswith("give a clue\n\n") and "reason two." in messages[1].content
    assert "reason one." not in messages[1].content and "try" not in messages[1].content


async def test_a_clue_giver_that_repeats_itself_greedily_recovers_on_a_sampled_reask() -> None:
    refused = "The meerkat stands on its hind legs."

    def clue_giver(request: ModelRequest) -> str:
        # greedy, or shown its refused clue, it writes that clue again (as the 1.5B model did)
        if request.config.temperature == 0.0 or any(refused in m.content for m in request.messages):
            return refused
        return "A small desert animal that stands guard on its hind legs."

    def guesser(request: ModelRequest) -> str:
        return "My guess of the word is: meerkat"

    config = RunConfig(games=("taboo",), models=("mock/guesser",), opponent="mock/clues", n=1)
    [planned] = plan_matches(config, default_registry(), "mock/guesser")
    spec = planned.spec.model_copy(update={"setup": {"secret": "meerkat"}})
    recorder = MemoryRecorder()
    async with ModelHub(use_cache=False, mock_scripts={"clues": clue_giver, "guesser": guesser}) as hub:
        players = build_players(game, spec, planned.seats, planned.roles, hub.get, people={})
        match_id = recorder.create_match(spec=spec, seats=planned.seats)
        outcome = await play_match(game, spec, players, recorder, match_id)
    assert outcome.status == "finished" and outcome.winner == GUESSER
