"""``playeval rule-bank``: collect Dynamic Picnic rules from a store into a bank file, and list a bank.

    playeval run dynamic_picnic --models M --n 5 --level 2 --option rules=generated   # the game master writes rules
    playeval rule-bank build bank.json                                  # collect them (merged into bank.json)
    playeval rule-bank list bank.json --items                           # what is banked
    playeval run dynamic_picnic --models M2 --level 2 --option bank=bank.json
    playeval rule-bank list                                             # the bank shipped with playeval
"""

from __future__ import annotations

from pathlib import Path

import typer
from rich.table import Table

from playeval.cli.console import db_option, print_table, stderr, stdout
from playeval.games.dynamic_picnic import RuleBank, shipped_bank
from playeval.library import collect_bank
from playeval.store import Store


def register(app: typer.Typer) -> None:
    bank_app = typer.Typer(help="Dynamic Picnic's rule bank: rules game masters wrote, de-duplicated, to replay.",
                           no_args_is_help=True)
    app.add_typer(bank_app, name="rule-bank")

    @bank_app.command("build")
    def build(output: Path = typer.Argument(..., help="Bank file to write (rules already in it are kept and "
                                                      "merged)."),
              db: str | None = db_option()) -> None:
        """Collect every accepted rule of the store's dynamic_picnic matches, with its validated items."""
        before = RuleBank.load(output) if output.exists() else RuleBank()
        with Store.open(db, write=False) as store:
            bank = collect_bank(store, into=before)
        bank.save(output)
        stderr().print(f"{len(bank.rules)} rules in {output} ({len(bank.rules) - len(before.rules)} new)")

    @bank_app.command("list")
    def list_rules(bank_file: Path | None = typer.Argument(None, help="Bank file (default: the bank shipped with "
                                                                     "playeval, which matches play by default)."),
                   level: int = typer.Option(None, "--level", help="Only this level."),
                   items: bool = typer.Option(False, "--items", help="Also print each rule's items.")) -> None:
        """List a bank's rules: id, level, type, items per side, held-out items, matches it came from."""
        bank = RuleBank.load(bank_file) if bank_file is not None else shipped_bank()
        rules = [rule for rule in bank.rules if level is None or rule.level == level]
        console = stdout()
        table = Table("id", "level", "type", "rule", "yes", "no", "held out", "dropped", "matches", "game master")
        for rule in rules:
            table.add_row(rule.id, f"L{rule.level}", rule.type, rule.statement, str(len(rule.positives)),
                          str(len(rule.negatives)), str(len(rule.held_out)), str(len(rule.dropped)),
                          str(len(rule.sources)), rule.game_master or "-")
        print_table(console, table)
        if items:
            for rule in rules:
                console.print(f"\n{rule.id} {rule.statement}", markup=False)
                console.print(f"  may come: {', '.join(rule.positives)}", markup=False)
                console.print(f"  may not come: {', '.join(rule.negatives)}", markup=False)
                console.print(f"  held out: {', '.join(f'{item} ({answer})' for item, answer in rule.held_out)}",
                              markup=False)
                if rule.dropped:
                    console.print(f"  dropped by the validator: {', '.join(rule.dropped)}", markup=False)
