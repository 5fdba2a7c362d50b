"""The friends' tables: who follows whom, who blocked whom, the challenges and where
each signed-in account has a live socket (its presence, read by every process)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from tikki.server.db import Base

ACCOUNT = "tikki_accounts.id"


class FollowRow(Base):
    """An account (``follower_id``) follows another (``followee_id``)."""

    __tablename__ = "tikki_follows"

    follower_id: Mapped[int] = mapped_column(
        Integer, ForeignKey(ACCOUNT, ondelete="CASCADE"), primary_key=True
    )
    followee_id: Mapped[int] = mapped_column(
        Integer, ForeignKey(ACCOUNT, ondelete="CASCADE"), primary_key=True
    )
    created: Mapped[datetime] = mapped_column(DateTime)


class BlockRow(Base):
    """An account (``blocker_id``) blocked another (``blocked_id``)."""

    __tablename__ = "tikki_blocks"

    blocker_id: Mapped[int] = mapped_column(
        Integer, ForeignKey(ACCOUNT, ondelete="CASCADE"), primary_key=True
    )
    blocked_id: Mapped[int] = mapped_column(
        Integer, ForeignKey(ACCOUNT, ondelete="CASCADE"), primary_key=True
    )
    created: Mapped[datetime] = mapped_column(DateTime)


class ChallengeRow(Base):
    """A challenge from one account to another to a table with chosen options: its
    state (``open``, ``accepted``, ``declined``, ``cancelled``), the table an accepted
    one made, and the challenger's seat token there until the challenger takes it."""

    __tablename__ = "tikki_challenges"
    __table_args__ = (
        Index("ix_tikki_challenges_from_id", "from_id"),
        Index("ix_tikki_challenges_to_id", "to_id"),
    )

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    from_id: Mapped[int] = mapped_column(Integer, ForeignKey(ACCOUNT, ondelete="CASCADE"))
    to_id: Mapped[int] = mapped_column(Integer, ForeignKey(ACCOUNT, ondelete="CASCADE"))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    state: Mapped[str] = mapped_column(String(12))
    created: Mapped[datetime] = mapped_column(DateTime)
    answered: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    table_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    seat_token: Mapped[str | None] = mapped_column(String(64), nullable=True)


class PresenceRow(Base):
    """One live socket of a signed-in account, on any process: the table it is open on
    (``None``: the lobby or a profile) and when the socket last said it is alive."""

    __tablename__ = "tikki_presence"
    __table_args__ = (Index("ix_tikki_presence_account_id", "account_id"),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    account_id: Mapped[int] = mapped_column(Integer, ForeignKey(ACCOUNT, ondelete="CASCADE"))
    table_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    seen: Mapped[datetime] = mapped_column(DateTime)


TABLES = ("tikki_follows", "tikki_blocks", "tikki_challenges", "tikki_presence")
"""The tables of this module (revision 0004)."""

__all__ = ["TABLES", "BlockRow", "ChallengeRow", "FollowRow", "PresenceRow"]
