"""One request in the worker: compile (cached), run the module body, call the function per input, answer.

The answer is the body of one frame: ``{"ok": true, "results": [...]}`` or ``{"ok": false, "reason": ...,
"detail": ...}``. Results must be JSON values (``None``, booleans, ints, floats, strings, lists or tuples, and
dicts with string keys, at most 64 levels deep) and fit in the output limit; that is checked before anything
is encoded, so a huge result is refused without building its text.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Callable, Mapping
from types import CodeType, TracebackType
from typing import Final

from ._guards import Guards
from ._policy import FILENAME, Refusal, compile_rule

_MAX_DEPTH: Final = 64
_DETAIL_CHARS: Final = 600
_WARM_UP_SOURCE: Final = "import re\ndef rule(word):\n    return bool(re.match('[a-z]', word)) and f'{word}' != ''\n"


class _Refused(Exception):
    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(reason, detail)
        self.reason = reason
        self.detail = detail


def _clip(text: str) -> str:
    return text if len(text) <= _DETAIL_CHARS else text[: _DETAIL_CHARS - 1] + "…"


def _rule_line(trace: TracebackType | None) -> int | None:
    line = None
    while trace is not None:
        if trace.tb_frame.f_code.co_filename == FILENAME:
            line = trace.tb_lineno
        trace = trace.tb_next
    return line


def _describe(error: BaseException) -> str:
    try:
        text = str(error)
    except Exception:
        text = "(a message that cannot be shown)"
    line = _rule_line(error.__traceback__)
    where = f" at line {line}" if line is not None else ""
    return _clip(f"{type(error).__name__}{where}: {text}" if text else f"{type(error).__name__}{where}")


def check_results(values: list[object], limit: int) -> None:
    """Refuse anything that is not a JSON value, too deep, or surely larger than ``limit`` bytes as JSON."""
    budget = limit - 2 - len(values)
    stack: list[tuple[object, int]] = [(value, 1) for value in values]
    while stack:
        value, depth = stack.pop()
        kind = type(value)
        if value is None or kind is bool or kind is int or kind is float:
            budget -= 1
        elif kind is str:
            budget -= len(value) + 2  # type: ignore[arg-type]
        elif kind is list or kind is tuple or kind is dict:
            if depth >= _MAX_DEPTH:
                raise _Refused("crashed", f"the function returned values nested deeper than {_MAX_DEPTH} levels")
            budget -= 2 + len(value)  # type: ignore[arg-type]
            if budget < 0:
                break
            if kind is dict:
                for key, item in value.items():  # type: ignore[attr-defined]
                    if type(key) is not str:
                        raise _Refused("crashed", f"the function returned a dict key of type {type(key).__name__}")
                    budget -= len(key) + 3
                    stack.append((item, depth + 1))
            else:
                stack.extend((item, depth + 1) for item in value)  # type: ignore[attr-defined]
        else:
            raise _Refused("crashed", f"the function returned a {kind.__name__}, which is not a JSON value")
        if budget < 0:
            break
    if budget < 0:
        raise _Refused("output_too_large", f"the results are larger than {limit} bytes as JSON")


def _encode_results(values: list[object], limit: int) -> bytes:
    check_results(values, limit)
    try:
        text = json.dumps(values, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    except (ValueError, TypeError, RecursionError) as error:
        raise _Refused("crashed", _clip(f"the results cannot be encoded as JSON: {error}")) from None
    if len(text) > limit:
        raise _Refused("output_too_large", f"the results take {len(text)} bytes as JSON, more than {limit}")
    return b'{"ok":true,"results":' + text + b"}"


def refusal(reason: str, detail: str) -> bytes:
    """The body of a refusing answer."""
    return json.dumps({"ok": False, "reason": reason, "detail": _clip(detail)}).encode("ascii")  # any str encodes


class RuleRunner:
    """Runs requests one after another; keeps only compiled code between them (never a namespace)."""

    def __init__(self, max_output_bytes: int, cache_size: int = 64) -> None:
        self._max_output_bytes = max_output_bytes
        self._cache_size = cache_size
        self._cache: OrderedDict[tuple[str, str], CodeType | Refusal] = OrderedDict()

    def warm_up(self) -> None:
        """Run a small rule end to end, so every lazy import happens before the worker loses its files."""
        self.handle({"source": _WARM_UP_SOURCE, "name": "rule", "inputs": [["apple"], ["Tree"]]})
        self._cache.clear()

    def _compiled(self, source: str, name: str) -> CodeType:
        key = (source, name)
        found = self._cache.get(key)
        if found is None:
            try:
                found = compile_rule(source, name)
            except Refusal as error:
                found = error
            self._cache[key] = found
            if len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)
        else:
            self._cache.move_to_end(key)
        if isinstance(found, Refusal):
            raise _Refused(found.reason, found.detail)
        return found

    def _run(self, code: CodeType, name: str, inputs: list[list[object]], guards: Guards) -> list[object]:
        namespace = guards.namespace()
        exec(code, namespace)
        function = namespace.get(name)
        if not callable(function):
            raise _Refused("crashed", f"{name!r} is not a function once the code has run")
        call: Callable[..., object] = function
        return [call(*arguments) for arguments in inputs]

    def handle(self, request: Mapping[str, object]) -> bytes:
        """The answer's body for one request ``{"source", "name", "inputs"}``."""
        source, name, inputs = request.get("source"), request.get("name"), request.get("inputs")
        if not isinstance(source, str) or not isinstance(name, str) or not isinstance(inputs, list):
            return refusal("crashed", "malformed request")
        if not all(isinstance(arguments, list) for arguments in inputs):
            return refusal("crashed", "malformed request: every input must be a list of arguments")
        guards = Guards()
        failure: tuple[str, str] | None = None
        results: list[object] = []
        try:
            results = self._run(self._compiled(source, name), name, inputs, guards)
        except _Refused as refused:
            failure = (refused.reason, refused.detail)
        except MemoryError:
            failure = ("memory", "the code ran out of memory")
        except BaseException as error:
            failure = ("crashed", _describe(error))
        if guards.violation is not None:
            return refusal("forbidden", guards.violation)
        if failure is not None:
            return refusal(*failure)
        try:
            return _encode_results(results, self._max_output_bytes)
        except _Refused as refused:
            return refusal(refused.reason, refused.detail)
        except MemoryError:
            results = []
            return refusal("memory", "the results ran out of memory while being checked")
