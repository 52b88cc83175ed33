"""Collecting a run's report data from the store: outcomes, procedural metrics, curves, profiles, transcripts."""

from __future__ import annotations

from typing import Any

from playeval.analysis import (
    MatchRetro,
    capability_profiles,
    match_retros,
    match_rows,
    metric_specs,
    recall_by_round,
    skills,
    summarize,
    summarize_procedural,
)
from playeval.analysis.leaderboard import load_leaderboard
from playeval.analysis.load import run_costs
from playeval.analysis.ratings import elo_intervals, order_check
from playeval.analysis.retro import point_seat
from playeval.analysis.rule_games import rule_game_rows
from playeval.analysis.sides import elo_games, elo_rule, stored_matches, summarize_sides, team_analysis, team_games
from playeval.analysis.verdict_accuracy import verdict_rows, verdict_tables
from playeval.analysis.verdict_sources import run_verdict_sources, verdict_lines
from playeval.core.game import Game, RetroGame, seat_evaluated
from playeval.core.info import score_line
from playeval.core.match import Outcome
from playeval.core.registry import GameRegistry
from playeval.engine.batch import interruption_lines, recorded_config
from playeval.engine.match import state_from_events
from playeval.metrics.retro import SPLIT
from playeval.report.data import (
    GameFacts,
    RecallCurve,
    RecallPoint,
    ReportData,
    RetroLine,
    SeatLine,
    TeamReport,
    Trajectory,
    TranscriptPage,
)
from playeval.store import MatchRecord, RetroRecord, Store

ELO_RESAMPLES = 1000
"""Bootstrap resamples of a team game's games for the team Elo's intervals (as ``playeval analyze elo``)."""
LEADERBOARD_RESAMPLES = 200
"""Bootstrap resamples of the matches for the leaderboard's ratings (as ``playeval leaderboard``)."""


def build_report(store: Store, run_id: str, registry: GameRegistry) -> ReportData:
    run = store.get_run(run_id)
    results = summarize(match_rows(store, run_id, registry))
    retros = match_retros(store, run_id, registry)
    summaries = summarize_procedural(retros, registry)
    models = sorted({r.model for r in results})
    curves = tuple(
        RecallCurve(game, model, tuple(RecallPoint(round_, recall, n) for round_, recall, n in points))
        for (game, model), points in recall_by_round(retros).items()
    )
    matches = {m.id: m for m in store.run_matches(run_id)}
    by_id = {r.match_id: r for r in retros}
    transcripts: list[TranscriptPage] = []
    retro_won: dict[str, bool | None] = {}
    for match in matches.values():
        if match.status != "finished" or match.outcome is None:
            continue
        game = registry.get(match.game)
        state = state_from_events(game, match.spec, store.events(match.id))
        retro = by_id.get(match.id)
        transcripts.append(_page(store, match, game, state, retro))
        if retro is not None:
            retro_won[match.id] = _retro_won(game, match, match.outcome, state)
    trajectories = tuple(
        Trajectory(r.match_id, r.model, bool(r.score.truth), r.levels, retro_won.get(r.match_id), r.game)
        for r in retros if r.levels
    )
    profiles = tuple(capability_profiles(summaries, models, registry)) if summaries else ()
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
    notes.extend(verdict_lines(recorded_config(store, run_id), run_verdict_sources(store, run_id)))
    notes.extend(f"{line}: unfinished, so in no table (`playeval run --resume {run_id}` plays them on)."
                 for line in interruption_lines(store, run_id))
    played = list(dict.fromkeys(m.game for m in matches.values()))
    games = ", ".join(played) or run.game
    shown = dict.fromkeys([*(r.game for r in results), *(s.game for s in summaries)])
    board = load_leaderboard(store, registry, [run_id], resamples=LEADERBOARD_RESAMPLES)
    return ReportData(
        run_id=run_id,
        title=f"playeval run {run_id}: {games}",
        created=run.created_at.isoformat(timespec="seconds"),
        config={key: value for key, value in run.config.items() if key != "calibrations"},  # a note says them
        outcomes=tuple(results),
        procedural=tuple(summaries),
        metric_specs={game: metric_specs(registry.get(game)) for game in shown},
        skills=skills(registry),
        recall_curves=curves,
        trajectories=trajectories,
        profiles=profiles,
        transcripts=tuple(transcripts),
        notes=tuple(notes),
        rule_games=tuple(rule_game_rows(store, run_id, registry)),
        teams=tuple(_team_reports(store, run_id, registry, played)),
        verdicts=verdict_tables(verdict_rows(store, run_id, registry),
                                lambda game: registry.get(game).presentation.name),
        games={game: _facts(registry.get(game)) for game in played if game in registry.ids()},
        costs=tuple(run_costs(store, run_id)),
        leaderboard=board if board.scored else None,
    )


