"""Puzzles on the site: the shipped sets (:mod:`~.catalogue`: a puzzle by id, the daily
puzzle, what is shown before and after an attempt), puzzle ratings (:mod:`~.rows`,
:mod:`~.store`: an attempt is a match between the account and the puzzle) and the API and
page (:mod:`~.routes`: ``/api/puzzles…``, ``/puzzles``)."""

from __future__ import annotations

from tikki.server.puzzles.store import PuzzleStore

__all__ = ["PuzzleStore"]
