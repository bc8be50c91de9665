"""Accounts: people who sign in, their sessions, passkeys and seats; ratings, results,
challenges, blocks, mutes and reports.

Every game, seat, token and move stored before is kept as it was: the new columns of the games
and seats default to "not rated", "no account", "not settled".
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006_accounts"
down_revision: str | None = "0005_hints"
branch_labels: str | None = None
depends_on: str | None = None

WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "polis_accounts",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("name_key", sa.String(40), nullable=False, unique=True),
        sa.Column("password_hash", sa.Text(), nullable=True),
        sa.Column("bot", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("suspended", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("deleted", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("created", WHEN, nullable=False),
    )
    op.create_table(
        "polis_sessions",
        sa.Column("id_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("polis_accounts.id"), nullable=False),
        sa.Column("csrf", sa.String(64), nullable=False),
        sa.Column("created", sa.Float(), nullable=False),
        sa.Column("seen", sa.Float(), nullable=False),
    )
    op.create_index("ix_polis_sessions_account", "polis_sessions", ["account_id"])
    op.create_table(
        "polis_passkeys",
        sa.Column("credential_id", sa.String(512), primary_key=True),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("polis_accounts.id"), nullable=False),
        sa.Column("public_key", sa.Text(), nullable=False),
        sa.Column("sign_count", sa.Integer(), nullable=False),
        sa.Column("created", WHEN, nullable=False),
    )
    op.create_index("ix_polis_passkeys_account", "polis_passkeys", ["account_id"])
    op.create_table(
        "polis_webauthn",
        sa.Column("challenge_hash", sa.String(64), primary_key=True),
        sa.Column("purpose", sa.String(8), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=True),
        sa.Column("expires", sa.Float(), nullable=False),
    )
    op.create_table(
        "polis_seat_keys",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("polis_games.id"), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("session_hash", sa.String(64), nullable=False),
        sa.Column("created", sa.Float(), nullable=False),
    )
    op.create_index("ix_polis_seat_keys_session", "polis_seat_keys", ["session_hash"])
    op.create_table(
        "polis_relations",
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("polis_accounts.id"), primary_key=True),
        sa.Column("other_id", sa.Integer(), sa.ForeignKey("polis_accounts.id"), primary_key=True),
        sa.Column("kind", sa.String(8), primary_key=True),
        sa.Column("created", WHEN, nullable=False),
    )
    op.create_table(
        "polis_reports",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("reporter_id", sa.Integer(), sa.ForeignKey("polis_accounts.id"), nullable=False),
        sa.Column("reported_id", sa.Integer(), nullable=True),
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("chat_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("created", WHEN, nullable=False),
        sa.Column("handled", sa.Integer(), nullable=False, server_default="0"),
    )
    op.create_table(
        "polis_challenges",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("from_id", sa.Integer(), sa.ForeignKey("polis_accounts.id"), nullable=False),
        sa.Column("to_id", sa.Integer(), sa.ForeignKey("polis_accounts.id"), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("mode", sa.String(16), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("options", sa.Text(), nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=True),
        sa.Column("created", WHEN, nullable=False),
    )
    op.create_index("ix_polis_challenges_to", "polis_challenges", ["to_id", "status"])
    op.create_table(
        "polis_account_push",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("polis_accounts.id"), nullable=False),
        sa.Column("endpoint", sa.String(1024), nullable=False),
        sa.Column("p256dh", sa.String(128), nullable=False),
        sa.Column("auth", sa.String(64), nullable=False),
        sa.Column("lang", sa.String(8), nullable=False),
        sa.Column("created", WHEN, nullable=False),
        sa.UniqueConstraint("account_id", "endpoint", name="uq_polis_account_push"),
    )
    op.create_table(
        "polis_ratings",
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("polis_accounts.id"), primary_key=True),
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("mode", sa.String(16), primary_key=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated", WHEN, nullable=False),
    )
    op.create_index("ix_polis_ratings_board", "polis_ratings", ["game", "mode"])
    op.create_table(
        "polis_rating_history",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("polis_accounts.id"), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("mode", sa.String(16), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("at", WHEN, nullable=False),
    )
    op.create_index(
        "ix_polis_rating_history_account", "polis_rating_history", ["account_id", "game", "mode"]
    )
    op.create_table(
        "polis_results",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("polis_games.id"), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("polis_accounts.id"), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("mode", sa.String(16), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("rank", sa.Integer(), nullable=False),
        sa.Column("tied", sa.Integer(), nullable=False, server_default="1"),
        sa.Column("score", sa.Float(), nullable=False),
        sa.Column("rated", sa.Integer(), nullable=False),
        sa.Column("forfeited", sa.Integer(), nullable=False),
        sa.Column("finished", WHEN, nullable=False),
    )
    op.create_index("ix_polis_results_account", "polis_results", ["account_id", "game", "mode"])
    op.add_column(
        "polis_games", sa.Column("rated", sa.Integer(), nullable=False, server_default="0")
    )
    op.add_column("polis_games", sa.Column("creator_id", sa.Integer(), nullable=True))
    op.add_column(
        "polis_games", sa.Column("settled", sa.Integer(), nullable=False, server_default="0")
    )
    op.add_column("polis_seats", sa.Column("account_id", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("polis_seats") as batch:
        batch.drop_column("account_id")
    with op.batch_alter_table("polis_games") as batch:
        batch.drop_column("settled")
        batch.drop_column("creator_id")
        batch.drop_column("rated")
    for index, table in (
        ("ix_polis_results_account", "polis_results"),
        ("ix_polis_rating_history_account", "polis_rating_history"),
        ("ix_polis_ratings_board", "polis_ratings"),
        ("ix_polis_challenges_to", "polis_challenges"),
        ("ix_polis_seat_keys_session", "polis_seat_keys"),
        ("ix_polis_passkeys_account", "polis_passkeys"),
        ("ix_polis_sessions_account", "polis_sessions"),
    ):
        op.drop_index(index, table_name=table)
    for table in (
        "polis_results",
        "polis_rating_history",
        "polis_ratings",
        "polis_account_push",
        "polis_challenges",
        "polis_reports",
        "polis_relations",
        "polis_seat_keys",
        "polis_webauthn",
        "polis_passkeys",
        "polis_sessions",
        "polis_accounts",
    ):
        op.drop_table(table)
