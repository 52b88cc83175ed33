"""Dynamic Picnic's state machine with ``rules=generated``: the game master's part (rule, level, items, validation)
played by scripted players and by mock models through the real engine loop, its limits and the fall back to a bank
rule when it fails, and replays that call no model."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest

from playeval.core import Ask, ConfigError, FormatError, Reply, disclosed_to
from playeval.core.events import ActionApplied, MatchEnded, ReplyRejected, RoleAssignment, SeatAssignment
from playeval.core.match import MatchSpec, Outcome
from playeval.engine import MemoryRecorder, advance, play_match, state_from_events
from playeval.engine.players import role_player
from playeval.games.dynamic_picnic import (
    GAME_MASTER,
    HELD_PER_SIDE,
    MAX_ITEM_ROUNDS,
    MAX_RULE_TRIES,
    TAXONOMY,
    VALIDATOR,
    DynamicPicnic,
    DynamicState,
    RuleBank,
    statement_key,
)
from playeval.games.dynamic_picnic.master import gm_parse
from playeval.guess_rule import JUDGE, PLAYER
from playeval.models import ModelHub, ModelRequest

game = DynamicPicnic()
PARTIES = (PLAYER, JUDGE, GAME_MASTER, VALIDATOR)


def _spec(level: int = 1, seed: int = 5, **options: Any) -> MatchSpec:
    """A generated match's spec (the game's default plays a bank rule: ``test_dynamic_picnic_bank``)."""
    return game.new_spec(level, seed, random.Random(seed), options={"rules": "generated", **options})


def _no_fallback(tmp_path: Path) -> str:
    """A bank with no rule: a generated match given it has no rule to fall back to."""
    path = tmp_path / "empty.json"
    RuleBank().save(path)
    return str(path)


def _fell_back(outcome: Outcome, events: list[Any], spec: MatchSpec, why: str) -> DynamicState:
    """The match played its fallback rule to the end after the game master's part failed for ``why``; its state."""
    state = state_from_events(game, spec, events)
    assert isinstance(state, DynamicState)
    assert state.fell_back is not None and why in state.fell_back and state.failure is None
    assert state.round.statement == spec.setup["fallback"]["statement"]
    assert outcome.status == "finished" and outcome.result_for(PLAYER).score is not None  # the player was scored
    said = f"fell back to the bank (rule {spec.setup['fallback']['rule']})"
    assert said in outcome.reason and why in outcome.reason
    assert ("game", f"{said}: the game master's part failed: {state.fell_back}") in game.transcript(state)
    played = [index for index, event in enumerate(events)
              if isinstance(event, ActionApplied) and event.action.seat == PLAYER]
    master = [index for index, event in enumerate(events)
              if isinstance(event, ActionApplied) and event.action.role in (GAME_MASTER, VALIDATOR)]
    assert played and max(master) < min(played)  # no game-master move once the player plays the bank rule
    return state


async def _play(spec: MatchSpec, players: Mapping[str, Any]) -> tuple[Outcome, list[Any]]:
    recorder = MemoryRecorder()
    match_id = recorder.create_match(spec=spec, seats=[SeatAssignment(seat=PLAYER, player_kind="scripted")],
                                     roles=[RoleAssignment(role=role, player_kind="scripted")
                                            for role in (JUDGE, GAME_MASTER, VALIDATOR)])
    outcome = await play_match(game, spec, players, recorder, match_id)
    return outcome, list(recorder.events[match_id])


def _scripted(spec: MatchSpec, **instead: Any) -> dict[str, Any]:
    return {party: instead.get(party) or game.scripted_player(party, spec) for party in PARTIES}


def test_the_spec_draws_a_type_and_a_variant_and_holds_no_rule() -> None:
    spec = _spec(2, 11)
    assert spec == _spec(2, 11)  # seeded
    assert spec.setup["source"] == "generated" and spec.setup["type"] in {kind.id for kind in TAXONOMY}
    assert "statement" not in spec.setup and spec.variants[PLAYER] in (0, 1, 2)
    # the bank rule it falls back to: the shipped bank's, of the level and the drawn type
    assert spec.setup["fallback"]["type"] == spec.setup["type"] and len(spec.setup["fallback"]["held_out"]) == 10
    assert {_spec(1, seed).setup["type"] for seed in range(40)} == {kind.id for kind in TAXONOMY}
    assert {_spec(1, seed).variants[PLAYER] for seed in range(40)} == {0, 1, 2}
    # nothing to disclose before a rule exists, and the rule nobody sees while playing
    assert [item.key for item in game.disclosures(spec)] == ["rule_type"]
    assert disclosed_to(game, spec, (PLAYER,), over=False) == []
    with pytest.raises(ConfigError):
        game.new_spec(4, 1, random.Random(1))
    with pytest.raises(ConfigError, match="rules must be"):
        _spec(rules="invented")


