#!/usr/bin/env python3
"""Audit the rule games: how many example units and check items every shipped rule offers (issue 23).

For each game and level it prints the distribution over the shipped rules (not over seeds): the number of rules,
min / median / max of the example units left after turn 1 (and of the items or values they show) and of the items
of the rule-application check, and how many rules fall under the minimum (10 of each) on either. A unit is what
``MORE: 1`` asks for: in the picnic games one item that may come and one that may not. The counting is
``playeval.guess_rule.audit``; the rules and their counts are ``playeval.games.rule_audit`` (Code Functions Picnic
runs its library rules in the sandbox, as a match's setup does, which takes a second or two).

Run from the repository's root::

    python3 scripts/audit_rules.py                       # the table, every rule game
    python3 scripts/audit_rules.py --json                # the same as JSON (summaries and every rule)
    python3 scripts/audit_rules.py --list-short static_picnic 2   # the rules of L2 under the minimum
    python3 scripts/audit_rules.py --bank bank.json      # also a Dynamic Picnic rule bank file

Exit status 0 whatever the figures (it measures; the test ``tests/games/test_rule_audit.py`` asserts).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from playeval.games.rule_audit import RULE_GAMES, every_rule
from playeval.guess_rule.audit import MIN_CHECK, MIN_UNITS, short, summarize, table


def main(argv: Iterable[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--games", nargs="+", choices=RULE_GAMES, default=list(RULE_GAMES),
                        help="the games to audit (default: every rule game)")
    parser.add_argument("--json", action="store_true", help="print JSON: the summaries and every rule's counts")
    parser.add_argument("--list-short", nargs=2, metavar=("GAME", "LEVEL"),
                        help="list the rules of GAME's LEVEL under the minimum, with their counts")
    parser.add_argument("--bank", type=Path, help="a Dynamic Picnic rule bank file to audit too")
    parser.add_argument("--min-units", type=int, default=MIN_UNITS, help="units required after turn 1 (10)")
    parser.add_argument("--min-check", type=int, default=MIN_CHECK, help="check items required (10)")
    args = parser.parse_args(None if argv is None else list(argv))
    games = list(args.games)
    level: int | None = None
    if args.list_short:
        game, said = args.list_short
        if game not in RULE_GAMES or not said.isdigit():
            parser.error(f"--list-short takes a rule game ({', '.join(RULE_GAMES)}) and a level, not {game} {said}")
        games, level = [game], int(said)
    if args.bank is not None and not args.bank.is_file():
        parser.error(f"no rule bank file {args.bank}")
    supplies = every_rule(games, bank=args.bank)
    if level is not None:
        supplies = tuple(item for item in supplies if item.level == level)
        if not supplies:
            parser.error(f"{games[0]} has no rule of level {level}")
    summaries = summarize(supplies, args.min_units, args.min_check)
    if args.json:
        found = short(supplies, args.min_units, args.min_check) if level is not None else supplies
        print(json.dumps({"min_units": args.min_units, "min_check": args.min_check,
                          "summaries": [item.to_json() for item in summaries],
                          "rules": [{"game": item.game, "level": item.level, "rule": item.rule, "units": item.units,
                                     "first": item.first, "beyond_first": item.beyond_first,
                                     "seen_beyond_first": item.seen_beyond_first, "check": item.check}
                                    for item in found]}, indent=1))
        return 0
    if level is not None:
        found = short(supplies, args.min_units, args.min_check)
        print(f"{games[0]} L{level}: {len(found)} of {len(supplies)} rules under the minimum "
              f"({args.min_units} units after turn 1, {args.min_check} check items)")
        width = max((len(item.rule) for item in found), default=4)
        print(f"{'rule'.ljust(width)}  units  after turn 1  seen after turn 1  check")
        for item in found:
            print(f"{item.rule.ljust(width)}  {item.units:>5}  {item.beyond_first:>12}  "
                  f"{item.seen_beyond_first:>17}  {item.check:>5}")
        return 0
    print("Per game and level, over every shipped rule: min/median/max. A unit is what 'MORE: 1' shows (picnic "
          "games: one item that may come and one that may not; Math: one value); 'seen' counts the items or "
          f"values. Minimum: {args.min_units} units after turn 1 and {args.min_check} check items.")
    print(table(summaries, args.min_units, args.min_check))
    if "dynamic_picnic" in games:
        print("dynamic_picnic: the rule bank shipped with playeval (what a match plays by default)"
              + (f", and the rules of {args.bank}" if args.bank else "") + "; generated rules are not counted.")
    print("math: every rule the procedural draw can give (steps, operands and start), each valid one counted once.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
