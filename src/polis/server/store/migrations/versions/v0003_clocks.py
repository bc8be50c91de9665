"""Clocks and bots taking over: who made each move, each table's clock and rules for
leavers, and the bots standing in for people.

Games stored before keep every move (their author unknown: NULL), have no clock, and get the
default bot level should a player leave.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_clocks"
down_revision: str | None = "0002_open_tables"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.add_column("polis_moves", sa.Column("author", sa.String(24), nullable=True))
    op.create_table(
        "polis_clocks",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("polis_games.id"), primary_key=True),
        sa.Column("time_control", sa.Text(), nullable=True),
        sa.Column("stand_in", sa.String(16), nullable=True),
        sa.Column("away_limit", sa.Float(), nullable=True),
        sa.Column("banks", sa.Text(), nullable=True),
        sa.Column("turn_started", sa.Float(), nullable=True),
        sa.Column("deadline", sa.Float(), nullable=True),
    )
    op.create_index("ix_polis_clocks_deadline", "polis_clocks", ["deadline"])
    op.create_table(
        "polis_stand_ins",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("polis_games.id"), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("level", sa.String(16), nullable=False),
        sa.Column("why", sa.String(8), nullable=False),
        sa.Column("since", sa.Float(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("polis_stand_ins")
    op.drop_index("ix_polis_clocks_deadline", table_name="polis_clocks")
    op.drop_table("polis_clocks")
    with op.batch_alter_table("polis_moves") as batch:
        batch.drop_column("author")
