"""Measuring a judge role against a game's labelled cases (``JudgedGame``): a small model as judge inflates
results, so every judge's accuracy, false-accept and false-reject rates are measured, per game and kind of case.

The judge is asked exactly as in a match (``judge_case_ask``), greedily, and re-asked with the reason when its
reply cannot be read; a reply still unreadable counts as a wrong verdict and is also counted on its own.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from playeval.core.errors import FormatError
from playeval.core.game import JudgeCase, JudgedGame
from playeval.models import Model
from playeval.players.llm import DEFAULT_MAX_RETRIES, LLMPlayer


@dataclass(frozen=True)
class JudgeVerdict:
    case: JudgeCase
    accepted: bool | None
    """``None``: no readable verdict after the re-asks."""

    @property
    def right(self) -> bool:
        return self.accepted is not None and self.accepted == self.case.correct


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


async def judge_verdicts(game: JudgedGame, model: Model, *, max_retries: int = DEFAULT_MAX_RETRIES,
                         on_case: Callable[[JudgeVerdict], None] | None = None) -> list[JudgeVerdict]:
    """The model's verdict on each of the game's cases, asked as the game's judge role is."""
    player = LLMPlayer(model, seed=0, temperature=0.0, max_retries=max_retries)
    found: list[JudgeVerdict] = []
    for case in game.judge_cases():
        ask = game.judge_case_ask(case)
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
        found.append(JudgeVerdict(case=case, accepted=accepted))
        if on_case is not None:
            on_case(found[-1])
    return found
