"""The shipped puzzle sets as the site serves them: every ``tikki/puzzles/data/*.json.gz``
read once (:func:`catalogue`), a puzzle by id, the daily puzzle, and the two faces of a
puzzle: what a player sees before an attempt (:func:`public`: the seat's view, nothing
more) and what the attempt's answer adds (:func:`solved`).

A set's puzzles may carry fields this module does not know (a newer builder's): they are
kept in :attr:`Puzzle.stored` and never sent before the attempt.

**Several steps** (:mod:`tikki.puzzles.line`): a puzzle whose answer has several moves is
served a step at a time: before the attempt the first step's view; after a right answer
to a step that is not the last, the others' replies and the next step's view
(:func:`next_step`); the steps' answers and explanations once the attempt is over
(:func:`solved`).

**The daily puzzle** (:func:`daily`) is chosen from the UTC date alone: the day's number
(``date.toordinal()``) picks the game, in turn through the games that have a set (sorted
by name), and a digest of the date picks the puzzle in that game's set.  Everyone gets the
same puzzle on the same UTC day; it changes at 00:00 UTC.
"""

from __future__ import annotations

import functools
import hashlib
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from tikki import i18n
from tikki.core import RulesError
from tikki.puzzles import read, shipped

log = logging.getLogger(__name__)
DATA = shipped("x").parent
"""Where the shipped sets are."""
DEFAULT_MU = 25.0
"""A puzzle's starting mu when its set gives none (OpenSkill's default)."""
DEFAULT_SIGMA = 25 / 3
"""A puzzle's starting sigma when its set gives none."""


@dataclass(frozen=True)
class Puzzle:
    """One puzzle of a shipped set."""

    id: str
    game: str
    players: int
    rules: str
    options: Mapping[str, Any]
    """The set's rules revision and options (the game the positions are of)."""
    seat: int
    view: Mapping[str, Any]
    answer: tuple[str, ...]
    themes: tuple[str, ...]
    kind: str
    """The task: ``escape`` (the one move that cannot lose) or ``points`` (the move that
    scores most); another kind a newer set names is passed on as it is."""
    mu: float
    sigma: float
    stored: Mapping[str, Any]
    """The stored puzzle as read (every field, known or not)."""

    def explanation(self, lang: str, step: int = 0) -> str:
        """Step ``step``'s explanation in ``lang`` (English where the set has none in it)."""
        texts = self._step(step).get("explanation") or {}
        return str(texts.get(lang) or texts.get("en") or "")

    def _step(self, step: int) -> Mapping[str, Any]:
        """The stored step (0: the puzzle itself, whose fields are its first step's)."""
        if step == 0:
            return self.stored
        steps = self.stored.get("steps") or []
        return steps[step - 1] if 0 < step <= len(steps) else {}

    def step_view(self, step: int) -> Mapping[str, Any]:
        """The seat's view at step ``step`` (0: :attr:`view`)."""
        view = self._step(step).get("view")
        return view if isinstance(view, Mapping) else {}

    def replies(self, step: int) -> list[list[Any]]:
        """The others' moves, ``[seat, move]``, played before step ``step``."""
        return [list(r) for r in self._step(step).get("replies") or []] if step else []


@dataclass(frozen=True)
class Catalogue:
    """Every shipped puzzle, by id and by game (in the sets' order)."""

    by_id: Mapping[str, Puzzle]
    by_game: Mapping[str, Sequence[Puzzle]]

    def games(self) -> list[str]:
        """The games that have puzzles, sorted."""
        return sorted(g for g, ps in self.by_game.items() if ps)

    def get(self, puzzle_id: str) -> Puzzle | None:
        """The puzzle of this id, or ``None``."""
        return self.by_id.get(puzzle_id)

    def select(self, game: str | None = None, theme: str | None = None) -> list[Puzzle]:
        """The puzzles of a game and/or with a theme, games sorted, each set in order."""
        games = [game] if game is not None else self.games()
        return [
            p for g in games for p in self.by_game.get(g, ()) if theme is None or theme in p.themes
        ]


