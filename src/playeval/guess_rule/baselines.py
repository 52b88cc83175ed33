"""The guess-the-rule games' players of known character.

* Scripted players, for tests and ``--opponent scripted``: a solver that knows the rule's statement and the check's
  answers (:class:`StatementSolver`, the player seat's *strong* policy, ``core.scripted``), and a judge that accepts
  only the rule's own words (given, or read from its ask when the rule was written during the match).
* The player seat's baselines (``core.baselines``), written once for every guess-the-rule game from hooks the game
  gives (``GuessRuleGame.generic_guesses``, ``first_shown``, ``random_answer``, ``naive_answer``):
  :class:`RandomRuleGuesser` (``random``) and :class:`NaiveRuleGuesser` (``naive``). They read their ask and
  nothing else of the match but its seed: never the rule, never the check's answers.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from playeval.core.ask import Ask, Reply
from playeval.core.baselines import NAIVE, RANDOM, BaselineInfo, ask_rng
from playeval.core.errors import ConfigError
from playeval.core.match import MatchSpec
from playeval.core.normalize import normalize_name
from playeval.guess_rule.base import CONCEALED, PLAYER, GuessRuleGame, HeldOut, examples_left

_ITEM = re.compile(r"^\s*(\d{1,2})\. (.*)$", re.MULTILINE)
"""An item of the check as its ask lists it: ``3. <item>``."""


def rule_baselines(naive: str) -> tuple[BaselineInfo, ...]:
    """A guess-the-rule game's baselines as it declares them (``Game.baselines``); ``naive`` says what its naive
    player guesses and answers."""
    return (BaselineInfo(name=RANDOM, description=(
                "each turn, at random, asks for 1 to all of the examples still to be shown or guesses a rule from "
                "a short generic list; answers the rule-application check at random")),
            BaselineInfo(name=NAIVE, description=f"asks for every example at once, then {naive}"))


def rule_baseline(game: GuessRuleGame, name: str, party: str, spec: MatchSpec) -> Any:
    """The player seat's baseline ``name`` of ``game`` (``GuessRuleGame.baseline_player``)."""
    if name not in {info.name for info in game.baselines}:
        offered = ", ".join(info.name for info in game.baselines) or "none"
        raise ConfigError(f"{game.id} has no baseline player {name!r} (it offers: {offered})")
    if party != PLAYER:
        raise ConfigError(f"{game.id}: baseline players play the {PLAYER} seat, not {party!r}")
    return RandomRuleGuesser(game, spec) if name == RANDOM else NaiveRuleGuesser(game)


def check_items(ask: Ask) -> list[tuple[int, str]]:
    """The items of a check ask, numbered as listed (what the player is shown of them)."""
    return [(int(number), item) for number, item in _ITEM.findall(ask.display)]


class RandomRuleGuesser:
    """The ``random`` baseline: each turn, with even odds, asks for a number of examples drawn from 1 to all that
    are left, or guesses one of the game's ``generic_guesses`` (always a guess once every example is shown);
    answers each check item with the game's ``random_answer``. Every draw comes from ``core.baselines.ask_rng``
    (the match's seed and the ask), so the same ask gets the same move."""

    kind = "scripted"
    model: str | None = None
    max_retries = 0
    label = "baseline random"

    def __init__(self, game: GuessRuleGame, spec: MatchSpec) -> None:
        self._game = game
        self._spec = spec  # for its seed only (ask_rng)

    async def act(self, ask: Ask) -> Reply:
        rng = ask_rng(self._spec, self.label, ask)
        if ask.kind == "apply":
            return Reply(text="\n".join(f"{number}. {self._game.random_answer(item, rng)}"
                                        for number, item in check_items(ask)))
        left = examples_left(ask) or 0
        if left and rng.random() < 0.5:
            return Reply(text=f"MORE: {rng.randint(1, left)}")
        return Reply(text=f"GUESS: {rng.choice(self._game.generic_guesses)}")


class NaiveRuleGuesser:
    """The ``naive`` baseline: asks for every example that is left in one request, then guesses the first thing the
    examples show as the rule (the game's ``naive_template``), once; answers every check item the same fixed way
    (the game's ``naive_answer``: ``yes``, or in the Math Game the value it shows)."""

    kind = "scripted"
    model: str | None = None
    max_retries = 0

    def __init__(self, game: GuessRuleGame) -> None:
        self._game = game

    async def act(self, ask: Ask) -> Reply:
        if ask.kind == "apply":
            return Reply(text="\n".join(f"{number}. {self._game.naive_answer(item)}"
                                        for number, item in check_items(ask)))
        left = examples_left(ask) or 0
        if left:
            return Reply(text=f"MORE: {left}")
        first = self._game.first_shown(ask.display) or "what was shown first"
        return Reply(text=f"GUESS: {self._game.naive_template.format(first=first)}")


class StatementSolver:
    """Asks for ``more`` example units once (fewer when fewer are left), then states the rule and answers the check
    right: the player seat's strong policy (``core.scripted``)."""

    kind = "scripted"
    model: str | None = None
    max_retries = 0

    def __init__(self, statement: str, held_out: Sequence[HeldOut], more: int = 1) -> None:
        self._statement = statement
        self._held_out = tuple(held_out)
        self._more = more

    async def act(self, ask: Ask) -> Reply:
        if ask.kind == "apply":  # the items it knows by their words; any other by its place in the first check
            known = {item.prompt: item.answer for item in self._held_out}
            by_place = [item.answer for item in self._held_out]
            listed = check_items(ask) or list(enumerate(known, start=1))
            return Reply(text="\n".join(
                f"{n}. {known.get(prompt) or (by_place[(n - 1) % len(by_place)] if by_place else 'yes')}"
                for n, prompt in listed))
        asked_more = any(message.content.startswith("MORE:") for message in ask.messages)
        left = examples_left(ask)
        if asked_more or left == 0:
            return Reply(text=f"GUESS: {self._statement}")
        return Reply(text=f"MORE: {self._more if left is None else min(self._more, left)}")


class StatementJudge:
    """Says yes exactly when the guess, normalised, is the rule's statement: ``statement``, or (``None``) the
    rule the judge's ask states."""

    kind = "scripted"
    model: str | None = None
    max_retries = 0

    def __init__(self, statement: str | None) -> None:
        self._statement = statement

    async def act(self, ask: Ask) -> Reply:
        guess = re.sub(r"^Guess:\s*", "", ask.display)
        statement = self._statement
        if statement is None:
            stated = (m.content for m in ask.messages if m.role == "user" and m.content.startswith(CONCEALED))
            statement = next(stated, CONCEALED).splitlines()[0].removeprefix(CONCEALED)
        same = normalize_name(guess) == normalize_name(statement)
        return Reply(text=f"Verdict: {'yes' if same else 'no'}\nReason: compared with the rule's own words.")
