"""``playeval analyze agreement`` on a stored run whose math judge is a panel of two scripted models: the members'
agreement (unanimous share, Cohen's kappa) counted straight from the log, the panel and each member against the
rule-application check, what decided each verdict, and the ``--json`` form.

The run: eight math matches, ``mock/player`` in the player's seat (it asks for more twice, then guesses vaguely
each turn and answers the check with zeros, so every check fails), and two judges that read the concealed rule:
``first`` refuses subtractions, ``second`` subtractions and divisions. On a division they tie, and their
probabilities (0.8 and 0.45, mean 0.625) accept it.
"""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from types import SimpleNamespace

import pytest
from typer.testing import CliRunner

from playeval.analysis.agreement import cohen_kappa
from playeval.analysis.judge_agreement import agreement_rows, match_verdicts, run_agreement
from playeval.cli.main import app
from playeval.core.events import ActionApplied, Event
from playeval.core.match import Action
from playeval.core.registry import default_registry
from playeval.core.verdicts import recorded_verdicts
from playeval.engine import BatchRunner, RunConfig, create_run
from playeval.games.akinator import GUESSER, Akinator
from playeval.games.undercover import Undercover
from playeval.games.undercover import rules as undercover_rules
from playeval.guess_rule.base import CONCEALED
from playeval.models import ModelHub, ModelRequest, ProviderResult
from playeval.store import Store


def _statement(request: ModelRequest) -> str:
    line = next(m.content for m in request.messages if m.role == "user" and m.content.startswith(CONCEALED))
    return line.splitlines()[0].removeprefix(CONCEALED)


def _judge(refuses: tuple[str, ...], p_yes: float, p_no: float):  # type: ignore[no-untyped-def]
    def reply(request: ModelRequest) -> ProviderResult:
        accepted = not any(word in _statement(request) for word in refuses)
        p_accept = p_yes if accepted else p_no
        return ProviderResult(text=f"Verdict: {'yes' if accepted else 'no'}\nReason: read the rule.",
                              answer_probs=({"yes": p_accept, "no": 1 - p_accept},))
    return reply


SCRIPTS = {"first": _judge(("subtract",), 0.8, 0.3), "second": _judge(("divide", "subtract"), 0.6, 0.45)}


async def _play(db: str) -> str:
    registry = default_registry()
    config = RunConfig(games=("math",), models=("mock/player",), opponent="mock/player", n=8, seed=1,
                       roles={"judge": "mock/first,mock/second"}, options={"math": {"max_turns": 5}})
    with Store.open(db) as store:
        run_id = create_run(store, registry, config)
        async with ModelHub(use_cache=False, mock_scripts=SCRIPTS) as hub:
            await BatchRunner(store, hub, registry).run(run_id)
    return run_id


@pytest.fixture(scope="module")
def panel_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    db = f"sqlite:///{tmp_path_factory.mktemp('agreement') / 'panel.db'}"
    return db, asyncio.run(_play(db))


