"""Taboo's rules, one at a time, on the pure state machine."""

from __future__ import annotations

import random

import pytest

from playeval.core.ask import Ask, Reply
from playeval.core.errors import ConfigError, FormatError, RuleViolation
from playeval.core.events import ActionApplied, MatchEnded, ReplyRejected, SeatAssignment
from playeval.core.game import disclosed_to, evaluated_seats, replay
from playeval.core.match import Action, MatchSpec
from playeval.core.normalize import normalize_name
from playeval.engine import MemoryRecorder, play_match
from playeval.games.taboo import (
    CATEGORIES,
    CLUE_GIVER,
    GUESSER,
    LIMIT,
    ScriptedGuesser,
    Taboo,
    TabooState,
    load_words,
    mechanical_clues,
    same_word,
    says_word,
    word_forms,
)
from playeval.games.taboo import prompts as taboo_prompts
from playeval.games.taboo.baselines import NEUTRAL_ANSWERS

game = Taboo()


def spec(secret: str = "cat", level: int = 1, guesser_variant: int = 0) -> MatchSpec:
    return MatchSpec(game="taboo", level=level, seed=1, secret=secret,
                     variants={GUESSER: guesser_variant, CLUE_GIVER: 0}, params={"secret_set": "animals"})


def clue(text: str) -> Action:
    return Action(seat=CLUE_GIVER, kind="clue", text=text)


def answer(text: str) -> Action:
    return Action(seat=GUESSER, kind="answer", text=text)


def guess(text: str) -> Action:
    return Action(seat=GUESSER, kind="guess", text=text)


def play(actions: list[Action], secret: str = "cat") -> TabooState:
    return replay(game, spec(secret), actions)


def parse_next(state: TabooState, text: str) -> Action:
    return game.parse(state, game.next_ask(state), text)


# -- saying the word ------------------------------------------------------------


def test_a_substring_never_says_the_word() -> None:
    for text in ("What a category!", "scatter the seeds", "concatenate", "Catherine", "vacation"):
        assert not says_word(text, "cat"), text


def test_whole_words_and_forms_say_the_word() -> None:
    for text in ("cats", "Cat.", "the cat's toy", "cat-like eyes", "CATS!", "a (cat)", "\u201ccat\u201d"):
        assert says_word(text, "cat"), text
    assert says_word("I was stopping by", "stop") and says_word("it stopped", "stop")
    assert says_word("two puppies", "puppy") and says_word("he hurried", "hurry")
    assert says_word("we went baking", "bake") and says_word("baked bread", "bake")
    assert says_word("three foxes", "fox") and says_word("potatoes", "potato")
    assert says_word("some mice", "mouse") and says_word("a pack of wolves", "wolf")
    assert says_word("un caf\u00e9 noir", "cafe") and says_word("Cafe", "caf\u00e9")
    assert not says_word("being", "bee") and not says_word("hoped", "hop")


def test_word_forms() -> None:
    assert word_forms("stop") == {"stop", "stops", "stopped", "stopping"}
    assert word_forms("puppy") == {"puppy", "puppies", "puppied", "puppying"}
    assert {"bake", "bakes", "baked", "baking"} <= word_forms("Bake")
    assert {"box", "boxes"} <= word_forms("box")
    assert {"ice cream", "ice creams"} <= word_forms("Ice Cream")


def test_multi_word_secrets_match_as_phrases() -> None:
    for text in ("I love ice cream", "ice-cream cones", "two ICE  CREAMS", "icecream"):
        assert says_word(text, "ice cream"), text
    assert says_word("I flew to New-York", "new york")
    assert not says_word("nice cream", "ice cream") and not says_word("cream and ice", "ice cream")
    assert not says_word("a new yorker", "new york")


def test_guesses_compare_by_normalised_name_and_forms() -> None:
    assert same_word("Cats", "cat") and same_word("the cat", "cat") and same_word("Ice-cream", "ice cream")
    assert same_word("icecream", "ice cream") and same_word("Mice", "mouse")
    assert not same_word("category", "cat") and not same_word("dog", "cat")


# -- clues ------------------------------------------------------------------------


