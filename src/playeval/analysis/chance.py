"""Each model's win rate beside chance: the baseline players' rows kept apart from the models', and every model
marked against the ``random`` baseline's rate on the same game (``playeval run ... --baselines``).

A baseline player (``core.baselines``, model address ``baseline/NAME``) is recorded like a model, so
``analysis.summarize`` gives it a row like any model's; the tables show those rows under the models, by name,
never ranked among them. A run's baselines play the same setups as its models (the same seeds and secrets), so
within one run the ``random`` baseline's rate is the chance level of the models' rates on that game.

The verdict compares 95% intervals over matches (``ModelResult.win_low``/``win_high``): a model whose interval
overlaps the random baseline's on the same game (and team, in a team game) is **not above chance**; one whose
interval lies wholly above it is above chance, wholly below it below chance. Overlapping intervals are the
cautious test the issue asks for: a difference they do not show may still be there, but one they show is real.
No verdict is given where the run has no random baseline on that game, or either rate is n/a.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from playeval.analysis.outcomes import ModelResult
from playeval.core.baselines import RANDOM, baseline_address, baseline_name, is_baseline

RANDOM_BASELINE = baseline_address(RANDOM)
"""The chance reference: the ``random`` baseline's address (``baseline/random``)."""

ABOVE = "above chance"
NOT_ABOVE = "not above chance"
BELOW = "below chance"

Key = tuple[str, str, str | None]
"""(game, model, team), as ``ModelResult`` rows are keyed."""


def key_of(result: ModelResult) -> Key:
    return result.game, result.model, result.team


def split_baselines(results: Iterable[ModelResult]) -> tuple[list[ModelResult], list[ModelResult]]:
    """The models' rows and the baseline players' rows, each in the order given."""
    rows = list(results)
    return [r for r in rows if not is_baseline(r.model)], [r for r in rows if is_baseline(r.model)]


def player_label(model: str) -> str:
    """How a row names its player: a baseline by its name (``random``), a model by its address."""
    return baseline_name(model) or model


def chance_verdict(result: ModelResult, chance: ModelResult | None) -> str | None:
    """:data:`ABOVE`, :data:`NOT_ABOVE` or :data:`BELOW` for a model's row against the random baseline's row on the
    same game and team; ``None`` for a baseline's own row, without a baseline, or when either has no interval."""
    if chance is None or is_baseline(result.model):
        return None
    return interval_verdict((result.win_low, result.win_high), (chance.win_low, chance.win_high))


def interval_verdict(interval: tuple[float | None, float | None], chance: tuple[float | None, float | None]
                     ) -> str | None:
    """:data:`ABOVE`, :data:`NOT_ABOVE` or :data:`BELOW` for a model's 95% interval against the random baseline's
    (see the module), ``None`` when either is missing: the one test every table marking chance applies."""
    low, high = interval
    chance_low, chance_high = chance
    if low is None or high is None or chance_low is None or chance_high is None:
        return None
    if low > chance_high:
        return ABOVE
    if high < chance_low:
        return BELOW
    return NOT_ABOVE


def chance_rates(results: Sequence[ModelResult]) -> Mapping[tuple[str, str | None], ModelResult]:
    """The random baseline's row per (game, team), where the run has one."""
    return {(r.game, r.team): r for r in results if r.model == RANDOM_BASELINE}


def chance_verdicts(results: Sequence[ModelResult]) -> Mapping[Key, str]:
    """Per model row (by :func:`key_of`) that has one, its verdict against the random baseline (see the module)."""
    chance = chance_rates(results)
    found: dict[Key, str] = {}
    for result in results:
        verdict = chance_verdict(result, chance.get((result.game, result.team)))
        if verdict is not None:
            found[key_of(result)] = verdict
    return found
