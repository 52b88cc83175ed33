"""Bluffing's rules, one at a time, on the pure state machine."""

from __future__ import annotations

import random

import pytest

from playeval.core.ask import Ask
from playeval.core.errors import ConfigError, FormatError, RuleViolation
from playeval.core.events import ActionApplied, MatchEnded, ReplyRejected, SeatAssignment
from playeval.core.game import RetroGame, disclosed_to, evaluated_seats, replay
from playeval.core.inputs import check_inputs
from playeval.core.match import Action, MatchSpec
from playeval.engine import MemoryRecorder, play_match, state_from_events
from playeval.games.bluffing import (
    BLUFFER,
    QUESTIONER,
    Bluffing,
    BluffingState,
    ScriptedBluffer,
    ScriptedQuestioner,
    load_personas,
    load_statements,
    prompts,
)
from playeval.games.bluffing.baselines import CANNED_ANSWERS

game = Bluffing()
STATEMENT = "I worked as a lifeguard at a public swimming pool for two summers."
PERSONA = "Maya Okafor, 34, who lives in Leeds, England, is a dental hygienist, bakes sourdough every weekend."


def spec(truth: str = "true", questioner: int = 0, bluffer: int = 0, seed: int = 1) -> MatchSpec:
    return MatchSpec(game="bluffing", level=1, seed=seed, secret=truth,
                     variants={QUESTIONER: questioner, BLUFFER: bluffer},
                     params={"statement": STATEMENT, "persona": PERSONA, "secret_set": "ours"})


def q(n: int, text: str = "Which pool was it?") -> Action:
    return Action(seat=QUESTIONER, kind="question", text=f"Question {n}: {text}")


def a(text: str = "The outdoor pool by the park.") -> Action:
    return Action(seat=BLUFFER, kind="answer", text=text)


def verdict(value: str) -> Action:
    return Action(seat=QUESTIONER, kind="verdict", text=value)


def asked(truth: str = "true", n: int = 5) -> BluffingState:
    """A state after ``n`` questions, each answered."""
    return replay(game, spec(truth), [x for i in range(1, n + 1) for x in (q(i), a())])


# -- the seats and the game's shape ---------------------------------------------------------------


def test_seats_and_levels() -> None:
    assert game.id == "bluffing" and evaluated_seats(game, spec()) == (QUESTIONER,)
    assert [s.name for s in game.seats] == [QUESTIONER, BLUFFER] and all(s.role for s in game.seats)
    assert [item.seats for item in game.disclosures(spec("false"))] == [(BLUFFER,)]  # only the bluffer sees the truth
    assert disclosed_to(game, spec("false"), (QUESTIONER,), over=False) == []
    assert game.presentation.person_seat == BLUFFER and game.roles == ()
    assert [level.level for level in game.levels] == [1]
    assert len(prompts.QUESTIONER_VARIANTS) == 5
    assert len(prompts.BLUFFER_VARIANTS) >= 3
    assert isinstance(game, RetroGame)


# -- verdicts ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("truth", "said", "winner"), [("true", "True", QUESTIONER), ("false", "False", QUESTIONER),
                                                        ("true", "False", BLUFFER), ("false", "True", BLUFFER)])
def test_verdict_decides_the_winner(truth: str, said: str, winner: str) -> None:
    state = game.apply(asked(truth, 2), verdict(said))
    outcome = game.outcome(state)
    assert outcome is not None and outcome.status == "finished" and outcome.winner == winner
    assert outcome.rounds == 3 and truth in outcome.reason


def test_verdict_before_any_question_ends_the_game_in_one_round() -> None:
    state = game.initial_state(spec("false"))
    parsed = game.parse(state, game.next_ask(state), "I believe your statement is: False")
    assert parsed == verdict("False")
    state = game.apply(state, parsed)
    outcome = game.outcome(state)
    assert outcome is not None and outcome.winner == QUESTIONER and outcome.rounds == 1
    assert game.retro_points(state) == []


