"""A game's structured view of a match for a page: lists, counters, a clock, and forms for a person's moves.

The transcript (``Game.transcript``) is the match as lines of text; a game whose play reads better as data (the
guess-the-rule games: examples as two lists, counters of turns and examples seen, a number field for how many
more to show) also gives a :class:`Panel` per viewer (``Game.panel``). The arena draws it with generic widgets
and knows nothing of the game. A panel holds only what its viewer may see now: the game builds it, as it builds
asks, from the state and the viewer's seat.

A :class:`MoveForm` is how a person answers one kind of ask without typing the game's protocol: each of its
:class:`FormAction` is a button with fields; the reply sent is the action's ``template`` with each field's value
put in at ``{key}``. The reply goes through the game's ``parse`` and ``apply`` like any other, so a form is a
convenience for people and never a second way in.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

FieldKind = Literal["integer", "text", "choice"]
Tone = Literal["neutral", "yes", "no"]
_SLOT = re.compile(r"\{([a-z][a-z0-9_]*)\}")


class _Panel(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class PanelList(_Panel):
    """A titled list of short items (``tone``: how a page may colour it: items admitted, refused, or neither)."""

    key: str
    title: str
    items: tuple[str, ...]
    tone: Tone = "neutral"
    empty: str = "none yet"
    """What the page shows while the list is empty."""


class PanelCounter(_Panel):
    """A count with its label, and its limit when there is one ("Turn 3 of 20")."""

    key: str
    label: str
    value: int
    limit: int | None = None


class FormField(_Panel):
    """One field of a form: a whole number (within ``minimum`` and ``maximum``), a line of text (at most
    ``max_chars``, at least ``min_chars``), or one of ``choices``."""

    key: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    label: str
    kind: FieldKind
    minimum: int | None = None
    maximum: int | None = None
    default: str | None = None
    choices: tuple[str, ...] | None = None
    min_chars: int = Field(default=1, ge=0)
    max_chars: int | None = Field(default=None, ge=1)

    @model_validator(mode="after")
    def _shape(self) -> FormField:
        if (self.kind == "choice") != bool(self.choices):
            raise ValueError(f"field {self.key}: choices go with kind 'choice', and only with it")
        if self.minimum is not None and self.maximum is not None and self.minimum > self.maximum:
            raise ValueError(f"field {self.key}: minimum {self.minimum} is above maximum {self.maximum}")
        return self


class FormAction(_Panel):
    """A button of a form, and the fields it sends: the reply is ``template`` with ``{key}`` filled in."""

    key: str
    label: str
    template: str
    fields: tuple[FormField, ...] = ()
    help: str | None = None
    secondary: bool = False
    """A lesser way out (skipping a check), drawn as such."""

    @model_validator(mode="after")
    def _slots(self) -> FormAction:
        slots = set(_SLOT.findall(self.template))
        keys = {field.key for field in self.fields}
        if slots != keys or len(keys) != len(self.fields):
            raise ValueError(f"action {self.key}: the template's slots {sorted(slots)} must be the fields' keys "
                             f"{sorted(keys)}, each once")
        return self

    def reply(self, values: dict[str, str]) -> str:
        """The reply this action sends with ``values`` (what a page does in its own script)."""
        return _SLOT.sub(lambda found: values[found.group(1)], self.template)


class MoveForm(_Panel):
    """How a person answers the open ask of ``kind`` (of ``party``, a seat or a role): one or more actions."""

    party: str
    kind: str
    title: str
    actions: tuple[FormAction, ...] = Field(min_length=1)
    note: str | None = None


class Panel(_Panel):
    """A game's view of a match for one viewer. ``clock``: the label of the match's elapsed time, which the page
    shows live (the game has no clock of its own: the arena times the match from its log)."""

    lists: tuple[PanelList, ...] = ()
    counters: tuple[PanelCounter, ...] = ()
    clock: str | None = None
    forms: tuple[MoveForm, ...] = ()
