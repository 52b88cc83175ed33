"""Council's rules on the pure state machine, and the game as playeval's registry sees it once installed."""

from __future__ import annotations

import random

import pytest
from council import JUDGE, SEATS, TEAMS, Council, CouncilState

from playeval.core import Action, FormatError, RuleViolation, disclosed_to, person_seat
from playeval.core.registry import default_registry

game = Council()


def start(seed: int = 2) -> CouncilState:
    return game.initial_state(game.new_spec(1, seed, random.Random(seed)))


def clue(seat: str, text: str = "a plain hint") -> Action:
    return Action(seat=seat, kind="clue", text=text)


def fits(ok: bool = True) -> Action:
    return Action(role=JUDGE, kind="verdict", text="fits" if ok else "off-topic")


def vote(seat: str, target: str) -> Action:
    return Action(seat=seat, kind="vote", text=target)


def through_clues(state: CouncilState, off: tuple[str, ...] = ()) -> CouncilState:
    for seat in state.speakers():
        if game.outcome(state) is None:
            state = game.apply(game.apply(state, clue(seat)), fits(seat not in off))
    return state


def test_clues_go_round_the_table_and_the_judge_rules_on_each() -> None:
    state = start()
    assert [ask.seat for ask in game.next_asks(state)] == ["north"]
    state = game.apply(state, clue("north"))
    [judging] = game.next_asks(state)
    assert judging.role == JUDGE and judging.seat is None and judging.constraint is not None
    assert judging.constraint.choices == ("fits", "off-topic")
    with pytest.raises(RuleViolation):
        game.apply(state, clue("east"))  # the judge rules first
    state = game.apply(state, fits(False))
    assert "north" not in state.alive() and game.next_asks(state)[0].seat == "east"


def test_a_forfeit_shows_where_it_happened_and_the_transcript_only_grows() -> None:
    state = game.apply(game.apply(start(), clue("north")), fits())
    state = game.eliminate(state, "east", "no usable clue")
    shown = list(game.transcript(state))
    state = game.apply(game.apply(state, clue("south", "another hint")), fits())
    assert list(game.transcript(state)) == [*shown, ("south", "another hint")]
    assert shown == [("north", "a plain hint"), ("game", "east is out: forfeit: no usable clue")]


def test_a_clue_must_not_say_the_word() -> None:
    state = start()
    word = state.word("north")
    with pytest.raises(RuleViolation, match="word itself"):
        game.apply(state, clue("north", f"Think of a {word.upper()}!"))
    with pytest.raises(FormatError):
        game.parse(state, game.next_asks(state)[0], "x" * 81)


def test_the_vote_is_a_parallel_phase_that_shows_no_vote_before_it_closes() -> None:
    state = through_clues(start())
    asks = game.next_asks(state)
    assert [ask.seat for ask in asks] == list(SEATS)
    assert all(ask.constraint is not None and set(ask.constraint.choices or ()) ==
               {s for s in SEATS if TEAMS[s] != TEAMS[ask.seat or ""]} for ask in asks)
    state = game.apply(state, vote("north", "east"))
    later = game.next_asks(state)
    assert [ask.seat for ask in later] == ["east", "south", "west"]
    assert all("north for" not in message.content for ask in later for message in ask.messages)
    assert not any("votes" in text for _, text in game.transcript(state))
    with pytest.raises(RuleViolation):
        game.apply(state, vote("south", "north"))  # a teammate
    with pytest.raises(RuleViolation):
        game.apply(state, vote("north", "west"))  # north has voted


def test_the_order_of_the_votes_does_not_change_the_result() -> None:
    state = through_clues(start())
    votes = [vote("north", "east"), vote("east", "north"), vote("south", "east"), vote("west", "south")]
    forward, backward = state, state
    for action in votes:
        forward = game.apply(forward, action)
    for action in reversed(votes):
        backward = game.apply(backward, action)
    assert forward.out == backward.out and forward.out[-1].seat == "east" and forward.round == 2
    assert game.transcript(forward)[-1] == ("game", ("Round 1 votes: east for north, north for east, south for east, "
                                                     "west for south; east is out."))


def test_a_tie_puts_nobody_out_and_a_team_with_nobody_left_loses() -> None:
    state = through_clues(start())
    for voter, target in (("north", "east"), ("south", "west"), ("east", "north"), ("west", "south")):
        state = game.apply(state, vote(voter, target))
    assert state.out == () and state.round == 2
    state = through_clues(state, off=("east", "west"))
    outcome = game.outcome(state)
    assert outcome is not None and outcome.winning_team == "red" and outcome.winners == ("north", "south")
    east = outcome.result_for("east")
    assert (east.team, east.won, east.eliminated_round, east.elimination) == ("blue", False, 2, "off-topic clue")
    assert outcome.result_for("south").won and outcome.result_for("south").placement == 1


def test_a_seat_that_forfeits_is_out_and_its_vote_is_not_waited_for() -> None:
    state = through_clues(start())
    for voter, target in (("north", "east"), ("south", "east"), ("east", "north")):
        state = game.apply(state, vote(voter, target))
    state = game.eliminate(state, "west", "format errors")
    assert state.round == 2 and [item.seat for item in state.out] == ["west", "east"]
    outcome = game.outcome(state)
    assert outcome is not None and outcome.winning_team == "red" and outcome.result_for("west").forfeited


def test_each_seat_sees_only_its_own_teams_word() -> None:
    spec = game.new_spec(1, 3, random.Random(3))
    words = spec.setup["words"]
    for seat in SEATS:
        seen = {item.value for item in disclosed_to(game, spec, (seat,), over=False)}
        assert seen == {words[TEAMS[seat]]}
    assert {item.value for item in disclosed_to(game, spec, (), over=False)} == set()
    assert {item.value for item in disclosed_to(game, spec, (), over=True)} == set(words.values())
    state = game.initial_state(spec)
    ask = game.next_asks(state)[0]
    other = words["blue"]
    assert all(other not in message.content for message in ask.messages) and words["red"] in ask.display


def test_the_registry_finds_the_game_through_its_entry_point(council_installed: dict[str, str]) -> None:
    registry = default_registry()
    assert "council" in registry.ids()
    installed = registry.get("council")
    assert [seat.name for seat in installed.seats] == list(SEATS) and person_seat(installed) == "north"
    assert [role.name for role in installed.roles] == [JUDGE] and installed.options[0].name == "rounds"
