"""Request bodies of the arena's API: closed (unknown fields refused), every text bounded and clean.

Texts must be valid Unicode without control characters other than newline and tab: a NUL or a lone
surrogate would only fail later, in the database.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

MAX_MOVE_CHARS = 1000
MAX_INPUT_CHARS = 300
MAX_MODEL_CHARS = 200
MAX_NAME_CHARS = 40
_ALLOWED_CONTROLS = {"\n", "\t", "\r"}
_NO_CONTROLS = {"pattern": "^[^\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f]*$"}
"""What ``_clean`` enforces, as the schema says it (pydantic does not check it twice)."""


def _clean(text: str) -> str:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError("the text is not valid Unicode") from None
    if any((ord(ch) < 32 and ch not in _ALLOWED_CONTROLS) or ord(ch) == 127 for ch in text):
        raise ValueError("the text contains control characters")
    return text


Name = Annotated[str, Field(min_length=1, max_length=MAX_NAME_CHARS, json_schema_extra=_NO_CONTROLS),
                 AfterValidator(_clean)]
Key = Annotated[str, Field(min_length=1, max_length=MAX_NAME_CHARS), AfterValidator(_clean)]
"""A dict key (a pattern on keys would turn the schema's ``additionalProperties`` into ``patternProperties``)."""
ModelAddress = Annotated[str, Field(min_length=1, max_length=MAX_MODEL_CHARS, json_schema_extra=_NO_CONTROLS),
                         AfterValidator(_clean)]
InputText = Annotated[str, Field(max_length=MAX_INPUT_CHARS, json_schema_extra=_NO_CONTROLS), AfterValidator(_clean)]
MoveText = Annotated[str, Field(min_length=1, max_length=MAX_MOVE_CHARS, json_schema_extra=_NO_CONTROLS),
                     AfterValidator(_clean)]
Answer = Annotated[int, Field(ge=1, le=5)]


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class StartMatch(_Body):
    """Start a match against a model. ``model``: ``null`` draws one at random (named only at the end).

    ``seat``: the seat the person takes, default the game's person seat (the one holding the secret).
    ``inputs``: what that seat provides (see ``GET /api/games``); nothing for the other seats.
    """

    game: Name
    level: int = Field(default=1, ge=1, le=99)
    model: ModelAddress | None = None
    seat: Name | None = None
    inputs: dict[Key, InputText] = Field(default_factory=dict, max_length=8)


class StartWatch(_Body):
    """Start a model-vs-model match to watch. ``models`` maps seats to models; a seat left out gets a random one."""

    game: Name
    level: int = Field(default=1, ge=1, le=99)
    models: dict[Key, ModelAddress] | None = Field(default=None, max_length=8)


class Move(_Body):
    """A person's move. ``seq``: the ``seq`` of the view the move was made on (a move on an outdated view is
    refused with 409); ``null`` skips that check."""

    text: MoveText
    seq: int | None = Field(default=None, ge=0, le=2**31)


class Survey(_Body):
    """Three answers from 1 (not at all) to 5 (very much)."""

    enjoyment: Answer
    satisfaction: Answer
    frequency: Answer
