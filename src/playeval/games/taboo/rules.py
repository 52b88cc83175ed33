"""Taboo as a pure state machine.

The clue-giver holds a secret word and sends one clue per round (at most 140 characters, never the word or
a form of it). The guesser (the evaluated seat) answers each clue and must not write the word; it may guess
at any time with ``My guess of the word is: X``. A guess ends the game: right, the guesser wins; wrong, the
clue-giver wins. If the guesser writes the word without guessing, it is asked for one guess, which decides
the game. Five rounds without the word are a win for the guesser. Levels pick the word list: animals,
places, food; ``--secret-set`` picks another list, or one of two disjoint halves of the level's list (``set1``,
``set2``, the game's ``split_sets``).

That is GameArena's rule, the default. ``--option scoring=guess`` (``scoring``) keeps the play and changes only
who wins: the guesser wins by a right guess alone, and writing the word, a wrong guess or five rounds without a
guess lose (no last guess is offered after writing it). The guesser's system prompt states the rule in force.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from playeval.core.ask import Ask, OutputConstraint
from playeval.core.baselines import NAIVE, PASSIVE, RANDOM, BaselineInfo
from playeval.core.errors import ConfigError, FormatError, RuleViolation
from playeval.core.game import GameBase, RetroOutput, RetroPoint, RetroScore
from playeval.core.info import (
    Disclosure,
    GameOption,
    LevelInfo,
    MetricSpec,
    PlotKind,
    Presentation,
    Scalar,
    SeatInfo,
)
from playeval.core.match import Action, MatchSpec, Outcome
from playeval.core.messages import Message, assistant, system, user
from playeval.core.rng import derive_seed
from playeval.games.taboo import parsing, prompts
from playeval.games.taboo.baseline_players import TabooBaseline
from playeval.games.taboo.baselines import ScriptedClueGiver, ScriptedGuesser
from playeval.games.taboo.data import (
    CATEGORIES,
    LEVEL_CATEGORIES,
    SPLIT_SETS,
    category_of,
    load_words,
    split_words,
    word_pool,
)
from playeval.games.taboo.scoring import PAPER, SCORING, SCORINGS, guess_only
from playeval.games.taboo.words import same_word, says_word
from playeval.metrics.retro import candidate_metrics, score_candidates

GUESSER = "guesser"
CLUE_GIVER = "clue_giver"

LIMIT = 5


@dataclass(frozen=True)
class Round:
    """One clue and, once given, the guesser's reply to it (as said), what it guessed and whether it said the word."""

    number: int
    clue: str
    reply: str | None = None
    guess: str | None = None
    said: bool = False


@dataclass(frozen=True)
class TabooState:
    spec: MatchSpec
    turns: tuple[Round, ...] = ()
    final_reply: str | None = None
    final_guess: str | None = None

    @property
    def secret(self) -> str:
        return self.spec.hidden("secret") or ""

    @property
    def pending(self) -> Round | None:
        """The round whose clue awaits the guesser's reply."""
        if self.turns and self.turns[-1].reply is None:
            return self.turns[-1]
        return None

    @property
    def answered(self) -> tuple[Round, ...]:
        return tuple(turn for turn in self.turns if turn.reply is not None)

    @property
    def awaiting_final_guess(self) -> bool:
        last = self.turns[-1] if self.turns else None
        return (last is not None and last.said and last.guess is None and self.final_reply is None
                and not guess_only(self.spec))


