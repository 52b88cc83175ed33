"""Reading finished matches out of the store into analysis rows: one per evaluated seat."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from playeval.analysis.outcomes import MatchRow
from playeval.core.events import ReplyReceived, ReplyRejected
from playeval.core.game import seat_evaluated
from playeval.core.registry import GameRegistry
from playeval.core.work import WorkTotals
from playeval.store import CallRow, MatchRecord, Store


def seat_rows(store: Store, match: MatchRecord, registry: GameRegistry, *, with_calls: bool = True) -> list[MatchRow]:
    """A finished match's rows, one per evaluated seat held by a model, a model in two seats giving two rows
    (``with_calls``: tokens, time and replies counted from the seat's own calls and log)."""
    if match.status != "finished" or match.outcome is None:
        return []
    game = registry.get(match.game)
    seats = [s for s in match.seats if s.player_kind == "llm" and seat_evaluated(game, match.spec, s)]
    if not seats:
        return []
    calls = store.calls(match.id) if with_calls else []
    events = store.events(match.id) if with_calls else []
    rows: list[MatchRow] = []
    for assignment in seats:
        seat = assignment.seat
        own = [call for call in calls if call.seat == seat]  # a role's calls (a judge, the analysis) are not the seat's
        rows.append(MatchRow(
            game=match.game,
            level=match.level,
            model=assignment.model or "?",
            seat=seat,
            variant=assignment.prompt_variant,
            outcome=match.outcome,
            tokens=sum(call.prompt_tokens + call.completion_tokens for call in own),
            seconds=sum(call.latency_s for call in own),
            replies=sum(1 for e in events if isinstance(e, ReplyReceived) and e.seat == seat),
            rejected=sum(1 for e in events if isinstance(e, ReplyRejected) and e.seat == seat),
            match_id=match.id,
        ))
    return rows


def match_rows(store: Store, run_id: str, registry: GameRegistry) -> list[MatchRow]:
    """The rows of every finished match of ``run_id``: one per evaluated seat."""
    return [row for match in store.run_matches(run_id) for row in seat_rows(store, match, registry)]


ALL_MODELS = "all models"


@dataclass(frozen=True)
class ModelCost:
    """What one model's calls in a run cost: every stored call of the run's matches (seats and roles alike,
    finished or not). ``cost_usd`` is ``None`` (unknown) when any call that reached the provider had no price;
    calls served from the response cache cost nothing. ``work``: what the backend reported computing, summed
    over the calls that reported it (a local model's; none for a cache hit or a remote API)."""

    model: str
    calls: int
    cached_calls: int
    prompt_tokens: int
    completion_tokens: int
    cost_usd: float | None
    unpriced_calls: int
    work: WorkTotals = field(default_factory=WorkTotals)


def _cost_of(model: str, calls: list[CallRow]) -> ModelCost:
    unpriced = sum(1 for call in calls if call.cost_usd is None and not call.cached)
    return ModelCost(
        model=model,
        calls=len(calls),
        cached_calls=sum(1 for call in calls if call.cached),
        prompt_tokens=sum(call.prompt_tokens for call in calls),
        completion_tokens=sum(call.completion_tokens for call in calls),
        cost_usd=None if unpriced else sum(call.cost_usd or 0.0 for call in calls),
        unpriced_calls=unpriced,
        work=sum((call.work for call in calls), WorkTotals()),
    )


def cost_rows(calls: Iterable[CallRow]) -> list[ModelCost]:
    """One row per model (in order of first call), then the total over all of them (``model == ALL_MODELS``)."""
    by_model: dict[str, list[CallRow]] = {}
    everything: list[CallRow] = []
    for call in calls:
        by_model.setdefault(call.model, []).append(call)
        everything.append(call)
    if not everything:
        return []
    return [*(_cost_of(model, own) for model, own in by_model.items()), _cost_of(ALL_MODELS, everything)]


def run_costs(store: Store, run_id: str) -> list[ModelCost]:
    """Cost per model of a run, and the run's total (the last row): summed by the database, not call by call."""
    rows = [ModelCost(model=totals.model, calls=totals.calls, cached_calls=totals.cached_calls,
                      prompt_tokens=totals.prompt_tokens, completion_tokens=totals.completion_tokens,
                      cost_usd=None if totals.unpriced_calls else totals.priced_cost_usd,
                      unpriced_calls=totals.unpriced_calls, work=totals.work)
            for totals in store.call_totals(run_id)]
    if not rows:
        return []
    unpriced = sum(row.unpriced_calls for row in rows)
    total = ModelCost(model=ALL_MODELS, calls=sum(row.calls for row in rows),
                      cached_calls=sum(row.cached_calls for row in rows),
                      prompt_tokens=sum(row.prompt_tokens for row in rows),
                      completion_tokens=sum(row.completion_tokens for row in rows),
                      cost_usd=None if unpriced else sum(row.cost_usd or 0.0 for row in rows),
                      unpriced_calls=unpriced, work=sum((row.work for row in rows), WorkTotals()))
    return [*rows, total]
