"""Normal rules give the right results; the call's contract (arguments, errors, JSON) holds."""

from __future__ import annotations

import pickle

import pytest
from sandbox_helpers import WORD_RESULTS, WORD_RULE, WORDS, assert_healthy

from playeval.sandbox import Sandbox, SandboxError, run_function

pytestmark = pytest.mark.timeout(120)

SEQUENCE_RULE = (
    "def generate_next(current_value, index):\n    return current_value * 2 if index % 2 == 0 else current_value + 3\n"
)


def test_a_word_rule_gives_one_boolean_per_word(sandbox: Sandbox) -> None:
    assert sandbox.run_function(WORD_RULE, "rule", WORDS) == WORD_RESULTS


def test_fifty_words_in_one_call(sandbox: Sandbox) -> None:
    words = [(word,) for (word,) in WORDS] * 10
    assert sandbox.run_function(WORD_RULE, "rule", words) == WORD_RESULTS * 10


def test_a_sequence_rule_over_ints_and_floats(sandbox: Sandbox) -> None:
    rows: list[tuple[object, ...]] = [(1, 0), (2, 1), (5, 2), (1.5, 3)]
    assert sandbox.run_function(SEQUENCE_RULE, "generate_next", rows) == [2, 5, 10, 4.5]


def test_math_re_and_string_by_name_and_by_import(sandbox: Sandbox) -> None:
    source = (
        "import re\n"
        "from math import sqrt\n"
        "def rule(word):\n"
        "    vowels = len(re.findall('[aeiou]', word))\n"
        "    return [vowels, math.floor(sqrt(len(word))), word[0] in string.ascii_lowercase, string.capwords(word)]\n"
    )
    assert sandbox.run_function(source, "rule", [("apple",), ("Tree",)]) == [
        [2, 2, True, "Apple"],
        [2, 2, False, "Tree"],
    ]


def test_plain_python_constructs_are_allowed(sandbox: Sandbox) -> None:
    source = (
        "LIMIT = 3\n"
        "def helper(word):\n"
        "    return sorted(set(word))\n"
        "def rule(word, n):\n"
        "    counts = {}\n"
        "    for ch in word:\n"
        "        counts[ch] = counts.get(ch, 0)\n"
        "        counts[ch] += 1\n"
        "    total = 0\n"
        "    for i, (a, b) in enumerate(zip(word, word[1:])):\n"
        "        total += ord(b) - ord(a)\n"
        "    evens = [x for x in range(n) if x % 2 == 0]\n"
        "    squares = {str(x): x * x for x in evens}\n"
        "    try:\n"
        "        ratio = round(divmod(n, 0)[0])\n"
        "    except ZeroDivisionError:\n"
        "        ratio = -1\n"
        "    print('debugging goes nowhere', word)\n"
        "    label = f'{word!r:>8}|{n:03d}|' + '{}-{}'.format(n, LIMIT) + '%s' % word[:1]\n"
        "    return [max(counts.values()), total, squares, ratio, helper(word), label,\n"
        "            any(c.isupper() for c in word), all(isinstance(c, str) for c in word),\n"
        "            abs(-n), min(n, LIMIT), sum(evens), list(reversed(evens)), str(n) + chr(65), bool(n),\n"
        "            int('7') + float('0.5'), tuple(evens)]\n"
    )
    (result,) = sandbox.run_function(source, "rule", [("hello", 5)])
    assert result == [
        2, 7, {"0": 0, "2": 4, "4": 16}, -1, ["e", "h", "l", "o"], " 'hello'|005|5-3h",
        False, True, 5, 3, 6, [4, 2, 0], "5A", True, 7.5, [0, 2, 4],
    ]  # fmt: skip


def test_dict_results_need_string_keys_and_tuples_come_back_as_lists(sandbox: Sandbox) -> None:
    source = "def rule(word):\n    return {'word': word, 'pair': (word, len(word)), 'none': None}\n"
    assert sandbox.run_function(source, "rule", [("ab",)]) == [{"word": "ab", "pair": ["ab", 2], "none": None}]


def test_arguments_arrive_as_json_values(sandbox: Sandbox) -> None:
    source = "def rule(a, b, c):\n    return [a, b, c, isinstance(b, list)]\n"
    assert sandbox.run_function(source, "rule", [(None, (1, 2), {"k": [True]})]) == [
        [None, [1, 2], {"k": [True]}, True]
    ]


def test_a_lambda_assigned_at_top_level_is_a_function(sandbox: Sandbox) -> None:
    assert sandbox.run_function("rule = lambda w: w * 2\n", "rule", [("ab",)]) == ["abab"]


def test_no_inputs_give_no_results_but_the_code_is_still_checked(sandbox: Sandbox) -> None:
    assert sandbox.run_function(WORD_RULE, "rule", []) == []
    with pytest.raises(SandboxError) as caught:
        sandbox.run_function("import os\ndef rule(w):\n    return 1\n", "rule", [])
    assert caught.value.reason == "forbidden"


def test_module_state_does_not_survive_between_calls(sandbox: Sandbox) -> None:
    source = "seen = []\ndef rule(word):\n    seen.append(word)\n    return len(seen)\n"
    assert sandbox.run_function(source, "rule", [("a",), ("b",)]) == [1, 2]
    assert sandbox.run_function(source, "rule", [("c",)]) == [1]


