"""Undercover's rules on the pure state machine and whole games through the engine (issue 11)."""

from __future__ import annotations

import importlib.util
import os
import random
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import pytest

from playeval.analysis.ratings import SeatResult as RatedSeat
from playeval.analysis.ratings import team_elo
from playeval.analysis.sides import elo_games, elo_rule, stored_matches
from playeval.core import (
    Action,
    Ask,
    ConfigError,
    Disclosure,
    FormatError,
    LiveDisclosure,
    Reply,
    RuleViolation,
    disclosed_to,
)
from playeval.core.events import ActionApplied, ReplyRejected, SeatAssignment, SeatEliminated
from playeval.core.registry import default_registry
from playeval.engine import MemoryRecorder, play_match
from playeval.games.undercover import (
    CIVILIAN,
    JUDGE,
    SEAT_METRICS,
    UNDERCOVER,
    Undercover,
    UndercoverState,
    rules,
    seat_metrics,
)
from playeval.games.undercover.metrics import model_counts
from playeval.store import Store

game = Undercover()
PAIRS = (SimpleNamespace(id="p1", category="animals", pos="noun", civilian="lion", undercover="tiger"),
         SimpleNamespace(id="p2", category="food", pos="noun", civilian="butter", undercover="margarine"))


@pytest.fixture(autouse=True)
def _pairs(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(rules, "_load_pairs", lambda: PAIRS)
    yield


def start(seed: int = 4, **options: int | float) -> UndercoverState:
    return game.initial_state(game.new_spec(1, seed, random.Random(seed), options=options or None))


def say(seat: str, text: str = "It is found in many places") -> Action:
    return Action(seat=seat, kind="statement", text=text)


def scores(novelty: float = 1.0, relevance: float = 0.6, reasonableness: float = 1.0) -> Action:
    return Action(role=JUDGE, kind="scores", text="scores",
                  data={"novelty": novelty, "relevance": relevance, "reasonableness": reasonableness})


def vote(seat: str, target: str) -> Action:
    return Action(seat=seat, kind="vote", text=target)


def through_statements(state: UndercoverState, **low: tuple[float, float, float]) -> UndercoverState:
    while state.phase() != "vote" and game.outcome(state) is None:
        seat = state.next_speaker() or ""
        state = game.apply(state, say(seat, f"{seat} says something new in round {state.round}"))
        state = game.apply(state, scores(*low.get(seat, (1, .6, 1))))
    return state


def agents(state: UndercoverState) -> list[str]:
    return [seat for seat in state.table if state.side(seat) == UNDERCOVER]


def civilians(state: UndercoverState) -> list[str]:
    return [seat for seat in state.table if state.side(seat) == CIVILIAN]


# -- set-up and secrecy ------------------------------------------------------------------------------------


def test_the_setup_draws_a_pair_and_sides_from_the_seed() -> None:
    state = start()
    spec = state.spec
    assert spec.seats == tuple(f"player{n}" for n in range(1, 7))
    assert len(agents(state)) == 2 and len(civilians(state)) == 4
    pair = spec.setup["pair"]
    assert {state.word(s) for s in agents(state)} == {pair["undercover"]}
    assert {state.word(s) for s in civilians(state)} == {pair["civilian"]}
    again = game.new_spec(1, 4, random.Random(4))
    assert again == spec
    assert len({game.new_spec(1, seed, random.Random(seed)).setup["sides"].__repr__() for seed in range(8)}) > 1
    eight = start(players=8, undercover=3)
    assert len(eight.table) == 8 and len(agents(eight)) == 3
    for bad in ({"players": 4, "undercover": 2}, {"players": 3}, {"players": 9}):
        with pytest.raises(ConfigError):
            game.new_spec(1, 1, random.Random(1), options=bad)


def test_each_seat_is_disclosed_only_its_own_word() -> None:
    spec = start().spec
    for seat in spec.seats:
        [mine] = disclosed_to(game, spec, [seat], over=False)
        assert mine == LiveDisclosure(key=f"{seat}_word", value=spec.setup["words"][seat], label="Your word")
    revealed = disclosed_to(game, spec, [], over=True)
    assert len(revealed) == 6 and all(isinstance(item, Disclosure) and item.seats == (item.key.removesuffix("_word"),)
                                      for item in revealed)


class Recording:
    """A scripted seat that keeps every ask it was given."""

    def __init__(self, inner: object, asks: list[Ask]) -> None:
        self._inner, self._asks = inner, asks
        self.kind, self.model, self.max_retries = "scripted", None, 0

    async def act(self, ask: Ask) -> Reply:
        self._asks.append(ask)
        return await self._inner.act(ask)  # type: ignore[attr-defined]


async def _play(spec_seed: int, players: dict[str, object] | None = None, **options: int | float
                ) -> tuple[object, list[object], MemoryRecorder, str]:
    spec = game.new_spec(1, spec_seed, random.Random(spec_seed), options=options or None)
    recorder = MemoryRecorder()
    match_id = recorder.create_match(spec=spec, seats=[SeatAssignment(seat=s, player_kind="scripted")
                                                       for s in spec.seats])
    table = {party: game.scripted_player(party, spec) for party in (*spec.seats, JUDGE)}
    table.update(players or {})
    outcome = await play_match(game, spec, table, recorder, match_id)  # type: ignore[arg-type]
    return outcome, recorder.events[match_id], recorder, match_id


async def test_no_seat_is_ever_asked_with_another_seats_word() -> None:
    for seed in range(4):
        spec = game.new_spec(1, seed, random.Random(seed))
        asks: list[Ask] = []
        players = {seat: Recording(game.scripted_player(seat, spec), asks) for seat in spec.seats}
        outcome, *_ = await _play(seed, players)
        assert outcome.status == "finished"  # type: ignore[attr-defined]
        pair = spec.setup["pair"]
        for ask in asks:
            mine = spec.setup["words"][ask.seat]
            other = pair["undercover"] if mine == pair["civilian"] else pair["civilian"]
            text = " ".join([ask.display, ask.instructions, *(m.content for m in ask.messages)]).lower()
            assert mine in text and other not in text
            assert "undercover" not in ask.display.lower()


def test_the_vote_is_secret_and_its_result_does_not_depend_on_order() -> None:
    state = through_statements(start())
    asks = game.next_asks(state)
    assert [ask.seat for ask in asks] == list(state.table)
    for ask in asks:
        assert ask.constraint is not None and ask.constraint.choices == tuple(s for s in state.table if s != ask.seat)
        assert "<" not in ask.messages[-1].content  # seat names, never an object's repr
    after = game.apply(state, vote("player1", "player2"))
    assert {ask.seat: ask for ask in game.next_asks(after)} == {ask.seat: ask for ask in asks[1:]}
    assert not any("player1 ->" in text for _, text in game.transcript(after))
    votes = [vote(s, "player3" if s != "player3" else "player4") for s in state.table]
    ends = []
    for order in (votes, list(reversed(votes))):
        closed = state
        for action in order:
            closed = game.apply(closed, action)
        ends.append(closed)
    assert ends[0].out == ends[1].out and ends[0].tallies == ends[1].tallies
    assert ends[0].out[-1].seat == "player3" and ends[0].out[-1].by == "vote"


def test_a_tie_puts_nobody_out() -> None:
    state = through_statements(start(players=4, undercover=1))
    a, b, c, d = state.table
    for voter, target in ((a, b), (b, a), (c, a), (d, b)):
        state = game.apply(state, vote(voter, target))
    assert state.out == () and state.round == 2 and "A tie" in state.tallies[-1]


def test_a_forfeit_shows_where_it_happened_and_the_transcript_only_grows() -> None:
    state = start()
    first = state.next_speaker() or ""
    state = game.apply(game.apply(state, say(first)), scores())
    second = state.next_speaker() or ""
    state = game.eliminate(state, second, "no sentence it could say")
    shown = list(game.transcript(state))
    state = through_statements(state)
    lines = list(game.transcript(state))
    assert lines[:len(shown)] == shown  # later statements come after the forfeit, which stays where it was
    assert lines.index(("game", f"{second} is out: forfeit: no sentence it could say")) == 2  # a statement, scores
    state = _vote_out(state, next(seat for seat in state.alive() if seat != first))
    shown = list(game.transcript(state))
    assert state.round == 2 and game.outcome(state) is None
    gone = state.next_speaker() or ""
    state = game.eliminate(state, gone, "silent")  # the first speaker of round 2, before anything was said
    assert list(game.transcript(state)) == [*shown, ("game", f"{gone} is out: forfeit: silent")]


def test_a_low_score_puts_the_speaker_out_with_the_reason() -> None:
    state = start()
    first = state.next_speaker() or ""
    state = game.apply(game.apply(state, say(first)), scores(novelty=0.0))
    assert state.out[-1].seat == first and state.out[-1].reason == "Low novelty" and state.out[-1].by == "judge"
    second = state.next_speaker() or ""
    state = game.apply(game.apply(state, say(second, "another sentence")), scores(reasonableness=0.2))
    assert state.out[-1].reason == "Low reasonableness"
    third = state.next_speaker() or ""
    state = game.apply(game.apply(state, say(third, "a third sentence")), scores(novelty=0.2, reasonableness=0.4))
    assert third in state.alive()
    assert ("game", f"{first} is out: Low novelty") in list(game.transcript(state))
    strict = start(novelty_threshold=0.5)
    speaker = strict.next_speaker() or ""
    strict = game.apply(game.apply(strict, say(speaker)), scores(novelty=0.4))
    assert strict.out[-1].reason == "Low novelty"


def test_statements_and_judge_replies_are_read_strictly() -> None:
    state = start()
    ask = game.next_asks(state)[0]
    with pytest.raises(FormatError):
        game.parse(state, ask, "One sentence. And another one.")
    with pytest.raises(FormatError):
        game.parse(state, ask, "x" * 151)
    with pytest.raises(RuleViolation, match="your word"):
        game.apply(state, say(ask.seat or "", f"A {state.word(ask.seat or '').upper()}S lives here"))
    state = game.apply(state, say(ask.seat or ""))
    judge_ask = game.next_asks(state)[0]
    repeated = game.apply(state, scores())
    with pytest.raises(RuleViolation, match="already said"):  # the next speaker may not repeat it, in any case
        game.apply(repeated, say(repeated.next_speaker() or "", "it is FOUND in many places!"))
    assert judge_ask.role == JUDGE and judge_ask.kind == "novelty" and judge_ask.constraint is not None
    assert judge_ask.constraint.choices == ("yes", "partly", "no")
    action = game.parse(state, judge_ask, "Yes.")  # "does it only repeat?" yes: no novelty
    assert action.data == {"scale": "novelty", "answer": "yes", "value": 0.0}
    with pytest.raises(FormatError):
        game.parse(state, judge_ask, "novelty: 0.8")
    with pytest.raises(FormatError):
        game.parse(state, judge_ask, "yes\nno")


def test_a_panel_of_two_judges_answers_each_scale_in_turn_and_the_mean_decides() -> None:
    spec = game.new_spec(1, 5, random.Random(5), options={"judges": 2})
    state = game.initial_state(spec)
    speaker = state.next_speaker() or ""
    state = game.apply(state, say(speaker))
    asked: list[tuple[str | None, str]] = []
    # judge 1: a repeat (novelty 0), judge 2: partly (0.5): the mean 0.25 is above the 0.2 threshold
    for answer in ("yes", "yes", "yes", "partly", "no", "yes"):
        ask = game.next_asks(state)[0]
        asked.append((ask.role, ask.kind))
        with pytest.raises(RuleViolation):  # out of turn: the other member, or the wrong scale
            other = Action(role="judge#2" if ask.role == "judge" else "judge", kind="mark", text="x",
                           data={"scale": ask.kind, "answer": "yes", "value": 1.0})
            game.apply(state, other)
        state = game.apply(state, game.parse(state, ask, answer))
    assert asked == [("judge", "novelty"), ("judge", "relevance"), ("judge", "reasonableness"),
                     ("judge#2", "novelty"), ("judge#2", "relevance"), ("judge#2", "reasonableness")]
    item = state.statements[-1]
    assert item.judged_by == ("judge", "judge#2")
    mean = item.mean()
    assert mean is not None and (mean.novelty, mean.relevance, mean.reasonableness) == (0.25, 0.5, 1.0)
    assert speaker in state.alive() and state.phase() == "statement"


def test_the_speaking_order_rotates_each_round() -> None:
    state = start()
    assert state.speakers() == [f"player{n}" for n in range(1, 7)]
    state = through_statements(state)
    for seat in state.table:  # everyone votes player6 out
        state = game.apply(state, vote(seat, "player6" if seat != "player6" else "player1"))
    assert game.outcome(state) is None
    assert state.round == 2 and state.speakers() == ["player2", "player3", "player4", "player5", "player1"]
    assert game.next_asks(state)[0].seat == "player2"


def test_invalid_votes_are_refused_with_their_reason() -> None:
    state = through_statements(start())
    for target, reason in (("player9", "no player"), ("player1", "yourself")):
        with pytest.raises(RuleViolation, match=reason):
            game.apply(state, vote("player1", target))
    low = through_statements(start(), player2=(0, .6, 1))
    with pytest.raises(RuleViolation, match="already out"):
        game.apply(low, vote("player1", "player2"))


# -- whole games through the engine ------------------------------------------------------------------------


async def test_scripted_players_play_whole_games_deterministically() -> None:
    for seed in range(5):
        outcome, events, _, _ = await _play(seed)
        assert outcome.status == "finished" and outcome.winning_team in (CIVILIAN, UNDERCOVER)  # type: ignore[attr-defined]
        assert {r.team for r in outcome.results} == {CIVILIAN, UNDERCOVER}  # type: ignore[attr-defined]
        assert all(r.won == (r.team == outcome.winning_team) for r in outcome.results)  # type: ignore[attr-defined]
        again, events_again, _, _ = await _play(seed)
        assert again == outcome and events_again == events
        assert not [e for e in events if isinstance(e, ReplyRejected)]


class BadVoter:
    """Votes for a seat that does not exist, then for itself: both refused; then it abstains."""

    kind, model, max_retries = "scripted", None, 1

    def __init__(self, seat: str, inner: object) -> None:
        self._seat, self._inner = seat, inner

    async def act(self, ask: Ask) -> Reply:
        if ask.kind == "vote":
            return Reply(text="player42" if ask.attempt == 0 else self._seat)
        return await self._inner.act(ask)  # type: ignore[attr-defined]


async def test_an_invalid_vote_is_re_asked_then_recorded_as_an_abstention() -> None:
    spec = game.new_spec(1, 3, random.Random(3))
    outcome, events, _, _ = await _play(3, {"player2": BadVoter("player2", game.scripted_player("player2", spec))})
    rejected = [e for e in events if isinstance(e, ReplyRejected) and e.seat == "player2"]
    assert rejected[0].reason.startswith("there is no player 'player42'")
    assert "yourself" in rejected[1].reason
    abstained = [e.action for e in events if isinstance(e, ActionApplied) and e.action.kind == "abstain"]
    assert abstained and abstained[0].seat == "player2" and "yourself" in abstained[0].data["reason"]
    assert not [e for e in events if isinstance(e, SeatEliminated)]
    counts = model_counts(events, [SeatAssignment(seat=s, player_kind="scripted", model=f"m/{s}")
                                   for s in spec.seats])
    assert counts["m/player2"]["abstentions"] >= 1 and counts["m/player2"]["reasks"] == 2 * counts["m/player2"][
        "abstentions"]
    assert counts["m/player1"] == {"reasks": 0, "abstentions": 0}
    assert outcome.status == "finished"  # type: ignore[attr-defined]


def _vote_out(state: UndercoverState, target: str) -> UndercoverState:
    state = through_statements(state)
    for seat in state.alive():
        other = next(s for s in state.alive() if s != seat)
        state = game.apply(state, vote(seat, target if seat != target else other))
    return state


def test_civilians_win_when_every_undercover_agent_is_out() -> None:
    state = start()
    for agent in agents(state):
        state = _vote_out(state, agent)
    outcome = game.outcome(state)
    assert outcome is not None and outcome.winning_team == CIVILIAN
    assert set(outcome.winners) == set(civilians(state)) and outcome.rounds == 2
    voted = [r for r in outcome.results if r.team == UNDERCOVER]
    assert all(r.won is False and r.eliminated_round in (1, 2) and "voted out" in (r.elimination or "")
               for r in voted)
    metrics = seat_metrics(state)
    assert metrics[civilians(state)[0]]["vote_accuracy"] == 1.0 and metrics[agents(state)[0]]["out_by_vote"] == 1.0


def test_undercover_wins_at_parity_or_after_the_last_round() -> None:
    state = start()
    for civilian in civilians(state)[:2]:
        state = _vote_out(state, civilian)
    outcome = game.outcome(state)
    assert outcome is not None and outcome.winning_team == UNDERCOVER and "as many" in outcome.reason
    short = start(max_rounds=1)
    short = _vote_out(short, civilians(short)[0])
    outcome = game.outcome(short)
    assert outcome is not None and outcome.winning_team == UNDERCOVER and "after 1 rounds" in outcome.reason
    assert outcome.rounds == 1


def test_the_game_is_registered() -> None:
    registered = default_registry().get("undercover")
    assert isinstance(registered, Undercover) and [r.name for r in registered.roles] == [JUDGE]
    assert {m.name for m in SEAT_METRICS} == set(seat_metrics(start())["player1"])


@pytest.mark.skipif(importlib.util.find_spec("playeval.games.undercover.pairs") is None,
                    reason="the concept pairs (playeval.games.undercover.pairs) are not there yet")
def test_a_batch_run_with_mock_players(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'u.db'}"
    command = shutil.which("playeval", path=str(Path(sys.executable).parent)) or shutil.which("playeval")
    assert command
    done = subprocess.run([command, "run", "undercover", "--models", "mock/player", "--role", "judge=mock/player",
                           "--n", "2", "--seed", "5", "--db", db], capture_output=True, text=True,
                          env={**os.environ, "COLUMNS": "200"}, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    with Store.open(db) as store:
        run_id = store.latest_run_id()
        assert run_id is not None
        matches = store.run_matches(run_id)
        assert len(matches) == 2 and all(m.status == "finished" for m in matches)
        for match in matches:
            assert match.outcome is not None and match.outcome.winning_team in (CIVILIAN, UNDERCOVER)
            assert len(match.seats) == 6 and match.roles[0].role == JUDGE
            events = store.events(match.id)
            kinds = {e.action.kind for e in events if isinstance(e, ActionApplied)}
            assert {"statement", "mark", "vote"} <= kinds
    games = undercover_games_of(db, run_id)
    assert len(games) == 2 and all(len(game) == 6 for game in games)
    elo = subprocess.run([command, "analyze", "elo", run_id, "--resamples", "50", "--db", db], capture_output=True,
                         text=True, env={**os.environ, "COLUMNS": "200"}, timeout=120, check=False)
    assert elo.returncode == 0, elo.stderr
    assert Undercover.teams is not None
    # one model in every seat: its civilian and undercover seats
    rating = team_elo(games, elo_rule(Undercover.teams))["mock/player"]
    assert f"{rating:.1f}" in elo.stdout and "team Elo over 2 undercover games" in elo.stdout


def undercover_games_of(db: str, run_id: str) -> list[list[RatedSeat]]:
    with Store.open(db) as store:
        return elo_games(default_registry().get("undercover"), stored_matches(store, [run_id], "undercover"))


def test_a_match_recorded_before_the_repeat_rule_still_folds() -> None:
    state = start()
    old = replace(state, spec=state.spec.model_copy(update={"params": {
        key: value for key, value in state.spec.params.items() if key != "repeats"}}))
    first = old.next_speaker() or ""
    old = game.apply(game.apply(old, say(first, "same words")), scores())
    second = old.next_speaker() or ""
    assert game.apply(old, say(second, "same words")).statements[-1].text == "same words"


def test_a_judge_panel_binding_seats_one_member_per_model_and_tells_the_spec() -> None:
    from playeval.engine.plan import RunConfig, plan_matches

    registry = default_registry()
    config = RunConfig(games=("undercover",), models=("mock/player",), opponent="mock/player", n=1,
                       roles={"judge": "mock/a, scripted"})
    [planned] = plan_matches(config, registry, "mock/player")
    assert planned.spec.params["judges"] == 2
    assert [(r.role, r.player_kind, r.model) for r in planned.roles] == [
        ("judge", "llm", "mock/a"), ("judge#2", "scripted", None)]
    single = plan_matches(config.model_copy(update={"roles": {"judge": "mock/a"}}), registry, "mock/player")
    assert single[0].spec.params["judges"] == 1 and [r.role for r in single[0].roles] == ["judge"]
    with pytest.raises(ConfigError, match="takes one model"):  # only a panel role takes several
        plan_matches(RunConfig(games=("math",), models=("mock/player",), opponent="mock/player", n=1,
                               roles={"game_master": "mock/a,mock/b"}), registry, "mock/player")


async def test_two_judges_play_a_match_each_asked_as_its_panel_member() -> None:
    asked: list[str] = []

    class Counting:
        kind, model, max_retries = "scripted", None, 0

        async def act(self, ask: Ask) -> Reply:
            asked.append(ask.role or "")
            return Reply(text="no" if ask.kind == "novelty" else "yes")

    outcome, events, _, _ = await _play(3, {"judge": Counting(), "judge#2": Counting()}, judges=2)
    assert getattr(outcome, "status", None) == "finished"
    assert asked.count("judge") == asked.count("judge#2") > 0
    roles = [e.action.role for e in events if isinstance(e, ActionApplied) and e.action.kind == "mark"]
    assert roles[:6] == ["judge"] * 3 + ["judge#2"] * 3


def test_a_sentence_copied_from_the_instructions_is_refused_and_a_description_is_not() -> None:
    state = start()
    ask = game.next_asks(state)[0]
    for copied in ("It is your turn: write one new sentence about your word.",  # seen from the local models
                   "Write one sentence about your word.", "You are player1 in a party game of hidden words."):
        with pytest.raises(FormatError, match="instructions"):
            game.parse(state, ask, copied)
    for described in ("It is a building where people live and work.", "It is your favourite thing to eat.",
                      "It has four strings and is played with a bow."):
        assert game.parse(state, ask, described).text == described


def test_a_reply_with_two_answers_is_a_format_error() -> None:
    state = start()
    ask = game.next_asks(state)[0]
    with pytest.raises(FormatError, match="one line"):
        game.parse(state, ask, "It is found in many places\nIt is old")
    state = game.apply(state, say(ask.seat or ""))
    judge_ask = game.next_asks(state)[0]
    for two in ("yes\nno", "Yes.\nPartly.", "no\n\nyes"):
        with pytest.raises(FormatError, match="one answer, not two"):
            game.parse(state, judge_ask, two)
    assert game.parse(state, judge_ask, "partly\n").data["answer"] == "partly"
    voting = through_statements(start())
    vote_ask = next(ask for ask in game.next_asks(voting) if ask.kind == "vote")
    with pytest.raises(FormatError, match="one vote, not two"):
        game.parse(voting, vote_ask, "player2\nplayer3")
    assert game.parse(voting, vote_ask, "player2\n").text == "player2"
