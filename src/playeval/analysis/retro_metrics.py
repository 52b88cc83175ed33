"""Procedural metrics of a run (GameArena section 3.2.2, Tables 1 and 3), from its stored retrospective outputs.

Per match, the pure functions of ``procedural`` turn the round-by-round outputs into metrics; per model and
game they are averaged over matches. A round whose output could not be read counts as a list without the
secret (candidates) or is left out (judgements); ``failed_outputs`` says how many there were. First-appear
rounds and final ranks are averaged over the matches where the secret appears at all (the paper's "N/A"
otherwise), and ``never_found`` counts the others so that a model is not flattered by the average.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from playeval.analysis.procedural import bluffing_metrics, candidate_list_metrics, disparity_ratio, judgement_level
from playeval.core.game import RetroGame, evaluated_seat
from playeval.core.normalize import same_name
from playeval.core.registry import GameRegistry
from playeval.store import RetroRecord, Store


@dataclass(frozen=True)
class MetricSpec:
    name: str
    label: str
    percent: bool
    lower_is_better: bool
    skill: str


_CANDIDATE_METRICS = (
    MetricSpec("recall_rate", "Recall rate", True, False, "multi-hop"),
    MetricSpec("top5_recall_rate", "Top 5 recall rate", True, False, "multi-hop"),
    MetricSpec("top10_recall_rate", "Top 10 recall rate", True, False, "multi-hop"),
)
_BY_GAME: dict[str, tuple[MetricSpec, ...]] = {
    "akinator": (*_CANDIDATE_METRICS,
                 MetricSpec("disparity_ratio", "Disparity ratio", True, True, "multi-hop"),
                 MetricSpec("first_appear_round", "Avg. first appear round", False, True, "deductive"),
                 MetricSpec("final_rank", "Avg. final rank", False, True, "deductive")),
    "taboo": (*_CANDIDATE_METRICS,
              MetricSpec("first_appear_round", "Avg. first appear round", False, True, "abductive"),
              MetricSpec("final_rank", "Avg. final rank", False, True, "abductive")),
    "bluffing": (MetricSpec("recall_rate", "Recall rate", True, False, "multi-hop"),
                 MetricSpec("spearman", "Spearman's coefficient", False, True, "multi-hop"),
                 MetricSpec("hopping_penalty", "Hopping penalty", False, True, "multi-hop"),
                 MetricSpec("first_correct_round", "Avg. first correct round", False, True, "inductive"),
                 MetricSpec("final_distance", "Avg. final distance", False, True, "inductive")),
}


def metric_specs(game: str) -> tuple[MetricSpec, ...]:
    """The procedural metrics of a game, with the reasoning skill Table 1 maps each to."""
    return _BY_GAME.get(game, ())


@dataclass(frozen=True)
class MatchRetro:
    """One match's retrospective data, read back and scored."""

    match_id: str
    game: str
    model: str
    secret: str
    lists: tuple[tuple[str, ...], ...] = ()
    """Candidate lists by round (an unreadable round is an empty list)."""
    judgements: tuple[str, ...] = ()
    """Bluffing: the judgement level of each readable round."""
    disparities: tuple[float, ...] = ()
    failed_outputs: int = 0
    metrics: dict[str, float | int | None] = field(default_factory=dict)

    @property
    def truth(self) -> bool:
        return self.secret.strip().lower() == "true"


@dataclass(frozen=True)
class ProceduralSummary:
    game: str
    model: str
    matches: int
    values: dict[str, float | None]
    never_found: int
    failed_outputs: int


def match_retros(store: Store, run_id: str, registry: GameRegistry) -> list[MatchRetro]:
    """Every finished match of the run that has retrospective outputs, scored."""
    found: list[MatchRetro] = []
    for match in store.run_matches(run_id):
        if match.status != "finished" or match.outcome is None:
            continue
        game = registry.get(match.game)
        if not isinstance(game, RetroGame):
            continue
        outputs = store.retro_outputs(match.id)
        if not outputs:
            continue
        seat = evaluated_seat(game)
        model = match.evaluated_model or next((s.model for s in match.seats if s.seat == seat and s.model), "?")
        found.append(score_retro(match.id, match.game, model, match.spec.secret or "", outputs))
    return found


