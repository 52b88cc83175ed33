"""Ranking agreement statistics against GameArena's Appendix C (Table 6), Table 4 and Appendix D (Tables 7-8)."""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from decimal import ROUND_HALF_UP, Decimal
from itertools import combinations, permutations

import pytest

from playeval.analysis.ranking import (
    EXACT_TAU_MAX_ITEMS,
    KendallResult,
    fewest_matches,
    fewest_models,
    inversion_counts,
    kendall_tau,
    kendall_tau_test,
    ranking_from_scores,
    rbo,
    rbo_permutation_test,
)

# Table 6 (Appendix C): each source's rank of the five models. Rows with missing ranks (Auto Arena, AgentBench)
# are left out; LiveBench Language is not used by Tables 4 and 8.
MODELS = ("Claude 3.5 Sonnet", "Gemini-1.5 Pro", "GPT-4o", "LLaMA3.1 405B", "Mistral Large 2")
TABLE6_RANKS: dict[str, tuple[int, int, int, int, int]] = {
    "Akinator-Outcome": (1, 2, 3, 4, 5),
    "Taboo-Outcome": (4, 5, 1, 3, 2),
    "Bluffing-Outcome": (1, 2, 3, 4, 5),
    "Akinator-Retro": (1, 3, 2, 4, 5),
    "Taboo-Retro": (1, 3, 2, 4, 5),
    "Bluffing-Retro": (1, 2, 3, 4, 5),
    "Chatbot Arena": (3, 2, 1, 4, 5),
    "LiveBench Reasoning": (1, 4, 2, 3, 5),
    "GPQA": (1, 4, 2, 3, 5),
}


def order(source: str) -> list[str]:
    """A Table 6 row as a best-first list of model names."""
    return [model for _, model in sorted(zip(TABLE6_RANKS[source], MODELS, strict=True))]


