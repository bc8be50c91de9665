"""The schema of release 0.1.0, the first one managed by migrations.

A new database gets the three tables. A database that release (or an older one) made without
migrations has the tables already: it gets the columns the older releases lacked (the
``ADDED_COLUMNS`` that release added at start-up), and is then stamped with this revision.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0001_baseline"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None


def legacy_columns() -> dict[str, sa.Column[Any]]:
    """Columns added to ``polis_games`` after the first release, as release 0.1.0 added them
    (new objects each time: a column belongs to one table)."""
    return {
        "seed_text": sa.Column("seed_text", sa.Text(), nullable=True),
        "seed_chosen": sa.Column("seed_chosen", sa.Integer(), nullable=False, server_default="0"),
        "bot_turn": sa.Column("bot_turn", sa.Integer(), nullable=True),
    }


def _games() -> None:
    op.create_table(
        "polis_games",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("mode", sa.String(16), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=True),
        sa.Column("setup", sa.Text(), nullable=False),
        sa.Column("options", sa.Text(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("finished", sa.Integer(), nullable=False),
        sa.Column("result", sa.Text(), nullable=True),
        sa.Column("rematch_of", sa.String(32), nullable=True),
        sa.Column("rematch_id", sa.String(32), nullable=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
        *legacy_columns().values(),
    )


def _seats() -> None:
    op.create_table(
        "polis_seats",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("polis_games.id"), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("level", sa.String(16), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True),
    )


def _moves() -> None:
    op.create_table(
        "polis_moves",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("polis_games.id"), primary_key=True),
        sa.Column("idx", sa.Integer(), primary_key=True),
        sa.Column("text", sa.String(64), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )


def upgrade() -> None:
    inspector = sa.inspect(op.get_bind())
    have = set(inspector.get_table_names())
    if "polis_games" in have:
        columns = {c["name"] for c in inspector.get_columns("polis_games")}
        for name, column in legacy_columns().items():
            if name not in columns:
                op.add_column("polis_games", column)
    else:
        _games()
    if "polis_seats" not in have:
        _seats()
    if "polis_moves" not in have:
        _moves()


def downgrade() -> None:
    op.drop_table("polis_moves")
    op.drop_table("polis_seats")
    op.drop_table("polis_games")