async def test_a_scripted_match_validates_items_and_keeps_the_check_apart() -> None:
    spec = _spec(1, 5)
    outcome, events = await _play(spec, _scripted(spec))
    assert outcome.winner == PLAYER and outcome.result_for(PLAYER).score == 1.0
    state = state_from_events(game, spec, events)
    assert isinstance(state, DynamicState) and state.turns == 3
    round_ = state.round
    assert round_.statement == state.attempts[0].statement and state.attempts[0].level == 1
    # the scripted game master slipped one item it knew to be wrong into its first batch: the validator dropped it
    first = state.batches[0]
    assert len(first.dropped()) == 1 and first.dropped()[0] not in round_.positives + round_.negatives
    assert first.dropped()[0] not in {item for item, _ in round_.held_out}
    held = dict(round_.held_out)
    assert len(held) == 2 * HELD_PER_SIDE and list(held.values()).count("yes") == HELD_PER_SIDE
    assert not set(held) & set(round_.positives + round_.negatives)  # held-out items are never examples
    shown = game.examples(round_, 0, state.shown)
    assert all(item not in shown for item in held)
    lines = game.transcript(state)
    revealed = lines.index((GAME_MASTER, f"wrote the rule: {round_.statement}"))
    assert lines[0][0] == "game" and revealed > 0  # the reveal comes after the player's part (a transcript grows)
    assert {party for party, _ in lines[revealed:]} == {GAME_MASTER, VALIDATOR}
    assert any(party == VALIDATOR and "dropped " + first.dropped()[0] in text for party, text in lines)


@pytest.mark.parametrize(("level", "seed"), [(2, 0), (3, 1)])
async def test_a_request_s_examples_show_once_the_game_master_has_made_them_all(level: int, seed: int) -> None:
    """mock/player asks for more examples than the scripted game master has in reserve, which then makes them:
    the request's line of examples is not shown half made and then changed (the suite's contract check, on for
    every test, would stop the match)."""
    spec = _spec(level, seed)
    async with ModelHub(use_cache=False) as hub:
        outcome, events = await _play(spec, _scripted(spec, player=role_player(hub.get("mock/player"), seed=seed)))
    assert outcome.status == "finished"
    steps = [state_from_events(game, spec, events[:end]) for end in range(1, len(events) + 1)]
    waiting = [step for step in steps if game.outcome(step) is None and game._more_due(step)]
    assert waiting  # the case arose: a request waited for the game master's items
    for step in waiting:
        assert game.transcript(step)[-1] == (PLAYER, f"MORE: {step.history[-1].count}")  # the line comes later


async def test_the_game_master_is_not_in_the_transcript_or_the_disclosures_while_playing() -> None:
    spec = _spec(2, 3)
    players: dict[str, Any] = _scripted(spec)
    players[PLAYER] = None  # a person: the match stops where they are to move
    recorder = MemoryRecorder()
    match_id = recorder.create_match(spec=spec, seats=[SeatAssignment(seat=PLAYER, player_kind="human")])
    result = await advance(game, spec, [], players, recorder, match_id)
    assert result.waiting_for == (PLAYER,)
    state = result.state
    assert state.accepted and [party for party, _ in game.transcript(state)] == ["game"]
    assert state.round.statement not in " ".join(text for _, text in game.transcript(state))
    assert disclosed_to(game, spec, (PLAYER,), over=False, state=state) == []
    assert [item.key for item in disclosed_to(game, spec, (), over=True, state=state)] == ["rule", "rule_type"]


