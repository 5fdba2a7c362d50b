"""A puzzle's themes, starting rating and explanation, in players' words (en, fi, de).

Everything here is drawn from the position's view and from the enumerated worlds of the
proof (:func:`tikki.puzzles.verdict`), never from the deal the game was played with: an
explanation may say "where 5♠ is with seat 2" only as one of the ways the cards may lie.

**Themes** (ids, stable; :func:`theme_title` names them): ``take-back`` (the answer takes
the card back), ``keep-the-trump`` (a trump could be played and loses: the answer keeps it),
``trump-it`` (the answer is a trump), ``beat-low`` / ``beat-high`` (a lower / higher card of
the same suit also beats, and loses), ``the-lead`` (the seat leads a new trick), ``the-run``
(the answer is a sequence), ``force-the-take`` (after the answer the next player can only
take), ``the-last-trick`` (six cards or fewer are left in the hands), ``hidden-cards``
(the view has more than one world); a points puzzle's also ``the-mosquito``
(the answer plays a mosquito) and ``name-the-trump`` (the answer names the trump); a
puzzle of several steps (:mod:`tikki.puzzles.line`) ``several-moves`` and every step's
themes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tikki import i18n
from tikki.bots.endgame import LOSS, Solver
from tikki.bots.heuristic import policy_for
from tikki.core import Game, State
from tikki.i18n import N_
from tikki.i18n import _ as _t

LANGUAGES = ("en", "fi", "de")
"""The languages every explanation is written in."""
RANKS = "23456789TJQKA"
"""Rank order of a card text's rank letter (``8D``: 8)."""
LINE = 8
"""The most moves of a losing line told."""
THEMES: Mapping[str, str] = {
    "take-back": N_("take the card back"),
    "keep-the-trump": N_("keep the trump"),
    "trump-it": N_("play the trump"),
    "beat-low": N_("beat low"),
    "beat-high": N_("beat high"),
    "the-lead": N_("the lead"),
    "the-run": N_("the run"),
    "force-the-take": N_("force the take"),
    "the-last-trick": N_("the last trick"),
    "hidden-cards": N_("hidden cards"),
    "the-mosquito": N_("the mosquito"),
    "name-the-trump": N_("name the trump"),
    "several-moves": N_("several moves"),
}
"""Each theme's id and its title (translated by :func:`theme_title`)."""


def theme_title(theme: str) -> str:
    """A theme's title in the current language."""
    return _t(THEMES[theme])


def _suit(card: str) -> str:
    return card[-1:]


def _rank(card: str) -> int:
    return RANKS.find(card[:-1][-1:]) if len(card) >= 2 else -1


def themes(
    game: Game, view: Mapping[str, Any], answer: str, world: State, worlds: int
) -> list[str]:
    """The themes of a puzzle (see the module), in the order of :data:`THEMES`."""
    legal = [str(m) for m in view["legal_moves"]]
    others = [m for m in legal if m != answer]
    trump = str(view.get("trump") or "")
    cards = [m for m in others if m != "take" and "+" not in m]
    found: set[str] = set()
    if answer == "take":
        found.add("take-back")
    elif "+" in answer:
        found.add("the-run")
    else:
        if trump and _suit(answer) == trump:
            found.add("trump-it")
        elif trump and any(_suit(m) == trump for m in cards):
            found.add("keep-the-trump")
        same = [m for m in cards if _suit(m) == _suit(answer)]
        if not (view.get("trick") or {}).get("plays"):
            found.add("the-lead")
        elif any(_rank(m) < _rank(answer) for m in same):
            found.add("beat-high")
        elif any(_rank(m) > _rank(answer) for m in same):
            found.add("beat-low")
    after = world.clone()
    after.play(answer)
    if not after.is_over and after.legal_moves() == ["take"]:
        found.add("force-the-take")
    if sum(int(n) for n in view["hand_sizes"]) <= 6:
        found.add("the-last-trick")
    if worlds > 1:
        found.add("hidden-cards")
    return [t for t in THEMES if t in found]


def rating(game: Game, view: Mapping[str, Any], answer: str, worlds: int) -> dict[str, float]:
    """A starting rating on the OpenSkill scale: harder with more moves to choose from, with
    hidden cards, and where the heuristic bot's rules miss the answer."""
    import random

    legal = len(view["legal_moves"])
    rules_miss = policy_for(game)(game, view, random.Random(0)) != answer
    mu = 20.0 + 1.5 * min(legal - 2, 6)
    mu += (3.0 if worlds > 1 else 0.0) + (4.0 if rules_miss else 0.0)
    return {"mu": round(mu, 2), "sigma": round(25 / 3, 3)}


