"""The code's own checks, as part of the suite: mypy over the package (types on everything) and ruff's lint rules
over the package, the tests, the benchmarks and the scripts (the rules are pyproject.toml's)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], check=False, cwd=ROOT, capture_output=True, text=True,
                          timeout=600)


def test_the_package_type_checks() -> None:
    done = _run("mypy", "--cache-dir", str(ROOT / ".mypy_cache"), "src/playeval")
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "Success: no issues found" in done.stdout


def test_the_code_passes_the_lint_rules() -> None:
    done = _run("ruff", "check", "src", "tests", "bench", "scripts")
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
