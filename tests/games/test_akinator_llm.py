"""Whole Akinator games played by the embedded default model, through the real engine and store."""

from __future__ import annotations

from pathlib import Path

import pytest

from playeval.core.events import ActionApplied, ReplyRejected
from playeval.core.registry import default_registry
from playeval.engine import BatchRunner, RunConfig, create_run, state_from_events
from playeval.games.akinator import ANSWERER, GUESSER, JUDGE, Akinator
from playeval.models import DEFAULT_MODEL, ModelHub
from playeval.store import Store

pytestmark = pytest.mark.llm


def transcripts(store: Store, run_id: str) -> list[list[tuple[str, str]]]:
    game = Akinator()
    return [list(game.transcript(state_from_events(game, m.spec, store.events(m.id))))
            for m in store.run_matches(run_id)]


async def test_default_model_plays_whole_games_and_reruns_identically(tmp_path: Path) -> None:
    registry = default_registry()
    config = RunConfig(game="akinator", models=(DEFAULT_MODEL,), opponent=DEFAULT_MODEL, n=1, seed=2)
    hub = ModelHub(use_cache=True, cache_path=tmp_path / "cache.sqlite")
    try:
        with Store.open(f"sqlite:///{tmp_path / 'a.db'}") as store:
            first = create_run(store, registry, config)
            await BatchRunner(store, hub, registry).run(first)
            second = create_run(store, registry, config)
            await BatchRunner(store, hub, registry).run(second)
            [match] = store.run_matches(first)
            assert match.status == "finished" and match.outcome is not None
            assert match.outcome.status == "finished", match.outcome.reason
            assert 1 <= match.outcome.rounds <= 20
            events = store.events(match.id)
            moves = [e.action for e in events if isinstance(e, ActionApplied) and e.action.seat == GUESSER]
            answers = [e.action for e in events if isinstance(e, ActionApplied) and e.action.seat == ANSWERER]
            assert len(moves) == match.outcome.rounds
            assert all(a.text in ("Yes", "No", "Probably yes", "Probably no", "Don't know") for a in answers)
            assert not [e for e in events if isinstance(e, ReplyRejected)]  # grammar-constrained: no format errors
            calls = store.calls(match.id)
            assert calls and all(c.prompt_tokens > 0 and c.completion_tokens > 0 for c in calls)
            parties = {c.seat or c.role for c in calls}
            assert {GUESSER, ANSWERER} <= parties <= {GUESSER, ANSWERER, JUDGE}
            assert all(c.params.get("temperature") == 0.0 for c in calls if c.role == JUDGE)  # a role decodes greedily
            assert transcripts(store, first) == transcripts(store, second)
            second_calls = store.calls(store.run_matches(second)[0].id)
            assert second_calls and all(c.cached for c in second_calls)
    finally:
        await hub.aclose()
