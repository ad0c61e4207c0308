"""A table's revision (up by one on every append and every undo, so that a writer who read
an older table is refused) and the receipts of the messages that changed it (so that a
resent message is answered as the first was, never applied twice).

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    # Tables stored before start at 0: a revision only has to go up from what a reader saw.
    op.add_column(
        "tables",
        sa.Column("revision", sa.Integer, nullable=False, server_default=sa.text("0")),
    )
    op.create_table(
        "receipts",
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("message_id", sa.String(64), primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("revision", sa.Integer, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("receipts")
    with op.batch_alter_table("tables") as batch:  # (SQLite rebuilds the table)
        batch.drop_column("revision")
