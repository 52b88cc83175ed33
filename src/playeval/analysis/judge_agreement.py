"""How a run's judges agreed: panel members with each other, judges with the judge-free check, and what decided
each verdict (``playeval analyze agreement``).

Everything is read from the recorded judge actions, the match folded again to find the question each answered:

* **A question** is one ask of a judged role (its ``Ask.verdict`` says where its answer is and which answers
  accept, ``core.verdicts``), put to every member of a panel in turn (``judge``, ``judge#2``, ...; the asks are
  the same but for the member). A member's verdict is its action's verdict record when the engine kept one (the
  decision, a calibrated threshold's included), else its answer word (``data["answer"]``, else the action's text)
  read against the question's accepting answers; a member that gave no verdict (Undercover's "no verdict" after
  its re-asks ran out) leaves the question out of the kappa. An Undercover scale counts as passed or not.
* **Agreement**, per game, role and scale (the ask's kind) of the panels of two or more: the share of questions
  every member decided alike (unanimous), and agreement beyond chance, Cohen's kappa for two members and Fleiss'
  for more (``analysis.agreement``), each with a seeded percentile bootstrap 95% interval over the questions.
* **The check** (the guess-the-rule games): how often a verdict agreed with the judge-free rule-application check,
  a guess "passing" when it got at least ``passing`` of the held-out items right (``analysis.rule_games``); the
  panel's verdict and each member's apart, with Wilson 95% intervals. Finished matches only, as ``analyze rules``.
* **What decided** each recorded verdict (``VerdictRecord.decided``): the model's word, a calibrated threshold,
  or the game's rules; a judge's verdict with no record (a scripted judge, a person) counts as unrecorded.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from playeval.analysis.agreement import agreement
from playeval.analysis.intervals import bootstrap_interval, wilson_interval
from playeval.analysis.rule_games import PASSING, guess_passes
from playeval.core.ask import Ask
from playeval.core.events import ActionApplied, Event, SeatEliminated
from playeval.core.game import Game
from playeval.core.info import PANEL_MARK, RoleInfo, panel_member, panel_role
from playeval.core.match import Action, MatchSpec
from playeval.core.registry import GameRegistry
from playeval.core.verdicts import VerdictQuestion, recorded_verdicts
from playeval.guess_rule import JUDGE, GuessRuleGame, GuessState
from playeval.store import MatchRecord, Store

UNRECORDED = "unrecorded"
"""A judge's verdict whose action holds no verdict record."""
DECIDERS: tuple[str, ...] = ("word", "threshold", "rules", UNRECORDED)
PANEL = "panel"
"""The check row of a panel's own verdict (beside its members')."""


@dataclass(frozen=True)
class MemberCall:
    """One member's verdict on a question: accepted or not (``None``: it gave none)."""

    member: str
    accepted: bool | None


@dataclass(frozen=True)
class PanelQuestion:
    """One question put to a panel, with every member's verdict given on it."""

    match_id: str
    game: str
    role: str
    kind: str
    members: int
    """The panel's size in its match (the game option its role names, ``RoleInfo.panel_option``)."""
    calls: tuple[MemberCall, ...]

    def ratings(self) -> tuple[bool | None, ...]:
        """The members' verdicts in member order (``judge``, ``judge#2``, ...), ``None`` where one gave none."""
        given = {call.member: call.accepted for call in self.calls}
        return tuple(given.get(panel_member(self.role, index)) for index in range(self.members))


@dataclass(frozen=True)
class AgreementRow:
    """The agreement of the panels of one game, role, scale and size."""

    game: str
    role: str
    kind: str
    members: int
    questions: int
    """Questions every member gave a verdict on (those the numbers are over)."""
    left_out: int
    unanimous: float | None
    unanimous_low: float | None
    unanimous_high: float | None
    method: Literal["cohen", "fleiss"]
    kappa: float | None
    """``None`` when undefined (every member always said the same)."""
    kappa_low: float | None
    kappa_high: float | None


@dataclass(frozen=True)
class CheckRow:
    """How often one judge of a rule game (a panel member, the only judge, or the panel) agreed with the check."""

    game: str
    judge: str
    model: str | None
    judged: int
    """Guesses it ruled on whose check was made."""
    agree: int
    agreement: float | None
    low: float | None
    high: float | None


