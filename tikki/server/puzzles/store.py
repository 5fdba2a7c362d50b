"""The puzzles' storage: puzzle ratings, the accounts' puzzle ratings and their rated
attempts, one short transaction per call (synchronous: the routes run them in a worker
thread).

An attempt by an account is a match between the account and the puzzle, rated by
OpenSkill's Plackett–Luce model (the games' model, :mod:`tikki.server.ratings`): solved,
the account places first; missed, the puzzle does.  Only an account's first attempt at a
puzzle is rated: the attempt row's key (account, puzzle) makes a second one, even two at
once from two processes, a retry that changes nothing.  The rows are locked (PostgreSQL)
while they are read and written, account first, so that no update is lost."""

from __future__ import annotations

import functools
import threading
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Engine, insert, select, update
from sqlalchemy.exc import IntegrityError

from tikki.server.db import now
from tikki.server.puzzles.catalogue import Puzzle
from tikki.server.puzzles.rows import PuzzleAttemptRow, PuzzlePlayerRow, PuzzleRatingRow
from tikki.server.ratings import ordinal, provisional

TRIES = 3
"""Times a rated attempt is tried when another process made the same new row at once."""


@functools.cache
def _model() -> Any:
    from openskill.models import PlackettLuce

    return PlackettLuce()


@dataclass(frozen=True)
class Rating:
    """A rating (mu, sigma) and its rated attempts."""

    mu: float
    sigma: float
    attempts: int

    def json(self) -> dict[str, Any]:
        """The rating as the API shows it (``rating``: mu − 3 sigma, as the games')."""
        return {
            "rating": round(ordinal(self.mu, self.sigma), 2),
            "mu": round(self.mu, 3),
            "sigma": round(self.sigma, 3),
            "attempts": self.attempts,
            "provisional": provisional(self.attempts, self.sigma),
        }


@dataclass(frozen=True)
class Rated:
    """What an account's attempt did: whether it was the first (rated), the account's
    rating before and after, and the puzzle's rating after."""

    first: bool
    before: Rating
    after: Rating
    puzzle: Rating


def new_player() -> Rating:
    """A new account's puzzle rating (OpenSkill's default)."""
    r = _model().rating()
    return Rating(float(r.mu), float(r.sigma), 0)


class PuzzleStore:
    """Puzzle ratings and attempts in the server's database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._rating = threading.Lock()
        """One rating at a time in this process: SQLite ignores ``FOR UPDATE``, so two
        first attempts at one puzzle read the same rating and the later write lost the
        earlier (PostgreSQL's row locks order them across processes too)."""

    def puzzle_rating(self, puzzle: Puzzle) -> Rating:
        """A puzzle's rating now (its set's starting rating until it was attempted)."""
        with self.engine.connect() as connection:
            return _puzzle(connection, puzzle, lock=False)

    def player(self, account_id: int) -> Rating | None:
        """An account's puzzle rating, ``None`` before its first rated attempt."""
        with self.engine.connect() as connection:
            row = _player_row(connection, account_id, lock=False)
        return None if row is None else Rating(row.mu, row.sigma, row.attempts)

    def mus(self) -> dict[str, float]:
        """Every attempted puzzle's mu now, by id (the others have their set's)."""
        with self.engine.connect() as connection:
            rows = connection.execute(select(PuzzleRatingRow.puzzle_id, PuzzleRatingRow.mu)).all()
        return {r.puzzle_id: r.mu for r in rows}

    def attempted(self, account_id: int) -> set[str]:
        """The puzzles the account has attempted."""
        with self.engine.connect() as connection:
            rows = connection.execute(
                select(PuzzleAttemptRow.puzzle_id).where(PuzzleAttemptRow.account_id == account_id)
            ).all()
        return {r.puzzle_id for r in rows}

    def attempt(self, account_id: int, puzzle: Puzzle, moves: list[str], solved: bool) -> Rated:
        """Rate the account's attempt if it is its first at this puzzle (see the module)."""
        with self._rating:
            for _ in range(TRIES - 1):
                try:
                    return self._attempt(account_id, puzzle, moves, solved)
                except IntegrityError:
                    continue  # another process made a row just now: read it again
            return self._attempt(account_id, puzzle, moves, solved)

    def _attempt(self, account_id: int, puzzle: Puzzle, moves: list[str], solved: bool) -> Rated:
        with self.engine.begin() as connection:
            row = _player_row(connection, account_id, lock=True)
            before = new_player() if row is None else Rating(row.mu, row.sigma, row.attempts)
            old = _puzzle(connection, puzzle, lock=True)
            if _attempted(connection, account_id, puzzle.id):
                return Rated(False, before, before, old)
            model = _model()
            me, it = model.rating(before.mu, before.sigma), model.rating(old.mu, old.sigma)
            [[mine], [its]] = model.rate([[me], [it]], ranks=[1, 2] if solved else [2, 1])
            after = Rating(float(mine.mu), float(mine.sigma), before.attempts + 1)
            now_puzzle = Rating(float(its.mu), float(its.sigma), old.attempts + 1)
            _write_player(connection, account_id, after, row is None)
            _write_puzzle(connection, puzzle, now_puzzle, old.attempts == 0)
            shown = {"before": _shown(before), "after": _shown(after)}
            connection.execute(
                insert(PuzzleAttemptRow),
                {"account_id": account_id, "puzzle_id": puzzle.id, "moves": moves,
                 "solved": solved, "created": now(), **shown},
            )  # fmt: skip
        return Rated(True, before, after, now_puzzle)


def _shown(r: Rating) -> float:
    return ordinal(r.mu, r.sigma)


def _player_row(connection: Connection, account_id: int, lock: bool) -> Any:
    query = select(PuzzlePlayerRow).where(PuzzlePlayerRow.account_id == account_id)
    return connection.execute(query.with_for_update() if lock else query).first()


def _puzzle(connection: Connection, puzzle: Puzzle, lock: bool) -> Rating:
    query = select(PuzzleRatingRow).where(PuzzleRatingRow.puzzle_id == puzzle.id)
    row = connection.execute(query.with_for_update() if lock else query).first()
    return (
        Rating(puzzle.mu, puzzle.sigma, 0)
        if row is None
        else Rating(row.mu, row.sigma, row.attempts)
    )


def _attempted(connection: Connection, account_id: int, puzzle_id: str) -> bool:
    found = connection.execute(
        select(PuzzleAttemptRow.solved).where(
            PuzzleAttemptRow.account_id == account_id, PuzzleAttemptRow.puzzle_id == puzzle_id
        )
    ).first()
    return found is not None


def _write_player(connection: Connection, account_id: int, r: Rating, new: bool) -> None:
    values = {"mu": r.mu, "sigma": r.sigma, "attempts": r.attempts}
    if new:
        connection.execute(insert(PuzzlePlayerRow), {"account_id": account_id, **values})
    else:
        connection.execute(
            update(PuzzlePlayerRow).where(PuzzlePlayerRow.account_id == account_id).values(**values)
        )


def _write_puzzle(connection: Connection, puzzle: Puzzle, r: Rating, new: bool) -> None:
    values = {"mu": r.mu, "sigma": r.sigma, "attempts": r.attempts}
    if new:
        connection.execute(
            insert(PuzzleRatingRow), {"puzzle_id": puzzle.id, "game": puzzle.game, **values}
        )
    else:
        connection.execute(
            update(PuzzleRatingRow).where(PuzzleRatingRow.puzzle_id == puzzle.id).values(**values)
        )


__all__ = ["PuzzleStore", "Rated", "Rating", "new_player"]
