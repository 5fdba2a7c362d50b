"""Events: the public consequences of each move, as each seat may know them (docs/design.md).

A game emits events where its rules act (a trick is won, a card is drawn, a phase
begins, a player goes out, …) and keeps them compactly, one list per event in one list
per state: ``[t, kind, *args, cache]``, where ``t`` is the number of moves played when
the event happened (so the event belongs to move ``t - 1``).  Card arguments are card
ints and lists that the game no longer changes (a finished trick is replaced by a new
list, never emptied).  An event is made by :func:`ev`.  Its JSON is built only when a
view first asks for it (:func:`attach`) and kept in its ``cache`` slot; clones share the
event lists, and views share the built JSON (read it, never change it).  A seat's own
draws show their cards, the others' only their count (a draw caches both forms).

Event JSON (``type`` and its fields; cards as texts, ``{"seat", "card"}`` where who
played a card matters):

* ``trick``: ``winner``, ``cards`` (``[{"seat", "card"}]`` in play order);
* ``tie``: ``seats`` (a tie for the trick goes on between them: the game's ``tie_word``);
* ``void_tie``: ``cards`` (each goes back to the seat that played it) and ``why``:
  ``"kina"`` (a kina that cannot go on, MM-8, with ``seats``) or ``"phase_end"`` (phase 1
  ended mid-trick, AM-8);
* ``falls``: ``cards`` (``[{"seat", "card"}]``): a phase-2 trick leaves the game;
* ``take``: ``seat``, ``cards``: what a seat picked up;
* ``draw``: ``seat``, ``count``; ``cards`` only in the drawer's own view;
* ``last_card``: ``seat``; ``card`` where it is public (a card a rule shows);
* ``phase``: ``phase`` (its name) and ``leader`` (who acts first in it, or ``None``);
* ``dreck``: ``counts`` (cards received per seat), ``given`` (per seat); ``cards`` (the
  ones it received) only in a receiver's own view;
* ``trump``: ``suit``; with ``card`` (the card that made it) and ``seat`` where known;
* ``out``: ``seat``, ``place`` (1 for the first out);
* ``round``: ``round`` (from 0), ``scores`` (that round's), ``totals`` (after it);
* ``over``: ``outcome``.

A game may keep its commonest events in its own move list instead (a game may keep the
card drawn after a phase-1 play and the cards of a take with the move) and add them to
the entry before :func:`attach` adds the others: the JSON is the same.

A state sampled from a view (:meth:`tikki.core.Game.sample_state`) cannot know the
hidden cards behind the view's events, so it keeps them as the view gave them
(:func:`past_of`) and emits new ones for the moves played on it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from tikki.core import JSON

TRICK, TIE, VOID_TIE, FALLS, TAKE, DRAW, LAST_CARD, PHASE, DRECK, TRUMP, OUT, ROUND, GAME_OVER = (
    range(13)
)
"""Compact event kinds (the second item of an event tuple)."""

TYPES = (
    "trick",
    "tie",
    "void_tie",
    "falls",
    "take",
    "draw",
    "last_card",
    "phase",
    "dreck",
    "trump",
    "out",
    "round",
    "over",
)
"""The JSON ``type`` of each compact kind."""

Event = list[Any]
"""``[t, kind, *args, cache]``: one event as a game keeps it (see :func:`ev`)."""

Past = tuple[int | None, list[list[JSON]]]
"""A sampled state's inherited events: the view's seat, and each history entry's events."""

PRIVATE = {"draw": "cards", "dreck": "cards"}
"""Fields that only one seat may see: the drawer's cards, a receiver's dreck cards."""

TRICK_TYPES = ("trick", "falls", "void_tie")
"""Event types that take a trick off the table (the view's ``last_trick``)."""