def test_full_game_has_six_rounds() -> None:
    state = asked("true", 5)
    assert game.outcome(state) is None and game.rounds(state) == 5
    state = game.apply(state, verdict("True"))
    outcome = game.outcome(state)
    assert outcome is not None and outcome.rounds == 6 == game.rounds(state)


@pytest.mark.parametrize("text", [
    "I believe your statement is: True",
    "i believe your statement is: true",
    "**I believe your statement is: True**",
    "I believe your statement is: **TRUE**.",
    "\"I believe your statement is: True.\"",
    "I believe your statement is true",
    "Your answers fit together well.\nI believe your statement is: True",
    "Question 3: Where exactly? Actually, I believe your statement is: 'True'",
])
def test_verdicts_are_read_leniently_anywhere_in_the_reply(text: str) -> None:
    state = asked("true", 2)
    assert game.parse(state, game.next_ask(state), text) == verdict("True")


def test_a_reply_with_both_verdicts_is_rejected() -> None:
    state = game.initial_state(spec())
    with pytest.raises(FormatError, match="both"):
        game.parse(state, game.next_ask(state),
                   "I believe your statement is: True. No wait, I believe your statement is: False")


def test_possibly_true_is_not_a_verdict() -> None:
    state = game.initial_state(spec())
    with pytest.raises(FormatError):
        game.parse(state, game.next_ask(state), "I believe your statement is: possibly true")


def test_only_true_or_false_can_be_applied() -> None:
    with pytest.raises(RuleViolation):
        game.apply(game.initial_state(spec()), verdict("Maybe"))


# -- questions -------------------------------------------------------------------------------------


def test_question_format() -> None:
    state = asked("true", 1)
    ask = game.next_ask(state)
    assert ask.kind == "move"
    assert game.parse(state, ask, "**Question 2:** How long were your shifts?") == q(2, "How long were your shifts?")
    assert game.parse(state, ask, "How long were your shifts?") == q(2, "How long were your shifts?")
    for bad in ("", "   ", "Question 3: How long were your shifts?", "Question 1: Which pool?",
                "How long? And where?", "You were a lifeguard.", "Question 2: ?",
                "Question 2: Which pool?\nI ask because...", "Question 2: " + "x" * 300 + "?"):
        with pytest.raises(FormatError):
            game.parse(state, ask, bad)


def test_wrong_question_number_names_the_right_one() -> None:
    state = asked("true", 3)
    with pytest.raises(FormatError, match="Question 4:"):
        game.parse(state, game.next_ask(state), "Question 3: Did you have a whistle?")
    with pytest.raises(RuleViolation):
        game.apply(state, q(3))


def test_after_the_fifth_answer_only_a_verdict_is_accepted() -> None:
    state = asked("false", 5)
    ask = game.next_ask(state)
    assert ask.seat == QUESTIONER and ask.kind == "verdict" and ask.max_tokens <= 16
    assert "verdict" in ask.messages[-1].content
    for text in ("Question 6: Did you enjoy it?", "Did you enjoy it?", "Hmm, hard to say."):
        with pytest.raises(FormatError, match="verdict"):
            game.parse(state, ask, text)
    with pytest.raises(RuleViolation):
        game.apply(state, q(6))
    assert game.parse(state, ask, "I believe your statement is: False") == verdict("False")


def test_questions_left_are_counted_down() -> None:
    state = asked("true", 1)
    assert game.next_ask(state).messages[-1].content.endswith("(4 questions left.)")
    state = asked("true", 4)
    assert "One question left" in game.next_ask(state).messages[-1].content


# -- answers ---------------------------------------------------------------------------------------


def test_answer_format() -> None:
    state = game.apply(game.initial_state(spec()), q(1))
    ask = game.next_ask(state)
    assert ask.seat == BLUFFER and ask.kind == "answer" and ask.display == "Question 1: Which pool was it?"
    assert game.parse(state, ask, "  The one\nby the park.  ") == a("The one by the park.")
    assert game.parse(state, ask, "Answer: \"The one by the park.\"") == a("The one by the park.")
    for bad in ("", "  \n ", "First part.\n\nSecond paragraph.", "x" * 501):
        with pytest.raises(FormatError):
            game.parse(state, ask, bad)
    assert game.parse(state, ask, "x" * 500).text == "x" * 500


