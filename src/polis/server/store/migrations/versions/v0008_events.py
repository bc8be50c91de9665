"""Events (tournaments): the events, their entrants, the tables of each round and every
entrant's result in every round.

Nothing stored before changes: the four tables start empty.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008_events"
down_revision: str | None = "0007_bot_api"
branch_labels: str | None = None
depends_on: str | None = None

WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "polis_events",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("name", sa.String(60), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("mode", sa.String(16), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("format", sa.String(12), nullable=False),
        sa.Column("rated", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("rules", sa.Text(), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=True),
        sa.Column("round", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("starts", sa.Float(), nullable=True),
        sa.Column("creator_id", sa.Integer(), sa.ForeignKey("polis_accounts.id"), nullable=True),
        sa.Column("seed", sa.String(40), nullable=False),
        sa.Column("created", WHEN, nullable=False),
        sa.Column("started", sa.Float(), nullable=True),
        sa.Column("ended", sa.Float(), nullable=True),
    )
    op.create_index("ix_polis_events_status", "polis_events", ["status", "starts"])
    op.create_table(
        "polis_event_entrants",
        sa.Column("event_id", sa.String(24), sa.ForeignKey("polis_events.id"), primary_key=True),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("polis_accounts.id"), primary_key=True),
        sa.Column("joined", sa.Float(), nullable=False),
        sa.Column("withdrawn", sa.Integer(), nullable=True),
        sa.Column("why", sa.String(8), nullable=True),
    )
    op.create_table(
        "polis_event_tables",
        sa.Column("event_id", sa.String(24), sa.ForeignKey("polis_events.id"), primary_key=True),
        sa.Column("round", sa.Integer(), primary_key=True),
        sa.Column("board", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.String(32), nullable=True),
        sa.Column("lease", sa.Float(), nullable=True),
        sa.Column("recorded", sa.Integer(), nullable=False, server_default="0"),
    )
    op.create_index("ix_polis_event_tables_game", "polis_event_tables", ["game_id"])
    op.create_table(
        "polis_event_results",
        sa.Column("event_id", sa.String(24), sa.ForeignKey("polis_events.id"), primary_key=True),
        sa.Column("round", sa.Integer(), primary_key=True),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("polis_accounts.id"), primary_key=True),
        sa.Column("board", sa.Integer(), nullable=True),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("place", sa.Integer(), nullable=True),
        sa.Column("points", sa.Float(), nullable=True),
        sa.Column("score", sa.Float(), nullable=True),
        sa.Column("no_show", sa.Integer(), nullable=False, server_default="0"),
    )


def downgrade() -> None:
    op.drop_table("polis_event_results")
    op.drop_index("ix_polis_event_tables_game", table_name="polis_event_tables")
    op.drop_table("polis_event_tables")
    op.drop_table("polis_event_entrants")
    op.drop_index("ix_polis_events_status", table_name="polis_events")
    op.drop_table("polis_events")
