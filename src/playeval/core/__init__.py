"""Core contracts: games, asks, actions, outcomes, events, errors, registry."""

from playeval.core.ask import Ask, CallRecord, OutputConstraint, Reply
from playeval.core.errors import ConfigError, FormatError, MoveError, NotFoundError, PlayevalError, RuleViolation
from playeval.core.events import (
    SCHEMA_VERSION,
    ActionApplied,
    AskIssued,
    Event,
    MatchEnded,
    MatchStarted,
    ReplyReceived,
    ReplyRejected,
    SeatAssignment,
    parse_event,
)
from playeval.core.game import (
    Game,
    LevelInfo,
    RetroGame,
    RetroKind,
    RetroPoint,
    SeatInfo,
    SpecOption,
    evaluated_seat,
    replay,
)
from playeval.core.match import Action, MatchSpec, Outcome
from playeval.core.messages import Message
from playeval.core.registry import GameRegistry, default_registry

__all__ = [
    "SCHEMA_VERSION",
    "Action",
    "ActionApplied",
    "Ask",
    "AskIssued",
    "CallRecord",
    "ConfigError",
    "Event",
    "FormatError",
    "Game",
    "GameRegistry",
    "LevelInfo",
    "MatchEnded",
    "MatchSpec",
    "MatchStarted",
    "Message",
    "MoveError",
    "NotFoundError",
    "Outcome",
    "OutputConstraint",
    "PersonInput",
    "PlayevalError",
    "Reply",
    "ReplyReceived",
    "ReplyRejected",
    "RetroGame",
    "RetroKind",
    "RetroPoint",
    "RuleViolation",
    "SeatAssignment",
    "SeatInfo",
    "SpecOption",
    "default_registry",
    "evaluated_seat",
    "parse_event",
    "replay",
]
