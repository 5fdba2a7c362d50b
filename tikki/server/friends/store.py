"""The friends' storage: follows, blocks, challenges and presence, one short
transaction per call (synchronous: the routes run them in a worker thread).

Presence is kept in the database, so that every process of a cluster reads the same:
each live socket of a signed-in account has a row that it refreshes every
:data:`BEAT` seconds and deletes when it closes; an account is online while one of its
rows is younger than :data:`FRESH` (a process that dies leaves rows that go stale)."""

from __future__ import annotations

import hashlib
import json
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Connection, Engine, and_, delete, func, insert, or_, select, update

from tikki.server.db import AccountRow, AccountSeatRow, TableRow, now
from tikki.server.friends.rows import BlockRow, ChallengeRow, FollowRow, PresenceRow

BEAT = 20.0
"""Seconds between a live socket's presence refreshes."""
FRESH = timedelta(seconds=3 * BEAT)
"""How old a presence row may be and still count as online."""
CHALLENGE_LIFE = timedelta(minutes=15)
"""How long an open challenge waits for its answer (then it has expired)."""
ORIGIN = "origin"
"""The key of a challenge's options that holds the digest of its sender's address
(shown to nobody)."""
LIVE = ("waiting", "playing")
"""The statuses of a table a person can be at."""


@dataclass(frozen=True)
class Person:
    """An account as the friends' routes name it."""

    id: int
    name: str


def iso(moment: datetime | None) -> str | None:
    """A stored time as ISO text (UTC), or ``None``."""
    return None if moment is None else moment.isoformat(timespec="seconds") + "Z"


