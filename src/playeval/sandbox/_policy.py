"""The compile policy: RestrictedPython's, tightened for rules. Runs in the worker, never in the caller.

RestrictedPython's ``RestrictingNodeTransformer`` refuses names and attributes that start with ``_``, the
inspection attributes (``gi_frame``, ``tb_frame``, ``f_back``...), ``exec``/``eval`` calls, ``nonlocal``,
async code, ``except*`` and every syntax it does not know, and rewrites attribute access, subscripts,
iteration, unpacking and writes into calls of the guards in ``_guards``. On top of that this policy refuses:

- class definitions (no user types: no special methods, no metaclasses);
- imports other than ``math``, ``re`` and ``string`` (the sandbox's own read-only views of them);
- loading builtins that give access to the interpreter (``open``, ``exec``, ``eval``, ``compile``,
  ``globals``, ``vars``, ``type``, ``object``...) or whose value depends on the process (``hash`` of a string
  is salted per interpreter, ``id`` is an address), unless the code binds that name itself.

Parsing is separate from the policy so that the caller can tell a ``syntax`` error from a ``forbidden`` one.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from types import CodeType
from typing import Final, TypeAlias

from RestrictedPython.compile import compile_restricted_exec
from RestrictedPython.transformer import RestrictingNodeTransformer

VisitResult: TypeAlias = ast.AST | Iterable[ast.AST] | None
FILENAME: Final = "<rule>"
ALLOWED_MODULES: Final = frozenset({"math", "re", "string"})
FORBIDDEN_BUILTINS: Final = frozenset({
    "open", "exec", "eval", "compile", "globals", "locals", "vars", "dir", "type", "object", "super",
    "setattr", "delattr", "input", "breakpoint", "help", "exit", "quit", "memoryview", "bytearray",
    "classmethod", "staticmethod", "property", "id", "reload", "execfile", "file", "copyright", "credits",
    "license", "aiter", "anext", "hash",
})  # fmt: skip


_AUGMENTED: Final[dict[type[ast.operator], str]] = {
    ast.Add: "+=", ast.Sub: "-=", ast.Mult: "*=", ast.Div: "/=", ast.FloorDiv: "//=", ast.Mod: "%=",
    ast.Pow: "**=", ast.LShift: "<<=", ast.RShift: ">>=", ast.BitOr: "|=", ast.BitXor: "^=", ast.BitAnd: "&=",
    ast.MatMult: "@=",
}  # fmt: skip


class Refusal(Exception):
    """The source cannot run: ``reason`` is ``syntax`` or ``forbidden``."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(reason, detail)
        self.reason = reason
        self.detail = detail


def _bound_names(tree: ast.AST) -> set[str]:
    """Every name the code binds anywhere (assignments, parameters, definitions, imports, handlers)."""
    bound: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store | ast.Del):
            bound.add(node.id)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            bound.add(node.name)
        elif isinstance(node, ast.alias):
            bound.add(node.asname or node.name.split(".")[0])
        elif isinstance(node, ast.ExceptHandler) and node.name:
            bound.add(node.name)
    return bound


class RulePolicy(RestrictingNodeTransformer):
    """RestrictedPython's policy plus the refusals listed in the module docstring."""

    def __init__(
        self,
        errors: list[str] | None = None,
        warnings: list[str] | None = None,
        used_names: dict[str, bool] | None = None,
    ) -> None:
        super().__init__(errors, warnings, used_names)
        self._bound: set[str] = set()

    def visit_Module(self, node: ast.Module) -> VisitResult:
        self._bound = _bound_names(node)
        return super().visit_Module(node)

    def visit_ClassDef(self, node: ast.ClassDef) -> VisitResult:
        self.error(node, "class definitions are not allowed in a rule")
        return node

    def visit_Import(self, node: ast.Import) -> VisitResult:
        for alias in node.names:
            if alias.name not in ALLOWED_MODULES:
                self.error(node, f"importing {alias.name!r} is not allowed (only math, re and string)")
        return super().visit_Import(node)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> VisitResult:
        if node.level or node.module not in ALLOWED_MODULES:
            self.error(node, f"importing from {node.module!r} is not allowed (only math, re and string)")
        return super().visit_ImportFrom(node)

    def visit_AugAssign(self, node: ast.AugAssign) -> VisitResult:
        """``a[k] op= v`` (refused by RestrictedPython) becomes ``_inplace_item_(a, k, "op=", v)``.

        The helper writes through the ``_write_`` guard, so only lists and dicts can be changed this way.
        Unlike Python, ``v`` is evaluated before ``a[k]`` is read (it matters only when ``v`` changes ``a[k]``).
        """
        target = node.target
        if not isinstance(target, ast.Subscript):
            return super().visit_AugAssign(node)
        if isinstance(target.slice, ast.Slice):
            self.error(node, "augmented assignment to a slice is not allowed in a rule")
            return node
        call = ast.Call(
            func=ast.Name("_inplace_item_", ast.Load()),
            args=[self.visit(target.value), self.visit(target.slice), ast.Constant(_AUGMENTED[type(node.op)]),
                  self.visit(node.value)],
            keywords=[],
        )  # fmt: skip
        statement = ast.Expr(call)
        ast.copy_location(statement, node)
        ast.copy_location(call, node)
        ast.fix_missing_locations(statement)
        return statement

    def visit_Name(self, node: ast.Name) -> VisitResult:
        if isinstance(node.ctx, ast.Load) and node.id in FORBIDDEN_BUILTINS and node.id not in self._bound:
            self.error(node, f"{node.id!r} is not available in a rule")
        return super().visit_Name(node)


def _defines(tree: ast.Module, name: str) -> bool:
    for statement in tree.body:
        if isinstance(statement, ast.FunctionDef) and statement.name == name:
            return True
        if isinstance(statement, ast.Assign) and any(
            isinstance(target, ast.Name) and target.id == name for target in statement.targets
        ):
            return True
    return False


def compile_rule(source: str, name: str) -> CodeType:
    """The restricted code object of ``source``, which must define a top-level function ``name``.

    Raises ``Refusal("syntax", ...)`` when the source does not parse or defines no such function, and
    ``Refusal("forbidden", ...)`` when the policy refuses it; a ``MemoryError`` passes through.
    """
    try:
        tree = ast.parse(source, filename=FILENAME, mode="exec")
    except SyntaxError as error:
        raise Refusal("syntax", f"line {error.lineno}: {error.msg}") from None
    except (ValueError, RecursionError) as error:
        raise Refusal("syntax", f"the source cannot be parsed: {type(error).__name__}: {error}") from None
    if not _defines(tree, name):
        raise Refusal("syntax", f"the source defines no top-level function {name!r}")
    try:
        result = compile_restricted_exec(tree, filename=FILENAME, policy=RulePolicy)
    except RecursionError as error:
        raise Refusal("syntax", f"the source is nested too deeply: {type(error).__name__}") from None
    except SyntaxError as error:
        raise Refusal("syntax", f"line {error.lineno}: {error.msg}") from None
    if result.errors or result.code is None:
        shown = "; ".join(result.errors[:5]) or "refused by the policy"
        more = f" (and {len(result.errors) - 5} more)" if len(result.errors) > 5 else ""
        raise Refusal("forbidden", shown + more)
    return result.code
