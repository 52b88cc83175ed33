"""Importing an export (``Store.import_run``, ``playeval import``), and the checks that reading one makes.

Round trips both ways, on SQLite and (marked postgres) PostgreSQL: a store's run exported, imported into another
store and exported again gives the same bytes; a file imported, exported and imported again gives equal records.
"""

from __future__ import annotations

import io
import json
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from bad_stores import run_main
from store_factories import call, outcome, seats, spec

from playeval.core.errors import PlayevalError
from playeval.core.events import ActionApplied, AskIssued, ReplyReceived, RoleAssignment
from playeval.core.match import Action
from playeval.store import DuplicateRun, ExportedRun, Store, export_run_jsonl, read_run_jsonl


@pytest.fixture
def other_url(db_url: str, tmp_path: Path, request: pytest.FixtureRequest) -> Callable[[], str]:
    """Makes further empty databases on the backend of ``db_url``."""
    def make() -> str:
        if db_url.startswith("sqlite"):
            return f"sqlite:///{tmp_path / f'other-{secrets.token_hex(3)}.db'}"
        url: str = request.getfixturevalue("postgres_server").create_database(f"t_{secrets.token_hex(6)}")
        return url
    return make


def _play(store: Store, models: tuple[str, str] = ("mock/echo", "mock/judge")) -> str:
    """A run of three matches: finished (with retrospective outputs), interrupted with a reason, still running;
    calls of a seat and of a role, in ids that interleave across matches."""
    run_id = store.create_run("akinator", 2, {"models": [models[0]], "n": 3, "seed": 11, "nested": {"b": 1, "a": 2}})
    roles = (RoleAssignment(role="judge", player_kind="llm", model=models[1]),)
    match_ids = [store.create_match(spec=spec(seed=index), seats=seats(), roles=roles, run_id=run_id,
                                    match_index=index, evaluated_model=models[0]) for index in range(3)]
    for turn in range(2):
        for match_id in match_ids:
            store.append_event(match_id, AskIssued(seat="guesser", kind="question", attempt=0))
            ids = store.add_calls(match_id, [call(f"Question {turn + 1}: alive?"), call("again", cached=True)],
                                  seat="guesser")
            store.mark_calls(ids, parsed=f"alive {turn}?", error=None)
            store.add_calls(match_id, [call("verdict: fine")], role="judge")
            store.append_event(match_id, ReplyReceived(seat="guesser", text="Question: alive?", call_ids=tuple(ids)))
            store.append_event(match_id, ActionApplied(action=Action(seat="guesser", kind="question",
                                                                     text="alive?")))
    store.finish_match(match_ids[0], outcome())
    store.add_retro(match_ids[0], 1, "candidates", models[1], output=["giraffe", "okapi"], error=None,
                    calls=[call("giraffe, okapi")])
    store.add_retro(match_ids[0], 2, "judgement", models[1], output={"level": 4, "reason": "fits"}, error=None,
                    calls=[call("4: fits")])
    store.set_unfinished_matches(run_id, "interrupted", "the provider went away")
    store.set_unfinished_matches(run_id, "running")
    store.set_unfinished_matches(run_id, "interrupted", "a signal")
    return run_id


def _export(store: Store, run_id: str) -> str:
    out = io.StringIO()
    export_run_jsonl(store, run_id, out)
    return out.getvalue()


def test_export_import_export_gives_the_same_bytes(db_url: str, other_url: Callable[[], str]) -> None:
    with Store.open(db_url) as source:
        run_id = _play(source)
        first = _export(source, run_id)
    with Store.open(other_url()) as target:
        ids = target.import_run(read_run_jsonl(io.StringIO(first)))
        assert ids and all(old == new for old, new in ids.items())
        assert _export(target, run_id) == first
        target.add_calls(None, [call("after the import")])  # the id sequence went on above the imported ids


