"""A table's clock (docs/rules/table.md, T6–T9): each seat's time left and when the
actor's time started running, kept with every action so that a clock survives a restart,
and the deadline — the next moment the table must act of itself (a flag, a stand-in bot, an
abandonment) — indexed, so that a server finds the tables that are due.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision: str | None = "0002"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    # Tables stored before have neither: no clock, and nothing ever due.
    op.add_column("tables", sa.Column("clock", sa.JSON, nullable=True))
    op.add_column("tables", sa.Column("deadline", sa.DateTime(timezone=True), nullable=True))
    op.create_index("ix_tables_deadline", "tables", ["deadline"])


def downgrade() -> None:
    op.drop_index("ix_tables_deadline", "tables")
    with op.batch_alter_table("tables") as batch:  # (SQLite rebuilds the table)
        batch.drop_column("deadline")
        batch.drop_column("clock")
