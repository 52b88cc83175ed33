"""Scale: matches left unfinished say why, and each model call says what it cost and how its format was enforced.

* ``matches.status`` may be ``interrupted``: a run stopped (a provider down, every call rejected, a signal)
  and left the match unfinished; ``matches.stop_reason`` says why. ``--resume`` plays it on from its events.
* ``model_calls.cost_usd``: the call's price from the price table (NULL when the model has no known price).
* ``model_calls.output_path``: how the reply's format was enforced: ``grammar`` (the local model's grammar),
  ``json_schema`` (a server's ``response_format``), ``llama_grammar`` (llama.cpp server's ``grammar`` field),
  ``guided`` (vLLM's guided decoding), ``parse`` (no constraint sent: parse and re-ask) or NULL (no constraint
  asked for, or recorded before this revision).

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-25
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


# The constraint's name goes through the naming convention, as in 0001: in the database it is
# ``ck_matches_ck_matches_status``; passing the same short name keeps it so for later revisions.


def upgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.drop_constraint("ck_matches_status", type_="check")
        batch.create_check_constraint("ck_matches_status", "status IN ('running', 'finished', 'interrupted')")
        batch.add_column(sa.Column("stop_reason", sa.Text(), nullable=True))
    with op.batch_alter_table("model_calls") as batch:
        batch.add_column(sa.Column("cost_usd", sa.Double(), nullable=True))
        batch.add_column(sa.Column("output_path", sa.String(16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("model_calls") as batch:
        batch.drop_column("output_path")
        batch.drop_column("cost_usd")
    op.execute("UPDATE matches SET status = 'running' WHERE status = 'interrupted'")
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("stop_reason")
        batch.drop_constraint("ck_matches_status", type_="check")
        batch.create_check_constraint("ck_matches_status", "status IN ('running', 'finished')")
