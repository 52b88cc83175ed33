"""The tables, as SQLAlchemy 2 typed declarative classes.

These rows stay inside the store: :mod:`playeval.store.records` holds the
frozen records that cross its boundary. Any change here needs a new revision
in ``migrations/versions`` (a test checks that the two agree).

Notes on the choices:

* JSON columns are ``JSON`` everywhere and ``JSONB`` on PostgreSQL (indexable,
  comparable); ``none_as_null`` makes a Python ``None`` an SQL ``NULL``
  rather than the JSON literal ``null``.
* Times are stored in UTC; :class:`UTCDateTime` hands back aware datetimes on
  every backend (SQLite keeps no zone, so it stores naive UTC).
* ``matches.run_id`` and ``events.match_id`` are served by the leading column
  of their unique constraints, so they get no separate index.
* Constraint names follow a naming convention so later migrations can drop
  or alter them by name, which SQLite's batch mode needs.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    DateTime,
    Dialect,
    Double,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    TypeDecorator,
    UniqueConstraint,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.types import TypeEngine

NAMING_CONVENTION: dict[str, str] = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

RUN_STATUSES: tuple[str, ...] = ("running", "finished", "interrupted")
MATCH_STATUSES: tuple[str, ...] = ("running", "finished", "interrupted")


def json_type() -> TypeEngine[Any]:
    """JSON, as JSONB on PostgreSQL; ``None`` stored as SQL NULL."""
    return JSON(none_as_null=True).with_variant(JSONB(none_as_null=True), "postgresql")


class UTCDateTime(TypeDecorator[datetime]):
    """A timezone-aware UTC datetime on every backend."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to the store; use an aware UTC datetime")
        value = value.astimezone(UTC)
        if dialect.name == "sqlite":
            return value.replace(tzinfo=None)
        return value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


def _status_check(name: str, statuses: tuple[str, ...]) -> CheckConstraint:
    allowed = ", ".join(f"'{status}'" for status in statuses)
    return CheckConstraint(f"status IN ({allowed})", name=name)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


class RunRow(Base):
    __tablename__ = "runs"
    __table_args__ = (
        _status_check("status", RUN_STATUSES),
        Index("ix_runs_created_at", "created_at"),
    )

    id: Mapped[str] = mapped_column(String(12), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    game: Mapped[str] = mapped_column(String(64))
    level: Mapped[int] = mapped_column(Integer)
    config: Mapped[dict[str, Any]] = mapped_column(json_type())
    status: Mapped[str] = mapped_column(String(16))


class MatchRow(Base):
    __tablename__ = "matches"
    __table_args__ = (
        UniqueConstraint("run_id", "match_index"),
        _status_check("status", MATCH_STATUSES),
        Index("ix_matches_evaluated_model", "evaluated_model"),
    )

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    run_id: Mapped[str | None] = mapped_column(String(12), ForeignKey("runs.id"))
    match_index: Mapped[int | None] = mapped_column(Integer)
    game: Mapped[str] = mapped_column(String(64))
    level: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int] = mapped_column(BigInteger)
    spec: Mapped[dict[str, Any]] = mapped_column(json_type())
    status: Mapped[str] = mapped_column(String(16))
    outcome: Mapped[dict[str, Any] | None] = mapped_column(json_type())
    evaluated_model: Mapped[str | None] = mapped_column(String(255))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    ended_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    stop_reason: Mapped[str | None] = mapped_column(Text)
    """Why a match was left ``interrupted`` (a provider down, every call rejected, a signal)."""


class SeatRow(Base):
    __tablename__ = "seats"

    match_id: Mapped[str] = mapped_column(String(16), ForeignKey("matches.id"), primary_key=True)
    seat: Mapped[str] = mapped_column(String(64), primary_key=True)
    position: Mapped[int] = mapped_column(Integer)
    player_kind: Mapped[str] = mapped_column(String(32))
    model: Mapped[str | None] = mapped_column(String(255))
    prompt_variant: Mapped[int | None] = mapped_column(Integer)
    evaluated: Mapped[bool | None] = mapped_column(Boolean)
    """Whether the match counts for this seat's model; NULL before Core v2 (the game's evaluated seat did)."""


class RoleRow(Base):
    """Who plays a role of a match (a judge, a game master): a model, a scripted stand-in, or a seat's occupant."""

    __tablename__ = "match_roles"

    match_id: Mapped[str] = mapped_column(String(16), ForeignKey("matches.id"), primary_key=True)
    role: Mapped[str] = mapped_column(String(64), primary_key=True)
    position: Mapped[int] = mapped_column(Integer)
    player_kind: Mapped[str] = mapped_column(String(32))
    model: Mapped[str | None] = mapped_column(String(255))
    seat: Mapped[str | None] = mapped_column(String(64))


