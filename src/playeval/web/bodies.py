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
    """Strict: a scalar must come as its JSON type (``"level": true`` or ``"level": "1"`` is refused, not read
    as 1); the arena's pages send numbers as numbers."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


PERSON = "person"
RANDOM = "random"
Occupant = Annotated[str, Field(min_length=1, max_length=MAX_MODEL_CHARS, json_schema_extra=_NO_CONTROLS),
                     AfterValidator(_clean)]
"""Who sits in a seat: ``person`` (someone invited with a join link), ``random`` (a model drawn at random) or a
model's address."""
OptionValue = Annotated[str, Field(max_length=MAX_NAME_CHARS, json_schema_extra=_NO_CONTROLS),
                        AfterValidator(_clean)] | int | float | bool
Token = Annotated[str, Field(min_length=1, max_length=100, pattern="^[A-Za-z0-9_-]+$")]


class StartMatch(_Body):
    """Set a table up and take a seat at it.

    ``seat``: the seat the person takes, default the game's person seat. ``inputs``: what that seat provides
    (see ``GET /api/games``; nothing for a seat that provides nothing). ``seats``: for other seats, ``person``
    (an invited person: the response carries their join link), ``random`` (a model drawn at random) or a
    model's address. A seat left out gets ``model``, the table's model: ``null`` draws one at random. Drawn
    models stay anonymous until the match is over. The table's model also stands in for a person who does not
    join in time or leaves. ``options``: the game's settings (see ``GET /api/games``).
    """

    game: Name
    level: int = Field(default=1, ge=1, le=99)
    model: ModelAddress | None = None
    seat: Name | None = None
    inputs: dict[Key, InputText] = Field(default_factory=dict, max_length=8)
    seats: dict[Key, Occupant] = Field(default_factory=dict, max_length=16)
    options: dict[Key, OptionValue] = Field(default_factory=dict, max_length=8)


class StartWatch(_Body):
    """Start a model-vs-model match to watch. ``models`` maps seats to models; a seat left out gets a random one."""

    game: Name
    level: int = Field(default=1, ge=1, le=99)
    models: dict[Key, ModelAddress] | None = Field(default=None, max_length=16)
    options: dict[Key, OptionValue] = Field(default_factory=dict, max_length=8)


class Join(_Body):
    """Join a table with the token from the join link's fragment (the response sets the seat's cookie)."""

    token: Token


class Move(_Body):
    """A person's move. ``seq``: the ``seq`` of the view the move was made on (a move on an outdated view, one
    whose ask is no longer the one awaited, is refused with 409); ``null`` skips that check, but a move that
    repeats the person's last one, made for an ask of another kind (a vote sent again once the next round asks
    for a statement), is refused with 409. ``party``: the seat
    or role whose open ask this answers, when the person has several open asks at once (default: their only
    one)."""

    text: MoveText
    seq: int | None = Field(default=None, ge=0, le=2**31)
    party: Name | None = None


class Check(_Body):
    """A reply to check against the person's open ask by the game's rules, without sending it. ``party`` as for
    a move."""

    text: Annotated[str, Field(max_length=MAX_MOVE_CHARS, json_schema_extra=_NO_CONTROLS), AfterValidator(_clean)]
    party: Name | None = None


class Survey(_Body):
    """Three answers from 1 (not at all) to 5 (very much)."""

    enjoyment: Answer
    satisfaction: Answer
    frequency: Answer
