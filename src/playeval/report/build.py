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
from playeval.analysis.retro_metrics import judgement_levels
from playeval.core.game import evaluated_seat
from playeval.core.normalize import same_name
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
    summaries = summarize_procedural(retros)
    models = sorted({r.model for r in results})
    outcomes = tuple(
        OutcomeRow(r.game, r.model, r.matches, r.wins, r.win_rate, r.win_rate_std, r.variants, r.avg_rounds,
                   r.avg_rounds_std, r.forfeits, r.invalid_move_rate)
        for r in results
    )
    procedural = tuple(
        ProceduralRow(s.game, s.model, s.matches, tuple(
            MetricValue(spec.name, spec.label, s.values.get(spec.name), spec.percent, spec.lower_is_better, spec.skill)
            for spec in metric_specs(s.game)))
        for s in summaries
    )
    curves = tuple(
        RecallCurve(game, model, tuple(RecallPoint(round_, recall, n) for round_, recall, n in points))
        for (game, model), points in recall_by_round(retros).items()
    )
    matches = {m.id: m for m in store.run_matches(run_id)}
    trajectories = tuple(
        Trajectory(r.match_id, r.model, r.truth, judgement_levels(r), _won(matches[r.match_id], registry))
        for r in retros if r.judgements
    )
    profiles = tuple(
        CapabilityProfile(p.model, tuple(SkillScore(s.skill, s.rank, s.metrics) for s in p.skills))
        for p in capability_profiles(summaries, models)
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
        if s.never_found:
            notes.append(f"{s.game}, {s.model}: the secret never appeared in a candidate list in {s.never_found} "
                         f"of {s.matches} matches; first-appear round and final rank average over the others.")
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


def _won(match: MatchRecord, registry: GameRegistry) -> bool | None:
    if match.outcome is None or match.outcome.status != "finished":
        return None
    return match.outcome.winner == evaluated_seat(registry.get(match.game))


def _page(store: Store, match: MatchRecord, registry: GameRegistry, retro: MatchRetro | None) -> TranscriptPage:
    game = registry.get(match.game)
    seat = evaluated_seat(game)
    assert match.outcome is not None
    state = state_from_events(game, match.spec, store.events(match.id))
    evaluated = next((s for s in match.seats if s.seat == seat), None)
    others = [s.model or s.player_kind for s in match.seats if s.seat != seat]
    secret = match.spec.secret or ""
    statement = match.spec.params.get("statement")
    if statement is not None:
        secret = f"{secret} (statement: {statement})"
    outcome = match.outcome
    if outcome.status == "forfeit":
        label = "forfeit" if outcome.forfeit_seat == seat else "opp. forfeit"
    elif outcome.status == "aborted":
        label = "aborted"
    else:
        label = "draw" if outcome.winner is None else "win" if outcome.winner == seat else "loss"
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
        retro=_retro_lines(store.retro_outputs(match.id), match.spec.secret or "") if retro else (),
    )


def _retro_lines(records: list[RetroRecord], secret: str) -> tuple[RetroLine, ...]:
    lines: list[RetroLine] = []
    truth = secret.strip().lower() == "true"
    for record in sorted(records, key=lambda r: (r.round, r.kind)):
        if record.kind == "split":
            continue
        if record.output is None:
            lines.append(RetroLine(record.round, f"(unreadable: {record.error})", None))
        elif record.kind == "candidates" and isinstance(record.output, list):
            names = [str(name) for name in record.output]
            lines.append(RetroLine(record.round, ", ".join(names), any(same_name(n, secret) for n in names)))
        elif isinstance(record.output, dict):
            level = str(record.output.get("level", "?"))
            side = level in ("True", "Possibly true") if truth else level in ("False", "Possibly false")
            lines.append(RetroLine(record.round, f"{level}: {record.output.get('reason', '')}", side))
    return tuple(lines)