class Taboo(GameBase):
    """Taboo: a person (or a simulated person) gives clues, the model answers without saying the word."""

    id: ClassVar[str] = "taboo"
    title: ClassVar[str] = "Taboo (don't say the word)"
    seats: ClassVar[tuple[SeatInfo, ...]] = (
        SeatInfo(name=GUESSER, role="answers each clue without saying the secret word, and may guess it",
                 evaluated=True),
        SeatInfo(name=CLUE_GIVER, role="holds the secret word and gives clues that lead the guesser to say it"),
    )
    levels: ClassVar[tuple[LevelInfo, ...]] = (
        LevelInfo(level=1, description=f"the word is an animal; {LIMIT} rounds, clues of at most "
                                       f"{parsing.MAX_CLUE_CHARS} characters"),
        LevelInfo(level=2, description="the word is a place: a country, a city or a kind of place; same rounds"),
        LevelInfo(level=3, description="the word is a food or drink; same rounds"),
    )
    options: ClassVar[tuple[GameOption, ...]] = (
        GameOption(name=SCORING, default=PAPER, choices=SCORINGS,
                   description=("who wins: paper (GameArena's rule: the model wins with a right guess or by not "
                                "writing the word for five rounds, so a model that does nothing wins) or guess "
                                "(the model wins only with a right guess; writing the word, a wrong guess or no "
                                "guess in five rounds lose)")),
    )
    secret_sets: ClassVar[tuple[str, ...]] = (*CATEGORIES, *SPLIT_SETS)
    split_sets: ClassVar[tuple[str, str] | None] = SPLIT_SETS
    baselines: ClassVar[tuple[BaselineInfo, ...]] = (
        BaselineInfo(name=RANDOM, description=("answers each clue with a random sentence, often naming a random "
                                               "word of the list, and at one clue in five guesses a random word "
                                               "of the list")),
        BaselineInfo(name=PASSIVE, description=("answers every clue with a neutral sentence and never says or "
                                                "guesses a word: under the paper's rule it wins every match, the "
                                                "rate of doing nothing")),
        BaselineInfo(name=NAIVE, description="repeats one fixed sentence every round and never guesses"),
    )
    presentation: ClassVar[Presentation] = Presentation(
        name="Taboo",
        tagline="You hold the word; the model must not say it.",
        pitch=("You get a secret word and five short messages to lead the model into a wrong guess. It wins "
               "by naming the word correctly or by getting through five rounds without writing it (with the "
               "option scoring=guess, only by naming it)."),
        how=("The word appears once the game starts.",
             (f"Each message is at most {parsing.MAX_CLUE_CHARS} characters and must not contain the word or "
              "any form of it."),
             "If the model slips and writes the word, it gets one guess to save itself."),
        person_seat=CLUE_GIVER,
    )
    metrics: ClassVar[tuple[MetricSpec, ...]] = candidate_metrics("abductive")
    ranking_skill: ClassVar[str | None] = "abductive"
    plots: ClassVar[tuple[PlotKind, ...]] = ("recall_by_round",)

    def new_spec(self, level: int, seed: int, rng: random.Random, *, inputs: Mapping[str, str] | None = None,
                 secret_set: str | None = None, options: Mapping[str, Scalar] | None = None) -> MatchSpec:
        """Draw the prompt variants, then the word from the level's list, the list ``secret_set`` names or the
        half of the level's list it names (a person holding the clue-giver's seat is shown it). The draws do not
        depend on the ``scoring`` option, so a seed sets the same word under either rule; only ``guess`` is
        recorded in the params (``scoring``: the paper's rule is their absence, as before the option)."""
        if inputs:
            raise ConfigError(f"taboo takes no inputs (the word is drawn), got: {', '.join(sorted(inputs))}")
        chosen = dict(options or {})
        scoring = str(chosen.pop(SCORING, PAPER))
        if chosen:
            raise ConfigError(f"taboo's only option is {SCORING}, got: {', '.join(sorted(chosen))}")
        if scoring not in SCORINGS:
            raise ConfigError(f"option {SCORING} must be one of: {', '.join(SCORINGS)}")
        self._check_level(level)
        if secret_set is not None and secret_set not in self.secret_sets:
            raise ConfigError(f"unknown taboo word list {secret_set!r}; known: {', '.join(self.secret_sets)}")
        if secret_set in SPLIT_SETS:
            named, words = secret_set, split_words(LEVEL_CATEGORIES[level], secret_set)
        else:
            named = secret_set or LEVEL_CATEGORIES[level]
            words = load_words(named)
        variants = {
            GUESSER: rng.randrange(len(prompts.GUESSER_VARIANTS)),
            CLUE_GIVER: rng.randrange(len(prompts.CLUE_GIVER_VARIANTS)),
        }
        secret = rng.choice(words)
        params: dict[str, Scalar] = {"secret_set": named}
        if scoring != PAPER:
            params[SCORING] = scoring
        return MatchSpec(game=self.id, level=level, seed=seed, setup={"secret": secret}, variants=variants,
                         params=params)

    def disclosures(self, spec: MatchSpec, state: Any = None) -> Sequence[Disclosure]:
        word = spec.hidden("secret") or ""
        return (Disclosure(key="secret", value=word, seats=(CLUE_GIVER,), label="Your word",
                           revealed_label="The word"),)

    def initial_state(self, spec: MatchSpec) -> TabooState:
        self._check_level(spec.level)
        secret = spec.hidden("secret")
        if not secret or not any(ch.isalnum() for ch in secret):
            raise ConfigError("a taboo match needs a secret word")
        return TabooState(spec=spec)

    @staticmethod
    def _check_level(level: int) -> None:
        if level not in LEVEL_CATEGORIES:
            raise ConfigError(f"taboo has levels 1, 2 and 3, not {level}")

    # -- asks ---------------------------------------------------------------

    def next_ask(self, state: TabooState) -> Ask:
        pending = state.pending
        if pending is not None:
            return self._answer_ask(state, pending)
        if state.awaiting_final_guess:
            return self._final_ask(state)
        if self.outcome(state) is not None:
            raise RuleViolation("the game is over.")
        return self._clue_ask(state)

    def _answer_ask(self, state: TabooState, pending: Round) -> Ask:
        instructions = prompts.GUESS_SCORING_INSTRUCTIONS if guess_only(state.spec) else prompts.GUESSER_INSTRUCTIONS
        return Ask(seat=GUESSER, kind="answer", messages=guesser_messages(state.spec, state.turns),
                   display=f"Round {pending.number} of {LIMIT}. Their message: {pending.clue}",
                   instructions=instructions,
                   constraint=OutputConstraint(grammar=parsing.ANSWER_GRAMMAR), max_tokens=96,
                   max_chars=parsing.MAX_REPLY_CHARS, one_line=True)

    def _final_ask(self, state: TabooState) -> Ask:
        messages = (*guesser_messages(state.spec, state.turns), user(prompts.FINAL_NOTICE))
        return Ask(seat=GUESSER, kind="final_guess", messages=messages,
                   display=f"You wrote the secret word in round {state.turns[-1].number}.",
                   instructions=prompts.FINAL_INSTRUCTIONS,
                   constraint=OutputConstraint(grammar=parsing.FINAL_GUESS_GRAMMAR), max_tokens=20,
                   max_chars=parsing.MAX_REPLY_CHARS, one_line=True)

    def _clue_ask(self, state: TabooState) -> Ask:
        number = len(state.turns) + 1
        last = state.turns[-1].reply if state.turns else None
        heard = prompts.CLUE_HEARD.format(reply=last) if last else ""
        display = prompts.CLUE_DISPLAY.format(word=state.secret, number=number, limit=LIMIT) + heard
        return Ask(seat=CLUE_GIVER, kind="clue", messages=clue_giver_messages(state.spec, state.turns),
                   display=display,
                   instructions=prompts.CLUE_INSTRUCTIONS.format(chars=parsing.MAX_CLUE_CHARS, word=state.secret),
                   constraint=OutputConstraint(grammar=parsing.CLUE_GRAMMAR), max_tokens=60,
                   max_chars=parsing.MAX_CLUE_CHARS, one_line=True)

    # -- parsing and applying -------------------------------------------------

    def parse(self, state: TabooState, ask: Ask, text: str) -> Action:
        if ask.seat == CLUE_GIVER:
            clue = parsing.clean_clue(text)
            parsing.check_clue(clue, state.secret)
            parsing.refuse_copied_clue(clue)
            return Action(seat=CLUE_GIVER, kind="clue", text=clue)
        reply = parsing.parse_reply(text)
        guess = parsing.find_guess(reply)
        parsing.refuse_copied_guess(guess)
        if ask.kind == "final_guess" and guess is None:
            raise FormatError("you wrote the secret word, so this reply must be your one guess: "
                              "'My guess of the word is: <word>'.")
        return Action(seat=GUESSER, kind="answer" if guess is None else "guess", text=reply)

    def apply(self, state: TabooState, action: Action) -> TabooState:
        if self.outcome(state) is not None:
            raise RuleViolation("the game is over.")
        guesser_turn = state.pending is not None or state.awaiting_final_guess
        if action.seat == CLUE_GIVER:
            if guesser_turn:
                raise RuleViolation("it is the guesser's turn.")
            if action.kind != "clue" or not action.text.strip() or "\n" in action.text:
                raise RuleViolation("the clue-giver can only give a clue, on one line.")
            parsing.check_clue(action.text, state.secret)
            return replace(state, turns=(*state.turns, Round(number=len(state.turns) + 1, clue=action.text)))
        if action.seat == GUESSER:
            if not guesser_turn:
                raise RuleViolation("it is the clue-giver's turn.")
            return self._apply_reply(state, action)
        raise RuleViolation(f"unknown seat {action.seat!r}.")

    def _apply_reply(self, state: TabooState, action: Action) -> TabooState:
        if action.kind not in ("answer", "guess") or not action.text.strip():
            raise RuleViolation("the guesser can only answer or guess.")
        try:
            guess = parsing.find_guess(action.text)
        except FormatError as err:
            raise RuleViolation(err.reason) from err
        if (guess is not None) != (action.kind == "guess"):
            raise RuleViolation("a guess must contain 'My guess of the word is: <word>', and an answer must not.")
        pending = state.pending
        if pending is None:
            if guess is None:
                raise RuleViolation("you wrote the secret word; only a guess is left.")
            return replace(state, final_reply=action.text, final_guess=guess)
        said = says_word(parsing.answer_part(action.text), state.secret)
        answered = replace(pending, reply=action.text, guess=guess, said=said)
        return replace(state, turns=(*state.turns[:-1], answered))

    # -- results --------------------------------------------------------------

    def outcome(self, state: TabooState) -> Outcome | None:
        rounds = self.rounds(state)
        last = state.turns[-1] if state.turns else None
        if last is not None and last.guess is not None:
            return _guess_outcome(state, last.guess, rounds, f"guessed {last.guess!r} in round {last.number}")
        if last is not None and last.said:
            if guess_only(state.spec):
                return Outcome(status="finished", winners=(CLUE_GIVER,), rounds=rounds,
                               reason=f"said the word in round {last.number} (scoring=guess: only a right guess "
                                      "wins)")
            if state.final_guess is None:
                return None
            return _guess_outcome(state, state.final_guess, rounds,
                                  f"said the word in round {last.number}, then guessed {state.final_guess!r}")
        if rounds >= LIMIT and state.pending is None:
            if guess_only(state.spec):
                return Outcome(status="finished", winners=(CLUE_GIVER,), rounds=rounds,
                               reason=f"did not guess the word in {LIMIT} rounds (scoring=guess)")
            return Outcome(status="finished", winners=(GUESSER,), rounds=rounds,
                           reason=f"did not say the word in {LIMIT} rounds")
        return None

    def rounds(self, state: TabooState) -> int:
        return len(state.answered)

    def retro_points(self, state: TabooState) -> Sequence[RetroPoint]:
        """For each answered clue: the guesser's conversation through that clue, before its reply."""
        points: list[RetroPoint] = []
        for index, turn in enumerate(state.turns):
            if turn.reply is None:
                break
            so_far = (*state.turns[:index], replace(turn, reply=None))
            points.append(RetroPoint(round=turn.number, kind="candidates",
                                     messages=guesser_messages(state.spec, so_far), request=prompts.RETRO_REQUEST,
                                     seat=GUESSER))
        return points

    def score_retro(self, spec: MatchSpec, outputs: Sequence[RetroOutput]) -> RetroScore:
        """Recall of the secret word in the guesser's candidate lists."""
        return score_candidates(outputs, spec.hidden("secret") or "")

    def scripted_player(self, seat: str, spec: MatchSpec) -> ScriptedClueGiver | ScriptedGuesser:
        category = category_of(spec)
        if seat == CLUE_GIVER:
            return ScriptedClueGiver(spec.hidden("secret") or "", category)
        if seat != GUESSER:
            raise ConfigError(f"taboo has no seat {seat!r}")
        rng = random.Random(derive_seed(spec.seed, "scripted guesser"))  # independent of the draw of the secret
        pool = word_pool(spec)
        return ScriptedGuesser(rng.choice(pool), pool, guess_only=guess_only(spec))

    def baseline_player(self, name: str, party: str, spec: MatchSpec) -> TabooBaseline:
        """The guesser's baseline ``name`` (``random``, ``passive``, ``naive``: ``baseline_players``), made from the
        spec without its setup, so it cannot read the word."""
        if name not in {info.name for info in self.baselines}:
            raise ConfigError(f"taboo has no baseline player {name!r}")
        if party != GUESSER:
            raise ConfigError(f"taboo's baselines play the guesser, not {party!r}")
        return TabooBaseline(name, spec.model_copy(update={"setup": {}}))

    def transcript(self, state: TabooState) -> Sequence[tuple[str, str]]:
        lines: list[tuple[str, str]] = []
        for turn in state.turns:
            lines.append((CLUE_GIVER, turn.clue))
            if turn.reply is not None:
                lines.append((GUESSER, turn.reply))
        if state.final_reply is not None:
            lines.append((GUESSER, state.final_reply))
        return lines


