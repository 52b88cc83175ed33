"""Asking models the snapshot QA items (``analysis.qa``), scoring them, and setting the scores beside the models'
Undercover win rates (CK-Arena reports Spearman's rho between QA accuracy and win rate).

Each item is asked greedily with its options lettered; the reply is one letter, forced by a grammar where the
backend allows it (``OutputConstraint(choices=...)``) and read leniently otherwise. An unreadable reply is re-asked
with the reason, up to ``max_retries`` times, then counted wrong with that reason. Every call is one line of a
JSONL calls file; an item whose final line is there for a model is not asked again, so an interrupted evaluation
resumes where it stopped.
"""

from __future__ import annotations

import asyncio
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from playeval.analysis.intervals import wilson_interval
from playeval.analysis.qa import TASKS, QAError, QAItem
from playeval.analysis.ratings import SeatResult
from playeval.core.ask import CallRecord, OutputConstraint
from playeval.core.errors import FormatError
from playeval.core.messages import Message, assistant, system, user
from playeval.metrics.procedural import _spearman as spearman_of_ranks
from playeval.models import GenerationConfig, Model, ModelRequest, to_call_record

LETTERS = "ABCDEFGH"
DEFAULT_MAX_RETRIES = 2
MIN_MODELS_FOR_RHO = 3
SYSTEM = ("You answer multiple-choice questions about everyday concepts and how people describe them. "
          "Reply with the letter of the one best option and nothing else.")
_LETTER = re.compile(r"^\W*([A-H])\b", re.I)


class QACall(BaseModel):
    """One model call on one item: the calls file's line."""

    model_config = ConfigDict(frozen=True)

    item: str
    task: str
    model: str
    attempt: int
    final: bool
    """The item's last call for this model: its choice (or ``None``) is the model's answer."""
    prompt: tuple[Message, ...]
    reply: str
    choice: int | None
    correct: bool | None
    """Set on the final call only."""
    reason: str | None = None
    """Why the reply could not be read."""
    call: CallRecord


@dataclass(frozen=True)
class TaskScore:
    model: str
    task: str
    """A task letter, or ``all``."""
    n: int
    right: int
    unreadable: int

    @property
    def accuracy(self) -> float | None:
        return self.right / self.n if self.n else None

    @property
    def interval(self) -> tuple[float | None, float | None]:
        return wilson_interval(self.right, self.n)


def letters(count: int) -> tuple[str, ...]:
    return tuple(LETTERS[:count])


def item_messages(item: QAItem) -> tuple[Message, ...]:
    marks = letters(len(item.options))
    lines = [item.question, "", *(f"{mark}. {option}" for mark, option in zip(marks, item.options, strict=True)),
             "", f"Answer with one letter: {', '.join(marks)}."]
    return system(SYSTEM), user("\n".join(lines))


def parse_choice(text: str, options: Sequence[str]) -> int:
    """The option a reply picks: a leading letter (``B``, ``(b)``, ``B. ...``) or an option's exact text."""
    found = _LETTER.match(text.strip())
    if found is not None:
        index = LETTERS.index(found.group(1).upper())
        if index < len(options):
            return index
        raise FormatError(f"there is no option {found.group(1).upper()}; answer with one of "
                          f"{', '.join(letters(len(options)))}.")
    wanted = text.strip().strip(".\"'").lower()
    for index, option in enumerate(options):
        if wanted and wanted == option.strip().strip(".").lower():
            return index
    raise FormatError(f"the reply does not name an option; answer with one of {', '.join(letters(len(options)))}.")


async def ask_item(model: Model, item: QAItem, *, max_retries: int = DEFAULT_MAX_RETRIES) -> list[QACall]:
    """Every call it took to get the model's answer to ``item`` (the last one final)."""
    marks = letters(len(item.options))
    messages = item_messages(item)
    found: list[QACall] = []
    for attempt in range(max_retries + 1):
        request = ModelRequest(messages=messages, config=GenerationConfig(temperature=0.0, max_tokens=8, seed=0),
                               constraint=OutputConstraint(choices=marks), affinity="qa")
        response = await model.generate(request)
        choice: int | None = None
        reason: str | None = None
        try:
            choice = parse_choice(response.text, item.options)
        except FormatError as err:
            reason = err.reason
        final = choice is not None or attempt == max_retries
        found.append(QACall(item=item.id, task=item.task, model=model.address, attempt=attempt, final=final,
                            prompt=messages, reply=response.text, choice=choice,
                            correct=(choice == item.answer) if final else None, reason=reason,
                            call=to_call_record(response)))
        if final:
            break
        messages = (*messages, assistant(response.text),
                    user(f"That reply could not be read: {reason} Answer again with one letter."))
    return found


