"""Every name a package's ``__all__`` exports can be imported from it (``core.__all__`` once named
``PersonInput`` without importing it)."""

from __future__ import annotations

import importlib
import pkgutil

import pytest

import playeval

PACKAGES = sorted(name for _, name, is_package in pkgutil.walk_packages(playeval.__path__, "playeval.")
                  if is_package and ".migrations" not in name)


@pytest.mark.parametrize("package", PACKAGES)
def test_every_exported_name_exists(package: str) -> None:
    module = importlib.import_module(package)
    exported = getattr(module, "__all__", [])
    missing = [name for name in exported if not hasattr(module, name)]
    assert not missing, f"{package}.__all__ names what it does not hold: {missing}"
    assert len(exported) == len(set(exported))
