"""The epoch of a table's latest claim: a process that takes the table as its home claims
it, one more than the last, and a write naming an older epoch is refused (a fencing token:
a process whose claim was overtaken can no longer write).

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision: str | None = "0004"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.add_column(
        "tables", sa.Column("epoch", sa.Integer, nullable=False, server_default=sa.text("0"))
    )


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:  # (SQLite rebuilds the table)
        batch.drop_column("epoch")
