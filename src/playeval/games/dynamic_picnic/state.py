"""The state of a Dynamic Picnic match and the game master's part of it, as pure functions of the recorded moves.

Beside the shared guess-the-rule state (``GuessState``: turns, examples shown, guesses) a match holds what the
game master has done so far: the rules it wrote with the level the classifier gave each, every batch of items it
generated with the validator's verdicts, and the reason the match was given up, if it was. The round
(``GuessState.rule``, a ``ListedRound``) grows as validated items arrive: the first ``HELD_PER_SIDE`` items of
each side become the held-out items of the rule-application check, the rest are examples, in the order the
validator saw them.

When the game master's part fails before the player's first move (no rule at the level in ``MAX_RULE_TRIES``, too
few valid items in ``MAX_ITEM_ROUNDS``, or a role out of re-asks: ``game.DynamicPicnic.default_move``) and the
spec holds a bank rule to fall back to (``setup["fallback"]``), the match plays that rule and records why
(``fell_back``); without one, the match is given up (``failure``, an aborted outcome).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from playeval.core.match import MatchSpec
from playeval.core.normalize import normalize_name
from playeval.core.rng import derive_seed
from playeval.guess_rule import GuessState, ListedRound

HELD_PER_SIDE = 5
"""Held-out items per side: the check asks about 10, half of which follow the rule."""
MAX_RULE_TRIES = 3
"""Rules the game master may write before the match is given up, when the classifier puts each at another level."""
MAX_ITEM_ROUNDS = 4
"""Generate-and-validate rounds allowed to meet one need for items before the match is given up."""
MAX_PER_ASK = 12
"""Most items of one side asked for in one request."""
SPARE = 2
"""Items asked for beyond the need on each side, since the validator drops some."""


@dataclass(frozen=True)
class RuleAttempt:
    """A rule the game master wrote, and the level the classifier gave it (``None`` until classified)."""

    statement: str
    level: int | None = None


@dataclass(frozen=True)
class Batch:
    """The new items of one game-master reply, in the (seeded) order the validator is asked about them, each with
    the side the game master put it on; ``verdicts`` are the validator's (True: follows the rule)."""

    items: tuple[tuple[str, bool], ...]
    verdicts: tuple[bool, ...] | None = None
    repeated: tuple[str, ...] = ()
    """Items of the reply dropped before validation: already used in the match, or given on both sides."""

    def kept(self) -> tuple[tuple[str, bool], ...]:
        """The items the validator put on the side the game master did."""
        if self.verdicts is None:
            return ()
        return tuple(item for item, verdict in zip(self.items, self.verdicts, strict=True) if item[1] == verdict)

    def dropped(self) -> tuple[str, ...]:
        """The items the validator put on the other side."""
        if self.verdicts is None:
            return ()
        return tuple(name for (name, fits), verdict in zip(self.items, self.verdicts, strict=True) if fits != verdict)


@dataclass(frozen=True)
class DynamicState(GuessState):
    """A Dynamic Picnic match (see the module's note). ``rule`` is the growing ``ListedRound``; its statement is
    empty until a rule is accepted."""

    attempts: tuple[RuleAttempt, ...] = ()
    batches: tuple[Batch, ...] = ()
    reserve_yes: tuple[str, ...] = ()
    reserve_no: tuple[str, ...] = ()
    item_rounds: int = 0
    """Generate-and-validate rounds since the last need for items was met."""
    failure: str | None = None
    """Why the game master's part failed and the match was given up (an aborted outcome)."""
    ran_out: bool = False
    """The game master could not fill a request for more examples: those validated are all there are."""
    fell_back: str | None = None
    """Why the match plays the bank rule of its setup instead of the game master's (its part failed)."""

    @property
    def round(self) -> ListedRound:
        assert isinstance(self.rule, ListedRound)
        return self.rule

    @property
    def accepted(self) -> bool:
        return bool(self.round.statement)

    @property
    def pending(self) -> Batch | None:
        """The batch awaiting the validator's verdicts, if any."""
        return self.batches[-1] if self.batches and self.batches[-1].verdicts is None else None

    def needed(self) -> tuple[int, int]:
        """Validated items still missing on each side (followers, others) for the check and the examples due."""
        yes = max(0, HELD_PER_SIDE - len(self.reserve_yes)) + max(0, self.shown - len(self.round.positives))
        no = max(0, HELD_PER_SIDE - len(self.reserve_no)) + max(0, self.shown - len(self.round.negatives))
        return yes, no

    def used(self) -> frozenset[str]:
        """Every item of the match so far, normalised: a repeat of any of them is not used again."""
        names = [name for batch in self.batches for name, _ in batch.items]
        return frozenset(normalize_name(name) for name in names)