def test_clue_of_140_characters_is_accepted_and_141_rejected() -> None:
    state = game.initial_state(spec())
    ok = "x" * 139 + "?"
    assert len(ok) == 140
    assert parse_next(state, ok).text == ok
    with pytest.raises(RuleViolation, match="141 characters"):
        parse_next(state, "y" * 141)
    with pytest.raises(RuleViolation):
        game.apply(state, clue("y" * 141))


def test_clue_with_the_word_is_rejected_and_does_not_count() -> None:
    state = game.initial_state(spec())
    for bad in ("Cats chase mice", "It is a cat-like animal", "Think of the CAT's whiskers", "kitty-cat"):
        with pytest.raises(RuleViolation, match="secret word"):
            parse_next(state, bad)
        with pytest.raises(RuleViolation):
            game.apply(state, clue(bad))
    assert parse_next(state, "This category of pet purrs").kind == "clue"
    assert game.next_ask(state).seat == CLUE_GIVER and game.rounds(state) == 0


def test_empty_clue_is_a_format_error() -> None:
    state = game.initial_state(spec())
    for empty in ("", "   ", "\n\n", '""', "Clue:"):
        with pytest.raises(FormatError):
            parse_next(state, empty)


def test_clue_decoration_is_stripped() -> None:
    state = game.initial_state(spec())
    assert parse_next(state, '"It purrs."').text == "It purrs."
    assert parse_next(state, "**Clue:** It purrs.").text == "It purrs."
    assert parse_next(state, "Clue 2: It purrs.").text == "It purrs."
    assert parse_next(state, "  Hint - \u201cIt purrs.\u201d ").text == "It purrs."
    with pytest.raises(FormatError):
        parse_next(state, "It purrs.\nNote: I avoided the word.")


# -- answers, guesses and outcomes -------------------------------------------------


def test_wrong_guess_loses_at_once() -> None:
    state = play([clue("It purrs"), guess("A small pet.\nMy guess of the word is: dog")])
    outcome = game.outcome(state)
    assert outcome is not None and outcome.winner == CLUE_GIVER and outcome.rounds == 1
    assert "'dog'" in outcome.reason
    with pytest.raises(RuleViolation):
        game.apply(state, clue("It meows"))


def test_right_guess_wins_at_once() -> None:
    state = play([clue("It purrs"), answer("Something soft."), clue("It meows"),
                  guess("My guess of the word is: Cats!")])
    outcome = game.outcome(state)
    assert outcome is not None and outcome.winner == GUESSER and outcome.rounds == 2


def test_saying_the_word_asks_for_one_final_guess() -> None:
    state = play([clue("It purrs"), answer("That sounds like a cat to me.")])
    assert state.turns[-1].said
    assert game.outcome(state) is None
    ask = game.next_ask(state)
    assert ask.seat == GUESSER and ask.kind == "final_guess"
    assert ask.messages[-1].content == taboo_prompts.FINAL_NOTICE
    assert ask.messages[-2].content == "That sounds like a cat to me."
    with pytest.raises(FormatError):
        game.parse(state, ask, "Oh no, I said it.")
    with pytest.raises(RuleViolation):
        game.apply(state, answer("Oh no."))
    with pytest.raises(RuleViolation):
        game.apply(state, clue("It meows"))


def test_said_then_right_guess_wins() -> None:
    state = play([clue("It purrs"), answer("Sounds like cats."), guess("My guess of the word is: cat")])
    outcome = game.outcome(state)
    assert outcome is not None and outcome.winner == GUESSER and outcome.rounds == 1
    assert "said the word in round 1" in outcome.reason


def test_said_then_wrong_guess_loses() -> None:
    state = play([clue("It purrs"), answer("Sounds like cats."), guess("My guess of the word is: lion")])
    outcome = game.outcome(state)
    assert outcome is not None and outcome.winner == CLUE_GIVER and outcome.rounds == 1
    with pytest.raises(RuleViolation):
        game.apply(state, guess("My guess of the word is: cat"))


def test_five_clean_rounds_win() -> None:
    actions: list[Action] = []
    for n in range(1, LIMIT + 1):
        actions += [clue(f"Hint number {n}"), answer("A category of pets, maybe.")]
    state = play(actions)
    outcome = game.outcome(state)
    assert outcome is not None and outcome.winner == GUESSER and outcome.rounds == LIMIT
    with pytest.raises(RuleViolation):
        game.apply(state, clue("One more"))


