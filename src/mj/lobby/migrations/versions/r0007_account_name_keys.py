"""Account names differing only in case (``Ann``, ``ann``) are one name: a unique key of each account's name.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import unicodedata

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("name_key", sa.String(120), nullable=True))
    accounts = sa.table("accounts", sa.column("id", sa.Integer), sa.column("name", sa.String),
                        sa.column("name_key", sa.String))  # fmt: skip
    connection = op.get_bind()
    taken: set[str] = set()
    for account_id, name in connection.execute(sa.select(accounts.c.id, accounts.c.name).order_by(accounts.c.id)):
        key = unicodedata.normalize("NFKC", name).casefold()
        if key not in taken:  # the oldest account of a name keeps it; a later look-alike keeps its own name alone
            taken.add(key)
            connection.execute(sa.update(accounts).where(accounts.c.id == account_id).values(name_key=key))
    with op.batch_alter_table("accounts") as batch:
        batch.create_unique_constraint("uq_accounts_name_key", ["name_key"])


def downgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.drop_constraint("uq_accounts_name_key", type_="unique")
        batch.drop_column("name_key")
