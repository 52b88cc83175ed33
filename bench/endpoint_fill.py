"""Does a batch run fill a slow endpoint? Akinator matches against ``mock/sim?latency=...`` through the real
``BatchRunner``, recorded to a temporary SQLite file (or ``--db URL``).

Every seat is the simulated endpoint, so the run's time is model time: ``calls x latency / concurrency`` is the
ideal (each match makes its calls one after another, so no schedule beats it once there are more matches than
slots). Prints the calls, the wall time, the ideal, their ratio, and memory: peak RSS (``ru_maxrss``) and the RSS
sampled at every tenth of the run, to show it stays flat.

    python bench/endpoint_fill.py [--matches 1000] [--concurrency 64] [--latency 0.1] [--db URL]

The target (issue 12): 1,000 matches at 100 ms and concurrency 64 within 10 % of the ideal (ratio <= 1.10).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy import func, select

from playeval.core.match import Outcome
from playeval.core.registry import default_registry
from playeval.engine import BatchRunner, PlannedMatch, RunConfig, create_run
from playeval.models import ModelHub
from playeval.store import Store
from playeval.store.schema import MatchRow

_PAGE_BYTES = os.sysconf("SC_PAGE_SIZE")


def rss_mb() -> float:
    """This process's resident set size now, in MB (Linux ``/proc/self/statm``)."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * _PAGE_BYTES / 2**20


def peak_rss_mb() -> float:
    """The peak resident set size so far, in MB (``ru_maxrss`` is in KB on Linux)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


@dataclass
class Progress:
    """Counts finished matches and samples RSS at each tenth of the run."""

    total: int
    done: int = 0
    samples: list[tuple[int, float]] = field(default_factory=list)

    def __call__(self, planned: PlannedMatch, outcome: Outcome) -> None:
        self.done += 1
        if self.done * 10 // self.total != (self.done - 1) * 10 // self.total:
            self.samples.append((self.done, rss_mb()))


@dataclass(frozen=True)
class Filled:
    matches: int
    calls: int
    seconds: float
    ideal_s: float
    peak_rss_mb: float
    cpu_s: float
    samples: tuple[tuple[int, float], ...]

    @property
    def ratio(self) -> float:
        return self.seconds / self.ideal_s if self.ideal_s else float("inf")


async def fill(db_url: str, matches: int, concurrency: int, latency: float) -> Filled:
    """Play ``matches`` Akinator matches against ``mock/sim?latency=...`` at ``concurrency`` and time them."""
    address = f"mock/sim?latency={latency:g}"
    registry = default_registry()
    config = RunConfig(games=("akinator",), models=(address,), opponent=address, n=matches,
                       concurrency=concurrency)
    with Store.open(db_url) as store:
        run_id = create_run(store, registry, config)
        progress = Progress(total=matches)
        async with ModelHub(use_cache=False) as hub:
            cpu_started = time.process_time()
            started = time.perf_counter()
            await BatchRunner(store, hub, registry).run(run_id, on_match=progress)
            seconds = time.perf_counter() - started
            cpu_s = time.process_time() - cpu_started
            calls = hub.total_usage().attempts
        with store.engine.connect() as conn:  # a count, not every match's record: that would be the peak of RSS
            finished = conn.scalar(select(func.count()).select_from(MatchRow)
                                   .where(MatchRow.run_id == run_id, MatchRow.status == "finished"))
    if finished != matches:
        raise SystemExit(f"error: only {finished} of {matches} matches finished")
    return Filled(matches=matches, calls=calls, seconds=seconds, ideal_s=calls * latency / concurrency,
                  peak_rss_mb=peak_rss_mb(), cpu_s=cpu_s, samples=tuple(progress.samples))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=1000, help="Akinator matches to play (default 1000)")
    parser.add_argument("--concurrency", type=int, default=64, help="matches played at once (default 64)")
    parser.add_argument("--latency", type=float, default=0.1, help="seconds per model call (default 0.1)")
    parser.add_argument("--db", help="database URL (default: a temporary SQLite file)")
    args = parser.parse_args(argv)
    if args.matches < 1 or args.concurrency < 1 or args.latency <= 0:
        parser.error("--matches and --concurrency must be at least 1 and --latency above 0")
    with tempfile.TemporaryDirectory() as tmp:
        db_url = args.db or f"sqlite:///{Path(tmp) / 'fill.db'}"
        start_rss = rss_mb()
        result = asyncio.run(fill(db_url, args.matches, args.concurrency, args.latency))
    print(f"{result.matches} Akinator matches vs mock/sim?latency={args.latency:g} at concurrency {args.concurrency}, "
          f"recorded to {'--db' if args.db else 'a temporary SQLite file'}")
    print(f"  model calls     {result.calls:,}")
    print(f"  wall time       {result.seconds:.2f} s")
    print(f"  ideal time      {result.ideal_s:.2f} s  (calls x latency / concurrency)")
    print(f"  ratio           {result.ratio:.3f}  (target <= 1.10)")
    print(f"  calls/s         {result.calls / result.seconds:,.0f}")
    per_call_ms = result.cpu_s / result.calls * 1000
    print(f"  CPU             {result.cpu_s:.1f} s, {per_call_ms:.2f} ms per call: the event loop is busy "
          f"{result.cpu_s / result.ideal_s:.0%} of the ideal time (it needs a core that free)")
    print(f"  load average    {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores (other work competing for them)")
    print(f"  peak RSS        {result.peak_rss_mb:.1f} MB  (at start {start_rss:.1f} MB)")
    print("  RSS by progress " + ", ".join(f"{done}: {mb:.1f}" for done, mb in result.samples) + " (matches: MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
