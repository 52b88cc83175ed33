"""Comparing a run's rankings with rankings from elsewhere (GameArena section 4.5, Appendix D).

A run yields, per game, an outcome ranking (a model's win rate over every evaluated seat it held, whatever its
team) and a retrospective ranking (the mean rank on the skill Table 4 names for that game). Rankings from a
file are JSON: ``{"name": ["best model", ...]}`` (an entry may be a list of models that tie) or
``{"name": {"model": rank, ...}}`` (equal ranks tie); models missing from one side are left out of that comparison.
Models that tie stay a tie (``tied_rankings``): ordered by name, two rankings would agree on the alphabet.

A comparison that cannot be told from chance is refused, with the reason, instead of printed with a p-value that
means nothing: two rankings sharing fewer than ``fewest_models()`` models (four at 5%: with three, identical
rankings have p = 1/6), or a run ranking whose models have fewer than ``fewest_matches()`` scored matches each
(four at 5%: with three, a model winning all and one winning none are not told apart), or rankings whose ties
leave even their best agreement short of significance.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from math import factorial
from pathlib import Path

from playeval.analysis.outcomes import ModelResult, overall_win_rates
from playeval.analysis.profile import Profile
from playeval.analysis.ranking import ALPHA, TauMethod, fewest_matches, fewest_models, rbo, rbo_permutation_test
from playeval.analysis.tied_rankings import Ranking, flatten, groups, ranking_tau_test, restrict, tie_groups
from playeval.core.errors import ConfigError
from playeval.core.registry import GameRegistry


@dataclass(frozen=True)
class Comparison:
    ours: str
    theirs: str
    models: tuple[str, ...]
    tau: float
    p: float
    """One-sided p-value of tau (``tied_rankings.ranking_tau_test``: exact, permutation or normal, ``method``)."""
    method: TauMethod
    rbo: float
    rbo_p: float
    fewest_matches: int | None = None
    """The fewest scored matches any of the compared models had in the run (``None`` when not given)."""


@dataclass(frozen=True)
class Refusal:
    """A pair of rankings not compared, and why, in words a reader can act on."""

    ours: str
    theirs: str
    reason: str


@dataclass(frozen=True)
class Comparisons:
    """What ``compare`` made of every pair of rankings: the comparisons, the pairs refused and why, and the
    fewest shared models and scored matches a comparison needs to be told from chance."""

    rows: list[Comparison]
    refused: list[Refusal]
    needed_models: int
    needed_matches: int


@dataclass(frozen=True)
class RunRanking:
    """A run's ranking of its models, best first, and how much of it is a tie."""

    order: list[str]
    """Best first, tied models by name (a display order; ``ranking`` keeps the ties)."""
    tied_pairs: int
    """Pairs of models with equal scores, which the tests count as tied, not ordered."""
    matches: Mapping[str, int] = field(default_factory=dict)
    """Per ranked model, the scored matches of the game the ranking was made from."""
    ranking: Ranking = ()
    """Best first, models with equal scores as one tie group."""


def _ranking(scores: dict[str, float], matches: Mapping[str, int], *,
             higher_is_better: bool = True) -> RunRanking | None:
    """The ranking of ``scores``; ``None`` when every model has the same score (nothing to compare)."""
    values = list(scores.values())
    tied = sum(1 for i, a in enumerate(values) for b in values[i + 1:] if a == b)
    if len(values) < 2 or tied == len(values) * (len(values) - 1) // 2:
        return None
    ranking = tie_groups(scores, higher_is_better=higher_is_better)
    return RunRanking(flatten(ranking), tied, {model: matches.get(model, 0) for model in scores}, ranking)


def run_rankings(results: Sequence[ModelResult], profiles: Sequence[Profile], registry: GameRegistry, *,
                 matches: Mapping[tuple[str, str], int] | None = None) -> dict[str, RunRanking]:
    """``Game-Outcome`` by win rate and ``Game-Retro (skill)`` by the rank on the game's ``ranking_skill``,
    best first (``RunRanking.ranking`` keeps equal scores as a tie group; ``order`` puts them by name). In a game
    with teams a model's win rate is taken over all its seats, across the teams it played for
    (``overall_win_rates``), so that it is ranked once.

    A ranking in which every model ties (three models that all won nothing) is left out: its order would be
    alphabetical, and a Kendall's tau or RBO computed from it would measure the names.

    ``matches`` gives each (game, model) its scored matches (``outcomes.scored_matches``), which both of the
    game's rankings are made from (the retrospective analysis replays the same finished matches); without it,
    the scored seats of ``results`` stand in (the same where a model holds one seat per match).
    """
    rankings: dict[str, RunRanking] = {}
    rates = overall_win_rates(results)
    counts: dict[tuple[str, str], int] = dict(matches) if matches is not None else {}
    if matches is None:
        for result in results:
            counts[(result.game, result.model)] = counts.get((result.game, result.model), 0) + result.scored
    for game in sorted({r.game for r in results}):
        played = {model: count for (of, model), count in counts.items() if of == game}
        outcome = _ranking({model: rate for (of, model), rate in rates.items() if of == game}, played)
        if outcome is not None:
            rankings[f"{game.capitalize()}-Outcome"] = outcome
    for game, skill in ((g.id, g.ranking_skill) for g in registry if g.ranking_skill is not None):
        ranks = {p.model: s.rank for p in profiles for s in p.skills if s.skill == skill and s.rank is not None}
        played = {model: count for (of, model), count in counts.items() if of == game}
        retro = _ranking(ranks, played, higher_is_better=False)
        if retro is not None and game in {r.game for r in results}:
            rankings[f"{game.capitalize()}-Retro ({skill})"] = retro
    return rankings