def ev(t: int, kind: int, *args: Any) -> Event:
    """A new event: ``t`` moves played, ``kind``, its arguments and empty cache slot(s).

    The hottest emitters (draws, takes, fallen tricks) write the same list literally,
    ``[t, kind, *args, None]`` (a draw: ``None, None``), to save the call.
    """
    if kind == DRAW:
        return [t, kind, *args, None, None]
    return [t, kind, *args, None]


def _seat_cards(trick: Sequence[Sequence[Any]], text: Sequence[str]) -> list[JSON]:
    return [{"seat": e[0], "card": text[e[1]]} for e in trick]


def to_json(
    event: Event, seat: int | None, text: Sequence[str], outcome: Callable[[], JSON | None]
) -> JSON:
    """The JSON of one event as ``seat`` may know it (``None``: the public), cached."""
    kind = event[1]
    if kind == DRAW and seat == event[2]:
        own = event[4]
        if own is None:
            own = event[4] = {
                "type": "draw",
                "seat": seat,
                "count": len(event[3]),
                "cards": [text[c] for c in event[3]],
            }
        return own  # type: ignore[no-any-return]
    if kind == DRECK and seat is not None and event[3][seat]:
        out = dict(to_json(event, None, text, outcome))
        out["cards"] = [text[c] for c in event[3][seat]]
        return out
    cached = event[-1]
    if cached is None:
        cached = event[-1] = _build(event, text, outcome)
    return cached  # type: ignore[no-any-return]


def _build(event: Event, text: Sequence[str], outcome: Callable[[], JSON | None]) -> JSON:
    """The public JSON of one event."""
    kind = event[1]
    if kind == DRAW:
        return {"type": "draw", "seat": event[2], "count": len(event[3])}
    if kind == TRICK:
        return {"type": "trick", "winner": event[2], "cards": _seat_cards(event[3], text)}
    if kind == FALLS:
        cards = [{"seat": s, "card": text[c]} for s, cs in event[2] for c in cs]
        return {"type": "falls", "cards": cards}
    if kind == TAKE:
        return {"type": "take", "seat": event[2], "cards": [text[c] for c in event[3]]}
    if kind == TIE:
        return {"type": "tie", "seats": list(event[2])}
    if kind == VOID_TIE:
        out = {"type": "void_tie", "why": event[3], "cards": _seat_cards(event[2], text)}
        if event[4] is not None:
            out["seats"] = list(event[4])
        return out
    if kind == LAST_CARD:
        out = {"type": "last_card", "seat": event[2]}
        if event[3] >= 0:
            out["card"] = text[event[3]]
        return out
    if kind == TRUMP:
        out = {"type": "trump", "suit": event[2]}
        if event[3] >= 0:
            out["card"] = text[event[3]]
        if event[4] >= 0:
            out["seat"] = event[4]
        return out
    return _other(event, outcome)


def _other(event: Event, outcome: Callable[[], JSON | None]) -> JSON:
    kind = event[1]
    if kind == PHASE:
        return {"type": "phase", "phase": event[2], "leader": None if event[3] < 0 else event[3]}
    if kind == OUT:
        return {"type": "out", "seat": event[2], "place": event[3]}
    if kind == DRECK:
        given, secret = event[2], event[3]
        return {"type": "dreck", "counts": [len(s) for s in secret], "given": list(given)}
    if kind == ROUND:
        return {
            "type": "round",
            "round": event[2],
            "scores": list(event[3]),
            "totals": list(event[4]),
        }
    if kind == GAME_OVER:
        return {"type": "over", "outcome": outcome()}  # final: the game is over
    raise ValueError(f"unknown event kind {kind!r}")


def attach(
    entries: list[JSON],
    events: Sequence[Event],
    past: Past | None,
    seat: int | None,
    text: Sequence[str],
    outcome: Callable[[], JSON | None],
) -> list[JSON]:
    """Add ``"events"`` to the history ``entries`` (in place) as ``seat`` sees them."""
    if past is not None:
        owner, lists = past
        for entry, evs in zip(entries, lists, strict=False):
            if evs:
                entry["events"] = evs[:] if seat == owner else [_public(e) for e in evs]
    for event in events:
        _add(entries[event[0] - 1], event, seat, text, outcome)
    return entries


