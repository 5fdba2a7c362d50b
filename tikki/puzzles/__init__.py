"""Puzzles: positions where exactly one move is proven to escape, from the seat's view.

**Where they come from.**  :func:`build` plays seeded games between bots of several
levels (:data:`LEVELS`; :data:`POINTS_LEVELS` for a game scored in points) and looks at
every decision in the game's exact-endgame phase (its ``bots.endgame_phase``) with at
most ``cards`` cards in the hands and a choice of moves.  The position is the deciding
seat's *view*, nothing more.

**The proof.**  :func:`worlds` enumerates every state consistent with that view: it walks
every path of the game's own determinizer (``Game.sampler``), answering each of its
random choices in turn with every value it may take (:class:`Scripted`), and keeps the
distinct states.  The exact solver (:mod:`tikki.bots.endgame`, paranoid alpha-beta) values
each legal move in each world: ``WIN`` (the seat goes out whatever the others play),
``LOSS`` (the others can make the seat the loser) or ``DRAW`` (a draw or not decided in the
budget).  A position is a puzzle (:func:`verdict`) when exactly one move is ``WIN`` in
every world and every other move is ``LOSS`` in at least one world: the answer escapes
wherever the hidden cards are, and each other move can be punished somewhere.  A position
with two escaping moves, or a move left undecided everywhere, is rejected.

**No hidden information.**  The stored puzzle holds the seat's view and what the proof
says about it (answer, per-move counts over the worlds, an explanation drawn from the
enumerated worlds, never from the real deal).  Where the game was dealt from, its seed and
bots, goes only to a private file (``--private``).  :func:`build` runs the leak checker
(:func:`tikki.testing.checks.shown`) over each stored puzzle against the cards hidden
from the seat; :func:`check` runs it again against every enumerated world.

**The format** (:data:`FORMAT`, :data:`VERSION`) is documented in docs/research.md
("Puzzles"); :func:`dump` writes it byte for byte the same for the same input (sorted keys,
gzip without a time stamp for ``.gz``).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tikki import bots
from tikki.bots.endgame import DEPTHS, DRAW, LOSS, WIN, OutOfBudget, Solver, cards_in_hands
from tikki.core import Game, RulesError, State, load
from tikki.puzzles import line, points
from tikki.testing.checks import shown

FORMAT = "tikki-puzzles"
"""The ``format`` field of a puzzle file."""
VERSION = 1
"""The ``version`` field of a puzzle file (a reader refuses others)."""
CARDS = 12
"""The most cards in all hands for a position to be tried."""
NODES = 20_000
"""The solver's budget (positions) for one move in one world."""
MOST_WORLDS = 120
"""The most worlds a view may have to be tried."""
MOST_PATHS = 5040
"""The most determinizer paths walked to enumerate a view's worlds."""
LEVELS = ("random", "heuristic", "ismcts:iterations=20")
"""The bots whose games the positions come from (seats take them in turn)."""
POINTS_LEVELS = ("random", "heuristic")
"""The same for a game scored in points: its matches are long and a searching bot's
playouts play them out, so its games come from the two quick bots (a random seat's
sloughs also leave voids, and so views with fewer worlds to prove)."""
SIGMA = 25 / 3
"""The starting uncertainty of a puzzle's rating (OpenSkill's default)."""
VALUE_NAMES = {WIN: "win", DRAW: "draw", LOSS: "loss"}


class NotEnumerable(Exception):
    """The view's worlds cannot be enumerated (too many, or a draw not by index)."""


class Scripted(random.Random):
    """A random source whose choices are given: the ``i``-th index drawn is ``script[i]``
    (0 past its end); it records each draw's range in ``sizes``.  ``random()`` (a choice
    not by index) cannot be enumerated; ``getrandbits`` (seeds) gives 0."""

    def __init__(self, script: Sequence[int]) -> None:
        self.script = list(script)
        self.sizes: list[int] = []
        super().__init__(0)

    def _randbelow(self, n: int) -> int:
        i = len(self.sizes)
        self.sizes.append(n)
        return self.script[i] if i < len(self.script) else 0

    def random(self) -> float:
        """Not enumerable: raises :class:`NotEnumerable`."""
        raise NotEnumerable

    def getrandbits(self, k: int, /) -> int:
        """Always 0 (a seed for what comes later, not a choice among worlds)."""
        return 0


