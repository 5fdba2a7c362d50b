"""Baseline: every table as the start-up of the versions before migrations made it.

Each table and index is made only where it is missing, so that a database made by those
versions (with no ``alembic_version``) is brought here by creating what it lacks; the
columns it may lack are added by the next revision.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None

SEED_DIGITS = 39
"""The seed's decimal digits at this revision (frozen: the code's constant may change)."""


def _cascade(column: str, target: str) -> sa.ForeignKeyConstraint:
    """A foreign key whose rows go with the row they point at."""
    return sa.ForeignKeyConstraint([column], [target], ondelete="CASCADE")


def _tables() -> None:
    """The game's tables: tables, seats, moves, chat, extras and analyses."""
    op.create_table(
        "tikki_tables",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("variant", sa.String(32), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("seed", sa.String(SEED_DIGITS), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created", sa.DateTime(), nullable=False),
        sa.Column("finished", sa.DateTime(), nullable=True),
        sa.Column("outcome", sa.JSON(), nullable=True),
        sa.Column("takeovers", sa.JSON(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        if_not_exists=True,
    )
    op.create_index("ix_tikki_tables_created", "tikki_tables", ["created"], if_not_exists=True)
    op.create_index("ix_tikki_tables_status", "tikki_tables", ["status"], if_not_exists=True)
    op.create_table(
        "tikki_seats",
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("name", sa.String(80), nullable=True),
        sa.Column("bot", sa.String(200), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.Column("invite_hash", sa.String(64), nullable=True),
        _cascade("table_id", "tikki_tables.id"),
        sa.PrimaryKeyConstraint("table_id", "seat"),
        if_not_exists=True,
    )
    op.create_table(
        "tikki_moves",
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("move", sa.String(120), nullable=False),
        sa.Column("time", sa.DateTime(), nullable=False),
        _cascade("table_id", "tikki_tables.id"),
        sa.PrimaryKeyConstraint("table_id", "seq"),
        if_not_exists=True,
    )
    op.create_table(
        "tikki_chat",
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("channel", sa.String(16), nullable=False),
        sa.Column("sender", sa.String(40), nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("phrase", sa.String(32), nullable=True),
        sa.Column("text", sa.String(400), nullable=True),
        sa.Column("time", sa.DateTime(), nullable=False),
        _cascade("table_id", "tikki_tables.id"),
        sa.PrimaryKeyConstraint("table_id", "seq"),
        if_not_exists=True,
    )
    op.create_table(
        "tikki_table_extras",
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("host_seat", sa.Integer(), nullable=True),
        sa.Column("free_text", sa.Boolean(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("settled", sa.Boolean(), nullable=False),
        _cascade("table_id", "tikki_tables.id"),
        sa.PrimaryKeyConstraint("table_id"),
        if_not_exists=True,
    )
    op.create_table(
        "tikki_analyses",
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("accuracy", sa.Float(), nullable=False),
        sa.Column("decisions", sa.Integer(), nullable=False),
        sa.Column("result", sa.JSON(), nullable=True),
        _cascade("table_id", "tikki_tables.id"),
        sa.PrimaryKeyConstraint("table_id", "seat"),
        if_not_exists=True,
    )


def _accounts() -> None:
    """Accounts, their sessions, seats, name keys and ratings."""
    op.create_table(
        "tikki_accounts",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("skeleton", sa.String(200), nullable=False),
        sa.Column("password_hash", sa.String(200), nullable=False),
        sa.Column("created", sa.DateTime(), nullable=False),
        sa.Column("private", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("skeleton"),
        if_not_exists=True,
    )
    op.create_table(
        "tikki_sessions",
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("csrf_hash", sa.String(64), nullable=False),
        sa.Column("created", sa.DateTime(), nullable=False),
        sa.Column("last_seen", sa.DateTime(), nullable=True),
        sa.Column("user_agent", sa.String(300), nullable=True),
        _cascade("account_id", "tikki_accounts.id"),
        sa.PrimaryKeyConstraint("token_hash"),
        if_not_exists=True,
    )
    op.create_index(
        "ix_tikki_sessions_account_id", "tikki_sessions", ["account_id"], if_not_exists=True
    )
    op.create_table(
        "tikki_account_seats",
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        _cascade("account_id", "tikki_accounts.id"),
        _cascade("table_id", "tikki_tables.id"),
        sa.PrimaryKeyConstraint("table_id", "seat"),
        if_not_exists=True,
    )
    op.create_index(
        "ix_tikki_account_seats_account_id",
        "tikki_account_seats",
        ["account_id"],
        if_not_exists=True,
    )
    op.create_table(
        "tikki_name_keys",
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(400), nullable=False),
        _cascade("account_id", "tikki_accounts.id"),
        sa.PrimaryKeyConstraint("account_id"),
        if_not_exists=True,
    )
    op.create_index("ix_tikki_name_keys_key", "tikki_name_keys", ["key"], if_not_exists=True)
    _ratings()


def _ratings() -> None:
    """Ratings, their changes and the addresses of rated seats."""
    op.create_table(
        "tikki_ratings",
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        _cascade("account_id", "tikki_accounts.id"),
        sa.PrimaryKeyConstraint("account_id", "game"),
        if_not_exists=True,
    )
    op.create_table(
        "tikki_rating_changes",
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("before", sa.Float(), nullable=False),
        sa.Column("after", sa.Float(), nullable=False),
        _cascade("account_id", "tikki_accounts.id"),
        _cascade("table_id", "tikki_tables.id"),
        sa.PrimaryKeyConstraint("table_id", "account_id"),
        if_not_exists=True,
    )
    op.create_table(
        "tikki_rated_addresses",
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(16), nullable=False),
        _cascade("table_id", "tikki_tables.id"),
        sa.PrimaryKeyConstraint("table_id", "seat"),
        if_not_exists=True,
    )


def upgrade() -> None:
    """Make every table and index that is missing."""
    _tables()
    _accounts()


def downgrade() -> None:
    """Drop every table (the whole schema)."""
    for name in (
        "tikki_rated_addresses",
        "tikki_rating_changes",
        "tikki_ratings",
        "tikki_name_keys",
        "tikki_account_seats",
        "tikki_sessions",
        "tikki_accounts",
        "tikki_analyses",
        "tikki_table_extras",
        "tikki_chat",
        "tikki_moves",
        "tikki_seats",
        "tikki_tables",
    ):
        op.drop_table(name)
