"""Scoring one match's retrospective outputs, for games whose outputs are candidate lists or judgements.

A game's ``score_retro`` calls one of these with what only the game knows (the secret the lists should hold,
the statement's truth). An unreadable output counts as a list without the secret and is left out of the
judgements, as GameArena's metrics need one value per round.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence

from playeval.core.game import RetroOutput, RetroScore
from playeval.core.info import MetricSpec
from playeval.core.normalize import same_name
from playeval.metrics.procedural import bluffing_metrics, candidate_list_metrics, disparity_ratio, judgement_level

CANDIDATES = "candidates"
JUDGEMENT = "judgement"
SPLIT = "split"
NEVER_LISTED = "matches whose secret never appeared in a list"


def candidate_metrics(skill: str) -> tuple[MetricSpec, ...]:
    """GameArena's metrics of ranked candidate lists (Table 1): the recall rates measure multi-hop reasoning,
    the first-appear round and the final rank ``skill`` (deductive for Akinator, abductive for Taboo)."""
    return (
        MetricSpec(name="recall_rate", label="Recall rate", percent=True, lower_is_better=False, skill="multi-hop"),
        MetricSpec(name="top5_recall_rate", label="Top 5 recall rate", percent=True, lower_is_better=False,
                   skill="multi-hop"),
        MetricSpec(name="top10_recall_rate", label="Top 10 recall rate", percent=True, lower_is_better=False,
                   skill="multi-hop"),
        MetricSpec(name="first_appear_round", label="Avg. first appear round", percent=False, lower_is_better=True,
                   skill=skill, missing_note=NEVER_LISTED),
        MetricSpec(name="final_rank", label="Avg. final rank", percent=False, lower_is_better=True, skill=skill),
    )


def _of_kind(outputs: Sequence[RetroOutput], kind: str) -> list[RetroOutput]:
    return sorted((output for output in outputs if output.kind == kind), key=lambda output: output.round)


def score_candidates(outputs: Sequence[RetroOutput], target: str, *, disparity: bool = False) -> RetroScore:
    """Recall metrics of the candidate lists against ``target``; with ``disparity``, the mean disparity ratio of
    the Yes/No splits of each list by the next round's question (``None`` without a readable split)."""
    candidates = _of_kind(outputs, CANDIDATES)
    lists = [tuple(str(name) for name in output.output) if isinstance(output.output, list) else ()
             for output in candidates]
    metrics: dict[str, float | int | None] = {}
    hits: dict[int, bool | None] = {}
    if candidates:
        metrics.update(candidate_list_metrics(lists, target))
        for output, names in zip(candidates, lists, strict=True):
            readable = isinstance(output.output, list)
            hits[output.round] = any(same_name(name, target) for name in names) if readable else None
    if disparity and candidates:
        ratios: list[float] = []
        for split in _of_kind(outputs, SPLIT):
            answers = list(split.output.get("answers", [])) if isinstance(split.output, dict) else []
            yes = sum(1 for answer in answers if answer == "Yes")
            if answers:
                ratios.append(disparity_ratio(yes, len(answers) - yes))
        metrics["disparity_ratio"] = statistics.fmean(ratios) if ratios else None
    return RetroScore(metrics=metrics, hits=hits)


def score_judgements(outputs: Sequence[RetroOutput], truth: bool) -> RetroScore:
    """GameArena's Bluffing metrics of the five-level judgements against the statement's ``truth``."""
    judgements = _of_kind(outputs, JUDGEMENT)
    texts: list[str] = []
    hits: dict[int, bool | None] = {}
    for output in judgements:
        level = output.output.get("level") if isinstance(output.output, dict) else None
        if level is None:
            hits[output.round] = None
            continue
        texts.append(str(level))
        distance = abs(judgement_level(str(level)) - (1 if truth else 5))
        hits[output.round] = distance <= 1
    metrics = bluffing_metrics(texts, truth) if texts else {}
    levels = tuple(judgement_level(text) for text in texts)
    return RetroScore(metrics=metrics, hits=hits, levels=levels, truth=truth)