def _facts(game: Game[Any]) -> GameFacts:
    return GameFacts(name=game.presentation.name, score=getattr(game, "score", None),
                     plots=tuple(getattr(game, "plots", ())))


def _team_reports(store: Store, run_id: str, registry: GameRegistry, played: list[str]) -> list[TeamReport]:
    """Each team game of the run with a finished match: its tables and, where it declares one, its team Elo."""
    reports: list[TeamReport] = []
    for name in team_games(registry, played):
        game = registry.get(name)
        analysis = team_analysis(game)
        matches = stored_matches(store, [run_id], name)
        results = summarize_sides(game, matches)
        if analysis is None or results is None:
            continue
        rated = elo_games(game, matches)
        rule = elo_rule(analysis) if analysis.elo is not None else None
        reports.append(TeamReport(
            game=name, analysis=analysis, results=results,
            elo=tuple(elo_intervals(rated, rule, resamples=ELO_RESAMPLES)) if rated and rule else (),
            order=order_check(rated, rule) if rated and rule else None,
            elo_resamples=ELO_RESAMPLES if rated else 0))
    return reports


def _retro_won(game: Game[Any], match: MatchRecord, outcome: Outcome, state: Any) -> bool | None:
    """How a finished match went for the seat its retrospective analysis re-asked (``None``: not scored)."""
    if outcome.status != "finished" or not isinstance(game, RetroGame):
        return None
    points = game.retro_points(state)
    if not points:
        return None
    return outcome.result_for(point_seat(game, match, points[0])).won


def result_label(outcome: Outcome, seat: str) -> str:
    """How the match went for ``seat``: "win", "loss", "draw", "forfeit" (its own: a loss), "opp. forfeit"
    (another seat's: not scored), "not scored" or "aborted"."""
    if outcome.status == "aborted":
        return "aborted"
    result = outcome.result_for(seat)
    if result.forfeited:
        return "forfeit"
    if result.won is None:
        return "opp. forfeit" if outcome.status == "forfeit" else "not scored"
    if outcome.drawn:  # as the command line says it: a guess-the-rule match its player lost is a loss
        return "draw"
    return "win" if result.won else "loss"


def match_label(outcome: Outcome) -> str:
    """How a match with several evaluated seats ended: the winning team or seats, or a draw, forfeit, abort."""
    if outcome.status != "finished":
        return outcome.status
    if outcome.winning_team is not None:
        return f"{outcome.winning_team} won"
    return f"{', '.join(outcome.winners)} won" if outcome.winners else "draw"


def _page(store: Store, match: MatchRecord, game: Game[Any], state: Any, retro: MatchRetro | None) -> TranscriptPage:
    outcome = match.outcome
    assert outcome is not None
    seats: list[SeatLine] = []
    score_info = getattr(game, "score", None)
    for assignment in match.seats:
        result = outcome.result_for(assignment.seat)
        out = None if result.eliminated_round is None else \
            f"round {result.eliminated_round}: {result.elimination or 'out'}"
        seats.append(SeatLine(seat=assignment.seat, player=assignment.model or assignment.player_kind,
                              evaluated=seat_evaluated(game, match.spec, assignment),
                              result=result_label(outcome, assignment.seat), team=result.team,
                              variant=assignment.prompt_variant, out=out, score=score_line(score_info, result.score)))
    evaluated = [seat for seat in seats if seat.evaluated]
    label = evaluated[0].result if len(evaluated) == 1 else match_label(outcome)
    secret = "; ".join(f"{item.revealed_label}: {item.value}" for item in game.disclosures(match.spec, state))
    return TranscriptPage(
        match_id=match.id,
        game=match.game,
        level=match.level,
        seats=tuple(seats),
        secret=secret,
        outcome=label,
        reason=outcome.reason,
        rounds=outcome.rounds,
        lines=tuple(game.transcript(state)),
        retro=_retro_lines(store.retro_outputs(match.id), retro) if retro else (),
        name=game.presentation.name,
    )


def _retro_lines(records: list[RetroRecord], retro: MatchRetro) -> tuple[RetroLine, ...]:
    """Each round's output, readable, marked right or wrong as the game scored it."""
    lines: list[RetroLine] = []
    for record in sorted(records, key=lambda r: (r.round, r.kind)):
        if record.kind == SPLIT:
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