def score_retro(match_id: str, game: str, model: str, secret: str, records: Sequence[RetroRecord]) -> MatchRetro:
    """One match's stored retrospective outputs, scored by the ``procedural`` functions."""
    failed = sum(1 for r in records if r.error is not None)
    candidates = sorted((r for r in records if r.kind == "candidates"), key=lambda r: r.round)
    judgements = sorted((r for r in records if r.kind == "judgement"), key=lambda r: r.round)
    splits = sorted((r for r in records if r.kind == "split" and isinstance(r.output, dict)), key=lambda r: r.round)
    metrics: dict[str, float | int | None] = {}
    lists: tuple[tuple[str, ...], ...] = ()
    levels: tuple[str, ...] = ()
    disparities: list[float] = []
    if candidates:
        lists = tuple(tuple(r.output) if isinstance(r.output, list) else () for r in candidates)
        metrics.update(candidate_list_metrics(lists, secret))
        for split in splits:
            answers = list(split.output.get("answers", [])) if isinstance(split.output, dict) else []
            yes = sum(1 for a in answers if a == "Yes")
            if answers:
                disparities.append(disparity_ratio(yes, len(answers) - yes))
        metrics["disparity_ratio"] = statistics.fmean(disparities) if disparities else None
    if judgements:
        levels = tuple(str(r.output["level"]) for r in judgements
                       if isinstance(r.output, dict) and "level" in r.output)
        if levels:
            metrics.update(bluffing_metrics(levels, secret.strip().lower() == "true"))
    return MatchRetro(match_id, game, model, secret, lists, levels, tuple(disparities), failed, metrics)


def summarize_procedural(retros: Sequence[MatchRetro]) -> list[ProceduralSummary]:
    """Per (game, model): each metric averaged over the matches that have it."""
    groups: dict[tuple[str, str], list[MatchRetro]] = defaultdict(list)
    for retro in retros:
        groups[(retro.game, retro.model)].append(retro)
    summaries: list[ProceduralSummary] = []
    for (game, model), group in sorted(groups.items()):
        values: dict[str, float | None] = {}
        for spec in metric_specs(game):
            present = [float(v) for r in group if (v := r.metrics.get(spec.name)) is not None]
            values[spec.name] = statistics.fmean(present) if present else None
        never = sum(1 for r in group if game != "bluffing" and r.metrics.get("first_appear_round") is None)
        summaries.append(ProceduralSummary(game, model, len(group), values, never,
                                           sum(r.failed_outputs for r in group)))
    return summaries


def recall_by_round(retros: Sequence[MatchRetro]) -> dict[tuple[str, str], list[tuple[int, float, int]]]:
    """Per (game, model): (round, fraction of lists at that round holding the secret, lists at that round)."""
    curves: dict[tuple[str, str], list[tuple[int, float, int]]] = {}
    groups: dict[tuple[str, str], list[MatchRetro]] = defaultdict(list)
    for retro in retros:
        if retro.lists:
            groups[(retro.game, retro.model)].append(retro)
    for key, group in sorted(groups.items()):
        longest = max(len(r.lists) for r in group)
        points: list[tuple[int, float, int]] = []
        for index in range(longest):
            present = [r for r in group if len(r.lists) > index]
            hits = sum(1 for r in present if any(same_name(name, r.secret) for name in r.lists[index]))
            points.append((index + 1, hits / len(present), len(present)))
        curves[key] = points
    return curves


def judgement_levels(retro: MatchRetro) -> tuple[int, ...]:
    return tuple(judgement_level(level) for level in retro.judgements)
