"""Correspondence tables and notifications (``tikki_notices``, ``tikki_notice_emails``).

A correspondence table needs no table of its own: its allowance is its turn timer,
stored with its options.  Added tables only (an expanding change): the code before runs
on it unchanged.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision: str | None = "0005"
branch_labels: str | None = None
depends_on: str | None = None


def _account(column: str) -> sa.ForeignKeyConstraint:
    """A foreign key to an account whose rows go with the account."""
    return sa.ForeignKeyConstraint([column], ["tikki_accounts.id"], ondelete="CASCADE")


def upgrade() -> None:
    """Make the notices' tables."""
    op.create_table(
        "tikki_notices",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(24), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("created", sa.DateTime(), nullable=False),
        sa.Column("read", sa.DateTime(), nullable=True),
        _account("account_id"),
        sa.PrimaryKeyConstraint("id"),
        if_not_exists=True,
        sqlite_autoincrement=True,  # ids never reused: the account socket reads "newer than"
    )
    op.create_index(
        "ix_tikki_notices_account_id", "tikki_notices", ["account_id"], if_not_exists=True
    )
    op.create_table(
        "tikki_notice_emails",
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("address", sa.String(254), nullable=False),
        sa.Column("wanted", sa.Boolean(), nullable=False),
        sa.Column("lang", sa.String(8), nullable=False),
        _account("account_id"),
        sa.PrimaryKeyConstraint("account_id"),
        if_not_exists=True,
    )


def downgrade() -> None:
    """Drop the notices' tables."""
    for name in ("tikki_notice_emails", "tikki_notices"):
        op.drop_table(name)