def test_saying_the_word_in_the_last_round_still_gets_a_guess() -> None:
    actions: list[Action] = []
    for n in range(1, LIMIT):
        actions += [clue(f"Hint number {n}"), answer("No idea yet.")]
    state = play([*actions, clue("Last hint"), answer("A cat!")])
    assert game.outcome(state) is None and game.next_ask(state).kind == "final_guess"
    state = game.apply(state, guess("My guess of the word is: dog"))
    outcome = game.outcome(state)
    assert outcome is not None and outcome.winner == CLUE_GIVER and outcome.rounds == LIMIT


def test_a_guess_decides_when_the_reply_also_says_the_word() -> None:
    right = play([clue("It purrs"), guess("A cat, surely.\nMy guess of the word is: cat")])
    outcome = game.outcome(right)
    assert outcome is not None and outcome.winner == GUESSER
    wrong = play([clue("It purrs"), guess("A cat, surely.\nMy guess of the word is: kitten")])
    outcome = game.outcome(wrong)
    assert outcome is not None and outcome.winner == CLUE_GIVER


def test_answer_parsing() -> None:
    state = game.apply(game.initial_state(spec()), clue("It purrs"))
    ask = game.next_ask(state)
    assert ask.seat == GUESSER and ask.kind == "answer"
    plain = game.parse(state, ask, "  A soft animal, I think.  ")
    assert plain == answer("A soft animal, I think.")
    both = game.parse(state, ask, "A pet.\n**My guess of the word is: \"Lion\".**")
    assert both.kind == "guess" and both.text == "A pet.\n**My guess of the word is: \"Lion\".**"
    after = game.apply(state, both)
    assert after.turns[-1].guess == "Lion"
    inline = game.parse(state, ask, "my GUESS of the word is: Tiger. Post-game analysis: stripes.")
    assert game.apply(state, inline).turns[-1].guess == "Tiger"
    for bad in ("", "   ", "My guess of the word is: ...", "My guess of the word is: x", "My guess of the word is:",
                "Hmm.\nMy guess of the word is: the word", "My guess of the word is: unknown",
                "My guess of the word is: <word>", "My guess of the word is: cat\nMy guess of the word is: dog"):
        with pytest.raises(FormatError):
            game.parse(state, ask, bad)


def test_turn_order_is_enforced() -> None:
    state = game.initial_state(spec())
    with pytest.raises(RuleViolation):
        game.apply(state, answer("Hello"))
    state = game.apply(state, clue("It purrs"))
    with pytest.raises(RuleViolation):
        game.apply(state, clue("It meows"))
    with pytest.raises(RuleViolation):
        game.apply(state, Action(seat="referee", kind="clue", text="hi"))
    with pytest.raises(RuleViolation):
        game.apply(state, answer("My guess of the word is: cat"))  # a guess filed as an answer
    with pytest.raises(RuleViolation):
        game.apply(state, guess("No guess here"))
    with pytest.raises(RuleViolation):
        game.apply(state, Action(seat=GUESSER, kind="clue", text="hi"))


def test_state_is_a_fold_of_the_actions() -> None:
    actions = [clue("It purrs"), answer("Maybe a pet."), clue("It chases mice"), answer("Cats do that!"),
               guess("Oops.\nMy guess of the word is: cat")]
    first = play(actions)
    second = play(list(actions))
    assert first == second
    assert [turn.said for turn in first.turns] == [False, True]
    assert first.final_guess == "cat"
    outcome = game.outcome(first)
    assert outcome is not None and outcome.winner == GUESSER and outcome.rounds == 2
    assert game.transcript(first) == [(CLUE_GIVER, "It purrs"), (GUESSER, "Maybe a pet."),
                                      (CLUE_GIVER, "It chases mice"), (GUESSER, "Cats do that!"),
                                      (GUESSER, "Oops.\nMy guess of the word is: cat")]


# -- asks ---------------------------------------------------------------------------