def test_bluffer_sees_persona_statement_truth_and_its_own_history() -> None:
    for truth in ("true", "false"):
        state = game.apply(game.apply(game.apply(game.initial_state(spec(truth)), q(1)), a("Riverside.")), q(2))
        ask = game.next_ask(state)
        system_prompt = ask.messages[0].content
        assert ask.messages[0].role == "system" and PERSONA in system_prompt and STATEMENT in system_prompt
        assert [(m.role, m.content) for m in ask.messages[1:]] == [
            ("user", "Question 1: Which pool was it?"), ("assistant", "Riverside."),
            ("user", "Question 2: Which pool was it?")]
        assert truth in ask.instructions
    true_prompts = {prompts.bluffer_system(v, PERSONA, STATEMENT, True, 5) for v in range(3)}
    false_prompts = {prompts.bluffer_system(v, PERSONA, STATEMENT, False, 5) for v in range(3)}
    assert len(true_prompts) == 3 and not true_prompts & false_prompts


def test_bluffer_without_a_persona_still_gets_a_prompt() -> None:
    own = MatchSpec(game="bluffing", level=1, seed=1, secret="true", variants={QUESTIONER: 0, BLUFFER: 1},
                    params={"statement": "I can juggle.", "secret_set": "own"})
    state = game.apply(game.initial_state(own), q(1, "Since when?"))
    assert prompts.NO_PERSONA in game.next_ask(state).messages[0].content


# -- turn order and the end ---------------------------------------------------------------------------


def test_turn_order_is_enforced() -> None:
    state = game.initial_state(spec())
    with pytest.raises(RuleViolation):
        game.apply(state, a())
    state = game.apply(state, q(1))
    with pytest.raises(RuleViolation):
        game.apply(state, q(2))
    with pytest.raises(RuleViolation):
        game.apply(state, verdict("True"))
    with pytest.raises(RuleViolation):
        game.apply(state, Action(seat="judge", kind="answer", text="Yes"))
    with pytest.raises(RuleViolation):
        game.apply(state, Action(seat=BLUFFER, kind="verdict", text="True"))


def test_finished_game_accepts_no_moves() -> None:
    state = game.apply(asked("true", 2), verdict("True"))
    for action in (q(3), a(), verdict("False")):
        with pytest.raises(RuleViolation, match="over"):
            game.apply(state, action)


def test_state_is_a_fold_of_actions() -> None:
    actions = [q(1), a("Riverside."), q(2, "Who trained you?"), a("A man called Phil."), verdict("False")]
    first = replay(game, spec("true"), actions)
    again = replay(game, spec("true"), actions)
    assert first == again and game.outcome(first) == game.outcome(again)
    assert [e.answer for e in first.exchanges] == ["Riverside.", "A man called Phil."]
    state = game.initial_state(spec("true"))
    for action in actions[:3]:
        state = game.apply(state, action)
    assert state == replay(game, spec("true"), actions[:3]) and state.pending is not None


def test_transcript_starts_with_the_statement() -> None:
    state = game.apply(replay(game, spec(), [q(1), a("Riverside.")]), verdict("True"))
    assert list(game.transcript(state)) == [
        (BLUFFER, STATEMENT), (QUESTIONER, "Question 1: Which pool was it?"), (BLUFFER, "Riverside."),
        (QUESTIONER, "I believe your statement is: True")]


# -- specs -------------------------------------------------------------------------------------------


