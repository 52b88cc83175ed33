"""Installs the Signal example plugin (examples/plugins/signal) through the ``playeval.games`` entry point its
pyproject.toml declares, the way pip would: a ``.dist-info`` with that entry point in a temporary site folder, the
package's folder on the path of this process and of the processes a test starts."""

from __future__ import annotations

import os
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

PLUGIN = Path(__file__).resolve().parents[2] / "examples" / "plugins" / "signal"


def entry_points() -> str:
    """The ``[playeval.games]`` section, read from the plugin's own pyproject.toml."""
    project = tomllib.loads((PLUGIN / "pyproject.toml").read_text("utf-8"))["project"]
    games = project["entry-points"]["playeval.games"]
    return "[playeval.games]\n" + "".join(f"{name} = {target}\n" for name, target in games.items())


@pytest.fixture
def signal_installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, str]]:
    """The environment for a subprocess that sees the installed game; this process sees it too."""
    site = tmp_path / "site"
    info = site / "playeval_signal-0.1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: playeval-signal\nVersion: 0.1.0\n", "utf-8")
    (info / "entry_points.txt").write_text(entry_points(), "utf-8")
    for path in (str(site), str(PLUGIN)):
        monkeypatch.syspath_prepend(path)
    pythonpath = os.pathsep.join([str(site), str(PLUGIN), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    monkeypatch.setenv("PYTHONPATH", pythonpath)
    yield {**os.environ, "PYTHONPATH": pythonpath}
    for name in [module for module in sys.modules if module.split(".")[0] == "playeval_signal"]:
        del sys.modules[name]
