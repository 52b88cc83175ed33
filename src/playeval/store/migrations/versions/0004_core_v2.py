"""Core v2: roles beside seats, evaluated seats, role calls, any retrospective kind, several people per table.

* ``match_roles``: who plays each role of a match (a judge, a game master), apart from the seats.
* ``seats.evaluated``: whether the match counts for the seat's model (NULL for matches recorded before, where
  the game's one evaluated seat did).
* ``model_calls.role``: the role a call was made for. The retrospective analysis's calls, stored so far under
  pseudo-seats ``retro:<kind>``, move to ``role``.
* ``retro_outputs``: the CHECK on ``kind`` goes; a game declares its own kinds.
* ``web_seats``: each person's seat at an arena table, with its own token hash, when the person joined and left;
  filled from ``web_matches.human_seat`` and ``token_sha256``, which are dropped. ``web_matches.stand_in``:
  the model that takes over a seat whose person does not come or leaves.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-23
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "match_roles",
        sa.Column("match_id", sa.String(16), nullable=False),
        sa.Column("role", sa.String(64), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("player_kind", sa.String(32), nullable=False),
        sa.Column("model", sa.String(255), nullable=True),
        sa.Column("seat", sa.String(64), nullable=True),
        sa.PrimaryKeyConstraint("match_id", "role", name="pk_match_roles"),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], name="fk_match_roles_match_id_matches"),
    )
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("evaluated", sa.Boolean(), nullable=True))
    with op.batch_alter_table("model_calls") as batch:
        batch.add_column(sa.Column("role", sa.String(64), nullable=True))
    op.execute("UPDATE model_calls SET role = seat, seat = NULL WHERE seat LIKE 'retro:%'")
    with op.batch_alter_table("retro_outputs") as batch:
        batch.drop_constraint("ck_retro_outputs_kind", type_="check")

    op.create_table(
        "web_seats",
        sa.Column("match_id", sa.String(16), nullable=False),
        sa.Column("seat", sa.String(64), nullable=False),
        sa.Column("token_sha256", sa.String(64), nullable=True),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("left_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("match_id", "seat", name="pk_web_seats"),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], name="fk_web_seats_match_id_matches"),
    )
    op.execute("INSERT INTO web_seats (match_id, seat, token_sha256, joined_at, left_at) "
                "SELECT match_id, human_seat, token_sha256, created_at, NULL FROM web_matches "
                "WHERE human_seat IS NOT NULL")
    with op.batch_alter_table("web_matches") as batch:
        batch.add_column(sa.Column("stand_in", sa.String(255), nullable=True))
        batch.drop_column("human_seat")
        batch.drop_column("token_sha256")


def downgrade() -> None:
    with op.batch_alter_table("web_matches") as batch:
        batch.add_column(sa.Column("token_sha256", sa.String(64), nullable=True))
        batch.add_column(sa.Column("human_seat", sa.String(64), nullable=True))
        batch.drop_column("stand_in")
    op.execute("UPDATE web_matches SET human_seat = (SELECT seat FROM web_seats WHERE web_seats.match_id = "
               "web_matches.match_id ORDER BY seat LIMIT 1), token_sha256 = (SELECT token_sha256 FROM web_seats "
               "WHERE web_seats.match_id = web_matches.match_id ORDER BY seat LIMIT 1)")
    op.drop_table("web_seats")
    with op.batch_alter_table("retro_outputs") as batch:
        batch.create_check_constraint("kind", "kind IN ('candidates', 'judgement', 'split')")
    op.execute("UPDATE model_calls SET seat = role, role = NULL WHERE role LIKE 'retro:%'")
    with op.batch_alter_table("model_calls") as batch:
        batch.drop_column("role")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("evaluated")
    op.drop_table("match_roles")