def test_new_spec_is_seeded_and_draws_statement_truth_persona_and_variants() -> None:
    first = game.new_spec(1, 7, random.Random(7))
    assert first == game.new_spec(1, 7, random.Random(7))
    assert first.hidden("secret") in ("true", "false")
    assert first.params["statement"] in load_statements("ours") and first.params["secret_set"] == "ours"
    assert first.params["persona"] in {p.describe() for p in load_personas()}
    specs = [game.new_spec(1, s, random.Random(s)) for s in range(200)]
    assert {s.variants[QUESTIONER] for s in specs} == set(range(5))
    assert {s.variants[BLUFFER] for s in specs} == set(range(len(prompts.BLUFFER_VARIANTS)))
    trues = sum(s.hidden("secret") == "true" for s in specs)
    assert 70 <= trues <= 130  # drawn both ways, roughly balanced
    assert len({s.params["statement"] for s in specs}) > 40 and len({s.params["persona"] for s in specs}) > 15


def test_new_spec_uses_the_named_set_and_a_given_truth() -> None:
    for name in ("set1", "set2"):
        drawn = game.new_spec(1, 3, random.Random(3), secret_set=name)
        assert drawn.params["statement"] in load_statements(name) and drawn.params["secret_set"] == name


def test_a_persons_own_statement() -> None:
    own = game.new_spec(1, 5, random.Random(5), inputs={"secret": "true", "statement": "  I can juggle.  "})
    assert own.hidden("secret") == "true" and own.params["statement"] == "I can juggle."
    assert "persona" not in own.params and own.params["secret_set"] == "own"
    assert set(own.variants) == {QUESTIONER, BLUFFER}
    game.initial_state(own)


def test_a_person_is_asked_for_the_statement_and_its_hidden_truth() -> None:
    inputs = {item.key: item for item in game.person_inputs}
    assert list(inputs) == ["statement", "secret"]
    assert not inputs["statement"].hidden and inputs["secret"].hidden and inputs["secret"].choices == ("true", "false")
    assert all(item.required and item.seat == BLUFFER for item in game.person_inputs)
    answers = check_inputs(game.id, game.person_inputs, {"statement": "I have a pet snake.", "secret": "FALSE"})
    own = game.new_spec(1, 9, random.Random(9), inputs=answers)
    assert own.hidden("secret") == "false" and own.params["statement"] == "I have a pet snake."
    with pytest.raises(ConfigError, match=r"inputs\.secret must be one of: true, false"):
        check_inputs(game.id, game.person_inputs, {"statement": "I have a pet snake.", "secret": "maybe"})


@pytest.mark.parametrize(("inputs", "secret_set", "options"), [
    ({"statement": "I can juggle."}, None, None),  # a person must say whether it is true
    ({"statement": "I can juggle.", "secret": "maybe"}, None, None),
    ({"statement": "   ", "secret": "true"}, None, None),
    (None, None, {"statement": "I can juggle."}),  # bluffing takes no options
    (None, "set3", None),  # unknown set
])
def test_new_spec_config_errors(inputs: dict[str, str] | None, secret_set: str | None,
                                options: dict[str, str | int] | None) -> None:
    with pytest.raises(ConfigError):
        game.new_spec(1, 1, random.Random(1), inputs=inputs, secret_set=secret_set, options=options)


def test_level_and_spec_checks() -> None:
    with pytest.raises(ConfigError):
        game.new_spec(2, 1, random.Random(1))
    with pytest.raises(ConfigError):
        game.initial_state(spec().model_copy(update={"setup": {}}))
    with pytest.raises(ConfigError):
        game.initial_state(spec().model_copy(update={"params": {}}))


def test_rng_is_per_match() -> None:
    before = random.getstate()
    game.new_spec(1, 11, random.Random(11))
    assert random.getstate() == before


# -- data ---------------------------------------------------------------------------------------------