class Friends:
    """Follows, blocks, challenges and presence in the server's database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # ------------------------------------------------------------------ accounts

    def person(self, skeleton: str) -> Person | None:
        """The account whose name has this skeleton (:func:`~tikki.server.accounts.skeleton`)."""
        with self.engine.connect() as connection:
            row = connection.execute(
                select(AccountRow.id, AccountRow.name).where(AccountRow.skeleton == skeleton)
            ).first()
        return None if row is None else Person(row.id, row.name)

    # ------------------------------------------------------------------ follows and blocks

    def follow(self, follower: int, followee: int) -> None:
        """``follower`` follows ``followee`` (again: no change)."""
        values = {"follower_id": follower, "followee_id": followee, "created": now()}
        with self.engine.begin() as connection:
            _add_once(connection, FollowRow, values, "follower_id", "followee_id")

    def unfollow(self, follower: int, followee: int) -> None:
        """``follower`` no longer follows ``followee``."""
        with self.engine.begin() as connection:
            connection.execute(
                delete(FollowRow).where(
                    FollowRow.follower_id == follower, FollowRow.followee_id == followee
                )
            )

    def block(self, blocker: int, blocked: int) -> None:
        """``blocker`` blocks ``blocked``: the follows between them end both ways and the
        open challenges between them are cancelled."""
        moment = now()
        with self.engine.begin() as connection:
            values = {"blocker_id": blocker, "blocked_id": blocked, "created": moment}
            _add_once(connection, BlockRow, values, "blocker_id", "blocked_id")
            connection.execute(delete(FollowRow).where(_pair(FollowRow, blocker, blocked)))
            connection.execute(
                update(ChallengeRow)
                .where(ChallengeRow.state == "open", _between(blocker, blocked))
                .values(state="cancelled", answered=moment)
            )

    def unblock(self, blocker: int, blocked: int) -> None:
        """``blocker`` no longer blocks ``blocked``."""
        with self.engine.begin() as connection:
            connection.execute(
                delete(BlockRow).where(
                    BlockRow.blocker_id == blocker, BlockRow.blocked_id == blocked
                )
            )

    def blocks(self, account: int, other: int) -> tuple[bool, bool]:
        """Whether ``account`` blocked ``other``, and whether ``other`` blocked it."""
        with self.engine.connect() as connection:
            rows = connection.execute(
                select(BlockRow.blocker_id).where(_pair(BlockRow, account, other))
            ).all()
        blockers = {r.blocker_id for r in rows}
        return account in blockers, other in blockers

    def shunned(self, account: int) -> set[int]:
        """The accounts ``account`` blocked or that blocked it."""
        with self.engine.connect() as connection:
            rows = connection.execute(
                select(BlockRow.blocker_id, BlockRow.blocked_id).where(
                    or_(BlockRow.blocker_id == account, BlockRow.blocked_id == account)
                )
            ).all()
        return {r.blocked_id if r.blocker_id == account else r.blocker_id for r in rows}

    def blocked_pairs(self, accounts: list[int]) -> set[frozenset[int]]:
        """The pairs of ``accounts`` with a block between them (either way)."""
        if len(accounts) < 2:
            return set()
        with self.engine.connect() as connection:
            rows = connection.execute(
                select(BlockRow.blocker_id, BlockRow.blocked_id).where(
                    BlockRow.blocker_id.in_(accounts), BlockRow.blocked_id.in_(accounts)
                )
            ).all()
        return {frozenset((r.blocker_id, r.blocked_id)) for r in rows}

    def seated(self, table_id: str) -> dict[int, int]:
        """The accounts seated at a table, by seat."""
        with self.engine.connect() as connection:
            rows = connection.execute(
                select(AccountSeatRow.seat, AccountSeatRow.account_id).where(
                    AccountSeatRow.table_id == table_id
                )
            ).all()
        return {r.seat: r.account_id for r in rows}

    # ------------------------------------------------------------------ the list

    def listing(self, account: int) -> dict[str, Any]:
        """What the friends panel shows: the accounts followed (online, at which table,
        whether they follow back), the followers, the blocked, and the challenges."""
        with self.engine.connect() as connection:
            followed = connection.execute(
                select(AccountRow.id, AccountRow.name)
                .join(FollowRow, FollowRow.followee_id == AccountRow.id)
                .where(FollowRow.follower_id == account)
                .order_by(func.lower(AccountRow.name))
            ).all()
            followers = {
                r.id: r.name
                for r in connection.execute(
                    select(AccountRow.id, AccountRow.name)
                    .join(FollowRow, FollowRow.follower_id == AccountRow.id)
                    .where(FollowRow.followee_id == account)
                    .order_by(func.lower(AccountRow.name))
                ).all()
            }
            blocked = connection.execute(
                select(AccountRow.name)
                .join(BlockRow, BlockRow.blocked_id == AccountRow.id)
                .where(BlockRow.blocker_id == account)
                .order_by(func.lower(AccountRow.name))
            ).all()
            where = _whereabouts(connection, [r.id for r in followed])
        return {
            "following": [
                {"name": r.name, "follows_you": r.id in followers, **where.get(r.id, _OFFLINE)}
                for r in followed
            ],
            "followers": list(followers.values()),
            "blocked": [r.name for r in blocked],
            **self.challenges(account),
        }

    # ------------------------------------------------------------------ challenges

    def challenges(self, account: int) -> dict[str, list[dict[str, Any]]]:
        """The account's challenges: open ones to it (``incoming``), and its own that are
        open or accepted with a seat still to take (``outgoing``)."""
        fresh = now() - CHALLENGE_LIFE
        with self.engine.connect() as connection:
            rows = connection.execute(
                _challenge_query().where(
                    or_(
                        and_(
                            ChallengeRow.state == "open",
                            ChallengeRow.created > fresh,
                            or_(ChallengeRow.to_id == account, ChallengeRow.from_id == account),
                        ),
                        and_(
                            ChallengeRow.from_id == account,
                            ChallengeRow.state == "accepted",
                            ChallengeRow.seat_token.is_not(None),
                        ),
                    )
                )
            ).all()
        incoming = [_challenge_json(r) for r in rows if r.to_id == account]
        outgoing = [_challenge_json(r) for r in rows if r.from_id == account]
        return {"incoming": incoming, "outgoing": outgoing}

    def open_counts(self, sender: int, receiver: int) -> tuple[int, int, int]:
        """Open challenges: the sender's, the receiver's incoming, and the sender's to
        the receiver."""
        fresh = now() - CHALLENGE_LIFE
        with self.engine.connect() as connection:
            rows = connection.execute(
                select(ChallengeRow.from_id, ChallengeRow.to_id).where(
                    ChallengeRow.state == "open",
                    ChallengeRow.created > fresh,
                    or_(ChallengeRow.from_id == sender, ChallengeRow.to_id == receiver),
                )
            ).all()
        mine = sum(r.from_id == sender for r in rows)
        theirs = sum(r.to_id == receiver for r in rows)
        pair = sum(r.from_id == sender and r.to_id == receiver for r in rows)
        return mine, theirs, pair

    def waiting_from(self, receiver: int, origin: str) -> list[datetime]:
        """When each open challenge waiting for ``receiver`` from the address ``origin``
        (a digest, :data:`ORIGIN` in its options) was made."""
        fresh = now() - CHALLENGE_LIFE
        with self.engine.connect() as connection:
            rows = connection.execute(
                select(ChallengeRow.options, ChallengeRow.created).where(
                    ChallengeRow.state == "open",
                    ChallengeRow.created > fresh,
                    ChallengeRow.to_id == receiver,
                )
            ).all()
        return [r.created for r in rows if (r.options or {}).get(ORIGIN) == origin]

    def add_challenge(self, sender: int, receiver: int, options: dict[str, Any]) -> str:
        """Store an open challenge; its id."""
        challenge_id = secrets.token_hex(6)
        with self.engine.begin() as connection:
            connection.execute(
                insert(ChallengeRow),
                {
                    "id": challenge_id,
                    "from_id": sender,
                    "to_id": receiver,
                    "options": options,
                    "state": "open",
                    "created": now(),
                },
            )
        return challenge_id

    def challenge(self, challenge_id: str) -> dict[str, Any] | None:
        """One challenge (with its parties' ids, and whether it is still open), or ``None``."""
        with self.engine.connect() as connection:
            row = connection.execute(
                _challenge_query().where(ChallengeRow.id == challenge_id)
            ).first()
        if row is None:
            return None
        expired = row.state == "open" and row.created <= now() - CHALLENGE_LIFE
        return {
            **_challenge_json(row),
            "from_id": row.from_id,
            "to_id": row.to_id,
            "state": "expired" if expired else row.state,
        }

    def answer(self, challenge_id: str, state: str) -> bool:
        """Move an open challenge to ``state`` (``accepted`` claims it: one answer only);
        whether it was still open."""
        fresh = now() - CHALLENGE_LIFE
        with self.engine.begin() as connection:
            result = connection.execute(
                update(ChallengeRow)
                .where(
                    ChallengeRow.id == challenge_id,
                    ChallengeRow.state == "open",
                    ChallengeRow.created > fresh,
                )
                .values(state=state, answered=now())
            )
        return bool(result.rowcount)

    def reopen(self, challenge_id: str) -> None:
        """An accepted challenge whose table could not be made waits again."""
        with self.engine.begin() as connection:
            connection.execute(
                update(ChallengeRow)
                .where(
                    ChallengeRow.id == challenge_id,
                    ChallengeRow.state == "accepted",
                    ChallengeRow.table_id.is_(None),
                )
                .values(state="open", answered=None)
            )

    def seat(self, challenge_id: str, table_id: str, token: str | None) -> None:
        """An accepted challenge's table, and the challenger's seat token to take."""
        with self.engine.begin() as connection:
            connection.execute(
                update(ChallengeRow)
                .where(ChallengeRow.id == challenge_id)
                .values(table_id=table_id, seat_token=token)
            )

    def take_seat(self, challenge_id: str, account: int) -> tuple[str, str] | None:
        """The challenger takes the seat of an accepted challenge: its table and token,
        given once (``None``: none to take)."""
        with self.engine.begin() as connection:
            row = connection.execute(
                select(ChallengeRow.table_id, ChallengeRow.seat_token).where(
                    ChallengeRow.id == challenge_id,
                    ChallengeRow.from_id == account,
                    ChallengeRow.state == "accepted",
                    ChallengeRow.seat_token.is_not(None),
                )
            ).first()
            if row is None or row.table_id is None:
                return None
            connection.execute(
                update(ChallengeRow).where(ChallengeRow.id == challenge_id).values(seat_token=None)
            )
        return row.table_id, row.seat_token

    # ------------------------------------------------------------------ presence

    def arrive(self, account: int, table_id: str | None) -> str:
        """A socket of ``account`` opened (at ``table_id``); its presence row's id."""
        key = secrets.token_hex(16)
        with self.engine.begin() as connection:
            connection.execute(
                insert(PresenceRow),
                {"id": key, "account_id": account, "table_id": table_id, "seen": now()},
            )
        return key

    def beat(self, key: str) -> None:
        """The socket of this presence row is still open."""
        with self.engine.begin() as connection:
            connection.execute(update(PresenceRow).where(PresenceRow.id == key).values(seen=now()))

    def leave(self, key: str) -> None:
        """The socket of this presence row closed (stale rows go with it)."""
        with self.engine.begin() as connection:
            connection.execute(
                delete(PresenceRow).where(
                    or_(PresenceRow.id == key, PresenceRow.seen < now() - 10 * FRESH)
                )
            )

    @staticmethod
    def digest_of(listing: dict[str, Any]) -> str:
        """A digest of what a friends panel shows (:meth:`listing`): it changes when a
        challenge comes, is answered or withdrawn, or a followed account comes, goes or
        sits down."""
        return hashlib.sha256(json.dumps(listing, sort_keys=True).encode()).hexdigest()[:16]


_OFFLINE: dict[str, Any] = {"online": False, "table": None}


def _pair(model: Any, one: int, other: int) -> Any:
    """Rows of a pair table between two accounts, either way."""
    first, second = model.__table__.primary_key.columns
    return or_(
        and_(first == one, second == other),
        and_(first == other, second == one),
    )


def _between(one: int, other: int) -> Any:
    """Challenges between two accounts, either way."""
    return or_(
        and_(ChallengeRow.from_id == one, ChallengeRow.to_id == other),
        and_(ChallengeRow.from_id == other, ChallengeRow.to_id == one),
    )


def _whereabouts(connection: Any, accounts: list[int]) -> dict[int, dict[str, Any]]:
    """The online accounts among ``accounts``, each with the live table its socket is
    open at where it holds a seat there (else ``None``)."""
    if not accounts:
        return {}
    live = connection.execute(
        select(PresenceRow.account_id, PresenceRow.table_id).where(
            PresenceRow.account_id.in_(accounts), PresenceRow.seen > now() - FRESH
        )
    ).all()
    out: dict[int, dict[str, Any]] = {r.account_id: {"online": True, "table": None} for r in live}
    asked = {(r.account_id, r.table_id) for r in live if r.table_id is not None}
    if asked:
        seats = connection.execute(
            select(AccountSeatRow.account_id, TableRow.id, TableRow.game)
            .join(TableRow, TableRow.id == AccountSeatRow.table_id)
            .where(
                AccountSeatRow.table_id.in_({t for _a, t in asked}),
                AccountSeatRow.account_id.in_({a for a, _t in asked}),
                TableRow.status.in_(LIVE),
            )
        ).all()
        for r in seats:
            if (r.account_id, r.id) in asked:
                out[r.account_id]["table"] = {"id": r.id, "game": r.game}
    return out


def _challenge_query() -> Any:
    """Challenges with their parties' names."""
    sender = AccountRow.__table__.alias("sender")
    receiver = AccountRow.__table__.alias("receiver")
    return (
        select(
            *ChallengeRow.__table__.c,
            sender.c.name.label("from_name"),
            receiver.c.name.label("to_name"),
        )
        .join(sender, sender.c.id == ChallengeRow.from_id)
        .join(receiver, receiver.c.id == ChallengeRow.to_id)
        .order_by(ChallengeRow.created.desc(), ChallengeRow.id)
    )


def _challenge_json(row: Any) -> dict[str, Any]:
    """A challenge as the API answers it."""
    return {
        "id": row.id,
        "from": row.from_name,
        "to": row.to_name,
        "options": {k: v for k, v in (row.options or {}).items() if k != ORIGIN},
        "state": row.state,
        "created": iso(row.created),
        "expires": iso(row.created + CHALLENGE_LIFE),
        "table": row.table_id,
    }


__all__ = ["BEAT", "CHALLENGE_LIFE", "FRESH", "ORIGIN", "Friends", "Person"]


def _add_once(connection: Connection, row: Any, values: dict[str, Any], *key: str) -> None:
    """Insert ``values`` as a ``row`` unless one with the same ``key`` columns is there."""
    match = [getattr(row, name) == values[name] for name in key]
    if connection.execute(select(getattr(row, key[0])).where(*match)).first() is None:
        connection.execute(insert(row), values)
