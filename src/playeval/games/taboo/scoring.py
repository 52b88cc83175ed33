"""How a Taboo match is won: the paper's rule, or only by a right guess (``--option scoring=guess``).

Under GameArena's rule (``paper``, the default) the guesser wins with a right guess or by getting through every
round without writing the word. That rewards doing nothing: a player that answers every clue with the same
neutral sentence never writes the word and always wins (the ``passive`` baseline shows it). Under ``guess`` the
guesser wins only by naming the word (``My guess of the word is: X``, right as the paper's rule judges a guess);
writing the word in an answer, a wrong guess, and five rounds without a guess all lose, so what is measured is
whether the model works the word out from the clues, still without blurting it.

The rule is part of the match's public settings: ``guess`` is recorded as ``params["scoring"] = "guess"``; the
paper's rule is recorded as no entry, so matches stored before the option existed, and seeded runs replayed now,
keep the very same spec, while a ``guess`` match is never pooled with them.
"""

from __future__ import annotations

from playeval.core.match import MatchSpec

SCORING = "scoring"
"""The option's name, and its key in ``MatchSpec.params``."""
PAPER = "paper"
GUESS = "guess"
SCORINGS: tuple[str, ...] = (PAPER, GUESS)


def scoring_of(spec: MatchSpec) -> str:
    """The rule a match is scored by (``paper`` when its params name none)."""
    return str(spec.params.get(SCORING, PAPER))


def guess_only(spec: MatchSpec) -> bool:
    """Whether only a right guess wins this match (``scoring=guess``)."""
    return scoring_of(spec) == GUESS
