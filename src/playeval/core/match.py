"""The data that defines a match and how it ended.

Records written before Core v2 (event schema version 1) still load: a spec's one ``secret`` string becomes
``setup["secret"]``, and an outcome's one ``winner`` becomes ``winners``.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SerializerFunctionWrapHandler, model_serializer, model_validator

from playeval.core.info import Scalar
from playeval.core.verdicts import Thresholds


class MatchSpec(BaseModel):
    """Everything needed to replay a match's rules from scratch.

    ``setup`` is what the game drew or was given, hidden information included (an object, a word per seat, a
    rule), structured by the game; the game says who may see which part (``Game.disclosures``), and no view
    shows a part to a seat that may not see it. ``params`` are public settings (options, the data set drawn
    from). ``variants`` maps each seat to the index of its system prompt variant. ``seats`` is this match's
    table in order; empty means the game's declared seats.

    ``thresholds`` are the calibrated thresholds that decide the verdicts of the match's models (by model
    address; ``core.verdicts``), fixed when the match is set up: a match resumed later, or played on by another
    process, decides as it began, whatever calibration files exist by then. Empty: each verdict is the model's
    own word. The rules never read them.
    """

    model_config = ConfigDict(frozen=True)

    game: str
    level: int
    seed: int
    setup: dict[str, Any] = Field(default_factory=dict)
    variants: dict[str, int] = Field(default_factory=dict)
    params: dict[str, Scalar] = Field(default_factory=dict)
    seats: tuple[str, ...] = ()
    thresholds: dict[str, Thresholds] = Field(default_factory=dict)

    @model_serializer(mode="wrap")
    def _without_empty_thresholds(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """An uncalibrated match's spec is stored as it was before thresholds were: without the empty field."""
        data: dict[str, Any] = handler(self)
        if not self.thresholds:
            data.pop("thresholds", None)
        return data

    @model_validator(mode="before")
    @classmethod
    def _v1_secret(cls, data: Any) -> Any:
        if isinstance(data, dict) and "secret" in data:
            data = dict(data)
            secret = data.pop("secret")
            if secret is not None:
                data["setup"] = {**dict(data.get("setup") or {}), "secret": secret}
        return data

    def hidden(self, key: str) -> str | None:
        """``setup[key]`` as text, or ``None`` when the setup does not hold it."""
        value = self.setup.get(key)
        return None if value is None else str(value)


class Action(BaseModel):
    """A parsed, legal move of a seat or a role. ``text`` is its canonical form (the question, the guess, the
    vote); ``data`` carries structured parts where a game needs them (a judge's scores)."""

    model_config = ConfigDict(frozen=True)

    seat: str | None = None
    role: str | None = None
    kind: str
    text: str
    data: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _one_party(self) -> Action:
        if (self.seat is None) == (self.role is None):
            raise ValueError("an action belongs to exactly one seat or one role")
        return self

    @property
    def party(self) -> str:
        """The seat or role that made the move."""
        return self.seat if self.seat is not None else str(self.role)


OutcomeStatus = Literal["finished", "forfeit", "aborted"]


class SeatResult(BaseModel):
    """How the match went for one seat.

    ``won`` is ``None`` when the seat's match is not scored: an aborted match, or one that ended because
    another seat forfeited. ``placement`` is 1 for the best; ``eliminated_round`` and ``elimination`` say when
    and why a seat left a game that eliminates players; ``score`` is a game's own per-seat number, shown under the
    label and unit the game declares (``Game.score``, a ``core.info.ScoreInfo``).
    """

    model_config = ConfigDict(frozen=True)

    seat: str
    team: str | None = None
    won: bool | None = None
    placement: int | None = None
    eliminated_round: int | None = None
    elimination: str | None = None
    score: float | None = None
    forfeited: bool = False


class Outcome(BaseModel):
    """How a match ended; the same fields for every game.

    ``status`` is ``finished`` when the rules ended the match, ``forfeit`` when ``forfeit_seat`` ran out of
    re-asks (in a game that ends on a forfeit), ``aborted`` when it was stopped from outside. ``winners`` is a
    set of seats (empty for a draw, a forfeit or an abort); ``winning_team`` names their team where there are
    teams. ``rounds`` is the game's own round count. ``results`` holds a game's per-seat results; a seat
    without one gets the rule of :meth:`result_for`.
    """

    model_config = ConfigDict(frozen=True)

    status: OutcomeStatus
    winners: tuple[str, ...] = ()
    winning_team: str | None = None
    reason: str
    rounds: int
    forfeit_seat: str | None = None
    results: tuple[SeatResult, ...] = ()

    @model_validator(mode="before")
    @classmethod
    def _v1_winner(cls, data: Any) -> Any:
        if isinstance(data, dict) and "winner" in data:
            data = dict(data)
            winner = data.pop("winner")
            data.setdefault("winners", () if winner is None else (winner,))
        return data

    @property
    def winner(self) -> str | None:
        """The one winning seat, when there is exactly one."""
        return self.winners[0] if len(self.winners) == 1 else None

    @property
    def drawn(self) -> bool:
        """A finished match that nobody won, between two sides or more: no seat won, and the game gave no seat a
        result, or gave several. A match whose only scored player lost, as a guess-the-rule game's is, is no draw:
        there was nobody to draw with."""
        if self.status != "finished" or self.winners or self.winning_team is not None:
            return False
        return not self.results or (len(self.results) > 1 and not any(result.won for result in self.results))

    def headline(self) -> str:
        """Who won, in a word: the team, the seats, or the status when nobody did."""
        if self.winning_team is not None:
            return self.winning_team
        return ", ".join(self.winners) if self.winners else self.status

    def result_for(self, seat: str) -> SeatResult:
        """The seat's result: the game's, or by the common rule (a winner won; every other seat of a finished
        match lost; in a forfeit the forfeiting seat lost and the others are not scored; an abort scores nobody)."""
        for result in self.results:
            if result.seat == seat:
                return result
        if self.status == "aborted":
            return SeatResult(seat=seat)
        if self.status == "forfeit":
            forfeited = seat == self.forfeit_seat
            return SeatResult(seat=seat, won=False if forfeited else None, forfeited=forfeited)
        return SeatResult(seat=seat, won=seat in self.winners)
