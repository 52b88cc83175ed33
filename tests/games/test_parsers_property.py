"""Every game's reply parsers, property-based (hypothesis): no reply is both accepted and ambiguous (issue 12 §5).

A *parser* here is what reads one kind of reply: a game, the seats or role that reply, and the ask's kind (the
Akinator answerer's answer, a guess-the-rule judge's verdict...). Each is described once, in ``PARSERS``, by a
state where it is asked and the replies it must accept. The tests check, for every parser:

* **any text**: parsing returns an action, or refuses the reply with a ``MoveError`` (``FormatError``; a
  ``RuleViolation`` where the parser checks a rule too, as Taboo's clue); applying the action returns a state or
  raises ``RuleViolation``. Never another exception: the engine re-asks on a ``MoveError`` (``engine.master.judge``),
  anything else would crash the match.
* **valid answers are accepted**, each with its own reading (``read``: what the move means, e.g. the answer, the
  guessed word, the level), and **round trip**: the accepted move rendered back as a reply (``render``, the
  canonical reply of that move) reads the same.
* **harmless noise** (``noise``: surrounding whitespace, trailing punctuation, case, markup, a label the game
  allows) keeps the reading.
* **no reply is both accepted and ambiguous**: two valid answers with different readings, combined the ways a
  model hedges (``combos``: on two lines, joined by " or ", ", ", " / ", " and "..., inside one label or in two
  labelled lines), are refused; or, where a parser says so (``hedge_ok``), accepted only with a reading that is
  neither answer (a numbered line answered "yes or no" is read as that text, which no right answer equals, so
  it scores as wrong whatever the truth: it picks neither answer).

What "ambiguous" means is thus per parser, in its ``combos``. Two kinds of reply are free text and carry no
answer to hedge between: a Bluffing bluffer's answer and an Undercover sentence; for them only a reply of two
paragraphs or two sentences counts as two answers. Known and kept: a Bluffing reply with a question and a verdict
is the verdict (``test_bluffing_rules`` expects it), so those two are not combined; a Taboo guess ends at the end
of its sentence (", ", ". ", "; "), the rest being talk ("cat, since it purrs"), so only a hedge that goes on with
"or" ("cat, or dog") or a second guess label counts as two guesses there.

``test_every_game_seat_and_role_has_a_parser`` fails when the registry has a game, seat or role not described
here, so a new game is not silently skipped.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache, partial
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from playeval.core.ask import Ask
from playeval.core.errors import ConfigError, FormatError, MoveError, RuleViolation
from playeval.core.game import Game
from playeval.core.match import Action, MatchSpec
from playeval.core.registry import default_registry
from playeval.games.akinator import ANSWERER, GUESSER
from playeval.games.akinator import JUDGE as AKINATOR_JUDGE
from playeval.games.bluffing import BLUFFER, QUESTIONER
from playeval.games.dynamic_picnic import GAME_MASTER as DYNAMIC_MASTER
from playeval.games.dynamic_picnic import VALIDATOR
from playeval.games.taboo import CLUE_GIVER
from playeval.games.taboo import GUESSER as TABOO_GUESSER
from playeval.guess_rule import JUDGE, PLAYER
from playeval.guess_rule.writing import CODE_EXECUTOR, GAME_MASTER, verdict_text

PROPERTY = settings(max_examples=40, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
"""Derandomized (the same examples on every run, so CI is reproducible), no deadline (a busy machine)."""
REGISTRY = default_registry()

JOINERS: tuple[str, ...] = ("\n", "\n\n", " or ", ", ", " / ", "/", " and ", "; ", ". ", " | ", ", or ")
"""How a model puts two answers in one reply."""

Reading = Callable[[Action], object]


@dataclass(frozen=True)
class At:
    """A state where a parser is asked, and its ask."""

    game: Game[Any]
    state: Any
    ask: Ask


@dataclass(frozen=True)
class ParserCase:
    """One parser: where it is asked, what it accepts, how its readings compare (see the module's note)."""

    name: str
    game: str
    parties: tuple[str, ...]
    """The seats or role whose replies this parser reads."""
    kind: str
    at: Callable[[], At]
    answers: st.SearchStrategy[str]
    """Valid replies, each accepted."""
    read: Reading
    render: Callable[[Action], str]
    noise: tuple[Callable[[str], str], ...] = ()
    combos: Callable[[str, str], Sequence[str]] = field(default=lambda a, b: [a + j + b for j in JOINERS])
    hedge_ok: bool = False
    applies: bool = False
    """Whether a reading is checked by applying it too (a vote is read as any name; the rules refuse non-players)."""
    vocabulary: tuple[str, ...] = ()
    """Fragments the random replies are built from, besides plain text."""

    def __str__(self) -> str:
        return self.name


# -- reading a reply --------------------------------------------------------------------------------------------

def accept(case: ParserCase, text: str) -> Action | None:
    """The action ``text`` is read as, or ``None`` when it is refused (``applies``: by the rules too)."""
    where = at(case)
    try:
        action = where.game.parse(where.state, where.ask, text)
        if case.applies:
            where.game.apply(where.state, action)
    except MoveError:
        return None
    return action


@cache
def _at(name: str) -> At:
    return next(case for case in PARSERS if case.name == name).at()


def at(case: ParserCase) -> At:
    """The case's state and ask, built once."""
    return _at(case.name)


def text_of(action: Action) -> object:
    return action.text


def said(action: Action) -> str:
    """The move's text as its reply (where the text is the canonical reply)."""
    return action.text


def kind_and_text(action: Action) -> object:
    return action.kind, action.text.lower()


def lowered(action: Action) -> object:
    return action.text.lower()


# -- noise ------------------------------------------------------------------------------------------------------

def spaced(text: str) -> str:
    return f"  {text} \n"


def upper(text: str) -> str:
    return text.upper()


def lower(text: str) -> str:
    return text.lower()


def full_stop(text: str) -> str:
    return f"{text}."


def starred(text: str) -> str:
    return f"**{text}**"


# -- building states --------------------------------------------------------------------------------------------

def new_spec(game_id: str, level: int = 1, seed: int = 3, **options: Any) -> tuple[Game[Any], MatchSpec]:
    game = REGISTRY.get(game_id)
    return game, game.new_spec(level, seed, random.Random(seed), options=options or None)


def moves(game: Game[Any], spec: MatchSpec, actions: Sequence[Action]) -> Any:
    state = game.initial_state(spec)
    for action in actions:
        state = game.apply(state, action)
    return state


def first_ask(game: Game[Any], state: Any) -> At:
    return At(game, state, game.next_asks(state)[0])


async def _scripted_until(game: Game[Any], spec: MatchSpec, party: str, kind: str) -> At:
    """Play with the game's scripted players until ``party`` is asked ``kind``."""
    state = game.initial_state(spec)
    players: dict[str, Any] = {}
    for _ in range(500):
        for ask in game.next_asks(state):
            name = ask.seat or ask.role or ""
            if (name, ask.kind) == (party, kind):
                return At(game, state, ask)
            player = players.setdefault(name, game.scripted_player(name, spec))
            state = game.apply(state, game.parse(state, ask, (await player.act(ask)).text))
    raise AssertionError(f"{game.id}: {party} was never asked {kind}")


def scripted_until(game: Game[Any], spec: MatchSpec, party: str, kind: str) -> At:
    import asyncio

    return asyncio.run(_scripted_until(game, spec, party, kind))


# -- Akinator ---------------------------------------------------------------------------------------------------

GUESS_FORMAT = "This is a guess -- are you thinking of {object}?"
OBJECTS = st.sampled_from(("a teapot", "a violin", "a red bicycle", "the Eiffel Tower", "a cat", "an umbrella"))
QUESTIONS = st.sampled_from(("Is it alive", "Is it made of metal", "Can you hold it in one hand",
                             "Is it used in a kitchen", "Is it bigger than a car"))


def akinator_at(level: int, actions: Sequence[Action]) -> At:
    game, spec = new_spec("akinator", level)
    spec = spec.model_copy(update={"setup": {"secret": "an electric guitar"}})
    return first_ask(game, moves(game, spec, actions))


def akinator_move_combos(a: str, b: str) -> list[str]:
    found = [a + j + b for j in JOINERS]
    objects = [reply.removeprefix(GUESS_FORMAT[:-10]).removesuffix("?") for reply in (a, b)
               if reply.startswith(GUESS_FORMAT[:-10])]
    if len(objects) == 2:  # two objects in one guess: "a cat or a dog"
        found += [GUESS_FORMAT.format(object=objects[0] + j + objects[1])
                  for j in (" or ", " / ", "/", " and/or ", ", ", ", or ")]
    return found


def akinator_render(action: Action) -> str:
    return action.text if action.kind == "question" else GUESS_FORMAT.format(object=action.text)


def answer_case(name: str, parties: tuple[str, ...], kind: str, at_: Callable[[], At],
                allowed: tuple[str, ...]) -> ParserCase:
    return ParserCase(name=name, game="akinator", parties=parties, kind=kind, at=at_, answers=st.sampled_from(allowed),
                      read=text_of, render=said, noise=(spaced, upper, lower, full_stop, starred),
                      vocabulary=(*allowed, "Probably", "not sure"))


AKINATOR = (
    ParserCase(name="akinator guesser move", game="akinator", parties=(GUESSER,), kind="move",
               at=lambda: akinator_at(1, ()),
               answers=st.one_of(QUESTIONS.map(lambda q: f"Question 1: {q}?"),
                                 OBJECTS.map(lambda o: GUESS_FORMAT.format(object=o))),
               read=kind_and_text, render=akinator_render,
               noise=(spaced, starred, lambda t: t.replace("Question 1:", "question 1 -")),
               combos=akinator_move_combos,
               vocabulary=("Question 1: ", "Question 2: ", GUESS_FORMAT[:-10], "guess: ", "?", "a cat", " or ")),
    answer_case("akinator answerer answer, level 1", (ANSWERER,), "answer",
                lambda: akinator_at(1, (Action(seat=GUESSER, kind="question", text="Question 1: Is it alive?"),)),
                ("Yes", "No", "Probably yes", "Probably no", "Don't know")),
    answer_case("akinator answerer answer, level 3", (ANSWERER,), "answer",
                lambda: akinator_at(3, (Action(seat=GUESSER, kind="question", text="Question 1: Is it alive?"),)),
                ("Yes", "No", "Don't know")),
    answer_case("akinator judge confirm", (AKINATOR_JUDGE,), "confirm",
                lambda: akinator_at(1, (Action(seat=GUESSER, kind="guess", text="a mobile phone"),)), ("Yes", "No")),
)


# -- Bluffing ---------------------------------------------------------------------------------------------------

VERDICT_LINE = "I believe your statement is: {}"
VERDICTS = st.sampled_from(("True", "False")).map(VERDICT_LINE.format)


def bluffing_at(exchanges: int, answered: bool = True) -> At:
    game, spec = new_spec("bluffing")
    actions: list[Action] = []
    for number in range(1, exchanges + 1):
        actions.append(Action(seat=QUESTIONER, kind="question", text=f"Question {number}: Where was it?"))
        if answered or number < exchanges:
            actions.append(Action(seat=BLUFFER, kind="answer", text="In Leeds."))
    return first_ask(game, moves(game, spec, actions))


def verdict_combos(a: str, b: str) -> list[str]:
    """Two verdicts, also inside one line ("True or False"; after ". " a new sentence begins); a question and a
    verdict are not combined (the verdict is read, by design)."""
    if a.startswith("Question") or b.startswith("Question"):
        return [a + "\n" + b] if a.startswith("Question") and b.startswith("Question") else []
    one, other = a.rsplit(" ", 1)[1], b.rsplit(" ", 1)[1]
    return [a + j + b for j in JOINERS] + [VERDICT_LINE.format(one + j + other) for j in JOINERS
                                           if j.strip() not in ("", ".")]


def bluffing_render(action: Action) -> str:
    return VERDICT_LINE.format(action.text) if action.kind == "verdict" else action.text


BLUFFING = (
    ParserCase(name="bluffing questioner move", game="bluffing", parties=(QUESTIONER,), kind="move",
               at=lambda: bluffing_at(0),
               answers=st.one_of(QUESTIONS.map(lambda q: f"Question 1: {q}?"), VERDICTS),
               read=kind_and_text, render=bluffing_render, noise=(spaced, starred), combos=verdict_combos,
               vocabulary=("Question 1: ", "?", VERDICT_LINE.format(""), "True", "False", " or ")),
    ParserCase(name="bluffing questioner verdict", game="bluffing", parties=(QUESTIONER,), kind="verdict",
               at=lambda: bluffing_at(5), answers=VERDICTS, read=text_of, render=bluffing_render,
               noise=(spaced, starred, lambda t: t.replace("statement is: ", "statement is: \"") + '"',
                      lambda t: f"I thought about it. {t}"),
               combos=verdict_combos, vocabulary=(VERDICT_LINE.format(""), "True", "False", "/", " or ")),
    ParserCase(name="bluffing bluffer answer", game="bluffing", parties=(BLUFFER,), kind="answer",
               at=lambda: bluffing_at(1, answered=False),
               answers=st.sampled_from(("In Leeds, by the park.", "Two summers, when I was at college.",
                                        "Yes, the outdoor one.")),
               read=text_of, render=said, noise=(spaced, lambda t: f"Answer: {t}", lambda t: f'"{t}"'),
               combos=lambda a, b: [a + "\n\n" + b], vocabulary=("Answer:", "\n\n", '"')),
)


# -- Taboo ------------------------------------------------------------------------------------------------------

GUESS_LINE = "My guess of the word is: {}"
WORDS = st.sampled_from(("dog", "lion", "horse", "zebra", "mouse", "polar bear"))


def taboo_at(actions: Sequence[Action]) -> At:
    game, spec = new_spec("taboo")
    spec = spec.model_copy(update={"setup": {"secret": "cat"}})
    return first_ask(game, moves(game, spec, actions))


def guessed(action: Action) -> object:
    from playeval.games.taboo.parsing import find_guess

    guess = find_guess(action.text)
    return action.kind, None if guess is None else guess.lower()


def taboo_combos(a: str, b: str) -> list[str]:
    words = [reply.removeprefix(GUESS_LINE.format("")) for reply in (a, b)]
    found = [a + j + b for j in JOINERS]
    found += [GUESS_LINE.format(words[0] + j + words[1]) for j in (" or ", " / ", "/", ", or ", " and ", " and/or ")]
    return found


TABOO_CLUE_START = (Action(seat=CLUE_GIVER, kind="clue", text="It purrs"),)
TABOO = (
    ParserCase(name="taboo clue giver clue", game="taboo", parties=(CLUE_GIVER,), kind="clue",
               at=lambda: taboo_at(()), answers=st.sampled_from(("It purrs", "A pet that chases mice",
                                                                  "Small, furry, with whiskers")),
               read=text_of, render=said,
               noise=(spaced, starred, lambda t: f"Clue: {t}", lambda t: f'"{t}"'),
               combos=lambda a, b: [a + "\n" + b], vocabulary=("Clue:", "cat", "\n", '"')),
    ParserCase(name="taboo guesser answer", game="taboo", parties=(TABOO_GUESSER,), kind="answer",
               at=lambda: taboo_at(TABOO_CLUE_START), answers=WORDS.map(GUESS_LINE.format), read=guessed,
               render=said, noise=(spaced, starred, full_stop, lower, lambda t: f"Hmm, a pet.\n{t}"),
               combos=taboo_combos, vocabulary=(GUESS_LINE.format(""), "dog", " or ", ",", "\n", "the word")),
    ParserCase(name="taboo guesser final guess", game="taboo", parties=(TABOO_GUESSER,), kind="final_guess",
               at=lambda: taboo_at((*TABOO_CLUE_START, Action(seat=TABOO_GUESSER, kind="answer",
                                                              text="That is a cat, surely."))),
               answers=WORDS.map(GUESS_LINE.format), read=guessed, render=said,
               noise=(spaced, starred, full_stop, lower), combos=taboo_combos,
               vocabulary=(GUESS_LINE.format(""), "dog", " or ", "\n")),
)


# -- Undercover -------------------------------------------------------------------------------------------------

def undercover_at(phase: str) -> At:
    game, spec = new_spec("undercover", seed=4)
    state = game.initial_state(spec)
    for _ in range(100):
        ask = game.next_asks(state)[0]
        if ask.kind == phase:
            return At(game, state, ask)
        if ask.role is not None:
            state = game.apply(state, game.parse(state, ask, "no" if ask.kind == "novelty" else "yes"))
        else:
            state = game.apply(state, Action(seat=ask.seat, kind="statement",
                                             text=f"{ask.seat} says something new in round {state.round}"))
    raise AssertionError(f"undercover: nobody was asked {phase}")


def other_seats() -> st.SearchStrategy[str]:
    where = _at("undercover vote")
    return st.sampled_from([seat for seat in where.state.alive() if seat != where.ask.seat])


UNDERCOVER_SEATS = tuple(seat.name for seat in REGISTRY.get("undercover").seats)
UNDERCOVER = (
    ParserCase(name="undercover statement", game="undercover", parties=UNDERCOVER_SEATS, kind="statement",
               at=lambda: undercover_at("statement"),
               answers=st.sampled_from(("It is often seen in zoos", "Many children draw it with crayons",
                                        "You can find pictures of it in old books")),
               read=text_of, render=said, noise=(spaced, lambda t: f"Your sentence: {t}", lambda t: f'"{t}"'),
               combos=lambda a, b: [a + "\n" + b, a + ". " + b], vocabulary=("Your sentence:", ". ", "\n")),
    ParserCase(name="undercover vote", game="undercover", parties=UNDERCOVER_SEATS, kind="vote",
               at=lambda: undercover_at("vote"), answers=st.deferred(other_seats), read=text_of, render=said,
               noise=(spaced, upper, full_stop, lambda t: f'"{t}"'), applies=True,
               vocabulary=("player1", "player2", "player3", " or ", "\n")),
    *(ParserCase(name=f"undercover judge {scale}", game="undercover", parties=("judge",), kind=scale,
                 at=partial(undercover_at, scale), answers=st.sampled_from(("yes", "partly", "no")),
                 read=lambda action: action.data["answer"], render=lambda action: str(action.data["answer"]),
                 noise=(spaced, upper, full_stop, lambda t: t.capitalize() + "!"),
                 vocabulary=("yes", "no", "partly", "\n", "."))
      for scale in ("novelty", "relevance", "reasonableness")),
)


# -- the guess-the-rule games -----------------------------------------------------------------------------------

def held_out_answers(where: At) -> list[str]:
    game = where.game
    return [item.answer for item in game.held_out(where.state.rule)]  # type: ignore[attr-defined]


def numbered(answers: Sequence[str]) -> str:
    return "\n".join(f"{number}. {answer}" for number, answer in enumerate(answers, 1))


def numbered_combos(a: str, b: str) -> list[str]:
    """Two numbered replies: one after the other (a line numbered twice), or line by line ("1. yes or no")."""
    pairs = list(zip(a.splitlines(), b.splitlines(), strict=True))
    found = [a + "\n" + b]
    for joiner in JOINERS[2:]:
        found.append("\n".join(x if x == y else x + joiner + y.split(" ", 1)[1] for x, y in pairs))
    return found


def numbered_answers_of(name: str, alphabet: Callable[[str], st.SearchStrategy[str]]) -> st.SearchStrategy[str]:
    def build() -> st.SearchStrategy[str]:
        right = held_out_answers(_at(name)) if name.endswith("apply") else ["yes"] * _batch_size(name)
        return st.tuples(*(alphabet(answer) for answer in right)).map(numbered)
    return st.deferred(build)


def _batch_size(name: str) -> int:
    state = _at(name).state
    return len(state.pending.items)


def yes_no(_: str) -> st.SearchStrategy[str]:
    return st.sampled_from(("yes", "no"))


def near_number(answer: str) -> st.SearchStrategy[str]:
    return st.sampled_from((answer, str(int(answer) + 1), str(int(answer) - 7)))


def numbered_read(action: Action) -> object:
    return tuple(action.text.split("\n"))


def numbered_noise(text: str) -> str:
    """Spaces around every line, a ')' for the '.', upper case."""
    return "\n".join(f"  {line.replace('.', ')', 1).upper()} " for line in text.splitlines())


def reversed_lines(text: str) -> str:
    """The numbered lines in the other order: each is read by its number."""
    return "\n".join(reversed(text.splitlines()))


def move_combos(a: str, b: str) -> list[str]:
    found = [a + j + b for j in JOINERS]
    if a.startswith("MORE") and b.startswith("MORE"):  # "MORE: 2 or 3"
        found += [a + j + b.split(": ")[1] for j in JOINERS if j.strip() not in ("", ".")]
    return found


def move_read(action: Action) -> object:
    """The move; a guess's words whatever their case or final full stop (the judge reads them alike)."""
    return action.kind, action.text.lower().rstrip(".")


def move_render(action: Action) -> str:
    return f"{'MORE' if action.kind == 'more' else 'GUESS'}: {action.text}"


JUDGE_REPLY = "Verdict: {}\nReason: {}"


def judge_combos(a: str, b: str) -> list[str]:
    one, other = a.split("\n")[0].split(": ")[1], b.split("\n")[0].split(": ")[1]
    found = [a + j + b for j in JOINERS]
    found += [JUDGE_REPLY.format(one + j + other, "hard to say.") for j in JOINERS if j.strip() not in ("", ".")]
    return found


def guess_rule_cases(game_id: str, player_at: Callable[[], At], apply_at: Callable[[], At],
                     judge_at: Callable[[], At], alphabet: Callable[[str], st.SearchStrategy[str]]) -> list[ParserCase]:
    name = game_id.replace("_", " ")
    return [
        ParserCase(name=f"{name} player move", game=game_id, parties=(PLAYER,), kind="move", at=player_at,
                   answers=st.one_of(st.integers(1, 2).map(lambda n: f"MORE: {n}"),
                                     st.sampled_from(("only red things", "words with five letters",
                                                      "each number doubles")).map(lambda r: f"GUESS: {r}")),
                   read=move_read, render=move_render, noise=(spaced, starred, lower, full_stop),
                   combos=move_combos, vocabulary=("MORE: ", "GUESS: ", "1", "2", " or ", "\n")),
        ParserCase(name=f"{name} player apply", game=game_id, parties=(PLAYER,), kind="apply", at=apply_at,
                   answers=numbered_answers_of(f"{name} player apply", alphabet), read=numbered_read,
                   render=lambda action: numbered(action.text.split("\n")),
                   noise=(spaced, numbered_noise, reversed_lines), combos=numbered_combos, hedge_ok=True,
                   vocabulary=("1. ", "2. ", "yes", "no", "12", "\n", "skip")),
        ParserCase(name=f"{name} judge verdict", game=game_id, parties=(JUDGE,), kind="verdict", at=judge_at,
                   answers=st.tuples(st.sampled_from(("yes", "no")),
                                     st.sampled_from(("the same rule.", "too broad."))).map(
                                         lambda pair: JUDGE_REPLY.format(*pair)),
                   read=text_of, render=lambda action: JUDGE_REPLY.format(action.text, action.data["reason"] or "-"),
                   noise=(spaced, lambda t: t.replace("Verdict: ", "**Verdict:** ").replace("yes", "Yes")),
                   combos=judge_combos, vocabulary=("Verdict: ", "yes", "no", "Reason: ", "\n", " or ")),
    ]


def player_at(game_id: str) -> Callable[[], At]:
    def build() -> At:
        game, spec = new_spec(game_id)
        if game_id == "dynamic_picnic":
            return scripted_until(game, spec, PLAYER, "move")
        return first_ask(game, game.initial_state(spec))
    return build


def after(before: Callable[[], At], *replies: str) -> Callable[[], At]:
    """The ask that follows ``replies`` to the ask of ``before``, one after the other."""
    def build() -> At:
        where = before()
        state = where.state
        for reply in replies:
            ask = where.game.next_asks(state)[0]
            text = numbered(held_out_answers(At(where.game, state, ask))) if reply == "<held out>" else reply
            state = where.game.apply(state, where.game.parse(state, ask, text))
        return first_ask(where.game, state)
    return build


def rule_games() -> list[ParserCase]:
    cases: list[ParserCase] = []
    for game_id in ("static_picnic", "functions_picnic", "math", "dynamic_picnic"):
        player = player_at(game_id)
        applying = after(player, "GUESS: only red things")
        judging = after(player, "GUESS: only red things", "<held out>")
        cases += guess_rule_cases(game_id, player, applying, judging, near_number if game_id == "math" else yes_no)
    return cases


# -- the rule-writing roles -------------------------------------------------------------------------------------

FUNCTION_CODE = "```python\ndef rule(word):\n    return len(word) == {}\n```"
MATH_CODE = "```python\ndef generate_next(current_value, index):\n    return current_value + {}\n```"


def writing_at(game_id: str, draft: str | None) -> Callable[[], At]:
    def build() -> At:
        game, spec = new_spec(game_id, rules="generated")
        state = game.initial_state(spec)
        if draft is not None:
            state = game.apply(state, game.parse(state, game.next_asks(state)[0], draft))
        return first_ask(game, state)
    return build


def draft_combos(a: str, b: str) -> list[str]:
    """Two drafts: one after the other, or their header lines twice (two RULE: lines, two START: lines)."""
    head_a, code = a.split("```", 1)
    head_b = b.split("```", 1)[0]
    return [a + "\n" + b, head_a + head_b + "```" + code, head_b + head_a + "```" + code]


def draft_read(action: Action) -> object:
    return tuple(sorted((key, str(value).strip()) for key, value in action.data.items()))


def draft_case(game_id: str, answers: st.SearchStrategy[str]) -> ParserCase:
    return ParserCase(name=f"{game_id.replace('_', ' ')} game master draft", game=game_id, parties=(GAME_MASTER,),
                      kind="draft", at=writing_at(game_id, None), answers=answers, read=draft_read,
                      render=said, noise=(spaced, lambda t: t.replace("RULE:", "**RULE:**")),
                      combos=draft_combos, vocabulary=("RULE: ", "START: ", "```python\n", "def rule(word):",
                                                       "def generate_next(", "\n", "import os\n"))


FUNCTION_DRAFTS = st.integers(3, 7).map(lambda n: f"RULE: words of {n} letters\n" + FUNCTION_CODE.format(n))
MATH_DRAFTS = st.tuples(st.integers(1, 9), st.integers(1, 9)).map(
    lambda pair: f"RULE: add {pair[1]} each time\nSTART: {pair[0]}\n" + MATH_CODE.format(pair[1]))
CHECKS = st.sampled_from((verdict_text({"accepted": False, "reason": "constant", "message": "always true"}),
                          verdict_text({"accepted": True, "words": "w", "truth": "t"}),
                          verdict_text({"accepted": False, "reason": "error", "message": "it raised"})))


def check_combos(a: str, b: str) -> list[str]:
    """Two verdicts: one after the other, or one object naming 'accepted' twice."""
    return [a + j + b for j in JOINERS] + [a[:-1] + "," + b[1:]]


def check_read(action: Action) -> object:
    return action.text, action.data.get("reason")


def check_case(game_id: str, draft: str) -> ParserCase:
    return ParserCase(name=f"{game_id.replace('_', ' ')} code executor check", game=game_id,
                      parties=(CODE_EXECUTOR,), kind="check", at=writing_at(game_id, draft), answers=CHECKS,
                      read=check_read, render=verdict_text_of, noise=(spaced,), combos=check_combos,
                      vocabulary=('{"accepted": ', "true", "false", '"reason": "x"', '"message": "y"', "}", ",",
                                  "[", "NaN"))


def verdict_text_of(action: Action) -> str:
    return verdict_text(action.data)


WRITING = (
    draft_case("functions_picnic", FUNCTION_DRAFTS),
    draft_case("math", MATH_DRAFTS),
    check_case("functions_picnic", "RULE: words of 5 letters\n" + FUNCTION_CODE.format(5)),
    check_case("math", "RULE: add 2 each time\nSTART: 3\n" + MATH_CODE.format(2)),
)


# -- Dynamic Picnic's game master and validator -----------------------------------------------------------------

def dynamic_at(kind: str) -> Callable[[], At]:
    def build() -> At:
        game, spec = new_spec("dynamic_picnic", rules="generated")  # the default plays a bank rule: no such ask
        party = DYNAMIC_MASTER if kind in ("rule", "items") else VALIDATOR
        return scripted_until(game, spec, party, kind)
    return build


def items_reply(pair: tuple[Sequence[str], Sequence[str]]) -> str:
    return f"Fits: {', '.join(pair[0])}\nDoes not fit: {', '.join(pair[1])}"


ITEM_NAMES = st.sampled_from(("apple", "red car", "tomato", "blue whale", "snow", "ladybird"))


def items_combos(a: str, b: str) -> list[str]:
    fits_a, others_a = a.split("\n")
    fits_b, others_b = b.split("\n")
    return [a + "\n" + b, f"{fits_a}\n{fits_b}\n{others_a}", f"{fits_a}\n{others_a}\n{others_b}"]


def level_combos(a: str, b: str) -> list[str]:
    found = [a + j + b for j in JOINERS]
    return found + [a + j + b.split(": ")[1] for j in JOINERS if j.strip() not in ("", ".")]


DYNAMIC = (
    ParserCase(name="dynamic picnic game master rule", game="dynamic_picnic", parties=(DYNAMIC_MASTER,),
               kind="rule", at=dynamic_at("rule"),
               answers=st.sampled_from(("only red things", "things found at the seaside",
                                        "things heavier than a person")).map(lambda r: f"Rule: {r}"),
               read=lowered, render=lambda action: f"Rule: {action.text}",
               noise=(spaced, starred, lambda t: t.replace("Rule:", "RULE :")),
               combos=lambda a, b: [a + "\n" + b, a + " Rule: " + b.split(": ")[1]],
               vocabulary=("Rule: ", "red", "\n", " or ")),
    ParserCase(name="dynamic picnic validator classify", game="dynamic_picnic", parties=(VALIDATOR,),
               kind="classify", at=dynamic_at("classify"),
               answers=st.sampled_from(("Level: L1", "Level: L2", "Level: L3")), read=text_of,
               render=lambda action: f"Level: L{action.text}", noise=(spaced, starred, lower, full_stop),
               combos=level_combos, vocabulary=("Level: ", "L1", "L2", "L3", "L4", " or ", "\n")),
    ParserCase(name="dynamic picnic game master items", game="dynamic_picnic", parties=(DYNAMIC_MASTER,),
               kind="items", at=dynamic_at("items"),
               answers=st.tuples(st.lists(ITEM_NAMES, min_size=1, max_size=3, unique=True),
                                 st.lists(ITEM_NAMES, min_size=1, max_size=3, unique=True)).map(items_reply),
               read=lambda action: (tuple(action.data["fits"]), tuple(action.data["others"])), render=said,
               noise=(spaced, lambda t: t.replace("Fits:", "**Fits:**")), combos=items_combos,
               vocabulary=("Fits: ", "Does not fit: ", "apple", ", ", "\n")),
    ParserCase(name="dynamic picnic validator check", game="dynamic_picnic", parties=(VALIDATOR,), kind="check",
               at=dynamic_at("check"), answers=numbered_answers_of("dynamic picnic validator check", yes_no),
               read=numbered_read, render=lambda action: numbered(action.text.split("\n")),
               noise=(spaced, numbered_noise, reversed_lines), combos=numbered_combos,
               vocabulary=("1. ", "2. ", "3. ", "yes", "no", "\n")),
)

PARSERS: tuple[ParserCase, ...] = (*AKINATOR, *BLUFFING, *TABOO, *UNDERCOVER, *rule_games(), *WRITING, *DYNAMIC)


# -- the properties ---------------------------------------------------------------------------------------------

def random_replies(case: ParserCase) -> st.SearchStrategy[str]:
    pieces = st.sampled_from((*case.vocabulary, " ", "\n", ":", "?", ".", "**", "1", "yes", "no"))
    return st.one_of(st.text(max_size=120), st.text(min_size=500, max_size=3000),
                     st.lists(st.one_of(pieces, st.text(max_size=6)), max_size=14).map("".join),
                     st.lists(st.one_of(pieces, case.answers), max_size=4).map("".join))


@pytest.mark.parametrize("case", PARSERS, ids=str)
@PROPERTY
@given(data=st.data())
def test_any_text_is_a_move_or_a_format_error(case: ParserCase, data: st.DataObject) -> None:
    where = at(case)
    text = data.draw(random_replies(case), label="reply")
    try:
        action = where.game.parse(where.state, where.ask, text)
    except MoveError:  # FormatError; or RuleViolation, where the parser checks a rule (a Taboo clue's word)
        return
    assert isinstance(action, Action)
    try:
        where.game.apply(where.state, action)
    except RuleViolation:
        pass


@pytest.mark.parametrize("case", PARSERS, ids=str)
@PROPERTY
@given(data=st.data())
def test_a_valid_answer_is_read_the_same_with_noise_and_back(case: ParserCase, data: st.DataObject) -> None:
    answer = data.draw(case.answers, label="answer")
    action = accept(case, answer)
    assert action is not None, f"{answer!r} is refused"
    rendered = accept(case, case.render(action))
    assert rendered is not None and case.read(rendered) == case.read(action), "the round trip changes the move"
    for noise in case.noise:
        noisy = accept(case, noise(answer))
        assert noisy is not None, f"{noise(answer)!r} is refused"
        assert case.read(noisy) == case.read(action), f"{noise(answer)!r} reads differently from {answer!r}"


@pytest.mark.parametrize("case", PARSERS, ids=str)
@PROPERTY
@given(data=st.data())
def test_no_reply_is_accepted_and_ambiguous(case: ParserCase, data: st.DataObject) -> None:
    one = data.draw(case.answers, label="one")
    other = data.draw(case.answers, label="other")
    first, second = accept(case, one), accept(case, other)
    assert first is not None and second is not None
    if case.read(first) == case.read(second):
        return
    for both in case.combos(one, other):
        read = accept(case, both)
        if read is None:
            continue
        assert case.hedge_ok and case.read(read) not in (case.read(first), case.read(second)), \
            f"{both!r} is accepted as {case.read(read)!r}"


def test_every_game_seat_and_role_has_a_parser() -> None:
    """A game, seat or role of the registry without a parser here fails (a new game is not silently skipped)."""
    assert {case.game for case in PARSERS} == set(REGISTRY.ids())
    for game in REGISTRY:
        parties = {seat.name for seat in game.seats} | {role.name for role in game.roles}
        covered = {party for case in PARSERS if case.game == game.id for party in case.parties}
        assert parties == covered, f"{game.id}: no parser case for {sorted(parties - covered)}"


async def _asked_in_scripted_play(game: Game[Any], level: int) -> set[tuple[str, str]]:
    """The (party, kind) asked in a match the game's scripted players play, as far as there are some."""
    spec = game.new_spec(level, 7, random.Random(7))
    state = game.initial_state(spec)
    asked: set[tuple[str, str]] = set()
    players: dict[str, Any] = {}
    for _ in range(400):
        if game.outcome(state) is not None:
            break
        for ask in game.next_asks(state):
            party = ask.seat or ask.role or ""
            asked.add((party, ask.kind))
            try:
                player = players.setdefault(party, game.scripted_player(party, spec))
                state = game.apply(state, game.parse(state, ask, (await player.act(ask)).text))
            except (ConfigError, MoveError):  # no script can play the party (a game master writing code), or the
                return asked                   # script's move is refused (scripts are not re-asked: the match ends)
    return asked


@pytest.mark.parametrize("game_id", REGISTRY.ids())
async def test_every_kind_of_ask_in_scripted_play_has_a_parser(game_id: str) -> None:
    game = REGISTRY.get(game_id)
    covered = {(party, case.kind) for case in PARSERS if case.game == game_id for party in case.parties}
    for level in (info.level for info in game.levels):
        asked = await _asked_in_scripted_play(game, level)
        assert asked and asked <= covered, f"{game_id} level {level}: no parser case for {sorted(asked - covered)}"


@pytest.mark.parametrize("case", PARSERS, ids=str)
def test_each_case_is_asked_where_it_says(case: ParserCase) -> None:
    where = at(case)
    assert where.ask.kind == case.kind and (where.ask.seat or where.ask.role) in case.parties


# -- what the properties found: each reply was accepted as one of its two answers before ----------------------

def refused(name: str, text: str) -> None:
    where = _at(name)
    with pytest.raises(FormatError, match="not two"):
        where.game.parse(where.state, where.ask, text)


def read_as(name: str, text: str) -> Action:
    where = _at(name)
    return where.game.parse(where.state, where.ask, text)


def test_akinator_two_objects_in_one_guess_are_refused() -> None:
    refused("akinator guesser move", "This is a guess -- are you thinking of a teapot? or Question 1: Is it alive?")
    refused("akinator guesser move", "This is a guess -- are you thinking of a cat or a dog?")
    refused("akinator guesser move", "guess: a cat/a dog")
    refused("akinator guesser move", "This is a guess -- are you thinking of a cat, or a dog?")
    assert read_as("akinator guesser move", "guess: a bow and arrow").text == "a bow and arrow"
    assert read_as("akinator guesser move", "guess: a red bicycle?").text == "a red bicycle"
    game, spec = new_spec("akinator")
    quirk = spec.model_copy(update={"setup": {"secret": "a dishwasher detergent or cleaning agent"}})
    state = game.initial_state(quirk)
    action = game.parse(state, game.next_asks(state)[0], GUESS_FORMAT.format(object="a dishwasher detergent or "
                                                                                 "cleaning agent"))
    assert action.kind == "guess" and game.outcome(game.apply(state, action)) is not None  # the secret is one object


def test_bluffing_a_verdict_hedged_between_true_and_false_is_refused() -> None:
    for hedge in ("True or False", "True/False", "True, or False", "true, false", '"True" or "False"'):
        refused("bluffing questioner verdict", VERDICT_LINE.format(hedge))
        refused("bluffing questioner move", VERDICT_LINE.format(hedge))
    assert read_as("bluffing questioner verdict", VERDICT_LINE.format("True or true")).text == "True"
    assert read_as("bluffing questioner verdict", VERDICT_LINE.format("False. True to form, he lied.")).text == "False"


def test_taboo_two_guesses_in_one_line_are_refused() -> None:
    for hedge in ("dog, My guess of the word is: lion", "dog, or lion", "dog and lion", "dog & lion"):
        refused("taboo guesser answer", GUESS_LINE.format(hedge))
    assert read_as("taboo guesser answer", GUESS_LINE.format("dog, since it barks")).kind == "guess"
    assert guessed(read_as("taboo guesser answer", GUESS_LINE.format("polar bear."))) == ("guess", "polar bear")


def test_guess_rule_moves_judges_and_checkers_with_two_answers_are_refused() -> None:
    for game_id in ("static picnic", "functions picnic", "math", "dynamic picnic"):
        for two in ("MORE: 1 or MORE: 2", "MORE: 1 or 2", "MORE: 1 or GUESS: only red things",
                    "GUESS: only red things or MORE: 2", "GUESS: red things GUESS: round things"):
            refused(f"{game_id} player move", two)
        assert read_as(f"{game_id} player move", "MORE: 2 please").text == "2"
        assert read_as(f"{game_id} player move", "**GUESS: only red things**").text == "only red things"
        for two in ("Verdict: yes or no\nReason: hard to say.", "Verdict: yes, or no", "Verdict: no/yes",
                    "Verdict: yes, no"):
            refused(f"{game_id} judge verdict", two)
        assert read_as(f"{game_id} judge verdict", "Verdict: yes, no doubt.\nReason: same rule.").text == "yes"
        assert read_as(f"{game_id} judge verdict", "Verdict: no\nReason: no, too broad.").text == "no"


def test_guess_rule_more_counts_are_plain_digits_with_no_sign() -> None:
    """'MORE: -3' and 'MORE: \uff13' (a full-width 3) are format errors, not 'MORE: 3'."""
    for game_id in ("static picnic", "functions picnic", "math", "dynamic picnic"):
        for bad in ("MORE: -3", "MORE: \uff13", "MORE -3", "**MORE:** -1", "MORE: +2", "MORE: \u22122",
                    "MORE: \u0663", "MORE: 3\uff13", "MORE: 1000"):
            where = _at(f"{game_id} player move")
            with pytest.raises(FormatError, match="digits 0-9 with no sign"):
                where.game.parse(where.state, where.ask, bad)
        assert read_as(f"{game_id} player move", "MORE: 3").text == "3"
        assert read_as(f"{game_id} player move", "**MORE:** 2").text == "2"


def test_two_drafts_or_two_verdicts_of_the_rule_writers_are_refused() -> None:
    first, second = FUNCTION_CODE.format(3), FUNCTION_CODE.format(4)
    refused("functions picnic game master draft",
            f"RULE: words of 3 letters\n{first}\nRULE: words of 4 letters\n{second}")
    refused("functions picnic game master draft", f"RULE: words of 3 letters\nRULE: short words\n{first}")
    refused("math game master draft", f"RULE: add 2 each time\nSTART: 1\nSTART: 5\n{MATH_CODE.format(2)}")
    draft = read_as("functions picnic game master draft",
                    f"RULE: words of 3 letters\nRULE: words of 3 letters\n{first}")
    assert draft.data["statement"] == "words of 3 letters"  # the same line twice is one answer
    refused("functions picnic code executor check",
            '{"accepted": false, "reason": "constant", "message": "always true", "accepted": true}')
    with pytest.raises(FormatError, match="one JSON object"):
        read_as("math code executor check", "[" * 100_000)  # too deep for the JSON reader: unreadable, not a crash


def test_dynamic_picnic_two_levels_rules_or_answers_are_refused() -> None:
    """A level reply naming several levels was read as its first; it names two answers, so it is refused."""
    for two in ("Level: L1\nLevel: L2", "Level: L1 or L2", "Level: L3 (maybe L2)"):
        refused("dynamic picnic validator classify", two)
    assert read_as("dynamic picnic validator classify", "Level: L2, so L2.").text == "2"
    refused("dynamic picnic game master rule", "Rule: only red things Rule: things found at the seaside")
    assert read_as("dynamic picnic game master rule", "**Rule: only red things**").text == "only red things"
    assert read_as("dynamic picnic game master items", "**Fits:** apple\nDoes not fit: snow").data == {
        "fits": ["apple"], "others": ["snow"]}
    count = _batch_size("dynamic picnic validator check")
    with pytest.raises(FormatError, match="missing: 1"):
        read_as("dynamic picnic validator check", numbered(["yes or no", *["yes"] * (count - 1)]))
