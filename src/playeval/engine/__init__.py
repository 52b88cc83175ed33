"""The engine: one match's game-master loop, its step-wise form for the web, batch runs and resume."""

from playeval.engine.batch import (
    BatchRunner,
    RunInterrupted,
    build_players,
    create_run,
    model_player,
    pending_matches,
    require_run,
    run_config,
    seat_assignments,
)
from playeval.engine.match import play_match, state_from_events
from playeval.engine.plan import SCRIPTED, PlannedMatch, RunConfig, plan_matches
from playeval.engine.recorder import MemoryRecorder, Recorder
from playeval.engine.step import MatchOver, NotYourTurn, StepResult, SubmitResult, abandon, advance, submit

__all__ = [
    "SCRIPTED",
    "BatchRunner",
    "MatchOver",
    "MemoryRecorder",
    "NotYourTurn",
    "PlannedMatch",
    "Recorder",
    "RunConfig",
    "RunInterrupted",
    "StepResult",
    "SubmitResult",
    "abandon",
    "advance",
    "build_players",
    "create_run",
    "model_player",
    "pending_matches",
    "plan_matches",
    "play_match",
    "require_run",
    "run_config",
    "seat_assignments",
    "state_from_events",
    "submit",
]
