"""Installs the Council test game through the ``playeval.games`` entry point, the way a plugin package would be.

``council_installed`` writes a ``.dist-info`` with the entry point into a temporary folder and puts that folder
and this one (which holds the ``council`` package) on ``sys.path`` for this process and on ``PYTHONPATH`` for
the processes a test starts (the ``playeval`` command, an arena server).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from plugin_kit import installed

HERE = Path(__file__).resolve().parent
ENTRY_POINTS = "[playeval.games]\ncouncil = council:Council\n"


@pytest.fixture
def council_installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, str]]:
    """The environment for a subprocess that sees the installed game; this process sees it too."""
    yield from installed(tmp_path, monkeypatch, dist="playeval-council", version="1.0", entry_points=ENTRY_POINTS,
                         folder=HERE, module="council")