def same_statement(statement: str, others: tuple[str, ...] | list[str]) -> bool:
    """Whether ``statement`` says what one of ``others`` says, after normalising (case, articles, punctuation,
    plurals and a leading 'items that' or the like)."""
    key = statement_key(statement)
    return any(statement_key(other) == key for other in others)


_LEADS = ("item that ", "items that ", "thing that ", "things that ", "anything that ", "item which ",
          "thing which ", "any item that ", "object that ")


def statement_key(statement: str) -> str:
    """A rule's statement in the form rules are de-duplicated by."""
    key = normalize_name(statement)
    for lead in _LEADS:
        lead_key = normalize_name(lead) + " "
        if key.startswith(lead_key):
            return key[len(lead_key):]
    return key


def fallback_round(spec: MatchSpec) -> ListedRound | None:
    """The bank rule a generated match falls back to, with its items, when its setup holds one."""
    found = spec.setup.get("fallback")
    if not found:
        return None
    return ListedRound(statement=str(found["statement"]), positives=tuple(found["positives"]),
                       negatives=tuple(found["negatives"]),
                       held_out=tuple((str(item), str(answer)) for item, answer in found["held_out"]))


def can_fall_back(state: DynamicState) -> bool:
    """Whether a failure of the game master's part now makes the match play its bank rule: the player has not
    moved (nothing of the game master's was shown) and the setup holds one."""
    return not state.history and state.fell_back is None and fallback_round(state.spec) is not None


def give_up(state: DynamicState, reason: str) -> DynamicState:
    """The game master's part failed for ``reason``: the match plays its bank rule (``fell_back``) when it can
    (``can_fall_back``), else it is given up (``failure``)."""
    round_ = fallback_round(state.spec)
    if round_ is None or not can_fall_back(state):
        return replace(state, failure=reason)
    total = min(len(round_.positives), len(round_.negatives))
    return replace(state, rule=round_, total=total, shown=min(int(state.spec.params["num_init_examples"]), total),
                   reserve_yes=tuple(item for item, answer in round_.held_out if answer == "yes"),
                   reserve_no=tuple(item for item, answer in round_.held_out if answer == "no"),
                   item_rounds=0, fell_back=reason)


def add_rule(state: DynamicState, statement: str) -> DynamicState:
    return replace(state, attempts=(*state.attempts, RuleAttempt(statement=statement)))


def classify(state: DynamicState, level: int) -> DynamicState:
    """The classifier's level for the last rule: accepted at the match's level (at any level, recorded, when the
    match's ``level_check`` is ``record``); otherwise another rule is due, or, after ``MAX_RULE_TRIES`` rules, the
    match is given up."""
    last = replace(state.attempts[-1], level=level)
    state = replace(state, attempts=(*state.attempts[:-1], last))
    wanted = state.spec.level
    if level == wanted or state.spec.params.get("level_check") == "record":
        return replace(state, rule=replace(state.round, statement=last.statement))
    if len(state.attempts) >= MAX_RULE_TRIES:
        tried = "; ".join(f"'{attempt.statement}' (L{attempt.level})" for attempt in state.attempts)
        return give_up(state, f"the game master wrote {len(state.attempts)} rules and the classifier put none at "
                              f"L{wanted}: {tried}")
    return state


