"""Reading finished matches out of the store into analysis rows."""

from __future__ import annotations

from playeval.analysis.outcomes import MatchRow
from playeval.core.events import ReplyReceived, ReplyRejected
from playeval.core.game import evaluated_seat
from playeval.core.registry import GameRegistry
from playeval.store import Store


def match_rows(store: Store, run_id: str, registry: GameRegistry) -> list[MatchRow]:
    """One row per finished match of ``run_id``, seen from the game's evaluated seat."""
    rows: list[MatchRow] = []
    seats: dict[str, str] = {}
    for match in store.run_matches(run_id):
        if match.status != "finished" or match.outcome is None:
            continue
        seat = seats.setdefault(match.game, evaluated_seat(registry.get(match.game)))
        assignment = next((s for s in match.seats if s.seat == seat), None)
        calls = [call for call in store.calls(match.id) if call.seat == seat]
        events = store.events(match.id)
        rows.append(MatchRow(
            game=match.game,
            level=match.level,
            model=match.evaluated_model or (assignment.model if assignment and assignment.model else "?"),
            seat=seat,
            variant=assignment.prompt_variant if assignment else None,
            outcome=match.outcome,
            tokens=sum(call.prompt_tokens + call.completion_tokens for call in calls),
            seconds=sum(call.latency_s for call in calls),
            replies=sum(1 for e in events if isinstance(e, ReplyReceived) and e.seat == seat),
            rejected=sum(1 for e in events if isinstance(e, ReplyRejected) and e.seat == seat),
            match_id=match.id,
        ))
    return rows