def _guesser_sees_no_secret(ask: Ask, secret: str) -> None:
    seen = [m.content for m in ask.messages if m.role != "assistant"] + [ask.display, ask.instructions]
    for text in seen:
        assert not says_word(text, secret), text


def test_guesser_never_sees_the_secret_in_a_whole_game() -> None:
    for variant in range(len(taboo_prompts.GUESSER_VARIANTS)):
        state = game.initial_state(spec("penguin", guesser_variant=variant))
        replies = ["It may be a seal.", "Something that swims.", "Penguins, of course!"]
        for number, reply in enumerate(replies, start=1):
            clue_ask = game.next_ask(state)
            assert clue_ask.seat == CLUE_GIVER
            assert "penguin" in clue_ask.messages[0].content and "penguin" in clue_ask.display
            state = game.apply(state, game.parse(state, clue_ask, f"Clue {number}: a bird in a tuxedo"))
            ask = game.next_ask(state)
            _guesser_sees_no_secret(ask, "penguin")
            _guesser_sees_no_secret(ask.retry("???", "the reply was empty."), "penguin")
            state = game.apply(state, game.parse(state, ask, reply))
        final = game.next_ask(state)
        assert final.kind == "final_guess"
        _guesser_sees_no_secret(final, "penguin")
        for m in final.messages:
            if m.role == "assistant":
                assert m.content in replies  # its own words, as said
        with pytest.raises(FormatError) as err:
            game.parse(state, final, "no idea")
        assert "penguin" not in err.value.reason
        state = game.apply(state, game.parse(state, final, "My guess of the word is: penguin"))
        outcome = game.outcome(state)
        assert outcome is not None and outcome.winner == GUESSER and outcome.rounds == 3


def test_guesser_conversation_and_clue_giver_conversation() -> None:
    state = play([clue("It purrs"), answer("A pet?"), clue("It meows")])
    ask = game.next_ask(state)
    roles = [m.role for m in ask.messages]
    assert roles == ["system", "user", "assistant", "user"]
    assert ask.messages[1].content == "Round 1 of 5: It purrs" and ask.messages[3].content == "Round 2 of 5: It meows"
    assert ask.constraint is not None and ask.constraint.grammar is not None and ask.max_tokens <= 96
    state = game.apply(state, answer("A small pet."))
    clue_ask = game.next_ask(state)
    assert [m.role for m in clue_ask.messages] == ["system", "user", "assistant", "user", "assistant", "user"]
    assert "cat" in clue_ask.messages[0].content and "140" in clue_ask.messages[0].content
    assert clue_ask.messages[2].content == "It purrs" and "A small pet." in clue_ask.messages[5].content
    assert clue_ask.constraint is not None and clue_ask.constraint.grammar is not None
    assert "{0,139}" in clue_ask.constraint.grammar and clue_ask.max_tokens <= 60


def test_retro_points_stop_before_each_answer() -> None:
    state = play([clue("It purrs"), answer("A pet?"), clue("It meows"), answer("A small animal."),
                  clue("Mice fear it"), answer("Owls, probably.")])
    points = game.retro_points(state)
    assert [p.round for p in points] == [1, 2, 3]
    assert all(p.kind == "candidates" and p.request == taboo_prompts.RETRO_REQUEST for p in points)
    for point in points:
        assert len(point.messages) == 2 * point.round
        assert point.messages[0].role == "system" and point.messages[-1].role == "user"
        assert point.messages[-1].content.endswith(state.turns[point.round - 1].clue)
    assert [m.content for m in points[2].messages[1:]] == ["Round 1 of 5: It purrs", "A pet?",
                                                           "Round 2 of 5: It meows", "A small animal.",
                                                           "Round 3 of 5: Mice fear it"]
    pending = game.apply(state, clue("It has whiskers"))
    assert len(game.retro_points(pending)) == 3  # the unanswered clue is no point


# -- specs and data ---------------------------------------------------------------------


