"""CK-Arena's snapshot QA benchmark: built from Undercover matches stored by the engine, asked of mock models."""

from __future__ import annotations

import asyncio
import json
import random
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from playeval.analysis.qa import (
    MIN_REASONABLENESS,
    MIN_RELEVANCE,
    QAError,
    QAItem,
    build_items,
    kept,
    read_items,
    write_items,
)
from playeval.analysis.qa_eval import (
    evaluate,
    item_messages,
    parse_choice,
    qa_win_correlation,
    read_calls,
    score,
    seat_win_rates,
)
from playeval.analysis.ratings import SeatResult
from playeval.analysis.sides import elo_games, stored_matches
from playeval.core import Ask, FormatError, Reply
from playeval.core.events import RoleAssignment, SeatAssignment
from playeval.core.registry import default_registry
from playeval.engine import play_match
from playeval.engine.match import state_from_events
from playeval.games.undercover import JUDGE, UNDERCOVER, Undercover
from playeval.games.undercover.pairs import load_pairs
from playeval.games.undercover.players import ScriptedJudge, ScriptedSeat
from playeval.games.undercover.state import UndercoverState
from playeval.models import ModelHub, ModelRequest
from playeval.store import Store

game = Undercover()
SEAT_MODELS = ("mock/a", "mock/a", "mock/b", "mock/b", "mock/c", "mock/c")
_SCORED = re.compile(r"^(player\d+)'s sentence, .*\(take (\d+)\)\.$")


class Voter:
    """Says the scripted sentences; votes for the first undercover agent offered (else the first seat)."""

    kind, model, max_retries = "scripted", None, 0

    def __init__(self, seat: str, sides: dict[str, str]) -> None:
        self._inner, self._sides = ScriptedSeat(seat), sides

    async def act(self, ask: Ask) -> Reply:
        if ask.kind == "vote":
            choices = ask.constraint.choices if ask.constraint and ask.constraint.choices else ()
            return Reply(text=next((c for c in choices if self._sides[c] == UNDERCOVER), choices[0]))
        return await self._inner.act(ask)


class Judge:
    """player3 is only partly relevant (0.5), player4 only partly reasonable (0.5: under the QA filter, above the
    rules' threshold), player5's round-2 sentence is false (0: the rules put it out); the rest pass the QA filter."""

    kind, model, max_retries = "scripted", None, 0

    async def act(self, ask: Ask) -> Reply:
        found = _SCORED.match(ask.display)
        assert found, ask.display
        seat, round_ = found.group(1), int(found.group(2))
        if ask.kind == "novelty":
            return Reply(text="no")  # not a repeat
        if ask.kind == "relevance":
            return Reply(text="partly" if seat == "player3" else "yes")
        if seat == "player4":
            return Reply(text="partly")
        return Reply(text="no" if seat == "player5" and round_ == 2 else "yes")


def play_run(store: Store, seeds: range, judge: object) -> str:
    run_id = store.create_run("undercover", 1, {})
    for index, seed in enumerate(seeds):
        spec = game.new_spec(1, seed, random.Random(seed))
        match_id = store.create_match(
            spec=spec, seats=[SeatAssignment(seat=s, player_kind="scripted", model=SEAT_MODELS[n])
                              for n, s in enumerate(spec.seats)],
            roles=[RoleAssignment(role=JUDGE, player_kind="scripted")], run_id=run_id, match_index=index)
        table: dict[str, object] = {seat: Voter(seat, spec.setup["sides"]) for seat in spec.seats}
        table[JUDGE] = judge
        outcome = asyncio.run(play_match(game, spec, table, store, match_id))  # type: ignore[arg-type]
        assert outcome.status == "finished"
    return run_id


@pytest.fixture
def stored(tmp_path: Path) -> tuple[str, str]:
    db = f"sqlite:///{tmp_path / 'qa.db'}"
    with Store.open(db) as store:
        return db, play_run(store, range(6), Judge())


def states(db: str, run_id: str) -> dict[str, UndercoverState]:
    with Store.open(db) as store:
        return {m.id: state_from_events(game, m.spec, store.events(m.id)) for m in store.run_matches(run_id)}


def built(db: str, run_id: str, seed: int = 0) -> list[QAItem]:
    with Store.open(db) as store:
        items, _ = build_items(store, [run_id], default_registry(), seed=seed)
    return items


# -- building ----------------------------------------------------------------------------------------------


