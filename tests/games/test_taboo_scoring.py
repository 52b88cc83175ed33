"""Taboo's ``scoring=guess`` option, and replies that copy the game's own instructions (issue 21, section 7)."""

from __future__ import annotations

import random
import re

import pytest

from playeval.core.ask import Ask, Reply
from playeval.core.errors import ConfigError, FormatError, MoveError, RuleViolation
from playeval.core.events import ActionApplied, ReplyRejected, SeatAssignment
from playeval.core.game import replay
from playeval.core.inputs import check_options
from playeval.core.match import Action, MatchSpec
from playeval.engine import MemoryRecorder, play_match
from playeval.games.taboo import (
    CATEGORIES,
    CLUE_GIVER,
    GUESSER,
    LIMIT,
    Taboo,
    TabooState,
    guess_only,
    load_words,
    mechanical_clues,
    same_word,
    says_word,
    scoring_of,
)
from playeval.games.taboo import prompts as taboo_prompts
from playeval.games.taboo.baselines import FALLBACK_CLUE
from playeval.models.providers.mock_player import CLUES as MOCK_CLUES

game = Taboo()
EVERY_WORD = tuple(word for category in CATEGORIES for word in load_words(category))


def spec(secret: str = "cat", scoring: str | None = "guess", variant: int = 0) -> MatchSpec:
    params = {"secret_set": "animals", **({"scoring": scoring} if scoring else {})}
    return MatchSpec(game="taboo", level=1, seed=1, setup={"secret": secret},
                     variants={GUESSER: variant, CLUE_GIVER: 0}, params=params)


def clue(text: str) -> Action:
    return Action(seat=CLUE_GIVER, kind="clue", text=text)


def answer(text: str) -> Action:
    return Action(seat=GUESSER, kind="answer", text=text)


def guess(text: str) -> Action:
    return Action(seat=GUESSER, kind="guess", text=text)


def play(actions: list[Action], scoring: str | None = "guess") -> TabooState:
    return replay(game, spec(scoring=scoring), actions)


# -- the option --------------------------------------------------------------------------


def test_the_option_defaults_to_the_papers_rule_and_is_recorded_only_when_it_is_guess() -> None:
    [option] = game.options
    assert option.name == "scoring" and option.default == "paper" and option.choices == ("paper", "guess")
    assert "only with a right guess" in option.description and "does nothing wins" in option.description
    assert check_options(game.id, game.options, {}) == {"scoring": "paper"}
    assert check_options(game.id, game.options, {"scoring": "guess"}) == {"scoring": "guess"}
    with pytest.raises(ConfigError):
        check_options(game.id, game.options, {"scoring": "say"})
    plain = game.new_spec(1, 9, random.Random(9))
    assert game.new_spec(1, 9, random.Random(9), options={"scoring": "paper"}) == plain
    assert plain.params == {"secret_set": "animals"} and scoring_of(plain) == "paper" and not guess_only(plain)
    guessing = game.new_spec(1, 9, random.Random(9), options={"scoring": "guess"})
    assert guessing.params == {"secret_set": "animals", "scoring": "guess"} and guess_only(guessing)
    assert guessing.model_copy(update={"params": plain.params}) == plain  # the same word, variants and seed
    with pytest.raises(ConfigError, match="one of"):
        game.new_spec(1, 9, random.Random(9), options={"scoring": "never"})
    with pytest.raises(ConfigError, match="only option"):
        game.new_spec(1, 9, random.Random(9), options={"scoring": "guess", "rounds": 3})


def test_a_right_guess_wins_and_a_wrong_one_loses() -> None:
    right = play([clue("It purrs"), answer("A pet?"), clue("It meows"), guess("My guess of the word is: cats")])
    outcome = game.outcome(right)
    assert outcome is not None and outcome.winner == GUESSER and outcome.rounds == 2
    wrong = play([clue("It purrs"), guess("My guess of the word is: dog")])
    outcome = game.outcome(wrong)
    assert outcome is not None and outcome.winner == CLUE_GIVER


