"""Hints: whether the seat to move may ask for a suggested move at a table.

Games stored before keep NULL: the default for their seats (on for a table of one person and
bots, off when several people play).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005_hints"
down_revision: str | None = "0004_chat_push"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.add_column("polis_games", sa.Column("hints", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("polis_games") as batch:
        batch.drop_column("hints")
