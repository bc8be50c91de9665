"""The bot API: bot accounts' API tokens (kept hashed) and the tables that let bot accounts
take their open seats.

Nothing stored before changes: the two tables start empty.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007_bot_api"
down_revision: str | None = "0006_accounts"
branch_labels: str | None = None
depends_on: str | None = None

WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "polis_api_tokens",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("polis_accounts.id"), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("label", sa.String(40), nullable=False),
        sa.Column("scope", sa.String(16), nullable=False),
        sa.Column("created", WHEN, nullable=False),
        sa.Column("last_used", sa.Float(), nullable=True),
        sa.Column("revoked", sa.Float(), nullable=True),
    )
    op.create_index("ix_polis_api_tokens_account", "polis_api_tokens", ["account_id"])
    op.create_table(
        "polis_bot_tables",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("polis_games.id"), primary_key=True),
        sa.Column("created", WHEN, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("polis_bot_tables")
    op.drop_index("ix_polis_api_tokens_account", table_name="polis_api_tokens")
    op.drop_table("polis_api_tokens")