def _add(
    entry: JSON,
    event: Event,
    seat: int | None,
    text: Sequence[str],
    outcome: Callable[[], JSON | None],
) -> None:
    """Append ``event``'s JSON, as ``seat`` sees it, to a history entry's ``events``."""
    kind = event[1]
    js = event[4] if kind == DRAW and seat == event[2] else event[-1]
    if js is None or kind == DRECK:
        js = to_json(event, seat, text, outcome)
    got = entry.get("events")
    if got is None:
        entry["events"] = [js]
    else:
        got.append(js)


Book = dict[int | None, list[Any]]
"""A state's built history, per seat (``None``: the public): ``[entries, events used]``."""


def extend(
    book: Book,
    seat: int | None,
    count: int,
    entry: Callable[[int, int | None], JSON],
    events: Sequence[Event],
    past: Past | None,
    text: Sequence[str],
    outcome: Callable[[], JSON | None],
    own: Callable[[int, int], bool] | None = None,
) -> list[JSON]:
    """``seat``'s history of the first ``count`` moves, built incrementally (issue 17).

    The same entries as :func:`attach` over every ``entry(i, seat)``, but each entry is
    built once: ``book`` keeps the entries built so far and how many ``events`` they hold,
    and only the moves and events added since are built now.  With ``own`` (``own(i,
    seat)``: whether move ``i`` itself reads otherwise for ``seat``, e.g. its own draw),
    a seat's entry that differs from the public one neither by its move nor by an event
    (a seat's own draw or dreck, the events a sampled state kept from its seat's view)
    is the public entry itself.  Entries are shared between successive histories and
    between seats (read them, never change them); the list is new.
    """
    if seat is None or own is None:
        return _grow(book, seat, count, entry, events, past, text, outcome)[:]
    total = len(events)
    public = book.get(None)
    if public is None or len(public[0]) != count or public[1] != total:
        _grow(book, None, count, entry, events, past, text, outcome)
        public = book[None]
    kept = book.get(seat)
    if kept is None:
        kept = book[seat] = [[], 0]
    entries: list[JSON] = kept[0]
    start, done = len(entries), kept[1]
    fresh = events[done:] if done < total else ()
    private: set[int] = set()
    for event in fresh:
        i = event[0] - 1
        if 0 <= i < start:  # an event for an entry handed out: build this seat's again
            del book[seat]
            return extend(book, seat, count, entry, events, past, text, outcome, own)
        if _private(event, seat):
            private.add(i)
    if start < count:
        if past is not None and past[0] == seat:
            lists = past[1]
            private.update(i for i in range(start, min(count, len(lists))) if lists[i])
        shared = public[0]
        mine: set[int] = set()
        for i in range(start, count):
            if i in private or own(i, seat):
                mine.add(i)
                entries.append(_fresh_entry(entry, i, seat, past))
            else:
                entries.append(shared[i])
        if mine:
            for event in fresh:
                if event[0] - 1 in mine:
                    _add(entries[event[0] - 1], event, seat, text, outcome)
    kept[1] = total
    return entries[:]


def _private(event: Event, seat: int) -> bool:
    """Whether ``seat`` sees ``event`` otherwise than the public does."""
    kind = event[1]
    return (kind == DRAW and event[2] == seat) or (kind == DRECK and bool(event[3][seat]))


def _fresh_entry(
    entry: Callable[[int, int | None], JSON], i: int, seat: int | None, past: Past | None
) -> JSON:
    """Move ``i``'s entry for ``seat`` with the events a sampled state kept for it."""
    made = entry(i, seat)
    if past is not None and i < len(past[1]):
        owner, lists = past
        evs = lists[i]
        if evs:
            made["events"] = evs[:] if seat == owner else [_public(e) for e in evs]
    return made