def test_five_clean_rounds_without_a_guess_lose() -> None:
    actions: list[Action] = []
    for n in range(1, LIMIT + 1):
        actions += [clue(f"Hint number {n}"), answer("A category of pets, maybe.")]
    for scoring, winner in (("guess", CLUE_GIVER), (None, GUESSER)):
        outcome = game.outcome(play(actions, scoring))
        assert outcome is not None and outcome.winner == winner and outcome.rounds == LIMIT
    outcome = game.outcome(play(actions))
    assert outcome is not None and "did not guess the word" in outcome.reason


def test_saying_the_word_loses_at_once_with_no_last_guess() -> None:
    state = play([clue("It purrs"), answer("That sounds like a cat to me.")])
    outcome = game.outcome(state)
    assert outcome is not None and outcome.winner == CLUE_GIVER and outcome.rounds == 1
    assert "said the word in round 1" in outcome.reason and "scoring=guess" in outcome.reason
    assert not state.awaiting_final_guess
    with pytest.raises(Exception, match="over"):
        game.next_ask(state)
    with pytest.raises(Exception, match="over"):
        game.apply(state, guess("My guess of the word is: cat"))
    paper = play([clue("It purrs"), answer("That sounds like a cat to me.")], None)
    assert game.outcome(paper) is None and game.next_ask(paper).kind == "final_guess"


def test_a_reply_that_guesses_is_decided_by_its_guess_under_both_rules() -> None:
    for scoring in ("guess", None):
        outcome = game.outcome(play([clue("It purrs"), guess("A cat, surely.\nMy guess of the word is: cat")],
                                    scoring))
        assert outcome is not None and outcome.winner == GUESSER


def test_the_guesser_is_told_the_rule_in_force() -> None:
    assert len(taboo_prompts.GUESS_SCORING_VARIANTS) == len(taboo_prompts.GUESSER_VARIANTS)
    for variant in range(len(taboo_prompts.GUESSER_VARIANTS)):
        state = game.apply(game.initial_state(spec(variant=variant)), clue("It purrs"))
        ask = game.next_ask(state)
        system = ask.messages[0].content
        assert system == taboo_prompts.guesser_system(variant, LIMIT, 140, guess_only=True)
        assert system != taboo_prompts.guesser_system(variant, LIMIT, 140)
        assert str(LIMIT) in system and "140" in system and taboo_prompts.GUESS_PREFIX.strip() in system
        assert re.search(r"\blos(e|es|t)\b", system)
        assert ask.instructions == taboo_prompts.GUESS_SCORING_INSTRUCTIONS
    paper = game.next_ask(game.apply(game.initial_state(spec(scoring=None)), clue("It purrs")))
    assert paper.instructions == taboo_prompts.GUESSER_INSTRUCTIONS
    for text in (*taboo_prompts.GUESS_SCORING_VARIANTS, taboo_prompts.GUESS_SCORING_INSTRUCTIONS):
        assert not [word for word in EVERY_WORD if says_word(text, word)]


# -- instruction text is no clue -----------------------------------------------------------


def _clue_ask(state: TabooState) -> Ask:
    ask = game.next_ask(state)
    assert ask.seat == CLUE_GIVER
    return ask


def _template_sentences() -> list[str]:
    """Every sentence of every template the clue-giver is shown, filled in as the game fills it."""
    filled = [text.format(word="walrus", limit=LIMIT, chars=140, number=2, reply="A seal?")
              for text in taboo_prompts.clue_giver_texts()]
    sentences = [part.strip() for text in filled for part in re.split(r"(?<=[.!?])\s+|\n", text)]
    return [sentence for sentence in sentences
            if len(sentence.split()) >= 3 and not says_word(sentence, "walrus") and "A seal?" not in sentence]


def test_a_clue_copied_from_the_instructions_is_refused_with_the_reason() -> None:
    state = game.initial_state(spec("walrus", scoring=None))
    ask = _clue_ask(state)
    opening = taboo_prompts.CLUE_OPENING.format(limit=LIMIT)
    for copied in (opening, "The game starts now. Send your first message", "the game starts now!",
                   '"Send your first message."', "The game starts now, here is my clue"):
        with pytest.raises(RuleViolation, match="repeats the game's instructions") as err:
            game.parse(state, ask, copied)
        assert "write your own clue" in err.value.reason
    sentences = _template_sentences()
    assert len(sentences) >= 12
    for sentence in sentences:  # ("Round 2 of 5." is a label and nothing else: an empty clue)
        with pytest.raises(MoveError, match=r"instructions|empty"):
            game.parse(state, ask, sentence)


