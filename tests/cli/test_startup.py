"""``playeval --help`` and ``playeval games`` start without the heavy libraries, and print what they printed when
every command module was imported up front.

The commands' modules are imported when their command is used (``playeval.cli.lazy_commands``); the listing of
``--help`` is written out in ``playeval.cli.main.COMMANDS``. These tests check, in a fresh interpreter, what each
path imports (no timing: ``bench/startup.py`` measures the wall time), and that the written-out listing and the
commands built from their modules give the same help, page for page.
"""

from __future__ import annotations

import importlib
import json
import os
import pkgutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import typer
from plugin_kit import installed
from typer.testing import CliRunner

import playeval
import playeval.cli
from playeval.cli.main import COMMANDS, _playeval, app
from playeval.core.registry import default_registry

SRC = Path(playeval.__file__).resolve().parents[1]
SIGNAL = Path(__file__).resolve().parents[2] / "examples" / "plugins" / "signal"

# Neither path needs any of these: plotting and statistics, the store and its migrations, the arena's templates and
# server, local inference, the peers' package, or the packages that hold the analyses, reports, engine and models.
HEAVY = ("matplotlib", "numpy", "scipy", "sqlalchemy", "alembic", "jinja2", "uvicorn", "starlette", "llama_cpp",
         "textarena", "playeval.analysis", "playeval.report", "playeval.web", "playeval.store", "playeval.engine",
         "playeval.models", "playeval.library", "playeval.players")

IMPORT_MAIN = "import json, sys\nimport playeval.cli.main\nprint(json.dumps(sorted(sys.modules)))\n"
RUN_GAMES = ("import json, sys\n"
             "from playeval.cli.main import main\n"
             "sys.argv = ['playeval', 'games']\n"
             "try:\n"
             "    main()\n"
             "except SystemExit as done:\n"
             "    assert not done.code, done.code\n"
             "print(json.dumps(sorted(sys.modules)), file=sys.stderr)\n")


def _environment(base: dict[str, str] | None = None) -> dict[str, str]:
    """The environment of a child interpreter that imports the playeval this test imported."""
    env = dict(os.environ if base is None else base)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SRC), env.get("PYTHONPATH", "")]))
    env["COLUMNS"] = "240"
    return env


def _python(code: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120,
                          check=False)
    assert done.returncode == 0, done.stderr
    return done


def _loaded(modules: list[str], names: tuple[str, ...]) -> list[str]:
    """The modules of ``modules`` that are one of ``names`` or inside one of them."""
    return [module for module in modules if any(module == name or module.startswith(f"{name}.") for name in names)]


@pytest.fixture
def signal_plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, str]]:
    """The Signal example game installed through its entry point, as ``tests/plugin`` installs it."""
    yield from installed(tmp_path, monkeypatch, dist="playeval-signal", version="0.1.0",
                         entry_points="[playeval.games]\nsignal = playeval_signal:Signal\n", folder=SIGNAL,
                         module="playeval_signal")


def test_importing_the_command_imports_no_command_module() -> None:
    modules = json.loads(_python(IMPORT_MAIN, _environment()).stdout)
    assert "playeval.cli.main" in modules  # the child imported it at all
    assert _loaded(modules, HEAVY) == []
    assert _loaded(modules, ("playeval.core", "playeval.games", "playeval.guess_rule")) == []
    assert [module for module in modules if module.endswith("_cmd")] == []


def test_games_lists_every_game_a_plugin_s_too_and_imports_only_the_games(signal_plugin: dict[str, str]) -> None:
    done = _python(RUN_GAMES, _environment(signal_plugin))
    modules = json.loads(done.stderr)
    assert _loaded(modules, HEAVY) == []
    assert [module for module in modules if module.endswith("_cmd")] == ["playeval.cli.games_cmd"]
    listed = {line.split("│")[1].strip() for line in done.stdout.splitlines() if line.startswith("│ ")}
    ids = default_registry().ids()
    assert "signal" in ids and set(ids) <= listed


def _eager() -> typer.Typer:
    """The app as it was built before its commands were loaded lazily: every module registered up front."""
    eager = typer.Typer(name="playeval", help=app.info.help, no_args_is_help=True, add_completion=False,
                        pretty_exceptions_enable=False)
    eager.callback()(_playeval)  # the same options (--version) before the commands
    for module in dict.fromkeys(entry.module for entry in COMMANDS):
        importlib.import_module(module).register(eager)
    return eager


def _page(target: typer.Typer, args: list[str]) -> tuple[int, str]:
    done = CliRunner().invoke(target, args, env={"COLUMNS": "200"})
    return done.exit_code, done.output


@pytest.mark.parametrize("args", [[], ["--help"], ["rn"], ["nosuch"], ["analyze"], ["analyze", "--help"],
                                  *([entry.name, "--help"] for entry in COMMANDS)], ids=" ".join)
def test_every_help_page_is_what_the_eager_app_prints(args: list[str]) -> None:
    assert _page(app, args) == _page(_eager(), args)


def test_the_listing_is_each_command_s_own_help() -> None:
    built = typer.main.get_group(_eager()).commands
    assert [entry.name for entry in COMMANDS] == list(built)
    for entry in COMMANDS:
        assert entry.help == built[entry.name].help, f"update {entry.name}'s help in playeval.cli.main.COMMANDS"


def test_every_module_with_commands_is_listed() -> None:
    registering = {f"playeval.cli.{found.name}" for found in pkgutil.iter_modules(playeval.cli.__path__)
                   if hasattr(importlib.import_module(f"playeval.cli.{found.name}"), "register")}
    assert registering == {entry.module for entry in COMMANDS}