def two_places(value: float) -> float:
    """Round half up to 2 places, as the paper prints (0.855 -> 0.86; float round() would give 0.85)."""
    return float(Decimal(repr(round(value, 9))).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


GAMES = ("Akinator-Outcome", "Akinator-Retro", "Taboo-Outcome", "Taboo-Retro", "Bluffing-Outcome", "Bluffing-Retro")
BENCHMARKS = ("Chatbot Arena", "LiveBench Reasoning", "GPQA")

# Table 4 (section 4.5): (Kendall's tau, RBO with p = 0.9) of each GameArena ranking against each benchmark.
TABLE4: dict[tuple[str, str], tuple[float, float]] = {
    ("Akinator-Outcome", "Chatbot Arena"): (0.4, 0.86),
    ("Akinator-Outcome", "LiveBench Reasoning"): (0.6, 0.93),
    ("Akinator-Outcome", "GPQA"): (0.6, 0.93),
    ("Akinator-Retro", "Chatbot Arena"): (0.6, 0.93),
    ("Akinator-Retro", "LiveBench Reasoning"): (0.8, 0.98),
    ("Akinator-Retro", "GPQA"): (0.8, 0.98),
    ("Taboo-Outcome", "Chatbot Arena"): (0.2, 0.74),
    ("Taboo-Outcome", "LiveBench Reasoning"): (-0.2, 0.61),
    ("Taboo-Outcome", "GPQA"): (-0.2, 0.61),
    ("Taboo-Retro", "Chatbot Arena"): (0.6, 0.93),
    ("Taboo-Retro", "LiveBench Reasoning"): (0.8, 0.98),
    ("Taboo-Retro", "GPQA"): (0.8, 0.98),
    ("Bluffing-Outcome", "Chatbot Arena"): (0.4, 0.86),
    ("Bluffing-Outcome", "LiveBench Reasoning"): (0.6, 0.93),
    ("Bluffing-Outcome", "GPQA"): (0.6, 0.93),
    ("Bluffing-Retro", "Chatbot Arena"): (0.4, 0.86),
    ("Bluffing-Retro", "LiveBench Reasoning"): (0.6, 0.93),
    ("Bluffing-Retro", "GPQA"): (0.6, 0.93),
}

# Table 4 cells that do NOT follow from the paper's own Table 6 (value printed -> value computed from Table 6):
#   Taboo-Outcome vs Chatbot Arena: tau 0.2 -> -0.2, RBO 0.74 -> 0.88
#   Taboo-Outcome vs LiveBench Reasoning and vs GPQA: tau -0.2 -> 0.0, RBO 0.61 -> 0.81
#   Akinator-Retro and Taboo-Retro vs Chatbot Arena: RBO 0.93 -> 0.86 (their tau 0.6 is consistent)
#   Akinator-Retro and Taboo-Retro vs LiveBench Reasoning and vs GPQA: RBO 0.98 -> 0.97 (tau 0.8 is consistent;
#     Table 6 swaps the models ranked 3rd and 4th, and 0.98 would need a swap of 4th and 5th)
# Table 8's permutation p-values for these pairs do agree with Table 6 (see test_table8_agrees_with_table6).
INCONSISTENT: dict[tuple[str, str, str], float] = {  # (game, benchmark, statistic) -> value from Table 6
    ("Taboo-Outcome", "Chatbot Arena", "tau"): -0.2,
    ("Taboo-Outcome", "Chatbot Arena", "rbo"): 0.88,
    ("Taboo-Outcome", "LiveBench Reasoning", "tau"): 0.0,
    ("Taboo-Outcome", "LiveBench Reasoning", "rbo"): 0.81,
    ("Taboo-Outcome", "GPQA", "tau"): 0.0,
    ("Taboo-Outcome", "GPQA", "rbo"): 0.81,
    ("Akinator-Retro", "Chatbot Arena", "rbo"): 0.86,
    ("Taboo-Retro", "Chatbot Arena", "rbo"): 0.86,
    ("Akinator-Retro", "LiveBench Reasoning", "rbo"): 0.97,
    ("Akinator-Retro", "GPQA", "rbo"): 0.97,
    ("Taboo-Retro", "LiveBench Reasoning", "rbo"): 0.97,
    ("Taboo-Retro", "GPQA", "rbo"): 0.97,
}

CELLS = [(game, bench, stat) for game in GAMES for bench in BENCHMARKS for stat in ("tau", "rbo")]


def statistic(game: str, bench: str, stat: str) -> float:
    a, b = order(game), order(bench)
    return kendall_tau(a, b).tau if stat == "tau" else two_places(rbo(a, b, 0.9))


def test_headline_pair_akinator_outcome_vs_chatbot_arena() -> None:
    a, b = order("Akinator-Outcome"), order("Chatbot Arena")
    result = kendall_tau(a, b)
    assert isinstance(result, KendallResult)
    assert (result.concordant, result.discordant, result.n) == (7, 3, 5)
    assert result.z == pytest.approx(0.4 / math.sqrt(0.1))
    assert result.p == pytest.approx(0.5 * math.erfc(0.4 / math.sqrt(0.2)))
    assert round(result.tau, 2) == 0.4
    value = rbo(a, b)
    assert value == pytest.approx(0.855, abs=1e-12)
    assert two_places(value) == 0.86


def test_truncated_rbo_by_hand() -> None:
    # Akinator-Outcome: Claude, Gemini, GPT-4o, LLaMA, Mistral; Chatbot Arena: GPT-4o, Gemini, Claude, LLaMA, Mistral.
    # A_1 = 0, A_2 = 1/2 ({Gemini}), A_3 = A_4 = A_5 = 1.
    # Eq. 5: 0.1 * (0 + 0.5 * 0.9 + 0.9^2 + 0.9^3 + 0.9^4) = 0.1 * 2.6451 = 0.26451.
    a, b = order("Akinator-Outcome"), order("Chatbot Arena")
    assert rbo(a, b, 0.9, extrapolated=False) == pytest.approx(0.26451, abs=1e-12)
    # RBO_ext adds the tail: 0.9^5 + (0.1 / 0.9) * (0.5 * 0.81 + 0.729 + 0.6561 + 0.59049) = 0.59049 + 0.26451.
    assert rbo(a, b, 0.9) == pytest.approx(0.59049 + 0.26451, abs=1e-12)


@pytest.mark.parametrize(("game", "bench", "stat"), [c for c in CELLS if c not in INCONSISTENT])
def test_table4_cells_consistent_with_table6(game: str, bench: str, stat: str) -> None:
    paper_tau, paper_rbo = TABLE4[(game, bench)]
    expected = paper_tau if stat == "tau" else paper_rbo
    assert statistic(game, bench, stat) == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize(("game", "bench", "stat"), list(INCONSISTENT))
def test_table4_cells_inconsistent_with_table6(game: str, bench: str, stat: str) -> None:
    paper_tau, paper_rbo = TABLE4[(game, bench)]
    printed = paper_tau if stat == "tau" else paper_rbo
    computed = statistic(game, bench, stat)
    assert computed == pytest.approx(INCONSISTENT[(game, bench, stat)], abs=1e-12)
    assert computed != pytest.approx(printed, abs=1e-6)


def test_consistent_cells_count() -> None:
    assert len(CELLS) == 36
    assert len([c for c in CELLS if c not in INCONSISTENT]) == 24


# Table 7: tau, z and one-sided p, with the pair of Table 6 rankings that gives that tau.
TABLE7 = [
    (-0.2, -0.6325, 0.7365, ("Taboo-Outcome", "Chatbot Arena")),
    (0.2, 0.6325, 0.2635, None),
    (0.4, 1.2649, 0.1038, ("Akinator-Outcome", "Chatbot Arena")),
    (0.6, 1.8974, 0.0287, ("Akinator-Outcome", "LiveBench Reasoning")),
    (0.8, 2.5298, 0.0057, ("Akinator-Retro", "GPQA")),
]


def _table7_pair(pair: tuple[str, str] | None) -> tuple[list[str], list[str]]:
    if pair is None:
        # No two rankings of Table 6 are 0.2 apart; this pair has 4 discordant pairs of 10.
        return list(MODELS), ["GPT-4o", "Gemini-1.5 Pro", "Claude 3.5 Sonnet", "Mistral Large 2", "LLaMA3.1 405B"]
    return order(pair[0]), order(pair[1])


@pytest.mark.parametrize(("tau", "z", "p", "pair"), TABLE7)
def test_table7_z_scores(tau: float, z: float, p: float, pair: tuple[str, str] | None) -> None:
    result = kendall_tau(*_table7_pair(pair))
    assert result.tau == pytest.approx(tau, abs=1e-12)
    assert round(result.z, 4) == z


@pytest.mark.parametrize(("tau", "z", "p", "pair"), [row for row in TABLE7 if row[0] in (-0.2, 0.2, 0.8)])
def test_table7_p_values(tau: float, z: float, p: float, pair: tuple[str, str] | None) -> None:
    assert round(kendall_tau(*_table7_pair(pair)).p, 4) == p


@pytest.mark.parametrize(("tau", "exact_p", "paper_p"), [(0.4, 0.1030, 0.1038), (0.6, 0.0289, 0.0287)])
def test_table7_p_values_printed_from_z_rounded_to_two_places(tau: float, exact_p: float, paper_p: float) -> None:
    # The paper's 0.1038 and 0.0287 are 1 - Phi of z rounded to 1.26 and 1.90 (a table look-up); 1 - Phi of the
    # z it prints (1.2649, 1.8974) is 0.1030 and 0.0289. Our p is the exact one, within 1e-3 of the printed one.
    pair = next(row[3] for row in TABLE7 if row[0] == tau)
    result = kendall_tau(*_table7_pair(pair))
    assert round(result.p, 4) == exact_p
    assert abs(result.p - paper_p) < 1e-3
    assert round(0.5 * math.erfc(round(result.z, 2) / math.sqrt(2)), 4) == paper_p


def test_kendall_standard_variance() -> None:
    result = kendall_tau(order("Akinator-Outcome"), order("Chatbot Arena"), variance="standard")
    n = 5
    assert result.tau == pytest.approx(0.4)
    assert result.z == pytest.approx(0.4 / math.sqrt(2 * (2 * n + 5) / (9 * n * (n - 1))))
    assert result.z == pytest.approx(0.4 * math.sqrt(6))
    assert result.p == pytest.approx(0.5 * math.erfc(result.z / math.sqrt(2)))
    assert result.p > kendall_tau(order("Akinator-Outcome"), order("Chatbot Arena")).p


def test_kendall_extremes_and_any_hashables() -> None:
    same = kendall_tau([1, 2, 3], [1, 2, 3])
    assert (same.tau, same.concordant, same.discordant, same.n) == (1.0, 3, 0, 3)
    reverse = kendall_tau([(0, "a"), (1, "b")], [(1, "b"), (0, "a")])
    assert reverse.tau == -1.0
    assert reverse.p == pytest.approx(1 - 0.5 * math.erfc(1 / math.sqrt(2)))


def test_rbo_extremes() -> None:
    items = list(MODELS)
    assert rbo(items, items) == pytest.approx(1.0)
    assert rbo(items, items, extrapolated=False) == pytest.approx(1 - 0.9**5)
    backwards = rbo(items, items[::-1])
    assert 0 < backwards < rbo(items, items[1:] + items[:1])
    assert rbo(items, items, p=0.5) == pytest.approx(1.0)


@pytest.mark.parametrize("func", [kendall_tau, rbo, rbo_permutation_test])
def test_invalid_rankings(func: Callable[[Sequence[str], Sequence[str]], object]) -> None:
    bad = [
        (["a", "b"], ["a", "c"]),  # different items
        (["a", "b", "a"], ["a", "b", "a"]),  # repeated item
        (["a", "b", "b"], ["a", "b"]),  # repeated item, same set
        (["a"], ["a"]),  # fewer than two
        ([], []),
    ]
    for a, b in bad:
        with pytest.raises(ValueError):
            func(a, b)


@pytest.mark.parametrize("p", [0.0, 1.0, -0.1, 1.5])
def test_rbo_persistence_range(p: float) -> None:
    with pytest.raises(ValueError):
        rbo(["a", "b"], ["b", "a"], p)
    with pytest.raises(ValueError):
        rbo(["a", "b"], ["b", "a"], p, extrapolated=False)


def exact_permutation_p(a: list[str], b: list[str], p: float = 0.9) -> float:
    """The permutation p-value over all n! orderings (what 1000 random draws estimate)."""
    observed = rbo(a, b, p)
    null = [rbo(a, list(perm), p) for perm in permutations(a)]
    return sum(1 for value in null if value >= observed - 1e-12) / len(null)


def test_permutation_p_value_akinator_outcome_vs_chatbot_arena() -> None:
    a, b = order("Akinator-Outcome"), order("Chatbot Arena")
    # Exactly 30 of the 120 orderings reach RBO >= 0.855.
    assert exact_permutation_p(a, b) == 30 / 120
    value = rbo_permutation_test(a, b, 0.9, 1000, seed=0)
    # Tolerance 0.05: the 1000-draw estimate has standard error sqrt(0.25 * 0.75 / 1000) = 0.0137 around the exact
    # 0.25 (the paper's 0.2517 is itself such an estimate); 0.05 is about 3.6 standard errors.
    assert value == pytest.approx(0.2517, abs=0.05)
    assert value == rbo_permutation_test(a, b, 0.9, 1000, seed=0)
    assert rbo_permutation_test(a, b, n=20000, seed=1) == pytest.approx(0.25, abs=0.01)  # 3 s.e. = 0.009


def test_permutation_test_is_deterministic_and_ignores_the_global_random() -> None:
    a, b = order("Akinator-Outcome"), order("Chatbot Arena")
    random.seed(12345)
    first = rbo_permutation_test(a, b, seed=7)
    state = random.getstate()
    random.seed(999)
    random.random()
    assert rbo_permutation_test(a, b, seed=7) == first
    random.setstate(state)
    assert rbo_permutation_test(a, b, seed=7) == first
    values = {rbo_permutation_test(a, b, n=200, seed=seed) for seed in range(5)}
    assert len(values) > 1  # the seed matters


def test_permutation_test_counts_ties() -> None:
    # Two items: the null is the observed ordering half the time, so p ~ 0.5 (never 0).
    assert rbo_permutation_test(["x", "y"], ["x", "y"], n=2000, seed=3) == pytest.approx(0.5, abs=0.05)
    with pytest.raises(ValueError):
        rbo_permutation_test(["x", "y"], ["x", "y"], n=0)


TABLE8: dict[tuple[str, str], float] = {
    ("Akinator-Outcome", "Chatbot Arena"): 0.2517,
    ("Akinator-Outcome", "LiveBench Reasoning"): 0.0849,
    ("Akinator-Outcome", "GPQA"): 0.0939,
    ("Taboo-Outcome", "Chatbot Arena"): 0.1868,
    ("Taboo-Outcome", "LiveBench Reasoning"): 0.6004,
    ("Taboo-Outcome", "GPQA"): 0.5954,
    ("Bluffing-Outcome", "Chatbot Arena"): 0.2348,
    ("Bluffing-Outcome", "LiveBench Reasoning"): 0.0929,
    ("Bluffing-Outcome", "GPQA"): 0.0789,
    ("Akinator-Retro", "Chatbot Arena"): 0.2288,
    ("Akinator-Retro", "LiveBench Reasoning"): 0.0250,
    ("Akinator-Retro", "GPQA"): 0.0280,
    ("Taboo-Retro", "Chatbot Arena"): 0.2498,
    ("Taboo-Retro", "LiveBench Reasoning"): 0.0290,
    ("Taboo-Retro", "GPQA"): 0.0280,
    ("Bluffing-Retro", "Chatbot Arena"): 0.2308,
    ("Bluffing-Retro", "LiveBench Reasoning"): 0.0859,
    ("Bluffing-Retro", "GPQA"): 0.0799,
}


@pytest.mark.parametrize(("game", "bench"), list(TABLE8))
def test_table8_agrees_with_table6(game: str, bench: str) -> None:
    # Each printed p-value is a 1000-draw estimate; it lies within 3 standard errors of the exact p-value of the
    # Table 6 rankings, and so does ours (identical ranking pairs get different printed values, e.g. 0.2517,
    # 0.2348 and 0.2308, which is that Monte Carlo noise).
    a, b = order(game), order(bench)
    exact = exact_permutation_p(a, b)
    tolerance = 3 * math.sqrt(exact * (1 - exact) / 1000)
    assert TABLE8[(game, bench)] == pytest.approx(exact, abs=tolerance)
    assert rbo_permutation_test(a, b, 0.9, 1000, seed=0) == pytest.approx(exact, abs=tolerance)


def test_ranking_from_scores() -> None:
    scores = {"b": 0.5, "a": 0.5, "c": 0.9, "d": 0.1}
    assert ranking_from_scores(scores) == ["c", "a", "b", "d"]
    assert ranking_from_scores(scores, higher_is_better=False) == ["d", "a", "b", "c"]
    assert ranking_from_scores({}) == []
    ranks = dict(zip(MODELS, TABLE6_RANKS["Chatbot Arena"], strict=True))
    assert ranking_from_scores({k: float(v) for k, v in ranks.items()}, higher_is_better=False) == order(
        "Chatbot Arena")
    with pytest.raises(ValueError):
        ranking_from_scores({"a": math.nan, "b": 1.0})


def _brute_force_p(a: Sequence[str], b: Sequence[str]) -> float:
    """The exact one-sided p-value by listing every ordering: the share with tau at least the observed one."""
    observed = kendall_tau(a, b).tau
    null = [kendall_tau(a, list(perm)).tau for perm in permutations(a)]
    return sum(1 for value in null if value >= observed - 1e-12) / len(null)


def test_inversion_counts_are_what_enumerating_every_ordering_gives() -> None:
    for n in range(1, 8):
        counted = [0] * (n * (n - 1) // 2 + 1)
        for perm in permutations(range(n)):
            counted[sum(1 for i, j in combinations(range(n), 2) if perm[i] > perm[j])] += 1
        assert inversion_counts(n) == counted
    assert sum(inversion_counts(12)) == math.factorial(12)


def test_three_models_in_the_same_order_are_not_significant() -> None:
    # The reported case: tau = 1 over three models. The paper's variance gives p = 0.04; exactly one of the
    # 3! = 6 orderings reaches tau = 1, so the exact p is 1/6.
    a = ["local/qwen2.5-coder-1.5b", "local/gemma-3-270m", "local/smollm2-135m"]
    assert kendall_tau(a, a).p == pytest.approx(0.0416, abs=1e-4)  # z = sqrt(3)
    test = kendall_tau_test(a, a)
    assert (test.tau, test.method, test.n) == (1.0, "exact", 3)
    assert test.p == pytest.approx(1 / 6) and test.p == test.smallest_p
    assert test.p > 0.05


@pytest.mark.parametrize(("game", "bench"), [("Akinator-Outcome", "Chatbot Arena"),
                                             ("Akinator-Outcome", "LiveBench Reasoning"),
                                             ("Akinator-Retro", "GPQA"), ("Taboo-Outcome", "Chatbot Arena"),
                                             ("Bluffing-Outcome", "Bluffing-Retro")])
def test_exact_tau_test_against_every_ordering(game: str, bench: str) -> None:
    a, b = order(game), order(bench)
    test = kendall_tau_test(a, b)
    assert test.method == "exact" and test.tau == kendall_tau(a, b).tau
    assert test.p == pytest.approx(_brute_force_p(a, b), abs=1e-12)
    # Table 7's row at tau = 0.8 has p = 0.0057 from the paper's variance; exactly 5 of 120 orderings reach it.
    if game == "Akinator-Retro":
        assert test.p == pytest.approx(5 / 120)


def test_the_normal_approximation_takes_over_for_many_items_and_agrees_with_the_exact_count() -> None:
    n = EXACT_TAU_MAX_ITEMS + 1
    items = list(range(n))
    shuffled = items[:]
    random.Random(4).shuffle(shuffled)
    rng = random.Random(5)
    near = items[:]
    for _ in range(400):  # a ranking that mostly agrees: adjacent swaps
        i = rng.randrange(n - 1)
        near[i], near[i + 1] = near[i + 1], near[i]
    for other in (shuffled, near, items):
        test = kendall_tau_test(items, other)
        assert test.method == "normal"
        counts = inversion_counts(n)
        exact = sum(counts[: test.discordant + 1]) / math.factorial(n)
        assert test.p == pytest.approx(exact, abs=2e-3)
    assert kendall_tau_test(items[:EXACT_TAU_MAX_ITEMS], items[:EXACT_TAU_MAX_ITEMS]).method == "exact"


def test_floors_for_models_and_matches() -> None:
    assert fewest_models() == 4  # 1/3! = 0.167, 1/4! = 0.042
    assert fewest_models(0.01) == 5  # 1/5! = 0.0083
    assert fewest_matches() == 4  # 1/C(6, 3) = 0.05 is not below 0.05; 1/C(8, 4) = 0.014 is
    assert fewest_matches(0.01) == 5  # 1/70 = 0.014; 1/252 = 0.004
    for bad in (0.0, 1.0, -0.5):
        with pytest.raises(ValueError):
            fewest_models(bad)
        with pytest.raises(ValueError):
            fewest_matches(bad)
