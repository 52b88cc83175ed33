"""Storage: runs, matches, event logs and model calls, in SQLite or PostgreSQL.

Open with ``Store.open(url)``; the schema is created or migrated on open.
"""

from playeval.store.errors import DuplicateMatch, DuplicateRetro, MatchClosed, SchemaTooNew
from playeval.store.export import ExportedMatch, ExportedRun, export_run_jsonl, read_run_jsonl
from playeval.store.location import default_db_url
from playeval.store.records import (
    CallRow,
    EventRecord,
    MatchRecord,
    MatchStatus,
    RetroOutputKind,
    RetroRecord,
    RunRecord,
    RunStatus,
)
from playeval.store.store import Store

__all__ = [
    "CallRow",
    "DuplicateMatch",
    "DuplicateRetro",
    "EventRecord",
    "ExportedMatch",
    "ExportedRun",
    "MatchClosed",
    "MatchRecord",
    "MatchStatus",
    "RetroOutputKind",
    "RetroRecord",
    "RunRecord",
    "RunStatus",
    "SchemaTooNew",
    "Store",
    "default_db_url",
    "export_run_jsonl",
    "read_run_jsonl",
]
