"""The tournaments' tables: a tournament, its entrants (accounts and bots) and its games
(one row a table: its round, its entrants by seat, the table made for it and the points
each seat scored) and when it was seated, by the tournaments' clock)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, ForeignKey, Index, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from tikki.server.db import Base

ACCOUNT = "tikki_accounts.id"
TOURNAMENT = "tikki_tournaments.id"


class TournamentRow(Base):
    """A tournament: ``kind`` ``swiss`` (``rounds``) or ``arena`` (``minutes``); the game
    and the table's options (``settings``: variant, options, turn timer); ``status``
    ``open`` (taking entrants), ``running``, ``finished`` or ``cancelled``; ``round``,
    the Swiss round under way (0 before the first); ``lease_node`` and ``lease_until``,
    the process running it now and until when (another takes over after)."""

    __tablename__ = "tikki_tournaments"
    __table_args__ = (Index("ix_tikki_tournaments_status", "status"),)

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    creator_id: Mapped[int] = mapped_column(Integer, ForeignKey(ACCOUNT, ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(8))
    game: Mapped[str] = mapped_column(String(32))
    players: Mapped[int] = mapped_column(Integer)
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    rounds: Mapped[int | None] = mapped_column(Integer, nullable=True)
    minutes: Mapped[int | None] = mapped_column(Integer, nullable=True)
    cap: Mapped[int] = mapped_column(Integer)
    starts: Mapped[datetime] = mapped_column(DateTime)
    created: Mapped[datetime] = mapped_column(DateTime)
    status: Mapped[str] = mapped_column(String(12))
    round: Mapped[int] = mapped_column(Integer, default=0)
    lease_node: Mapped[str | None] = mapped_column(String(120), nullable=True)
    lease_until: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)


class EntrantRow(Base):
    """An entrant: an account (``account_id``) or a bot (``bot``: its spec), with the
    name shown in the standings."""

    __tablename__ = "tikki_tournament_entrants"
    __table_args__ = (
        UniqueConstraint("tournament_id", "account_id"),
        Index("ix_tikki_tournament_entrants_account_id", "account_id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[str] = mapped_column(
        String(16), ForeignKey(TOURNAMENT, ondelete="CASCADE"), index=True
    )
    account_id: Mapped[int | None] = mapped_column(
        Integer, ForeignKey(ACCOUNT, ondelete="CASCADE"), nullable=True
    )
    bot: Mapped[str | None] = mapped_column(String(200), nullable=True)
    name: Mapped[str] = mapped_column(String(80))
    joined: Mapped[datetime] = mapped_column(DateTime)


class GameRow(Base):
    """One table of a tournament: its ``round`` (an arena's: the order it was made in),
    the entrants by seat (``seats``), the table made for it (``table_id``, noted with
    the claim to make it, before it is made; ``claimed``: when a process began making
    it, cleared once it is made and its people seated), the people's seat tokens
    (``tokens``, seat → token, chosen with the claim, each given only to its account)
    and each seat's points and place once finished."""

    __tablename__ = "tikki_tournament_games"
    __table_args__ = (UniqueConstraint("tournament_id", "round", "number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[str] = mapped_column(
        String(16), ForeignKey(TOURNAMENT, ondelete="CASCADE"), index=True
    )
    round: Mapped[int] = mapped_column(Integer)
    number: Mapped[int] = mapped_column(Integer)
    seats: Mapped[list[int]] = mapped_column(JSON)
    table_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    claimed: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    tokens: Mapped[dict[str, str] | None] = mapped_column(JSON, nullable=True)
    points: Mapped[list[float] | None] = mapped_column(JSON, nullable=True)
    places: Mapped[list[float] | None] = mapped_column(JSON, nullable=True)
    created: Mapped[datetime] = mapped_column(DateTime)


class ByeRow(Base):
    """An entrant who sat out a Swiss round (a bye)."""

    __tablename__ = "tikki_tournament_byes"

    tournament_id: Mapped[str] = mapped_column(
        String(16), ForeignKey(TOURNAMENT, ondelete="CASCADE"), primary_key=True
    )
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    entrant_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("tikki_tournament_entrants.id", ondelete="CASCADE"), primary_key=True
    )


TABLES = (
    "tikki_tournaments",
    "tikki_tournament_entrants",
    "tikki_tournament_games",
    "tikki_tournament_byes",
)
"""The tables of this module (revision 0007)."""

__all__ = ["TABLES", "ByeRow", "EntrantRow", "GameRow", "TournamentRow"]
