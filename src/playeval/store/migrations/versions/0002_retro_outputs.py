"""Retrospective-analysis outputs, one row per (match, round, kind).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _json() -> sa.types.TypeEngine[Any]:
    return sa.JSON(none_as_null=True).with_variant(postgresql.JSONB(none_as_null=True), "postgresql")


def upgrade() -> None:
    op.create_table(
        "retro_outputs",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("match_id", sa.String(16), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("model", sa.String(255), nullable=False),
        sa.Column("output", _json(), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("call_ids", _json(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_retro_outputs"),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], name="fk_retro_outputs_match_id_matches"),
        sa.UniqueConstraint("match_id", "round", "kind", name="uq_retro_outputs_match_id_round_kind"),
        sa.CheckConstraint("kind IN ('candidates', 'judgement', 'split')", name="ck_retro_outputs_kind"),
    )


def downgrade() -> None:
    op.drop_table("retro_outputs")
