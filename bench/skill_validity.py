"""The leaderboard's validity on simulated players of known skill (``mock/skill?p=``), with the figures it prints.

    .venv/bin/python bench/skill_validity.py [--games all] [--n 40] [--replicates 20] [--truth-n 400]

1. A long run (``--truth-n`` game numbers, seed 100) gives the truth: each skill's win rate per game.
2. A second run of ``--replicates`` x ``--n`` game numbers (seed 200) is cut into ``--replicates`` disjoint
   replicates of ``--n`` game numbers (setups of different game numbers are drawn independently). For the first:
   the recovered order per game and overall, with Kendall's tau. Over all: how often each 95 % interval held the
   truth (win rates; rating differences of adjacent skills on one-seat games).
3. The game numbers needed: the smallest prefix of the second run whose overall ranking has every adjacent pair
   separated, against ``playeval plan``'s estimate for the smallest adjacent gap in the truth's mean win rate.
4. ``--until-separated`` against uniform rounds: the matches each needed to separate every adjacent pair, over
   ``--until-seeds`` seeds, for ``--until-skills`` (by default gaps of unequal size, 0.2, 0.6, 0.7, 0.9: with
   evenly spaced skills every pair is about as hard and adaptive rounds have little to save).

Everything runs in this process on a temporary SQLite file; nothing touches the user's database.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from itertools import pairwise
from pathlib import Path

from playeval.analysis.power import requirement
from playeval.analysis.skill_validity import (
    SKILLS,
    RunMatches,
    boards_by_numbers,
    coverage,
    one_seat_games,
    order_checks,
    skill_config,
    skill_of,
    skill_run,
    true_rates,
)
from playeval.analysis.until_separated import play_until_separated
from playeval.core.registry import default_registry
from playeval.engine import BatchRunner, UntilSeparated, create_run
from playeval.models import ModelHub
from playeval.store import Store


def _short(address: str) -> str:
    return f"p={skill_of(address):g}"


async def _main(args: argparse.Namespace) -> int:
    registry = default_registry()
    games = registry.ids() if args.games == "all" else tuple(g.strip() for g in args.games.split(","))
    with tempfile.TemporaryDirectory() as tmp, Store.open(f"sqlite:///{Path(tmp) / 'skill.db'}") as store:
        started = time.perf_counter()
        truth_id = await skill_run(store, registry, skill_config(games, registry, n=args.truth_n, seed=100))
        truth_board = boards_by_numbers(RunMatches.load(store, registry, truth_id), registry, range(args.truth_n),
                                        resamples=0)
        truth = true_rates(truth_board)
        reps_id = await skill_run(store, registry,
                                  skill_config(games, registry, n=args.n * args.replicates, seed=200))
        played = time.perf_counter() - started
        run = RunMatches.load(store, registry, reps_id)
        print(f"games: {', '.join(games)}; skills: {', '.join(f'{p:g}' for p in SKILLS)}; "
              f"truth: {args.truth_n} game numbers; replicates: {args.replicates} x {args.n} game numbers; "
              f"{len(store.run_matches(truth_id)) + len(run.matches)} matches played in {played:.0f} s")
        print("\ntruth (win rate per game over the long run):")
        for board_name, rates in sorted(truth.items()):
            skills = sorted((p for p in rates if p.startswith("mock/skill")), key=skill_of)
            print(f"  {board_name:<18} " + "  ".join(f"{_short(p)}: {rates[p]:.3f}" for p in skills))

        boards = [boards_by_numbers(run, registry, range(k * args.n, (k + 1) * args.n), resamples=args.resamples,
                                    seed=k) for k in range(args.replicates)]
        print(f"\nreplicate 1 ({args.n} game numbers): recovered order by rating")
        for check in order_checks(boards[0]):
            state = "all adjacent separated" if check.separated else "not all separated"
            order = " > ".join(_short(p) for p in check.ranking)
            print(f"  {check.scope:<18} tau {check.tau:+.2f}  {state:<24} {order}")
        taus = {check.scope: [] for check in order_checks(boards[0])}
        for board in boards:
            for check in order_checks(board):
                taus.setdefault(check.scope, []).append(check.tau)
        print(f"\nover {args.replicates} replicates: share with tau = 1 (mean tau)")
        for scope, values in taus.items():
            print(f"  {scope:<18} {sum(1 for t in values if t >= 1 - 1e-9) / len(values):.2f} "
                  f"({statistics.fmean(values):+.2f})")
        found = coverage(boards, truth, one_seat_games(registry, games))
        print("\ncoverage of 95 % intervals over the replicates:")
        for kind in sorted(found.tried):
            print(f"  {kind:<18} {found.rate(kind):.3f} of {found.tried[kind]} intervals")

        needed = None
        step = max(1, args.n // 4)
        for numbers in range(step, args.n * args.replicates + 1, step):
            check = next(c for c in order_checks(boards_by_numbers(run, registry, range(numbers),
                                                                   resamples=args.resamples))
                         if c.scope == "overall")
            if check.separated and check.tau >= 1 - 1e-9:
                needed = numbers
                break
        means = {}
        for rates in truth.values():
            for player, rate in rates.items():
                if player.startswith("mock/skill"):
                    means.setdefault(player, []).append(rate)
        ordered = sorted(means, key=skill_of)
        mean_rates = [statistics.fmean(means[p]) for p in ordered]
        gaps = [b - a for a, b in pairwise(mean_rates)]
        smallest = min(gaps)
        base = statistics.fmean(mean_rates)
        plan = requirement(smallest, len(ordered), base=min(max(base, smallest / 2 + 0.01), 1 - smallest / 2 - 0.01))
        per_game = -(-plan.per_model // len(games))
        print(f"\ngame numbers until every adjacent pair of the overall rating is separated: "
              f"{needed if needed is not None else f'more than {args.n * args.replicates}'} (checked every {step})")
        print(f"plan's estimate for the smallest adjacent gap in mean win rate ({smallest:.3f}, around {base:.2f}): "
              f"{plan.per_model} results per model for one game, about {per_game} per game over {len(games)} games")

        until_skills = tuple(float(p) for p in args.until_skills.split(","))
        print(f"\n--until-separated against uniform rounds (skills {', '.join(f'{p:g}' for p in until_skills)}; "
              f"budget {args.budget} matches; first round --n 2; {args.until_seeds} seeds): matches until separated")
        counts: dict[str, list[int]] = {"adaptive": [], "uniform": []}
        for seed in range(300, 300 + args.until_seeds):
            line = []
            for strategy in ("adaptive", "uniform"):
                config = skill_config(games, registry, n=2, seed=seed, skills=until_skills).model_copy(
                    update={"until": UntilSeparated(budget=args.budget, strategy=strategy)})
                run_id = create_run(store, registry, config)
                async with ModelHub(use_cache=False) as hub:
                    why = await play_until_separated(BatchRunner(store, hub, registry), store, registry, run_id,
                                                     resamples=args.resamples)
                played_now = len(store.run_matches(run_id))
                counts[strategy].append(played_now)
                line.append(f"{strategy} {played_now} ({why})")
            print(f"  seed {seed}: " + ", ".join(line))
        for strategy, found in counts.items():
            if found:
                print(f"  {strategy:<9} mean {statistics.fmean(found):.0f} matches")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="all")
    parser.add_argument("--n", type=int, default=40, help="game numbers per replicate")
    parser.add_argument("--replicates", type=int, default=20)
    parser.add_argument("--truth-n", type=int, default=400)
    parser.add_argument("--resamples", type=int, default=200)
    parser.add_argument("--budget", type=int, default=6000)
    parser.add_argument("--until-skills", default="0.2,0.6,0.7,0.9",
                        help="skills of the --until-separated comparison (uneven gaps: where allocation can help)")
    parser.add_argument("--until-seeds", type=int, default=5)
    return asyncio.run(_main(parser.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