def add_batch(state: DynamicState, fits: list[str], others: list[str]) -> DynamicState:
    """A game-master reply's items: repeats are dropped at once, the rest await the validator in a seeded order."""
    used = set(state.used())
    fresh: list[tuple[str, bool]] = []
    repeated: list[str] = []
    both = {normalize_name(name) for name in fits} & {normalize_name(name) for name in others}
    for name, side in [(name, True) for name in fits] + [(name, False) for name in others]:
        key = normalize_name(name)
        if not key or key in used or key in both:
            repeated.append(name)
            continue
        used.add(key)
        fresh.append((name, side))
    random.Random(derive_seed(state.spec.seed, "dynamic_picnic", "batch", len(state.batches))).shuffle(fresh)
    state = replace(state, batches=(*state.batches, Batch(items=tuple(fresh), repeated=tuple(repeated))))
    if not fresh:  # nothing to validate: the round is over already
        return _end_round(replace(state, batches=(*state.batches[:-1], replace(state.batches[-1], verdicts=()))))
    return state


def validate(state: DynamicState, verdicts: tuple[bool, ...]) -> DynamicState:
    """The validator's verdicts on the pending batch: kept items fill the held-out reserve, then the examples."""
    batch = state.pending
    assert batch is not None and len(verdicts) == len(batch.items)
    batch = replace(batch, verdicts=verdicts)
    state = replace(state, batches=(*state.batches[:-1], batch))
    kept = batch.kept()
    yes = [name for name, fits in kept if fits]
    no = [name for name, fits in kept if not fits]
    room_yes, room_no = HELD_PER_SIDE - len(state.reserve_yes), HELD_PER_SIDE - len(state.reserve_no)
    round_ = state.round
    state = replace(state, reserve_yes=(*state.reserve_yes, *yes[:room_yes]),
                    reserve_no=(*state.reserve_no, *no[:room_no]))
    round_ = replace(round_, positives=(*round_.positives, *yes[room_yes:]),
                     negatives=(*round_.negatives, *no[room_no:]))
    if not round_.held_out and len(state.reserve_yes) == len(state.reserve_no) == HELD_PER_SIDE:
        held = [(name, "yes") for name in state.reserve_yes] + [(name, "no") for name in state.reserve_no]
        random.Random(derive_seed(state.spec.seed, "dynamic_picnic", "held_out")).shuffle(held)
        round_ = replace(round_, held_out=tuple(held))
    return _end_round(replace(state, rule=round_))


def _end_round(state: DynamicState) -> DynamicState:
    """Count a generate-and-validate round; the need met resets the count, too many rounds give the match up."""
    if state.needed() == (0, 0):
        return replace(state, item_rounds=0)
    rounds = state.item_rounds + 1
    if rounds >= MAX_ITEM_ROUNDS and state.turns > 1 and state.round.held_out:
        # a request for more during play that the game master cannot fill: the examples have run out, as in the
        # games with a fixed pool. The player sees what was validated (at least what it had) and must guess.
        available = min(len(state.round.positives), len(state.round.negatives))
        return replace(state, item_rounds=0, shown=available, total=available, ran_out=True)
    if rounds >= MAX_ITEM_ROUNDS:
        yes, no = state.needed()
        return give_up(replace(state, item_rounds=rounds),
                       f"the game master did not supply enough valid items in {rounds} rounds: still {yes} that "
                       f"follow the rule and {no} that do not are missing")
    return replace(state, item_rounds=rounds)


def wanted(state: DynamicState) -> tuple[int, int]:
    """How many items of each side to ask the game master for: the need and a few spare, within ``MAX_PER_ASK``."""
    yes, no = state.needed()
    return min(MAX_PER_ASK, yes + SPARE), min(MAX_PER_ASK, no + SPARE)
