"""Comparing a run's rankings with rankings from elsewhere (GameArena section 4.5, Appendix D).

A run yields, per game, an outcome ranking (a model's win rate over every evaluated seat it held, whatever its
team) and a retrospective ranking (the mean rank on the skill Table 4 names for that game). Rankings from a
file are JSON: ``{"name": ["best model", ...]}`` or ``{"name": {"model": rank, ...}}``; models missing from one
side are left out of that comparison.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from playeval.analysis.outcomes import ModelResult, overall_win_rates
from playeval.analysis.profile import Profile
from playeval.analysis.ranking import kendall_tau, ranking_from_scores, rbo, rbo_permutation_test
from playeval.core.errors import ConfigError
from playeval.core.registry import GameRegistry


@dataclass(frozen=True)
class Comparison:
    ours: str
    theirs: str
    models: tuple[str, ...]
    tau: float
    z: float
    p: float
    rbo: float
    rbo_p: float


@dataclass(frozen=True)
class RunRanking:
    """A run's ranking of its models, best first, and how much of it is only a tie broken by name."""

    order: list[str]
    tied_pairs: int
    """Pairs of models with equal scores; the order puts them by name, which says nothing about the models."""


def _ranking(scores: dict[str, float], *, higher_is_better: bool = True) -> RunRanking | None:
    """The ranking of ``scores``; ``None`` when every model has the same score (nothing to compare)."""
    values = list(scores.values())
    tied = sum(1 for i, a in enumerate(values) for b in values[i + 1:] if a == b)
    if len(values) < 2 or tied == len(values) * (len(values) - 1) // 2:
        return None
    return RunRanking(ranking_from_scores(scores, higher_is_better=higher_is_better), tied)


def run_rankings(results: Sequence[ModelResult], profiles: Sequence[Profile],
                 registry: GameRegistry) -> dict[str, RunRanking]:
    """``Game-Outcome`` by win rate and ``Game-Retro (skill)`` by the rank on the game's ``ranking_skill``,
    best first (ties by name). In a game with teams a model's win rate is taken over all its seats, across the
    teams it played for (``overall_win_rates``), so that it is ranked once.

    A ranking in which every model ties (three models that all won nothing) is left out: its order would be
    alphabetical, and a Kendall's tau or RBO computed from it would measure the names.
    """
    rankings: dict[str, RunRanking] = {}
    rates = overall_win_rates(results)
    for game in sorted({r.game for r in results}):
        outcome = _ranking({model: rate for (of, model), rate in rates.items() if of == game})
        if outcome is not None:
            rankings[f"{game.capitalize()}-Outcome"] = outcome
    for game, skill in ((g.id, g.ranking_skill) for g in registry if g.ranking_skill is not None):
        ranks = {p.model: s.rank for p in profiles for s in p.skills if s.skill == skill and s.rank is not None}
        retro = _ranking(ranks, higher_is_better=False)
        if retro is not None and game in {r.game for r in results}:
            rankings[f"{game.capitalize()}-Retro ({skill})"] = retro
    return rankings


def load_rankings(path: Path) -> dict[str, list[str]]:
    """Rankings from a JSON file, each as a list of names, best first."""
    try:
        raw = json.loads(path.read_text("utf-8"))
    except (OSError, json.JSONDecodeError) as err:
        raise ConfigError(f"cannot read rankings from {path}: {err}") from err
    if not isinstance(raw, dict) or not raw:
        raise ConfigError(f"{path}: expected a JSON object of named rankings")
    rankings: dict[str, list[str]] = {}
    for name, value in raw.items():
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            rankings[name] = list(value)
        elif isinstance(value, dict) and all(isinstance(v, int | float) for v in value.values()):
            rankings[name] = [model for model, _ in sorted(value.items(), key=lambda item: (item[1], item[0]))]
        else:
            raise ConfigError(f"{path}: ranking {name!r} must be a list of names or a mapping of name to rank")
    return rankings


def compare(ours: Mapping[str, Sequence[str]], theirs: Mapping[str, Sequence[str]], *, p: float = 0.9,
            permutations: int = 1000, seed: int = 0) -> list[Comparison]:
    """Every pair (ours, theirs) that shares at least three models."""
    rows: list[Comparison] = []
    for our_name, our_order in ours.items():
        for their_name, their_order in theirs.items():
            common = set(our_order) & set(their_order)
            if len(common) < 3:
                continue
            a = [m for m in our_order if m in common]
            b = [m for m in their_order if m in common]
            k = kendall_tau(a, b)
            rows.append(Comparison(our_name, their_name, tuple(a), k.tau, k.z, k.p, rbo(a, b, p),
                                   rbo_permutation_test(a, b, p, permutations, seed)))
    return rows