def test_new_spec_is_seeded_and_draws_by_level() -> None:
    first = game.new_spec(1, 7, random.Random(7))
    assert first == game.new_spec(1, 7, random.Random(7))
    assert first.game == "taboo" and first.params == {"secret_set": "animals"}
    for level, category in ((1, "animals"), (2, "places"), (3, "food")):
        for seed in range(10):
            drawn = game.new_spec(level, seed, random.Random(seed))
            assert drawn.hidden("secret") in load_words(category) and drawn.params["secret_set"] == category
    guessers = {game.new_spec(1, s, random.Random(s)).variants[GUESSER] for s in range(80)}
    clue_givers = {game.new_spec(1, s, random.Random(s)).variants[CLUE_GIVER] for s in range(80)}
    assert guessers == set(range(len(taboo_prompts.GUESSER_VARIANTS))) == set(range(5))
    assert clue_givers == set(range(len(taboo_prompts.CLUE_GIVER_VARIANTS))) and len(clue_givers) >= 3


def test_new_spec_secret_set_secret_and_options() -> None:
    food = game.new_spec(1, 3, random.Random(3), secret_set="food")
    assert food.hidden("secret") in load_words("food") and food.params["secret_set"] == "food"
    with pytest.raises(ConfigError, match="no inputs"):
        game.new_spec(2, 3, random.Random(3), inputs={"secret": "Walrus"})
    with pytest.raises(ConfigError):
        game.new_spec(1, 3, random.Random(3), secret_set="vehicles")
    with pytest.raises(ConfigError):
        game.new_spec(1, 3, random.Random(3), options={"hard": True})
    with pytest.raises(ConfigError):
        game.new_spec(4, 3, random.Random(3))
    with pytest.raises(ConfigError):
        game.initial_state(spec(secret=""))


def test_game_description() -> None:
    assert game.id == "taboo" and evaluated_seats(game, spec()) == (GUESSER,)
    assert [s.name for s in game.seats] == [GUESSER, CLUE_GIVER]
    assert [lv.level for lv in game.levels] == [1, 2, 3]
    assert game.person_inputs == () and game.presentation.person_seat == CLUE_GIVER
    # the word is drawn and shown only to the clue-giver, until the end
    assert [item.label for item in disclosed_to(game, spec(), (CLUE_GIVER,), over=False)] == ["Your word"]
    assert disclosed_to(game, spec(), (GUESSER,), over=False) == []
    assert [item.value for item in disclosed_to(game, spec(), (), over=True)] == [spec().hidden("secret")]


def test_word_lists_shipped() -> None:
    lists = {category: load_words(category) for category in CATEGORIES}
    assert len(lists["animals"]) >= 110 and len(lists["places"]) >= 95 and len(lists["food"]) >= 100
    everything = [word for words in lists.values() for word in words]
    assert len(everything) >= 300 and len(set(everything)) == len(everything)
    assert all(word == word.lower().strip() and word for word in everything)
    assert {"library", "beach", "airport"} <= set(lists["places"])
    names = {normalize_name(word) for word in everything}
    assert len(names) == len(everything)
    for word in everything:  # no entry says another (a form of it, or it within a phrase)
        clashes = [other for other in everything if other != word and says_word(other, word)]
        assert not clashes, (word, clashes)
    with pytest.raises(ConfigError):
        load_words("vehicles")


def test_prompts_give_no_word_away() -> None:
    guesser_texts = [*(taboo_prompts.guesser_system(v, LIMIT, 140) for v in range(len(taboo_prompts.GUESSER_VARIANTS))),
                     taboo_prompts.FINAL_NOTICE, taboo_prompts.RETRO_REQUEST, taboo_prompts.GUESSER_INSTRUCTIONS,
                     taboo_prompts.FINAL_INSTRUCTIONS, *NEUTRAL_ANSWERS]
    for category in CATEGORIES:
        for word in load_words(category):
            assert not [text for text in guesser_texts if says_word(text, word)], word
            for clue_text in mechanical_clues(word, category):
                assert len(clue_text) <= 140 and not says_word(clue_text, word)
    for variant in range(len(taboo_prompts.CLUE_GIVER_VARIANTS)):
        text = taboo_prompts.clue_giver_system(variant, "walrus", LIMIT, 140)
        assert "walrus" in text and "140" in text and str(LIMIT) in text


# -- whole games through the engine ------------------------------------------------------


def seats() -> list[SeatAssignment]:
    return [SeatAssignment(seat=seat, player_kind="scripted") for seat in (GUESSER, CLUE_GIVER)]


