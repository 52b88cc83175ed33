"""Sample sizes for telling two models apart: the formula, its inverse, and a simulation that checks its power."""

from __future__ import annotations

import math
import random
from statistics import NormalDist

import pytest
from typer.testing import CliRunner

from playeval.analysis.power import detectable, game_numbers, matches_needed, requirement
from playeval.cli.main import app


def test_textbook_value() -> None:
    # 0.45 against 0.55 at 95 % with 80 % power: about 392 per group (Fleiss, no continuity correction)
    assert matches_needed(0.1) == 392
    assert matches_needed(0.2) < matches_needed(0.1) / 3
    assert matches_needed(0.1, base=0.8) < matches_needed(0.1)


def test_more_models_share_the_level() -> None:
    assert requirement(0.1, 2).per_model == 392
    four = requirement(0.1, 4)
    assert four.alpha_each == pytest.approx(0.05 / 3)
    assert four.per_model > 392


def test_detectable_inverts_the_formula() -> None:
    assert detectable(392) == pytest.approx(0.1, abs=0.002)
    assert detectable(3, models=3) > 0.9
    assert game_numbers(474, 6) == 79


def test_the_formula_gives_its_power_in_simulation() -> None:
    """Two-proportion z-tests on simulated matches at the planned n find the difference about 80 % of the time."""
    n = matches_needed(0.1)
    rng = random.Random(5)
    z = NormalDist().inv_cdf(0.975)
    found = 0
    trials = 400
    for _ in range(trials):
        a = sum(rng.random() < 0.45 for _ in range(n))
        b = sum(rng.random() < 0.55 for _ in range(n))
        pooled = (a + b) / (2 * n)
        se = math.sqrt(2 * pooled * (1 - pooled) / n)
        found += abs(b - a) / n / se > z
    assert 0.72 <= found / trials <= 0.88


@pytest.mark.parametrize("detect", [0.0, 1.0, -0.1])
def test_bad_differences_are_refused(detect: float) -> None:
    with pytest.raises(ValueError):
        matches_needed(detect)


def test_plan_command() -> None:
    result = CliRunner().invoke(app, ["plan", "--games", "math,undercover", "--models", "a,b,c", "--detect", "0.1"])
    assert result.exit_code == 0, result.output
    assert "474" in result.output and "undercover" in result.output and "normal approximation" in result.output
    inverse = CliRunner().invoke(app, ["plan", "--games", "math", "--models", "2", "--n", "392"])
    assert inverse.exit_code == 0, inverse.output
    assert "0.10" in inverse.output
    lonely = CliRunner().invoke(app, ["plan", "--games", "math", "--models", "1"])
    assert lonely.exit_code != 0
