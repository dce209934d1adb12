"""Each seat's figures of a finished game: hands won, of them self-drawn, and deal-ins.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("wins", sa.Integer, nullable=True))
        batch.add_column(sa.Column("self_drawn", sa.Integer, nullable=True))
        batch.add_column(sa.Column("deal_ins", sa.Integer, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        for name in ("deal_ins", "self_drawn", "wins"):
            batch.drop_column(name)
