"""Does the leaderboard recover a known order? Simulated players of known skill on every game.

``mock/skill?p=P&seed=S`` plays any game at skill ``P``: at each move the game's scripted (strong) player's move
with probability ``P``, else its random baseline's. Four of them (``SKILLS``: 0.2, 0.4, 0.6, 0.8) play every game
of a run; the leaderboard built from the run (:func:`analysis.leaderboard.build_leaderboard`, the one
``playeval leaderboard`` prints) should rank them in the order of ``P``, overall and on each game, and its
intervals should cover the truth about 95 % of the time.

* :func:`skill_run` plays such a run with every other seat and role scripted (a game master that must write code
  is ``mock/player``), in this process.
* :func:`boards_by_numbers` builds the leaderboard of any range of the run's game numbers, so one long run gives
  the truth (all its game numbers) and many independent replicates (disjoint ranges of them): the setups of
  different game numbers are drawn independently.
* :func:`coverage` counts how often the replicates' 95 % intervals hold the truth: each board's win rate per player
  (the truth: its rate over the whole run) and each board's rating difference between adjacent players of a
  one-seat game (the truth: ``400/ln 10 · (logit r_i - logit r_j)``, the Bradley-Terry difference two players'
  true rates against the same game imply; pairs whose truth is within 0.02 of 0 or 1 are left out, their logits
  unbounded).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import pairwise

from playeval.analysis.boards import Boards
from playeval.analysis.bradley_terry import ELO_SCALE
from playeval.analysis.leaderboard import Leaderboard, build_leaderboard, played_matches
from playeval.analysis.played import PlayedMatch
from playeval.analysis.ranking import kendall_tau_test
from playeval.core.registry import GameRegistry
from playeval.engine import BatchRunner, RunConfig, create_run, run_config
from playeval.models import ModelHub
from playeval.store import Store

SKILLS: tuple[float, ...] = (0.2, 0.4, 0.6, 0.8)
CODE_MASTERS = ("functions_picnic", "math")
"""Games whose game master writes a rule's code: no scripted player can, so ``mock/player`` does."""


def skill_address(p: float, seed: int = 1) -> str:
    return f"mock/skill?p={p:g}&seed={seed}"


def skill_of(address: str) -> float:
    return float(address.split("p=", 1)[1].split("&", 1)[0])


def skill_config(games: Sequence[str], registry: GameRegistry, *, n: int, seed: int,
                 skills: Sequence[float] = SKILLS, concurrency: int = 16) -> RunConfig:
    """A run of the skill players on ``games``, every other seat and role scripted."""
    roles: dict[str, str] = {}
    for game_id in games:
        for role in registry.get(game_id).roles:
            code = role.name == "game_master" and game_id in CODE_MASTERS
            roles[f"{game_id}.{role.name}"] = "mock/player" if code else "scripted"
    # each player its own seed: players sharing one would make their moves coupled (where p=0.6 plays the strong
    # move, p=0.8 does too), their results correlated and their differences look surer than independent models'
    models = tuple(skill_address(p, seed=index + 1) for index, p in enumerate(skills))
    return RunConfig(games=tuple(games), models=models, opponent="scripted", n=n,
                     seed=seed, concurrency=concurrency, roles=roles, calibration=False)


async def skill_run(store: Store, registry: GameRegistry, config: RunConfig) -> str:
    """Play ``config`` in this process; returns the run's id."""
    run_id = create_run(store, registry, config)
    async with ModelHub(use_cache=False) as hub:
        await BatchRunner(store, hub, registry).run(run_id)
    return run_id


@dataclass(frozen=True)
class RunMatches:
    """A run's finished matches as the leaderboard reads them, each with its game number."""

    matches: tuple[tuple[int, PlayedMatch], ...]

    @classmethod
    def load(cls, store: Store, registry: GameRegistry, run_id: str) -> RunMatches:
        per_number = run_config(store, run_id).matches_per_number
        finished = [m for m in store.run_matches(run_id) if m.status == "finished" and m.match_index is not None]
        return cls(matches=tuple((record.match_index // per_number, found)  # type: ignore[operator]
                                 for record, found in played_matches(store, registry, finished)))


def boards_by_numbers(run: RunMatches, registry: GameRegistry, numbers: range, *, resamples: int = 200,
                      seed: int = 0) -> Leaderboard:
    """The leaderboard of the run's game numbers ``numbers``."""
    chosen = [match for number, match in run.matches if number in numbers]
    return build_leaderboard(chosen, Boards(registry), resamples=resamples, seed=seed)


@dataclass(frozen=True)
class OrderCheck:
    """A ranking against the truth: Kendall's tau and whether every adjacent pair is separated."""

    scope: str
    ranking: tuple[str, ...]
    tau: float
    separated: bool


def order_checks(board: Leaderboard) -> list[OrderCheck]:
    """Overall and per board: the skill players' order by rating against the order of their skill."""
    checks: list[OrderCheck] = []
    scopes = [("overall", board.overall_fit)] + [(b.name, b.fit) for b in board.boards]
    for scope, fit in scopes:
        if fit is None:
            continue
        ranked = tuple(row.player for row in fit.rows if row.player.startswith("mock/skill"))
        if len(ranked) < 2:
            continue
        truth = sorted(ranked, key=skill_of, reverse=True)
        tau = kendall_tau_test(truth, list(ranked)).tau
        separated = all(fit.separated(a, b) for a, b in pairwise(ranked))
        checks.append(OrderCheck(scope=scope, ranking=ranked, tau=tau, separated=separated))
    return checks


def true_rates(board: Leaderboard) -> dict[str, dict[str, float]]:
    """Per board name and player: the win rate (the truth, from a long run)."""
    return {b.name: {rate.player: rate.rate for rate in b.rates if rate.rate is not None} for b in board.boards}


@dataclass
class Coverage:
    """How often 95 % intervals held the truth, per kind of interval."""

    held: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    tried: dict[str, int] = field(default_factory=lambda: defaultdict(int))

    def add(self, kind: str, inside: bool) -> None:
        self.tried[kind] += 1
        self.held[kind] += int(inside)

    def rate(self, kind: str) -> float | None:
        return self.held[kind] / self.tried[kind] if self.tried[kind] else None


def _logit(p: float) -> float:
    return math.log(p / (1 - p))


def coverage(replicates: Sequence[Leaderboard], truth: Mapping[str, Mapping[str, float]],
             one_seat: Sequence[str]) -> Coverage:
    """Coverage of the replicates' win-rate intervals and (one-seat boards) adjacent rating-difference intervals."""
    found = Coverage()
    for board in replicates:
        for result in board.boards:
            rates = truth.get(result.name, {})
            for rate in result.rates:
                if rate.player in rates and rate.low is not None and rate.high is not None:
                    found.add("win rate", rate.low - 1e-9 <= rates[rate.player] <= rate.high + 1e-9)
            if result.game not in one_seat or result.fit is None:
                continue
            ranked = sorted((p for p in rates if p.startswith("mock/skill")), key=skill_of, reverse=True)
            for a, b in pairwise(ranked):
                ra, rb = rates[a], rates[b]
                if not (0.02 < ra < 0.98 and 0.02 < rb < 0.98):
                    continue
                if result.fit.row(a) is None or result.fit.row(b) is None:
                    continue
                _, low, high = result.fit.difference(a, b)
                found.add("rating difference", low <= ELO_SCALE * (_logit(ra) - _logit(rb)) <= high)
    return found


def one_seat_games(registry: GameRegistry, games: Sequence[str]) -> list[str]:
    return [g for g in games if sum(1 for seat in registry.get(g).seats if seat.evaluated) <= 1]
