"""Procedural metrics of GameArena (section 3.2.2): pure functions over one game session's retrospective outputs.

* Akinator and Taboo: the model's ranked candidate lists, one per round, give the recall rates, the round the
  secret first appears and its final rank (:func:`candidate_list_metrics`); a yes/no question's split of the
  previous list gives the disparity ratio of Eq. 1 (:func:`disparity_ratio`).
* Bluffing: the model's five-level truthfulness judgements, one per round, give the recall rate, Spearman's
  coefficient (Eq. 2), the hopping penalty (Eq. 3), the first correct round and the final distance
  (:func:`bluffing_metrics`).

Candidates are compared with the secret by :func:`playeval.core.normalize.same_name` (case, articles, hyphens,
punctuation and plurals folded; whole names only, never substrings).
"""

from __future__ import annotations

import math
import statistics
import string
from collections.abc import Sequence
from itertools import pairwise

from playeval.core.normalize import same_name

JUDGEMENT_LEVELS: tuple[str, ...] = ("True", "Possibly true", "Unknown", "Possibly false", "False")
"""The five-level spectrum of the Bluffing retrospective prompt; level ``i`` is ``JUDGEMENT_LEVELS[i - 1]``."""

_LEVEL_BY_TEXT = {text.lower(): index for index, text in enumerate(JUDGEMENT_LEVELS, start=1)}
_EDGE_CHARACTERS = string.whitespace + string.punctuation


def _rank_of(candidates: Sequence[str], secret: str) -> int | None:
    """1-based position of the first candidate naming the secret, ``None`` when no candidate does."""
    for position, candidate in enumerate(candidates, start=1):
        if same_name(candidate, secret):
            return position
    return None


def candidate_list_metrics(lists: Sequence[Sequence[str]], secret: str,
                           ks: Sequence[int] = (5, 10)) -> dict[str, float | int | None]:
    """Recall metrics of one session's ranked candidate lists (section 3.2.2, Akinator and Taboo).

    ``lists[i]`` is the ranked list (best first) the model proposed after round ``i + 1``. Returns:

    * ``recall_rate``: the fraction of lists that contain the secret;
    * ``top{k}_recall_rate`` for each ``k`` in ``ks``: the fraction of lists in which the secret's 1-based rank
      is at most ``k``;
    * ``first_appear_round``: the 1-based round of the first list containing the secret (``None`` if never);
    * ``final_rank``: the secret's 1-based rank in the last list (``None`` if it is absent there or there are
      no lists).

    With no lists the rates are ``None``. Raises ``ValueError`` when a ``k`` is below 1.
    """
    for k in ks:
        if k < 1:
            raise ValueError(f"top-k cut-off must be at least 1, got {k}")
    ranks = [_rank_of(candidates, secret) for candidates in lists]
    total = len(ranks)
    metrics: dict[str, float | int | None] = {
        "recall_rate": sum(1 for rank in ranks if rank is not None) / total if total else None,
    }
    for k in ks:
        hits = sum(1 for rank in ranks if rank is not None and rank <= k)
        metrics[f"top{k}_recall_rate"] = hits / total if total else None
    metrics["first_appear_round"] = next((index for index, rank in enumerate(ranks, start=1) if rank is not None),
                                         None)
    metrics["final_rank"] = ranks[-1] if ranks else None
    return metrics


def disparity_ratio(yes_count: int, no_count: int) -> float:
    """Eq. 1: ``|size_yes - size_no| / size_object_list`` with ``size_object_list = yes + no``.

    ``yes_count`` and ``no_count`` are how many candidates of the previous round's list the question's answer
    "yes" and "no" would keep. 0 is an even split (the most informative question), 1 a split that keeps
    everything on one side. Raises ``ValueError`` when a count is negative or both are 0.
    """
    if yes_count < 0 or no_count < 0:
        raise ValueError(f"counts must not be negative, got yes={yes_count}, no={no_count}")
    total = yes_count + no_count
    if total == 0:
        raise ValueError("disparity ratio of an empty list is undefined")
    return abs(yes_count - no_count) / total


