"""Drawing example words and held-out words from a rule's precomputed truth values (pure functions).

Both functions take the truth values that ``checks.RuleEvaluator`` computed in the sandbox, the words already
shown, and the match's seeded ``random.Random``; they run no rule code. Their result depends only on those
arguments and the generator's state (candidates are sorted before drawing, so the mapping's order does not
matter), which makes a match replayable from its seed.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping
from dataclasses import dataclass

from playeval.guess_rule import ListedRound
from playeval.guess_rule.base import RESERVE_CHECKS, spare


@dataclass(frozen=True)
class ExampleDraw:
    """Words for which the rule holds (``positives``) and words for which it does not (``negatives``)."""

    positives: tuple[str, ...]
    negatives: tuple[str, ...]

    @property
    def words(self) -> tuple[str, ...]:
        return self.positives + self.negatives


@dataclass(frozen=True)
class HeldOutWord:
    """A word kept back from the examples, with the rule's truth value for it."""

    word: str
    truth: bool


def _unshown(truth: Mapping[str, bool], shown: Collection[str], value: bool) -> list[str]:
    excluded = frozenset(shown)
    return sorted(word for word, holds in truth.items() if holds is value and word not in excluded)


def available(truth: Mapping[str, bool], shown: Collection[str]) -> tuple[int, int]:
    """How many positive and negative words are not yet shown."""
    return len(_unshown(truth, shown, True)), len(_unshown(truth, shown, False))


def draw_examples(truth: Mapping[str, bool], shown: Collection[str], n: int, rng: random.Random) -> ExampleDraw:
    """Up to ``n`` positive and up to ``n`` negative words, none of them in ``shown``, in drawn order.

    When fewer than ``n`` unshown words of a kind remain, all of them are returned (so a short draw means the
    game master is running out of examples). Positives are drawn first, then negatives, each with
    ``rng.sample`` over the sorted candidates. Raises ``ValueError`` for a negative ``n``.
    """
    if n < 0:
        raise ValueError(f"n must be at least 0, not {n}")
    positives = _unshown(truth, shown, True)
    negatives = _unshown(truth, shown, False)
    return ExampleDraw(
        positives=tuple(rng.sample(positives, min(n, len(positives)))),
        negatives=tuple(rng.sample(negatives, min(n, len(negatives)))),
    )


def draw_held_out(
    truth: Mapping[str, bool], shown: Collection[str], k: int, rng: random.Random
) -> tuple[HeldOutWord, ...]:
    """``k`` words not in ``shown``, balanced between the rule's True and False, in shuffled order.

    ``k // 2`` words of each kind; for an odd ``k`` the extra word's kind is drawn from ``rng`` with even odds.
    The game must add these words to what it never shows as examples. Raises ``ValueError`` for a negative
    ``k`` or when too few unshown words of a kind remain.
    """
    if k < 0:
        raise ValueError(f"k must be at least 0, not {k}")
    positives = _unshown(truth, shown, True)
    negatives = _unshown(truth, shown, False)
    true_count = k // 2
    if k % 2 == 1 and rng.random() < 0.5:
        true_count += 1
    false_count = k - true_count
    if true_count > len(positives) or false_count > len(negatives):
        raise ValueError(
            f"cannot hold out {true_count} true and {false_count} false words: "
            f"only {len(positives)} and {len(negatives)} are not shown yet"
        )
    drawn = [HeldOutWord(word, True) for word in rng.sample(positives, true_count)]
    drawn += [HeldOutWord(word, False) for word in rng.sample(negatives, false_count)]
    rng.shuffle(drawn)
    return tuple(drawn)


def listed_round(statement: str, truth: Mapping[str, bool], rng: random.Random, *, held: int, units: int,
                 code: str | None = None) -> ListedRound:
    """A match's round of a rule: ``held`` balanced held-out words, then up to ``units`` example units (a word
    that passes and one that fails), none of them held out, then the reserve of the later guesses' checks
    (``guess_rule.base.spare``: words in neither, up to ``RESERVE_CHECKS`` checks' worth of each side), all drawn
    from ``rng`` in that order. A unit's word whose partner ran short is not shown and joins the reserve."""
    kept = draw_held_out(truth, (), held, rng)
    shown = draw_examples(truth, {word.word for word in kept}, units, rng)
    count = min(len(shown.positives), len(shown.negatives))
    used = {word.word for word in kept} | set(shown.words)
    extra = draw_examples(truth, used, RESERVE_CHECKS * (held // 2), rng)
    reserve = spare((*shown.positives[count:], *extra.positives), (*shown.negatives[count:], *extra.negatives),
                    held // 2)
    return ListedRound(statement=statement, positives=shown.positives[:count], negatives=shown.negatives[:count],
                       held_out=tuple((word.word, "yes" if word.truth else "no") for word in kept), code=code,
                       reserve=reserve)