@dataclass(frozen=True)
class DecidedRow:
    """What decided the recorded verdicts of one game and question (an ask's kind)."""

    game: str
    kind: str
    word: int = 0
    threshold: int = 0
    rules: int = 0
    unrecorded: int = 0


@dataclass(frozen=True)
class RunAgreement:
    run_id: str
    passing: float
    agreement: tuple[AgreementRow, ...]
    checks: tuple[CheckRow, ...]
    decided: tuple[DecidedRow, ...]
    panels: int
    """Questions put to panels of two or more."""


@dataclass
class MatchVerdicts:
    """What one match's log holds for this analysis: its panel questions, its verdicts counted by what decided
    them (per game and kind), and the state it folds to."""

    questions: list[PanelQuestion] = field(default_factory=list)
    decided: dict[tuple[str, str], dict[str, int]] = field(default_factory=dict)
    state: Any = None


def _question_key(ask: Ask) -> tuple[Any, ...]:
    """What makes two asks the same question: everything the member is shown (its name aside)."""
    return ask.kind, ask.display, tuple((message.role, message.content) for message in ask.messages)


def _member_verdict(question: VerdictQuestion, action: Action) -> tuple[bool | None, str]:
    """A member's verdict on ``question`` and what decided it (``DECIDERS``)."""
    records = recorded_verdicts(action.data)
    if len(records) == 1:
        return records[0].accepted, records[0].decided
    word = action.data["answer"] if "answer" in action.data else action.text
    accepted = word in question.accept if isinstance(word, str) and word in question.answers else None
    return accepted, UNRECORDED


def _panel_size(roles: dict[str, RoleInfo], role: str, spec: MatchSpec) -> int:
    info = roles.get(role)
    if info is None or info.panel_option is None:
        return 1
    return int(spec.params.get(info.panel_option, 1))


def match_verdicts(game: Game[Any], match_id: str, spec: MatchSpec, events: Sequence[Event]) -> MatchVerdicts:
    """Fold a match's log, reading each judged role's verdicts against the question it was asked."""
    roles = {info.name: info for info in getattr(game, "roles", ())}
    found = MatchVerdicts()
    open_questions: dict[tuple[Any, ...], dict[str, bool | None]] = {}
    """Questions some member has answered, by (role, the ask's kind, what it shows): each member's verdict."""

    def close(key: tuple[Any, ...]) -> None:
        role, kind = key[0], key[1]
        calls = open_questions.pop(key)
        found.questions.append(PanelQuestion(
            match_id=match_id, game=game.id, role=role, kind=kind, members=_panel_size(roles, role, spec),
            calls=tuple(MemberCall(member, accepted) for member, accepted in calls.items())))

    def count(kind: str, decided: str) -> None:
        tally = found.decided.setdefault((game.id, kind), dict.fromkeys(DECIDERS, 0))
        tally[decided] += 1

    state = game.initial_state(spec)
    for event in events:
        if isinstance(event, SeatEliminated):
            state = game.eliminate(state, event.seat, event.reason)
            continue
        if not isinstance(event, ActionApplied):
            continue
        action = event.action
        ask = next((ask for ask in game.next_asks(state) if ask.party == action.role), None) \
            if action.role is not None else None
        if ask is not None and ask.verdict is not None:
            records = recorded_verdicts(action.data)
            for record in records:
                count(ask.kind, record.decided)
            accepted, decided = _member_verdict(ask.verdict, action)
            if not records:
                count(ask.kind, decided)
            role = panel_role(action.role or "")
            key = (role, *_question_key(ask))
            if action.role in open_questions.get(key, {}):  # asked the same again: a new question
                close(key)
            open_questions.setdefault(key, {})[action.role or role] = accepted
        else:
            for record in recorded_verdicts(action.data):  # a verdict the rules took on a player's move
                count(action.kind, record.decided)
        state = game.apply(state, action)
    for key in list(open_questions):
        close(key)
    found.state = state
    return found


def _unanimous(items: Sequence[Sequence[bool | None]]) -> float | None:
    return sum(1 for item in items if len(set(item)) == 1) / len(items) if items else None


