"""CK-Arena's snapshot QA benchmark (section 3.4 and its appendix), built from stored Undercover games.

Every item is a multiple-choice question with one right option, taken from what was said in a game:

* **A, fine-grained comparison**: a statement and the two concepts of its pair; which does it describe?
* **B, cross-concept inference**: the reader's own concept and a statement by a seat holding the pair's other
  concept; which is that other concept (the true one among three distractors, other pairs' words, the same
  category first)?
* **C, outlier detection**: a concept and four statements, one by a seat voted out that round while holding the
  other concept; which statement is not about the concept?

As in the paper, A and B keep statements whose mean judge scores have relevance >= 0.8 and reasonableness >= 0.9,
and C takes its outliers from seats voted out (not put out by the judge, not forfeits). C's three other
statements are held to A's filter as well, so that the right answer is the only statement off the concept; they
come from seats holding the concept, in the same round first, then the latest earlier rounds.

Option orders come from a ``random.Random`` seeded by the build seed and the item's id, so an item is the same
whatever else was built beside it, and a build is the same for the same runs and seed.
"""

from __future__ import annotations

import json
import os
import random
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, model_validator

from playeval.core.errors import PlayevalError
from playeval.core.registry import GameRegistry
from playeval.engine import require_run
from playeval.engine.match import state_from_events
from playeval.games.undercover.pairs import load_pairs
from playeval.games.undercover.state import Statement, UndercoverState
from playeval.store import Store

GAME = "undercover"
Task = Literal["A", "B", "C"]
TASKS: tuple[Task, ...] = ("A", "B", "C")
TASK_NAMES: dict[str, str] = {"A": "fine-grained comparison", "B": "cross-concept inference",
                              "C": "outlier detection"}
MIN_RELEVANCE = 0.8
MIN_REASONABLENESS = 0.9
B_OPTIONS = 4
C_STATEMENTS = 4
ITEM_VERSION = 1


class QAError(PlayevalError):
    """The QA benchmark cannot be built or read as asked."""


class QAItem(BaseModel):
    """One question, its options, the index of the right one, and where it came from."""

    model_config = ConfigDict(frozen=True)

    version: int = ITEM_VERSION
    id: str
    task: Task
    question: str
    options: tuple[str, ...]
    answer: int
    run_id: str
    match_id: str
    round: int
    seat: str
    """The statement's speaker (A, B) or the seat voted out (C)."""
    category: str
    pair_id: str
    sources: tuple[str, ...] = ()
    """C only: each option's statement as ``round:seat``."""

    @model_validator(mode="after")
    def _consistent(self) -> QAItem:
        if not 0 <= self.answer < len(self.options):
            raise ValueError(f"item {self.id}: answer {self.answer} is not an option's index")
        if len(set(self.options)) != len(self.options):
            raise ValueError(f"item {self.id}: options repeat")
        return self


@dataclass
class BuildReport:
    """What the build took in and what each filter removed."""

    matches: int = 0
    statements: int = 0
    unscored: int = 0
    low_relevance: int = 0
    """Statements with relevance under the threshold (whatever their reasonableness)."""
    low_reasonableness: int = 0
    """Statements that passed relevance but not reasonableness."""
    voted_out: int = 0
    outliers_without_statement: int = 0
    outliers_short: int = 0
    """Seats voted out whose game had too few kept statements on the other concept for task C."""
    items: dict[str, int] = field(default_factory=lambda: dict.fromkeys(TASKS, 0))

    def filters(self) -> str:
        """One line: what each filter removed."""
        kept = self.statements - self.unscored - self.low_relevance - self.low_reasonableness
        return (f"{self.matches} matches, {self.statements} statements: {self.unscored} unscored, "
                f"{self.low_relevance} with relevance < {MIN_RELEVANCE}, {self.low_reasonableness} more with "
                f"reasonableness < {MIN_REASONABLENESS}, {kept} kept for A/B; {self.voted_out} seats voted out, "
                f"{self.outliers_without_statement} without a statement that round, {self.outliers_short} with "
                f"fewer than {C_STATEMENTS - 1} kept statements on the other concept")