def _who(seat: int, me: int) -> str:
    """A seat as the table names it: "you", or "seat N" counted from 1."""
    return _t("you") if seat == me else _t("seat {n}", n=seat + 1)


def _step(seat: int, move: str, me: int) -> str:
    if move == "take":
        return _t("you take") if seat == me else _t("seat {n} takes", n=seat + 1)
    if seat == me:
        return _t("you play {card}", card=move)
    return _t("seat {n} plays {card}", n=seat + 1, card=move)


def losing_line(
    world: State, move: str, me: int, solver: Solver | None = None
) -> list[tuple[int, str]]:
    """A line after ``move`` in ``world`` where the others keep ``me`` lost: the first of
    their moves that keeps the loss, the seat's best try (the first move) otherwise.
    ``solver``: the proof's own solver of ``world`` (its table proved most of it)."""
    from tikki.puzzles import move_value

    solver = solver or Solver(me)
    state = world.clone()
    state.play(move)
    line: list[tuple[int, str]] = []
    while not state.is_over and len(line) < LINE:
        seat = state.current_player
        assert seat is not None
        legal = state.legal_moves()
        pick = legal[0]
        if seat != me:
            pick = next((m for m in legal if move_value(solver, state, m) == LOSS), legal[0])
        line.append((seat, pick))
        state.play(pick)
    return line


def _placement(world: State, worlds: list[State], me: int) -> list[tuple[int, list[str]]]:
    """The cards whose place differs between the worlds, seat by seat, in ``world``."""

    def hands(w: State) -> list[set[str]]:
        zones = w.reveal()["zones"]
        return [set(zones[f"hand {s}"]) for s in range(w.game.players)]

    mine = hands(world)
    moving: set[str] = set()
    for other in worlds:
        for a, b in zip(mine, hands(other), strict=True):
            moving |= a ^ b
    return [(s, sorted(h & moving)) for s, h in enumerate(mine) if s != me and h & moving]


def explain(
    view: Mapping[str, Any],
    answer: str,
    values: Mapping[str, list[int]],
    worlds: list[State],
    lines: Mapping[str, list[tuple[int, str]]] | None = None,
) -> str:
    """The explanation in the current language: why the answer escapes and how each other
    move loses (in a world where it does, its hidden cards named, and a line of play)."""
    me = int(view["seat"])
    n = len(worlds)
    parts = [
        _t("{move} escapes whatever the others play.", move=answer)
        if n == 1
        else _t(
            "{move} escapes whatever the others play, in every one of the {n} ways the "
            "hidden cards may lie.",
            move=answer,
            n=n,
        )
    ]
    for move, vs in values.items():
        if move == answer:
            continue
        i = vs.index(LOSS)
        shown = lines[move] if lines is not None else losing_line(worlds[i], move, me)
        line = ", ".join(_step(s, m, me) for s, m in shown)
        where = "; ".join(
            _t("{cards} with {who}", cards=" ".join(cs), who=_who(s, me))
            for s, cs in _placement(worlds[i], worlds, me)
        )
        if where:
            parts.append(
                _t(
                    "{move} loses where the cards lie so: {where}. Then: {line}.",
                    move=move,
                    where=where,
                    line=line,
                )
            )
        else:
            parts.append(_t("{move} loses: {line}.", move=move, line=line))
    return " ".join(parts)


def points_themes(view: Mapping[str, Any], answer: str, worlds: int) -> list[str]:
    """The themes of a points puzzle (see the module), in the order of :data:`THEMES`."""
    legal = [str(m) for m in view["legal_moves"]]
    trump = str(view.get("trump") or "")
    found: set[str] = set()
    if answer.startswith("trump "):
        found.add("name-the-trump")
    else:
        if answer.startswith("M"):
            found.add("the-mosquito")
        if trump and _suit(answer) == trump:
            found.add("trump-it")
        elif trump and any(_suit(m) == trump for m in legal if m != answer):
            found.add("keep-the-trump")
        if not view.get("trick"):
            found.add("the-lead")
    if sum(int(n) for n in view["hand_sizes"]) <= 6:
        found.add("the-last-trick")
    if worlds > 1:
        found.add("hidden-cards")
    return [t for t in THEMES if t in found]


