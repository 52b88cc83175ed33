"""Loading the secret-object sets shipped with the package (see data/PROVENANCE.md)."""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files

from playeval.core.errors import ConfigError

SECRET_SETS = ("everyday", "set1", "set2")


@cache
def load_secrets(name: str) -> tuple[str, ...]:
    """The objects of a named set: ``everyday`` (ours), ``set1`` and ``set2`` (the paper's Appendix B.1)."""
    if name not in SECRET_SETS:
        raise ConfigError(f"unknown akinator secret set {name!r}; known: {', '.join(SECRET_SETS)}")
    raw = json.loads(files("playeval.games.akinator").joinpath("data", f"{name}.json").read_text("utf-8"))
    objects = [item["object"] if isinstance(item, dict) else item for item in raw]
    return tuple(str(obj) for obj in objects)
