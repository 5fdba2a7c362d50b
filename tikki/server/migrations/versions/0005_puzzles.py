"""Puzzle attempts and puzzle ratings (``tikki_puzzle_ratings``,
``tikki_puzzle_players``, ``tikki_puzzle_attempts``).

Added tables only (an expanding change): the code before runs on it unchanged.

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


def _account() -> sa.ForeignKeyConstraint:
    """The account's foreign key: its rows go with the account."""
    return sa.ForeignKeyConstraint(["account_id"], ["tikki_accounts.id"], ondelete="CASCADE")


def _rating() -> list[sa.Column[float] | sa.Column[int]]:
    """A rating's columns: mu, sigma and the rated attempts."""
    return [
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
    ]


def upgrade() -> None:
    """Make the puzzles' tables."""
    op.create_table(
        "tikki_puzzle_ratings",
        sa.Column("puzzle_id", sa.String(32), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        *_rating(),
        sa.PrimaryKeyConstraint("puzzle_id"),
        if_not_exists=True,
    )
    op.create_table(
        "tikki_puzzle_players",
        sa.Column("account_id", sa.Integer(), nullable=False),
        *_rating(),
        _account(),
        sa.PrimaryKeyConstraint("account_id"),
        if_not_exists=True,
    )
    op.create_table(
        "tikki_puzzle_attempts",
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("puzzle_id", sa.String(32), nullable=False),
        sa.Column("moves", sa.JSON(), nullable=False),
        sa.Column("solved", sa.Boolean(), nullable=False),
        sa.Column("created", sa.DateTime(), nullable=False),
        sa.Column("before", sa.Float(), nullable=False),
        sa.Column("after", sa.Float(), nullable=False),
        _account(),
        sa.PrimaryKeyConstraint("account_id", "puzzle_id"),
        if_not_exists=True,
    )


def downgrade() -> None:
    """Drop the puzzles' tables."""
    for name in ("tikki_puzzle_attempts", "tikki_puzzle_players", "tikki_puzzle_ratings"):
        op.drop_table(name)
