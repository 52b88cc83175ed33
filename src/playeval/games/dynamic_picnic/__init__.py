"""GuessTheRuleBench's Dynamic Picnic: the player names a rule from items on both sides of it. By default the rule
and its items come from the rule bank shipped with playeval (``shipped_bank``: hand-checked rules of every level and
taxonomy type); with ``--option rules=generated`` a game-master model invents a rule of a drawn type and items on
both sides of it, and a validator checks the rule's level and every item (falling back to a bank rule when they
fail). Generated rules are collected from a store into a de-duplicated bank (``playeval.library.collect_bank``,
``playeval rule-bank``) and can be played again with the same items (``--option bank=FILE``)."""

from playeval.games.dynamic_picnic.bank import BankRule, RuleBank, add_rules, rule_id, shipped_bank
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
    "shipped_bank",
    "statement_key",
]
