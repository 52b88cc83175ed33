"""Installs the Council test game through the ``playeval.games`` entry point, the way a plugin package would be.

``council_installed`` writes a ``.dist-info`` with the entry point into a temporary folder and puts that folder
and this one (which holds the ``council`` package) on ``sys.path`` for this process and on ``PYTHONPATH`` for
the processes a test starts (the ``playeval`` command, an arena server).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ENTRY_POINTS = "[playeval.games]\ncouncil = council:Council\n"


@pytest.fixture
def council_installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, str]]:
    """The environment for a subprocess that sees the installed game; this process sees it too."""
    site = tmp_path / "site"
    info = site / "playeval_council-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: playeval-council\nVersion: 1.0\n", "utf-8")
    (info / "entry_points.txt").write_text(ENTRY_POINTS, "utf-8")
    for path in (str(site), str(HERE)):
        monkeypatch.syspath_prepend(path)
    pythonpath = os.pathsep.join([str(site), str(HERE), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    monkeypatch.setenv("PYTHONPATH", pythonpath)
    yield {**os.environ, "PYTHONPATH": pythonpath}
    for name in [module for module in sys.modules if module == "council" or module.startswith("council.")]:
        del sys.modules[name]
