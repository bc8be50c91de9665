"""Chat and turn notifications: each table's chat lines, the browsers' Web Push subscriptions
per seat, the server's settings (its VAPID key), and whether spectators read a table's chat.

Games stored before keep their chat closed to spectators (there was no chat to read).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004_chat_push"
down_revision: str | None = "0003_clocks"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.add_column(
        "polis_games",
        sa.Column("chat_spectators", sa.Integer(), nullable=False, server_default="0"),
    )
    op.create_table(
        "polis_chat",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("polis_games.id"), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_polis_chat_game", "polis_chat", ["game_id", "id"])
    op.create_table(
        "polis_push",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("polis_games.id"), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("endpoint", sa.String(1024), nullable=False),
        sa.Column("p256dh", sa.String(128), nullable=False),
        sa.Column("auth", sa.String(64), nullable=False),
        sa.Column("lang", sa.String(8), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("game_id", "seat", "endpoint", name="uq_polis_push"),
    )
    op.create_table(
        "polis_settings",
        sa.Column("name", sa.String(64), primary_key=True),
        sa.Column("value", sa.Text(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("polis_settings")
    op.drop_table("polis_push")
    op.drop_index("ix_polis_chat_game", table_name="polis_chat")
    op.drop_table("polis_chat")
    with op.batch_alter_table("polis_games") as batch:
        batch.drop_column("chat_spectators")
