"""The notices' storage, :class:`Notices`: one short transaction per call (synchronous:
callers run them in a worker thread).

Flood limits live here, so that every caller has them: a notice from another account
(``sender``) is dropped while a block stands between the two, a ``your_turn`` notice is
not stored again while one for the same table is unread, and an account keeps at most
:data:`KEEP` notices (the oldest go)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Engine, and_, delete, func, insert, or_, select, update

from tikki.server.db import now
from tikki.server.friends.rows import BlockRow
from tikki.server.notices.rows import EmailRow, NoticeRow

KEEP = 200
"""Notices one account keeps (the oldest go first)."""
SHOWN = 50
"""Notices the list shows (the newest)."""


@dataclass(frozen=True)
class Added:
    """A stored notice: its id, and whether it is new (not the replacement of the same
    table's unread ``your_turn``)."""

    id: int
    fresh: bool


@dataclass(frozen=True)
class Address:
    """Where an account's e-mail notices go, in which language."""

    address: str
    lang: str


def iso(row: Any) -> dict[str, Any]:
    """A notice as the API answers it."""
    return {
        "id": row.id,
        "kind": row.kind,
        "data": row.data,
        "created": row.created.isoformat(timespec="seconds") + "Z",
        "read": row.read is not None,
    }


class Notices:
    """Each account's notices and e-mail setting in the server's database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def add(
        self, account: int, kind: str, data: dict[str, Any], sender: int | None = None
    ) -> Added | None:
        """Store a notice (``None``: dropped, for a block between ``sender`` and
        ``account``).  A ``your_turn`` notice replaces the same table's earlier one: an
        unread count does not grow, and the page still learns of the new turn."""
        with self.engine.begin() as connection:
            if sender is not None and _blocked(connection, account, sender):
                return None
            replaced = kind == "your_turn" and _unread_turn(connection, account, data.get("table"))
            values = {"account_id": account, "kind": kind, "data": data, "created": now()}
            added = connection.execute(insert(NoticeRow).values(values)).inserted_primary_key
            notice_id = int(added[0]) if added is not None else 0
            _prune(connection, account)
        return Added(notice_id, not replaced)

    def listing(self, account: int, limit: int = SHOWN) -> dict[str, Any]:
        """The newest notices (``notices``) and how many are unread (``unread``)."""
        with self.engine.connect() as connection:
            rows = connection.execute(
                select(NoticeRow)
                .where(NoticeRow.account_id == account)
                .order_by(NoticeRow.id.desc())
                .limit(limit)
            ).all()
            unread = connection.execute(
                select(func.count()).where(
                    NoticeRow.account_id == account, NoticeRow.read.is_(None)
                )
            ).scalar_one()
        return {"unread": int(unread), "notices": [iso(r) for r in rows]}

    def unread(self, account: int) -> tuple[int, list[int]]:
        """How many of the account's notices are unread, and the ids of the newest
        :data:`SHOWN` of them, newest first."""
        where = (NoticeRow.account_id == account, NoticeRow.read.is_(None))
        with self.engine.connect() as connection:
            count = connection.execute(select(func.count()).where(*where)).scalar_one()
            ids = connection.execute(
                select(NoticeRow.id).where(*where).order_by(NoticeRow.id.desc()).limit(SHOWN)
            ).scalars()
            return int(count), [int(i) for i in ids]

    def after(self, account: int, last: int) -> list[dict[str, Any]]:
        """The account's notices newer than the id ``last``, oldest first."""
        with self.engine.connect() as connection:
            rows = connection.execute(
                select(NoticeRow)
                .where(NoticeRow.account_id == account, NoticeRow.id > last)
                .order_by(NoticeRow.id)
                .limit(SHOWN)
            ).all()
        return [iso(r) for r in rows]

    def newest(self, account: int) -> int:
        """The id of the account's newest notice (0: none)."""
        with self.engine.connect() as connection:
            found = connection.execute(
                select(func.max(NoticeRow.id)).where(NoticeRow.account_id == account)
            ).scalar_one()
        return int(found or 0)

    def mark_read(self, account: int, ids: list[int] | None) -> int:
        """Mark the account's notices ``ids`` (``None``: all) read; how many changed.
        Another account's ids change nothing."""
        where = [NoticeRow.account_id == account, NoticeRow.read.is_(None)]
        if ids is not None:
            where.append(NoticeRow.id.in_(ids))
        with self.engine.begin() as connection:
            result = connection.execute(update(NoticeRow).where(*where).values(read=now()))
        return int(result.rowcount)

    def read_turns(self, account: int, table: str) -> int:
        """Mark the account's unread ``your_turn`` notices of ``table`` read (its
        person opened the table); how many changed."""
        with self.engine.begin() as connection:
            rows = connection.execute(
                select(NoticeRow.id, NoticeRow.data).where(
                    NoticeRow.account_id == account,
                    NoticeRow.kind == "your_turn",
                    NoticeRow.read.is_(None),
                )
            ).all()
            ids = [r.id for r in rows if r.data.get("table") == table]
            if ids:
                connection.execute(
                    update(NoticeRow).where(NoticeRow.id.in_(ids)).values(read=now())
                )
        return len(ids)

    # ------------------------------------------------------------------ e-mail

    def email(self, account: int) -> dict[str, Any]:
        """The account's own e-mail setting: ``{address, wanted}`` (``None``: none given)."""
        with self.engine.connect() as connection:
            row = connection.execute(select(EmailRow).where(EmailRow.account_id == account)).first()
        if row is None:
            return {"address": None, "wanted": False}
        return {"address": row.address, "wanted": row.wanted}

    def set_email(self, account: int, address: str | None, wanted: bool, lang: str) -> None:
        """Keep (or with ``None`` forget) the account's address and whether it wants mail."""
        with self.engine.begin() as connection:
            connection.execute(delete(EmailRow).where(EmailRow.account_id == account))
            if address is not None:
                values = {"account_id": account, "address": address, "wanted": wanted}
                connection.execute(insert(EmailRow), {**values, "lang": lang})

    def mail_to(self, account: int) -> Address | None:
        """Where the account's notices go by e-mail (``None``: it wants none)."""
        with self.engine.connect() as connection:
            row = connection.execute(
                select(EmailRow.address, EmailRow.lang).where(
                    EmailRow.account_id == account, EmailRow.wanted.is_(True)
                )
            ).first()
        return None if row is None else Address(row.address, row.lang)


def _blocked(connection: Connection, one: int, other: int) -> bool:
    """Whether either account blocked the other."""
    pair = or_(
        and_(BlockRow.blocker_id == one, BlockRow.blocked_id == other),
        and_(BlockRow.blocker_id == other, BlockRow.blocked_id == one),
    )
    return connection.execute(select(BlockRow.blocker_id).where(pair)).first() is not None


def _unread_turn(connection: Connection, account: int, table: object) -> bool:
    """Remove the earlier ``your_turn`` notices for ``table`` (the list keeps one a
    table); whether one of them was unread."""
    rows = connection.execute(
        select(NoticeRow.id, NoticeRow.data, NoticeRow.read).where(
            NoticeRow.account_id == account, NoticeRow.kind == "your_turn"
        )
    ).all()
    gone = [r for r in rows if r.data.get("table") == table]
    if gone:
        connection.execute(delete(NoticeRow).where(NoticeRow.id.in_([r.id for r in gone])))
    return any(r.read is None for r in gone)


def _prune(connection: Connection, account: int) -> None:
    """Keep the account's newest :data:`KEEP` notices."""
    cut = connection.execute(
        select(NoticeRow.id)
        .where(NoticeRow.account_id == account)
        .order_by(NoticeRow.id.desc())
        .offset(KEEP)
        .limit(1)
    ).scalar()
    if cut is not None:
        connection.execute(
            delete(NoticeRow).where(NoticeRow.account_id == account, NoticeRow.id <= cut)
        )


__all__ = ["KEEP", "SHOWN", "Added", "Address", "Notices"]