def test_statement_sets_and_personas_shipped() -> None:
    assert len(load_statements("set1")) == 50
    assert len(load_statements("set2")) == 49  # the paper's B.2.2 publishes 49 (see data/PROVENANCE.md)
    assert "Cantonese" in load_statements("set1") and "I am 6'3\"" in load_statements("set1")
    assert load_statements("set2")[0] == "I have been to all 50 states"
    ours = load_statements("ours")
    assert len(ours) >= 60 and len(set(ours)) == len(ours)
    personas = load_personas()
    assert len(personas) >= 20 and len({p.name for p in personas}) == len(personas)
    with pytest.raises(ConfigError):
        load_statements("everyday")


# -- what the questioner sees ----------------------------------------------------------------------------


def questioner_asks(truth: str, variant: int) -> list[Ask]:
    """Every ask the questioner gets in a whole game against the canned bluffer."""
    state = game.initial_state(spec(truth, questioner=variant, bluffer=variant % 3))
    asks: list[Ask] = []
    for n in range(1, 6):
        asks.append(game.next_ask(state))
        state = game.apply(state, q(n))
        state = game.apply(state, a(CANNED_ANSWERS[n - 1]))
    asks.append(game.next_ask(state))
    return asks


def test_questioner_never_sees_the_truth_or_the_persona() -> None:
    for variant in range(len(prompts.QUESTIONER_VARIANTS)):
        seen = {truth: questioner_asks(truth, variant) for truth in ("true", "false")}
        # the questioner's asks are the same whether the statement is true or false
        assert seen["true"] == seen["false"]
        for ask in seen["true"]:
            texts = [m.content for m in ask.messages] + [ask.display, ask.instructions]
            for text in texts:
                assert "Maya" not in text and "Leeds" not in text and "hygienist" not in text
                for bluffer in prompts.BLUFFER_VARIANTS:
                    assert bluffer.if_true not in text and bluffer.if_false not in text
            assert STATEMENT in ask.messages[1].content and ask.messages[1].role == "user"
        kinds = [ask.kind for ask in seen["true"]]
        assert kinds == ["move"] * 5 + ["verdict"]


def test_questioner_conversation_shape() -> None:
    asks = questioner_asks("true", 2)
    last = asks[-1].messages
    assert last[0].role == "system" and last[0].content == prompts.questioner_system(2, 5)
    assert [m.role for m in last[1:]] == ["user"] + ["assistant", "user"] * 5
    assert last[2].content == "Question 1: Which pool was it?" and last[3].content.startswith(CANNED_ANSWERS[0])


def test_grammars_and_token_budgets() -> None:
    state = asked("true", 2)
    move = game.next_ask(state)
    assert move.constraint is not None and move.constraint.grammar is not None and move.max_tokens <= 64
    assert '"Question 3: " text "?"' in move.constraint.grammar and '"True" | "False"' in move.constraint.grammar
    answer = game.next_ask(game.apply(state, q(3)))
    assert answer.constraint is not None and answer.constraint.grammar is not None and answer.max_tokens <= 96
    final = game.next_ask(asked("true", 5))
    assert final.constraint is not None and final.constraint.grammar is not None
    assert "Question" not in final.constraint.grammar


# -- retrospective points ---------------------------------------------------------------------------------


def test_retro_points_follow_each_answered_question() -> None:
    before_verdict = game.apply(game.apply(asked("false", 3), q(4, "Who was your manager?")), a())
    state = game.apply(before_verdict, verdict("True"))
    points = game.retro_points(state)
    assert [p.round for p in points] == [1, 2, 3, 4] and {p.kind for p in points} == {"judgement"}
    assert points[3].question == "Who was your manager?"
    for i, point in enumerate(points, start=1):
        assert point.request == prompts.RETRO_REQUEST
        assert len(point.messages) == 2 + 2 * i
        assert point.messages[-2].content.startswith(f"Question {i}:") and point.messages[-1].role == "user"
    # the last point's conversation is what the questioner saw before its verdict
    assert points[-1].messages == game.next_ask(before_verdict).messages
    unanswered = game.apply(asked("true", 2), q(3))
    assert [p.round for p in game.retro_points(unanswered)] == [1, 2]


