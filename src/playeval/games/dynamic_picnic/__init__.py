"""GuessTheRuleBench's Dynamic Picnic: a game-master model invents a rule of a drawn taxonomy type and items on both
sides of it, a validator checks the rule's level and every item, and the player names the rule. Rules played are
collected from a store into a de-duplicated bank (``playeval.library.collect_bank``, ``playeval rule-bank``) and can
be played again with the same items (``--option rules=bank --option bank=FILE``)."""

from playeval.games.dynamic_picnic.bank import BankRule, RuleBank, add_rules, rule_id
from playeval.games.dynamic_picnic.game import DynamicPicnic
from playeval.games.dynamic_picnic.master import GAME_MASTER, VALIDATOR
from playeval.games.dynamic_picnic.state import (
    HELD_PER_SIDE,
    MAX_ITEM_ROUNDS,
    MAX_RULE_TRIES,
    Batch,
    DynamicState,
    RuleAttempt,
    statement_key,
)
from playeval.games.dynamic_picnic.taxonomy import (
    LEVEL_DESCRIPTIONS,
    SETS,
    TAXONOMY,
    RuleKind,
    kinds_in,
    rule_kind,
    set_of,
)

__all__ = [
    "GAME_MASTER",
    "HELD_PER_SIDE",
    "LEVEL_DESCRIPTIONS",
    "MAX_ITEM_ROUNDS",
    "MAX_RULE_TRIES",
    "SETS",
    "TAXONOMY",
    "VALIDATOR",
    "BankRule",
    "Batch",
    "DynamicPicnic",
    "DynamicState",
    "RuleAttempt",
    "RuleBank",
    "RuleKind",
    "add_rules",
    "kinds_in",
    "rule_id",
    "rule_kind",
    "set_of",
    "statement_key",
]