def agreement_rows(questions: Sequence[PanelQuestion], *, resamples: int = 1000, seed: int = 0
                   ) -> list[AgreementRow]:
    """One row per game, role, scale and panel size of the panels (two members or more)."""
    groups: dict[tuple[str, str, str, int], list[tuple[bool | None, ...]]] = defaultdict(list)
    for question in questions:
        if question.members >= 2:
            groups[(question.game, question.role, question.kind, question.members)].append(question.ratings())
    rows: list[AgreementRow] = []
    for (game, role, kind, members), ratings in sorted(groups.items()):
        found = agreement(ratings, resamples=resamples, seed=seed)
        full = [item for item in ratings if all(label is not None for label in item)]
        low, high = bootstrap_interval(full, _unanimous, resamples=resamples, seed=seed)
        rows.append(AgreementRow(
            game=game, role=role, kind=kind, members=members, questions=found.items, left_out=found.left_out,
            unanimous=_unanimous(full), unanimous_low=low, unanimous_high=high, method=found.method,
            kappa=found.kappa, kappa_low=found.low, kappa_high=found.high))
    return rows


def _check_pairs(game: GuessRuleGame, match: MatchRecord, state: GuessState, passing: float
                 ) -> list[tuple[str, str | None, bool]]:
    """(judge, its model, agreed with the check) for each verdict on a checked guess: the panel's and each
    member's when a panel ruled, the judge's alone otherwise."""
    models = {role.role: role.model or role.player_kind for role in match.roles}
    found: list[tuple[str, str | None, bool]] = []
    for guess in state.guesses:
        passed = guess_passes(game, state, guess, passing)
        if passed is None or guess.verdict is None or guess.decided == "rules":  # no judge was asked
            continue
        if not guess.panel:
            found.append((JUDGE, models.get(JUDGE), passed == (guess.verdict == "yes")))
            continue
        found.append((PANEL, None, passed == (guess.verdict == "yes")))
        found.extend((member.member, models.get(member.member), passed == member.accepted)
                     for member in guess.panel)
    return found


def _judge_order(judge: str) -> tuple[int, int]:
    """The panel first, then its members in order."""
    if judge == PANEL:
        return 0, 0
    _, _, number = judge.partition(PANEL_MARK)
    return 1, int(number) if number.isdigit() else 1


def run_agreement(store: Store, run_id: str, registry: GameRegistry, *, passing: float = PASSING,
                  resamples: int = 1000, seed: int = 0) -> RunAgreement:
    """The run's judges' agreement (see the module's note)."""
    questions: list[PanelQuestion] = []
    decided: dict[tuple[str, str], dict[str, int]] = defaultdict(lambda: dict.fromkeys(DECIDERS, 0))
    checks: dict[tuple[str, str, str | None], list[bool]] = defaultdict(list)
    for match in store.run_matches(run_id):
        game = registry.get(match.game)
        found = match_verdicts(game, match.id, match.spec, store.events(match.id))
        questions.extend(found.questions)
        for key, tally in found.decided.items():
            for name, number in tally.items():
                decided[key][name] += number
        finished = match.outcome is not None and match.outcome.status != "aborted"
        if finished and isinstance(game, GuessRuleGame) and isinstance(found.state, GuessState):
            for judge, model, agreed in _check_pairs(game, match, found.state, passing):
                checks[(match.game, judge, model)].append(agreed)
    check_rows: list[CheckRow] = []
    for (game_id, judge, model), verdicts in sorted(checks.items(), key=lambda item: (
            item[0][0], _judge_order(item[0][1]), str(item[0][2]))):
        agree = sum(verdicts)
        low, high = wilson_interval(agree, len(verdicts))
        check_rows.append(CheckRow(game=game_id, judge=judge, model=model, judged=len(verdicts), agree=agree,
                                   agreement=agree / len(verdicts), low=low, high=high))
    return RunAgreement(
        run_id=run_id, passing=passing, agreement=tuple(agreement_rows(questions, resamples=resamples, seed=seed)),
        checks=tuple(check_rows),
        decided=tuple(DecidedRow(game=game_id, kind=kind, **tally) for (game_id, kind), tally in sorted(
            decided.items())),
        panels=sum(1 for question in questions if question.members >= 2))
