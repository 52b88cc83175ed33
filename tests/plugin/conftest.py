"""Installs the Signal example plugin (examples/plugins/signal) through the ``playeval.games`` entry point its
pyproject.toml declares, the way pip would: a ``.dist-info`` with that entry point in a temporary site folder, the
package's folder on the path of this process and of the processes a test starts."""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest
from plugin_kit import installed

PLUGIN = Path(__file__).resolve().parents[2] / "examples" / "plugins" / "signal"


def entry_points() -> str:
    """The ``[playeval.games]`` section, read from the plugin's own pyproject.toml."""
    project = tomllib.loads((PLUGIN / "pyproject.toml").read_text("utf-8"))["project"]
    games = project["entry-points"]["playeval.games"]
    return "[playeval.games]\n" + "".join(f"{name} = {target}\n" for name, target in games.items())


@pytest.fixture
def signal_installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, str]]:
    """The environment for a subprocess that sees the installed game; this process sees it too."""
    yield from installed(tmp_path, monkeypatch, dist="playeval-signal", version="0.1.0", entry_points=entry_points(),
                         folder=PLUGIN, module="playeval_signal")
