"""Who made a table (the hash of the host's token, given once when the table is made: it
archives and deletes the table) and whether the host archived it (kept, but out of the
lists). A table stored before has no host token; its maker is known by the keys only the
maker was given (web.hosts).

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision: str | None = "0003"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("host_hash", sa.String(64), nullable=True))
    op.add_column(
        "tables",
        sa.Column("archived", sa.Boolean, nullable=False, server_default=sa.false()),
    )


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:  # (SQLite rebuilds the table)
        batch.drop_column("archived")
        batch.drop_column("host_hash")
