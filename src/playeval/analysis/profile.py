"""The capability profile: each model's standing per reasoning skill, from Table 1's mapping of metrics to skills.

For every procedural metric, the run's models are ranked (1 = best, ties share the mean rank); a model
without a value for a metric that others have -- it never named the secret, say -- is ranked last on it,
because it did worst. A skill's rank is the model's mean rank over that skill's metrics. Ranks compare the
models of one run; they are not absolute scores.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from playeval.analysis.retro_metrics import ProceduralSummary, metric_specs
from playeval.core.info import skills_of
from playeval.core.registry import GameRegistry


def skills(registry: GameRegistry) -> tuple[str, ...]:
    """The reasoning skills the registered games' metrics measure (GameArena's four first, in its order)."""
    return skills_of([game.metrics for game in registry])


@dataclass(frozen=True)
class SkillStanding:
    """A model's mean rank among the run's models on one reasoning skill (``None`` where no metric of it was
    measured), with the metrics behind it."""

    skill: str
    rank: float | None
    metrics: tuple[tuple[str, str, float | None], ...]
    """(game, metric label, value) behind the rank."""


@dataclass(frozen=True)
class Profile:
    """A model's capability profile: its standing on each skill Table 1 maps the metrics to."""

    model: str
    skills: tuple[SkillStanding, ...]


def _ranks(values: dict[str, float | None], lower_is_better: bool) -> dict[str, float]:
    """Competition ranks with ties averaged; missing values share the last place."""
    present = {model: value for model, value in values.items() if value is not None}
    ordered = sorted(present.items(), key=lambda item: item[1] if lower_is_better else -item[1])
    ranks: dict[str, float] = {}
    index = 0
    while index < len(ordered):
        tied = [m for m, v in ordered if v == ordered[index][1]]
        mean = statistics.fmean(range(index + 1, index + len(tied) + 1))
        for model in tied:
            ranks[model] = mean
        index += len(tied)
    missing = [model for model, value in values.items() if value is None]
    if missing:
        mean = statistics.fmean(range(len(present) + 1, len(values) + 1))
        ranks.update({model: mean for model in missing})
    return ranks


def capability_profiles(summaries: Sequence[ProceduralSummary], models: Sequence[str],
                        registry: GameRegistry) -> list[Profile]:
    """One profile per model, skills in :func:`skills` order."""
    by_game: dict[str, dict[str, ProceduralSummary]] = defaultdict(dict)
    for summary in summaries:
        by_game[summary.game][summary.model] = summary
    ranks: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    behind: dict[str, dict[str, list[tuple[str, str, float | None]]]] = defaultdict(lambda: defaultdict(list))
    for game, per_model in sorted(by_game.items()):
        for spec in metric_specs(registry.get(game)):
            values = {model: per_model[model].values.get(spec.name) if model in per_model else None
                      for model in models}
            for model in models:
                behind[model][spec.skill].append((game, spec.label, values[model]))
            if all(value is None for value in values.values()):
                continue
            for model, rank in _ranks(values, spec.lower_is_better).items():
                ranks[model][spec.skill].append(rank)
    profiles: list[Profile] = []
    order = skills(registry)
    for model in models:
        standings = tuple(
            SkillStanding(skill, statistics.fmean(ranks[model][skill]) if ranks[model][skill] else None,
                          tuple(behind[model][skill]))
            for skill in order
        )
        profiles.append(Profile(model, standings))
    return profiles
