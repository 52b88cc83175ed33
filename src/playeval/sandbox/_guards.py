"""What a rule sees at run time: its builtins, read-only views of three modules, and the guards.

RestrictedPython's compile step turns ``a.b`` into ``_getattr_(a, "b")``, ``a[b]`` into ``_getitem_(a, b)``,
``a.b = c`` and ``a[b] = c`` into writes through ``_write_(a)``, ``import m`` into the builtins'
``__import__``, and so on; this module supplies those names. A ``Guards`` object lives for one request: the
first forbidden thing the code reaches for is recorded in ``violation`` (which the code cannot reach or reset),
so swallowing the ``Violation`` exception does not help it: the request is answered ``forbidden`` anyway.
"""

from __future__ import annotations

import builtins
import math
import operator
import re
import string
from collections.abc import Callable, Mapping
from types import ModuleType
from typing import Final, NoReturn

from RestrictedPython.Guards import guarded_iter_unpack_sequence, guarded_unpack_sequence
from RestrictedPython.transformer import INSPECT_ATTRIBUTES

from ._policy import ALLOWED_MODULES

_SAFE_BUILTIN_NAMES: Final = (
    "abs", "all", "any", "ascii", "bin", "bool", "bytes", "callable", "chr", "complex", "dict", "divmod",
    "enumerate", "filter", "float", "format", "frozenset", "hex", "int", "isinstance", "issubclass",
    "iter", "len", "list", "map", "max", "min", "next", "oct", "ord", "pow", "range", "repr", "reversed",
    "round", "set", "slice", "sorted", "str", "sum", "tuple", "zip",
    "ArithmeticError", "AssertionError", "AttributeError", "Exception", "IndexError", "KeyError",
    "LookupError", "NameError", "NotImplementedError", "OverflowError", "RecursionError", "RuntimeError",
    "StopIteration", "TypeError", "UnicodeError", "ValueError", "ZeroDivisionError",
)  # fmt: skip
SAFE_BUILTINS: Final[Mapping[str, object]] = {name: getattr(builtins, name) for name in _SAFE_BUILTIN_NAMES}
_DENIED_ATTRIBUTES: Final = INSPECT_ATTRIBUTES | {"mro"}
_FORMAT_METHODS: Final = frozenset({"format", "format_map"})
_RE_MEMBERS: Final = (
    "compile", "escape", "findall", "finditer", "fullmatch", "match", "search", "split", "sub", "subn", "error",
    "A", "ASCII", "I", "IGNORECASE", "M", "MULTILINE", "S", "DOTALL", "U", "UNICODE", "X", "VERBOSE", "NOFLAG",
)  # fmt: skip
_STRING_MEMBERS: Final = (
    "ascii_letters", "ascii_lowercase", "ascii_uppercase", "digits", "hexdigits", "octdigits", "punctuation",
    "printable", "whitespace", "capwords",
)  # fmt: skip
_INPLACE: Final[Mapping[str, Callable[[object, object], object]]] = {
    "+=": operator.iadd, "-=": operator.isub, "*=": operator.imul, "/=": operator.itruediv,
    "//=": operator.ifloordiv, "%=": operator.imod, "**=": operator.ipow, "<<=": operator.ilshift,
    ">>=": operator.irshift, "|=": operator.ior, "^=": operator.ixor, "&=": operator.iand,
    "@=": operator.imatmul,
}  # fmt: skip
_FORMATTER: Final = string.Formatter()


class Violation(Exception):
    """Raised into the rule when it reaches for something forbidden."""


class ModuleView:
    """A read-only module holding only the listed members of a real one."""

    __slots__ = ("_view_members", "_view_name")

    def __init__(self, name: str, members: Mapping[str, object]) -> None:
        object.__setattr__(self, "_view_name", name)
        object.__setattr__(self, "_view_members", dict(members))

    def __getattr__(self, attribute: str) -> object:
        members: dict[str, object] = object.__getattribute__(self, "_view_members")
        if attribute in members:
            return members[attribute]
        raise AttributeError(f"module {object.__getattribute__(self, '_view_name')!r} has no {attribute!r}")

    def __setattr__(self, attribute: str, value: object) -> NoReturn:
        raise AttributeError("a module in a rule is read-only")

    def __delattr__(self, attribute: str) -> NoReturn:
        raise AttributeError("a module in a rule is read-only")

    def __repr__(self) -> str:
        return f"<module {object.__getattribute__(self, '_view_name')!r}>"


def _view(module: ModuleType, names: tuple[str, ...] | None = None) -> ModuleView:
    chosen = names if names is not None else tuple(n for n in dir(module) if not n.startswith("_"))
    return ModuleView(module.__name__, {name: getattr(module, name) for name in chosen})


MODULES: Final[Mapping[str, ModuleView]] = {
    "math": _view(math),
    "re": _view(re, _RE_MEMBERS),
    "string": _view(string, _STRING_MEMBERS),
}
assert set(MODULES) == ALLOWED_MODULES


def _members(view: ModuleView) -> Mapping[str, object]:
    members: Mapping[str, object] = object.__getattribute__(view, "_view_members")
    return members


