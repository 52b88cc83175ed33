"""What several bench scripts need: the tests' throwaway PostgreSQL server module, and a free local port.

The bench scripts are not a package; each runs with this directory first on ``sys.path``, so they import this
module as ``_support``.
"""

from __future__ import annotations

import importlib.util
import socket
import sys
from pathlib import Path
from types import ModuleType

PG_SERVER = Path(__file__).resolve().parent.parent / "tests" / "pg_server.py"


def pg_server() -> ModuleType:
    """``tests/pg_server.py`` (``find_pg_bin``, ``start_server``, ``PgUnavailable``, ``INSTALL_HINT``), loaded
    from its file: the tests are not a package either. ``ImportError`` if it cannot be loaded."""
    loaded = sys.modules.get("pg_server")
    if loaded is not None:
        return loaded
    spec = importlib.util.spec_from_file_location("pg_server", PG_SERVER)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {PG_SERVER}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port of ``host`` free now (the system's choice)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])