def test_a_and_b_keep_only_statements_the_judges_found_relevant_and_reasonable(stored: tuple[str, str]) -> None:
    db, run_id = stored
    with Store.open(db) as store:
        items, report = build_items(store, [run_id], default_registry(), seed=0)
    games = states(db, run_id)
    statements = [(match_id, s) for match_id, state in games.items() for s in state.statements]
    passing = [(match_id, s) for match_id, s in statements if kept(s)]
    assert {s.seat for _, s in statements} >= {"player3", "player4"}
    assert report.statements == len(statements) and report.matches == 6
    assert report.low_relevance == sum(s.seat == "player3" for _, s in statements)
    assert report.low_reasonableness == sum(s.seat == "player4" or (s.seat == "player5" and s.round == 2)
                                            for _, s in statements)
    for task in ("A", "B"):
        chosen = [item for item in items if item.task == task]
        assert report.items[task] == len(chosen) == len(passing)
        assert {(item.match_id, item.round, item.seat) for item in chosen} == {
            (match_id, s.round, s.seat) for match_id, s in passing}
        assert not {item.seat for item in chosen} & {"player3", "player4"}
    for item in items:
        if item.task == "C":
            continue
        state = games[item.match_id]
        pair = state.spec.setup["pair"]
        statement = next(s for s in state.statements if s.round == item.round and s.seat == item.seat)
        assert statement.text in item.question and item.run_id == run_id
        assert item.category == pair["category"] and item.pair_id == pair["id"]
        word = state.word(item.seat)
        own = pair["civilian"] if word == pair["undercover"] else pair["undercover"]
        assert item.options[item.answer] == word
        if item.task == "A":
            assert sorted(item.options) == sorted([pair["civilian"], pair["undercover"]])
        else:
            assert len(item.options) == 4 and own not in item.options and f'"{own}"' in item.question
            same_category = {w for p in load_pairs() if p.category == item.category for w in (p.civilian, p.undercover)}
            if len(same_category - {word, own}) >= 3:
                assert set(item.options) <= same_category


def test_c_takes_its_odd_statement_only_from_seats_voted_out(stored: tuple[str, str]) -> None:
    db, run_id = stored
    games = states(db, run_id)
    items = [item for item in built(db, run_id) if item.task == "C"]
    judged_out = [(m, o) for m, state in games.items() for o in state.out if o.by == "judge"]
    assert judged_out and items  # the run has both, so the check below means something
    for item in items:
        state = games[item.match_id]
        out = next(o for o in state.out if o.seat == item.seat)
        assert out.by == "vote" and out.round == item.round
        concept = next(w for w in (state.spec.setup["pair"]["civilian"], state.spec.setup["pair"]["undercover"])
                       if w != state.word(item.seat))
        assert f'"{concept}"' in item.question and len(item.options) == 4 and len(item.sources) == 4
        for index, source in enumerate(item.sources):
            round_, seat = source.split(":")
            statement = next(s for s in state.statements if s.round == int(round_) and s.seat == seat)
            assert statement.text == item.options[index]
            if index == item.answer:
                assert seat == item.seat and int(round_) == item.round
            else:
                assert state.word(seat) == concept and int(round_) <= item.round and kept(statement)
    judged = {(m, o.seat) for m, o in judged_out}
    assert not {(item.match_id, item.seat) for item in items} & judged


def test_the_build_is_deterministic_for_a_seed_and_round_trips_through_jsonl(stored: tuple[str, str],
                                                                              tmp_path: Path) -> None:
    db, run_id = stored
    first, again, other = built(db, run_id, 1), built(db, run_id, 1), built(db, run_id, 2)
    assert first == again
    assert [i.id for i in first] == [i.id for i in other] and [i.options for i in first] != [i.options for i in other]
    assert len({item.answer for item in first if item.task == "B"}) > 1  # the right option is not always first
    path = tmp_path / "qa.jsonl"
    write_items(path, first)
    assert read_items(path) == first
    lines = path.read_text("utf-8").splitlines()
    assert len(lines) == len(first) and json.loads(lines[0])["answer"] == first[0].answer
    broken = tmp_path / "broken.jsonl"
    broken.write_text(lines[0] + "\n" + json.dumps({**json.loads(lines[1]), "answer": 9}) + "\n")
    with pytest.raises(QAError, match=r"broken.jsonl:2 "):
        read_items(broken)


def test_clear_errors_when_nothing_can_be_built(tmp_path: Path) -> None:
    with Store.open(f"sqlite:///{tmp_path / 'e.db'}") as store:
        plain = play_run(store, range(2), ScriptedJudge())  # every sentence scored relevance 0.5 (partly)
        empty = store.create_run("taboo", 1, {})
        with pytest.raises(QAError, match=f"run {empty} has no finished undercover matches"):
            build_items(store, [plain, empty], default_registry())
        with pytest.raises(QAError, match=rf"no QA item passed.*\d+ with relevance < {MIN_RELEVANCE}") as err:
            build_items(store, [plain], default_registry())
    statements = int(re.search(r"(\d+) statements", str(err.value)).group(1))  # type: ignore[union-attr]
    assert f"{statements} with relevance" in str(err.value) and statements > 0
    assert f"reasonableness < {MIN_REASONABLENESS}" in str(err.value) and "\n" not in str(err.value)