def world_key(state: State) -> str:
    """What tells two worlds apart: where every card is."""
    return json.dumps(state.reveal()["zones"], sort_keys=True)


def worlds(
    game: Game, view: Mapping[str, Any], most: int = MOST_WORLDS, paths: int = MOST_PATHS
) -> list[State]:
    """Every state consistent with ``view``: each path of the game's determinizer,
    in order, deduplicated; raises :class:`NotEnumerable` past ``most`` worlds or
    ``paths`` paths."""
    sample = game.sampler(view)
    found: dict[str, State] = {}
    script: list[int] | None = []
    for _ in range(paths):
        assert script is not None
        rng = Scripted(script)
        state = sample(rng)
        found.setdefault(world_key(state), state)
        if len(found) > most:
            raise NotEnumerable
        script = _next_script(script, rng.sizes)
        if script is None:
            return [found[k] for k in sorted(found)]
    raise NotEnumerable


def _next_script(script: list[int], sizes: list[int]) -> list[int] | None:
    """The next path in order after the one just walked (``None``: all were walked)."""
    full = (script + [0] * len(sizes))[: len(sizes)]
    i = len(sizes) - 1
    while i >= 0 and full[i] + 1 >= sizes[i]:
        i -= 1
    return None if i < 0 else [*full[:i], full[i] + 1]


def move_value(solver: Solver, state: State, move: str, nodes: int = NODES) -> int:
    """The solver's value of ``move`` in ``state`` for its seat, deepening until decided
    or ``nodes`` positions are spent (then :data:`DRAW`)."""
    child = state.clone()
    child.play(move)
    budget = solver.nodes + nodes
    for depth in DEPTHS:
        left = budget - solver.nodes
        if left <= 0:
            return DRAW
        try:
            value = solver.value(child, max_nodes=left, depth=depth)
        except OutOfBudget:
            return DRAW
        if value != DRAW:
            return value
    return DRAW


@dataclass
class Verdict:
    """What the proof says of a position: its answer (or ``None``) and each move's values,
    world by world (``values[move][i]`` in ``worlds[i]``)."""

    answer: str | None
    reason: str
    """``unique``, ``no-escape``, ``several``, ``undecided`` or ``not-enumerable``."""
    worlds: list[State] = field(default_factory=list)
    values: dict[str, list[int]] = field(default_factory=dict)
    points: dict[str, list[int]] | None = None
    """A points puzzle's exact points per move and world (:mod:`tikki.puzzles.points`)."""
    solvers: list[Solver] = field(default_factory=list, repr=False)
    """The solver of each world solved, with what it proved (the explanation's lines
    reuse it)."""

    def counts(self) -> dict[str, dict[str, int]]:
        """Per move, in how many worlds it wins, draws (or is undecided) and loses."""
        return {
            m: {name: vs.count(v) for v, name in VALUE_NAMES.items()}
            for m, vs in self.values.items()
        }


def kind_of(game: Game) -> str:
    """The kind of puzzle a game has: ``escape`` (a shedding game's exact endgame),
    ``points`` (:mod:`tikki.puzzles.points`); raises :class:`RulesError` if none."""
    if game.bots.endgame_phase:
        return "escape"
    if points.applies(game):
        return "points"
    raise RulesError(f"{game.name} has no exact endgame solver: no puzzles")


def enumerate_worlds(game: Game, view: Mapping[str, Any]) -> list[State]:
    """The worlds of ``view`` as its game's puzzles count them (:func:`worlds`, or for a
    points game :func:`tikki.puzzles.points.hand_worlds`); raises :class:`NotEnumerable`
    or :class:`RulesError`."""
    if kind_of(game) == "points":
        try:
            return points.hand_worlds(game, view)
        except points.TooMany:
            raise NotEnumerable from None
    return worlds(game, view)


