"""Playing a ``--until-separated`` run: rounds until every adjacent pair of the overall ranking is separated at
95 %, or the budget of matches is spent.

The first round is the run's ``n`` game numbers (every model in every game). After each round the run's matches
are rated as ``playeval leaderboard`` rates them (:func:`analysis.leaderboard.load_leaderboard`: Bradley-Terry per
board and overall, every game weighing the same, bootstrap intervals over matches) and:

* every adjacent pair of the models' overall ranking separated (their 95 % intervals do not overlap, the rule by
  which the leaderboard shows two models untied, and the interval of their difference excludes 0): the run
  stops, ``separated``. Looking after every round is
  several tests, which no correction accounts for; the non-overlap rule is stricter than the difference's own
  interval excluding 0 (for two intervals of equal width, a test at about the 0.6 % level), which leaves room;
* the run's matches reached the budget, or the next round would not fit in it: the run stops, ``budget``;
* otherwise the next round is decided (``adaptive``: :func:`analysis.allocation.next_round`; ``uniform``: one more
  game number of every game with every model) and recorded with the run (``Store.update_run_config``) before a
  match of it is played, so ``--resume`` plays the same matches, and a rerun with the same seed, whose matches come
  out the same, decides the same rounds.

The stop and its reason are recorded too (``UntilSeparated.stopped``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from playeval.analysis.allocation import Allocation, PairState, adjacent_pairs, next_round, uniform_round
from playeval.analysis.bradley_terry import RatingFit
from playeval.analysis.leaderboard import Leaderboard, load_leaderboard
from playeval.core.registry import GameRegistry
from playeval.engine.batch import OnMatch, run_config
from playeval.engine.plan import Allocated, RunConfig, UntilSeparated
from playeval.store import Store

SEPARATED = "separated"
BUDGET = "budget"
RESAMPLES = 200


class Runner(Protocol):
    async def run(self, run_id: str, on_match: OnMatch | None = None) -> None: ...


@dataclass(frozen=True)
class RoundReport:
    """What a round's refit found: the matches so far, the adjacent pairs, and the next round (empty: stopped)."""

    matches: int
    pairs: tuple[PairState, ...]
    next_round: tuple[Allocated, ...]
    stopped: str | None


def _table_games(registry: GameRegistry, games: Sequence[str]) -> list[str]:
    return [g for g in games if sum(1 for seat in registry.get(g).seats if seat.evaluated) > 1]


def _next_numbers(config: RunConfig) -> dict[str, int]:
    numbers = {game: config.n for game in config.games}
    for entry in config.allocations:
        numbers[entry.game] = max(numbers[entry.game], entry.number + 1)
    return numbers


def decide(config: RunConfig, registry: GameRegistry, board: Leaderboard) -> RoundReport:
    """The next round of ``config``'s run given its leaderboard so far, or why it stops."""
    until = config.until
    if until is None:
        raise ValueError("the run has no --until-separated settings")
    fit = board.overall_fit or RatingFit(rows=())
    models = list(config.models)
    pairs = tuple(adjacent_pairs(fit, models))
    rated = {row.player for row in fit.rows}
    size = config.size
    if all(model in rated for model in models) and all(pair.separated for pair in pairs):
        return RoundReport(matches=size, pairs=pairs, next_round=(), stopped=SEPARATED)
    if size >= until.budget:
        return RoundReport(matches=size, pairs=pairs, next_round=(), stopped=BUDGET)
    games = list(config.games)
    tables = _table_games(registry, games)
    numbers = _next_numbers(config)
    round_size = until.round_size or sum(len(models) for _ in games)
    chosen: list[Allocation]
    if until.strategy == "uniform" or len(pairs) < len(models) - 1:
        chosen = uniform_round(games, models, numbers)
    else:
        variances: dict[str, dict[tuple[str, str], float]] = {}
        played: dict[str, dict[tuple[str, str], int]] = {}
        for result in board.boards:
            for pair in pairs:
                a, b = result.rate_of(pair.better), result.rate_of(pair.worse)
                if a is None or b is None or a.rate is None or b.rate is None:
                    continue
                smoothed = [(rate.rate * rate.n + 1) / (rate.n + 2) for rate in (a, b)]
                variances.setdefault(result.game, {})[(pair.better, pair.worse)] = sum(r * (1 - r) for r in smoothed)
                played.setdefault(result.game, {})[(pair.better, pair.worse)] = min(a.n, b.n)
        chosen = next_round(pairs, games, tables, variances, played, numbers, models, round_size)
    entries: list[Allocated] = []
    total = size
    for allocation in chosen:
        entry = Allocated(game=allocation.game, number=allocation.number, models=allocation.models)
        if total + config.allocated_size(entry) > until.budget:
            break
        entries.append(entry)
        total += config.allocated_size(entry)
    if not entries:
        return RoundReport(matches=size, pairs=pairs, next_round=(), stopped=BUDGET)
    return RoundReport(matches=size, pairs=pairs, next_round=tuple(entries), stopped=None)


