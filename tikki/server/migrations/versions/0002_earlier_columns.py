"""The columns of a database made by an earlier version, brought to the baseline's: the
seed from a 64-bit integer to its decimal text, the bot spec from 120 to 200 characters
(PostgreSQL only: SQLite does not enforce a text's length), the seats' invite hashes (the
open seats of earlier tables stay open to anyone), the tables' stand-in bots, the
sessions' last use and browser, and the analyses' kept results.

What the start-up of the versions before migrations did in place; on a database made by
the baseline it changes nothing.

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

SEED_DIGITS = 39
BOT_SPEC_MAX = 200
USER_AGENT_MAX = 300


def _columns(inspector: sa.Inspector, table: str) -> dict[str, dict[str, object]]:
    """A table's columns by name, as the inspector reads them."""
    return {str(c["name"]): dict(c) for c in inspector.get_columns(table)}


def _added(inspector: sa.Inspector, timestamp: str) -> list[str]:
    """The statements adding the columns an earlier version lacked."""
    wanted = [
        ("tikki_tables", "takeovers", "JSON"),
        ("tikki_seats", "invite_hash", "VARCHAR(64)"),
        ("tikki_sessions", "last_seen", timestamp),
        ("tikki_sessions", "user_agent", f"VARCHAR({USER_AGENT_MAX})"),
        ("tikki_analyses", "result", "JSON"),
    ]
    return [
        f"ALTER TABLE {table} ADD COLUMN {column} {kind}"
        for table, column, kind in wanted
        if column not in _columns(inspector, table)
    ]


def _widened(inspector: sa.Inspector, sqlite: bool) -> list[str]:
    """The statements widening the seed (integer to text) and the bot spec."""
    seed = _columns(inspector, "tikki_tables")["seed"]["type"]
    steps: list[str] = []
    if isinstance(seed, sa.Integer) and sqlite:
        steps += [
            "ALTER TABLE tikki_tables RENAME COLUMN seed TO seed_int",
            f"ALTER TABLE tikki_tables ADD COLUMN seed VARCHAR({SEED_DIGITS})",
            "UPDATE tikki_tables SET seed = CAST(seed_int AS TEXT)",
            "ALTER TABLE tikki_tables DROP COLUMN seed_int",
        ]
    elif isinstance(seed, sa.Integer):
        steps.append(
            f"ALTER TABLE tikki_tables ALTER COLUMN seed TYPE VARCHAR({SEED_DIGITS}) "
            "USING seed::text"
        )
    bot = _columns(inspector, "tikki_seats")["bot"]["type"]
    if not sqlite and (getattr(bot, "length", None) or BOT_SPEC_MAX) < BOT_SPEC_MAX:
        steps.append(f"ALTER TABLE tikki_seats ALTER COLUMN bot TYPE VARCHAR({BOT_SPEC_MAX})")
    return steps


def upgrade() -> None:
    """Add and widen whatever an earlier version's database lacks."""
    connection = op.get_bind()
    inspector = sa.inspect(connection)
    sqlite = connection.dialect.name == "sqlite"
    timestamp = "DATETIME" if sqlite else "TIMESTAMP WITHOUT TIME ZONE"
    for step in _added(inspector, timestamp) + _widened(inspector, sqlite):
        connection.exec_driver_sql(step)


def downgrade() -> None:
    """Nothing: the baseline has these columns too."""
