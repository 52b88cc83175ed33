"""Reading finished matches out of the store into analysis rows: one per evaluated seat."""

from __future__ import annotations

from playeval.analysis.outcomes import MatchRow
from playeval.core.events import ReplyReceived, ReplyRejected
from playeval.core.game import seat_evaluated
from playeval.core.registry import GameRegistry
from playeval.store import MatchRecord, Store


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
