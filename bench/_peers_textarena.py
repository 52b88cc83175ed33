"""TextArena's TwentyQuestions and Taboo played by instant scripted players: games and steps per second.

Run by ``bench/peers.py`` with the Python of the peers virtualenv (TextArena is not a playeval
dependency, and this file imports nothing from playeval):

    PYTHON bench/_peers_textarena.py {twenty-questions,taboo} --games N

Prints one JSON object: ``{"game", "env_id", "textarena", "games", "steps", "seconds", "make_seconds"}``.

A step is one ``env.step`` call, the unit TextArena counts. Each game builds a fresh env with
``textarena.make`` (its observation wrapper, and TwentyQuestions' game-master history, are not
cleared by ``reset``), so ``seconds`` includes building the env; ``make_seconds`` is that part alone.

TwentyQuestions' game master is an LLM behind OpenRouter; here ``textarena.agents.OpenRouterAgent``
is replaced, while the games run, by :class:`ScriptedGameMaster`, which reads the target word and
the question from the prompt TextArena builds and answers "Yes" only when the question names the
word. Every other line of TextArena's code runs unchanged.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from typing import Any
from unittest import mock

TWENTY_QUESTIONS = "twenty-questions"
TABOO = "taboo"
ENV_IDS = {TWENTY_QUESTIONS: "TwentyQuestions-v0", TABOO: "Taboo-v0"}
PLAYERS = {TWENTY_QUESTIONS: 1, TABOO: 4}
QUESTIONS = 19  # the guesser's questions before its final guess; TwentyQuestions-v0 allows 21 turns
MAX_STEPS = 500  # a game that runs longer means a scripted player is stuck: fail instead of looping

Agent = Callable[[str], str]


def game_master_answer(prompt: str) -> str:
    """The scripted game master: "Yes" when the last question names the target word, else "No"."""
    word = prompt.partition("the target word: ")[2].partition("\n")[0].strip()
    if not word:
        raise ValueError("the game master's prompt names no target word")
    question = prompt.rpartition("\n\nQ: ")[2].partition("\nOptions:")[0]
    return "Yes" if re.search(rf"\b{re.escape(word)}\b", question, re.IGNORECASE) else "No"


class ScriptedGameMaster:
    """Stands in for ``textarena.agents.OpenRouterAgent`` (same constructor); answers by :func:`game_master_answer`."""

    def __init__(self, model_name: str, **kwargs: object) -> None:
        self.model_name = model_name

    def __call__(self, prompt: str) -> str:
        return game_master_answer(prompt)


class ListQuestioner:
    """TwentyQuestions guesser: asks "Is it a X?" for words of the theme drawn in order; guesses the one answered Yes.

    After :data:`QUESTIONS` questions without a Yes it guesses its next candidate.
    """

    def __init__(self, words_by_theme: Mapping[str, Sequence[str]], rng: random.Random) -> None:
        self._words_by_theme = words_by_theme
        self._rng = rng
        self._candidates: list[str] = []
        self._asked = 0

    def __call__(self, observation: str) -> str:
        if not self._candidates:
            theme = observation.partition("This object is related to ")[2].partition(". ")[0]
            if theme not in self._words_by_theme:
                raise ValueError(f"the guesser's prompt names an unknown theme {theme!r}")
            pool = list(self._words_by_theme[theme])
            self._candidates = self._rng.sample(pool, k=min(len(pool), QUESTIONS + 1))
        if self._asked and observation.rpartition("\n[GAME] ")[2].startswith("Yes"):
            return f"[{self._candidates[self._asked - 1]}]"
        if self._asked >= min(QUESTIONS, len(self._candidates) - 1):
            return f"[{self._candidates[self._asked]}]"
        self._asked += 1
        return f"Is it a {self._candidates[self._asked - 1]}?"


def _forbidden(words: Sequence[str]) -> re.Pattern[str]:
    return re.compile(r"\b(" + "|".join(map(re.escape, words)) + r")\b", re.IGNORECASE)


def taboo_clue(observation: str) -> str:
    """Taboo clue giver: the current word spelled backwards, or a blank clue when that would say a taboo word."""
    latest = observation.rpartition("word to guess is '")[2]
    word, found, rest = latest.partition("'. Taboo words: ")
    if not found:
        raise ValueError("the clue giver's observation names no word to guess")
    taboo = [w for w in rest.partition("\n")[0].rstrip(".").split(", ") if w]
    clue = word.lower()[::-1]
    return "no clue" if _forbidden([*taboo, word]).search(clue) else clue


def taboo_guess(observation: str) -> str:
    """Taboo guesser: reads the latest clue backwards, as the clue giver wrote it."""
    clue = observation.rpartition("\n[Clue Giver] ")[2].partition("\n")[0].strip().strip("[]")
    return f"[{clue[::-1]}]"


def play(env: Any, agents: Mapping[int, Agent]) -> int:
    """Play one game of a reset env to its end; returns the number of ``env.step`` calls."""
    steps = 0
    done = False
    while not done:
        player_id, observation = env.get_observation()
        done, _ = env.step(agents[player_id](observation))
        steps += 1
        if steps > MAX_STEPS:
            raise RuntimeError(f"a game ran past {MAX_STEPS} steps: a scripted player is stuck")
    env.close()
    return steps


def _twenty_questions_words() -> dict[str, list[str]]:
    import importlib.resources

    source = importlib.resources.files("textarena.envs.TwentyQuestions").joinpath("twenty_questions_words.json")
    words: dict[str, list[str]] = json.loads(source.read_text(encoding="utf-8"))["basic"]
    return words


def _agents(game: str, seed: int, words_by_theme: Mapping[str, Sequence[str]]) -> dict[int, Agent]:
    if game == TWENTY_QUESTIONS:
        # Not random.Random(seed): TextArena seeds the module's generator with the same seed to draw the word.
        return {0: ListQuestioner(words_by_theme, random.Random(f"scripted guesser {seed}"))}
    return {0: taboo_clue, 1: taboo_guess, 2: taboo_clue, 3: taboo_guess}


def _textarena() -> Any:
    import textarena  # type: ignore[import-not-found]  # only in the peers virtualenv

    return textarena


def _scripted_game_master() -> AbstractContextManager[object]:
    return mock.patch.object(_textarena().agents, "OpenRouterAgent", ScriptedGameMaster)


def measure(game: str, games: int) -> dict[str, object]:
    """Play ``games`` seeded games of ``game`` (after one untimed warm-up game); returns the figures as a dict."""
    textarena = _textarena()
    env_id = ENV_IDS[game]
    words = _twenty_questions_words() if game == TWENTY_QUESTIONS else {}
    steps = 0
    make_seconds = 0.0
    started = 0.0
    with _scripted_game_master() if game == TWENTY_QUESTIONS else nullcontext():
        for number in range(-1, games):  # game -1 warms up imports and caches, untimed
            if number == 0:
                steps, make_seconds, started = 0, 0.0, time.perf_counter()
            made = time.perf_counter()
            env = textarena.make(env_id)
            make_seconds += time.perf_counter() - made
            seed = number + 1
            env.reset(num_players=PLAYERS[game], seed=seed)
            steps += play(env, _agents(game, seed, words))
        seconds = time.perf_counter() - started
    return {"game": game, "env_id": env_id, "textarena": _version(), "games": games, "steps": steps,
            "seconds": seconds, "make_seconds": make_seconds}


def _version() -> str:
    from importlib.metadata import version

    return version("textarena")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("game", choices=sorted(ENV_IDS))
    parser.add_argument("--games", type=int, required=True)
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error(f"--games must be at least 1, got {args.games}")
    json.dump(measure(args.game, args.games), sys.stdout)
    print()


if __name__ == "__main__":
    main()