class EventRow(Base):
    __tablename__ = "events"
    __table_args__ = (UniqueConstraint("match_id", "seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[str] = mapped_column(String(16), ForeignKey("matches.id"))
    seq: Mapped[int] = mapped_column(Integer)
    type: Mapped[str] = mapped_column(String(32))
    schema_version: Mapped[int] = mapped_column(Integer)
    payload: Mapped[dict[str, Any]] = mapped_column(json_type())
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())


class ModelCallRow(Base):
    __tablename__ = "model_calls"
    __table_args__ = (Index("ix_model_calls_match_id", "match_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[str | None] = mapped_column(String(16), ForeignKey("matches.id"))
    seat: Mapped[str | None] = mapped_column(String(64))
    role: Mapped[str | None] = mapped_column(String(64))
    """The role the call was made for (a judge; ``retro:<kind>`` for the retrospective analysis)."""
    model: Mapped[str] = mapped_column(String(255))
    messages: Mapped[list[dict[str, Any]]] = mapped_column(json_type())
    params: Mapped[dict[str, Any]] = mapped_column(json_type())
    raw_output: Mapped[str] = mapped_column(Text)
    parsed: Mapped[str | None] = mapped_column(Text)
    error: Mapped[str | None] = mapped_column(Text)
    prompt_tokens: Mapped[int] = mapped_column(Integer)
    completion_tokens: Mapped[int] = mapped_column(Integer)
    latency_s: Mapped[float] = mapped_column(Double)
    cached: Mapped[bool] = mapped_column(Boolean)
    attempts: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    cost_usd: Mapped[float | None] = mapped_column(Double)
    """The call's price from the price table; NULL when the model has no known price."""
    output_path: Mapped[str | None] = mapped_column(String(16))
    """How the reply's format was enforced (``grammar``, ``json_schema``, ``llama_grammar``, ``guided``,
    ``parse``); NULL when no constraint was asked for."""
    prompt_evaluated: Mapped[int | None] = mapped_column(Integer)
    """Prompt tokens the backend evaluated; NULL for a cached call, a provider that cannot tell, or before 0006."""
    prompt_needed: Mapped[int | None] = mapped_column(Integer)
    """Prompt tokens a perfect prefix cache would have evaluated; NULL as ``prompt_evaluated``."""
    prompt_s: Mapped[float | None] = mapped_column(Double)
    """Seconds of prompt evaluation; NULL as ``prompt_evaluated``."""
    generation_s: Mapped[float | None] = mapped_column(Double)
    """Seconds of generation; NULL as ``prompt_evaluated``."""


metadata: MetaData = Base.metadata


class RetroOutputRow(Base):
    """One retrospective-analysis output of one round of a match; its model calls are in ``model_calls``."""

    __tablename__ = "retro_outputs"
    __table_args__ = (UniqueConstraint("match_id", "round", "kind"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[str] = mapped_column(String(16), ForeignKey("matches.id"))
    round: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(16))
    model: Mapped[str] = mapped_column(String(255))
    output: Mapped[Any | None] = mapped_column(json_type())
    error: Mapped[str | None] = mapped_column(Text)
    call_ids: Mapped[list[int]] = mapped_column(json_type())
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())


WEB_MODES: tuple[str, ...] = ("play", "watch")


class WebMatchRow(Base):
    """A match played in the web arena: its mode, and which process is moving its models now.

    ``lease_owner``/``lease_until`` say which server process runs the models' moves, until when; ``stand_in``
    is the model that takes over a seat whose person does not come or leaves. The people's seats are in
    ``web_seats``.
    """

    __tablename__ = "web_matches"
    __table_args__ = (
        CheckConstraint("mode IN ('play', 'watch')", name="mode"),
        Index("ix_web_matches_created_at", "created_at"),
    )

    match_id: Mapped[str] = mapped_column(String(16), ForeignKey("matches.id"), primary_key=True)
    mode: Mapped[str] = mapped_column(String(8))
    anonymous: Mapped[bool] = mapped_column(Boolean)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    lease_owner: Mapped[str | None] = mapped_column(String(128))
    lease_until: Mapped[datetime | None] = mapped_column(UTCDateTime())
    stand_in: Mapped[str | None] = mapped_column(String(255))


class WebSeatRow(Base):
    """A person's seat at an arena table. ``token_sha256`` is the SHA-256 (hex) of that person's token (the
    token itself is never stored); ``joined_at`` is NULL until they join, ``left_at`` set when they leave."""

    __tablename__ = "web_seats"

    match_id: Mapped[str] = mapped_column(String(16), ForeignKey("matches.id"), primary_key=True)
    seat: Mapped[str] = mapped_column(String(64), primary_key=True)
    token_sha256: Mapped[str | None] = mapped_column(String(64))
    joined_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    left_at: Mapped[datetime | None] = mapped_column(UTCDateTime())


class SurveyRow(Base):
    """The optional three-question survey a person answers after a match (each answer 1-5)."""

    __tablename__ = "surveys"
    __table_args__ = (
        CheckConstraint("enjoyment BETWEEN 1 AND 5", name="enjoyment"),
        CheckConstraint("satisfaction BETWEEN 1 AND 5", name="satisfaction"),
        CheckConstraint("frequency BETWEEN 1 AND 5", name="frequency"),
    )

    match_id: Mapped[str] = mapped_column(String(16), ForeignKey("matches.id"), primary_key=True)
    enjoyment: Mapped[int] = mapped_column(Integer)
    satisfaction: Mapped[int] = mapped_column(Integer)
    frequency: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
