"""Tournaments, their entrants, games and byes (``tikki_tournaments``,
``tikki_tournament_entrants``, ``tikki_tournament_games``, ``tikki_tournament_byes``).

Added tables only (an expanding change): the code before runs on it unchanged.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision: str | None = "0006"
branch_labels: str | None = None
depends_on: str | None = None

TOURNAMENT = "tikki_tournaments.id"


def _cascade(column: str, target: str) -> sa.ForeignKeyConstraint:
    """A foreign key whose rows go with the row they point at."""
    return sa.ForeignKeyConstraint([column], [target], ondelete="CASCADE")


def upgrade() -> None:
    """Make the tournaments' tables."""
    op.create_table(
        "tikki_tournaments",
        sa.Column("id", sa.String(16), nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("creator_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=True),
        sa.Column("minutes", sa.Integer(), nullable=True),
        sa.Column("cap", sa.Integer(), nullable=False),
        sa.Column("starts", sa.DateTime(), nullable=False),
        sa.Column("created", sa.DateTime(), nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("lease_node", sa.String(120), nullable=True),
        sa.Column("lease_until", sa.DateTime(), nullable=True),
        _cascade("creator_id", "tikki_accounts.id"),
        sa.PrimaryKeyConstraint("id"),
        if_not_exists=True,
    )
    op.create_index(
        "ix_tikki_tournaments_status", "tikki_tournaments", ["status"], if_not_exists=True
    )
    op.create_table(
        "tikki_tournament_entrants",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("tournament_id", sa.String(16), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=True),
        sa.Column("bot", sa.String(200), nullable=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("joined", sa.DateTime(), nullable=False),
        _cascade("tournament_id", TOURNAMENT),
        _cascade("account_id", "tikki_accounts.id"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("tournament_id", "account_id"),
        if_not_exists=True,
    )
    for column in ("tournament_id", "account_id"):
        op.create_index(
            f"ix_tikki_tournament_entrants_{column}",
            "tikki_tournament_entrants",
            [column],
            if_not_exists=True,
        )
    op.create_table(
        "tikki_tournament_games",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("tournament_id", sa.String(16), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("table_id", sa.String(32), nullable=True),
        sa.Column("claimed", sa.DateTime(), nullable=True),
        sa.Column("tokens", sa.JSON(), nullable=True),
        sa.Column("points", sa.JSON(), nullable=True),
        sa.Column("places", sa.JSON(), nullable=True),
        sa.Column("created", sa.DateTime(), nullable=False),
        _cascade("tournament_id", TOURNAMENT),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("tournament_id", "round", "number"),
        if_not_exists=True,
    )
    op.create_index(
        "ix_tikki_tournament_games_tournament_id",
        "tikki_tournament_games",
        ["tournament_id"],
        if_not_exists=True,
    )
    op.create_table(
        "tikki_tournament_byes",
        sa.Column("tournament_id", sa.String(16), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("entrant_id", sa.Integer(), nullable=False),
        _cascade("tournament_id", TOURNAMENT),
        _cascade("entrant_id", "tikki_tournament_entrants.id"),
        sa.PrimaryKeyConstraint("tournament_id", "round", "entrant_id"),
        if_not_exists=True,
    )


def downgrade() -> None:
    """Drop the tournaments' tables."""
    for name in (
        "tikki_tournament_byes",
        "tikki_tournament_games",
        "tikki_tournament_entrants",
        "tikki_tournaments",
    ):
        op.drop_table(name)
