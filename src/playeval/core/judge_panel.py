"""A panel of judges deciding one yes-or-no question: how the members' verdicts combine into the panel's.

A judged role declared with ``RoleInfo.panel_option`` may be bound to several models (``--role judge=A,B,C``).
Each member is asked the same question in turn (``judge``, then ``judge#2``, ...: a log is the same however fast
each model answers), and when every member has answered the panel decides:

1. **Majority**: the verdict most members gave.
2. **A tie** (an even panel split in half) goes to the members' **mean probability of accepting**
   (``VerdictRecord.p_accept``, ``core.verdicts``), accepted at 0.5 or more, when every member's action recorded
   one; a member without one (a scripted judge, a person, a provider that gives no token probabilities) leaves
   the tie unbroken and the question is **refused**: a guess stays unconfirmed unless the panel accepts it.

The rule reads only what the log holds (each member's verdict and the records the engine kept in its action), so
folding a stored match reaches the same verdict. Undercover's scales are numbers and its panel takes their mean
instead (``games.undercover``); the yes-or-no judges (the guess-the-rule games', Akinator's) use this.
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from playeval.core.verdicts import recorded_verdicts

ACCEPT_AT = 0.5
"""A tie is broken in favour of accepting when the members' mean probability of accepting is at least this."""

DecidedBy = Literal["majority", "probability", "refused tie"]
"""How a panel's verdict was reached: most members' verdicts, a tie broken by the mean probability, or a tie
that could not be broken (refused)."""


@dataclass(frozen=True)
class MemberVerdict:
    """One member's answer to the panel's question: its name (``judge#2``), its verdict word as the game reads it
    (``yes``, ``Yes``), whether that word accepts, its probability of accepting (``None``: none recorded) and its
    reason (``""``: none, or withheld from a live view)."""

    member: str
    word: str
    accepted: bool
    p_accept: float | None = None
    reason: str = ""


@dataclass(frozen=True)
class PanelVerdict:
    """The panel's verdict on one question, with how it was reached."""

    accepted: bool
    by: DecidedBy
    accepts: int
    refusals: int
    mean_p_accept: float | None
    """The members' mean probability of accepting (``None`` unless every member recorded one)."""

    def describe(self) -> str:
        """In a few words, for a transcript line: ``2 of 3 accepted``, ``a 1-1 tie, mean probability 0.62``."""
        members = self.accepts + self.refusals
        if self.by == "majority":
            return f"{self.accepts} of {members} accepted"
        tie = f"a {self.accepts}-{self.refusals} tie"
        if self.by == "probability":
            return f"{tie}, mean probability of accepting {self.mean_p_accept:.2f}"
        return f"{tie} with no probability from every member: refused"


def action_p_accept(data: Mapping[str, Any]) -> float | None:
    """The probability of accepting a member's action recorded (``core.verdicts``): its one verdict record's;
    ``None`` when it recorded none, or more than one (not a single yes-or-no answer)."""
    records = recorded_verdicts(data)
    return records[0].p_accept if len(records) == 1 else None


def panel_verdict(members: Sequence[MemberVerdict]) -> PanelVerdict:
    """The panel's verdict from every member's (see the module's note); at least one member."""
    if not members:
        raise ValueError("a panel's verdict needs at least one member's")
    return vote([member.accepted for member in members], [member.p_accept for member in members])


def vote(verdicts: Sequence[bool | None], probabilities: Sequence[float | None]) -> PanelVerdict:
    """The rule of the module's note over bare verdicts (``None``: a member whose verdict could not be read, which
    votes neither way) and the members' probabilities of accepting: what a match's panel and a panel measured on
    labelled cases (``analysis.judge_calibration``) both decide by."""
    accepts = sum(verdict is True for verdict in verdicts)
    refusals = sum(verdict is False for verdict in verdicts)
    mean = statistics.fmean(p for p in probabilities if p is not None) \
        if probabilities and all(p is not None for p in probabilities) else None
    if accepts != refusals:
        return PanelVerdict(accepted=accepts > refusals, by="majority", accepts=accepts, refusals=refusals,
                            mean_p_accept=mean)
    if mean is not None:
        return PanelVerdict(accepted=mean >= ACCEPT_AT, by="probability", accepts=accepts, refusals=refusals,
                            mean_p_accept=mean)
    return PanelVerdict(accepted=False, by="refused tie", accepts=accepts, refusals=refusals, mean_p_accept=None)