def _recorded(config: RunConfig, report: RoundReport) -> RunConfig:
    until: UntilSeparated = config.until  # type: ignore[assignment]  # decide() checked it
    if report.stopped is not None:
        grown = until.model_copy(update={"stopped": report.stopped})
    else:
        grown = until.model_copy(update={"rounds": (*until.rounds, report.next_round)})
    return config.model_copy(update={"until": grown})


async def play_until_separated(runner: Runner, store: Store, registry: GameRegistry, run_id: str, *,
                               on_match: OnMatch | None = None,
                               on_round: Callable[[RoundReport], Any] | None = None,
                               resamples: int = RESAMPLES) -> str:
    """Play ``run_id`` round by round (see the module's note); returns why it stopped (``separated`` or
    ``budget``). A run that stopped already only finishes its unfinished matches."""
    while True:
        await runner.run(run_id, on_match=on_match)
        config = run_config(store, run_id)
        if config.until is None:
            raise ValueError(f"run {run_id} was not started with --until-separated")
        if config.until.stopped is not None:
            return config.until.stopped
        board = load_leaderboard(store, registry, [run_id], resamples=resamples, seed=config.seed,
                                 with_people=False)
        report = decide(config, registry, board)
        store.update_run_config(run_id, _recorded(config, report).model_dump(mode="json"))
        if on_round is not None:
            on_round(report)
        if report.stopped is not None:
            return report.stopped


def round_line(report: RoundReport) -> str:
    """One line on a round's refit: the adjacent pairs, and the next round or why the run stops."""
    pairs = "; ".join(f"{p.better} {'>' if p.separated else '~'} {p.worse} "
                      f"[{p.low:+.0f}, {p.high:+.0f}]" for p in report.pairs) or "no pair rated yet"
    if report.stopped == SEPARATED:
        tied = [f"{p.better} and {p.worse}" for p in report.pairs if p.shown_tied]
        note = (f" (the leaderboard still shows {', '.join(tied)} tied: their own intervals overlap, a stricter rule)"
                if tied else "")
        return f"after {report.matches} matches every adjacent pair is separated at 95 %: {pairs}; stopping{note}"
    if report.stopped == BUDGET:
        open_pairs = [f"{p.better} ~ {p.worse}" for p in report.pairs if not p.separated]
        return (f"after {report.matches} matches the budget is spent; not separated: "
                f"{', '.join(open_pairs) or 'a model not rated yet'}; stopping")
    games: dict[str, int] = {}
    for entry in report.next_round:
        games[entry.game] = games.get(entry.game, 0) + len(entry.models)
    players = sorted({m for entry in report.next_round for m in entry.models})
    return (f"after {report.matches} matches: {pairs}; next round: "
            f"{sum(games.values())} matches of {', '.join(players)} in "
            + ", ".join(f"{game} ({count})" for game, count in games.items()))
