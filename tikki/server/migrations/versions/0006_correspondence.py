"""Correspondence tables and notifications.

Added tables only (an expanding change): the code before runs on it unchanged.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

revision = "0006"
down_revision: str | None = "0005"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Make the tables (none yet: the revision is reserved so the chain stays linear)."""


def downgrade() -> None:
    """Drop the tables."""