# -- asking ------------------------------------------------------------------------------------------------


def oracle(items: list[QAItem]) -> Callable[[ModelRequest], str]:
    answers = {item_messages(item)[-1].content: "ABCD"[item.answer] for item in items}
    return lambda request: answers[request.messages[1].content]


class Counting:
    def __init__(self, reply: str) -> None:
        self.reply, self.calls = reply, 0

    def __call__(self, request: ModelRequest) -> str:
        self.calls += 1
        return self.reply


async def test_accuracy_can_fail_and_unreadable_replies_are_re_asked_then_wrong(stored: tuple[str, str],
                                                                               tmp_path: Path) -> None:
    db, run_id = stored
    items = built(db, run_id)
    calls_path = tmp_path / "qa.calls.jsonl"
    scripts = {"first": lambda _: "A", "oracle": oracle(items), "late": lambda r: "B. because" if len(
        r.messages) > 2 else "no idea"}
    models = ["mock/first", "mock/oracle", "mock/garbage", "mock/late"]
    async with ModelHub(use_cache=False, mock_scripts=scripts) as hub:
        asked = await evaluate(items, {m: hub.get(m) for m in models}, calls_path, max_retries=2)
    assert asked == len(items) * len(models)
    calls = read_calls(calls_path)
    results = {(s.model, s.task): s for s in score(items, models, calls)}
    first_right = sum(item.answer == 0 for item in items)
    assert 0 < first_right < len(items)
    assert results["mock/first", "all"].right == first_right and results["mock/first", "all"].n == len(items)
    for task in ("A", "B", "C"):
        subset = [item for item in items if item.task == task]
        assert results["mock/first", task].n == len(subset)
        assert results["mock/first", task].right == sum(item.answer == 0 for item in subset)
    assert results["mock/oracle", "all"].accuracy == 1.0
    garbage = results["mock/garbage", "all"]
    assert garbage.right == 0 and garbage.unreadable == len(items)
    assert sum(c.model == "mock/garbage" for c in calls) == 3 * len(items)  # asked, then re-asked twice
    final = next(c for c in calls if c.model == "mock/garbage" and c.final)
    assert final.attempt == 2 and final.choice is None and final.correct is False and final.reason
    late = [c for c in calls if c.model == "mock/late"]
    assert len(late) == 2 * len(items) and results["mock/late", "all"].right == sum(i.answer == 1 for i in items)
    assert late[1].prompt[-1].content.startswith("That reply could not be read")
    assert final.call.model == "mock/garbage" and final.call.raw_output == final.reply
    low, high = results["mock/first", "all"].interval
    assert low is not None and high is not None and low < first_right / len(items) < high


async def test_an_evaluation_resumes_without_asking_again(stored: tuple[str, str], tmp_path: Path) -> None:
    db, run_id = stored
    items = built(db, run_id)
    calls_path = tmp_path / "qa.calls.jsonl"
    counter = Counting("A")
    async with ModelHub(use_cache=False, mock_scripts={"count": counter}) as hub:
        model = {"mock/count": hub.get("mock/count")}
        assert await evaluate(items[:5], model, calls_path) == 5
        assert await evaluate(items, model, calls_path) == len(items) - 5
        assert counter.calls == len(items)
        before = calls_path.read_text("utf-8")
        assert await evaluate(items, model, calls_path) == 0 and counter.calls == len(items)
        assert calls_path.read_text("utf-8") == before
        # a line cut short by an interruption: its item is asked again, nothing else
        lines = before.splitlines()
        calls_path.write_text("\n".join(lines[:-1]) + "\n" + lines[-1][:40])
        assert await evaluate(items, model, calls_path) == 1 and counter.calls == len(items) + 1
    assert len(read_calls(calls_path)) == len(items) and calls_path.read_text("utf-8").endswith("}\n")
    calls_path.write_text("not json\n" + calls_path.read_text("utf-8"))
    with pytest.raises(QAError, match=r"qa.calls.jsonl:1 is not a QA call record"):
        read_calls(calls_path)


def test_choices_are_read_leniently_but_not_guessed() -> None:
    options = ("lion", "tiger", "cat")
    assert [parse_choice(text, options) for text in ("B", " (c)", "A. lion", "tiger", "b) because")] == [1, 2, 0, 1, 1]
    for text in ("D", "", "maybe the lion", "~~"):
        with pytest.raises(FormatError):
            parse_choice(text, options)


# -- against win rate ----------------------------------------------------------------------------------------


