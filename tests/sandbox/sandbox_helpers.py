"""The normal rule the sandbox tests use to check that a sandbox is still healthy."""

from __future__ import annotations

from playeval.sandbox import Sandbox

WORD_RULE = "def rule(word):\n    return len(word) > 4 and word[0] not in 'aeiou'\n"
WORDS = [("apple",), ("tree",), ("strong",), ("under",), ("bright",)]
WORD_RESULTS = [False, False, True, False, True]
SPIN = "def rule(word):\n    while True:\n        pass\n"


def assert_healthy(sandbox: Sandbox) -> None:
    """The sandbox still answers a normal rule correctly."""
    assert sandbox.run_function(WORD_RULE, "rule", WORDS) == WORD_RESULTS
