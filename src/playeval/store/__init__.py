"""Storage: runs, matches, event logs, model calls and the arena's records, in SQLite or PostgreSQL.

Open with ``Store.open(url)``; the schema is created or migrated on open.
"""

from playeval.store._log import TailCommit
from playeval.store.errors import (
    DuplicateMatch,
    DuplicateRetro,
    DuplicateRun,
    DuplicateSurvey,
    LogMoved,
    MatchClosed,
    SchemaTooNew,
    StoreDamaged,
    StoreUnavailable,
)
from playeval.store.export import export_run_jsonl, read_run_jsonl
from playeval.store.location import default_db_url
from playeval.store.records import (
    CallRow,
    CallTotals,
    EventRecord,
    ExportedMatch,
    ExportedRun,
    MatchRecord,
    MatchStatus,
    RetroOutputKind,
    RetroRecord,
    RunRecord,
    RunStatus,
    SurveyRecord,
    WebMatchRecord,
    WebMode,
    WebSeatRecord,
)
from playeval.store.store import Store

__all__ = [
    "CallRow",
    "CallTotals",
    "DuplicateMatch",
    "DuplicateRetro",
    "DuplicateRun",
    "DuplicateSurvey",
    "EventRecord",
    "ExportedMatch",
    "ExportedRun",
    "LogMoved",
    "MatchClosed",
    "MatchRecord",
    "MatchStatus",
    "RetroOutputKind",
    "RetroRecord",
    "RunRecord",
    "RunStatus",
    "SchemaTooNew",
    "Store",
    "StoreDamaged",
    "StoreUnavailable",
    "SurveyRecord",
    "TailCommit",
    "WebMatchRecord",
    "WebMode",
    "WebSeatRecord",
    "default_db_url",
    "export_run_jsonl",
    "read_run_jsonl",
]
