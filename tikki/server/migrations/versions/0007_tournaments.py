"""Tournaments, their entrants, rounds and standings.

Added tables only (an expanding change): the code before runs on it unchanged.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

revision = "0007"
down_revision: str | None = "0006"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Make the tables (none yet: the revision is reserved so the chain stays linear)."""


def downgrade() -> None:
    """Drop the tables."""
