"""The first schema: accounts, login sessions, tables, games, seats, hands, moves, chat, ratings.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(40), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(200), nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
    )
    op.create_table(
        "login_sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("expires_at", sa.DateTime, nullable=False),
    )
    op.create_table(
        "tables",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("rules", sa.String(40), nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("robots", sa.Integer, nullable=False),
        sa.Column("level", sa.Integer, nullable=False),
        sa.Column("seed", sa.Integer, nullable=False),
        sa.Column("turn_timer", sa.Integer, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.Column("owner_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=True),
    )
    op.create_table(
        "games",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), nullable=False, index=True),
        sa.Column("rules", sa.String(40), nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("seed", sa.Integer, nullable=False),
        sa.Column("started_at", sa.DateTime, nullable=False),
        sa.Column("finished", sa.Boolean, nullable=False),
        sa.Column("finished_at", sa.DateTime, nullable=True),
        sa.Column("moves", sa.Integer, nullable=False),
    )
    op.create_table(
        "seats",
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("connection", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("robot", sa.Boolean, nullable=False),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=True, index=True),
        sa.Column("player_id", sa.Integer, nullable=True),
        sa.Column("score", sa.Integer, nullable=True),
        sa.Column("placing", sa.Integer, nullable=True),
    )
    op.create_table(
        "hands",
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("east", sa.Integer, nullable=False),
        sa.Column("first_move", sa.Integer, nullable=False),
        sa.Column("last_move", sa.Integer, nullable=True),
        sa.Column("winner", sa.Integer, nullable=True),
        sa.Column("settlement", sa.Text, nullable=True),
    )
    op.create_table(
        "moves",
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("direction", sa.String(1), nullable=False),
        sa.Column("connection", sa.Integer, nullable=False),
        sa.Column("text", sa.Text, nullable=True),
    )
    op.create_table(
        "chat",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), nullable=True),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id"), nullable=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("at", sa.DateTime, nullable=False),
    )
    op.create_index("chat_by_table", "chat", ["table_id", "id"])
    op.create_table(
        "ratings",
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("rules", sa.String(40), primary_key=True),
        sa.Column("mu", sa.Double, nullable=False),
        sa.Column("sigma", sa.Double, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
    )


def downgrade() -> None:
    for name in ("ratings", "chat", "moves", "hands", "seats", "games", "tables", "login_sessions", "accounts"):
        op.drop_table(name)
