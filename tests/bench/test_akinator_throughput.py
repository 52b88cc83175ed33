"""bench/akinator_throughput.py's rows play the same games: the bare rules loop (no engine) applies exactly the
moves the engine applies, so the two rows' steps/s compare like for like."""

from __future__ import annotations

import pytest
from akinator_throughput import MEMORY, measure, measure_rules_only


def test_the_rules_only_loop_plays_the_same_games_as_the_engine() -> None:
    engine = measure(MEMORY, 30)
    rules = measure_rules_only(30)
    assert rules.games == engine.games == 30
    assert rules.steps == engine.steps
    assert 30 * 2 <= rules.steps <= 30 * 40  # Akinator level 1: at most 20 turns of a guess and a verdict


def test_the_rules_only_loop_refuses_no_games() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        measure_rules_only(0)
