"""How long 50 words take through a rule in the sandbox, cold and warm, and what a killed worker costs.

Cold: a new ``Sandbox`` whose first call starts its worker (process start, imports, confinement, then the
rule). Warm: the same rule again on a live worker (the target is under 200 ms; it is about a millisecond).
Warm, new rule: a different source each time, so the worker compiles it (the GuessTheRuleBench case of a
fresh LLM-written rule). Recovery: a rule that spins until its timeout, then the next normal call, which
waits for the replacement worker if it is not ready yet. Prints milliseconds and the isolation report.

    python bench/sandbox_speed.py [--warm N] [--cold N]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable, Sequence

from playeval.sandbox import Sandbox, SandboxError

RULE = "def rule(word):\n    return len(word) > 4 and word[0] not in 'aeiou'\n"
SPIN = "def rule(word):\n    while True:\n        pass\n"
WORDS = [
    "apple", "tree", "strong", "under", "bright", "cloud", "eagle", "river", "stone", "orange",
    "plant", "ice", "umbrella", "garden", "yellow", "anchor", "bridge", "island", "market", "oven",
    "pencil", "quiet", "rabbit", "sugar", "tiger", "urban", "violet", "window", "xylophone", "yacht",
    "zebra", "amber", "basket", "candle", "dragon", "engine", "forest", "guitar", "harbor", "igloo",
    "jacket", "kettle", "lemon", "mirror", "needle", "ocean", "pirate", "quartz", "rocket", "silver",
]  # fmt: skip
INPUTS = [(word,) for word in WORDS]
EXPECTED = [len(word) > 4 and word[0] not in "aeiou" for word in WORDS]
TARGET_MS = 200.0


def _ms(action: Callable[[], object]) -> float:
    started = time.perf_counter()
    action()
    return (time.perf_counter() - started) * 1000


def _summary(label: str, samples: list[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return (
        f"{label:<28} n={len(samples):<4} median {statistics.median(samples):8.2f} ms   "
        f"p95 {p95:8.2f} ms   min {ordered[0]:8.2f} ms   max {ordered[-1]:8.2f} ms"
    )


def _check(results: Sequence[object]) -> None:
    if results != EXPECTED:
        raise SystemExit(f"wrong results: {results}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--warm", type=int, default=300, help="warm calls to time")
    parser.add_argument("--cold", type=int, default=5, help="cold starts to time")
    arguments = parser.parse_args()

    def words_through(sandbox: Sandbox, source: str = RULE) -> Callable[[], None]:
        return lambda: _check(sandbox.run_function(source, "rule", INPUTS))

    cold: list[float] = []
    for _ in range(arguments.cold):
        with Sandbox(workers=1) as sandbox:
            cold.append(_ms(words_through(sandbox)))

    with Sandbox(workers=1) as sandbox:
        print("isolation on this machine:")
        for layer, state in sandbox.isolation().items():
            print(f"  {layer:<13} {state}")
        words_through(sandbox)()
        warm = [_ms(words_through(sandbox)) for _ in range(arguments.warm)]
        fresh = [_ms(words_through(sandbox, f"{RULE}# rule {number}\n")) for number in range(min(arguments.warm, 100))]

        def spin() -> None:
            try:
                sandbox.run_function(SPIN, "rule", INPUTS, timeout_s=0.25)
            except SandboxError as error:
                assert error.reason == "timeout", error
            else:
                raise SystemExit("the spinning rule was not stopped")

        timeouts: list[float] = []
        recoveries: list[float] = []
        for _ in range(5):
            timeouts.append(_ms(spin))
            recoveries.append(_ms(words_through(sandbox)))

    print()
    print("50 words through `len(word) > 4 and word[0] not in 'aeiou'`:")
    print(_summary("cold (new worker)", cold))
    print(_summary("warm (same rule)", warm))
    print(_summary("warm (new rule, compiled)", fresh))
    print(_summary("timeout_s=0.25 spin, killed", timeouts))
    print(_summary("next call after the kill", recoveries))
    verdict = "met" if statistics.median(warm) < TARGET_MS and max(warm) < TARGET_MS else "NOT met"
    print(f"target: 50 words warm under {TARGET_MS:.0f} ms: {verdict}")


if __name__ == "__main__":
    main()
