"""Wall time of the ``playeval`` commands that should answer at once: ``--help``, ``games`` and ``games --json``.

Each command runs as a fresh process (interpreter start, imports, output to a pipe) several times; the median and
the spread are printed beside the target of one second. ``games --json`` is timed only where ``games`` has that
option. The machine's cores and load are printed too: on a busy machine every figure grows.

    python bench/startup.py [--repeats N] [--python-m]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

TARGET_S = 1.0
COMMANDS: tuple[tuple[str, ...], ...] = (("--help",), ("games",), ("games", "--json"))


def playeval_command(python_m: bool) -> list[str]:
    """The installed ``playeval`` script beside this interpreter, or ``python -m playeval.cli.main`` (asked for,
    or when there is no script)."""
    script = Path(sys.executable).parent / "playeval"
    if not python_m and script.exists():
        return [str(script)]
    found = None if python_m else shutil.which("playeval")
    return [found] if found else [sys.executable, "-m", "playeval.cli.main"]


def wall_s(command: list[str]) -> float:
    """Seconds from start to exit of ``command``, its output read from a pipe; it must succeed."""
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env={**os.environ, "COLUMNS": "200"}, check=False)
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"error: {' '.join(command)} exited {done.returncode}: {done.stderr.strip()[-300:]}")
    return elapsed


def has_option(base: list[str], command: str, option: str) -> bool:
    """Whether ``playeval COMMAND --help`` lists ``option``."""
    done = subprocess.run([*base, command, "--help"], capture_output=True, text=True,
                          env={**os.environ, "COLUMNS": "200"}, check=False)
    return done.returncode == 0 and option in done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--repeats", type=int, default=7, help="runs of each command (default 7)")
    parser.add_argument("--python-m", action="store_true",
                        help="run `python -m playeval.cli.main` instead of the installed script")
    arguments = parser.parse_args()
    if arguments.repeats < 1:
        raise SystemExit("error: --repeats must be at least 1")
    base = playeval_command(arguments.python_m)
    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    print(f"{' '.join(base)}; {len(os.sched_getaffinity(0))} cores usable, load average {load}; "
          f"{arguments.repeats} runs each")
    wall_s([*base, "--help"])  # the first run pays for a cold disk cache and stale bytecode
    for args in COMMANDS:
        label = "playeval " + " ".join(args)
        if len(args) > 1 and not has_option(base, args[0], args[1]):
            print(f"{label:<24} skipped: {args[0]} has no {args[1]} option")
            continue
        samples = [wall_s([*base, *args]) for _ in range(arguments.repeats)]
        median = statistics.median(samples)
        verdict = "within" if median <= TARGET_S else "OVER"
        print(f"{label:<24} median {median:6.3f} s   min {min(samples):6.3f} s   max {max(samples):6.3f} s   "
              f"{verdict} the {TARGET_S:.0f} s target")


if __name__ == "__main__":
    main()