def _names(value: object) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, str) for v in value)


def load_rankings(path: Path) -> dict[str, Ranking]:
    """Rankings from a JSON file, best first: a list (an entry a name, or a list of names that tie) or a mapping
    of name to rank (equal ranks tie)."""
    try:
        raw = json.loads(path.read_text("utf-8"))
    except (OSError, json.JSONDecodeError) as err:
        raise ConfigError(f"cannot read rankings from {path}: {err}") from err
    if not isinstance(raw, dict) or not raw:
        raise ConfigError(f"{path}: expected a JSON object of named rankings")
    rankings: dict[str, Ranking] = {}
    for name, value in raw.items():
        if isinstance(value, list) and all(isinstance(v, str) or _names(v) for v in value):
            rankings[name] = list(value)
        elif isinstance(value, dict) and all(isinstance(v, int | float) for v in value.values()):
            rankings[name] = tie_groups(value, higher_is_better=False)
        else:
            raise ConfigError(f"{path}: ranking {name!r} must be a list of names (a list of names inside it for "
                              "a tie) or a mapping of name to rank")
        try:
            groups(rankings[name])
        except ValueError as err:
            raise ConfigError(f"{path}: ranking {name!r}: {err}") from err
    return rankings


def compare(ours: Mapping[str, Ranking], theirs: Mapping[str, Ranking], *,
            matches: Mapping[str, Mapping[str, int]] | None = None, alpha: float = ALPHA, p: float = 0.9,
            permutations: int = 1000, seed: int = 0) -> Comparisons:
    """Every pair (ours, theirs) that shares two models or more: compared when it can be told from chance at
    ``alpha``, refused with the reason otherwise.

    ``matches`` gives, per ranking of ``ours``, each model's scored matches (``RunRanking.matches``); a ranking
    not in it is not checked for matches (rankings from elsewhere carry no counts). Pairs sharing fewer than two
    models (names spelled differently, most often) are left out silently. Tau is tau-b where models tie
    (``tied_rankings.ranking_tau_test``; ``permutations`` and ``seed`` serve its estimated null too); RBO and its
    test take tied models by name.
    """
    needed_models, needed_matches = fewest_models(alpha), fewest_matches(alpha)
    rows: list[Comparison] = []
    refused: list[Refusal] = []
    for our_name, our_ranking in ours.items():
        for their_name, their_ranking in theirs.items():
            common = set(flatten(our_ranking)) & set(flatten(their_ranking))
            if len(common) < 2:
                continue
            a, b = restrict(our_ranking, common), restrict(their_ranking, common)
            order_a, order_b = flatten(a), flatten(b)
            played = matches.get(our_name) if matches is not None else None
            fewest = min((played.get(m, 0), m) for m in order_a) if played is not None else None
            reason: str | None = None
            if len(common) < needed_models:
                reason = (f"{our_name} vs {their_name} share {len(common)} models; at least {needed_models} are "
                          f"needed (with {len(common)}, even identical rankings have p = 1/{factorial(len(common))}, "
                          f"not below {alpha:g})")
            elif fewest is not None and fewest[0] < needed_matches:
                reason = (f"{our_name}: {fewest[1]} has {fewest[0]} scored match{'es' if fewest[0] != 1 else ''}; "
                          f"at least {needed_matches} per model are needed (with fewer, a model winning every match "
                          f"and one losing every match are not told apart, Fisher's exact test at {alpha:g})")
            elif len(a) < 2 or len(b) < 2:
                reason = f"{our_name} vs {their_name}: one of them ties all {len(common)} shared models"
            if reason is not None:
                refused.append(Refusal(our_name, their_name, reason))
                continue
            k = ranking_tau_test(a, b, permutations=permutations, seed=seed)
            if k.smallest_p >= alpha:
                refused.append(Refusal(our_name, their_name, (
                    f"{our_name} vs {their_name}: with their ties, even the best agreement of these {len(common)} "
                    f"models has p = {k.smallest_p:.3g}, not below {alpha:g}")))
                continue
            rows.append(Comparison(our_name, their_name, tuple(order_a), k.tau, k.p, k.method, rbo(order_a, order_b, p),
                                   rbo_permutation_test(order_a, order_b, p, permutations, seed),
                                   None if fewest is None else fewest[0]))
    return Comparisons(rows, refused, needed_models, needed_matches)
