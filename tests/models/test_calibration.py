"""Judge calibration files: a roundtrip, the model identity that pins them to weights, and clear errors."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest

from playeval.models.calibration import (
    SHIPPED_DIR,
    Calibration,
    CalibrationEntry,
    CalibrationError,
    calibration_dirs,
    find_calibration,
    load_calibration,
    model_identity,
    save_calibration,
)
from playeval.models.catalog import LOCAL_MODELS
from playeval.models.weights import SplitWeights


def _calibration(identity: str, model: str = "mock/judge") -> Calibration:
    rates = {"accuracy": 0.8, "false_accept": 0.1, "false_reject": 0.3, "balanced_accuracy": 0.8}
    return Calibration(model=model, identity=identity, made_at="2025-01-01T00:00:00Z", command="playeval analyze "
                       "judge --fit", cases="built-in", entries=[
                           CalibrationEntry(game="math", kind="verdict", threshold=0.7, applied=True, cases=60,
                                            auc=0.9, auc_low=0.8, auc_high=0.97, untuned=rates, fitted=rates),
                           CalibrationEntry(game="math", kind="other", threshold=0.4, applied=False, cases=60,
                                            note="AUC 0.52 [0.41, 0.63]: its interval holds 0.5"),
                       ])


def test_a_calibration_roundtrips_and_only_applied_entries_give_thresholds(tmp_path: Path) -> None:
    saved = save_calibration(_calibration("mock/judge"))
    assert saved == tmp_path / "calibrations" / "mock-judge.json" and calibration_dirs()[0] == saved.parent
    loaded = load_calibration(saved)
    expected = _calibration("mock/judge")  # each entry saved with the set it was fitted on
    expected = expected.model_copy(update={"entries": [entry.model_copy(update={"cases_from": "built-in"})
                                                       for entry in expected.entries]})
    assert loaded.model_dump() == expected.model_dump()
    assert loaded.format == "playeval-judge-calibration"
    thresholds = loaded.thresholds("math")
    assert thresholds is not None and thresholds.by_kind == {"verdict": 0.7}
    assert thresholds.label == "mock-judge.json for mock/judge"
    assert loaded.thresholds("static_picnic") is None and loaded.source == str(saved)
    assert not list(saved.parent.glob(".*.tmp"))  # the atomic write left nothing behind


def test_the_directories_user_first_then_shipped(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    assert calibration_dirs()[1] == SHIPPED_DIR and SHIPPED_DIR.is_dir()
    monkeypatch.delenv("PLAYEVAL_CALIBRATION_DIR")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert calibration_dirs()[0] == tmp_path / "xdg" / "playeval" / "calibrations"
    monkeypatch.delenv("XDG_DATA_HOME")
    assert calibration_dirs()[0] == Path.home() / ".local" / "share" / "playeval" / "calibrations"


def test_a_calibration_for_another_model_never_applies(tmp_path: Path) -> None:
    save_calibration(_calibration("mock/other", model="mock/judge"))  # the address matches, the identity does not
    assert find_calibration("mock/judge") is None
    save_calibration(_calibration("mock/judge", model="mock/renamed"), tmp_path / "calibrations" / "b.json")
    found = find_calibration("mock/judge")
    assert found is not None and found[0].name == "b.json" and found[1].identity == "mock/judge"


def test_identities_pin_the_weights(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    pinned = next(spec for spec in LOCAL_MODELS.values() if isinstance(spec.weights, SplitWeights))
    assert isinstance(pinned.weights, SplitWeights)
    assert model_identity(f"local/{pinned.name}") == f"sha256:{pinned.weights.sha256}"
    assert model_identity("openai/gpt-4o-mini") == "openai:https://api.openai.com/v1/gpt-4o-mini"
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:8080/v1/")
    assert model_identity("openai/qwen") == "openai:http://127.0.0.1:8080/v1/qwen"
    assert model_identity("anthropic/claude") == "anthropic/claude"
    gguf = tmp_path / "tiny.gguf"
    gguf.write_bytes(b"GGUF weights")
    first = model_identity(f"local/{gguf}")
    assert first == "sha256:" + hashlib.sha256(b"GGUF weights").hexdigest()
    cache = tmp_path / "cache" / "weights-sha256.json"
    assert json.loads(cache.read_text())[str(gguf.resolve())]["sha256"] == first[len("sha256:"):]
    record = json.loads(cache.read_text())
    record[str(gguf.resolve())]["sha256"] = "remembered"
    cache.write_text(json.dumps(record))
    assert model_identity(f"local/{gguf}") == "sha256:remembered"  # not hashed again
    gguf.write_bytes(b"other weights")
    os.utime(gguf, ns=(1, 1))
    assert model_identity(f"local/{gguf}") != first and model_identity(f"local/{gguf}") != "sha256:remembered"
    assert model_identity(f"local/{tmp_path / 'absent.gguf'}") == f"local/{tmp_path / 'absent.gguf'}"


@pytest.mark.parametrize(("text", "said"), [
    ("{not json", "not JSON"),
    ('{"format": "something else"}', "not a playeval judge calibration"),
    (('{"format": "playeval-judge-calibration", "model": "m", "identity": "m", "made_at": "t", "command": "c", '
      '"cases": "built-in", "entries": [{"game": "math", "kind": "verdict", "threshold": 1.5, "applied": true, '
      '"cases": 3}]}'), "entries.0.threshold"),
    (('{"format": "playeval-judge-calibration", "version": 9, "model": "m", "identity": "m", "made_at": "t", '
      '"command": "c", "cases": "x"}'), "newer than this playeval reads"),
])
def test_a_bad_file_is_one_line_naming_it(tmp_path: Path, text: str, said: str) -> None:
    bad = tmp_path / "calibrations" / "bad.json"
    bad.parent.mkdir()
    bad.write_text(text)
    with pytest.raises(CalibrationError) as caught:
        find_calibration("mock/judge")
    message = str(caught.value)
    assert str(bad) in message and said in message and "\n" not in message


def test_a_fit_of_one_game_keeps_the_files_other_entries_for_the_same_identity(tmp_path: Path) -> None:
    first = save_calibration(_calibration("mock/judge"))
    other = _calibration("mock/judge").model_copy(update={"cases": "mine.jsonl", "entries": [
        CalibrationEntry(game="undercover", kind="novelty", threshold=0.6, applied=True, cases=40)]})
    assert save_calibration(other) == first
    merged = load_calibration(first)
    assert [(e.game, e.kind, e.cases_from) for e in merged.entries] == [
        ("math", "other", "built-in"), ("math", "verdict", "built-in"), ("undercover", "novelty", "mine.jsonl")]
    stranger = _calibration("sha256:another").model_copy(update={"entries": other.entries})
    save_calibration(stranger, first)  # a file of another identity is replaced, not merged
    assert [(e.game, e.kind) for e in load_calibration(first).entries] == [("undercover", "novelty")]