def verdict(game: Game, view: Mapping[str, Any], nodes: int = NODES) -> Verdict:
    """Whether ``view`` is a puzzle (see the module): exactly one move wins in every world
    and every other loses in at least one; for a points game, one move scores at least
    :data:`tikki.puzzles.points.MARGIN` more than every other in every world."""
    try:
        found = enumerate_worlds(game, view)
    except (NotEnumerable, RulesError):
        return Verdict(None, "not-enumerable")
    if kind_of(game) == "points":
        return _points_verdict(view, found, nodes)
    seat = int(view["seat"])
    legal = [str(m) for m in view["legal_moves"]]
    values: dict[str, list[int]] = {m: [] for m in legal}
    solvers: list[Solver] = []
    for i, world in enumerate(found):
        solver = Solver(seat)
        solvers.append(solver)
        for move in legal:
            values[move].append(move_value(solver, world, move, nodes))
            if i == 0 and (rejected := _first_world_rejects(values, len(found))) is not None:
                return Verdict(None, rejected, found, values)
        if i == 0 and [values[m][0] for m in legal].count(WIN) != 1:
            return Verdict(None, "no-escape", found, values)
    judged = _judged(found, values)
    judged.solvers = solvers
    return judged


def _first_world_rejects(values: Mapping[str, list[int]], worlds: int) -> str | None:
    """Why the first world's values so far already rule the position out, or ``None``:
    a second move that wins there (the first world must have exactly one), or, where it
    is the only world, a move left undecided (neither the escape nor a proven loss).  The
    moves not yet solved are then not solved: the verdict is the same, sooner."""
    firsts = [vs[0] for vs in values.values() if vs]
    if firsts.count(WIN) > 1:
        return "several"
    if worlds == 1 and DRAW in firsts:
        return "undecided"
    return None


def _points_verdict(view: Mapping[str, Any], found: list[State], nodes: int) -> Verdict:
    """The margin rule over every world (:func:`tikki.puzzles.points.judge`)."""
    legal = [str(m) for m in view["legal_moves"]]
    scored: dict[str, list[int]] = {m: [] for m in legal}
    for i, world in enumerate(found):
        for move in legal:
            value = points.points_of(world, move, nodes)
            if value is None:
                return Verdict(None, "undecided", found)
            scored[move].append(value)
        answer, reason, values = points.judge(legal, {m: v[: i + 1] for m, v in scored.items()})
        if answer is None:
            return Verdict(None, reason, found)
    answer, reason, values = points.judge(legal, scored)
    return Verdict(answer, reason, found, values, scored)


def _judged(found: list[State], values: dict[str, list[int]]) -> Verdict:
    escapes = [m for m, vs in values.items() if all(v == WIN for v in vs)]
    if len(escapes) != 1:
        return Verdict(None, "several" if escapes else "no-escape", found, values)
    answer = escapes[0]
    if any(LOSS not in vs for m, vs in values.items() if m != answer):
        return Verdict(None, "undecided", found, values)
    return Verdict(answer, "unique", found, values)


# --- building -----------------------------------------------------------------------------


def game_seed(name: str, seed: int, index: int) -> int:
    """The seed of the ``index``-th game of a build (kept out of the shipped file)."""
    text = f"tikki-puzzles:{name}:{seed}:{index}".encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")