def judgement_level(text: str) -> int:
    """The level (1 = "True" .. 5 = "False") of a judgement in :data:`JUDGEMENT_LEVELS`.

    Matching ignores case, surrounding whitespace and punctuation (``"** possibly TRUE. **"`` is 2) and runs of
    inner whitespace. Raises ``ValueError`` for any other text.
    """
    key = " ".join(text.strip(_EDGE_CHARACTERS).lower().split())
    try:
        return _LEVEL_BY_TEXT[key]
    except KeyError:
        raise ValueError(f"not a judgement level: {text!r}; expected one of {', '.join(JUDGEMENT_LEVELS)}") from None


def _average_ranks(values: Sequence[float]) -> list[float]:
    """1-based ranks of ``values`` in ascending order, tied values sharing the average of their ranks."""
    order = sorted(range(len(values)), key=lambda index: values[index])
    ranks = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        average = (start + end) / 2 + 1
        for position in range(start, end + 1):
            ranks[order[position]] = average
        start = end + 1
    return ranks


def _spearman(xs: Sequence[float], ys: Sequence[float]) -> float | None:
    """Spearman's rho as the Pearson correlation of average ranks; ``None`` if either side is constant or N < 2."""
    if len(xs) < 2:
        return None
    rx, ry = _average_ranks(xs), _average_ranks(ys)
    mx, my = statistics.fmean(rx), statistics.fmean(ry)
    sxy = sum((x - mx) * (y - my) for x, y in zip(rx, ry, strict=True))
    sxx = sum((x - mx) ** 2 for x in rx)
    syy = sum((y - my) ** 2 for y in ry)
    if sxx == 0 or syy == 0:
        return None
    return sxy / math.sqrt(sxx * syy)


def bluffing_metrics(judgements: Sequence[str], truth: bool) -> dict[str, float | int | None]:
    """Procedural metrics of one Bluffing session (section 3.2.2, Eqs. 2 and 3).

    ``judgements[i]`` is the model's judgement after round ``i + 1`` (a :data:`JUDGEMENT_LEVELS` text), ``truth``
    whether the player's statement was true. With ``j_i`` the level of judgement ``i``, ``g = 1`` for a true
    statement and ``g = 5`` for a false one, and ``D_i = |j_i - g|`` (Eq. 2), returns:

    * ``recall_rate``: the fraction of rounds whose judgement is on the truth's side (levels 1-2 for a true
      statement, 4-5 for a false one; "Unknown" is on neither side);
    * ``spearman``: Spearman's rank correlation between the round numbers ``1..N`` and ``D_i`` (Eq. 2), ties
      given average ranks and rho computed as the Pearson correlation of the ranks (Eq. 2's closed form
      ``1 - 6 sum d_i^2 / (N(N^2 - 1))`` is exact only without ties, and its ``d_i`` must be the difference of
      the ranks of ``i`` and ``D_i``). Negative means the judgements approach the truth as rounds go on.
      ``None`` when N < 2 or ``D`` is constant;
    * ``hopping_penalty``: Eq. 3, ``sum_{i=1}^{N-1} |j_{i+1} - j_i| / (N - 1)``; ``None`` when N < 2;
    * ``first_correct_round``: the first 1-based round on the truth's side (``None`` if never);
    * ``final_distance``: ``D_N`` (``None`` when there are no judgements).

    Raises ``ValueError`` for a judgement that is not one of the five levels.
    """
    levels = [judgement_level(text) for text in judgements]
    goal = 1 if truth else 5
    distances = [abs(level - goal) for level in levels]
    correct = [distance <= 1 for distance in distances]
    count = len(levels)
    return {
        "recall_rate": sum(correct) / count if count else None,
        "spearman": _spearman([float(i) for i in range(1, count + 1)], [float(d) for d in distances]),
        "hopping_penalty": (sum(abs(after - before) for before, after in pairwise(levels))
                            / (count - 1) if count >= 2 else None),
        "first_correct_round": next((index for index, ok in enumerate(correct, start=1) if ok), None),
        "final_distance": distances[-1] if distances else None,
    }