def _puzzle(document: Mapping[str, Any], stored: Mapping[str, Any]) -> Puzzle:
    """One stored puzzle (``KeyError``/``ValueError``/``TypeError`` if malformed)."""
    rating = stored.get("rating") or {}
    view = stored["view"]
    if not isinstance(view, Mapping):
        raise TypeError("view")
    return Puzzle(
        id=str(stored["id"]),
        game=str(document["game"]),
        players=int(document["players"]),
        rules=str(document.get("rules", "r2")),
        options=dict(document.get("options") or {}),
        seat=int(stored.get("seat", view["seat"])),
        view=view,
        answer=tuple(str(m) for m in stored["answer"]),
        themes=tuple(str(t) for t in stored.get("themes") or ()),
        kind=str(stored.get("kind") or "escape"),
        mu=float(rating.get("mu", DEFAULT_MU)),
        sigma=float(rating.get("sigma", DEFAULT_SIGMA)),
        stored=stored,
    )


def load(paths: Sequence[Path]) -> Catalogue:
    """The puzzles of these set files (a file that cannot be read is skipped, logged)."""
    by_id: dict[str, Puzzle] = {}
    by_game: dict[str, list[Puzzle]] = {}
    for path in sorted(paths):
        try:
            document = read(path)
            puzzles = [_puzzle(document, p) for p in document["puzzles"]]
        except (RulesError, KeyError, ValueError, TypeError) as err:
            log.warning("puzzle set %s skipped: %s", path, err)
            continue
        for puzzle in puzzles:
            if puzzle.answer and puzzle.id not in by_id:
                by_id[puzzle.id] = puzzle
                by_game.setdefault(puzzle.game, []).append(puzzle)
    return Catalogue(by_id, by_game)


@functools.cache
def catalogue() -> Catalogue:
    """The sets shipped with tikki (read once)."""
    return load(sorted(DATA.glob("*.json.gz")))


def daily(found: Catalogue, day: date) -> Puzzle | None:
    """The daily puzzle of the UTC date ``day`` (see the module); ``None`` without puzzles."""
    games = found.games()
    if not games:
        return None
    game = games[day.toordinal() % len(games)]
    digest = hashlib.sha256(f"tikki-daily:{day.isoformat()}".encode()).digest()
    puzzles = found.by_game[game]
    return puzzles[int.from_bytes(digest[:8], "big") % len(puzzles)]


def public(puzzle: Puzzle) -> dict[str, Any]:
    """What a player is sent before an attempt: which puzzle, its game, its kind (the task:
    ``escape`` the one move that cannot lose, ``points`` the move that scores most), the
    seat, how many moves the answer takes, and the seat's view.  Nothing of the proof: no answer, no
    explanation, no themes, no per-move counts, no rating (a starting rating says whether
    the heuristic bot finds the answer), no world count, nothing of the deal."""
    return {
        "id": puzzle.id,
        "game": puzzle.game,
        "players": puzzle.players,
        "kind": puzzle.kind,
        "seat": puzzle.seat,
        "moves": len(puzzle.answer),
        "view": dict(puzzle.view),
    }


def language() -> str:
    """The request's language among the explanations' (``pseudo`` reads English)."""
    lang = i18n.current()
    return lang if lang in ("fi", "de") else "en"


def themes_json(puzzle: Puzzle) -> list[dict[str, str]]:
    """The puzzle's themes with their titles in the request's language."""
    from tikki.puzzles.words import THEMES, theme_title

    return [{"id": t, "title": theme_title(t) if t in THEMES else t} for t in puzzle.themes]


def solved(puzzle: Puzzle, step: int = 0) -> dict[str, Any]:
    """What the attempt's answer adds once it is over (``step``: the step it ended at,
    wrong there or the last one right): the answer, that step's explanation in the
    request's language, the themes, and every step: its answer, the others' replies
    before it and its explanation."""
    lang = language()
    return {
        "answer": list(puzzle.answer),
        "explanation": puzzle.explanation(lang, step),
        "themes": themes_json(puzzle),
        "steps": [
            {
                "answer": move,
                "replies": puzzle.replies(i),
                "explanation": puzzle.explanation(lang, i),
            }
            for i, move in enumerate(puzzle.answer)
        ],
    }


def next_step(puzzle: Puzzle, step: int) -> dict[str, Any]:
    """What a right answer to step ``step - 1`` (not the last) adds: that step's
    explanation, the others' replies and the seat's view at step ``step``; nothing of
    the steps to come."""
    return {
        "step": step,
        "explanation": puzzle.explanation(language(), step - 1),
        "replies": puzzle.replies(step),
        "view": dict(puzzle.step_view(step)),
    }


__all__ = [
    "Catalogue",
    "Puzzle",
    "catalogue",
    "daily",
    "language",
    "load",
    "next_step",
    "public",
    "solved",
    "themes_json",
]