@dataclass(frozen=True)
class _Game:
    run_id: str
    match_id: str
    state: UndercoverState

    @property
    def pair(self) -> Mapping[str, str]:
        return self.state.spec.setup["pair"]  # type: ignore[no-any-return]

    def other(self, word: str) -> str:
        return self.pair["undercover"] if word == self.pair["civilian"] else self.pair["civilian"]


def kept(statement: Statement) -> bool:
    """Whether a statement passes the A/B filter on its judges' mean scores."""
    mean = statement.mean()
    return mean is not None and mean.relevance >= MIN_RELEVANCE and mean.reasonableness >= MIN_REASONABLENESS


def item_rng(seed: int, item_id: str) -> random.Random:
    return random.Random(f"{seed}:{item_id}")


def _quote(text: str) -> str:
    return f'"{text}"'


def _undercover_games(store: Store, run_ids: Sequence[str], registry: GameRegistry) -> list[_Game]:
    game = registry.get(GAME)
    found: list[_Game] = []
    for run_id in run_ids:
        require_run(store, run_id)
        matches = [m for m in sorted(store.run_matches(run_id), key=lambda record: record.match_index or 0)
                   if m.game == GAME and m.outcome is not None and m.outcome.status == "finished"]
        if not matches:
            raise QAError(f"run {run_id} has no finished undercover matches to build QA items from")
        found.extend(_Game(run_id, m.id, state_from_events(game, m.spec, store.events(m.id))) for m in matches)
    return found


class _Distractors:
    """Other pairs' words by category: the shipped pairs and every pair the games used."""

    def __init__(self, games: Iterable[_Game]) -> None:
        words: dict[str, set[str]] = defaultdict(set)
        for pair in load_pairs():
            words[pair.category].update((pair.civilian, pair.undercover))
        for game in games:
            words[game.pair["category"]].update((game.pair["civilian"], game.pair["undercover"]))
        self._words = {category: sorted(found) for category, found in words.items()}

    def draw(self, rng: random.Random, category: str, exclude: Iterable[str], k: int) -> list[str]:
        """``k`` words, the category's first, none of ``exclude`` (compared without case) and none twice."""
        banned = {word.lower() for word in exclude}
        same = [w for w in self._words.get(category, []) if w.lower() not in banned]
        chosen = rng.sample(same, min(k, len(same)))
        banned.update(word.lower() for word in chosen)
        if len(chosen) < k:
            rest = sorted({w for c, ws in self._words.items() if c != category for w in ws if w.lower() not in banned})
            chosen += rng.sample(rest, min(k - len(chosen), len(rest)))
        return chosen


def _provenance(game: _Game, round_: int, seat: str) -> dict[str, Any]:
    return {"run_id": game.run_id, "match_id": game.match_id, "round": round_, "seat": seat,
            "category": str(game.pair["category"]), "pair_id": str(game.pair["id"])}


def _choice_item(task: Task, item_id: str, question: str, right: str, others: Sequence[str], rng: random.Random,
                 **source: Any) -> QAItem:
    options = [right, *others]
    rng.shuffle(options)
    return QAItem(id=item_id, task=task, question=question, options=tuple(options), answer=options.index(right),
                  **source)


def _comparison(game: _Game, item: Statement, seed: int) -> QAItem:
    item_id = f"A:{game.match_id}:{item.round}:{item.seat}"
    word = game.state.word(item.seat)
    question = (f"A player in a word game described one of two close concepts with this sentence:\n"
                f"{_quote(item.text)}\nWhich of the two concepts does the sentence describe?")
    return _choice_item("A", item_id, question, word, [game.other(word)], item_rng(seed, item_id),
                        **_provenance(game, item.round, item.seat))


def _inference(game: _Game, item: Statement, seed: int, distractors: _Distractors) -> QAItem:
    item_id = f"B:{game.match_id}:{item.round}:{item.seat}"
    word = game.state.word(item.seat)
    own = game.other(word)
    rng = item_rng(seed, item_id)
    wrong = distractors.draw(rng, str(game.pair["category"]), (word, own), B_OPTIONS - 1)
    question = (f"In a word game your concept is {_quote(own)}. Another player holds a close but different concept "
                f"and said:\n{_quote(item.text)}\nWhich is the other player's concept?")
    return _choice_item("B", item_id, question, word, wrong, rng, **_provenance(game, item.round, item.seat))


