"""A command group that imports a command's module only when that command is used.

Each command module imports what its command needs: the analyses numpy and matplotlib, the store SQLAlchemy and
Alembic, the arena Jinja and uvicorn. Registering them all up front made ``playeval --help`` import every one of
them, seconds on a busy two-core machine. Here the group knows each command by a line of text (its name, its module
and its help as the listing shows it): the listing is printed from that text, and a command's module is imported,
and its ``register(app)`` run, the first time the command is looked up to be parsed or run.

The help text is written twice, in the command's own module and in the listing; ``tests/cli/test_startup.py``
renders every help page both ways and fails when the two differ.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

import typer
import typer.core
import typer.main


@dataclass(frozen=True)
class ListedCommand:
    """A top-level command as the listing shows it, and the module whose ``register(app)`` adds it."""

    name: str
    module: str
    help: str


class LazyCommands(typer.core.TyperGroup):
    """A typer group whose commands, listed in ``listed``, come from their modules when first looked up.

    Until then each is a bare command with its name and help, enough for ``--help``'s listing and for the
    "did you mean" of a mistyped name. A subclass sets ``listed``; typer builds the group (``Typer(cls=...)``).
    """

    listed: tuple[ListedCommand, ...] = ()

    def __init__(self, **attrs: Any) -> None:
        super().__init__(**attrs)
        self._pending: dict[str, ListedCommand] = {}
        self._listing = False
        for entry in self.listed:
            self.commands[entry.name] = typer.core.TyperCommand(entry.name, help=entry.help,
                                                                rich_markup_mode=self.rich_markup_mode)
            self._pending[entry.name] = entry

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        if cmd_name in self._pending and not self._listing:
            self._load(self._pending[cmd_name].module)
        return super().get_command(ctx, cmd_name)

    def format_help(self, ctx: Any, formatter: Any) -> None:
        """The help page, whose listing reads the commands as they stand: no module is imported for it."""
        self._listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self._listing = False

    def _load(self, module: str) -> None:
        """Import ``module``, register its commands on an app of this group's settings, and put them in place of
        their listed stand-ins (a module may add several, as export adds ``export`` and ``transcript``)."""
        app = typer.Typer(rich_markup_mode=self.rich_markup_mode, suggest_commands=self.suggest_commands)
        importlib.import_module(module).register(app)
        built = typer.main.get_group(app).commands
        for name in [name for name, entry in self._pending.items() if entry.module == module]:
            if name not in built:
                raise RuntimeError(f"{module}.register added no command {name!r}; its listing names it")
            self.commands[name] = built[name]
            del self._pending[name]