async def test_asking_for_more_than_was_validated_makes_the_game_master_generate_again() -> None:
    class Greedy:
        kind, model, max_retries = "scripted", None, 0

        async def act(self, ask: Ask) -> Reply:
            if ask.kind == "apply":
                return Reply(text="skip")
            asked = any(message.content.startswith("MORE:") for message in ask.messages)
            return Reply(text="GUESS: something about the items" if asked else "MORE: 5")

    spec = _spec(3, 8, max_turns=3)
    outcome, events = await _play(spec, _scripted(spec, player=Greedy()))
    state = state_from_events(game, spec, events)
    assert state.shown == 2 + 5 and len(state.batches) >= 2  # one batch before turn 1, more after the request
    assert min(len(state.round.positives), len(state.round.negatives)) >= state.shown
    kinds = [event.action.kind for event in events if isinstance(event, ActionApplied)]
    more = kinds.index("more")
    assert "items" in kinds[more:] and kinds[more + 1] == "items"  # generated before the player goes on
    assert outcome.status == "finished" and outcome.winners == ()


def _mock_hub(scripts: Mapping[str, Callable[[ModelRequest], str] | list[str]]) -> ModelHub:
    return ModelHub(use_cache=False, mock_scripts=dict(scripts))


def _last_user(request: ModelRequest) -> str:
    return next(message.content for message in reversed(request.messages) if message.role == "user")


async def test_a_rule_at_another_level_is_replaced_and_after_the_limit_the_match_falls_back_to_the_bank() -> None:
    spec = _spec(1, 2)
    rules = [f"Rule: Items whose name is a word of kind number {n}" for n in range(1, 10)]
    async with _mock_hub({"gm": rules, "val": ["Level: L3", "Level: L2", "Level: L3"]}) as hub:
        players = _scripted(spec, game_master=role_player(hub.get("mock/gm"), seed=1),
                            validator=role_player(hub.get("mock/val"), seed=1))
        outcome, events = await _play(spec, players)
    state = _fell_back(outcome, events, spec, f"wrote {MAX_RULE_TRIES} rules")
    assert [attempt.level for attempt in state.attempts] == [3, 2, 3]
    assert "(L3)" in outcome.reason and outcome.winner == PLAYER  # the scripted player knows the hand-written rule


async def test_a_rule_at_another_level_after_the_limit_aborts_a_match_with_no_bank_rule(tmp_path: Path) -> None:
    spec = _spec(1, 2, bank=_no_fallback(tmp_path))
    assert "fallback" not in spec.setup
    rules = [f"Rule: Items whose name is a word of kind number {n}" for n in range(1, 10)]
    async with _mock_hub({"gm": rules, "val": ["Level: L3", "Level: L2", "Level: L3"]}) as hub:
        players = _scripted(spec, game_master=role_player(hub.get("mock/gm"), seed=1),
                            validator=role_player(hub.get("mock/val"), seed=1))
        outcome, events = await _play(spec, players)
    assert outcome.status == "aborted" and outcome.result_for(PLAYER).won is None  # nobody is scored
    assert f"wrote {MAX_RULE_TRIES} rules" in outcome.reason and "(L3)" in outcome.reason
    state = state_from_events(game, spec, events)
    assert [attempt.level for attempt in state.attempts] == [3, 2, 3] and not state.accepted
    assert not [event for event in events if isinstance(event, ActionApplied) and event.action.seat == PLAYER]


async def test_with_level_check_record_the_first_rule_is_kept_with_its_rating() -> None:
    spec = _spec(1, 2, level_check="record")
    rule = "Rule: Items that are associated with sports."
    async with _mock_hub({"gm": [rule], "val": ["Level: L3"]}) as hub:
        players = _scripted(spec, game_master=role_player(hub.get("mock/gm"), seed=1),
                            validator=role_player(hub.get("mock/val"), seed=1))
        players[PLAYER] = None
        recorder = MemoryRecorder()
        match_id = recorder.create_match(spec=spec, seats=[SeatAssignment(seat=PLAYER, player_kind="human")])
        with pytest.raises(Exception, match="script exhausted"):  # the rule was kept: items are asked for next
            await advance(game, spec, [], players, recorder, match_id)
    state = state_from_events(game, spec, recorder.events[match_id])
    assert state.accepted and state.attempts[0].level == 3 and state.round.statement.endswith("sports.")


