"""Each table's lobby line (``tikki_table_summaries``), written with its newest move, so
that a process lists a table it does not own without replaying its moves.

An added table only (an expanding change): the code before runs on it unchanged.  A
table without a line is listed as before (from its moves).

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
    """Make the table of lobby lines."""
    op.create_table(
        "tikki_table_summaries",
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("to_act", sa.Integer(), nullable=True),
        sa.Column("last_move", sa.DateTime(), nullable=False),
        sa.Column("played", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["tikki_tables.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("table_id"),
        if_not_exists=True,
    )


def downgrade() -> None:
    """Drop the lobby lines."""
    op.drop_table("tikki_table_summaries")
