"""A table's owner process and its lease: several lobby processes on one database (docs/lobby-scaling.md).

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("process", sa.String(100), nullable=True))
        batch.add_column(sa.Column("lease_until", sa.DateTime, nullable=True))
    op.create_index("tables_by_process", "tables", ["process", "status"])


def downgrade() -> None:
    op.drop_index("tables_by_process", "tables")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("lease_until")
        batch.drop_column("process")
