"""Errors the store raises on purpose."""

from __future__ import annotations

from playeval.core.errors import PlayevalError


class DuplicateMatch(PlayevalError):
    """A match with this (run, index) is already stored.

    The engine treats this as "another worker, or an earlier attempt of this
    run, got there first": ``existing_match_id`` names the match that won.
    """

    def __init__(self, run_id: str, match_index: int, existing_match_id: str | None) -> None:
        super().__init__(f"run {run_id!r} already has a match with index {match_index}")
        self.run_id = run_id
        self.match_index = match_index
        self.existing_match_id = existing_match_id


class MatchClosed(PlayevalError):
    """An attempt to write to a match that has already ended; finished matches are permanent."""

    def __init__(self, match_id: str) -> None:
        super().__init__(f"match {match_id!r} has ended; its log can no longer change")
        self.match_id = match_id


class SchemaTooNew(PlayevalError):
    """The database was migrated by a newer playeval than this one."""


class DuplicateRetro(PlayevalError):
    """A retrospective output for this (match, round, kind) is already stored; outputs are never replaced."""

    def __init__(self, match_id: str, round_: int, kind: str) -> None:
        super().__init__(f"match {match_id!r} already has a {kind} output for round {round_}")
        self.match_id = match_id
        self.round = round_
        self.kind = kind


class LogMoved(PlayevalError):
    """A conditional append found the log longer than its writer last saw: another writer got there first."""

    def __init__(self, match_id: str, expected_seq: int, found_seq: int) -> None:
        super().__init__(f"match {match_id!r}: expected the log to end at seq {expected_seq}, found {found_seq}")
        self.match_id = match_id
        self.expected_seq = expected_seq
        self.found_seq = found_seq


class DuplicateSurvey(PlayevalError):
    """A match's survey is already stored; a survey is given once."""

    def __init__(self, match_id: str) -> None:
        super().__init__(f"match {match_id!r} already has a survey")
        self.match_id = match_id


class StoreUnavailable(PlayevalError):
    """The database cannot be opened: a malformed URL, an unknown driver, a directory, no write access, no server."""


class StoreDamaged(StoreUnavailable):
    """An SQLite file that is damaged (a bad page, cut short) or is not an SQLite database at all; nothing is
    written to it."""


class DuplicateRun(PlayevalError):
    """An import of a run (or one of its matches) that the database already holds; nothing was imported."""
