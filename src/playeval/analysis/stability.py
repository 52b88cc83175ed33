"""Stability: do two runs of the same models rank them alike? (GameArena's Set 1 vs Set 2 check.)

A side is a set of rankings, one per scope, best first: ``{"overall": [...], "akinator": [...], ...}``; an entry
is a model or a group of models that tie (``tied_rankings``). Two sides come from two runs that differ in one thing
(the secret set, the seed, the prompt wording), and a ranking that changes with it says more about that thing
than about the models.

Per scope present on both sides, over the models both rank (a model ranked on one side only is listed and left
out): Kendall's tau (tau-b where models tie) with its one-sided test (``tied_rankings.tied_tau_test``: exact for
few models, seeded permutations or the normal approximation for many), rank-biased overlap (``ranking.rbo``,
extrapolated, persistence 0.9, tied models taken by name), and every pair of models whose order swapped (a tie is
no order, so a pair tied on either side never swapped). Where even the best agreement these models and ties allow
could not reach p below ``alpha`` (fewer than four models, at 5%), the result says so rather than leave a p-value
to be misread.

Where the rankings come from is the caller's: :func:`win_rate_rankings` ranks by win rate over scored matches,
a stand-in until ratings rank the models.
"""

from __future__ import annotations

import statistics
import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from playeval.analysis.bradley_terry import RatedPlayer
from playeval.analysis.leaderboard import load_leaderboard
from playeval.analysis.load import match_rows
from playeval.analysis.outcomes import summarize
from playeval.analysis.ranking import ALPHA, TauMethod, fewest_models, rbo
from playeval.analysis.tied_rankings import (
    PERMUTATIONS,
    Ranking,
    entries,
    flatten,
    groups,
    opposed_pairs,
    ranking_tau_test,
    restrict,
    tie_groups,
)
from playeval.core.baselines import is_baseline
from playeval.core.registry import GameRegistry
from playeval.store import Store

OVERALL = "overall"
"""The scope of the ranking over every game."""

RBO_PERSISTENCE = 0.9
NOTE_WIDTH = 100
"""Width the notes under the table are wrapped to (the table and the listed pairs are not wrapped)."""


@dataclass(frozen=True)
class ScopeStability:
    """One scope's two rankings compared over the models both sides rank."""

    scope: str
    order_a: tuple[tuple[str, ...], ...]
    """The shared models in side A's order, best first, as tie groups."""
    order_b: tuple[tuple[str, ...], ...]
    """The same models in side B's order."""
    tau: float | None
    """``None`` when fewer than two models are shared or one side ties them all (nothing to order)."""
    p: float | None
    method: TauMethod | None
    rbo: float | None
    swapped: tuple[tuple[str, str], ...]
    """``(x, y)``: A ranks ``x`` above ``y``, B below; in A's order."""
    tied: int
    """Pairs of shared models tied on either side (neither agreeing nor swapped)."""
    only_a: tuple[str, ...]
    only_b: tuple[str, ...]
    can_be_significant: bool
    """Whether the best agreement these models and ties allow reaches p below ``alpha``."""

    @property
    def models(self) -> int:
        return sum(len(group) for group in self.order_a)


@dataclass(frozen=True)
class Stability:
    label_a: str
    label_b: str
    alpha: float
    scopes: tuple[ScopeStability, ...]
    scopes_only_a: tuple[str, ...]
    scopes_only_b: tuple[str, ...]

    def as_json(self) -> dict[str, Any]:
        """Plain JSON: every scope's numbers, orders as in the input (a tie group as a list), the swapped pairs
        as two-item lists, ``null`` where undefined."""
        return {
            "a": self.label_a,
            "b": self.label_b,
            "alpha": self.alpha,
            "needed_models": fewest_models(self.alpha),
            "scopes": [{
                "scope": s.scope,
                "models": s.models,
                "order_a": entries(s.order_a),
                "order_b": entries(s.order_b),
                "tau": s.tau,
                "p": s.p,
                "test": s.method,
                "rbo": s.rbo,
                "can_be_significant": s.can_be_significant,
                "swapped": [list(pair) for pair in s.swapped],
                "tied": s.tied,
                "only_a": list(s.only_a),
                "only_b": list(s.only_b),
            } for s in self.scopes],
            "scopes_only_a": list(self.scopes_only_a),
            "scopes_only_b": list(self.scopes_only_b),
        }