def test_spearman_on_known_numbers() -> None:
    win = {"a": 0.8, "b": 0.6, "c": 0.4, "d": 0.2}
    result = qa_win_correlation({"a": 0.9, "b": 0.5, "c": 0.7, "d": 0.1}, win)
    assert result.rho == pytest.approx(1 - 6 * 2 / (4 * (16 - 1)))  # rank differences 0, 1, 1, 0
    tied = qa_win_correlation({"a": 0.5, "b": 0.5, "c": 0.9}, win)
    # accuracy ranks 1.5, 1.5, 3 against win-rate ranks 3, 2, 1: centred, (-.5, -.5, 1) and (1, 0, -1)
    assert tied.rho == pytest.approx(-1.5 / (1.5 * 2) ** 0.5) and "says little" in tied.note
    assert qa_win_correlation({"a": 0.9, "b": 0.1}, win).rho is None
    missing = qa_win_correlation({"a": 0.9, "b": 0.1, "c": 0.5, "x": 1.0}, win)
    assert missing.models == ("a", "b", "c") and missing.rho == pytest.approx(0.5)
    assert qa_win_correlation({"a": 0.5, "b": 0.5, "c": 0.5}, win).rho is None


def test_win_rate_counts_each_seat_a_model_held() -> None:
    def seat(model: str, won: bool, side: str = "civilian") -> SeatResult:
        return SeatResult(model=model, team=side, won=won, actual=1.0)

    games = [[seat("x", True), seat("x", True), seat("y", False, "undercover")],
             [seat("x", False), seat("y", True, "undercover"), seat("y", True, "undercover")]]
    assert seat_win_rates(games) == {"x": pytest.approx(2 / 3), "y": pytest.approx(2 / 3)}
    assert seat_win_rates(games[1:]) == {"x": 0.0, "y": 1.0}


# -- the commands --------------------------------------------------------------------------------------------


def test_build_and_eval_commands(stored: tuple[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from playeval.cli import qa_cmd
    from playeval.cli.main import app

    db, run_id = stored
    runner = CliRunner()
    out = tmp_path / "qa.jsonl"
    done = runner.invoke(app, ["qa", "build", run_id, "-o", str(out), "--seed", "3", "--db", db],
                         env={"COLUMNS": "200"})
    assert done.exit_code == 0, done.output
    items = read_items(out)
    counts = {task: sum(item.task == task for item in items) for task in "ABC"}
    assert f"wrote {len(items)} items" in done.output
    assert all(f"{task} ({name}) {counts[task]}" in done.output for task, name in
               (("A", "fine-grained comparison"), ("B", "cross-concept inference"), ("C", "outlier detection")))
    assert items == built(db, run_id, 3)

    # the models that held the run's seats, so each has a win rate to set its accuracy beside
    scripts = {"a": oracle(items), "b": lambda _: "A", "c": lambda _: "B"}
    monkeypatch.setattr(qa_cmd, "ModelHub", lambda use_cache: ModelHub(use_cache=False, mock_scripts=scripts))
    args = ["qa", "eval", str(out), "--models", "mock/a,mock/b", "--models", "mock/c", "--db", db]
    evaluated = runner.invoke(app, args, env={"COLUMNS": "250"})
    assert evaluated.exit_code == 0, evaluated.output
    calls = read_calls(tmp_path / "qa.calls.jsonl")
    assert len(calls) == 3 * len(items)
    row = next(line for line in evaluated.output.splitlines() if line.strip().startswith("mock/a"))
    assert "1.00 [" in row and f"({len(items)})" in row
    with Store.open(db) as store:
        games = elo_games(default_registry().get("undercover"), stored_matches(store, [run_id], "undercover"))
        rates = seat_win_rates(games)
    accuracy = {s.model: s.accuracy for s in score(items, ["mock/a", "mock/b", "mock/c"], calls) if s.task == "all"}
    expected = qa_win_correlation(accuracy, rates)
    assert len(expected.models) == 3 and f"{rates['mock/b']:.2f}" in evaluated.output
    shown = "n/a" if expected.rho is None else f"{expected.rho:.3f}"
    assert f"Spearman rho (overall QA accuracy vs Undercover win rate): {shown};" in evaluated.output
    again = runner.invoke(app, args, env={"COLUMNS": "250"})
    assert again.exit_code == 0 and f"0 answers to get, {3 * len(items)} already" in again.output

    with Store.open(db) as store:
        empty = store.create_run("taboo", 1, {})
    failed = runner.invoke(app, ["qa", "build", empty, "-o", str(tmp_path / "x.jsonl"), "--db", db])
    assert failed.exit_code != 0 and not (tmp_path / "x.jsonl").exists()
    assert isinstance(failed.exception, QAError) and "no finished undercover matches" in str(failed.exception)
