"""``playeval --version`` prints the version pip installed, without loading any command."""

from __future__ import annotations

import importlib.metadata
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import playeval
from playeval.cli import main as cli_main

SRC = Path(playeval.__file__).resolve().parents[1]


def test_version_prints_the_installed_version() -> None:
    installed = importlib.metadata.version("playeval")
    done = CliRunner().invoke(cli_main.app, ["--version"])
    assert done.exit_code == 0
    assert done.output == f"playeval {installed}\n"


def test_version_outside_an_install_is_the_source_tree_s(monkeypatch: pytest.MonkeyPatch) -> None:
    def not_installed(name: str) -> str:
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "version", not_installed)
    done = CliRunner().invoke(cli_main.app, ["--version"])
    assert done.exit_code == 0
    assert done.output == f"playeval {playeval.__version__}\n"


def test_version_in_a_fresh_process_loads_no_command() -> None:
    code = ("import json, sys\n"
            "from playeval.cli.main import main\n"
            "sys.argv = ['playeval', '--version']\n"
            "try:\n"
            "    main()\n"
            "except SystemExit as done:\n"
            "    assert not done.code, done.code\n"
            "print(json.dumps(sorted(sys.modules)), file=sys.stderr)\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(SRC), os.environ.get("PYTHONPATH")]))}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"playeval {importlib.metadata.version('playeval')}\n"
    modules = json.loads(done.stderr)
    assert [module for module in modules if module.endswith("_cmd")] == []
    assert not [m for m in modules if m.split(".")[0] in {"numpy", "sqlalchemy", "llama_cpp", "matplotlib"}]