def test_real_clues_are_not_taken_for_instructions() -> None:
    state = game.initial_state(spec("walrus", scoring=None))
    ask = _clue_ask(state)
    for text in ("It purrs.", "What animal says meow?", "You know the word for a baby cat?",
                 "Name the big animal with tusks that lives on the ice.", "It is found in many places",
                 "Which game starts with a kick-off?", FALLBACK_CLUE, *MOCK_CLUES):
        assert game.parse(state, ask, text).kind == "clue", text
    for category in CATEGORIES:
        for word in load_words(category):
            word_state = game.initial_state(spec(word, scoring=None))
            for text in mechanical_clues(word, category):
                assert game.parse(word_state, _clue_ask(word_state), text).text == text


def test_a_round_label_is_stripped_from_a_clue() -> None:
    state = game.initial_state(spec("walrus", scoring=None))
    assert game.parse(state, _clue_ask(state), "Round 1 of 5: It has tusks.").text == "It has tusks."
    assert _clue_ask(state).display == "Your word: walrus. Round 1 of 5."


class _Copier:
    """A clue-giver that first sends back the game's opening, as a small local model did, then a real clue."""

    kind = "scripted"
    model = None
    max_retries = 2

    async def act(self, ask: Ask) -> Reply:
        if ask.attempt == 0 and len(ask.messages) == 2:
            return Reply(text=ask.messages[1].content)
        return Reply(text="It has whiskers and purrs.")


async def test_a_copied_clue_is_re_asked_through_the_engine() -> None:
    match_spec = game.new_spec(1, 5, random.Random(5)).model_copy(update={"setup": {"secret": "cat"}})
    recorder = MemoryRecorder()
    match_id = recorder.create_match(spec=match_spec, seats=[SeatAssignment(seat=seat, player_kind="scripted")
                                                             for seat in (GUESSER, CLUE_GIVER)])
    players = {GUESSER: game.scripted_player(GUESSER, match_spec), CLUE_GIVER: _Copier()}
    outcome = await play_match(game, match_spec, players, recorder, match_id)
    assert outcome.status == "finished"
    events = recorder.events[match_id]
    rejected = [event for event in events if isinstance(event, ReplyRejected)]
    assert len(rejected) == 1 and rejected[0].error == "rule" and "instructions" in rejected[0].reason
    assert rejected[0].text.startswith("The game starts now.")
    clues = [event.action.text for event in events if isinstance(event, ActionApplied)
             and event.action.kind == "clue"]
    assert clues and not [text for text in clues if "game starts" in text]


# -- instruction text is no guess ---------------------------------------------------------


def test_a_guess_of_instruction_text_is_refused_and_every_word_of_the_lists_is_a_guess() -> None:
    for scoring in ("guess", None):
        state = game.apply(game.initial_state(spec(scoring=scoring)), clue("It purrs"))
        ask = game.next_ask(state)
        for text in ("My guess of the word is: The game starts now", "Okay.\nMy guess of the word is: game starts",
                     "My guess of the word is: Send your first message", "My guess of the word is: a word game"):
            with pytest.raises(FormatError, match="not a guess"):
                game.parse(state, ask, text)
        for word in EVERY_WORD:
            action = game.parse(state, ask, taboo_prompts.guess_line(word))
            assert action.kind == "guess" and same_word(action.text.split(": ", 1)[1], word), word
    said = play([clue("It purrs"), answer("Sounds like a cat.")], None)
    with pytest.raises(FormatError, match="not a guess"):
        game.parse(said, game.next_ask(said), "My guess of the word is: The game starts now")


def test_a_stored_match_with_such_a_guess_still_replays() -> None:
    """The refusal is the parser's: a move recorded before it existed is applied as it was played."""
    state = play([clue("It purrs"), guess("My guess of the word is: The game starts now")], None)
    outcome = game.outcome(state)
    assert outcome is not None and outcome.winner == CLUE_GIVER
    assert outcome.reason == "guessed 'The game starts now' in round 1, but the word was 'cat'"