@pytest.mark.parametrize(
    ("source", "detail"),
    [
        ("def rule(word:\n    return 1\n", "line 1"),
        ("def rule(word):\nreturn 1\n", "line 2"),
        ("def other(word):\n    return 1\n", "no top-level function 'rule'"),
        ("return 1\ndef rule(word):\n    return 1\n", "line 1"),
        ("x = (" * 300 + "1" + ")" * 300 + "\ndef rule(w):\n    return x\n", ""),
        ("def rule(w):\n    return 1\x00\n", ""),
    ],
    ids=["unclosed", "indentation", "missing-function", "return-outside", "too-nested", "null-byte"],
)
def test_code_that_does_not_parse_is_a_syntax_error(sandbox: Sandbox, source: str, detail: str) -> None:
    with pytest.raises(SandboxError) as caught:
        sandbox.run_function(source, "rule", [("word",)])
    assert caught.value.reason == "syntax"
    assert detail in caught.value.detail
    assert_healthy(sandbox)


@pytest.mark.parametrize(
    ("source", "detail"),
    [
        ("def rule(word):\n    return word[10]\n", "IndexError at line 2"),
        ("def rule(word):\n    return undefined_name\n", "NameError"),
        ("def rule(word):\n    raise ValueError('no')\n", "ValueError at line 2: no"),
        ("def rule(word):\n    raise ValueError('x' * 10**6)\n", "ValueError"),
        ("rule = 3\n", "not a function"),
        ("def rule(word):\n    return {1, 2}\n", "set, which is not a JSON value"),
        ("def rule(word):\n    return word.encode()\n", "bytes"),
        ("def rule(word):\n    return lambda: word\n", "function"),
        ("def rule(word):\n    yield word\n", "generator"),
        ("def rule(word):\n    return {1: word}\n", "dict key of type int"),
        ("def rule(word):\n    x = []\n    x.append(x)\n    return x\n", "nested deeper"),
        ("def rule(word):\n    return 10 ** 5000\n", "cannot be encoded"),
        ("def rule(word):\n    return rule(word)\n", "RecursionError"),
        ("def rule(a, b):\n    return a\n", "TypeError"),
    ],
    ids=[
        "index-error", "name-error", "raise", "huge-message", "not-callable", "set", "bytes", "function",
        "generator", "int-keys", "cycle", "huge-int", "recursion", "wrong-arity",
    ],
)  # fmt: skip
def test_a_failing_function_is_crashed_with_a_useful_detail(sandbox: Sandbox, source: str, detail: str) -> None:
    with pytest.raises(SandboxError) as caught:
        sandbox.run_function(source, "rule", [("word",)])
    assert caught.value.reason == "crashed"
    assert detail in caught.value.detail
    assert len(caught.value.detail) <= 2000
    assert_healthy(sandbox)


def test_the_error_carries_its_reason_in_its_message_and_pickles() -> None:
    error = SandboxError("timeout", "the code ran longer than 2 s and was killed")
    assert str(error) == "timeout: the code ran out of time: the code ran longer than 2 s and was killed"
    copy = pickle.loads(pickle.dumps(error))
    assert (copy.reason, copy.detail) == ("timeout", error.detail)
    with pytest.raises(ValueError, match="unknown sandbox reason"):
        SandboxError("boom", "x")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("name", "inputs", "timeout_s", "error"),
    [
        ("_rule", [("a",)], 1.0, ValueError),
        ("not valid", [("a",)], 1.0, ValueError),
        ("def", [("a",)], 1.0, ValueError),
        ("rule", [("a",)], 0.0, ValueError),
        ("rule", [("a",)], float("inf"), ValueError),
        ("rule", [("a",)], 61.0, ValueError),
        ("rule", ["abc"], 1.0, TypeError),
        ("rule", [(object(),)], 1.0, TypeError),
    ],
    ids=["underscore", "not-identifier", "keyword", "zero-timeout", "infinite-timeout", "long-timeout", "bare-str",
         "not-json"],
)  # fmt: skip
def test_a_bad_call_is_the_callers_error(
    sandbox: Sandbox, name: str, inputs: list[tuple[object, ...]], timeout_s: float, error: type[Exception]
) -> None:
    with pytest.raises(error):
        sandbox.run_function(WORD_RULE, name, inputs, timeout_s)


def test_a_source_longer_than_the_limit_is_forbidden() -> None:
    with Sandbox(workers=1, max_source_chars=100) as small:
        with pytest.raises(SandboxError) as caught:
            small.run_function(WORD_RULE + "#" * 100, "rule", [("a",)])
        assert caught.value.reason == "forbidden"
        assert small.worker_pids() == []  # refused before any worker was needed


def test_the_module_level_function_uses_a_default_sandbox() -> None:
    assert run_function(WORD_RULE, "rule", WORDS) == WORD_RESULTS
    with pytest.raises(SandboxError) as caught:
        run_function("def rule(w):\n    return ().__class__\n", "rule", [("a",)])
    assert caught.value.reason == "forbidden"


def test_unicode_round_trips_and_a_lone_surrogate_is_refused(sandbox: Sandbox) -> None:
    assert sandbox.run_function("def rule(w):\n    return w.upper() + 'é😀'\n", "rule", [("ßé😀",)]) == ["SSÉ😀é😀"]
    with pytest.raises(SandboxError) as caught:
        sandbox.run_function("def rule(w):\n    return chr(0xD800)\n", "rule", [("a",)])
    assert caught.value.reason == "crashed"
    with pytest.raises(SandboxError) as caught:
        sandbox.run_function("def rule(w):\n    raise ValueError(chr(0xD800))\n", "rule", [("a",)])
    assert caught.value.detail.encode("utf-8")  # the detail is printable


def test_inputs_may_be_any_iterable_of_rows(sandbox: Sandbox) -> None:
    rows = ((word,) for word in ("ab", "cd"))
    assert sandbox.run_function("def rule(w):\n    return w[::-1]\n", "rule", rows) == ["ba", "dc"]
