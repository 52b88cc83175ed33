"""What a game declares about itself: seats, roles, levels, options, what people provide, how it is presented,
which metrics it has. The rest of playeval reads these from the registry, so a new game is one folder.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pydantic import BaseModel, ConfigDict, Field

Scalar = str | int | float | bool
"""A public setting's value (a game option, a spec parameter)."""


class _Info(BaseModel):
    model_config = ConfigDict(frozen=True)


class SeatInfo(_Info):
    """A seat at the table: a player. ``evaluated``: a model in this seat is what the game measures (a seat that
    is not evaluated is a simulated person's, or an opponent's). ``person``: a person may take this seat in the
    arena or at the terminal."""

    name: str
    role: str
    """What the seat does, in a sentence (shown in ``playeval games`` and on the set-up page)."""
    evaluated: bool = False
    person: bool = True


class RoleInfo(_Info):
    """A part of the game that is not a player: a judge, a game master, a code executor.

    A run binds a model (or a scripted stand-in) to every role, as it binds players to seats; a role's calls are
    recorded like a seat's, it decodes deterministically, and it never appears as a player. ``default`` says what
    plays it unless the run says otherwise: a model address, ``seat:NAME`` (whoever holds that seat, as a role:
    greedy, with its own re-asks), or ``local`` (playeval's default local model).
    """

    name: str
    does: str
    default: str = "local"
    panel_option: str | None = None
    """A role several players may hold at once (a panel of judges): a binding that lists several models,
    ``judge=A,B``, seats one member per model, named ``judge``, ``judge#2``, ... (:func:`panel_member`), and the
    match's setup receives their number as the game option of this name (:func:`panel_options`); the game asks
    each member by that name. ``None``: one player."""
    held: tuple[str, ...] = ()
    """Keys of the ``data`` of this role's actions that hold free text written with the match's hidden parts in
    view (a judge's reason, which may name the rule it was told): every live view shows the role's move as its
    verdict (``Action.text``) only, and this text is revealed once the match is over (``core.held``)."""


PANEL_MARK = "#"


def panel_member(role: str, index: int) -> str:
    """The name of a role panel's member ``index`` (from 0): the role itself, then ``role#2``, ``role#3``, ..."""
    return role if index == 0 else f"{role}{PANEL_MARK}{index + 1}"


def panel_role(party: str) -> str:
    """The role a panel member belongs to (``judge#2`` -> ``judge``; any other name is returned as it is)."""
    return party.split(PANEL_MARK, 1)[0]


def binding_members(binding: str) -> list[str]:
    """The members a role binding names, in order: ``A,B`` -> ``[A, B]``."""
    return [part.strip() for part in binding.split(",") if part.strip()]


def panel_options(roles: Sequence[RoleInfo], binding_of: Callable[[str], str | None]) -> dict[str, Scalar]:
    """The options that carry each panel role's size, from its binding (``binding_of(role)``, ``None``: the
    default), for a game's ``new_spec``; a role left at one member adds nothing, so the game's own default (1)
    holds."""
    found: dict[str, Scalar] = {}
    for info in roles:
        members = binding_members(binding_of(info.name) or info.default)
        if info.panel_option is not None and len(members) > 1:
            found[info.panel_option] = len(members)
    return found


class LevelInfo(_Info):
    level: int
    description: str


class GameOption(_Info):
    """A setting of the game a run or a person may choose (``--option players=8``); stored in the spec's params."""

    name: str
    description: str
    default: Scalar
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[str, ...] | None = None
    local_only: bool = False
    """Only the command line and the library may set it (it names something on the machine running the match,
    such as a file): the arena neither offers nor accepts it."""
    seat_count: bool = False
    """The option is how many seats the table has: a match seats the first N of the game's declared seats
    (Undercover's ``players``), so the arena's set-up pages offer only those."""


class PersonInput(_Info):
    """Something a person provides before the match starts, when they hold ``seat``.

    ``hidden`` input is typed without echo and never shown to another seat. ``choices`` restricts the answer.
    ``required=False`` lets the person keep it in their head (Akinator's object). A game whose secret is drawn
    for the person (Taboo's word) asks for nothing and shows the person the drawn secret instead.
    """

    key: str
    prompt: str
    seat: str
    hidden: bool = False
    choices: tuple[str, ...] | None = None
    required: bool = True
    max_chars: int = Field(default=300, ge=1, le=300)


class Presentation(_Info):
    """How the arena and the terminal present the game to a person, in the game's own words."""

    name: str
    """Short name ("Akinator")."""
    tagline: str
    """What a person does, in a line ("You hold the secret; the model asks.")."""
    pitch: str
    how: tuple[str, ...] = ()
    """Numbered steps on the set-up page."""
    person_seat: str | None = None
    """The seat a person takes unless they choose another."""


class MetricSpec(_Info):
    """One procedural metric a game computes from its retrospective outputs, with the reasoning skill it measures.

    ``missing_note``: when the metric has no value for a match, the analysis counts such matches under this
    label ("matches whose secret never appeared in a list"), so that an average over the rest flatters no one.
    """

    name: str
    label: str
    percent: bool
    lower_is_better: bool
    skill: str
    missing_note: str | None = None


class Disclosure(_Info):
    """One piece of hidden information of a match: who may see it while it is played, and how it is labelled.

    Everything a game discloses is revealed to everyone once the match is over. ``key`` names it in transcripts
    (``secret='a cat'``); ``label`` is what its holder reads ("Your word"), ``revealed_label`` what everyone reads
    at the end ("The word").
    """

    key: str
    value: str
    seats: tuple[str, ...] = ()
    label: str
    revealed_label: str


SKILL_ORDER: tuple[str, ...] = ("deductive", "abductive", "inductive", "multi-hop")
"""GameArena's four reasoning skills, in the paper's order; skills other games name follow them."""


def skills_of(metric_lists: Sequence[Sequence[MetricSpec]]) -> tuple[str, ...]:
    """The skills named by some metrics: GameArena's in the paper's order, then others in order of first mention."""
    found: list[str] = []
    for metrics in metric_lists:
        for metric in metrics:
            if metric.skill not in found:
                found.append(metric.skill)
    known = [skill for skill in SKILL_ORDER if skill in found]
    return (*known, *(skill for skill in found if skill not in SKILL_ORDER))
