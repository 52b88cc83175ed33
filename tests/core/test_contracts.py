"""Core v2's contracts: records of schema version 1 still read, outcomes per seat, inputs and options checked once."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from playeval.core import (
    Action,
    Ask,
    ConfigError,
    GameOption,
    MatchSpec,
    Outcome,
    PersonInput,
    SeatResult,
    check_inputs,
    check_options,
    parse_event,
    skills_of,
)
from playeval.core.info import MetricSpec
from playeval.core.registry import GameRegistry
from playeval.games import Akinator


def test_a_version_one_spec_keeps_its_secret_in_the_setup() -> None:
    spec = MatchSpec.model_validate({"game": "akinator", "level": 1, "seed": 3, "secret": "a lamp",
                                     "variants": {"guesser": 1}, "params": {"secret_set": "everyday"}})
    assert spec.setup == {"secret": "a lamp"} and spec.hidden("secret") == "a lamp" and spec.hidden("x") is None
    assert "secret" not in spec.model_dump()
    assert MatchSpec.model_validate({"game": "g", "level": 1, "seed": 0, "secret": None}).setup == {}


def test_a_version_one_outcome_reads_as_a_set_of_winners() -> None:
    old = Outcome.model_validate({"status": "finished", "winner": "guesser", "reason": "r", "rounds": 4,
                                  "forfeit_seat": None})
    assert old.winners == ("guesser",) and old.winner == "guesser" and old.headline() == "guesser"
    draw = Outcome.model_validate({"status": "finished", "winner": None, "reason": "r", "rounds": 4})
    assert draw.winners == () and draw.winner is None and draw.headline() == "finished"


def test_a_version_one_event_log_parses() -> None:
    ended = parse_event({"type": "match_ended", "outcome": {"status": "forfeit", "winner": None, "reason": "r",
                                                            "rounds": 0, "forfeit_seat": "guesser"}})
    assert ended.type == "match_ended" and ended.outcome.forfeit_seat == "guesser"  # type: ignore[union-attr]
    ask = parse_event({"type": "ask", "seat": "answerer", "kind": "confirm", "attempt": 0})
    assert ask.party == "answerer"  # type: ignore[union-attr]


@pytest.mark.parametrize(("outcome", "expected"), [
    (Outcome(status="finished", winners=("a",), reason="", rounds=1), {"a": True, "b": False}),
    (Outcome(status="finished", reason="a draw", rounds=1), {"a": False, "b": False}),
    (Outcome(status="forfeit", reason="", rounds=1, forfeit_seat="b"), {"a": None, "b": False}),
    (Outcome(status="aborted", reason="", rounds=1), {"a": None, "b": None}),
])
def test_the_common_rule_for_seats_without_a_result(outcome: Outcome, expected: dict[str, bool | None]) -> None:
    assert {seat: outcome.result_for(seat).won for seat in expected} == expected
    assert outcome.result_for("b").forfeited == (outcome.forfeit_seat == "b")


def test_a_games_own_results_win_over_the_rule() -> None:
    outcome = Outcome(status="finished", winners=("a", "c"), winning_team="red", reason="", rounds=2,
                      results=(SeatResult(seat="b", team="blue", won=False, eliminated_round=1,
                                          elimination="voted out", forfeited=False),))
    assert outcome.headline() == "red" and outcome.winner is None
    assert outcome.result_for("b").eliminated_round == 1 and outcome.result_for("c").won is True


def test_an_action_and_an_ask_belong_to_one_seat_or_one_role() -> None:
    assert Action(role="judge", kind="verdict", text="fits").party == "judge"
    for bad in ({"kind": "x", "text": "y"}, {"seat": "a", "role": "judge", "kind": "x", "text": "y"}):
        with pytest.raises(ValidationError):
            Action.model_validate(bad)
    with pytest.raises(ValidationError):
        Ask(kind="x", messages=(), display="", instructions="")


def test_person_inputs_are_checked_in_one_place() -> None:
    wanted = (PersonInput(key="word", seat="a", prompt="A word", max_chars=5),
              PersonInput(key="truth", seat="a", prompt="True?", choices=("true", "false")),
              PersonInput(key="note", seat="a", prompt="A note", required=False))
    assert check_inputs("g", wanted, {"word": " cat ", "truth": "TRUE"}) == {"word": "cat", "truth": "true"}
    for given, message in (({"truth": "true"}, "inputs.word is required"),
                           ({"word": "kitten", "truth": "true"}, "at most 5 characters"),
                           ({"word": "a\nb", "truth": "true"}, "one line"),
                           ({"word": "cat", "truth": "maybe"}, "one of: true, false"),
                           ({"word": "cat", "truth": "true", "extra": "x"}, "unknown input")):
        with pytest.raises(ConfigError, match=message):
            check_inputs("g", wanted, given)


def test_options_are_typed_bounded_and_defaulted() -> None:
    declared = (GameOption(name="players", description="", default=6, minimum=4, maximum=8),
                GameOption(name="strict", description="", default=False),
                GameOption(name="mode", description="", default="fast", choices=("fast", "slow")))
    assert check_options("g", declared, {}) == {"players": 6, "strict": False, "mode": "fast"}
    assert check_options("g", declared, {"players": "8", "strict": "yes", "mode": "slow"}) == {
        "players": 8, "strict": True, "mode": "slow"}
    for given, message in (({"players": "9"}, "at most 8"), ({"players": "six"}, "takes a whole number"),
                           ({"strict": "perhaps"}, "takes true or false"), ({"mode": "medium"}, "one of: fast, slow"),
                           ({"colour": "red"}, "unknown option")):
        with pytest.raises(ConfigError, match=message):
            check_options("g", declared, given)


def test_skills_come_from_the_games_metrics_in_the_papers_order_first() -> None:
    metric = MetricSpec(name="m", label="M", percent=False, lower_is_better=False, skill="induction of rules")
    assert skills_of([Akinator.metrics, (metric,)]) == ("deductive", "multi-hop", "induction of rules")


def test_seat_and_role_names_must_be_distinct() -> None:
    class Clash(Akinator):
        id = "clash"
        roles = (Akinator.roles[0].model_copy(update={"name": "guesser"}),)

    with pytest.raises(ValueError, match="distinct"):
        GameRegistry().add("clash", Clash)
