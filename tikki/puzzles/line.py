"""Puzzles of several moves: the line that follows a puzzle's answer in its real game.

**Building** (:func:`follow`).  After a position is proven a puzzle, its line goes on in
the source game's real deal: the seat plays the answer and the other seats reply as the
source game's bots (the same bots and seeds) would, each from its own view, until it is
the seat's turn again.  If that next decision is again a puzzle by the same proof
(:func:`tikki.puzzles.verdict` over every world consistent with the seat's view *then*),
it is a further step; the line stops at the first decision that is not one (or at
:data:`MOST_STEPS`).

Why the bots and not the exact solver's reply: every later step is proven over all the
worlds of its own view, so any reply leaves a sound puzzle; and against an answer that
escapes in every world every reply of the others is a proven loss for them, so the
paranoid solver has no best one to give.  The bots answer from their own views as a
player at the table would: the line is one a player meets.

**Stored** (docs/research.md, "Puzzles"): a puzzle of one step keeps its shape; a longer
one lists every step's answer in ``answer`` and adds ``steps``, one object per step after
the first: ``replies`` (the others' moves since the seat's last, ``[seat, move]``: public
once played), ``move_number``, ``view``, ``worlds``, ``values``, ``themes`` and
``explanation``, as the first step's fields are.  Each step is checked on its own
(:func:`check_steps`): its worlds enumerated from its stored view, the answer proven
again, the leak checker run over the step against each world; and it must follow from the
step before (some world of that step, after its answer and the replies, gives its view).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tikki import bots
from tikki.core import Game, RulesError, State
from tikki.testing.checks import shown

MOST_STEPS = 5
"""The most steps (the seat's moves) one puzzle takes."""
STEP_FIELDS = ("move_number", "view", "worlds", "values", "themes", "explanation")
"""The fields of a later step that its described puzzle gives (and ``replies``)."""


@dataclass
class Step:
    """A later step found by :func:`follow`: the replies before it, its move number, the
    seat's view and the proof's verdict there."""

    replies: list[tuple[int, str]]
    number: int
    view: dict[str, Any]
    found: Any
    stored: dict[str, Any]
    """The step as the puzzle file stores it (:func:`stored_step`)."""


def follow(
    game: Game,
    state: State,
    answer: str,
    specs: Sequence[str],
    gseed: int,
    cards: int,
    nodes: int,
    pid: str,
    most: int = MOST_STEPS,
) -> list[Step]:
    """The later steps of the puzzle ``pid`` at ``state`` whose answer is ``answer`` (see
    the module); ``specs`` and ``gseed``: the source game's bots and seed.  A step whose
    stored form shows a card hidden from the seat then (the leak checker) ends the line
    before it; the line has at most ``most`` steps, the first included."""
    from tikki.puzzles import candidate, verdict
    from tikki.puzzles.words import describe

    seat = state.current_player
    players = [bots.make(spec, seed=gseed + s) for s, spec in enumerate(specs)]
    real = state.clone()
    real.play(answer)
    steps: list[Step] = []
    while len(steps) < most - 1:
        replies = _replies(game, real, seat, players)
        if real.is_over or not candidate(game, real, cards):
            break
        view = real.view(seat)
        found = verdict(game, view, nodes)
        if found.answer is None:
            break
        number = len(real.moves) + 1
        step = Step(replies, number, view, found, {})
        step.stored = stored_step(step, describe(game, view, found, pid, number, nodes))
        if shown({**step.stored, "answer": [found.answer]}, real.reveal()["hidden"][str(seat)]):
            break
        steps.append(step)
        real.play(found.answer)
    return steps


def _replies(
    game: Game, real: State, seat: int | None, players: list[Any]
) -> list[tuple[int, str]]:
    """Play the others' moves in ``real`` until it is ``seat``'s turn or the game is over."""
    replies: list[tuple[int, str]] = []
    while not real.is_over and real.current_player != seat:
        other = real.current_player
        assert other is not None
        move = players[other].choose(game, real.view(other))
        replies.append((other, move))
        real.play(move)
    return replies


def stored_step(step: Step, described: Mapping[str, Any]) -> dict[str, Any]:
    """A later step as the puzzle file stores it (``described``: the step described as a
    puzzle of its own, :func:`tikki.puzzles.words.describe`)."""
    out = {k: described[k] for k in STEP_FIELDS}
    out["replies"] = [[s, m] for s, m in step.replies]
    return out


def first_step(puzzle: Mapping[str, Any]) -> dict[str, Any]:
    """The part of a puzzle the seat may see at its first step: every field but the later
    steps and their answers."""
    out = {k: v for k, v in puzzle.items() if k != "steps"}
    out["answer"] = list(puzzle.get("answer") or [])[:1]
    return out


def check_steps(game: Game, puzzle: Mapping[str, Any], nodes: int) -> str | None:
    """Check a puzzle's later steps again (see the module): ``None`` if they hold, else
    what failed (``steps``, ``answer``, ``worlds``, ``view``, ``leak``, ``values``)."""
    steps = puzzle.get("steps", [])
    answers = puzzle.get("answer")
    if not isinstance(steps, list) or not isinstance(answers, list):
        return "steps"
    if len(answers) != 1 + len(steps):
        return "answer"
    before = puzzle.get("view")
    for i, step in enumerate(steps):
        if not isinstance(step, Mapping) or not isinstance(before, Mapping):
            return "steps"
        what = _check_step(game, step, str(answers[i + 1]), nodes)
        if what is None and not _follows(game, before, str(answers[i]), step):
            what = "steps"
        if what is not None:
            return what
        before = step.get("view")
    return None


def _check_step(game: Game, step: Mapping[str, Any], answer: str, nodes: int) -> str | None:
    """One later step proven again from its stored view alone."""
    from tikki.puzzles import stored_worlds, verdict

    view = step.get("view")
    found = stored_worlds(game, view)
    if isinstance(found, str):
        return found
    assert isinstance(view, Mapping)
    seat = view.get("seat")
    if any(shown({**step, "answer": [answer]}, w.reveal()["hidden"][str(seat)]) for w in found):
        return "leak"
    again = verdict(game, view, nodes)
    if again.answer is None or again.answer != answer:
        return "answer"
    if len(again.worlds) != step.get("worlds") or again.counts() != step.get("values"):
        return "values"
    return None


def _follows(game: Game, before: Mapping[str, Any], answer: str, step: Mapping[str, Any]) -> bool:
    """Whether some world of the step ``before`` gives ``step``'s view after ``answer``
    and the stored replies (each by the seat whose turn it is)."""
    from tikki.puzzles import NotEnumerable, enumerate_worlds

    seat = before.get("seat")
    replies = step.get("replies")
    if not isinstance(replies, list):
        return False
    try:
        found = enumerate_worlds(game, before)
    except (NotEnumerable, RulesError):
        return False
    for world in found:
        state = world.clone()
        try:
            state.play(answer)
            for s, move in replies:
                if state.current_player != s or s == seat:
                    raise RulesError("not that seat's turn")
                state.play(str(move))
        except (RulesError, TypeError, ValueError):
            continue
        if state.current_player == seat and state.view(seat) == step.get("view"):
            return True
    return False


__all__ = ["MOST_STEPS", "Step", "check_steps", "first_step", "follow", "stored_step"]