def _outlier(game: _Game, round_: int, seat: str, seed: int, report: BuildReport) -> QAItem | None:
    state = game.state
    odd = next((s for s in state.statements if s.round == round_ and s.seat == seat), None)
    if odd is None:
        report.outliers_without_statement += 1
        return None
    concept = game.other(state.word(seat))
    on_concept = [s for s in state.statements if s.round <= round_ and state.word(s.seat) == concept and kept(s)]
    on_concept.sort(key=lambda s: -s.round)  # the same round first, then the latest earlier ones (a stable sort)
    chosen: list[Statement] = []
    for candidate in on_concept:
        if candidate.text != odd.text and all(candidate.text != c.text for c in chosen):
            chosen.append(candidate)
    if len(chosen) < C_STATEMENTS - 1:
        report.outliers_short += 1
        return None
    picked = [odd, *chosen[:C_STATEMENTS - 1]]
    item_id = f"C:{game.match_id}:{round_}:{seat}"
    item_rng(seed, item_id).shuffle(picked)
    question = (f"In a word game the concept is {_quote(concept)}. Three of these four sentences were said about "
                f"it; one was said about a different concept. Which sentence is not about {_quote(concept)}?")
    return QAItem(id=item_id, task="C", question=question, options=tuple(s.text for s in picked),
                  answer=picked.index(odd), sources=tuple(f"{s.round}:{s.seat}" for s in picked),
                  **_provenance(game, round_, seat))


def build_items(store: Store, run_ids: Sequence[str], registry: GameRegistry, *, seed: int = 0
                ) -> tuple[list[QAItem], BuildReport]:
    """The QA items of the runs' finished Undercover matches (tasks A, then B, then C, each in play order), and
    what the filters removed. Raises ``QAError`` when a run has no such match or no item passes."""
    games = _undercover_games(store, run_ids, registry)
    distractors = _Distractors(games)
    report = BuildReport(matches=len(games))
    by_task: dict[str, list[QAItem]] = {task: [] for task in TASKS}
    for game in games:
        for statement in game.state.statements:
            report.statements += 1
            mean = statement.mean()
            if mean is None:
                report.unscored += 1
            elif mean.relevance < MIN_RELEVANCE:
                report.low_relevance += 1
            elif mean.reasonableness < MIN_REASONABLENESS:
                report.low_reasonableness += 1
            else:
                by_task["A"].append(_comparison(game, statement, seed))
                by_task["B"].append(_inference(game, statement, seed, distractors))
        for out in game.state.out:
            if out.by == "vote":
                report.voted_out += 1
                found = _outlier(game, out.round, out.seat, seed, report)
                if found is not None:
                    by_task["C"].append(found)
    report.items = {task: len(items) for task, items in by_task.items()}
    items = [item for task in TASKS for item in by_task[task]]
    if not items:
        raise QAError(f"no QA item passed the filters in run(s) {', '.join(run_ids)}: {report.filters()}")
    return items, report


def write_items(path: Path, items: Iterable[QAItem]) -> None:
    """One JSON object per line, written whole or not at all."""
    partial = path.with_name(f".{path.name}.partial")
    with partial.open("w", encoding="utf-8") as handle:
        for item in items:
            handle.write(item.model_dump_json() + "\n")
    os.replace(partial, path)


def read_items(path: Path) -> list[QAItem]:
    """The items of a QA file; a clear error naming the line that cannot be read."""
    if not path.is_file():
        raise QAError(f"no QA file at {path}; build one with: playeval qa build RUN_ID -o {path}")
    items: list[QAItem] = []
    for number, line in enumerate(path.read_text("utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            items.append(QAItem.model_validate(json.loads(line)))
        except ValueError as err:
            raise QAError(f"{path}:{number} is not a QA item: {str(err).splitlines()[0]}") from None
    if not items:
        raise QAError(f"{path} holds no QA items")
    if len({item.id for item in items}) != len(items):
        raise QAError(f"{path} repeats item ids")
    return items
