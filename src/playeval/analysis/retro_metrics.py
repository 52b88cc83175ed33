"""Procedural metrics of a run (GameArena section 3.2.2, Tables 1 and 3), from its stored retrospective outputs.

Each game scores its own matches (``Game.score_retro``) and declares its metrics (``Game.metrics``); here they
are averaged per model and game. A round whose output could not be read counts as the game's scoring says
(GameArena's: a list without the secret, or a judgement left out); ``failed_outputs`` says how many there
were. A metric with no value for a match (the secret never appeared, so it has no first-appear round) is
averaged over the others, and the matches without it are counted under the metric's ``missing_note``, so
that a model is not flattered by the average.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from playeval.core.game import Game, RetroGame, RetroOutput, RetroScore
from playeval.core.info import MetricSpec
from playeval.core.registry import GameRegistry
from playeval.metrics.retro import CANDIDATES, SPLIT
from playeval.store import MatchRecord, RetroRecord, Store


def metric_specs(game: Game[Any]) -> tuple[MetricSpec, ...]:
    """The procedural metrics of a game, with the reasoning skill each measures (Table 1)."""
    return tuple(game.metrics)


@dataclass(frozen=True)
class MatchRetro:
    """One match's retrospective data, read back and scored by its game."""

    match_id: str
    game: str
    model: str
    score: RetroScore
    candidate_rounds: tuple[int, ...] = ()
    """The rounds that have a candidate list, in order (for recall curves)."""
    failed_outputs: int = 0
    metrics: dict[str, float | int | None] = field(default_factory=dict)

    @property
    def levels(self) -> tuple[int, ...]:
        """Five-level judgements by round (1 = True ... 5 = False), for games that ask for them."""
        return self.score.levels


@dataclass(frozen=True)
class ProceduralSummary:
    game: str
    model: str
    matches: int
    values: dict[str, float | None]
    missing: tuple[tuple[str, int], ...]
    """(a metric's missing note, how many matches lack that metric), for notes that apply."""
    failed_outputs: int


def retro_outputs(records: Sequence[RetroRecord]) -> list[RetroOutput]:
    return [RetroOutput(round=r.round, kind=r.kind, output=r.output, error=r.error) for r in records]


def score_retro(game: Game[Any], match: MatchRecord, records: Sequence[RetroRecord]) -> MatchRetro | None:
    """One match's stored outputs, scored by its game; ``None`` for a game without retrospective analysis."""
    if not isinstance(game, RetroGame) or not records:
        return None
    outputs = retro_outputs(records)
    score = game.score_retro(match.spec, outputs)
    rounds = tuple(sorted(output.round for output in outputs if output.kind == CANDIDATES))
    model = next((r.model for r in records if r.kind != SPLIT), records[0].model)  # a judge's splits aside
    return MatchRetro(match.id, match.game, model, score, rounds, sum(1 for r in records if r.error is not None),
                      dict(score.metrics))


def match_retros(store: Store, run_id: str, registry: GameRegistry) -> list[MatchRetro]:
    """Every finished match of the run that has retrospective outputs, scored."""
    found: list[MatchRetro] = []
    for match in store.run_matches(run_id):
        if match.status != "finished" or match.outcome is None:
            continue
        retro = score_retro(registry.get(match.game), match, store.retro_outputs(match.id))
        if retro is not None:
            found.append(retro)
    return found


def summarize_procedural(retros: Sequence[MatchRetro], registry: GameRegistry) -> list[ProceduralSummary]:
    """Per (game, model): each of the game's metrics averaged over the matches that have it."""
    groups: dict[tuple[str, str], list[MatchRetro]] = defaultdict(list)
    for retro in retros:
        groups[(retro.game, retro.model)].append(retro)
    summaries: list[ProceduralSummary] = []
    for (game_id, model), group in sorted(groups.items()):
        specs = metric_specs(registry.get(game_id))
        values: dict[str, float | None] = {}
        missing: list[tuple[str, int]] = []
        for spec in specs:
            present = [float(v) for r in group if (v := r.metrics.get(spec.name)) is not None]
            values[spec.name] = statistics.fmean(present) if present else None
            if spec.missing_note is not None:
                missing.append((spec.missing_note, len(group) - len(present)))
        summaries.append(ProceduralSummary(game_id, model, len(group), values, tuple(missing),
                                           sum(r.failed_outputs for r in group)))
    return summaries


def recall_by_round(retros: Sequence[MatchRetro]) -> dict[tuple[str, str], list[tuple[int, float, int]]]:
    """Per (game, model): (round, fraction of lists at that round holding the secret, lists at that round)."""
    curves: dict[tuple[str, str], list[tuple[int, float, int]]] = {}
    groups: dict[tuple[str, str], list[MatchRetro]] = defaultdict(list)
    for retro in retros:
        if retro.candidate_rounds:
            groups[(retro.game, retro.model)].append(retro)
    for key, group in sorted(groups.items()):
        longest = max(len(r.candidate_rounds) for r in group)
        points: list[tuple[int, float, int]] = []
        for index in range(longest):
            present = [r for r in group if len(r.candidate_rounds) > index]
            hits = sum(1 for r in present if r.score.hits.get(r.candidate_rounds[index]))
            points.append((index + 1, hits / len(present), len(present)))
        curves[key] = points
    return curves