async def test_scripted_players_play_whole_games() -> None:
    for level in (1, 2, 3):
        for seed in range(3):
            match_spec = game.new_spec(level, seed, random.Random(seed))
            recorder = MemoryRecorder()
            match_id = recorder.create_match(spec=match_spec, seats=seats())
            players = {seat: game.scripted_player(seat, match_spec) for seat in (GUESSER, CLUE_GIVER)}
            outcome = await play_match(game, match_spec, players, recorder, match_id)
            assert outcome.status == "finished" and outcome.winner == GUESSER and outcome.rounds == LIMIT
            events = recorder.events[match_id]
            assert isinstance(events[-1], MatchEnded)
            assert not [e for e in events if isinstance(e, ReplyRejected)]
            actions = [e.action for e in events if isinstance(e, ActionApplied)]
            assert [a.kind for a in actions] == ["clue", "answer"] * LIMIT


def test_scripted_guesser_draws_its_guess_apart_from_the_secret() -> None:
    match_spec = game.new_spec(3, 11, random.Random(11))
    player = game.scripted_player(GUESSER, match_spec)
    assert isinstance(player, ScriptedGuesser)
    assert player.final_guess in load_words("food")
    again = game.scripted_player(GUESSER, match_spec)
    assert isinstance(again, ScriptedGuesser) and again.final_guess == player.final_guess
    with pytest.raises(ConfigError):
        game.scripted_player("referee", match_spec)


class _Blurter:
    """Says the word in its first answer, then guesses it (or not) when asked."""

    kind = "scripted"
    model = None
    max_retries = 1

    def __init__(self, final: str) -> None:
        self._final = final

    async def act(self, ask: Ask) -> Reply:
        if ask.kind == "final_guess":
            return Reply(text="hmm" if ask.attempt == 0 else taboo_prompts.guess_line(self._final))
        return Reply(text="Is it a walrus?")


@pytest.mark.parametrize(("final", "winner"), [("Walruses", GUESSER), ("seal", CLUE_GIVER)])
async def test_said_word_and_final_guess_through_the_engine(final: str, winner: str) -> None:
    match_spec = game.new_spec(1, 5, random.Random(5)).model_copy(update={"setup": {"secret": "walrus"}})
    recorder = MemoryRecorder()
    match_id = recorder.create_match(spec=match_spec, seats=seats())
    players = {GUESSER: _Blurter(final), CLUE_GIVER: game.scripted_player(CLUE_GIVER, match_spec)}
    outcome = await play_match(game, match_spec, players, recorder, match_id)
    assert outcome.status == "finished" and outcome.winner == winner and outcome.rounds == 1
    events = recorder.events[match_id]
    rejected = [e for e in events if isinstance(e, ReplyRejected)]
    assert len(rejected) == 1 and rejected[0].error == "format"  # "hmm" was re-asked
    actions = [e.action for e in events if isinstance(e, ActionApplied)]
    assert [a.kind for a in actions] == ["clue", "answer", "guess"]


def test_a_reply_with_two_answers_is_a_format_error() -> None:
    state = game.apply(game.initial_state(spec()), clue("It purrs"))
    ask = game.next_ask(state)
    for two in ("My guess of the word is: cat\nMy guess of the word is: dog", "My guess of the word is: cat or dog",
                "My guess of the word is: cat/dog", "My guess of the word is: cat,dog"):
        with pytest.raises(FormatError, match="one"):
            game.parse(state, ask, two)
    assert game.parse(state, ask, "My guess of the word is: cat\n").kind == "guess"
    assert game.parse(state, ask, "My guess of the word is: cat\nMy guess of the word is: Cat").kind == "guess"
    with pytest.raises(FormatError, match="single line"):
        game.parse(game.initial_state(spec()), game.next_ask(game.initial_state(spec())), "It purrs\nIt meows")
    said = play([clue("It purrs"), answer("That sounds like a cat to me.")])
    final = game.next_ask(said)
    with pytest.raises(FormatError, match="one answer, not two"):
        game.parse(said, final, "My guess of the word is: cat or kitten")
    assert game.apply(said, game.parse(said, final, "My guess of the word is: cat\n")).final_guess == "cat"
