"""The initial schema: runs, matches, seats, events, model_calls.

Revision ID: 0001
Revises:
Create Date: 2025-01-01
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _json() -> sa.types.TypeEngine[Any]:
    return sa.JSON(none_as_null=True).with_variant(postgresql.JSONB(none_as_null=True), "postgresql")


def upgrade() -> None:
    op.create_table(
        "runs",
        sa.Column("id", sa.String(12), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("level", sa.Integer(), nullable=False),
        sa.Column("config", _json(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_runs"),
        sa.CheckConstraint("status IN ('running', 'finished', 'interrupted')", name="ck_runs_status"),
    )
    op.create_index("ix_runs_created_at", "runs", ["created_at"])

    op.create_table(
        "matches",
        sa.Column("id", sa.String(16), nullable=False),
        sa.Column("run_id", sa.String(12), nullable=True),
        sa.Column("match_index", sa.Integer(), nullable=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("level", sa.Integer(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("spec", _json(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("outcome", _json(), nullable=True),
        sa.Column("evaluated_model", sa.String(255), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_matches"),
        sa.ForeignKeyConstraint(["run_id"], ["runs.id"], name="fk_matches_run_id_runs"),
        sa.UniqueConstraint("run_id", "match_index", name="uq_matches_run_id_match_index"),
        sa.CheckConstraint("status IN ('running', 'finished')", name="ck_matches_status"),
    )
    op.create_index("ix_matches_evaluated_model", "matches", ["evaluated_model"])

    op.create_table(
        "seats",
        sa.Column("match_id", sa.String(16), nullable=False),
        sa.Column("seat", sa.String(64), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("player_kind", sa.String(32), nullable=False),
        sa.Column("model", sa.String(255), nullable=True),
        sa.Column("prompt_variant", sa.Integer(), nullable=True),
        sa.PrimaryKeyConstraint("match_id", "seat", name="pk_seats"),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], name="fk_seats_match_id_matches"),
    )

    op.create_table(
        "events",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("match_id", sa.String(16), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("type", sa.String(32), nullable=False),
        sa.Column("schema_version", sa.Integer(), nullable=False),
        sa.Column("payload", _json(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_events"),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], name="fk_events_match_id_matches"),
        sa.UniqueConstraint("match_id", "seq", name="uq_events_match_id_seq"),
    )

    op.create_table(
        "model_calls",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("match_id", sa.String(16), nullable=True),
        sa.Column("seat", sa.String(64), nullable=True),
        sa.Column("model", sa.String(255), nullable=False),
        sa.Column("messages", _json(), nullable=False),
        sa.Column("params", _json(), nullable=False),
        sa.Column("raw_output", sa.Text(), nullable=False),
        sa.Column("parsed", sa.Text(), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("prompt_tokens", sa.Integer(), nullable=False),
        sa.Column("completion_tokens", sa.Integer(), nullable=False),
        sa.Column("latency_s", sa.Double(), nullable=False),
        sa.Column("cached", sa.Boolean(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_model_calls"),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], name="fk_model_calls_match_id_matches"),
    )
    op.create_index("ix_model_calls_match_id", "model_calls", ["match_id"])


def downgrade() -> None:
    op.drop_index("ix_model_calls_match_id", table_name="model_calls")
    op.drop_table("model_calls")
    op.drop_table("events")
    op.drop_table("seats")
    op.drop_index("ix_matches_evaluated_model", table_name="matches")
    op.drop_table("matches")
    op.drop_index("ix_runs_created_at", table_name="runs")
    op.drop_table("runs")
