"""MkDocs hook (``hooks`` in mkdocs.yml): a game page's ``<!-- playeval-game: ID -->`` line becomes the game's
levels, seats, roles, options, baselines and split sets, read from the game's own declarations (the registry that
``playeval games`` prints), so the site never states a default the code no longer has. On GitHub the line is an
invisible comment."""

from __future__ import annotations

import re
from typing import Any

from playeval.core import default_registry, game_baselines, split_sets_of

MARKER = re.compile(r"^<!-- playeval-game: ([a-z_]+) -->$", flags=re.MULTILINE)


def _cell(text: object) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _table(header: tuple[str, ...], rows: list[tuple[object, ...]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(_cell(value) for value in row) + " |" for row in rows]
    return "\n".join(lines)


def _default(value: object) -> str:
    return f"`{value}`" if value != "" else "none"


def _option_range(option: Any) -> str:
    if option.choices:
        return ", ".join(f"`{choice}`" for choice in option.choices)
    bounds = [f"≥ {option.minimum:g}" if option.minimum is not None else "",
              f"≤ {option.maximum:g}" if option.maximum is not None else ""]
    return " and ".join(bound for bound in bounds if bound) or "any"


def game_section(game_id: str) -> str:
    """The declarations of one game as Markdown: a heading and a table per kind."""
    game = default_registry().get(game_id)
    parts = [f"## Levels, seats and options of `{game_id}`",
             (f"From the game's declarations, as `playeval games` lists them (`--level`, "
              f"`--role {game_id}.ROLE=...`, `--option {game_id}.NAME=VALUE`, `--secret-set`)."),
             _table(("level", "what it is"), [(info.level, info.description) for info in game.levels]),
             _table(("seat", "what it does", "evaluated", "a person may take it"),
                    [(f"`{seat.name}`", seat.role, "yes" if seat.evaluated else "no", "yes" if seat.person else "no")
                     for seat in game.seats])]
    if game.roles:
        parts.append(_table(("role", "what it does", "default"),
                            [(f"`{role.name}`", role.does, f"`{role.default}`") for role in game.roles]))
    if game.options:
        parts.append(_table(("option", "what it sets", "default", "allowed"),
                            [(f"`{option.name}`", option.description, _default(option.default), _option_range(option))
                             for option in game.options]))
    baselines = game_baselines(game)
    if baselines:
        parts.append(_table(("baseline", "how it plays"),
                            [(f"`baseline/{info.name}`", info.description) for info in baselines]))
    split = split_sets_of(game)
    if split:
        parts.append(f"Split sets (disjoint, for a held-out comparison): `{split[0]}` and `{split[1]}`.")
    return "\n\n".join(parts)


def on_page_markdown(markdown: str, **_: Any) -> str:
    return MARKER.sub(lambda match: game_section(match.group(1)), markdown)
