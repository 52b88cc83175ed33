"""What decided a run's verdicts: the judges' own words, calibrated thresholds, or the games' rules.

Read only from what was recorded: the verdict records every judge action keeps in its data
(``core.verdicts.recorded_verdicts``) and the calibrations the run recorded when it started
(``RunConfig.calibration``, ``RunConfig.calibrations``). ``playeval results`` and the report say in a line or two
whether a run's verdicts were calibrated, by which file, and how many each source decided, so a reader knows how
far to trust a judged win rate.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field

from playeval.core.events import ActionApplied
from playeval.core.verdicts import recorded_verdicts
from playeval.engine.plan import RunConfig
from playeval.store import Store


@dataclass(frozen=True)
class VerdictSources:
    """How many of a run's recorded verdicts each source decided (``core.verdicts.Decided``)."""

    decided: Mapping[str, int] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return sum(self.decided.values())


def run_verdict_sources(store: Store, run_id: str) -> VerdictSources:
    """The verdict records of every match of ``run_id`` (finished or not), counted by what decided them."""
    decided: Counter[str] = Counter()
    for match in store.run_matches(run_id):
        for event in store.events(match.id):
            if isinstance(event, ActionApplied):
                for record in recorded_verdicts(event.action.data):
                    decided[record.decided] += 1
    return VerdictSources(decided=dict(decided))


_SOURCES = (("word", "by the judge's own word"), ("threshold", "by a calibrated threshold"),
            ("rules", "by the game's rules"))


def calibration_lines(config: RunConfig) -> list[str]:
    """The run's calibration as recorded: off, or each model's file, identity and thresholds (nothing when
    calibration was on and no calibration was found for any of its models)."""
    if not config.calibration:
        return ["calibration: off (--no-calibration): every verdict is the judge's own word"]
    lines: list[str] = []
    for address, held in config.calibrations.items():
        thresholds = "; ".join(f"{game} " + ", ".join(f"{kind} >= {value:.3g}" for kind, value in kept.by_kind.items())
                               for game, kept in held.games.items())
        lines.append(f"calibration of {address}: {held.path} (fitted for {held.identity}): "
                     + (thresholds or "no threshold it holds applies to this run's games"))
    return lines


def _sources_line(sources: VerdictSources) -> str:
    parts = [f"{sources.decided[key]} {label}" for key, label in _SOURCES if sources.decided.get(key)]
    return f"judge verdicts: {sources.total} recorded, " + ", ".join(parts)


def verdict_lines(config: RunConfig | None, sources: VerdictSources) -> list[str]:
    """How many verdicts each source decided, and the calibration lines; nothing for a run that recorded no verdict
    and found no calibration (a game without judges, or a run stored before verdicts were recorded). ``config``:
    ``None`` for a run stored without a run configuration (made by the store's API, not ``playeval run``), which
    says nothing of calibration."""
    counted = [_sources_line(sources)] if sources.total else []
    if config is None or (not sources.total and config.calibration and not config.calibrations):
        return counted
    lines = counted + calibration_lines(config)
    if config.calibration and not config.calibrations:
        lines.append("calibration: none was found for the run's models, so no threshold decided a verdict")
    return lines
