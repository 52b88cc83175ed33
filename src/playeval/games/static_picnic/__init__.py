"""GuessTheRuleBench's Static Picnic: which items may come to the picnic? (WordNet categories)."""

from playeval.games.static_picnic.data import PicnicRule, load_items, load_rules, rules_of_level
from playeval.games.static_picnic.rules import StaticPicnic

__all__ = ["PicnicRule", "StaticPicnic", "load_items", "load_rules", "rules_of_level"]