class _RefusedWrite:
    """What ``_write_`` hands out for anything but a list or a dict: every write through it is refused."""

    __slots__ = ("_kind", "_refuse")

    def __init__(self, refuse: Callable[[str], NoReturn], kind: str) -> None:
        object.__setattr__(self, "_refuse", refuse)
        object.__setattr__(self, "_kind", kind)

    def _deny(self, what: str) -> NoReturn:
        refuse: Callable[[str], NoReturn] = object.__getattribute__(self, "_refuse")
        refuse(f"{what} of a {object.__getattribute__(self, '_kind')}")

    def __setattr__(self, name: str, value: object) -> NoReturn:
        self._deny(f"assigning attribute {name!r}")

    def __delattr__(self, name: str) -> NoReturn:
        self._deny(f"deleting attribute {name!r}")

    def __setitem__(self, key: object, value: object) -> NoReturn:
        self._deny("assigning an item")

    def __delitem__(self, key: object) -> NoReturn:
        self._deny("deleting an item")


class _DiscardedPrint:
    """``print`` in a rule works and goes nowhere; ``printed`` is always empty."""

    def __init__(self, _getattr_: object = None) -> None:
        pass

    def __call__(self) -> str:
        return ""

    def _call_print(self, *objects: object, **options: object) -> None:
        return None


def _getitem(container: object, key: object) -> object:
    return container[key]  # type: ignore[index]


def _apply(function: Callable[..., object], *arguments: object, **keywords: object) -> object:
    return function(*arguments, **keywords)


def _inplacevar(op: str, target: object, value: object) -> object:
    return _INPLACE[op](target, value)


class Guards:
    """The guards for one request, and the first violation it saw."""

    def __init__(self) -> None:
        self.violation: str | None = None

    def refuse(self, what: str) -> NoReturn:
        if self.violation is None:
            self.violation = what
        raise Violation(what)

    def _check_attribute(self, obj: object, name: object) -> str:
        if type(name) is not str:
            raise TypeError("an attribute name must be a string")
        if name.startswith("_") or name in _DENIED_ATTRIBUTES:
            self.refuse(f"attribute {name!r} is not allowed in a rule")
        if type(obj) is ModuleView and name not in _members(obj):
            self.refuse(f"{obj!r} offers no {name!r} to a rule")
        return name

    def _check_format(self, template: object, depth: int = 0) -> None:
        if not isinstance(template, str):
            return
        for _literal, field, spec, _conversion in _FORMATTER.parse(template):
            if field is not None and "." in field:
                self.refuse(f"attribute access inside a format string ({field!r}) is not allowed")
            if spec and depth < 3:
                self._check_format(spec, depth + 1)

    def _format_method(self, obj: object, name: str) -> Callable[..., object]:
        real: Callable[..., object] = getattr(obj, name)
        if isinstance(obj, str):

            def bound(*arguments: object, **keywords: object) -> object:
                self._check_format(obj)
                return real(*arguments, **keywords)

            return bound

        def unbound(template: object, /, *arguments: object, **keywords: object) -> object:
            self._check_format(template)
            return real(template, *arguments, **keywords)

        return unbound

    def getattr_(self, obj: object, name: object, *default: object) -> object:
        checked = self._check_attribute(obj, name)
        if checked in _FORMAT_METHODS and (isinstance(obj, str) or obj is str):
            return self._format_method(obj, checked)
        return getattr(obj, checked, *default)

    def hasattr_(self, obj: object, name: object) -> bool:
        return hasattr(obj, self._check_attribute(obj, name))

    def import_(
        self,
        name: str,
        globals: object = None,
        locals: object = None,
        fromlist: tuple[str, ...] | list[str] | None = (),
        level: int = 0,
    ) -> ModuleView:
        view = MODULES.get(name)
        if view is None or level != 0:
            self.refuse(f"importing {name!r} is not allowed in a rule")
        for member in fromlist or ():
            self._check_attribute(view, member)
        return view

    def write_(self, obj: object) -> object:
        if type(obj) is list or type(obj) is dict:
            return obj
        return _RefusedWrite(self.refuse, type(obj).__name__)

    def inplace_item(self, container: object, key: object, op: str, value: object) -> None:
        """``container[key] op= value``, written through ``write_`` (see ``_policy.RulePolicy``)."""
        target = self.write_(container)
        target[key] = _INPLACE[op](container[key], value)  # type: ignore[index]

    def namespace(self) -> dict[str, object]:
        """Fresh globals for one request's code (and a fresh copy of its builtins)."""
        names = dict(SAFE_BUILTINS)
        names.update(getattr=self.getattr_, hasattr=self.hasattr_, __import__=self.import_)
        return {
            "__builtins__": names,
            "__name__": "rule",
            "_getattr_": self.getattr_,
            "_getitem_": _getitem,
            "_getiter_": iter,
            "_iter_unpack_sequence_": guarded_iter_unpack_sequence,
            "_unpack_sequence_": guarded_unpack_sequence,
            "_write_": self.write_,
            "_inplacevar_": _inplacevar,
            "_inplace_item_": self.inplace_item,
            "_apply_": _apply,
            "_print_": _DiscardedPrint,
            **MODULES,
        }
