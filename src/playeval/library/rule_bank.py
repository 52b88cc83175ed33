"""Collecting the rule bank from a store: every generated Dynamic Picnic match folded from its log (see ``bank``)."""

from __future__ import annotations

from playeval.engine import state_from_events
from playeval.games.dynamic_picnic.bank import BankRule, RuleBank, add_rules, rule_id
from playeval.games.dynamic_picnic.game import DynamicPicnic
from playeval.games.dynamic_picnic.state import HELD_PER_SIDE, DynamicState
from playeval.store import MatchRecord, Store


def banked_rule(match: MatchRecord, state: DynamicState) -> BankRule | None:
    """A generated match's rule as a bank entry, when it was accepted and its held-out items are complete (not a
    match that fell back to a bank rule: its rule is the bank's, not its game master's)."""
    round_ = state.round
    if not state.accepted or len(round_.held_out) != 2 * HELD_PER_SIDE or match.spec.setup.get("source") == "bank" \
            or state.fell_back is not None:
        return None
    roles = {role.role: role.model or role.player_kind for role in match.roles}
    dropped = tuple(name for batch in state.batches for name in batch.dropped())
    return BankRule(id=rule_id(round_.statement), statement=round_.statement, level=match.level,
                    type=str(match.spec.setup.get("type", "")), rated=state.attempts[-1].level,
                    positives=round_.positives,
                    negatives=round_.negatives,
                    held_out=tuple((item, "yes" if answer == "yes" else "no") for item, answer in round_.held_out),
                    dropped=dropped, game_master=roles.get("game_master"), validator=roles.get("validator"),
                    sources=(match.id,))


def collect_bank(store: Store, into: RuleBank | None = None) -> RuleBank:
    """Every banked rule of the store's ``dynamic_picnic`` matches, oldest match first, added to ``into``."""
    game = DynamicPicnic()
    found: list[BankRule] = []
    matches = sorted((m for m in store.list_matches() if m.game == game.id), key=lambda m: (m.created_at, m.id))
    for match in matches:
        state = state_from_events(game, match.spec, store.events(match.id))
        assert isinstance(state, DynamicState)
        rule = banked_rule(match, state)
        if rule is not None:
            found.append(rule)
    return add_rules(into or RuleBank(), found)