def test_retro_request_describes_no_format() -> None:
    request = prompts.RETRO_REQUEST.lower()
    assert "possibly" not in request and "unknown" not in request and "format" not in request


# -- scripted players through the engine -------------------------------------------------------------------


def seats() -> list[SeatAssignment]:
    return [SeatAssignment(seat=seat, player_kind="scripted") for seat in (QUESTIONER, BLUFFER)]


async def play(match_spec: MatchSpec) -> tuple[MemoryRecorder, str]:
    recorder = MemoryRecorder()
    match_id = recorder.create_match(spec=match_spec, seats=seats())
    players = {seat: game.scripted_player(seat, match_spec) for seat in (QUESTIONER, BLUFFER)}
    assert isinstance(players[QUESTIONER], ScriptedQuestioner) and isinstance(players[BLUFFER], ScriptedBluffer)
    await play_match(game, match_spec, players, recorder, match_id)
    return recorder, match_id


async def test_scripted_players_play_whole_games() -> None:
    winners: set[str] = set()
    for seed in range(12):
        match_spec = game.new_spec(1, seed, random.Random(seed), secret_set=("ours", "set1", "set2")[seed % 3])
        recorder, match_id = await play(match_spec)
        events = recorder.events[match_id]
        ended = events[-1]
        assert isinstance(ended, MatchEnded)
        assert ended.outcome.status == "finished" and ended.outcome.rounds == 6
        assert not [e for e in events if isinstance(e, ReplyRejected)]
        state = state_from_events(game, match_spec, events)
        assert game.outcome(state) == ended.outcome and len(game.retro_points(state)) == 5
        applied = [e.action.kind for e in events if isinstance(e, ActionApplied)]
        assert applied == ["question", "answer"] * 5 + ["verdict"]
        assert ended.outcome.winner is not None
        winners.add(ended.outcome.winner)
    assert winners == {QUESTIONER}  # the scripted questioner is the strong player: its verdict is the truth


async def test_scripted_games_replay_identically() -> None:
    match_spec = game.new_spec(1, 42, random.Random(42))
    first, first_id = await play(match_spec)
    second, second_id = await play(match_spec)
    first_state = state_from_events(game, match_spec, first.events[first_id])
    second_state = state_from_events(game, match_spec, second.events[second_id])
    assert first_state == second_state and game.transcript(first_state) == game.transcript(second_state)


def test_the_scripted_questioner_is_the_strong_player_and_its_verdict_is_the_truth() -> None:
    """``core.scripted``: an evaluated seat's scripted player is the strong policy ``mock/skill`` mixes with the
    random baseline, and it may read the hidden truth (the random and naive baselines may not)."""
    for seed in range(10):
        for truth, verdict in (("true", "True"), ("false", "False")):
            player = game.scripted_player(QUESTIONER, spec(truth, seed=seed))
            assert isinstance(player, ScriptedQuestioner) and player.kind == "scripted" and player.max_retries == 0
            assert player.verdict == verdict
    with pytest.raises(ConfigError):
        game.scripted_player("judge", spec())


def test_a_reply_with_two_answers_is_a_format_error() -> None:
    state = asked("true", 2)
    ask = game.next_ask(state)
    with pytest.raises(FormatError, match="one answer, not two"):
        game.parse(state, ask, "I believe your statement is: True\nI believe your statement is: False")
    with pytest.raises(FormatError, match="single line"):
        game.parse(state, ask, "Question 3: Which pool?\nQuestion 4: Which day?")
    assert game.parse(state, ask, "Question 3: Which pool?\n") == q(3, "Which pool?")
    assert game.parse(state, ask, "I believe your statement is: False\n") == verdict("False")
    state = game.apply(game.initial_state(spec()), q(1))
    answer_ask = game.next_ask(state)
    with pytest.raises(FormatError, match="single paragraph"):
        game.parse(state, answer_ask, "Yes.\n\nNo.")
    assert game.parse(state, answer_ask, "Yes, the outdoor one.\n") == a("Yes, the outdoor one.")
