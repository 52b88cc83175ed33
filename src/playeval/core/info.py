"""What a game declares about itself: seats, roles, levels, options, what people provide, how it is presented,
which metrics it has. The rest of playeval reads these from the registry, so a new game is one folder.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

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
    sees: tuple[str, ...] = ()
    """The keys of the match's hidden parts (``Game.disclosures``) that this role's asks may carry: a judge shown
    each seat's word lists every word's key. A binding of the role to a seat (``seat:NAME``) is refused before the
    match starts when one of them is a part that seat may not see (:func:`playeval.core.hidden.check_role_seat`),
    so a person holding the seat never reads, in the role's asks, what their seat hides from them. A key the game
    makes during play (``Game.made_in_play``, a rule a game master writes) is one no seat may see."""
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


class ConversationBreak(_Info):
    """Asks of one seat or role that do not simply continue its conversation, on purpose, and why.

    A party's asks in a match are one conversation: each ask's messages begin with the messages of the party's
    previous ask and the reply accepted for it, so a local model keeps the conversation's context between calls
    and reads only what is new (``ModelRequest.affinity``). A game lists the exceptions in its
    ``conversation_breaks`` (tests/games/test_prefix_contract.py holds every game to the rule and reads them):

    * a *fresh* break (``aside=False``): each such ask starts a new conversation (a judge asked about each guess
      alone, shown none of its earlier verdicts);
    * an *aside* (``aside=True``): the ask continues the conversation, but its exchange is left out of the later
      asks, which go on from the ask before it (a check made in passing).

    ``party`` is a seat or a role (a panel's members, ``judge#2``..., count as their role); ``kinds`` the kinds of
    its asks the break covers (empty: all of them); ``reason`` says why the game shows them so.
    """

    party: str
    kinds: tuple[str, ...] = ()
    aside: bool = False
    reason: str


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
    """A level of the game (``--level N``) and what it changes, in words shown by ``playeval games`` and the
    arena."""

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


class LiveDisclosure(_Info):
    """A hidden part of a match as its holder sees it while the match is played (``Disclosure.live``): what it is
    (``key``), its value, and the label its holder reads ("Your word"). Nothing else: no other holder, and not
    the label meant for the end."""

    key: str
    value: str
    label: str


class Disclosure(LiveDisclosure):
    """One piece of hidden information of a match: who may see it while it is played, and how it is labelled.

    It has two forms. While the match is played, a seat among ``seats`` sees its *live form*
    (:meth:`live`: ``key``, ``value`` and ``label``, what its holder reads: "Your word"), and nobody else sees
    anything of it. Once the match is over everyone sees its *revealed form*: the whole of it, with
    ``revealed_label``, what everyone reads at the end ("player3's word (undercover)"), and ``seats``, who held it.
    So ``label`` must say nothing the holder may not know while playing, and ``revealed_label`` may say anything:
    the core never shows it, nor ``seats``, before the end (``playeval.core.hidden``). ``key`` names the part in
    transcripts and exports (``secret='a cat'``) and in ``RoleInfo.sees``.
    """

    seats: tuple[str, ...] = ()
    revealed_label: str

    def live(self) -> LiveDisclosure:
        """The form its holder sees while the match is played."""
        return LiveDisclosure(key=self.key, value=self.value, label=self.label)


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


class ScoreInfo(_Info):
    """What a game's per-seat number (``SeatResult.score``) is: ``label`` names it ("check accuracy") wherever it
    is shown (``playeval results``, the report, the arena's end table), ``unit`` follows the value ("points");
    the unit ``%`` marks a share in [0, 1], shown as a percentage."""

    label: str
    unit: str = ""

    def text(self, value: float | None) -> str:
        """``value`` as the game shows it: ``75%``, ``12 points``, ``0.5``; ``n/a`` for ``None``."""
        if value is None:
            return "n/a"
        if self.unit == "%":
            return f"{value * 100:.0f}%"
        number = f"{value:,.2f}".rstrip("0").rstrip(".")
        return f"{number} {self.unit}" if self.unit else number


def score_line(info: ScoreInfo | None, value: float | None) -> str | None:
    """``check accuracy: 80%``: a seat's score with its game's label and unit (``info``: the game's ``score``,
    ``None`` for a game that declares none: ``score: 0.8``); ``None`` without a score."""
    if value is None:
        return None
    return f"{info.label}: {info.text(value)}" if info is not None else f"score: {value:g}"


TWO_THIRDS_OFFSET = 400 * math.log10(2)
"""The Elo offset at which equal teams expect 2/3 for the favoured one (``TeamInfo.elo_offset`` of CK-Arena's
civilians)."""


class TeamInfo(_Info):
    """A team (a side) of a team game, as ``SeatResult.team`` names it. ``label`` names its seats in a sentence
    ("civilians"); ``elo_offset`` is added to the team's rating in the team Elo (a side's advantage: CK-Arena's
    civilians get 400·log10(2), at which equal teams expect 2/3)."""

    name: str
    label: str
    elo_offset: float = 0.0


SeatMeasureKind = Literal["mean", "share", "count"]


class SeatMeasure(_Info):
    """A per-seat number a team game reports, per model and side: a ``mean`` over seats (of values in [0, 1]), a
    ``share`` of seats where it is not 0, or a ``count`` summed over seats; a mean and a share with a 95% interval
    over matches (``playeval.analysis.sides``).

    ``name`` is a key of the game's ``seat_measures`` (see ``core.game.TeamGame``), or one playeval fills in from
    the outcome for every game: ``won`` (1 or 0) and ``forfeited`` (1 or 0). ``label`` is the terminal's short
    heading ("vote acc."), ``title`` the report's ("Voting accuracy")."""

    name: str
    label: str
    title: str
    kind: SeatMeasureKind


class MeasureGroup(_Info):
    """Neighbouring measures under one heading in the report ("Put out"). ``table``: the terminal shows the group
    as a table of its own with this title, after the side table ("the judges' mean scores, per side")."""

    label: str
    measures: tuple[SeatMeasure, ...]
    table: str | None = None


class TeamElo(_Info):
    """CK-Arena's team Elo for a game of two teams: a seat's actual score is ``sum(weight * measure)`` over
    ``weights`` (measures in [0, 1]; a measure without a value counts 0), and the weights add up to 1."""

    weights: tuple[tuple[str, float], ...] = (("won", 1.0),)

    @model_validator(mode="after")
    def _adds_up(self) -> TeamElo:
        if abs(sum(weight for _, weight in self.weights) - 1.0) > 1e-9:
            raise ValueError("a team Elo's weights must add up to 1")
        return self


class TeamAnalysis(_Info):
    """What the analysis shows of a team game, per model and side (``playeval analyze GAME``, ``results``, the
    report): the side table (every seat's win rate beside the run's own side rates, then ``groups``), the team Elo
    (``elo``, for two teams), the win rate per match category (``category``: its label, for a game whose
    ``match_category`` gives one), and, in ``playeval results``, the count measures named in ``counts``.

    ``caption`` explains the side table; ``{matches}`` is replaced by the number of matches and ``{NAME}`` by the
    share team ``NAME`` won ("civilians won {civilian} of the {matches} matches")."""

    teams: tuple[TeamInfo, ...]
    groups: tuple[MeasureGroup, ...] = ()
    elo: TeamElo | None = None
    category: str | None = None
    counts: tuple[str, ...] = ()
    counts_title: str = "counts per model"
    counts_note: str = ""
    tables: str | None = None
    """The game's own tables beside the declared ones, as ``"module:function"``: a function ``(game, matches) ->
    GameTables`` (``playeval.analysis.sides``) that the analysis imports when it shows the game's results, so the
    game's own modules import nothing of the analysis (Undercover's judges' score distributions:
    ``playeval.analysis.undercover_judging:judge_tables``; a plugin names a module of its own)."""
    caption: str = ("Per model and side, every seat it held in a finished match. Win: seats whose side won; run's "
                    "rate: what those seats would win at this run's own side win rates (over {matches} matches). "
                    "Means: over seats; shares: of seats. Every interval is a 95% interval over matches (a "
                    "bootstrap of the matches where a model held several seats of one table, Wilson's where each "
                    "match gave it one seat); n: the matches, and the seats in them where they differ.")

    @model_validator(mode="after")
    def _checked(self) -> TeamAnalysis:
        if len(self.teams) < 2:
            raise ValueError("a team analysis needs at least two teams")
        if self.elo is not None and len(self.teams) != 2:
            raise ValueError("the team Elo needs exactly two teams")
        known = {measure.name for group in self.groups for measure in group.measures} | set(BUILT_IN_MEASURES)
        unknown = [name for name in (*self.counts, *(name for name, _ in (self.elo.weights if self.elo else ())))
                   if name not in known]
        if unknown:
            raise ValueError(f"undeclared measures: {', '.join(unknown)}")
        return self

    @property
    def measures(self) -> tuple[SeatMeasure, ...]:
        return tuple(measure for group in self.groups for measure in group.measures)

    def team(self, name: str) -> TeamInfo:
        return next(team for team in self.teams if team.name == name)


BUILT_IN_MEASURES: tuple[str, ...] = ("won", "forfeited")
"""Seat measures playeval fills in from the outcome for every team game."""

PlotKind = Literal["recall_by_round", "judgement_trajectories", "team_elo"]
"""The plots a game may ask the report for (``Game.plots``): ``recall_by_round`` (the secret's recall in the
retrospective candidate lists, by round), ``judgement_trajectories`` (the retrospective five-level judgements by
round) and ``team_elo`` (a team game's Elo per model, with its bootstrap interval)."""
