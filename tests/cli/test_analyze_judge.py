"""``playeval analyze judge`` end to end with scripted judges that give their answers' probabilities: a fit on one
case file, a measure on another with the saved calibration, --json, panels, and bad case files.

The judges are mocks (no real model runs): ``lenient`` always says yes but is more sure of right guesses, so a
threshold on its probability fixes its false accepts; ``strict`` always says no and gives no probabilities;
``fair`` says the right verdict and is sure of it.
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from playeval.cli import judge_cmd
from playeval.cli.main import app
from playeval.models import ModelHub, ModelRequest, ProviderResult

RIGHT = [f"add {n} each time" for n in range(1, 9)]
WRONG = [f"multiply by {n} each time" for n in range(1, 9)]
TRUTH = {**dict.fromkeys(RIGHT, True), **dict.fromkeys(WRONG, False)}


def _guess(request: ModelRequest) -> str:
    found = re.search(r"The player's guess: (.*)$", request.messages[-1].content)
    assert found is not None, request.messages[-1].content
    return found.group(1).strip()


def lenient(request: ModelRequest) -> ProviderResult:
    p = 0.9 if TRUTH[_guess(request)] else 0.65
    return ProviderResult(text="Verdict: yes\nReason: close enough.", answer_probs=({"yes": p, "no": 1 - p},))


def strict(request: ModelRequest) -> str:
    return "Verdict: no\nReason: not the rule."


def fair(request: ModelRequest) -> ProviderResult:
    right = TRUTH[_guess(request)]
    return ProviderResult(text=f"Verdict: {'yes' if right else 'no'}\nReason: checked.",
                          answer_probs=({"yes": 0.95 if right else 0.05, "no": 0.05 if right else 0.95},))


SCRIPTS = {"lenient": lenient, "strict": strict, "fair": fair}


def _case(n: int, answer: str, game: str = "math", **context: object) -> dict[str, object]:
    return {"game": game, "id": f"m-{n}", "answer": answer, "correct": TRUTH.get(answer, False), "kind": "k",
            "context": context or {"statement": "add 3 each time", "seen": "3, 6, 9"}}


def _write(path: Path, cases: list[dict[str, object]]) -> Path:
    path.write_text("# a hand-written set\n" + "".join(json.dumps(case) + "\n" for case in cases), "utf-8")
    return path


@pytest.fixture
def cases(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    monkeypatch.setattr(judge_cmd, "ModelHub", functools.partial(ModelHub, mock_scripts=SCRIPTS))
    answers = [answer for pair in zip(RIGHT, WRONG, strict=True) for answer in pair]
    fit_on = _write(tmp_path / "fit.jsonl", [_case(n, answer) for n, answer in enumerate(answers)])
    measure_on = _write(tmp_path / "measure.jsonl", [_case(n, answer) for n, answer in enumerate(answers[::-1])])
    return fit_on, measure_on


def _run(*argv: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["analyze", "judge", *argv], env={"COLUMNS": "220"})
    return result.exit_code, result.stdout, result.stderr


def test_fit_on_one_set_then_measure_another_with_the_saved_calibration(cases: tuple[Path, Path],
                                                                        tmp_path: Path) -> None:
    fit_on, measure_on = cases
    code, out, err = _run("--model", "mock/lenient", "--cases", str(fit_on), "--fit", "--folds", "4")
    assert code == 0, err
    saved = tmp_path / "calibrations" / "mock-lenient.json"
    assert f"saved {saved}" in out and "math" in out
    stored = json.loads(saved.read_text())
    assert stored["cases"] == "fit.jsonl" and stored["identity"] == "mock/lenient"
    [entry] = stored["entries"]
    assert entry["applied"] and 0.65 < entry["threshold"] < 0.9 and entry["auc"] == 1.0
    assert entry["untuned"]["false_accept"] == 1.0 and entry["fitted"]["false_accept"] == 0.0

    code, out, err = _run("--model", "mock/lenient", "--cases", str(measure_on), "--json")
    assert code == 0, err
    report = json.loads(out)  # exactly one JSON object
    assert report["model"] == "mock/lenient" and report["calibration"] == str(saved)
    keys = {"cases", "accuracy", "false_accept", "false_reject", "balanced_accuracy", "auc"}
    assert set(report["games"]) == {"math"} and keys <= set(report["games"]["math"]) and keys <= set(
        report["overall"])
    math = report["games"]["math"]
    assert math["cases"] == 16 and math["accuracy"] == 1.0 and math["false_accept"] == 0.0 and math["auc"] == 1.0
    assert math["untuned"]["false_accept"] == 1.0

    code, out, err = _run("--model", "mock/lenient", "--cases", str(measure_on), "--no-calibration", "--json")
    report = json.loads(out)
    assert code == 0 and report["calibration"] is None and report["overall"]["false_accept"] == 1.0

    code, out, err = _run("--model", "mock/lenient", "--cases", str(measure_on))
    assert code == 0, err
    assert f"calibration {saved}" in out and "threshold" in out and "Traceback" not in out


def test_a_calibration_that_did_not_earn_its_threshold_says_so(cases: tuple[Path, Path]) -> None:
    fit_on, _ = cases
    code, out, err = _run("--model", "mock/fair", "--cases", str(fit_on), "--fit", "--folds", "4")
    assert code == 0, err
    assert "math/verdict not applied: held-out balanced accuracy" in out
    code, out, err = _run("--model", "mock/fair", "--cases", str(fit_on))
    assert code == 0 and "math/verdict: not applied:" in out


def test_a_panel_with_its_members_and_their_agreement(cases: tuple[Path, Path]) -> None:
    _, measure_on = cases
    code, out, err = _run("--model", "mock/lenient,mock/strict,mock/fair", "--cases", str(measure_on), "--json")
    assert code == 0, err
    report = json.loads(out)
    assert set(report["members"]) == {"mock/lenient", "mock/strict", "mock/fair"}
    assert report["members"]["mock/strict"]["overall"]["false_reject"] == 1.0
    # lenient accepts all, strict none: fair decides every case, so the panel is right throughout
    assert report["overall"]["accuracy"] == 1.0 and report["overall"]["auc"] is None  # strict gave no probability
    assert report["agreement"]["overall"]["method"] == "fleiss" and report["agreement"]["overall"]["cases"] == 16
    code, out, err = _run("--model", "mock/lenient,mock/fair", "--cases", str(measure_on))
    assert code == 0, err
    assert "Cohen's kappa" in out and "panel of 2" in out


@pytest.mark.parametrize(("lines", "said"), [
    ([_case(1, RIGHT[0]), _case(2, WRONG[0], game="nosuch")], "case m-2: unknown game 'nosuch'"),
    ([_case(1, RIGHT[0]), _case(2, WRONG[0], game="taboo")], "case m-2: taboo has no judge"),
    ([_case(7, RIGHT[0], statement="add 3")], "case m-7 (math): its context lacks seen"),
    ([_case(4, "a sentence", game="undercover", pair="no-such-pair", scale="novelty", earlier=[])],
     "case m-4 (undercover): the game cannot ask about it (ValueError: case m-4: no concept pair 'no-such-pair'"),
    ([_case(5, RIGHT[0], statement=["add", "3"], seen="1, 4, 7")],
     ("case m-5 (math): the game cannot ask about it (ValueError: case m-5: 'statement' must be a non-empty string, "
      "not a list")),
    ([_case(6, RIGHT[0]), _case(6, WRONG[0])], "line 3 (case m-6): the id is used already on line 2"),
])
def test_a_bad_case_is_one_line_naming_it(cases: tuple[Path, Path], tmp_path: Path, lines: list[dict[str, object]],
                                          said: str) -> None:
    bad = _write(tmp_path / "bad.jsonl", lines)
    code, out, err = _run("--model", "mock/lenient", "--cases", str(bad))
    assert code == 2 and out == ""
    [line] = err.strip().splitlines()
    assert said in line and str(bad) in line and "Traceback" not in err


def test_a_line_that_is_not_json_names_its_case(cases: tuple[Path, Path], tmp_path: Path) -> None:
    bad = tmp_path / "broken.jsonl"
    bad.write_text(json.dumps(_case(1, RIGHT[0])) + '\n{"game": "math", "id": "m-9", "context": {"statement": \n')
    code, out, err = _run("--model", "mock/lenient", "--cases", str(bad))
    assert code == 2 and out == ""
    [line] = err.strip().splitlines()
    assert "line 2 (case m-9): not JSON" in line


def test_a_broken_calibration_file_is_one_line(cases: tuple[Path, Path], tmp_path: Path) -> None:
    _, measure_on = cases
    broken = tmp_path / "calibrations" / "a.json"
    broken.parent.mkdir()
    broken.write_text("{")
    code, out, err = _run("--model", "mock/lenient", "--cases", str(measure_on))
    assert code == 2 and out == "" and str(broken) in err and len(err.strip().splitlines()) == 1


def test_the_built_in_set_of_one_game(monkeypatch: pytest.MonkeyPatch) -> None:
    def unsure(request: ModelRequest) -> ProviderResult:
        return ProviderResult(text="Verdict: yes\nReason: maybe.", answer_probs=({"yes": 0.6, "no": 0.4},))

    monkeypatch.setattr(judge_cmd, "ModelHub", functools.partial(ModelHub, mock_scripts={"unsure": unsure}))
    code, out, err = _run("--model", "mock/unsure", "--game", "math", "--json")
    assert code == 0, err
    report = json.loads(out)
    math = report["games"]["math"]
    assert report["cases_from"] == "built-in" and math["cases"] >= 60
    assert math["false_accept"] == 1.0 and math["false_reject"] == 0.0 and math["auc"] == 0.5
    code, out, err = _run("--model", "mock/unsure", "--game", "taboo")
    assert code == 2 and "taboo has no judge calibration set" in err
    code, out, err = _run("--model", "mock/unsure", "--out", "x.json")
    assert code == 2 and "add --fit" in err
    code, out, err = _run("--model", "mock/unsure", "--max-false-accept", "0.2")
    assert code == 2 and "--max-false-accept is a way to fit a calibration; add --fit" in err
