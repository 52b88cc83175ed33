"""The web arena: ``web_matches`` (mode, the person's seat, token hash, model-move lease) and ``surveys``.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "web_matches",
        sa.Column("match_id", sa.String(16), nullable=False),
        sa.Column("mode", sa.String(8), nullable=False),
        sa.Column("human_seat", sa.String(64), nullable=True),
        sa.Column("token_sha256", sa.String(64), nullable=True),
        sa.Column("anonymous", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("lease_owner", sa.String(128), nullable=True),
        sa.Column("lease_until", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("match_id", name="pk_web_matches"),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], name="fk_web_matches_match_id_matches"),
        sa.CheckConstraint("mode IN ('play', 'watch')", name="ck_web_matches_mode"),
    )
    op.create_index("ix_web_matches_created_at", "web_matches", ["created_at"])

    op.create_table(
        "surveys",
        sa.Column("match_id", sa.String(16), nullable=False),
        sa.Column("enjoyment", sa.Integer(), nullable=False),
        sa.Column("satisfaction", sa.Integer(), nullable=False),
        sa.Column("frequency", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("match_id", name="pk_surveys"),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], name="fk_surveys_match_id_matches"),
        sa.CheckConstraint("enjoyment BETWEEN 1 AND 5", name="ck_surveys_enjoyment"),
        sa.CheckConstraint("satisfaction BETWEEN 1 AND 5", name="ck_surveys_satisfaction"),
        sa.CheckConstraint("frequency BETWEEN 1 AND 5", name="ck_surveys_frequency"),
    )


def downgrade() -> None:
    op.drop_table("surveys")
    op.drop_index("ix_web_matches_created_at", table_name="web_matches")
    op.drop_table("web_matches")