def test_import_export_import_gives_equal_records(db_url: str, other_url: Callable[[], str]) -> None:
    with Store.open(db_url) as source:
        text = _export(source, _play(source))
    exported = read_run_jsonl(io.StringIO(text))
    with Store.open(other_url()) as middle:
        middle.import_run(exported)
        again = read_run_jsonl(io.StringIO(_export(middle, exported.run.id)))
    with Store.open(other_url()) as last:
        last.import_run(again)
        assert read_run_jsonl(io.StringIO(_export(last, exported.run.id))) == again == exported


def test_calls_take_new_ids_where_theirs_are_taken(db_url: str, other_url: Callable[[], str]) -> None:
    with Store.open(db_url) as source:
        text = _export(source, _play(source))
    exported = read_run_jsonl(io.StringIO(text))
    with Store.open(other_url()) as target:
        _play(target, ("mock/other", "mock/other-judge"))  # a run of its own holds the same call ids
        ids = target.import_run(exported)
        assert set(ids) == {c.id for item in exported.matches for c in item.calls}
        assert all(new > old for old, new in ids.items())
        back = read_run_jsonl(io.StringIO(_export(target, exported.run.id)))
        target.add_calls(None, [call("after the import")])
    assert [item.match for item in back.matches] == [item.match for item in exported.matches]
    for before, after in zip(exported.matches, back.matches, strict=True):
        assert [c.model_copy(update={"id": ids[c.id]}) for c in before.calls] == list(after.calls)
        replies = [(r.event, a.event) for r, a in zip(before.events, after.events, strict=True)
                   if isinstance(r.event, ReplyReceived)]
        assert replies and all(isinstance(new, ReplyReceived) and new.call_ids == tuple(ids[i] for i in old.call_ids)
                               for old, new in replies)
        assert [r.call_ids for r in after.retro] == [tuple(ids[i] for i in r.call_ids) for r in before.retro]


def test_importing_a_run_already_there_is_refused_and_changes_nothing(db_url: str) -> None:
    with Store.open(db_url) as store:
        run_id = _play(store)
        text = _export(store, run_id)
        with pytest.raises(DuplicateRun, match=f"already holds run {run_id}; nothing was imported"):
            store.import_run(read_run_jsonl(io.StringIO(text)))
        assert _export(store, run_id) == text and len(store.list_runs()) == 1


def test_a_match_already_there_refuses_the_whole_import(tmp_path: Path) -> None:
    with Store.open(f"sqlite:///{tmp_path / 'a.db'}") as store:
        exported = read_run_jsonl(io.StringIO(_export(store, _play(store))))
        matches = tuple(item.model_copy(update={"match": item.match.model_copy(update={"run_id": "another"})})
                        for item in exported.matches)
        renamed = exported.model_copy(update={"run": exported.run.model_copy(update={"id": "another"}),
                                              "matches": matches})
        with pytest.raises(DuplicateRun, match=f"already holds match {exported.matches[0].match.id} of run another"):
            store.import_run(renamed)
        assert [run.id for run in store.list_runs()] == [exported.run.id]


# -- reading checks ----------------------------------------------------------------------------------------------

@pytest.fixture
def lines(tmp_path: Path) -> list[dict[str, Any]]:
    with Store.open(f"sqlite:///{tmp_path / 'lines.db'}") as store:
        return [json.loads(line) for line in _export(store, _play(store)).splitlines()]


def _read(lines: list[dict[str, Any]]) -> ExportedRun:
    return read_run_jsonl(json.dumps(line) for line in lines)


def _finished(lines: list[dict[str, Any]]) -> dict[str, Any]:
    return next(line for line in lines if line.get("status") == "finished")


def test_the_unchanged_file_reads(lines: list[dict[str, Any]]) -> None:
    assert len(_read(lines).matches) == 3


