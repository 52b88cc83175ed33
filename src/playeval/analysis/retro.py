"""The retrospective analysis (GameArena section 3.1): replay each finished match round by round.

For round i the same model gets the same system prompt, the conversation through round i exactly as it saw
it, and the same sampling temperature, followed by the game's retrospective request and a fixed output format
(``retro_format``). Every output is stored per round with its raw model calls; a re-run skips what is stored.
Akinator's disparity ratio needs one more step: the candidates of round i-1 are classified Yes/No for the
question of round i, by the evaluated model itself or by a configured judge model (recorded either way).

The output format is chosen by the kind a game's ``RetroPoint`` asks for (``retro_format.FORMATS``); a kind the
analysis does not know stops the planning with an error that names the game and the kind, before any work.
The calls behind an output are stored under the role ``retro:<kind>``, never under a seat.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from playeval.analysis.retro_format import FORMATS, SPLIT_SYSTEM, parse_split, split_grammar, split_prompt
from playeval.core.ask import CallRecord, OutputConstraint
from playeval.core.errors import ConfigError, FormatError
from playeval.core.game import Game, RetroGame, RetroPoint, seat_evaluated
from playeval.core.messages import Message, assistant, system, user
from playeval.core.registry import GameRegistry
from playeval.core.rng import derive_seed
from playeval.engine.match import state_from_events
from playeval.engine.plan import RunConfig
from playeval.metrics.retro import CANDIDATES, SPLIT
from playeval.models import GenerationConfig, Model, ModelHub, ModelRequest, to_call_record
from playeval.store import MatchRecord, RetroOutputKind, RetroRecord, Store

DEFAULT_MAX_RETRIES = 2


@dataclass(frozen=True)
class RetroTask:
    """One output to produce: a round's candidates or judgement, or the Yes/No split behind a disparity ratio."""

    match_id: str
    round: int
    kind: RetroOutputKind
    model: str
    point: RetroPoint | None = None
    """The round to re-ask (candidates and judgements)."""
    question: str | None = None
    """The question to classify the previous round's candidates by (splits)."""


@dataclass(frozen=True)
class RetroPlan:
    tasks: tuple[RetroTask, ...]
    """Outputs still to produce, in order (a split after the candidates it needs)."""
    stored: int
    """Outputs already stored, skipped."""
    skipped_matches: tuple[tuple[str, str], ...]
    """(match id, why) for finished matches that cannot be analysed (a person or script in the seat, ...)."""
    models: tuple[str, ...]


@dataclass(frozen=True)
class RetroSummary:
    """What a retrospective pass did: outputs produced, failed, already stored, and matches it could not
    analyse."""

    produced: int
    failed: int
    stored_before: int
    skipped_matches: int


OnOutput = Callable[[RetroTask, RetroRecord], None]


