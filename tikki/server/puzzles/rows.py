"""The puzzles' tables: each puzzle's rating, each account's puzzle rating, and each
account's first attempt at each puzzle (the one that was rated)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, DateTime, Float, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from tikki.server.db import Base

ACCOUNT = "tikki_accounts.id"


class PuzzleRatingRow(Base):
    """A puzzle's OpenSkill rating (mu, sigma) and its rated attempts; a puzzle without
    a row has its set's starting rating."""

    __tablename__ = "tikki_puzzle_ratings"

    puzzle_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    attempts: Mapped[int] = mapped_column(Integer, default=0)


class PuzzlePlayerRow(Base):
    """An account's puzzle rating (one for every game's puzzles) and its rated attempts."""

    __tablename__ = "tikki_puzzle_players"

    account_id: Mapped[int] = mapped_column(
        Integer, ForeignKey(ACCOUNT, ondelete="CASCADE"), primary_key=True
    )
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    attempts: Mapped[int] = mapped_column(Integer, default=0)


class PuzzleAttemptRow(Base):
    """An account's first attempt at a puzzle: the moves, whether they solved it, and the shown
    puzzle rating (ordinal) before and after it."""

    __tablename__ = "tikki_puzzle_attempts"

    account_id: Mapped[int] = mapped_column(
        Integer, ForeignKey(ACCOUNT, ondelete="CASCADE"), primary_key=True
    )
    puzzle_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    moves: Mapped[list[Any]] = mapped_column(JSON)
    solved: Mapped[bool] = mapped_column(Boolean)
    created: Mapped[datetime] = mapped_column(DateTime)
    before: Mapped[float] = mapped_column(Float)
    after: Mapped[float] = mapped_column(Float)


TABLES = ("tikki_puzzle_ratings", "tikki_puzzle_players", "tikki_puzzle_attempts")
"""The tables of this module (revision 0005)."""

__all__ = ["TABLES", "PuzzleAttemptRow", "PuzzlePlayerRow", "PuzzleRatingRow"]
