"""The notices' tables: each account's notifications (your turn, a challenge, a
tournament starting), and the e-mail address an account gave for them (never shown to
anyone else)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, DateTime, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from tikki.server.db import Base

ACCOUNT = "tikki_accounts.id"


class NoticeRow(Base):
    """One notification for an account: its ``kind``, what it is about (``data``), when
    it came and when the account marked it read (``None``: unread)."""

    __tablename__ = "tikki_notices"
    __table_args__ = (
        Index("ix_tikki_notices_account_id", "account_id"),
        {"sqlite_autoincrement": True},  # ids never reused: the socket reads "newer than"
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[int] = mapped_column(Integer, ForeignKey(ACCOUNT, ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(24))
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    created: Mapped[datetime] = mapped_column(DateTime)
    read: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)


class EmailRow(Base):
    """The e-mail address an account gave for its notices (checked by nothing but its
    form), whether it wants them, and the language they are written in."""

    __tablename__ = "tikki_notice_emails"

    account_id: Mapped[int] = mapped_column(
        Integer, ForeignKey(ACCOUNT, ondelete="CASCADE"), primary_key=True
    )
    address: Mapped[str] = mapped_column(String(254))
    wanted: Mapped[bool] = mapped_column(Boolean)
    lang: Mapped[str] = mapped_column(String(8))


TABLES = ("tikki_notices", "tikki_notice_emails")
"""The tables of this module (revision 0006)."""

__all__ = ["TABLES", "EmailRow", "NoticeRow"]