@pytest.mark.parametrize(("change", "problem"), [
    (lambda events: events.pop(2), "event seq 3 is missing (the log goes on at seq 4)"),
    (lambda events: events.insert(3, events[2]), "event seq 3 appears twice"),
    (lambda events: events.insert(1, events.pop(3)), "events out of order (seq 2 after seq 4)"),
    (lambda events: events.pop(), "its status is finished but its log does not end with match_ended"),
    (lambda events: events.pop(0), "event seq 1 is missing"),
])
def test_a_log_with_an_event_removed_repeated_or_moved_is_refused(lines: list[dict[str, Any]],
                                                                 change: Callable[[list[Any]], Any],
                                                                 problem: str) -> None:
    line = _finished(lines)
    change(line["events"])
    number = lines.index(line) + 1
    with pytest.raises(PlayevalError) as caught:
        _read(lines)
    assert str(caught.value).startswith(f"line {number}: match {line['id']}: {problem}")


def test_a_repeated_match_is_refused(lines: list[dict[str, Any]]) -> None:
    with pytest.raises(PlayevalError, match=f"line 5: match {lines[2]['id']} appears twice"):
        _read([*lines, lines[2]])
    other = {**lines[2], "id": "f" * 16}
    with pytest.raises(PlayevalError, match=f"line 5: match {'f' * 16}: a second match with index 1 "
                                            f"\\(match {lines[2]['id']} has it\\)"):
        _read([*lines, other])


def test_a_match_of_another_run_and_a_missing_call_are_refused(lines: list[dict[str, Any]]) -> None:
    stray = {**lines[1], "run_id": "elsewhere"}
    with pytest.raises(PlayevalError, match=r"line 2: match \w+ belongs to run 'elsewhere'"):
        _read([lines[0], stray, *lines[2:]])
    line = _finished(lines)
    line["calls"] = line["calls"][1:]
    with pytest.raises(PlayevalError, match=r"seq 3 names model call \d+, which is not in the file"):
        _read(lines)


def test_a_cut_short_line_is_named_by_its_number(lines: list[dict[str, Any]]) -> None:
    text = "\n".join(json.dumps(line) for line in lines)
    cut = text[:len(text) - 200]
    with pytest.raises(PlayevalError, match=r"^line 4: not a whole JSON line \(.*\); the file was cut short"):
        read_run_jsonl(io.StringIO(cut))
    broken = [*lines[:2], {**lines[2], "seed": "seven"}]
    with pytest.raises(PlayevalError, match=r"^line 3: invalid seed: "):
        _read(broken)


# -- the command -------------------------------------------------------------------------------------------------

def test_playeval_import_loads_a_file_and_refuses_it_twice(tmp_path: Path) -> None:
    with Store.open(f"sqlite:///{tmp_path / 'a.db'}") as store:
        run_id = _play(store)
        text = _export(store, run_id)
    export = tmp_path / "run.jsonl"
    export.write_text(text, encoding="utf-8")
    target = f"sqlite:///{tmp_path / 'b.db'}"
    code, _, err = run_main(["import", str(export), "--db", target])
    assert code == 0, err
    assert f"imported run {run_id} (3 matches, 20 model calls)" in err
    code, _, err = run_main(["export", run_id, "--db", target])
    assert code == 0 and _ == text
    code, _, err = run_main(["import", str(export), "--db", target])
    assert (code, err.strip()) == (2, f"error: the database already holds run {run_id}; nothing was imported")
    export.write_text(text[:-100], encoding="utf-8")
    code, _, err = run_main(["import", str(export), "--db", f"sqlite:///{tmp_path / 'c.db'}"])
    assert code == 2 and err.startswith("error: line 4: not a whole JSON line") and err.count("\n") == 1
    assert not (tmp_path / "c.db").exists()  # a file that cannot be read creates no database
    code, _, err = run_main(["import", str(tmp_path / "missing.jsonl")])
    assert (code, err.strip()) == (2, f"error: cannot read {tmp_path / 'missing.jsonl'}: No such file or directory")
