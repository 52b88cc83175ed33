"""Installs a game package through the ``playeval.games`` entry point, the way pip would: a ``.dist-info`` with the
entry point in a temporary site folder, and the site and the package's folder on the path of this process and on
``PYTHONPATH`` for the processes a test starts (the ``playeval`` command, an arena server)."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest


def installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *, dist: str, version: str, entry_points: str,
              folder: Path, module: str) -> Iterator[dict[str, str]]:
    """Install distribution ``dist`` (its package ``module`` lives in ``folder``) and yield the environment for a
    subprocess that sees it; this process sees it too until the generator ends, when ``module`` is forgotten."""
    site = tmp_path / "site"
    info = site / f"{dist.replace('-', '_')}-{version}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: {version}\n", "utf-8")
    (info / "entry_points.txt").write_text(entry_points, "utf-8")
    for path in (str(site), str(folder)):
        monkeypatch.syspath_prepend(path)
    pythonpath = os.pathsep.join([str(site), str(folder), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    monkeypatch.setenv("PYTHONPATH", pythonpath)
    yield {**os.environ, "PYTHONPATH": pythonpath}
    for name in [name for name in sys.modules if name.split(".")[0] == module]:
        del sys.modules[name]
