"""Friends: follows, blocks, challenges and presence (``tikki_follows``,
``tikki_blocks``, ``tikki_challenges``, ``tikki_presence``).

Added tables only (an expanding change): the code before runs on it unchanged.

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


def _account(column: str) -> sa.ForeignKeyConstraint:
    """A foreign key to an account whose rows go with the account."""
    return sa.ForeignKeyConstraint([column], ["tikki_accounts.id"], ondelete="CASCADE")


def _pair(name: str, first: str, second: str) -> None:
    """A table of account pairs (who follows or blocked whom) with its time."""
    op.create_table(
        name,
        sa.Column(first, sa.Integer(), nullable=False),
        sa.Column(second, sa.Integer(), nullable=False),
        sa.Column("created", sa.DateTime(), nullable=False),
        _account(first),
        _account(second),
        sa.PrimaryKeyConstraint(first, second),
        if_not_exists=True,
    )


def upgrade() -> None:
    """Make the friends' tables."""
    _pair("tikki_follows", "follower_id", "followee_id")
    _pair("tikki_blocks", "blocker_id", "blocked_id")
    op.create_table(
        "tikki_challenges",
        sa.Column("id", sa.String(16), nullable=False),
        sa.Column("from_id", sa.Integer(), nullable=False),
        sa.Column("to_id", sa.Integer(), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("state", sa.String(12), nullable=False),
        sa.Column("created", sa.DateTime(), nullable=False),
        sa.Column("answered", sa.DateTime(), nullable=True),
        sa.Column("table_id", sa.String(32), nullable=True),
        sa.Column("seat_token", sa.String(64), nullable=True),
        _account("from_id"),
        _account("to_id"),
        sa.PrimaryKeyConstraint("id"),
        if_not_exists=True,
    )
    for column in ("from_id", "to_id"):
        op.create_index(
            f"ix_tikki_challenges_{column}", "tikki_challenges", [column], if_not_exists=True
        )
    op.create_table(
        "tikki_presence",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.String(32), nullable=True),
        sa.Column("seen", sa.DateTime(), nullable=False),
        _account("account_id"),
        sa.PrimaryKeyConstraint("id"),
        if_not_exists=True,
    )
    op.create_index(
        "ix_tikki_presence_account_id", "tikki_presence", ["account_id"], if_not_exists=True
    )


def downgrade() -> None:
    """Drop the friends' tables."""
    for name in ("tikki_presence", "tikki_challenges", "tikki_blocks", "tikki_follows"):
        op.drop_table(name)