def puzzle_id(game: Game, view: Mapping[str, Any]) -> str:
    """A puzzle's id: a digest of its game and position."""
    text = json.dumps([game.name, game.players, game.rules, view], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def candidate(game: Game, state: State, cards: int) -> bool:
    """Whether the position of ``state`` is tried: the endgame phase, a choice, few cards
    (a points game: :func:`tikki.puzzles.points.candidate`)."""
    if kind_of(game) == "points":
        return points.candidate(game, state, min(cards, points.CARDS))
    phase = game.bots.endgame_phase
    return (
        bool(phase)
        and state.phase == phase
        and len(state.legal_moves()) > 1
        and cards_in_hands(state) <= cards
    )


Progress = Callable[[int, int], None]
"""``progress(found, games)`` after each game of a build."""


@dataclass
class Built:
    """A build's result: the puzzle file's content and the private companion."""

    document: dict[str, Any]
    private: dict[str, Any]
    games: int
    tried: int


def build(
    name: str,
    count: int,
    seed: int = 0,
    players: int | None = None,
    cards: int = CARDS,
    nodes: int = NODES,
    progress: Progress | None = None,
    skip: frozenset[str] = frozenset(),
    steps: int = line.MOST_STEPS,
) -> Built:
    """Up to ``count`` puzzles of game ``name`` from seeded bot games (see the module);
    the same arguments give the same result.  Positions whose id is in ``skip`` (a set
    built before, :func:`merged`) are passed over.  A puzzle takes at most ``steps`` moves
    (1: every puzzle one move, as the sets' first builds).  Raises :class:`RulesError` for
    a game without an exact endgame solver, or ``steps`` below 1."""
    if steps < 1:
        raise RulesError(f"a puzzle takes 1 or more moves, not {steps}")
    from tikki.puzzles.words import describe, describe_line

    game = load(name, players)
    kind_of(game)
    puzzles: list[dict[str, Any]] = []
    private: dict[str, Any] = {}
    seen: set[str] = set(skip)
    index = tried = 0
    while len(puzzles) < count and index < 50 * count + 20:
        levels = POINTS_LEVELS if kind_of(game) == "points" else LEVELS
        specs = [levels[(index + s) % len(levels)] for s in range(game.players)]
        gseed = game_seed(game.name, seed, index)
        for number, state in _positions(game, gseed, specs, cards):
            view = state.view(state.current_player)
            pid = puzzle_id(game, view)
            if pid in seen or len(puzzles) >= count:
                continue
            seen.add(pid)
            tried += 1
            found = verdict(game, view, nodes)
            if found.answer is None:
                continue
            puzzle = describe(game, view, found, pid, number, nodes)
            if shown(puzzle, state.reveal()["hidden"][str(view["seat"])]):
                continue  # the leak checker: never store what the seat cannot see
            if found.points is None and steps > 1:  # the line goes on while it meets puzzles
                later = line.follow(
                    game, state, found.answer, specs, gseed, cards, nodes, pid, steps
                )
                puzzle = describe_line(puzzle, later)
            puzzles.append(puzzle)
            private[pid] = {"seed": gseed, "bots": specs, "move": number}
        index += 1
        if progress is not None:
            progress(len(puzzles), index)
    return Built(document_of(game, puzzles), private, index, tried)


def merged(old: Mapping[str, Any], new: Mapping[str, Any]) -> dict[str, Any]:
    """A set built before with a new build's puzzles after it (the same game, players and
    rules, else :class:`RulesError`); a puzzle already in ``old`` is not added twice."""
    keys = ("game", "players", "rules", "options")
    if any(old.get(k) != new.get(k) for k in keys):
        raise RulesError("the puzzle files are not of one game, players and rules")
    have = {p["id"] for p in old["puzzles"]}
    puzzles = list(old["puzzles"]) + [p for p in new["puzzles"] if p["id"] not in have]
    return {**new, "count": len(puzzles), "puzzles": puzzles}


def _positions(game: Game, gseed: int, specs: list[str], cards: int) -> list[tuple[int, State]]:
    """Every tried position of one seeded bot game: (move number, a copy of the state)."""
    players = [bots.make(spec, seed=gseed + s) for s, spec in enumerate(specs)]
    state = game.new_state(seed=gseed)
    out: list[tuple[int, State]] = []
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        if candidate(game, state, cards):
            out.append((len(state.moves) + 1, state.clone()))
        state.play(players[seat].choose(game, state.view(seat)))
    return out


def document_of(game: Game, puzzles: list[dict[str, Any]]) -> dict[str, Any]:
    """A puzzle file's content: the header and the puzzles."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": game.name,
        "players": game.players,
        "rules": game.rules,
        "options": game.options,
        "proof": "exact",
        "count": len(puzzles),
        "puzzles": puzzles,
    }


# --- files --------------------------------------------------------------------------------


def dumps(document: Mapping[str, Any]) -> bytes:
    """A puzzle file's bytes (JSON, sorted keys, one puzzle a line)."""
    head = {k: v for k, v in document.items() if k != "puzzles"}
    lines = [json.dumps(p, sort_keys=True, ensure_ascii=False) for p in document["puzzles"]]
    body = ",\n".join(lines)
    text = json.dumps(head, sort_keys=True, ensure_ascii=False)[:-1]
    return f'{text}, "puzzles": [\n{body}\n]}}\n'.encode()


def dump(document: Mapping[str, Any], path: Path) -> None:
    """Write a puzzle file; ``.gz`` is gzipped (without a time stamp: same bytes)."""
    data = dumps(document)
    if path.suffix == ".gz":
        data = gzip.compress(data, mtime=0)
    path.write_bytes(data)


def read(path: Path) -> dict[str, Any]:
    """Read a puzzle file (``.gz`` or plain); raises :class:`RulesError` in words."""
    try:
        data = path.read_bytes()
        if data[:2] == b"\x1f\x8b":
            data = gzip.decompress(data)
        document = json.loads(data)
    except (OSError, ValueError, EOFError) as err:
        raise RulesError(f"cannot read the puzzle file {str(path)!r}: {err}") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise RulesError(f"{str(path)!r} is not a tikki puzzle file")
    if document.get("version") != VERSION:
        raise RulesError(f"{str(path)!r} is puzzle format {document.get('version')!r}")
    return document


def shipped(name: str) -> Path:
    """The path of the set shipped with tikki for game ``name``."""
    return Path(__file__).parent / "data" / f"{name}.json.gz"


# --- checking -----------------------------------------------------------------------------


def stored_worlds(game: Game, view: object) -> list[State] | str:
    """The worlds of a stored view enumerated again from the view alone, each checked to
    give exactly that view; else what failed (``view``: not a view, or a world that gives
    another; ``worlds``: none, or too many)."""
    if not isinstance(view, Mapping):
        return "view"
    try:
        found = enumerate_worlds(game, view)
    except (NotEnumerable, RulesError):
        return "worlds"
    seat = view.get("seat")
    if any(w.view(seat) != view for w in found):
        return "view"
    return found


def check_one(game: Game, puzzle: Mapping[str, Any], nodes: int = NODES) -> str | None:
    """Check one stored puzzle again from its view alone, and each later step from its own
    (:func:`tikki.puzzles.line.check_steps`); ``None`` if it holds, else what failed
    (``answer``, ``worlds``, ``view``, ``leak``, ``id``, ``values``, ``steps``)."""
    view = puzzle.get("view")
    found = stored_worlds(game, view)
    if isinstance(found, str):
        return found
    assert isinstance(view, Mapping)
    seat = view.get("seat")
    first = line.first_step(puzzle)
    if any(shown(first, w.reveal()["hidden"][str(seat)]) for w in found):
        return "leak"
    if puzzle.get("id") != puzzle_id(game, view):
        return "id"
    again = verdict(game, view, nodes)
    if again.answer is None or [again.answer] != first["answer"]:
        return "answer"
    if len(again.worlds) != puzzle.get("worlds") or again.counts() != puzzle.get("values"):
        return "values"
    if again.points is not None and points.summary(again.points) != puzzle.get("points"):
        return "values"
    return line.check_steps(game, puzzle, nodes)


def check(document: Mapping[str, Any], progress: Progress | None = None) -> list[tuple[str, str]]:
    """Check every puzzle of a file again; the failures as ``(id, what)``."""
    game = load(
        document["game"], document["players"], rules=document["rules"], **document["options"]
    )
    failures: list[tuple[str, str]] = []
    for i, puzzle in enumerate(document["puzzles"]):
        what = check_one(game, puzzle, int(puzzle.get("nodes", NODES)))
        if what is not None:
            failures.append((str(puzzle.get("id")), what))
        if progress is not None:
            progress(i + 1, len(document["puzzles"]))
    return failures


__all__ = [
    "CARDS",
    "FORMAT",
    "LEVELS",
    "NODES",
    "POINTS_LEVELS",
    "VERSION",
    "Built",
    "NotEnumerable",
    "Scripted",
    "Verdict",
    "build",
    "check",
    "check_one",
    "dump",
    "dumps",
    "merged",
    "move_value",
    "puzzle_id",
    "read",
    "shipped",
    "verdict",
    "worlds",
]