class RetroRunner:
    """Plans and runs the retrospective analysis of a run's finished matches."""

    def __init__(self, store: Store, hub: ModelHub, registry: GameRegistry, *, judge: str | None = None,
                 max_retries: int = DEFAULT_MAX_RETRIES) -> None:
        self._store = store
        self._hub = hub
        self._registry = registry
        self._judge = judge
        self._max_retries = max_retries

    def plan(self, run_id: str) -> RetroPlan:
        tasks: list[RetroTask] = []
        skipped: list[tuple[str, str]] = []
        stored = 0
        models: set[str] = set()
        for match in self._store.run_matches(run_id):
            if match.status != "finished" or match.outcome is None:
                continue
            why, points = self._points(match)
            if why is not None:
                skipped.append((match.id, why))
                continue
            done = {(record.kind, record.round) for record in self._store.retro_outputs(match.id)}
            stored += len(done)
            for point, model in points:
                models.add(model)
                if (point.kind, point.round) not in done:
                    tasks.append(RetroTask(match.id, point.round, point.kind, model, point=point))
            for point, model in points:
                judge = self._judge or model
                if point.kind == CANDIDATES and point.question and point.round > 1 \
                        and (SPLIT, point.round) not in done:
                    models.add(judge)
                    tasks.append(RetroTask(match.id, point.round, SPLIT, judge, question=point.question))
        return RetroPlan(tuple(tasks), stored, tuple(skipped), tuple(sorted(models)))

    def _points(self, match: MatchRecord) -> tuple[str | None, list[tuple[RetroPoint, str]]]:
        """The match's retrospective points with the model of the seat each re-asks, or why there are none.

        Raises ``ConfigError`` for a point of a kind the analysis cannot ask for.
        """
        game = self._registry.get(match.game)
        if not isinstance(game, RetroGame):
            return f"{match.game} has no retrospective analysis", []
        seats = {s.seat: s for s in match.seats}
        state = state_from_events(game, match.spec, self._store.events(match.id))
        found: list[tuple[RetroPoint, str]] = []
        for point in game.retro_points(state):
            if point.kind not in FORMATS:
                known = ", ".join(FORMATS)
                raise ConfigError(f"game {match.game!r} asks the retrospective analysis for outputs of kind "
                                  f"{point.kind!r} (match {match.id}, round {point.round}); the analysis knows "
                                  f"the kinds {known}")
            seat = point_seat(game, match, point)
            assignment = seats.get(seat)
            if assignment is None or assignment.player_kind != "llm" or not assignment.model:
                return f"the {seat or 'evaluated'} seat was not played by a model", []
            found.append((point, assignment.model))
        return None, found

    async def run(self, run_id: str, plan: RetroPlan | None = None, on_output: OnOutput | None = None) -> RetroSummary:
        plan = plan or self.plan(run_id)
        config = RunConfig.model_validate(self._store.get_run(run_id).config)
        produced = failed = 0
        for task in plan.tasks:
            match = self._store.get_match(task.match_id)
            model = self._hub.get(task.model)
            if task.kind == SPLIT:
                record = await self._split(task, match, model)
            else:
                record = await self._reask(task, match, model, config.temperature)
            if record is None:
                continue
            produced += 1
            failed += record.error is not None
            if on_output is not None:
                on_output(task, record)
        return RetroSummary(produced, failed, plan.stored, len(plan.skipped_matches))

    async def _reask(self, task: RetroTask, match: MatchRecord, model: Model, temperature: float) -> RetroRecord:
        assert task.point is not None
        point = task.point
        fmt = FORMATS[point.kind]  # the plan checked the kind
        messages = with_request(point.messages, f"{point.request}\n\n{fmt.sentence}")
        return await self._generate(task, match, model, messages, fmt.grammar, fmt.parse, temperature,
                                    fmt.max_tokens, affinity="retro")

    async def _split(self, task: RetroTask, match: MatchRecord, model: Model) -> RetroRecord | None:
        previous = next((r for r in self._store.retro_outputs(match.id)
                         if r.kind == CANDIDATES and r.round == task.round - 1), None)
        if previous is None or not isinstance(previous.output, list) or not previous.output or task.question is None:
            return None  # nothing to classify: the previous round's list is missing or unreadable
        objects = tuple(str(name) for name in previous.output)
        question = task.question
        messages = (system(SPLIT_SYSTEM), user(split_prompt(question, objects)))

        def parse(text: str) -> dict[str, Any]:
            return {"question": question, "objects": list(objects), "answers": parse_split(text, len(objects))}

        return await self._generate(task, match, model, messages, split_grammar(len(objects)), parse, 0.0,
                                    8 * len(objects) + 8, affinity="retro-judge")

    async def _generate(self, task: RetroTask, match: MatchRecord, model: Model, messages: tuple[Message, ...],
                        grammar: str, parse: Callable[[str], Any], temperature: float, max_tokens: int,
                        affinity: str) -> RetroRecord:
        calls: list[CallRecord] = []
        error: str | None = None
        output: Any | None = None
        for attempt in range(self._max_retries + 1):
            config = GenerationConfig(temperature=temperature, max_tokens=max_tokens,
                                      seed=derive_seed(match.seed, "retro", task.kind, task.round, attempt))
            request = ModelRequest(messages=messages, config=config, constraint=OutputConstraint(grammar=grammar),
                                   affinity=affinity)
            response = await model.generate(request)
            calls.append(to_call_record(response))
            try:
                output = parse(response.text)
                error = None
                break
            except FormatError as err:
                error = f"format: {err.reason}"
                messages = (*messages, assistant(response.text),
                            user(f"That reply could not be read: {err.reason} "
                                 "Please answer again in the format asked."))
        return self._store.add_retro(task.match_id, task.round, task.kind, task.model, output=output, error=error,
                                     calls=calls)


def point_seat(game: Game[Any], match: MatchRecord, point: RetroPoint) -> str:
    """The seat a retrospective point re-asks: the one it names, else the match's first evaluated seat (``""``
    when there is none)."""
    if point.seat is not None:
        return point.seat
    evaluated = [s.seat for s in match.seats if seat_evaluated(game, match.spec, s)]
    return evaluated[0] if evaluated else ""


def with_request(messages: Sequence[Message], request: str) -> tuple[Message, ...]:
    """The conversation with the retrospective request added: joined to a final user message, else appended."""
    if messages and messages[-1].role == "user":
        last = messages[-1]
        return (*messages[:-1], user(f"{last.content}\n\n{request}"))
    return (*messages, user(request))
