"""The engine: the game master's step (batch, terminal and web alike), lineups, batch runs and resume."""

from playeval.engine.batch import (
    BatchRunner,
    RunInterrupted,
    check_config,
    create_run,
    pending_matches,
    require_run,
    run_addresses,
    run_config,
)
from playeval.engine.match import play_match, state_from_events
from playeval.engine.plan import SCRIPTED, PlannedMatch, RunConfig, plan_matches, role_assignments
from playeval.engine.players import OPPONENT_RETRY_TEMPERATURE, assignments, build_players, model_player, role_player
from playeval.engine.recorder import BufferedRecorder, MemoryRecorder, Recorder
from playeval.engine.step import (
    MatchOver,
    NotYourTurn,
    StepResult,
    SubmitResult,
    abandon,
    advance,
    ended,
    submit,
    take_over,
)

__all__ = [
    "OPPONENT_RETRY_TEMPERATURE",
    "SCRIPTED",
    "BatchRunner",
    "BufferedRecorder",
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
    "assignments",
    "build_players",
    "check_config",
    "create_run",
    "ended",
    "model_player",
    "pending_matches",
    "plan_matches",
    "play_match",
    "require_run",
    "role_assignments",
    "role_player",
    "run_addresses",
    "run_config",
    "state_from_events",
    "submit",
    "take_over",
]
