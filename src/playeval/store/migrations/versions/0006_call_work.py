"""Call work: what the backend computed for each model call, where it can tell (a local llama.cpp model).

* ``model_calls.prompt_evaluated``: prompt tokens the backend evaluated (a prefix reused from its cache is not).
* ``model_calls.prompt_needed``: what a perfect prefix cache would have evaluated (the prompt minus its longest
  common prefix with an earlier prompt and reply of the same model).
* ``model_calls.prompt_s`` and ``model_calls.generation_s``: seconds of prompt evaluation and of generation.

All NULL for a call served from the response cache, from a provider that cannot tell (a remote API), and for
every call recorded before this revision.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("model_calls") as batch:
        batch.add_column(sa.Column("prompt_evaluated", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("prompt_needed", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("prompt_s", sa.Double(), nullable=True))
        batch.add_column(sa.Column("generation_s", sa.Double(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("model_calls") as batch:
        batch.drop_column("generation_s")
        batch.drop_column("prompt_s")
        batch.drop_column("prompt_needed")
        batch.drop_column("prompt_evaluated")
