"""Measuring a judge role against a game's labelled cases (``JudgedGame``): a small model as judge inflates
results, so every judge's accuracy, false-accept and false-reject rates are measured, per game and kind of case.

The judge is asked exactly as in a match (``judge_case_ask``), greedily, and re-asked with the reason when its
reply cannot be read; a reply still unreadable counts as a wrong verdict and is also counted on its own. Where the
model gives its answers' probabilities (``Reply.verdicts``), each verdict keeps its probability of accepting
beside the word, so a calibrated threshold can be fitted and measured on it (``judge_stats``) without asking
again: a threshold decides exactly as in a match (``core.verdicts.decide``: accept when the probability is at
least the threshold).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from playeval.core.ask import Ask
from playeval.core.errors import FormatError, PlayevalError
from playeval.core.game import JudgeCase, JudgedGame
from playeval.core.judge_cases import missing_keys
from playeval.models import Model
from playeval.players.llm import DEFAULT_MAX_RETRIES, LLMPlayer


class JudgeCaseError(PlayevalError):
    """A labelled case its game cannot ask about (a context key missing, a value it cannot use); the message is one
    line naming the case."""


@dataclass(frozen=True)
class JudgeVerdict:
    case: JudgeCase
    accepted: bool | None
    """The model's own word: ``None`` when no verdict could be read after the re-asks."""
    question: str = "verdict"
    """The judge's question: the ask's ``kind`` (``verdict``, ``novelty``...), which a calibration is kept by."""
    p_accept: float | None = None
    """The model's probability of accepting (``None``: it gave none)."""

    @property
    def right(self) -> bool:
        return self.accepted is not None and self.accepted == self.case.correct

    def decided(self, threshold: float | None) -> bool | None:
        """The verdict with ``threshold`` applied as a match applies it: accept when the probability of accepting
        is at least the threshold; the word where there is no threshold, no probability, or no readable reply."""
        if threshold is None or self.p_accept is None or self.accepted is None:
            return self.accepted
        return self.p_accept >= threshold


def used_verdicts(verdicts: Sequence[JudgeVerdict], thresholds: Mapping[str, float] | None) -> list[bool | None]:
    """Each verdict as decided with ``thresholds`` (by question; ``None``: the words)."""
    held = thresholds or {}
    return [verdict.decided(held.get(verdict.question)) for verdict in verdicts]


@dataclass(frozen=True)
class JudgeScore:
    game: str
    model: str
    cases: int
    accuracy: float
    false_accept: float | None
    """Accepted wrong guesses, per wrong guess."""
    false_reject: float | None
    """Refused right guesses, per right guess."""
    unreadable: int
    by_kind: dict[str, tuple[int, int]]
    """Per kind of case: (cases, right verdicts)."""


def score_judge(game: str, model: str, verdicts: Sequence[JudgeVerdict]) -> JudgeScore:
    """The rates of a judge's verdicts."""
    wrong_guesses = [v for v in verdicts if not v.case.correct]
    right_guesses = [v for v in verdicts if v.case.correct]
    kinds: dict[str, list[JudgeVerdict]] = defaultdict(list)
    for verdict in verdicts:
        kinds[verdict.case.kind].append(verdict)
    return JudgeScore(
        game=game, model=model, cases=len(verdicts),
        accuracy=sum(v.right for v in verdicts) / len(verdicts) if verdicts else 0.0,
        false_accept=sum(v.accepted is True for v in wrong_guesses) / len(wrong_guesses) if wrong_guesses else None,
        false_reject=sum(v.accepted is not True for v in right_guesses) / len(right_guesses) if right_guesses
        else None,
        unreadable=sum(v.accepted is None for v in verdicts),
        by_kind={kind: (len(group), sum(v.right for v in group)) for kind, group in sorted(kinds.items())})


def case_asks(game: JudgedGame, cases: Sequence[JudgeCase], *, name: str = "") -> list[tuple[JudgeCase, Ask]]:
    """The judge's ask for each case, all built before any model is asked so that a bad case stops the measure
    at once: ``JudgeCaseError`` naming the case when its context lacks a key the game reads
    (``judge_case_keys``) or holds one the game cannot use."""
    keys = game.judge_case_keys
    found: list[tuple[JudgeCase, Ask]] = []
    for case in cases:
        where = f"case {case.id}{f' ({name})' if name else ''}"
        missing = missing_keys(case, keys)
        if missing:
            said = "; ".join(f"{key}: {keys[key]}" for key in missing)
            raise JudgeCaseError(f"{where}: its context lacks {', '.join(missing)} ({said})")
        try:
            found.append((case, game.judge_case_ask(case)))
        except (ValueError, KeyError, TypeError, IndexError) as err:
            detail = f"no {err}" if isinstance(err, KeyError) else str(err)
            raise JudgeCaseError(f"{where}: the game cannot ask about it ({err.__class__.__name__}: "
                                 f"{' '.join(detail.split())})") from None
    return found


async def judge_verdicts(game: JudgedGame, model: Model, *, cases: Sequence[JudgeCase] | None = None,
                         max_retries: int = DEFAULT_MAX_RETRIES,
                         on_case: Callable[[JudgeVerdict], None] | None = None) -> list[JudgeVerdict]:
    """The model's verdict on each case (default: the game's own set), asked as the game's judge role is, with
    its probability of accepting where the model gives one. The model's own words are recorded: a calibrated
    threshold is applied afterwards (:meth:`JudgeVerdict.decided`), so one pass measures both."""
    player = LLMPlayer(model, seed=0, temperature=0.0, max_retries=max_retries, verdicts_only=True)
    found: list[JudgeVerdict] = []
    for case, first in case_asks(game, game.judge_cases() if cases is None else cases):
        ask = first
        accepted: bool | None = None
        while True:
            reply = await player.act(ask)
            try:
                accepted = game.judge_case_verdict(ask, reply.text)
                break
            except FormatError as err:
                if ask.attempt >= max_retries:
                    break
                ask = ask.retry(reply.text, err.reason)
        records = reply.verdicts
        p_accept = records[0].p_accept if len(records) == 1 and accepted is not None else None
        found.append(JudgeVerdict(case=case, accepted=accepted, question=first.kind, p_accept=p_accept))
        if on_case is not None:
            on_case(found[-1])
    return found
