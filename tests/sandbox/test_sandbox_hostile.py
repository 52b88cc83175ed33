"""The hostile corpus: every escape, bomb and stall gets its reason, and leaves the caller and the sandbox healthy.

Each case names the reasons it may end with (several only where the outcome depends on which limit the
machine hits first). After each one the same sandbox must still answer a normal rule correctly, the caller's
environment must be untouched and no file may have appeared.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pytest
from sandbox_helpers import assert_healthy

from playeval.sandbox import Sandbox, SandboxError

pytestmark = pytest.mark.timeout(300)

CANARY = Path("/tmp/playeval-sandbox-canary")


@dataclass(frozen=True)
class Case:
    id: str
    source: str
    reasons: frozenset[str]
    timeout_s: float = 2.0


def case(id: str, body: str, *reasons: str, timeout_s: float = 2.0, prelude: str = "") -> Case:
    """A rule ``def rule(word):`` whose indented ``body`` lines are given one per line."""
    lines = "".join(f"    {line}\n" for line in body.split("\n"))
    return Case(id, f"{prelude}def rule(word):\n{lines}", frozenset(reasons), timeout_s)


FORBIDDEN = "forbidden"
CORPUS: list[Case] = [
    # type and object graph walks
    case("subclasses", "return ().__class__.__bases__[0].__subclasses__()", FORBIDDEN),
    case("list-class", "return str([].__class__)", FORBIDDEN),
    case("mro-walk", "return str(str.mro()[-1])", FORBIDDEN),
    case("getattr-class", "return str(getattr(word, '__class__'))", FORBIDDEN),
    case("getattr-default", "return str(getattr(word, '__class__', None))", FORBIDDEN),
    case("hasattr-dunder", "return hasattr(word, '__globals__')", FORBIDDEN),
    case("getattr-built-name", "return str(getattr(word, '_' + '_cla' + 'ss_' + '_'))", FORBIDDEN),
    case("function-globals", "return str(rule.__globals__)", FORBIDDEN),
    case("function-code", "return str(getattr(rule, '__code__'))", FORBIDDEN),
    case("type-builtin", "return str(type(word).__bases__)", FORBIDDEN),
    case("object-builtin", "return str(object)", FORBIDDEN),
    case("class-definition", "class X:\n    pass\nreturn 1", FORBIDDEN),
    case("lookalike-underscores", "return str(().\ufe4f\ufe4fclass\ufe4f\ufe4f)", "syntax", FORBIDDEN),
    # frames and tracebacks
    case("generator-frame", "g = (c for c in word)\nreturn str(g.gi_frame.f_back)", FORBIDDEN),
    case("generator-frame-getattr", "g = (c for c in word)\nreturn str(getattr(g, 'gi_frame'))", FORBIDDEN),
    case("generator-code", "g = (c for c in word)\nreturn str(getattr(g, 'gi_code'))", FORBIDDEN),
    case("traceback-frame", "try:\n    1 / 0\nexcept Exception as e:\n    return str(e.__traceback__.tb_frame)",
         FORBIDDEN),
    case("traceback-getattr", "try:\n    1 / 0\nexcept Exception as e:\n    return str(getattr(e, 'tb_frame', 0))",
         FORBIDDEN),
    case("sys-getframe", "import sys\nreturn str(sys._getframe(1))", FORBIDDEN),
    case("exception-context", "try:\n    1 / 0\nexcept Exception as e:\n    return str(e.__context__)", FORBIDDEN),
    # builtins and imports
    case("builtins-read", "return str(__builtins__)", FORBIDDEN),
    case("builtins-assign", "__builtins__ = {}\nreturn 1", FORBIDDEN),
    case("builtins-module", "return str(builtins)", FORBIDDEN),
    case("dunder-import", "return str(__import__('os'))", FORBIDDEN),
    case("import-os", "import os\nreturn os.getcwd()", FORBIDDEN),
    case("from-os-import", "from os import system\nreturn system('id')", FORBIDDEN),
    case("import-dotted", "import os.path\nreturn 1", FORBIDDEN),
    case("import-relative", "from . import secrets\nreturn 1", FORBIDDEN),
    case("import-star", "from math import *\nreturn 1", FORBIDDEN),
    case("allowed-module-hidden-member", "import re\nreturn str(re.enum)", FORBIDDEN),
    case("from-allowed-module-hidden-member", "from re import functools\nreturn 1", FORBIDDEN),
    case("string-formatter", "import string\nreturn string.Formatter().format('{0.__class__}', 1)", FORBIDDEN),
    case("globals", "return str(globals())", FORBIDDEN),
    case("vars", "return str(vars())", FORBIDDEN),
    case("dir", "return dir()", FORBIDDEN),
    # values that depend on the process (a string's hash is salted per interpreter: the rule's truth would too)
    case("hash", "return hash(word) % 2 == 0", FORBIDDEN),
    case("hash-alias", "h = hash\nreturn h(word) % 2 == 0", FORBIDDEN),
    case("id", "return id(word) % 2 == 0", FORBIDDEN),
    # code execution
    case("exec", "exec('import os')\nreturn 1", FORBIDDEN),
    case("eval", "return eval('1 + 1')", FORBIDDEN),
    case("compile", "return str(compile('1', 'x', 'eval'))", FORBIDDEN),
    case("exec-alias", "run = exec\nreturn 1", FORBIDDEN),
    case("exec-through-getattr", "import math\nreturn str(getattr(math, 'exec'))", FORBIDDEN),
    # files, processes, signals, environment, network
    case("open-passwd", "return open('/etc/passwd').read()", FORBIDDEN),
    case("open-write", f"open('{CANARY}', 'w').write('x')\nreturn 1", FORBIDDEN),
    case("os-fork", "import os\nreturn os.fork()", FORBIDDEN),
    case("os-system", "import os\nreturn os.system('touch /tmp/playeval-sandbox-canary')", FORBIDDEN),
    case("subprocess", "import subprocess\nreturn 1", FORBIDDEN),
    case("signal-kill", "import signal\nimport os\nos.kill(os.getppid(), signal.SIGKILL)\nreturn 1", FORBIDDEN),
    case("environ", "import os\nreturn dict(os.environ)", FORBIDDEN),
    case("socket", "import socket\nreturn socket.create_connection(('example.org', 80))", FORBIDDEN),
    case("ctypes", "import ctypes\nreturn 1", FORBIDDEN),
    # format strings
    case("format-attribute", "return '{0.__class__}'.format(1)", FORBIDDEN),
    case("format-map-attribute", "return '{x.__class__}'.format_map({'x': 1})", FORBIDDEN),
    case("format-unbound", "return str.format('{0.__class__}', 1)", FORBIDDEN),
    case("format-nested-spec", "return '{0:{1.real}}'.format(1, 2)", FORBIDDEN),
    case("fstring-attribute", "return f'{word.__class__}'", FORBIDDEN),
    # writes
    case("write-module-attribute", "import math\nmath.pi = 3\nreturn 1", FORBIDDEN),
    case("write-function-attribute", "rule.x = 1\nreturn 1", FORBIDDEN),
    case("augmented-module-attribute", "import math\nmath.pi += 1\nreturn 1", FORBIDDEN),
    # a forbidden access that is caught still counts
    case("swallowed-violation", "try:\n    getattr(word, '__class__')\nexcept:\n    pass\nreturn True", FORBIDDEN),
    # time bombs
    case("busy-loop", "while True:\n    pass", "timeout", timeout_s=0.5),
    case("busy-loop-catching-everything", "while True:\n    try:\n        pass\n    except:\n        pass",
         "timeout", timeout_s=0.5),
    case("huge-power", "return 10 ** 10 ** 10 > 1", "timeout", "memory", timeout_s=0.5),
    case("catastrophic-regex", "import re\nreturn bool(re.match('(a+)+$', 'a' * 40 + 'b'))", "timeout",
         timeout_s=0.5),
    case("huge-sum-in-c", "return sum(range(10 ** 15))", "timeout", timeout_s=0.5),
    Case("module-level-loop", "while True:\n    pass\ndef rule(word):\n    return 1\n", frozenset({"timeout"}), 0.5),
    # memory bombs
    case("string-bomb", "return len('x' * 10 ** 10)", "memory"),
    case("list-bomb", "return len([0] * 10 ** 10)", "memory"),
    case("doubling-list", "a = [0] * 10 ** 6\nwhile True:\n    a = a + a", "memory"),
    case("growing-list", "a = []\nwhile True:\n    a.append(word * 10000)", "memory", timeout_s=10.0),
    case("bytes-bomb", "return len(bytes(10 ** 10))", "memory"),
    # recursion
    case("deep-recursion", "return rule(word + 'x')", "crashed"),
    case("deep-nesting-result", "a = []\nfor i in range(10 ** 5):\n    a = [a]\nreturn a", "crashed"),
    # huge output
    case("huge-string", "return 'x' * 2_000_000", "output_too_large"),
    case("huge-list", "return list(range(10 ** 6))", "output_too_large"),
    case("shared-references", "a = [1] * 1000\nb = [a] * 1000\nreturn [b] * 1000", "output_too_large"),
    # not JSON
    case("returns-a-set", "return {1, 2}", "crashed"),
    case("returns-a-module", "import math\nreturn math", "crashed"),
    case("returns-a-function", "return rule", "crashed"),
    case("returns-an-exception", "return ValueError('x')", "crashed"),
    # syntax tricks
    case("async", "return 1", "forbidden", prelude="async def helper():\n    pass\n"),
    case("nonlocal", "x = 1\ndef inner():\n    nonlocal x\n    x = 2\ninner()\nreturn x", "forbidden"),
]  # fmt: skip


def test_the_corpus_ids_are_unique() -> None:
    ids = [hostile.id for hostile in CORPUS]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("hostile", CORPUS, ids=[hostile.id for hostile in CORPUS])
def test_hostile_code_gets_its_reason_and_leaves_everything_healthy(sandbox: Sandbox, hostile: Case) -> None:
    environment = dict(os.environ)
    with pytest.raises(SandboxError) as caught:
        sandbox.run_function(hostile.source, "rule", [("apple",), ("tree",)], timeout_s=hostile.timeout_s)
    assert caught.value.reason in hostile.reasons, str(caught.value)
    assert caught.value.detail
    assert dict(os.environ) == environment
    assert not CANARY.exists()
    assert_healthy(sandbox)


def test_huge_output_spread_over_many_inputs_is_too_large(sandbox: Sandbox) -> None:
    source = "def rule(word):\n    return word * 1000\n"
    with pytest.raises(SandboxError) as caught:
        sandbox.run_function(source, "rule", [("abcdefghij",)] * 200)
    assert caught.value.reason == "output_too_large"
    assert_healthy(sandbox)


def test_harmless_lookalikes_of_hostile_code_are_allowed(sandbox: Sandbox) -> None:
    source = (
        "import re\n"
        "def rule(word):\n"
        "    open_count = word.count('o')\n"
        "    type_ = len(word)\n"
        "    return ['{} {}'.format(word, open_count), '{0[0]}'.format(word), getattr(word, 'upper')(),\n"
        "            hasattr(word, 'lower'), re.sub('p+', 'P', word), type_]\n"
    )
    assert sandbox.run_function(source, "rule", [("apple",)]) == [["apple 0", "a", "APPLE", True, "aPle", 5]]