def _pairs(db: str, run_id: str) -> tuple[list[bool], list[bool], int]:
    """The two members' verdicts on each question, read off the log (they answer in turn: judge, then judge#2),
    and the verdicts recorded."""
    first: list[bool] = []
    second: list[bool] = []
    recorded = 0
    with Store.open(db, write=False) as store:
        for match in store.run_matches(run_id):
            assert match.spec.params["judges"] == 2
            actions = [e.action for e in store.events(match.id) if isinstance(e, ActionApplied) and e.action.role]
            assert [a.role for a in actions] == ["judge", "judge#2"] * (len(actions) // 2)
            first += [a.text == "yes" for a in actions[0::2]]
            second += [a.text == "yes" for a in actions[1::2]]
            recorded += sum(len(recorded_verdicts(a.data)) for a in actions)
    return first, second, recorded


def test_the_members_agreement_is_counted_from_the_log_and_printed_with_its_kappa(panel_run: tuple[str, str]) -> None:
    db, run_id = panel_run
    first, second, recorded = _pairs(db, run_id)
    assert set(first) == set(second) == {True, False}  # both members accepted and refused: the kappa is defined
    kappa = cohen_kappa(first, second)
    assert kappa is not None
    unanimous = sum(a == b for a, b in zip(first, second, strict=True)) / len(first)
    with Store.open(db, write=False) as store:
        found = run_agreement(store, run_id, default_registry(), resamples=200)
    [row] = found.agreement
    assert (row.game, row.role, row.kind, row.members, row.method) == ("math", "judge", "verdict", 2, "cohen")
    assert row.questions == len(first) == found.panels and row.left_out == 0
    assert row.kappa == pytest.approx(kappa) and row.unanimous == pytest.approx(unanimous)
    assert row.kappa_low is not None and row.kappa_high is not None and row.kappa_low <= kappa <= row.kappa_high
    [decided] = found.decided
    assert (decided.game, decided.kind, decided.word, decided.threshold, decided.rules, decided.unrecorded) == (
        "math", "verdict", recorded, 0, 0, 0)
    assert recorded == 2 * len(first)

    result = CliRunner().invoke(app, ["analyze", "agreement", run_id, "--db", db, "--resamples", "200"],
                                env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "agreement of judge panels" in result.output and "Cohen" in result.output
    assert f"{kappa:.2f} [" in result.output and f"{unanimous:.1%}" in result.output
    assert "against the rule-application check" in result.output


def test_the_panel_and_each_member_are_set_against_the_check(panel_run: tuple[str, str]) -> None:
    db, run_id = panel_run
    first, second, _ = _pairs(db, run_id)
    with Store.open(db, write=False) as store:
        found = run_agreement(store, run_id, default_registry(), resamples=50)
    rows = {check.judge: check for check in found.checks}
    assert list(rows) == ["panel", "judge", "judge#2"]
    # mock/player answers every check with zeros: no guess passes, so a verdict agrees when it refuses
    assert (rows["judge"].judged, rows["judge"].agree) == (len(first), first.count(False))
    assert (rows["judge#2"].judged, rows["judge#2"].agree) == (len(second), second.count(False))
    assert rows["judge"].model == "mock/first" and rows["judge#2"].model == "mock/second"
    ties = [(a, b) for a, b in zip(first, second, strict=True) if a != b]
    assert ties and all(a and not b for a, b in ties)  # divisions: accepted on the mean probability
    refused = sum(1 for a, b in zip(first, second, strict=True) if not a and not b)
    assert refused and rows["panel"].judged == len(first) and rows["panel"].agree == refused


def test_the_json_form_holds_every_number(panel_run: tuple[str, str]) -> None:
    db, run_id = panel_run
    result = CliRunner().invoke(app, ["analyze", "agreement", run_id, "--db", db, "--json", "--resamples", "50"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert set(data) == {"run_id", "passing", "agreement", "checks", "decided", "panels"}
    assert data["run_id"] == run_id and data["passing"] == 0.8
    [row] = data["agreement"]
    assert set(row) == {"game", "role", "kind", "members", "questions", "left_out", "unanimous", "unanimous_low",
                        "unanimous_high", "method", "kappa", "kappa_low", "kappa_high"}
    assert {check["judge"] for check in data["checks"]} == {"panel", "judge", "judge#2"}
    assert set(data["decided"][0]) == {"game", "kind", "word", "threshold", "rules", "unrecorded"}


def test_a_run_with_one_scripted_judge_says_it_has_no_panel_and_counts_its_verdicts_unrecorded(
        tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'single.db'}"
    result = CliRunner().invoke(app, ["run", "math", "--models", "mock/player", "--role", "judge=scripted",
                                      "--option", "max_turns=4", "--n", "1", "--db", db])
    assert result.exit_code == 0, result.output
    with Store.open(db, write=False) as store:
        run_id = store.latest_run_id()
    assert run_id is not None
    shown = CliRunner().invoke(app, ["analyze", "agreement", run_id, "--db", db], env={"COLUMNS": "200"})
    assert shown.exit_code == 0, shown.output
    assert "has no panel of two or more judges" in shown.output
    assert "what decided the verdicts" in shown.output
    with Store.open(db, write=False) as store:
        found = run_agreement(store, run_id, default_registry(), resamples=50)
    assert found.agreement == () and found.panels == 0
    [decided] = found.decided
    assert (decided.word, decided.threshold, decided.rules, decided.unrecorded) == (0, 0, 0, 1)
    [check] = found.checks  # the scripted judge refused the vague guess, and the zeros failed the check: agreed
    assert (check.judge, check.model, check.judged, check.agree) == ("judge", "scripted", 1, 1)


def test_undercover_scales_and_an_akinator_panel_are_each_a_question_per_ask(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Undercover's two judges answer a sentence's three scales in turn (judge's three, then judge#2's): each scale
    is a question of its own, read as passed or not; Akinator's three judges give a Fleiss row."""
    monkeypatch.setattr(undercover_rules, "_load_pairs", lambda: (SimpleNamespace(
        id="p1", category="animals", pos="noun", civilian="lion", undercover="tiger"),))
    game = Undercover()
    spec = game.new_spec(1, 5, random.Random(5), options={"judges": 2})
    state = game.initial_state(spec)
    events: list[Event] = []
    # answers per sentence: judge's novelty, relevance, reasonableness, then judge#2's
    replies = (("no", "yes", "yes", "no", "yes", "no"), ("yes", "partly", "yes", "no", "no", "yes"))
    for number, answers in enumerate(replies):
        said = Action(seat=state.next_speaker(), kind="statement", text=f"It is something new, take {number}")
        events.append(ActionApplied(action=said))
        state = game.apply(state, said)
        for answer in answers:
            [ask] = game.next_asks(state)
            action = game.parse(state, ask, answer)
            events.append(ActionApplied(action=action))
            state = game.apply(state, action)
    found = match_verdicts(game, "m1", spec, events)
    assert [(q.kind, q.members, q.ratings()) for q in found.questions] == [
        # novelty passes unless the sentence "only repeats" (yes); relevance needs yes; reasonableness yes or partly
        ("novelty", 2, (True, True)), ("relevance", 2, (True, True)), ("reasonableness", 2, (True, False)),
        ("novelty", 2, (False, True)), ("relevance", 2, (False, False)), ("reasonableness", 2, (True, True))]
    assert found.decided == {("undercover", scale): {"word": 0, "threshold": 0, "rules": 0, "unrecorded": 4}
                             for scale in ("novelty", "relevance", "reasonableness")}
    rows = agreement_rows(found.questions, resamples=20)
    assert [(row.kind, row.method, row.questions, row.unanimous) for row in rows] == [
        ("novelty", "cohen", 2, 0.5), ("reasonableness", "cohen", 2, 0.5), ("relevance", "cohen", 2, 1.0)]
    assert rows[2].kappa == 1.0

    akinator = Akinator()
    spec = akinator.new_spec(1, 3, random.Random(3), inputs={"secret": "sofa"}, options={"judges": 3})
    moves = [Action(seat=GUESSER, kind="guess", text="a couch"), *(Action(role=role, kind="confirm", text=word)
             for role, word in zip(("judge", "judge#2", "judge#3"), ("No", "Yes", "No"), strict=True)),
             Action(seat=GUESSER, kind="guess", text="a couch"), *(Action(role=role, kind="confirm", text="No")
             for role in ("judge", "judge#2", "judge#3"))]
    found = match_verdicts(akinator, "m2", spec, [ActionApplied(action=move) for move in moves])
    assert [q.ratings() for q in found.questions] == [(False, True, False), (False, False, False)]  # asked twice
    [row] = agreement_rows(found.questions, resamples=20)
    assert (row.game, row.kind, row.members, row.method, row.questions, row.unanimous) == (
        "akinator", "confirm", 3, "fleiss", 2, 0.5)


def test_a_guess_the_rules_accepted_gives_the_judge_no_agreement_with_the_check() -> None:
    """No judge was asked about a guess the rules accepted, so it is no evidence for or against any judge."""
    import random
    from types import SimpleNamespace

    from playeval.analysis.judge_agreement import _check_pairs
    from playeval.core.match import Action
    from playeval.games.math import MathGame, held_out

    game = MathGame()
    spec = game.new_spec(1, 0, random.Random(0))  # the rule "divide by 3"
    state = game.initial_state(spec)
    [ask] = game.next_asks(state)
    state = game.apply(state, game.parse(state, ask, "GUESS: divide by 3"))
    answers = "\n".join(str(following) for _, _, following in held_out(game.rule_of(spec)) or [])
    state = game.apply(state, Action(seat="player", kind="apply", text=answers))
    assert state.guesses[-1].decided == "rules"
    assert _check_pairs(game, SimpleNamespace(roles=[]), state, 0.5) == []  # type: ignore[arg-type]
