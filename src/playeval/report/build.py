"""Collecting a run's report data from the store: outcomes, procedural metrics, curves, profiles, transcripts."""

from __future__ import annotations

from playeval.analysis import (
    MatchRetro,
    capability_profiles,
    match_retros,
    match_rows,
    metric_specs,
    recall_by_round,
    summarize,
    summarize_procedural,
)
from playeval.core.game import seat_evaluated
from playeval.core.registry import GameRegistry
from playeval.engine.match import state_from_events
from playeval.report.data import (
    CapabilityProfile,
    MetricValue,
    OutcomeRow,
    ProceduralRow,
    RecallCurve,
    RecallPoint,
    ReportData,
    RetroLine,
    SkillScore,
    Trajectory,
    TranscriptPage,
)
from playeval.store import MatchRecord, RetroRecord, Store


def build_report(store: Store, run_id: str, registry: GameRegistry) -> ReportData:
    run = store.get_run(run_id)
    results = summarize(match_rows(store, run_id, registry))
    retros = match_retros(store, run_id, registry)
    summaries = summarize_procedural(retros, registry)
    models = sorted({r.model for r in results})
    outcomes = tuple(
        OutcomeRow(r.game, r.model, r.matches, r.wins, r.win_rate, r.win_rate_std, r.variants, r.avg_rounds,
                   r.avg_rounds_std, r.forfeits, r.invalid_move_rate)
        for r in results
    )
    procedural = tuple(
        ProceduralRow(s.game, s.model, s.matches, tuple(
            MetricValue(spec.name, spec.label, s.values.get(spec.name), spec.percent, spec.lower_is_better, spec.skill)
            for spec in metric_specs(registry.get(s.game))))
        for s in summaries
    )
    curves = tuple(
        RecallCurve(game, model, tuple(RecallPoint(round_, recall, n) for round_, recall, n in points))
        for (game, model), points in recall_by_round(retros).items()
    )
    matches = {m.id: m for m in store.run_matches(run_id)}
    trajectories = tuple(
        Trajectory(r.match_id, r.model, bool(r.score.truth), r.levels, _won(matches[r.match_id], registry))
        for r in retros if r.levels
    )
    profiles = tuple(
        CapabilityProfile(p.model, tuple(SkillScore(s.skill, s.rank, s.metrics) for s in p.skills))
        for p in capability_profiles(summaries, models, registry)
    ) if summaries else ()
    by_id = {r.match_id: r for r in retros}
    transcripts = tuple(_page(store, match, registry, by_id.get(match.id)) for match in matches.values()
                        if match.status == "finished" and match.outcome is not None)
    notes: list[str] = []
    finished = sum(1 for m in matches.values() if m.status == "finished")
    if finished > len(retros):
        notes.append(f"{finished - len(retros)} of {finished} finished matches have no retrospective outputs "
                     f"(run `playeval analyze retro {run_id}`, or the evaluated seat was not a model).")
    for s in summaries:
        for note, count in s.missing:
            if count:
                notes.append(f"{s.game}, {s.model}: {note}: {count} of {s.matches}; the metrics that need it "
                             "average over the others.")
        if s.failed_outputs:
            notes.append(f"{s.game}, {s.model}: {s.failed_outputs} retrospective outputs could not be read after "
                         "re-asks (counted as lists without the secret, or left out for judgements).")
    games = ", ".join(dict.fromkeys(m.game for m in matches.values())) or run.game
    return ReportData(
        run_id=run_id,
        title=f"playeval run {run_id}: {games}",
        created=run.created_at.isoformat(timespec="seconds"),
        config=dict(run.config),
        outcomes=outcomes,
        procedural=procedural,
        recall_curves=curves,
        trajectories=trajectories,
        profiles=profiles,
        transcripts=transcripts,
        notes=tuple(notes),
    )


def _evaluated_seat(match: MatchRecord, registry: GameRegistry) -> str | None:
    game = registry.get(match.game)
    return next((s.seat for s in match.seats if seat_evaluated(game, match.spec, s)), None)


def _won(match: MatchRecord, registry: GameRegistry) -> bool | None:
    seat = _evaluated_seat(match, registry)
    if match.outcome is None or match.outcome.status != "finished" or seat is None:
        return None
    return match.outcome.result_for(seat).won


def _page(store: Store, match: MatchRecord, registry: GameRegistry, retro: MatchRetro | None) -> TranscriptPage:
    game = registry.get(match.game)
    seat = _evaluated_seat(match, registry) or ""
    assert match.outcome is not None
    state = state_from_events(game, match.spec, store.events(match.id))
    evaluated = next((s for s in match.seats if s.seat == seat), None)
    others = [s.model or s.player_kind for s in match.seats if s.seat != seat]
    secret = "; ".join(f"{item.revealed_label}: {item.value}" for item in game.disclosures(match.spec))
    outcome = match.outcome
    if outcome.status == "forfeit":
        label = "forfeit" if outcome.forfeit_seat == seat else "opp. forfeit"
    elif outcome.status == "aborted":
        label = "aborted"
    else:
        won = outcome.result_for(seat).won
        label = "draw" if not outcome.winners and outcome.winning_team is None else "win" if won else "loss"
    return TranscriptPage(
        match_id=match.id,
        game=match.game,
        level=match.level,
        model=match.evaluated_model or (evaluated.model if evaluated and evaluated.model else "?"),
        opponent=", ".join(dict.fromkeys(others)),
        variant=evaluated.prompt_variant if evaluated else None,
        secret=secret,
        outcome=label,
        reason=match.outcome.reason,
        rounds=match.outcome.rounds,
        lines=tuple(game.transcript(state)),
        retro=_retro_lines(store.retro_outputs(match.id), retro) if retro else (),
    )


def _retro_lines(records: list[RetroRecord], retro: MatchRetro) -> tuple[RetroLine, ...]:
    """Each round's output, readable, marked right or wrong as the game scored it."""
    lines: list[RetroLine] = []
    for record in sorted(records, key=lambda r: (r.round, r.kind)):
        if record.kind == "split":
            continue
        hit = retro.score.hits.get(record.round)
        if record.output is None:
            lines.append(RetroLine(record.round, f"(unreadable: {record.error})", None))
        elif isinstance(record.output, list):
            lines.append(RetroLine(record.round, ", ".join(str(name) for name in record.output), hit))
        elif isinstance(record.output, dict):
            level = str(record.output.get("level", "?"))
            lines.append(RetroLine(record.round, f"{level}: {record.output.get('reason', '')}", hit))
    return tuple(lines)
