"""Undercover's per-seat metrics (the game's ``metrics``), computed from a match's state, and the per-model counts
of re-asks and abstentions, computed from its log."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from playeval.core import ActionApplied, Event, ReplyRejected, SeatAssignment
from playeval.games.undercover.state import UndercoverState

Value = float | None


def _mean(values: Sequence[float]) -> Value:
    return sum(values) / len(values) if values else None


def seat_metrics(state: UndercoverState) -> dict[str, dict[str, Value]]:
    """Per seat: survival (rounds survived over rounds played), voting accuracy (valid votes for a seat of the
    other side), mean novelty, relevance and reasonableness of its judged sentences, and whether it was put out by
    the judge or by the vote (1 or 0)."""
    begun = max([state.round - 1, 1] + [item.round for item in state.statements] + [item.round for item in state.out])
    played = min(begun, state.max_rounds)
    out = {item.seat: item for item in state.out}
    found: dict[str, dict[str, Value]] = {}
    for seat in state.table:
        gone = out.get(seat)
        survived = played if gone is None else gone.round - 1
        votes = [vote for vote in state.votes if vote.voter == seat and vote.target is not None]
        right = [vote for vote in votes if state.side(vote.target or "") != state.side(seat)]
        means = [mean for item in state.statements if item.seat == seat and (mean := item.mean()) is not None]
        found[seat] = {
            "survival": survived / played,
            "vote_accuracy": len(right) / len(votes) if votes else None,
            "novelty": _mean([m.novelty for m in means]),
            "relevance": _mean([m.relevance for m in means]),
            "reasonableness": _mean([m.reasonableness for m in means]),
            "out_by_judge": 1.0 if gone is not None and gone.by == "judge" else 0.0,
            "out_by_vote": 1.0 if gone is not None and gone.by == "vote" else 0.0,
        }
    return found


def model_counts(events: Iterable[Event], seats: Iterable[SeatAssignment]) -> dict[str, dict[str, int]]:
    """Per model (a scripted seat counts as ``scripted``): its refused replies (re-asks) and its abstentions."""
    model_of = {seat.seat: seat.model or seat.player_kind for seat in seats}
    counts: dict[str, dict[str, int]] = {model: {"reasks": 0, "abstentions": 0} for model in model_of.values()}
    for event in events:
        if isinstance(event, ReplyRejected) and event.seat in model_of:
            counts[model_of[event.seat]]["reasks"] += 1
        elif isinstance(event, ActionApplied) and event.action.kind == "abstain" and event.action.seat in model_of:
            counts[model_of[event.action.seat]]["abstentions"] += 1
    return counts