def _scope_order(scopes: Sequence[str]) -> list[str]:
    """The overall scope first, then the rest by name."""
    return sorted(scopes, key=lambda scope: (scope != OVERALL, scope))


def compare_scope(scope: str, a: Ranking, b: Ranking, *, alpha: float = ALPHA, permutations: int = PERMUTATIONS,
                  seed: int = 0) -> ScopeStability:
    """One scope: tau, its test, RBO and the swapped pairs over the models both rankings hold."""
    in_a, in_b = flatten(a), flatten(b)
    shared = set(in_a) & set(in_b)
    order_a = tuple(tuple(group) for group in restrict(a, shared))
    order_b = tuple(tuple(group) for group in restrict(b, shared))
    only_a = tuple(m for m in in_a if m not in shared)
    only_b = tuple(m for m in in_b if m not in shared)
    if len(shared) < 2 or len(order_a) < 2 or len(order_b) < 2:  # nothing to order: every shared pair ties
        tied = len(shared) * (len(shared) - 1) // 2
        return ScopeStability(scope, order_a, order_b, None, None, None, None, (), tied, only_a, only_b, False)
    test = ranking_tau_test(order_a, order_b, permutations=permutations, seed=seed)
    return ScopeStability(scope, order_a, order_b, test.tau, test.p, test.method,
                          rbo(flatten(order_a), flatten(order_b), RBO_PERSISTENCE),
                          tuple(opposed_pairs(order_a, order_b)), test.tied, only_a, only_b,
                          test.smallest_p < alpha)


def stability(a: Mapping[str, Ranking], b: Mapping[str, Ranking], *, label_a: str = "A", label_b: str = "B",
              alpha: float = ALPHA, permutations: int = PERMUTATIONS, seed: int = 0) -> Stability:
    """Every scope both sides rank, compared (overall first, then by name); the scopes only one side ranks are
    listed. ``permutations`` and ``seed`` drive the estimated null of a scope with ties and many models. Raises
    ``ValueError`` when a ranking lists a model twice or ``alpha`` is not in (0, 1)."""
    for side in (a, b):
        for ranking in side.values():
            groups(ranking)  # a model listed twice fails here, before any work
    fewest_models(alpha)  # and so does an alpha outside (0, 1)
    shared = _scope_order([scope for scope in a if scope in b])
    return Stability(
        label_a=label_a,
        label_b=label_b,
        alpha=alpha,
        scopes=tuple(compare_scope(scope, a[scope], b[scope], alpha=alpha, permutations=permutations, seed=seed)
                     for scope in shared),
        scopes_only_a=tuple(_scope_order([scope for scope in a if scope not in b])),
        scopes_only_b=tuple(_scope_order([scope for scope in b if scope not in a])),
    )


def _number(value: float | None, digits: int) -> str:
    return "n/a" if value is None else f"{value:.{digits}f}"


def _ranking_text(order: tuple[tuple[str, ...], ...]) -> str:
    return " > ".join(group[0] if len(group) == 1 else f"({' = '.join(group)})" for group in order)