async def test_a_repeated_rule_is_refused_and_the_rules_tried_are_in_the_next_prompt() -> None:
    spec = _spec(1, 2)
    prompts: list[str] = []

    def master(request: ModelRequest) -> str:
        prompts.append(_last_user(request))
        return "Rule: Things that are red" if len(prompts) < 3 else "Rule: the things that are RED."

    async with _mock_hub({"gm": master, "val": ["Level: L2", "Level: L2"]}) as hub:
        players = _scripted(spec, game_master=role_player(hub.get("mock/gm"), seed=1, max_retries=0),
                            validator=role_player(hub.get("mock/val"), seed=1))
        outcome, events = await _play(spec, players)
    assert "Things that are red" in prompts[1]  # told which rule it already wrote
    refused = [event for event in events if isinstance(event, ReplyRejected)]
    assert refused and refused[-1].error == "rule" and "used already" in refused[-1].reason
    _fell_back(outcome, events, spec, "the game_master gave no usable reply")
    assert "used already" in outcome.reason
    assert statement_key("the things that are RED.") == statement_key("Things that are red")


async def test_the_validator_drops_items_it_puts_on_the_other_side() -> None:
    spec = _spec(1, 4, num_init_examples=1)
    fits = [f"red thing {n}" for n in range(12)]
    others = [f"blue thing {n}" for n in range(12)]

    def master(request: ModelRequest) -> str:
        if "Invent a new" in _last_user(request):
            return "Rule: Things that are red"
        return f"Fits: {', '.join(fits)}\nDoes not fit: {', '.join(others)}"

    def validator(request: ModelRequest) -> str:
        asked = _last_user(request)
        if "Which level" in asked:
            return "Level: L1"
        lines = [line for line in asked.splitlines() if line[:1].isdigit()]
        # says no to red things numbered 0 and 1 (dropped) and to every blue thing (kept)
        return "\n".join(f"{line.split('. ')[0]}. {'yes' if red(line) else 'no'}" for line in lines)

    def red(line: str) -> bool:
        return "red" in line and not line.endswith((" 0", " 1"))

    async with _mock_hub({"gm": master, "val": validator}) as hub:
        players = _scripted(spec, game_master=role_player(hub.get("mock/gm"), seed=1),
                            validator=role_player(hub.get("mock/val"), seed=1))
        players[PLAYER] = None
        recorder = MemoryRecorder()
        match_id = recorder.create_match(spec=spec, seats=[SeatAssignment(seat=PLAYER, player_kind="human")])
        result = await advance(game, spec, [], players, recorder, match_id)
    state = result.state
    assert result.waiting_for == (PLAYER,)
    [batch] = state.batches  # 1 + 5 needed on each side, and the game master gave 12
    assert sorted(batch.dropped()) == ["red thing 0", "red thing 1"]
    kept = set(state.round.positives) | {item for item, answer in state.round.held_out if answer == "yes"}
    assert kept == {f"red thing {n}" for n in range(2, 12)}
    assert set(state.round.negatives) | {item for item, answer in state.round.held_out if answer == "no"} == \
        set(others)


@pytest.mark.parametrize("fallback", [True, False])
async def test_too_few_valid_items_after_the_round_limit_fall_back_or_give_the_match_up(fallback: bool,
                                                                                       tmp_path: Path) -> None:
    spec = _spec(1, 4) if fallback else _spec(1, 4, bank=_no_fallback(tmp_path))
    async with _mock_hub({"gm": lambda request: "Rule: Things that are red" if "Invent" in _last_user(request)
                          else "Fits: apple, apple\nDoes not fit: sky, sky",
                          "val": lambda request: "Level: L1" if "Which level" in _last_user(request) else
                          "1. yes\n2. no"}) as hub:
        players = _scripted(spec, game_master=role_player(hub.get("mock/gm"), seed=1),
                            validator=role_player(hub.get("mock/val"), seed=1))
        outcome, events = await _play(spec, players)
    if fallback:
        state = _fell_back(outcome, events, spec, f"in {MAX_ITEM_ROUNDS} rounds")
    else:
        assert outcome.status == "aborted" and f"in {MAX_ITEM_ROUNDS} rounds" in outcome.reason
        state = state_from_events(game, spec, events)
    assert len(state.batches) == MAX_ITEM_ROUNDS
    assert state.batches[0].repeated == ("apple", "sky") and all(not b.items for b in state.batches[1:])


async def test_an_unreadable_game_master_is_re_asked_then_the_match_falls_back_to_the_bank() -> None:
    spec = _spec(1, 4)
    async with _mock_hub({"gm": ["I would say red things", "red things!", "Rule?"]}) as hub:
        players = _scripted(spec, game_master=role_player(hub.get("mock/gm"), seed=1, max_retries=2))
        outcome, events = await _play(spec, players)
    assert [event.error for event in events if isinstance(event, ReplyRejected)] == ["format"] * 3
    state = _fell_back(outcome, events, spec, "the game_master gave no usable reply")
    assert "Rule:" in outcome.reason and not state.attempts
    fallback = [event.action for event in events if isinstance(event, ActionApplied) and event.action.role]
    assert [(action.role, action.kind) for action in fallback] == [(GAME_MASTER, "fallback")]  # in the log
    assert state_from_events(game, spec, events) == state  # a replay folds the same fall back


