"""Taboo's baseline players for the guesser's seat (``core.baselines``): ``random``, ``passive`` and ``naive``.

Each is made from the match's public settings only (``Taboo.baseline_player`` hands it the spec without its
setup, so the secret is not there to read): the word list named by ``params`` (``data.word_pool``) and the seed.

* ``random``: at each clue, one time in :data:`GUESS_CHANCE_IN` it guesses a word drawn from the list (right about
  once in the list's length); otherwise it answers with a sentence drawn at random, four in nine of them naming a
  random word of the list (which is, rarely, the secret: then it gets its one guess, another random word). Under the
  paper's rule it wins about when it never guesses in five rounds (0.8^5, a third of matches); under
  ``scoring=guess`` hardly ever.
* ``passive``: does nothing useful. It answers every clue with a neutral sentence that names no word of any list
  and never guesses. The paper's rule lets it win whenever the word is never said, which is every match: that is
  what this baseline is for, the rate of doing nothing, shown beside the models' rates. Under ``scoring=guess`` it
  loses every match.
* ``naive``: repeats one fixed sentence every round and never guesses, as a model did in a real run (it tied a
  1.5B model). It plays as ``passive`` does, with no variety at all.

``passive`` and ``naive`` never write the word, so they are never asked for the one guess that follows writing it;
should they be (a spec whose secret is no word of the lists), they name a word of the list drawn at random, the
only legal reply to that ask.
"""

from __future__ import annotations

from playeval.core.ask import Ask, Reply
from playeval.core.baselines import NAIVE, PASSIVE, RANDOM, ask_rng
from playeval.core.match import MatchSpec
from playeval.games.taboo.baselines import NEUTRAL_ANSWERS
from playeval.games.taboo.data import word_pool
from playeval.games.taboo.prompts import guess_line

GUESS_CHANCE_IN = 5
"""The random player guesses at a clue with probability 1 / ``GUESS_CHANCE_IN``."""
RANDOM_FRAMES: tuple[str, ...] = (
    "Is it {word}?",
    "That makes me think of {word}.",
    "Could the answer be close to {word}?",
    "My first thought is {word}, but I am not sure.",
)
"""The random player's answers that name a word of the list (``{word}``); the others are ``NEUTRAL_ANSWERS``."""
NAIVE_SENTENCE = "I see. Please go on."
"""The naive player's one sentence, every round."""


class TabooBaseline:
    """A baseline player of the guesser's seat (the scripted-player contract; see the module's note)."""

    kind = "scripted"
    model: str | None = None
    max_retries = 0

    def __init__(self, name: str, spec: MatchSpec) -> None:
        if spec.setup:
            raise ValueError("a Taboo baseline is made from the spec without its setup (it reads nothing hidden)")
        self.name = name
        self._spec = spec
        self._pool = word_pool(spec)

    async def act(self, ask: Ask) -> Reply:
        rng = ask_rng(self._spec, f"baseline {self.name}", ask)
        if ask.kind == "final_guess":
            return Reply(text=guess_line(rng.choice(self._pool)))
        if self.name == RANDOM:
            if rng.randrange(GUESS_CHANCE_IN) == 0:
                return Reply(text=guess_line(rng.choice(self._pool)))
            frame = rng.choice((*RANDOM_FRAMES, *NEUTRAL_ANSWERS))
            return Reply(text=frame.format(word=rng.choice(self._pool)))
        if self.name == PASSIVE:
            answered = sum(1 for message in ask.messages if message.role == "assistant")
            return Reply(text=NEUTRAL_ANSWERS[answered % len(NEUTRAL_ANSWERS)])
        if self.name == NAIVE:
            return Reply(text=NAIVE_SENTENCE)
        raise ValueError(f"no Taboo baseline {self.name!r}")