def read_calls(path: Path) -> list[QACall]:
    """The calls file's lines (none when there is no file yet); a clear error for a line that cannot be read.
    A last line cut short by an interruption (no line end) is ignored: its item is asked again."""
    if not path.exists():
        return []
    calls: list[QACall] = []
    for number, line in enumerate(_whole(path.read_text("utf-8")).splitlines(), 1):
        if not line.strip():
            continue
        try:
            calls.append(QACall.model_validate_json(line))
        except ValueError as err:
            raise QAError(f"{path}:{number} is not a QA call record: {str(err).splitlines()[0]}") from None
    return calls


def _whole(text: str) -> str:
    """The lines that were written whole: every line is written with its line end, so text after the last one
    is what an interruption cut short."""
    return text[:text.rfind("\n") + 1]


def _drop_cut_line(path: Path) -> None:
    if path.exists():
        text = path.read_text("utf-8")
        whole = _whole(text)
        if whole != text:
            path.write_text(whole, "utf-8")


def final_answers(calls: Iterable[QACall]) -> dict[tuple[str, str], QACall]:
    """Each (model, item)'s first final call."""
    answers: dict[tuple[str, str], QACall] = {}
    for call in calls:
        if call.final:
            answers.setdefault((call.model, call.item), call)
    return answers


def pending(items: Sequence[QAItem], models: Sequence[str], calls: Iterable[QACall]) -> list[tuple[str, QAItem]]:
    """The (model, item) pairs not answered yet, model by model in the file's order."""
    done = final_answers(calls)
    return [(model, item) for model in models for item in items if (model, item.id) not in done]


async def evaluate(items: Sequence[QAItem], models: Mapping[str, Model], calls_path: Path, *,
                   max_retries: int = DEFAULT_MAX_RETRIES, concurrency: int = 4,
                   on_answer: Callable[[QACall], None] | None = None) -> int:
    """Ask every model each item it has not answered in ``calls_path`` yet, appending every call there as it
    is made. Returns how many (model, item) pairs were asked."""
    todo = pending(items, list(models), read_calls(calls_path))
    if not todo:
        return 0
    _drop_cut_line(calls_path)
    gate = asyncio.Semaphore(max(1, concurrency))
    with calls_path.open("a", encoding="utf-8") as handle:

        async def one(address: str, item: QAItem) -> None:
            async with gate:
                calls = await ask_item(models[address], item, max_retries=max_retries)
            handle.write("".join(call.model_dump_json() + "\n" for call in calls))
            handle.flush()
            if on_answer is not None:
                on_answer(calls[-1])

        await asyncio.gather(*(one(address, item) for address, item in todo))
    return len(todo)


def score(items: Sequence[QAItem], models: Sequence[str], calls: Iterable[QACall]) -> list[TaskScore]:
    """Per model, each task's and the overall score, over the items answered so far."""
    answers = final_answers(calls)
    scores: list[TaskScore] = []
    for model in models:
        tallies: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
        for item in items:
            answer = answers.get((model, item.id))
            if answer is None:
                continue
            for key in (item.task, "all"):
                tally = tallies[key]
                tally[0] += 1
                tally[1] += bool(answer.correct)
                tally[2] += answer.choice is None
        for task in (*TASKS, "all"):
            n, right, unreadable = tallies.get(task, [0, 0, 0])
            scores.append(TaskScore(model=model, task=task, n=n, right=right, unreadable=unreadable))
    return scores


def seat_win_rates(games: Iterable[Sequence[SeatResult]]) -> dict[str, float]:
    """Each model's Undercover win rate: seats of its that won, over seats it held (both sides)."""
    seats: dict[str, list[bool]] = defaultdict(list)
    for game in games:
        for seat in game:
            seats[seat.model].append(seat.won)
    return {model: sum(won) / len(won) for model, won in seats.items()}


@dataclass(frozen=True)
class Correlation:
    rho: float | None
    models: tuple[str, ...]
    """The models with both an accuracy and a win rate."""
    note: str


def qa_win_correlation(accuracy: Mapping[str, float | None], win_rate: Mapping[str, float]) -> Correlation:
    """Spearman's rho (average ranks for ties) between QA accuracy and win rate, over the models having both;
    ``None`` with fewer than three such models or when either side does not vary."""
    models = tuple(m for m in accuracy if accuracy[m] is not None and m in win_rate)
    if len(models) < MIN_MODELS_FOR_RHO:
        return Correlation(None, models, f"n/a: {len(models)} model(s) with both numbers, rho needs at least "
                                         f"{MIN_MODELS_FOR_RHO}")
    rho = spearman_of_ranks([float(accuracy[m] or 0.0) for m in models], [win_rate[m] for m in models])
    if rho is None:
        return Correlation(None, models, "n/a: QA accuracy or win rate is the same for every model")
    note = (f"over {len(models)} models" + (" (with 3 models rho is one of -1, -0.5, 0.5, 1 without ties, so it "
                                            "says little)" if len(models) == MIN_MODELS_FOR_RHO else ""))
    return Correlation(rho, models, note)