def _grow(
    book: Book,
    seat: int | None,
    count: int,
    entry: Callable[[int, int | None], JSON],
    events: Sequence[Event],
    past: Past | None,
    text: Sequence[str],
    outcome: Callable[[], JSON | None],
) -> list[JSON]:
    """``book[seat]``'s entries brought up to ``count`` moves and every event (kept)."""
    kept = book.get(seat)
    if kept is None:
        kept = book[seat] = [[], 0]
    entries: list[JSON] = kept[0]
    start = len(entries)
    if start < count:
        entries.extend([_fresh_entry(entry, i, seat, past) for i in range(start, count)])
    done = kept[1]
    if done < len(events):
        for event in events[done:]:
            i = event[0] - 1
            if i < start:  # an entry already handed out: change a copy, never it
                old = entries[i]
                entries[i] = old = dict(old)
                if "events" in old:
                    old["events"] = list(old["events"])
            _add(entries[i], event, seat, text, outcome)
        kept[1] = len(events)
    return entries


def _public(event: JSON) -> JSON:
    field = PRIVATE.get(event["type"])
    if field is None or field not in event:
        return event
    return {k: v for k, v in event.items() if k != field}


def past_of(view: Mapping[str, Any]) -> Past | None:
    """The events of a view's history, kept by a state sampled from that view."""
    history = view.get("history") or []
    lists = [list(h.get("events") or []) for h in history]
    if not any(lists):
        return None
    return view.get("seat"), lists


def last_trick(events: Sequence[Event], past: Past | None, text: Sequence[str]) -> JSON | None:
    """The view's ``last_trick``: the last trick that left the table, or ``None``.

    ``{"kind", "winner", "cards", "move"}``: ``kind`` is the event type (``trick``,
    ``falls`` or ``void_tie``), ``winner`` the seat that won it (``None`` unless a won
    trick), ``cards`` ``[{"seat", "card"}]`` in play order, ``move`` the index of the move
    that ended it.  Its ``cards`` list is the trick event's own, shared with the history
    (read it, never change it).
    """
    for event in reversed(events):
        if event[1] in (TRICK, FALLS, VOID_TIE):
            js = to_json(event, None, text, lambda: None)
            return _trick_of(js, event[0] - 1)
    if past is not None:
        lists = past[1]
        for i in range(len(lists) - 1, -1, -1):
            for js in reversed(lists[i]):
                if js["type"] in TRICK_TYPES:
                    return _trick_of(js, i)
    return None


def _trick_of(event: JSON, move: int) -> JSON:
    """The ``last_trick`` of a trick event's JSON; its ``cards`` are the event's (shared)."""
    return {
        "kind": event["type"],
        "winner": event.get("winner"),
        "cards": event["cards"],
        "move": move,
    }


class Chronicled(Protocol):
    """A state whose history :func:`history_of` builds: its event log ``_event_log``, the
    past of a sampled state ``_sampled_past``, the entries built so far ``_history_book``,
    and how one move's entry reads (``_entry``) and whether it reads otherwise for its own
    seat (``_own``)."""

    _history_book: Book | None
    _event_log: list[Event]
    _sampled_past: Past | None

    @property
    def outcome(self) -> JSON | None:
        """The outcome, ``None`` until the game is over."""
        ...

    def _entry(self, i: int, seat: int | None) -> JSON: ...

    def _own(self, i: int, seat: int) -> bool: ...


def history_of(
    state: Chronicled, seat: int | None, count: int, card_text: Sequence[str]
) -> list[JSON]:
    """``seat``'s history of ``state``'s ``count`` moves (docs/design.md: view ``history``), built
    by :func:`extend` and kept in the state's ``_history_book``: the entries are shared between
    successive histories (read them, never change them)."""
    book = state._history_book
    if book is None:
        book = state._history_book = {}
    return extend(
        book,
        seat,
        count,
        state._entry,
        state._event_log,
        state._sampled_past,
        card_text,
        lambda: state.outcome,
        state._own,
    )