def explain_points(
    view: Mapping[str, Any], answer: str, points: Mapping[str, list[int]], worlds: list[State]
) -> str:
    """A points puzzle's explanation in the current language: what the answer scores at
    least, and for each other move the world where it trails most (its hidden cards named)
    and what the others can hold it to there."""
    me = int(view["seat"])
    n = len(worlds)
    least = min(points[answer])
    parts = [
        _t(
            "{move} scores at least {p} points this round whatever the others play.",
            move=answer,
            p=least,
        )
        if n == 1
        else _t(
            "{move} scores at least {p} points this round whatever the others play, in "
            "every one of the {n} ways the hidden cards may lie.",
            move=answer,
            p=least,
            n=n,
        )
    ]
    for move, vs in points.items():
        if move == answer:
            continue
        i = max(range(n), key=lambda k: points[answer][k] - vs[k])
        where = "; ".join(
            _t("{cards} with {who}", cards=" ".join(cs), who=_who(s, me))
            for s, cs in _placement(worlds[i], worlds, me)
        )
        held = {"move": move, "q": vs[i], "answer": answer, "p": points[answer][i]}
        if where:
            parts.append(
                _t(
                    "After {move} the others can hold you to {q} points where the cards "
                    "lie so: {where}; {answer} scores {p} there.",
                    where=where,
                    **held,
                )
            )
        else:
            parts.append(
                _t(
                    "After {move} the others can hold you to {q} points; {answer} scores {p}.",
                    **held,
                )
            )
    return " ".join(parts)


def _lines(view: Mapping[str, Any], answer: str, found: Any) -> dict[str, list[tuple[int, str]]]:
    """Each other move's losing line (:func:`losing_line`), once for every language, in
    the first world where it loses, searched with that world's proof solver."""
    me = int(view["seat"])
    out: dict[str, list[tuple[int, str]]] = {}
    for move, vs in found.values.items():
        if move != answer:
            i = vs.index(LOSS)
            solver = found.solvers[i] if i < len(found.solvers) else None
            out[move] = losing_line(found.worlds[i], move, me, solver)
    return out


def describe(
    game: Game, view: Mapping[str, Any], found: Any, pid: str, number: int, nodes: int
) -> dict[str, Any]:
    """The stored puzzle (docs/research.md, "Puzzles") of a proven position."""
    if found.points is not None:
        return _describe_points(game, view, found, pid, number, nodes)
    answer: str = found.answer
    lines = _lines(view, answer, found)
    texts: dict[str, str] = {}
    for lang in LANGUAGES:
        with i18n.use(lang):
            texts[lang] = explain(view, answer, found.values, found.worlds, lines)
    return {
        "id": pid,
        "seat": int(view["seat"]),
        "move_number": number,
        "view": dict(view),
        "answer": [answer],
        "kind": "escape",
        "worlds": len(found.worlds),
        "values": found.counts(),
        "nodes": nodes,
        "themes": themes(game, view, answer, found.worlds[0], len(found.worlds)),
        "rating": rating(game, view, answer, len(found.worlds)),
        "explanation": texts,
    }


def _describe_points(
    game: Game, view: Mapping[str, Any], found: Any, pid: str, number: int, nodes: int
) -> dict[str, Any]:
    """The stored puzzle of a proven points position (``kind`` ``points``: the escape
    puzzle's fields, and ``points`` and ``margin``)."""
    from tikki.puzzles import points

    answer: str = found.answer
    texts: dict[str, str] = {}
    for lang in LANGUAGES:
        with i18n.use(lang):
            texts[lang] = explain_points(view, answer, found.points, found.worlds)
    return {
        "id": pid,
        "seat": int(view["seat"]),
        "move_number": number,
        "view": dict(view),
        "answer": [answer],
        "kind": "points",
        "worlds": len(found.worlds),
        "values": found.counts(),
        "points": points.summary(found.points),
        "margin": points.margin(answer, found.points),
        "nodes": nodes,
        "themes": points_themes(view, answer, len(found.worlds)),
        "rating": rating(game, view, answer, len(found.worlds)),
        "explanation": texts,
    }


STEP_MU = 3.0
"""How much harder (mu) each step after the first makes a puzzle's starting rating."""


def describe_line(first: Mapping[str, Any], steps: Sequence[Any]) -> dict[str, Any]:
    """A puzzle of several steps: ``first`` (the first step, :func:`describe`) with each
    later step (:class:`tikki.puzzles.line.Step`, described as a puzzle of its own) stored
    after it; the answer lists every step's, the themes are every step's and
    ``several-moves``, the starting rating :data:`STEP_MU` harder a step."""
    if not steps:
        return dict(first)
    later = [s.stored for s in steps]
    found = {"several-moves", *first["themes"], *(t for s in later for t in s["themes"])}
    rating = dict(first["rating"])
    rating["mu"] = round(float(rating["mu"]) + STEP_MU * len(steps), 2)
    return {
        **first,
        "answer": [*first["answer"], *(s.found.answer for s in steps)],
        "themes": [t for t in THEMES if t in found],
        "rating": rating,
        "steps": later,
    }
