"""GuessTheRuleBench's table (the paper's Table 2 form, extended): per game, level and model, the win rate with its
Wilson 95% interval, turns, examples seen and time (Tables 3-6), and beside them the judge-free rule-application
check: its mean accuracy, and how often the judge's verdict agrees with it.

A win is a guess the rules accepted (it stated the rule; no judge was asked: ``GuessRuleGame.rules_accept``) or
the judge role accepted: the rows count the two apart (``rule_wins``), and only judged guesses count towards the
judge's agreement with the check.

A guess "passes the check" when its answers to the held-out items are at least ``passing`` right; a verdict
agrees when it accepts exactly the guesses that pass. A forfeited seat counts as a loss; an aborted match is
left out.

**The check's chance level.** An accuracy means little without what chance scores on the same items (a model that
answers "yes" to everything gets 50% of balanced yes/no items right). Beside the accuracy each row gives the chance
level of the items its matches' last checks actually asked (``GuessRuleGame.check_chance``: the share of the
commonest right answer, 0.5 on balanced yes/no items; 0 for the Math Game's open next values) and Cohen's kappa of
the player's answers against the right ones, pooled over those items (``analysis.agreement.cohen_kappa``): 0 at
chance (a constant answer, or answers unrelated to the truth), 1 when every answer is right, below 0 when worse
than chance. A check whose answers are all one word and whose items all want that word has no kappa (``None``).
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from dataclasses import dataclass, field

from playeval.analysis.agreement import cohen_kappa
from playeval.analysis.intervals import wilson_interval
from playeval.core.registry import GameRegistry
from playeval.engine.match import state_from_events
from playeval.guess_rule import PLAYER, Guess, GuessRuleGame, GuessState
from playeval.store import Store

PASSING = 0.8


@dataclass(frozen=True)
class RuleGameRow:
    game: str
    level: int
    model: str
    matches: int
    wins: int
    win_rate: float | None
    ci_low: float | None
    ci_high: float | None
    turns: float | None
    examples_seen: float | None
    """Items shown, on average (``GuessRuleGame.seen``: a picnic unit shows two, one that may come and one that may
    not; the Math Game's are values), as the page's counter counts them."""
    seconds: float | None
    check_accuracy: float | None
    """Mean accuracy of the last check of each match that had one."""
    agreement: float | None
    """Share of judged, checked guesses whose verdict agrees with the check."""
    judged: int
    rule_wins: int = 0
    """Wins whose accepted guess the rules decided (no judge was asked); ``wins - rule_wins`` the judge decided."""
    check_items: int = 0
    """Held-out items answered in the last checks counted in ``check_accuracy``, pooled."""
    check_chance: float | None = None
    """The accuracy chance gives on those items (``GuessRuleGame.check_chance``: 0.5 on balanced yes/no items)."""
    check_kappa: float | None = None
    """Cohen's kappa of the answers against the right ones over those items: 0 at chance, 1 all right."""


@dataclass(frozen=True)
class _Match:
    """What one match adds to its row."""

    won: bool
    turns: int
    shown: int
    """Items (values) seen."""
    seconds: float
    score: float | None
    checks: list[tuple[bool, bool]]
    by_rules: bool
    answered: list[tuple[str, str]] = field(default_factory=list)
    """(the player's answer, the right one) for each item of its last check."""


def last_check(game: GuessRuleGame, state: GuessState) -> list[tuple[str, str]]:
    """(the player's answer, the right one) for each held-out item of the last check the player made (empty when it
    made none, or skipped it): the items ``GuessRuleGame.accuracy`` scores."""
    if state.rule is None:
        return []
    applied = [guess for guess in state.guesses if guess.applied]
    if not applied:
        return []
    expected = [game.normalize_answer(item.answer) for item in applied[-1].check.items]
    return list(zip(applied[-1].applied or (), expected, strict=False))


def guess_passes(game: GuessRuleGame, state: GuessState, guess: Guess, passing: float) -> bool | None:
    """Whether ``guess``'s rule-application check got at least ``passing`` of the held-out items right (``None``:
    the check was skipped or not made, or the rule has no held-out items)."""
    answers = [game.normalize_answer(item.answer) for item in guess.check.items]
    if not guess.applied or not answers:
        return None
    right = sum(1 for got, want in zip(guess.applied, answers, strict=False) if got == want) / len(answers)
    return right >= passing


def _guess_checks(game: GuessRuleGame, state: GuessState, passing: float) -> list[tuple[bool, bool]]:
    """(check passed, judge said yes) for each guess that has both (a guess the rules decided was not judged)."""
    found: list[tuple[bool, bool]] = []
    for guess in state.guesses:
        if guess.decided == "rules":
            continue
        passed = guess_passes(game, state, guess, passing)
        if passed is not None and guess.verdict is not None:
            found.append((passed, guess.verdict == "yes"))
    return found


def rule_game_rows(store: Store, run_id: str, registry: GameRegistry, *, passing: float = PASSING
                   ) -> list[RuleGameRow]:
    """One row per (game, level, model) of the run's guess-the-rule matches."""
    groups: dict[tuple[str, int, str], list[_Match]] = defaultdict(list)
    games: dict[str, GuessRuleGame] = {}
    for match in store.run_matches(run_id):
        game = registry.get(match.game)
        if not isinstance(game, GuessRuleGame) or match.outcome is None or match.outcome.status == "aborted":
            continue
        seat = next((s for s in match.seats if s.seat == PLAYER), None)
        if seat is None or not seat.model:
            continue
        games[match.game] = game
        records = store.event_records(match.id)
        state = state_from_events(game, match.spec, [record.event for record in records])
        result = match.outcome.result_for(PLAYER)
        won = bool(result.won) and not result.forfeited
        seconds = (records[-1].created_at - records[0].created_at).total_seconds()
        by_rules = won and bool(state.guesses) and state.guesses[-1].decided == "rules"
        groups[(match.game, match.level, seat.model)].append(_Match(
            won=won, turns=state.turns, shown=game.seen(state.shown), seconds=seconds, score=result.score,
            checks=_guess_checks(game, state, passing), by_rules=by_rules,
            answered=last_check(game, state) if result.score is not None else []))
    rows: list[RuleGameRow] = []
    for (game_id, level, model), entries in sorted(groups.items()):
        wins = sum(1 for entry in entries if entry.won)
        low, high = wilson_interval(wins, len(entries))
        checks = [entry.score for entry in entries if entry.score is not None]
        pairs = [pair for entry in entries for pair in entry.checks]
        answered = [item for entry in entries for item in entry.answered]
        rows.append(RuleGameRow(
            game=game_id, level=level, model=model, matches=len(entries), wins=wins,
            win_rate=wins / len(entries), ci_low=low, ci_high=high,
            turns=statistics.fmean(entry.turns for entry in entries),
            examples_seen=statistics.fmean(entry.shown for entry in entries),
            seconds=statistics.fmean(entry.seconds for entry in entries),
            check_accuracy=statistics.fmean(checks) if checks else None,
            agreement=sum(1 for passed, yes in pairs if passed == yes) / len(pairs) if pairs else None,
            judged=len(pairs), rule_wins=sum(1 for entry in entries if entry.by_rules),
            check_items=len(answered),
            check_chance=games[game_id].check_chance([right for _, right in answered]) if answered else None,
            check_kappa=cohen_kappa([got for got, _ in answered], [right for _, right in answered])))
    return rows
