"""Running the models' moves of arena matches: in the background, under the match's lease.

A model step runs in a background task of the process that noticed it was due (after a person's move, a new
match, a take-over, a read of the match, a poll of its stream, or the periodic sweep), under the match's lease:
a conditional UPDATE lets one process at a time move a match's models, renewed while they think. People do not
wait for it: their moves are appended conditionally on the log's tail, and a model step that finds the log
moved under it (``LogMoved``: a person's move came in while its model thought) reads the log again and
continues from there; the response cache makes a model's redone greedy call cheap. Once it gives the lease back
the step looks at the log once more, so a person's move that arrived while the lease was held is not left
unanswered.

Store calls run in worker threads (the arena's ``Background``), so a slow query never stalls the event loop;
``schedule``, ``nudge`` and ``cancel`` may be called from a worker thread (a request handled there) and hand the
task over to the loop. The engine's ``advance`` calls its recorder synchronously, so a model step records into a
``StepTail``, written in a worker thread before each model call and when the step ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from playeval.core.errors import PlayevalError
from playeval.core.events import SeatAssignment
from playeval.core.game import Game, seat_evaluated
from playeval.engine.players import build_players
from playeval.engine.step import abandon, advance
from playeval.models import ModelError, ModelHub
from playeval.players import Player
from playeval.store import LogMoved, MatchClosed, Store
from playeval.web.errors import ArenaError
from playeval.web.offload import Background
from playeval.web.settings import ArenaSettings
from playeval.web.table import Loaded, Table, build_table, load
from playeval.web.tail import StepTail, TailRecorder

log = logging.getLogger("playeval.web")

MAX_RESTARTS = 20
"""How many times one model step starts again after people's moves came in under it, before it leaves the rest
to the next nudge."""
MAX_ROUNDS = 50
"""How many steps one background task runs for a match before it leaves the rest to the next nudge."""

GameLookup = Callable[[str], Game[Any]]
Loader = Callable[[str], Loaded]
"""A live arena match as stored now, by id (``web.table.load`` or a ``LoadCache``'s)."""


class ModelRunner:
    """The model steps of one server process; ``aclose`` ends them (their leases are released)."""

    def __init__(self, store: Store, hub: ModelHub, games: GameLookup, settings: ArenaSettings, owner: str,
                 *, loader: Loader | None = None, background: Background | None = None) -> None:
        self.store = store
        self.background = background or Background(None)
        """Where the steps run their store calls (the arena's background threads)."""
        self.load: Loader = loader or (lambda match_id: load(store, match_id))
        """How a step reads its match (the arena's ``LoadCache``: a model step changes the lease and the log)."""
        self.hub = hub
        self.games = games
        self.settings = settings
        self.owner = owner
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._again: set[str] = set()
        self._closing = False
        self._loop: asyncio.AbstractEventLoop | None = None

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        """The event loop the model steps run on (a worker thread's ``schedule`` hands its task over to it)."""
        self._loop = loop

    def _in_loop(self, call: Callable[[str], None], match_id: str) -> bool:
        """Whether this thread runs the loop; if not, ``call(match_id)`` is handed over to the loop."""
        try:
            self._loop = asyncio.get_running_loop()
            return True
        except RuntimeError:
            if self._loop is None:
                raise RuntimeError("the model runner has no event loop yet; start the arena first") from None
            self._loop.call_soon_threadsafe(call, match_id)
            return False

    def table(self, loaded: Loaded) -> Table:
        return build_table(self.games(loaded.match.game), loaded, self.settings.local_model)

    def running(self, match_id: str) -> bool:
        task = self._tasks.get(match_id)
        return task is not None and not task.done()

    def nudge(self, table: Table) -> bool:
        """Schedule the match's model step if one is due and no process holds the match's lease; whether it did."""
        loaded = table.loaded
        web = loaded.web
        if web is None or self._closing or self.running(loaded.match.id) or not table.model_due():
            return False
        if web.lease_until is not None and web.lease_until > datetime.now(UTC):
            return False
        self.schedule(loaded.match.id)
        return True

    def schedule(self, match_id: str) -> None:
        """Run the match's due steps in the background (once per process; again if asked while running)."""
        if self._closing or not self._in_loop(self.schedule, match_id):
            return
        if self.running(match_id):
            self._again.add(match_id)
            return
        self._tasks[match_id] = asyncio.get_running_loop().create_task(self._drive(match_id),
                                                                        name=f"arena-{match_id}")

    async def _drive(self, match_id: str) -> None:
        try:
            for _ in range(MAX_ROUNDS):
                self._again.discard(match_id)
                seen = await self._step(match_id)
                if self._closing:
                    return
                if match_id in self._again:
                    continue
                if seen is None or await self.background.run(self.store.last_seq, match_id) == seen:
                    return
                # the log grew after this step last read it (a person moved while it held the lease)
                if not self.table(await self.background.run(self.load, match_id)).model_due():
                    return
        except ArenaError:
            return
        finally:
            self._tasks.pop(match_id, None)
            self._again.discard(match_id)

    async def _step(self, match_id: str) -> int | None:
        """One model step under the lease; the seq of the log as the step last saw it (``None``: no lease)."""
        if not await self.background.run(self.store.take_lease, match_id, self.owner, self.settings.lease_s):
            return None
        renewer = asyncio.get_running_loop().create_task(self._renew(match_id))
        seen: int | None = None
        try:
            for _ in range(MAX_RESTARTS):
                loaded = await self.background.run(self.load, match_id)
                seen = loaded.seq
                if loaded.finished:
                    return seen
                table = self.table(loaded)
                recorder = StepTail(self.store, loaded.seq, self.background)
                players = {party: None if player is None else recorder.flushing(match_id, player)
                           for party, player in self.players(table).items()}
                try:
                    await advance(table.game, loaded.match.spec, loaded.events, players, recorder, match_id)
                    await recorder.flush(match_id)
                except LogMoved:
                    log.info("match %s: people moved while the models did; reading the log again", match_id)
                    continue
                return recorder.seq
            log.info("match %s: the log kept moving; the next nudge continues", match_id)
        except MatchClosed:
            log.info("match %s ended elsewhere; this step stops", match_id)
        except ModelError as err:
            log.warning("match %s: the model failed (%s); the match is aborted", match_id, type(err).__name__)
            await self.background.run(self.abort, match_id, "the model could not answer, so the match was stopped")
        except asyncio.CancelledError:
            raise
        except Exception as err:  # keep people from waiting forever; never log the message (it may quote input)
            log.error("match %s: the step failed with %s; the match is aborted", match_id, type(err).__name__)
            await self.background.run(self.abort, match_id,
                                      "the server could not continue this match, so it was stopped")
        finally:
            renewer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await renewer
            await self.background.run(self.store.release_lease, match_id, self.owner)
        return seen

    async def _renew(self, match_id: str) -> None:
        while True:
            await asyncio.sleep(self.settings.lease_s / 3)
            if not await self.background.run(self.store.renew_lease, match_id, self.owner, self.settings.lease_s):
                log.warning("match %s: the lease was lost while the models were moving", match_id)
                return

    def players(self, table: Table) -> dict[str, Player | None]:
        """A player for every seat and role; ``None`` for the people's (their moves arrive by request)."""
        game = table.game
        spec = table.loaded.match.spec

        def evaluated(assignment: SeatAssignment) -> bool:
            return seat_evaluated(game, spec, assignment)

        return build_players(game, spec, list(table.seats.values()), list(table.roles.values()), self.hub.get,
                             people={seat: None for seat in table.people}, temperature=self.settings.temperature,
                             evaluated=evaluated)

    def abort(self, match_id: str, reason: str) -> None:
        """End a live match from outside (``engine.step.abandon``): aborted with ``reason``."""
        try:
            loaded = load(self.store, match_id)
            if not loaded.finished:
                self.stop(loaded, reason)
        except (ArenaError, PlayevalError):  # over already, or moved on: nothing to stop
            return

    def stop(self, loaded: Loaded, reason: str) -> None:
        match = loaded.match
        abandon(self.games(match.game), match.spec, loaded.events, TailRecorder(self.store, loaded.seq), match.id,
                reason)

    def cancel(self, match_id: str) -> None:
        if not self._in_loop(self.cancel, match_id):
            return
        task = self._tasks.get(match_id)
        if task is not None:
            task.cancel()

    async def aclose(self) -> None:
        """Stop scheduling, cancel the running model steps (their leases are released) and wait for them."""
        self._closing = True
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
