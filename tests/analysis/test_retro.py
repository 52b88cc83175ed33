"""The retrospective analysis on a real store with mock models: what is asked, what is stored, what is skipped,
and where its calls go."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from playeval.analysis import RetroRunner, match_retros, seat_rows, summarize_procedural
from playeval.analysis.retro import with_request
from playeval.core.errors import ConfigError
from playeval.core.game import RetroPoint
from playeval.core.messages import assistant, system, user
from playeval.core.registry import GameRegistry, default_registry
from playeval.engine import BatchRunner, RunConfig, create_run
from playeval.games.akinator import Akinator, AkinatorState
from playeval.models import ModelHub, ModelRequest
from playeval.store import Store

QUESTIONS = ["Is it alive?", "Is it used in a kitchen?", "Is it made of metal?"]


def guesser(request: ModelRequest) -> str:
    turn = sum(1 for m in request.messages if m.role == "assistant") + 1
    if request.messages[-1].content.startswith("Your reply was not accepted"):
        turn -= 1
    return f"Question {turn}: {QUESTIONS[(turn - 1) % len(QUESTIONS)]}"


def analyst(request: ModelRequest) -> str:
    """Lists six made-up gadgets (never a secret); classifies them Yes, No, Yes, No ... (an even split)."""
    last = request.messages[-1].content
    if last.startswith("Question:"):
        count = sum(1 for line in last.splitlines() if line[:1].isdigit())
        return "".join(f"{n}. {'Yes' if n % 2 else 'No'}\n" for n in range(1, count + 1))
    names = [f"gadget {letter}" for letter in "abcdef"]
    return "".join(f"{n}. {name}\n" for n, name in enumerate(names, start=1))


def unreadable(request: ModelRequest) -> str:
    last = request.messages[-1].content
    if "list alone" in last or "could not be read" in last:
        return "I would rather not say."
    return guesser(request)


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store.open(f"sqlite:///{tmp_path / 'runs.db'}")


async def _run(store: Store, hub: ModelHub, model: str, n: int = 2) -> str:
    config = RunConfig(games=("akinator",), models=(model,), opponent="scripted", n=n, seed=4, level=3)
    run_id = create_run(store, default_registry(), config)
    await BatchRunner(store, hub, default_registry()).run(run_id)
    return run_id


def test_the_request_joins_the_last_user_message() -> None:
    joined = with_request((system("s"), user("Yes. (3 turns left.)")), "List them.")
    assert [m.role for m in joined] == ["system", "user"] and joined[-1].content == "Yes. (3 turns left.)\n\nList them."
    appended = with_request((system("s"), user("u"), assistant("a")), "List them.")
    assert [m.role for m in appended] == ["system", "user", "assistant", "user"]


async def test_retro_stores_every_round_and_a_rerun_skips_them(store: Store) -> None:
    scripts = {"guesser": guesser, "analyst": analyst}
    async with ModelHub(use_cache=False, mock_scripts=scripts) as hub:
        run_id = await _run(store, hub, "mock/guesser")
        seen: list[ModelRequest] = []

        def spy(request: ModelRequest) -> str:
            seen.append(request)
            return analyst(request)

        async with ModelHub(use_cache=False, mock_scripts={"guesser": spy}) as retro_hub:
            runner = RetroRunner(store, retro_hub, default_registry())
            plan = runner.plan(run_id)
            # level 3: 16 turns; 16 candidate lists and 15 splits per match, two matches
            assert len(plan.tasks) == 2 * (16 + 15) and plan.stored == 0 and plan.models == ("mock/guesser",)
            summary = await runner.run(run_id, plan)
            assert summary.produced == 62 and summary.failed == 0
            again = runner.plan(run_id)
            assert again.tasks == () and again.stored == 62
    # the re-asked conversation is the guesser's own, through the round, with the request after it
    first = next(r for r in seen if "list alone" in r.messages[-1].content)
    assert first.messages[0].role == "system" and "twenty questions" in first.messages[0].content.lower()
    assert first.messages[-2].content == "Question 1: Is it alive?"
    assert first.config.temperature == 0.0 and first.constraint is not None and first.constraint.grammar
    retros = match_retros(store, run_id, default_registry())
    assert len(retros) == 2
    for retro in retros:
        outputs = store.retro_outputs(retro.match_id)
        lists = [o.output for o in outputs if o.kind == "candidates"]
        assert retro.candidate_rounds == tuple(range(1, 17))
        assert len(lists) == 16 and lists[0] == [f"gadget {letter}" for letter in "abcdef"]
        assert retro.score.hits == dict.fromkeys(range(1, 17), False)
        splits = [o.output["answers"] for o in outputs if o.kind == "split" and isinstance(o.output, dict)]
        assert len(splits) == 15 and all(answers.count("Yes") == answers.count("No") == 3 for answers in splits)
        assert retro.metrics["disparity_ratio"] == 0.0  # three Yes and three No every round
        assert retro.metrics["first_appear_round"] is None  # no gadget is ever a secret
    summaries = summarize_procedural(retros, default_registry())
    assert len(summaries) == 1 and summaries[0].matches == 2
    assert summaries[0].missing == (("matches whose secret never appeared in a list", 2),)
    assert summaries[0].values["disparity_ratio"] == 0.0 and summaries[0].values["recall_rate"] == 0.0


async def test_the_analysis_calls_are_a_role_s_not_a_seat_s(store: Store) -> None:
    async with ModelHub(use_cache=False, mock_scripts={"guesser": guesser}) as hub:
        run_id = await _run(store, hub, "mock/guesser", n=1)
    [match] = store.run_matches(run_id)
    before = seat_rows(store, match, default_registry())
    async with ModelHub(use_cache=False, mock_scripts={"guesser": analyst, "analyst": analyst}) as retro_hub:
        await RetroRunner(store, retro_hub, default_registry(), judge="mock/analyst").run(run_id)
    after = seat_rows(store, match, default_registry())
    calls = store.calls(match.id)
    retro_calls = [call for call in calls if call.role is not None and call.role.startswith("retro:")]
    assert {call.role for call in retro_calls} == {"retro:candidates", "retro:split"}
    assert all(call.seat is None for call in retro_calls) and len(retro_calls) == 16 + 15
    assert {call.model for call in retro_calls if call.role == "retro:split"} == {"mock/analyst"}
    [row] = after
    assert row.seat == "guesser" and row.model == "mock/guesser"
    assert (row.tokens, row.replies) == (before[0].tokens, before[0].replies) and row.tokens > 0


class RankingAkinator(Akinator):
    """Akinator as a game that asks the analysis for a kind of output it does not know."""

    def retro_points(self, state: AkinatorState) -> Sequence[RetroPoint]:
        return [point.model_copy(update={"kind": "ranking"}) for point in super().retro_points(state)]


async def test_an_unknown_kind_stops_the_planning_and_names_the_game_and_the_kind(store: Store) -> None:
    async with ModelHub(use_cache=False, mock_scripts={"guesser": guesser}) as hub:
        run_id = await _run(store, hub, "mock/guesser", n=1)
        registry = GameRegistry()
        registry.add("akinator", RankingAkinator)
        runner = RetroRunner(store, hub, registry)
        with pytest.raises(ConfigError, match=r"game 'akinator' .* kind 'ranking'") as raised:
            runner.plan(run_id)
        assert "candidates, judgement" in str(raised.value)
        with pytest.raises(ConfigError, match="'ranking'"):
            await runner.run(run_id)
    [match] = store.run_matches(run_id)
    assert store.retro_outputs(match.id) == []  # nothing was asked or stored


async def test_an_unreadable_output_is_reasked_then_stored_as_an_error(store: Store) -> None:
    async with ModelHub(use_cache=False, mock_scripts={"stubborn": unreadable}) as hub:
        run_id = await _run(store, hub, "mock/stubborn", n=1)
        runner = RetroRunner(store, hub, default_registry(), max_retries=1)
        summary = await runner.run(run_id)
    match = store.run_matches(run_id)[0]
    outputs = store.retro_outputs(match.id)
    assert summary.failed == 16 and len(outputs) == 16  # no splits: there is no list to classify
    assert all(o.output is None and o.error and o.error.startswith("format:") for o in outputs)
    assert all(len(o.call_ids) == 2 for o in outputs)  # the ask and one re-ask


async def test_matches_without_a_model_in_the_seat_are_skipped(store: Store) -> None:
    config = RunConfig(games=("akinator",), models=("mock/echo",), opponent="scripted", n=1, seed=1)
    run_id = create_run(store, default_registry(), config)
    async with ModelHub(use_cache=False) as hub:
        await BatchRunner(store, hub, default_registry()).run(run_id)
        match = store.run_matches(run_id)[0]
        assert match.outcome is not None and match.outcome.status == "forfeit"
        plan = RetroRunner(store, hub, default_registry()).plan(run_id)
    # a forfeited match is still finished and analysable up to where it got; echo never asked a valid question
    assert plan.skipped_matches == () and plan.tasks == ()