def format_stability(found: Stability) -> str:
    """A plain-text table, one row per scope, then the swapped pairs, the orders where models tie, the models
    left out and the caveats."""
    header = ("scope", "models", "tied", "tau", "p (tau)", "test", "RBO", "swapped")
    rows = [(s.scope, str(s.models), str(s.tied), _number(s.tau, 2),
             _number(s.p, 4) + ("" if s.can_be_significant else " *"), s.method or "-", _number(s.rbo, 2),
             str(len(s.swapped))) for s in found.scopes]
    widths = [max(len(line[i]) for line in (header, *rows)) for i in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(cell.ljust(width) if i in (0, 5) else cell.rjust(width)
                         for i, (cell, width) in enumerate(zip(cells, widths, strict=True))).rstrip()

    out = [f"stability: {found.label_a} (A) vs {found.label_b} (B)", line(header),
           "  ".join("-" * width for width in widths)]
    out.extend(line(row) for row in rows)
    if not found.scopes:
        out.append("(no scope is ranked on both sides)")
    out.append("")
    for s in found.scopes:
        if s.swapped:
            pairs = ", ".join(f"{x} > {y}" for x, y in s.swapped)
            out.append(f"{s.scope}: swapped (order in A, reversed in B): {pairs}")
        if s.tied:
            out.append(f"{s.scope}: with ties, A: {_ranking_text(s.order_a)}; B: {_ranking_text(s.order_b)}")
        if s.only_a or s.only_b:
            out.append(f"{s.scope}: left out, ranked only in A: {', '.join(s.only_a) or '-'}; "
                       f"only in B: {', '.join(s.only_b) or '-'}")
    if found.scopes_only_a or found.scopes_only_b:
        out.append(f"scopes ranked on one side only: A: {', '.join(found.scopes_only_a) or '-'}; "
                   f"B: {', '.join(found.scopes_only_b) or '-'}")
    out.append(textwrap.fill(
        "tau test: one-sided (H1: the rankings agree); tau-b where models tie (a tied pair counts neither way, "
        "and never as swapped); exact: the share of all n! pairings of the shared models agreeing at least as "
        "well; permutation: estimated from seeded random pairings (ties and many models); normal: the normal "
        f"approximation (many models, no ties). RBO: extrapolated, persistence {RBO_PERSISTENCE}, tied models "
        "taken by name.", NOTE_WIDTH))
    if any(not s.can_be_significant for s in found.scopes):
        out.append(textwrap.fill(
            f"* even the best agreement these models and ties allow has p >= {found.alpha:g} (with no ties, fewer "
            f"than {fewest_models(found.alpha)} models: p = 1/n!), so this agreement cannot be told from chance.",
            NOTE_WIDTH))
    return "\n".join(out)


def win_rate_rankings(store: Store, registry: GameRegistry, run_ids: Sequence[str], *,
                      with_baselines: bool = False) -> dict[str, Ranking]:
    """Rankings of the runs' models by win rate: per game over the scored matches (``outcomes.summarize``, a
    model's teams taken together), and ``overall`` by the mean of the per-game win rates, every game weighted
    equally. Models with equal rates are a tie group.

    The overall ranking holds only the models with a win rate in every game of the runs: a mean over fewer games
    would rank a model on easier or harder games than the others. Baseline players are left out (they are a
    reference, not ranked models), and so is a ranking in which every model ties (it orders nothing). A stand-in
    until ratings rank the models.
    """
    rows = [row for run_id in run_ids for row in match_rows(store, run_id, registry)
            if with_baselines or not is_baseline(row.model)]
    rates: dict[str, dict[str, float]] = {}
    for result in summarize(rows, by_team=False):
        if result.scored and result.win_rate is not None:
            rates.setdefault(result.game, {})[result.model] = result.win_rate
    rankings: dict[str, Ranking] = {}
    for game, scores in sorted(rates.items()):
        if len(set(scores.values())) > 1:
            rankings[game] = tie_groups(scores)
    everywhere = set.intersection(*(set(scores) for scores in rates.values())) if rates else set()
    overall = {model: statistics.fmean(scores[model] for scores in rates.values()) for model in everywhere}
    if len(set(overall.values())) > 1:
        rankings[OVERALL] = tie_groups(overall)
    return rankings


def rating_rankings(store: Store, registry: GameRegistry, run_ids: Sequence[str], *,
                    with_baselines: bool = False) -> dict[str, Ranking]:
    """Rankings of the runs' models by their leaderboard ratings (``analysis.leaderboard``, the ratings
    ``playeval leaderboard`` prints): per game (a run on another secret set plays another board of the same game, so
    scopes are games, not boards; a game with several boards in the runs is ranked per board) and ``overall``, by
    the rating's point estimate, models with equal ratings as one tie group. ``with_baselines``: the baseline
    players are ranked with the models (three models alone can never show agreement beyond chance: 1/3! = 1/6)."""
    board = load_leaderboard(store, registry, list(run_ids), with_people=False)
    per_game: dict[str, int] = {}
    for result in board.boards:
        per_game[result.game] = per_game.get(result.game, 0) + 1
    rankings: dict[str, Ranking] = {}

    def scores(rows: Sequence[RatedPlayer], extra: Sequence[RatedPlayer]) -> dict[str, float]:
        return {row.player: round(row.rating, 6) for row in (*rows, *(extra if with_baselines else ()))}

    for result in board.boards:
        scope = result.game if per_game[result.game] == 1 else result.name
        found = scores(result.ratings, result.baseline_ratings)
        if len(found) > 1 and len(set(found.values())) > 1:
            rankings[scope] = tie_groups(found)
    overall = scores(board.overall, board.overall_baselines)
    if len(overall) > 1 and len(set(overall.values())) > 1:
        rankings[OVERALL] = tie_groups(overall)
    return rankings
