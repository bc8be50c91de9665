"""Open tables: seats anyone may take, and tables the lobby lists or keeps invite-only.

Games stored before stay as they were: listed (the lobby listed every game) and with no
vacant seat.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002_open_tables"
down_revision: str | None = "0001_baseline"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.add_column(
        "polis_games", sa.Column("listed", sa.Integer(), nullable=False, server_default="1")
    )
    op.add_column(
        "polis_seats", sa.Column("vacant", sa.Integer(), nullable=False, server_default="0")
    )
    op.create_index("ix_polis_games_lobby", "polis_games", ["finished", "listed", "updated"])


def downgrade() -> None:
    op.drop_index("ix_polis_games_lobby", table_name="polis_games")
    with op.batch_alter_table("polis_seats") as batch:
        batch.drop_column("vacant")
    with op.batch_alter_table("polis_games") as batch:
        batch.drop_column("listed")
