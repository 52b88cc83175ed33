"""The layers run one way: the game side (``core``, ``games``, ``guess_rule``) imports nothing above it.

The engine and the store sit in the middle; the CLI, the web, the library interface (``playeval.library``) and
the analyses sit above them. A game module that imported any of those would tie every game, and every plugin
written after it, to the engine's or the store's insides. The one allowed upward reference is a lazy re-export:
a package's module-level ``__getattr__`` may hand out names of ``playeval.library`` (``playeval.guess_rule`` keeps
the library interface's names where they were first published), since no game runs it.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "src" / "playeval"
GAME_SIDE: tuple[str, ...] = ("core", "games", "guess_rule")
ABOVE: tuple[str, ...] = ("playeval.engine", "playeval.store", "playeval.web", "playeval.cli", "playeval.library",
                          "playeval.analysis", "playeval.report")
LAZY_REEXPORT = "playeval.library"


def _modules() -> list[Path]:
    return sorted(path for side in GAME_SIDE for path in (PACKAGE / side).rglob("*.py"))


def _imports(tree: ast.Module) -> Iterator[tuple[int, str, bool]]:
    """(line, module imported, inside a module-level ``__getattr__``) for every import of a module's tree."""
    lazy: set[int] = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == "__getattr__":
            lazy.update(id(inner) for inner in ast.walk(node))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name, id(node) in lazy
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.lineno, node.module, id(node) in lazy
            for alias in node.names:  # `from playeval import engine`
                yield node.lineno, f"{node.module}.{alias.name}", id(node) in lazy


def _upward(path: Path, root: Path = PACKAGE.parent) -> list[str]:
    """``FILE:LINE imports MODULE`` for each import statement in ``path`` of a layer above the game side."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: dict[int, str] = {}
    for line, module, lazy in _imports(tree):
        above = next((name for name in ABOVE if module == name or module.startswith(f"{name}.")), None)
        if above is not None and not (lazy and above == LAZY_REEXPORT) and line not in found:
            found[line] = f"{path.relative_to(root)}:{line} imports {module}"
    return list(found.values())


def test_the_game_side_imports_nothing_above_it() -> None:
    modules = _modules()
    assert len(modules) > 50  # the walk found the packages
    found = [problem for path in modules for problem in _upward(path)]
    assert not found, "\n".join(found)


def test_the_check_finds_an_upward_import(tmp_path: Path) -> None:
    module = tmp_path / "rules.py"
    module.write_text("from playeval.core import Ask\nfrom playeval import store\n"
                      "def load():\n    from playeval.engine.step import advance\n    return advance\n", "utf-8")
    assert _upward(module, tmp_path) == ["rules.py:2 imports playeval.store", "rules.py:4 imports playeval.engine.step"]


@pytest.mark.parametrize("module", ["playeval.guess_rule", "playeval.games", "playeval.core"])
def test_importing_the_game_side_loads_neither_engine_nor_store(module: str) -> None:
    script = (f"import sys, {module}\n"
              "print(sorted(name for name in sys.modules if name.split('.')[:2] in "
              "(['playeval', 'engine'], ['playeval', 'store'], ['playeval', 'library'])))")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_the_library_interface_is_still_importable_where_it_was_first_published() -> None:
    import playeval.guess_rule as published
    import playeval.library as library

    assert published.MathGuessTheRuleGame is library.MathGuessTheRuleGame
    assert published.GuessRuleError is library.GuessRuleError
    with pytest.raises(AttributeError, match="no attribute 'collect_bank'"):
        published.collect_bank  # noqa: B018