async def test_an_unreadable_game_master_with_no_bank_rule_aborts_the_match(tmp_path: Path) -> None:
    spec = _spec(1, 4, bank=_no_fallback(tmp_path))
    async with _mock_hub({"gm": ["I would say red things", "red things!", "Rule?"]}) as hub:
        players = _scripted(spec, game_master=role_player(hub.get("mock/gm"), seed=1, max_retries=2))
        outcome, _ = await _play(spec, players)
    assert outcome.status == "aborted" and "game_master" in outcome.reason and "Rule:" in outcome.reason


class _Forbidden:
    kind, model, max_retries = "scripted", None, 0

    async def act(self, ask: Ask) -> Reply:
        raise AssertionError(f"a replay asked the {ask.party}")


async def test_a_replay_folds_the_log_and_asks_no_model() -> None:
    spec = _spec(2, 9)
    outcome, events = await _play(spec, _scripted(spec))
    assert isinstance(events[-1], MatchEnded)
    again = state_from_events(game, spec, events)
    assert game.outcome(again) == outcome
    recorder = MemoryRecorder()
    match_id = recorder.create_match(spec=spec, seats=[SeatAssignment(seat=PLAYER, player_kind="scripted")])
    result = await advance(game, spec, events, {party: _Forbidden() for party in PARTIES}, recorder, match_id)
    assert result.outcome == outcome and result.moves == 0
    # resumed after the game master's part, the match goes on from the recorded rule and items
    cut = next(index for index, event in enumerate(events)
               if isinstance(event, ActionApplied) and event.action.seat == PLAYER)
    players = {**_scripted(spec), GAME_MASTER: _Forbidden(), VALIDATOR: _Forbidden()}
    recorder = MemoryRecorder()
    match_id = recorder.create_match(spec=spec, seats=[SeatAssignment(seat=PLAYER, player_kind="scripted")])
    resumed = await advance(game, spec, events[:cut], players, recorder, match_id)
    assert resumed.outcome == outcome and resumed.state.round == again.round


async def test_a_request_the_game_master_cannot_fill_during_play_runs_the_examples_out() -> None:
    class Greedy:
        kind, model, max_retries = "scripted", None, 0

        def __init__(self) -> None:
            self.last_move = ""

        async def act(self, ask: Ask) -> Reply:
            if ask.kind == "apply":
                return Reply(text="skip")
            self.last_move = "GUESS: something about the items" if "MORE" not in (ask.constraint.grammar or "") \
                else "MORE: 28"
            return Reply(text=self.last_move)

    spec = _spec(1, 4, max_turns=6)
    outcome, events = await _play(spec, _scripted(spec, player=Greedy()))
    state = state_from_events(game, spec, events)
    assert state.ran_out and state.total == state.shown  # nothing more can be asked for
    assert 2 <= state.shown == min(len(state.round.positives), len(state.round.negatives)) < 2 + 28
    assert outcome.status == "finished" and outcome.winners == ()  # the refused guess after the last example
    assert "every" in outcome.reason and state.round.held_out


def test_a_game_master_reply_with_two_answers_is_a_format_error() -> None:
    state = game.initial_state(_spec())
    rule = Ask(role=GAME_MASTER, kind="rule", messages=(), display="", instructions="")
    with pytest.raises(FormatError, match="one line"):
        gm_parse(state, rule, "Rule: only red things\nRule: only round things")
    assert gm_parse(state, rule, "Rule: only red things\n").text == "only red things"
    items = Ask(role=GAME_MASTER, kind="items", messages=(), display="", instructions="")
    with pytest.raises(FormatError, match="not two"):
        gm_parse(state, items, "Fits: apple\nDoes not fit: pear\nFits: cherry")
    with pytest.raises(FormatError, match="not two"):
        gm_parse(state, items, "Fits: apple\nDoes not fit: pear\nDoes not fit: plum")
    assert gm_parse(state, items, "Fits: apple\nDoes not fit: pear\n").data == {"fits": ["apple"], "others": ["pear"]}
