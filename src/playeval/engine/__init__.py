"""The engine: one match's game-master loop, batch runs and resume."""

from playeval.engine.batch import (
    BatchRunner,
    RunInterrupted,
    build_players,
    create_run,
    pending_matches,
    require_run,
    run_config,
    seat_assignments,
)
from playeval.engine.match import play_match, state_from_events
from playeval.engine.plan import SCRIPTED, PlannedMatch, RunConfig, plan_matches
from playeval.engine.recorder import MemoryRecorder, Recorder

__all__ = [
    "SCRIPTED",
    "BatchRunner",
    "MemoryRecorder",
    "PlannedMatch",
    "Recorder",
    "RunConfig",
    "RunInterrupted",
    "build_players",
    "create_run",
    "pending_matches",
    "plan_matches",
    "play_match",
    "require_run",
    "run_config",
    "seat_assignments",
    "state_from_events",
]
