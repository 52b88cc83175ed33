"""Code Functions Picnic with rules=generated: a game-master model writes the rule, the code_executor role runs it
in the sandbox through the acceptance gate, and the match replays from its log without running code."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence

import pytest

from playeval.core import RuleViolation, disclosed_to, fold
from playeval.core.events import ActionApplied, Event, ReplyRejected, RoleAssignment, SeatAssignment
from playeval.core.match import MatchSpec, Outcome
from playeval.engine import MemoryRecorder, build_players, play_match
from playeval.games.functions_picnic import FunctionsPicnic, RuleEvaluator, rule_by_id
from playeval.games.functions_picnic.written import WrittenRuleCheck, decode_truth, encode_truth
from playeval.guess_rule import JUDGE, PLAYER, GuessState
from playeval.guess_rule.writing import CODE_EXECUTOR, GAME_MASTER
from playeval.models import ModelHub, ModelRequest

game = FunctionsPicnic()
GOOD = "RULE: words with exactly two letters e\n```python\ndef rule(word):\n    return word.count('e') == 2\n```"
RARE = "RULE: words with a z\n```python\ndef rule(word):\n    return 'z' in word\n```"


def draft(body: str) -> str:
    return f"RULE: some rule\n```python\ndef rule(word):\n{body}\n```"


def spec_of(level: int = 1, seed: int = 5) -> MatchSpec:
    return game.new_spec(level, seed, random.Random(seed), options={"rules": "generated", "max_turns": 2})


MasterScript = Sequence[str] | Callable[[ModelRequest], str]


async def play(spec: MatchSpec, master: MasterScript,
               player: Sequence[str] = ("GUESS: no idea at all", "skip")) -> tuple[Outcome, list[Event]]:
    recorder = MemoryRecorder()
    seats = [SeatAssignment(seat=PLAYER, player_kind="llm", model="mock/p", evaluated=True)]
    roles = [RoleAssignment(role=JUDGE, player_kind="scripted"),
             RoleAssignment(role=GAME_MASTER, player_kind="llm", model="mock/gm"),
             RoleAssignment(role=CODE_EXECUTOR, player_kind="scripted")]
    match_id = recorder.create_match(spec=spec, seats=seats, roles=roles)
    script = master if callable(master) else list(master)
    async with ModelHub(use_cache=False, mock_scripts={"gm": script, "p": list(player)}) as hub:
        players = build_players(game, spec, seats, roles, hub.get, people={}, max_retries=1)
        outcome = await play_match(game, spec, players, recorder, match_id)
    return outcome, recorder.events[match_id]


def verdicts(events: Sequence[Event]) -> list[dict[str, object]]:
    return [event.action.data for event in events
            if isinstance(event, ActionApplied) and event.action.role == CODE_EXECUTOR]


async def test_an_accepted_rule_is_played_from_the_truth_values_its_verdict_carries() -> None:
    spec = spec_of(level=2)
    assert spec.setup == {} and game.initial_state(spec).rule is None
    outcome, events = await play(spec, [GOOD], ["GUESS: words with exactly two letters e", "skip"])
    assert outcome.winner == PLAYER  # the scripted judge read the written statement from its ask
    state = fold(game, spec, events)
    truth = RuleEvaluator().truth("def rule(word):\n    return word.count('e') == 2\n")
    assert state.rule.positives and all(truth[word] for word in state.rule.positives)
    assert not any(truth[word] for word in state.rule.negatives)
    assert sorted(answer for _, answer in state.rule.held_out) == ["no"] * 5 + ["yes"] * 5
    revealed = {item.key: item.value for item in disclosed_to(game, spec, (), over=True, state=state)}
    assert revealed["rule"] == "words with exactly two letters e" and "count('e')" in revealed["code"]
    assert disclosed_to(game, spec, (PLAYER,), over=False, state=state) == []


async def test_the_player_sees_nothing_of_the_rule_writing_phase() -> None:
    spec = spec_of()
    _, events = await play(spec, [RARE, GOOD])
    state = fold(game, spec, events)
    asks = game.next_asks(GuessState(spec=state.spec, rule=state.rule, total=state.total, shown=state.shown,
                                     drafts=state.drafts))
    text = "\n".join(message.content for message in asks[0].messages)
    assert "def rule" not in text and "too rare" not in text and "RULE:" not in text
    assert all("def rule" not in line for _, line in game.transcript(state))


async def test_a_rejected_rule_goes_back_to_the_game_master_with_the_reason() -> None:
    spec = spec_of()
    seen: list[str] = []

    def master(request: ModelRequest) -> str:
        seen.append(request.messages[-1].content)
        return RARE if len(seen) == 1 else GOOD

    outcome, events = await play(spec, master)
    assert [v["reason"] for v in verdicts(events)] == ["too_rarely_true", "accepted"]
    assert "rejected" in seen[1] and "at least 10%" in seen[1]
    assert outcome.status == "finished"


async def test_three_rejections_abort_the_match_and_blame_no_seat() -> None:
    spec = spec_of()
    outcome, events = await play(spec, [RARE, draft("    return len(word) > 2"), draft("    return 'k' in wrd")])
    assert [v["reason"] for v in verdicts(events)] == ["too_rarely_true", "too_often_true", "crashed"]
    assert outcome.status == "aborted" and outcome.forfeit_seat is None and outcome.rounds == 0
    assert "3 tries" in outcome.reason and "wrd" in outcome.reason
    assert outcome.result_for(PLAYER).won is None


async def test_an_unreadable_draft_is_re_asked_by_the_engine() -> None:
    spec = spec_of()
    outcome, events = await play(spec, ["def rule(word): return True", GOOD])
    rejected = [e for e in events if isinstance(e, ReplyRejected) and e.role == GAME_MASTER]
    assert len(rejected) == 1 and "RULE:" in rejected[0].reason and outcome.status == "finished"


@pytest.fixture(scope="module")
def check() -> WrittenRuleCheck:
    return WrittenRuleCheck(RuleEvaluator(), timeout_s=1.0)


@pytest.mark.parametrize(("body", "reason"), [
    ("    return len(word) > 4 +", "syntax"),
    ("    return open('/etc/passwd') is None", "forbidden"),
    ("    while True:\n        pass", "timeout"),
    ("    return len(word)", "not_boolean"),
    ("    return 'q' in word", "too_rarely_true"),
    ("    return len(word) >= 3", "too_often_true"),
    ("    return len(word) % 3 == 0", "duplicate"),
    ("    return word.count('e') == 2", "accepted"),
])
def test_the_executor_runs_the_gate_in_the_sandbox(check: WrittenRuleCheck, body: str, reason: str) -> None:
    verdict = check({"statement": "s", "code": f"def rule(word):\n{body}\n"})
    assert verdict["reason"] == reason and verdict["accepted"] is (reason == "accepted")
    if reason == "duplicate":
        assert "L1.length-multiple-of-3" in verdict["message"]


def test_truth_values_round_trip_through_their_hex() -> None:
    values = [random.Random(3).random() < 0.3 for _ in range(4643)]
    assert list(decode_truth(encode_truth(values), len(values))) == values
    with pytest.raises(ValueError):
        decode_truth(encode_truth(values), 17)


async def test_a_verdict_that_does_not_hold_together_is_refused() -> None:
    spec = spec_of()
    _, events = await play(spec, [GOOD])
    draft_action = next(e.action for e in events if isinstance(e, ActionApplied) and e.action.role == GAME_MASTER)
    state = game.apply(game.initial_state(spec), draft_action)
    ask = game.next_asks(state)[0]
    good = verdicts(events)[0]
    assert game.apply(state, game.parse(state, ask, json.dumps(good))).rule is not None
    everything = encode_truth([True] * 4643)
    for bad in ({**good, "truth": everything}, {**good, "words": "0" * 16}, {**good, "truth": "zz"}):
        with pytest.raises(RuleViolation):
            game.apply(state, game.parse(state, ask, json.dumps(bad)))


async def test_a_finished_match_replays_without_the_sandbox(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = spec_of(level=3)
    _, events = await play(spec, [RARE, GOOD])
    before = fold(game, spec, events)

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("folding a match ran code")

    import playeval.games.functions_picnic.checks as checks
    import playeval.sandbox._sandbox as sandbox

    monkeypatch.setattr(checks, "run_function", refuse)
    monkeypatch.setattr(sandbox.Sandbox, "run_function", refuse)
    assert fold(FunctionsPicnic(), spec, events) == before
    assert before.rule is not None and [d.verdict for d in before.drafts] == ["rejected", "accepted"]


def test_library_matches_are_as_before_and_scripted_stand_ins_say_what_they_cannot_do() -> None:
    spec = game.new_spec(1, 7, random.Random(7))
    assert spec.params["rules"] == "library" and rule_by_id(str(spec.setup["rule"])).level == 1
    assert game.initial_state(spec).turns == 1 and not game.initial_state(spec).drafts
    with pytest.raises(Exception, match="model"):
        game.scripted_player(GAME_MASTER, spec_of())
    with pytest.raises(Exception, match="no scripted player knows the rule"):
        game.scripted_player(PLAYER, spec_of())