def guesser_messages(spec: MatchSpec, turns: Sequence[Round]) -> tuple[Message, ...]:
    """The guesser's conversation: its system prompt, then each clue and its reply as said."""
    messages: list[Message] = [
        system(prompts.guesser_system(spec.variants.get(GUESSER, 0), LIMIT, parsing.MAX_CLUE_CHARS,
                                      guess_only=guess_only(spec)))]
    for turn in turns:
        messages.append(user(prompts.ROUND_MESSAGE.format(number=turn.number, limit=LIMIT, clue=turn.clue)))
        if turn.reply is not None:
            messages.append(assistant(turn.reply))
    return tuple(messages)


def clue_giver_messages(spec: MatchSpec, turns: Sequence[Round]) -> tuple[Message, ...]:
    """The clue-giver's conversation: its system prompt (with the word), its clues and the replies it heard."""
    word = spec.hidden("secret") or ""
    messages: list[Message] = [
        system(prompts.clue_giver_system(spec.variants.get(CLUE_GIVER, 0), word, LIMIT, parsing.MAX_CLUE_CHARS)),
        user(prompts.CLUE_OPENING.format(limit=LIMIT)),
    ]
    for turn in turns:
        messages.append(assistant(turn.clue))
        if turn.reply is not None:
            messages.append(user(prompts.CLUE_FEEDBACK.format(reply=turn.reply, number=turn.number + 1, limit=LIMIT)))
    return tuple(messages)


def _guess_outcome(state: TabooState, guess: str, rounds: int, how: str) -> Outcome:
    if same_word(guess, state.secret):
        return Outcome(status="finished", winners=(GUESSER,), rounds=rounds, reason=f"{how}: right")
    return Outcome(status="finished", winners=(CLUE_GIVER,), rounds=rounds,
                   reason=f"{how}, but the word was {state.secret!r}")
