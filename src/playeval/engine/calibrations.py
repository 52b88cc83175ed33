"""Which calibrated thresholds decide a match's verdicts: looked up once per model, then recorded.

A judge model's verdicts are decided by a threshold on its probability of accepting when a calibration fitted for
that very model (its identity: ``models.calibration``) holds one for the game and the judge's question
(``core.verdicts``). The calibrations are looked up when a run is recorded (kept in its config:
``RunConfig.calibrations``, the file, the identity and the thresholds by game, per model), when a person starts a
match at the terminal, and when the arena sets a table up; each match then carries its models' thresholds in its
spec (``MatchSpec.thresholds``). So a resumed run or match, a Ray worker and another arena process all decide by
what was recorded, never by whatever calibration files exist by the time they play. ``--no-calibration``
records none, and every verdict stays the model's own word.

A baseline player (``baseline/NAME``, ``core.baselines``) is no model and has no identity to fit for: it is never
looked up, and a run records no calibration for it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from playeval.core.baselines import is_baseline
from playeval.core.events import RoleAssignment, SeatAssignment
from playeval.core.match import MatchSpec
from playeval.core.verdicts import Thresholds
from playeval.models.calibration import Calibration, calibration_dirs, find_calibration

__all__ = ["CalibrationBook", "ModelCalibration", "match_models", "with_thresholds"]


class ModelCalibration(BaseModel):
    """One model's calibration as a run recorded it: the file it was read from, the model identity it was fitted
    for, and the thresholds it applies in each game of the run (a game it holds none for is left out; a file
    that holds none for any of them is still recorded, so the run says it was found and why nothing changed)."""

    model_config = ConfigDict(frozen=True)

    path: str
    identity: str
    games: dict[str, Thresholds] = Field(default_factory=dict)


class CalibrationBook:
    """The calibrations of the models one process sets matches up for: each model's looked up once, on first use
    (finding one means reading the calibration files and, for a local model, knowing its weights' hash).

    When no calibration directory holds a file, nothing is looked up (no model's identity is worked out)."""

    def __init__(self) -> None:
        self._found: dict[str, tuple[Path, Calibration] | None] = {}
        self._any: bool | None = None

    def calibration(self, address: str) -> tuple[Path, Calibration] | None:
        """The calibration file fitted for ``address``'s identity and what it holds, or ``None``; a broken file
        raises the ``CalibrationError`` that names it. A baseline player has none (it is not looked up)."""
        if is_baseline(address):
            return None
        if address not in self._found:
            if self._any is None:
                self._any = any(directory.is_dir() and any(directory.glob("*.json"))
                                for directory in calibration_dirs())
            self._found[address] = find_calibration(address) if self._any else None
        return self._found[address]

    def recorded(self, address: str, games: Iterable[str]) -> ModelCalibration | None:
        """``address``'s calibration with its thresholds for ``games``, as a run records it (``None``: none)."""
        found = self.calibration(address)
        if found is None:
            return None
        path, calibration = found
        held = {game: thresholds for game in games if (thresholds := calibration.thresholds(game)) is not None}
        return ModelCalibration(path=str(path), identity=calibration.identity, games=held)

    def thresholds(self, game: str, addresses: Iterable[str]) -> dict[str, Thresholds]:
        """The thresholds each of ``addresses`` that has a calibration applies in ``game``, by address."""
        found: dict[str, Thresholds] = {}
        for address in dict.fromkeys(addresses):
            held = self.calibration(address)
            thresholds = held[1].thresholds(game) if held is not None else None
            if thresholds is not None:
                found[address] = thresholds
        return found


def match_models(seats: Iterable[SeatAssignment], roles: Iterable[RoleAssignment],
                 *more: str | None) -> list[str]:
    """Every model address a match's seats and roles use (and ``more``, such as the arena's stand-in), once each,
    in order."""
    addresses = [seat.model for seat in seats if seat.player_kind == "llm"]
    addresses += [role.model for role in roles if role.player_kind == "llm"]
    return list(dict.fromkeys(address for address in (*addresses, *more) if address))


def with_thresholds(spec: MatchSpec, thresholds: Mapping[str, Thresholds]) -> MatchSpec:
    """``spec`` carrying ``thresholds`` (unchanged when there are none)."""
    return spec.model_copy(update={"thresholds": dict(thresholds)}) if thresholds else spec
