"""Events: the public consequences of each move, as each seat may know them (docs/design.md).

A game emits events where its rules act (a trick is won, a card is drawn, a phase
begins, a player goes out, …) and keeps them in one list per state, its ``_event_log``.
An event is a typed, immutable record: one :class:`typing.NamedTuple` per JSON ``type``
(:class:`Trick`, :class:`Draw`, …; :data:`Event` is their union), made by its constructor
(:func:`trick_event`, :func:`draw_event`, …).  Every record starts with ``moves``, the
number of moves played when the event happened (so the event belongs to move ``moves -
1``), and ends with ``cache``, a new list that keeps its JSON once a view has built it
(:data:`Cache`): the record itself never changes, so clones share the records and views
share the built JSON (read it, never change it).  Card arguments are card ints and lists
that the game no longer changes (a finished trick is replaced by a new list, never
emptied).  A seat's own draws show their cards, the others' only their count (a draw
caches both forms).

Event JSON (``type`` and its fields; cards as texts, ``{"seat", "card"}`` where who
played a card matters):

* ``trick``: ``winner``, ``cards`` (``[{"seat", "card"}]`` in play order);
* ``tie``: ``seats`` (a tie for the trick goes on between them: the game's ``tie_word``);
* ``void_tie``: ``cards`` (each goes back to the seat that played it) and ``why``:
  ``"kina"`` (a kina that cannot go on, MM-8, with ``seats``) or ``"phase_end"`` (phase 1
  ended mid-trick, AM-8);
* ``falls``: ``cards`` (``[{"seat", "card"}]``): a phase-2 trick leaves the game;
* ``take``: ``seat``, ``cards``: what a seat picked up;
* ``draw``: ``seat``, ``count``; ``cards`` only in the drawer's own view; ``deal``
  (``true``) where a deal gave the cards (:func:`deal_event`), never for a stock draw;
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
from typing import Any, Final, NamedTuple, Protocol, TypeAlias, final

from tikki.views import JSON

Cache: TypeAlias = list[JSON | None]
"""An event's JSON once built (:func:`to_json`): ``[public]``, and ``[public, the drawer's
own]`` for a draw; a new list for each record, made by its constructor."""

NO_CARD = -1
"""A card argument that is not known in public (a ``last_card`` or ``trump`` without it)."""

NO_SEAT = -1
"""A seat argument that is not known (a ``phase`` without a leader, a ``trump`` nobody made)."""


class Trick(NamedTuple):
    """``trick``: ``winner`` won the trick ``cards``: ``(seat, card, …)`` tuples in play
    order (the game's own trick list; what follows the card is the game's)."""

    moves: int
    winner: int
    cards: Sequence[tuple[int, ...]]
    cache: Cache


class Tie(NamedTuple):
    """``tie``: a tie for the trick goes on between ``seats``."""

    moves: int
    seats: Sequence[int]
    cache: Cache


class VoidTie(NamedTuple):
    """``void_tie``: the trick ``cards`` (as in :class:`Trick`) goes back to who played
    each; ``why`` is ``"kina"`` (with the tied ``seats``) or ``"phase_end"`` (``None``)."""

    moves: int
    cards: Sequence[tuple[int, ...]]
    why: str
    seats: Sequence[int] | None
    cache: Cache


Play: TypeAlias = Sequence[int | Sequence[int]]
"""One play of a phase-2 trick as the game keeps it: ``[seat, cards]``."""


class Falls(NamedTuple):
    """``falls``: a phase-2 trick leaves the game: its ``plays`` (:data:`Play`) in play
    order."""

    moves: int
    plays: Sequence[Play]
    cache: Cache


class Take(NamedTuple):
    """``take``: ``seat`` picked up ``cards``."""

    moves: int
    seat: int
    cards: Sequence[int]
    cache: Cache


class Draw(NamedTuple):
    """``draw``: ``seat`` drew ``cards`` (only its own view shows them; two cache slots);
    ``deal``: they were dealt (a new deal), not drawn from the stock."""

    moves: int
    seat: int
    cards: Sequence[int]
    deal: bool
    cache: Cache


class LastCard(NamedTuple):
    """``last_card``: ``seat`` drew the stock's last card, ``card`` where it is public
    (else :data:`NO_CARD`)."""

    moves: int
    seat: int
    card: int
    cache: Cache


class Phase(NamedTuple):
    """``phase``: the phase ``name`` begins; ``leader`` acts first (else :data:`NO_SEAT`)."""

    moves: int
    name: str
    leader: int
    cache: Cache


class Dreck(NamedTuple):
    """``dreck``: each seat gave ``given[seat]`` cards and received ``received[seat]``
    (only a receiver's own view shows its cards)."""

    moves: int
    given: Sequence[int]
    received: Sequence[Sequence[int]]
    cache: Cache


class Trump(NamedTuple):
    """``trump``: the trump is ``suit`` (its name), made by ``card`` and ``seat`` where
    known (else :data:`NO_CARD`, :data:`NO_SEAT`)."""

    moves: int
    suit: str
    card: int
    seat: int
    cache: Cache


class Out(NamedTuple):
    """``out``: ``seat`` went out, ``place``-th (1 for the first)."""

    moves: int
    seat: int
    place: int
    cache: Cache


class Round(NamedTuple):
    """``round``: round ``number`` (from 0) is scored: its ``scores`` and the ``totals``
    after it."""

    moves: int
    number: int
    scores: Sequence[int]
    totals: Sequence[int]
    cache: Cache


class Over(NamedTuple):
    """``over``: the game is over (its JSON carries the state's outcome)."""

    moves: int
    cache: Cache


Event: TypeAlias = (
    Trick
    | Tie
    | VoidTie
    | Falls
    | Take
    | Draw
    | LastCard
    | Phase
    | Dreck
    | Trump
    | Out
    | Round
    | Over
)
"""One event as a game keeps it: a record of one of the types above."""

_new: Final = tuple.__new__
"""``tuple.__new__``: the constructors below make their record with it, not through the
class (a NamedTuple's own ``__new__`` is Python code, twice as slow in compiled builds)."""


# The record classes again, as constants: compiled, a constant is read from a static, where
# the class's own name (a class mypyc does not compile) is looked up in the module's dict
# at every call.
_TRICK: Final = Trick
_TIE: Final = Tie
_VOIDTIE: Final = VoidTie
_FALLS: Final = Falls
_TAKE: Final = Take
_DRAW: Final = Draw
_LASTCARD: Final = LastCard
_PHASE: Final = Phase
_DRECK: Final = Dreck
_TRUMP: Final = Trump
_OUT: Final = Out
_ROUND: Final = Round
_OVER: Final = Over


def trick_event(moves: int, winner: int, cards: Sequence[tuple[int, ...]]) -> Trick:
    """A new :class:`Trick` (each constructor below gives its record a new cache)."""
    return _new(_TRICK, (moves, winner, cards, [None]))


def tie_event(moves: int, seats: Sequence[int]) -> Tie:
    """A new :class:`Tie`."""
    return _new(_TIE, (moves, seats, [None]))


def void_tie_event(
    moves: int, cards: Sequence[tuple[int, ...]], why: str, seats: Sequence[int] | None
) -> VoidTie:
    """A new :class:`VoidTie`."""
    return _new(_VOIDTIE, (moves, cards, why, seats, [None]))


def falls_event(moves: int, plays: Sequence[Play]) -> Falls:
    """A new :class:`Falls`."""
    return _new(_FALLS, (moves, plays, [None]))


def take_event(moves: int, seat: int, cards: Sequence[int]) -> Take:
    """A new :class:`Take`."""
    return _new(_TAKE, (moves, seat, cards, [None]))


def draw_event(moves: int, seat: int, cards: Sequence[int]) -> Draw:
    """A new :class:`Draw` (its cache has two slots: the public form and the drawer's)."""
    return _new(_DRAW, (moves, seat, cards, False, [None, None]))


def deal_event(moves: int, seat: int, cards: Sequence[int]) -> Draw:
    """A new :class:`Draw` of the cards a deal gave ``seat`` (its JSON says ``"deal": true``)."""
    return _new(_DRAW, (moves, seat, cards, True, [None, None]))


def last_card_event(moves: int, seat: int, card: int) -> LastCard:
    """A new :class:`LastCard`."""
    return _new(_LASTCARD, (moves, seat, card, [None]))


def phase_event(moves: int, name: str, leader: int) -> Phase:
    """A new :class:`Phase`."""
    return _new(_PHASE, (moves, name, leader, [None]))


def dreck_event(moves: int, given: Sequence[int], received: Sequence[Sequence[int]]) -> Dreck:
    """A new :class:`Dreck`."""
    return _new(_DRECK, (moves, given, received, [None]))


def trump_event(moves: int, suit: str, card: int, seat: int) -> Trump:
    """A new :class:`Trump`."""
    return _new(_TRUMP, (moves, suit, card, seat, [None]))


def out_event(moves: int, seat: int, place: int) -> Out:
    """A new :class:`Out`."""
    return _new(_OUT, (moves, seat, place, [None]))


def round_event(moves: int, number: int, scores: Sequence[int], totals: Sequence[int]) -> Round:
    """A new :class:`Round`."""
    return _new(_ROUND, (moves, number, scores, totals, [None]))


def over_event(moves: int) -> Over:
    """A new :class:`Over`."""
    return _new(_OVER, (moves, [None]))


Past = tuple[int | None, list[list[JSON]]]
"""A sampled state's inherited events: the view's seat, and each history entry's events."""

PRIVATE = {"draw": "cards", "dreck": "cards"}
"""Fields that only one seat may see: the drawer's cards, a receiver's dreck cards."""

TRICK_TYPES = ("trick", "falls", "void_tie")
"""Event types that take a trick off the table (the view's ``last_trick``)."""


def _seat_cards(trick: Sequence[tuple[int, ...]], text: Sequence[str]) -> list[JSON]:
    return [{"seat": e[0], "card": text[e[1]]} for e in trick]


def _played(play: Play, text: Sequence[str]) -> list[JSON]:
    """One play of a fallen trick: ``{"seat", "card"}`` for each of its cards."""
    seat, cards = play
    assert isinstance(seat, int) and not isinstance(cards, int)
    return [{"seat": seat, "card": text[c]} for c in cards]


def to_json(
    event: Event, seat: int | None, text: Sequence[str], outcome: Callable[[], JSON | None]
) -> JSON:
    """The JSON of one event as ``seat`` may know it (``None``: the public), cached."""
    if isinstance(event, Draw) and seat == event.seat:
        own = event.cache[1]
        if own is None:
            own = event.cache[1] = {
                "type": "draw",
                "seat": seat,
                "count": len(event.cards),
                "cards": [text[c] for c in event.cards],
            }
            if event.deal:
                own["deal"] = True
        return own
    if isinstance(event, Dreck) and seat is not None and event.received[seat]:
        out = dict(to_json(event, None, text, outcome))
        out["cards"] = [text[c] for c in event.received[seat]]
        return out
    cache = event.cache
    built = cache[0]
    if built is None:
        built = cache[0] = _build(event, text, outcome)
    return built


def _build(event: Event, text: Sequence[str], outcome: Callable[[], JSON | None]) -> JSON:
    """The public JSON of one event."""
    if isinstance(event, Draw):
        if event.deal:
            return {"type": "draw", "seat": event.seat, "count": len(event.cards), "deal": True}
        return {"type": "draw", "seat": event.seat, "count": len(event.cards)}
    if isinstance(event, Trick):
        return {"type": "trick", "winner": event.winner, "cards": _seat_cards(event.cards, text)}
    if isinstance(event, Falls):
        return {"type": "falls", "cards": [c for play in event.plays for c in _played(play, text)]}
    if isinstance(event, Take):
        return {"type": "take", "seat": event.seat, "cards": [text[c] for c in event.cards]}
    if isinstance(event, Tie):
        return {"type": "tie", "seats": list(event.seats)}
    if isinstance(event, VoidTie):
        void: JSON = {"type": "void_tie", "why": event.why, "cards": _seat_cards(event.cards, text)}
        if event.seats is not None:
            void["seats"] = list(event.seats)
        return void
    if isinstance(event, LastCard):
        last: JSON = {"type": "last_card", "seat": event.seat}
        if event.card >= 0:
            last["card"] = text[event.card]
        return last
    if isinstance(event, Trump):
        out: JSON = {"type": "trump", "suit": event.suit}
        if event.card >= 0:
            out["card"] = text[event.card]
        if event.seat >= 0:
            out["seat"] = event.seat
        return out
    return _other(event, outcome)


def _other(event: Event, outcome: Callable[[], JSON | None]) -> JSON:
    if isinstance(event, Phase):
        leader = None if event.leader < 0 else event.leader
        return {"type": "phase", "phase": event.name, "leader": leader}
    if isinstance(event, Out):
        return {"type": "out", "seat": event.seat, "place": event.place}
    if isinstance(event, Dreck):
        counts = [len(r) for r in event.received]
        return {"type": "dreck", "counts": counts, "given": list(event.given)}
    if isinstance(event, Round):
        return {
            "type": "round",
            "round": event.number,
            "scores": list(event.scores),
            "totals": list(event.totals),
        }
    if isinstance(event, Over):
        return {"type": "over", "outcome": outcome()}  # final: the game is over
    raise ValueError(f"unknown event {event!r}")


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
        _add(entries[event.moves - 1], event, seat, text, outcome)
    return entries


def _add(
    entry: JSON,
    event: Event,
    seat: int | None,
    text: Sequence[str],
    outcome: Callable[[], JSON | None],
) -> None:
    """Append ``event``'s JSON, as ``seat`` sees it, to a history entry's ``events``."""
    js = event.cache[1] if isinstance(event, Draw) and seat == event.seat else event.cache[0]
    if js is None or isinstance(event, Dreck):
        js = to_json(event, seat, text, outcome)
    got = entry.get("events")
    if got is None:
        entry["events"] = [js]
    else:
        got.append(js)


@final
class Chapter:
    """One seat's history as built so far: its ``entries`` (one a move) and how many of
    the state's events they hold (``events_used``); the public chapter also keeps, for
    each entry, the seat for which its move reads otherwise (``owners``, ``-1``: none)."""

    def __init__(self) -> None:
        self.entries: list[JSON] = []
        self.events_used = 0
        self.owners: list[int] = []


Book = dict[int | None, Chapter]
"""A state's built history, per seat (``None``: the public)."""


class Chronicled(Protocol):
    """A state whose history :func:`history_of` builds: its event log ``_event_log``, the
    past of a sampled state ``_sampled_past``, the entries built so far ``_history_book``,
    and how one move's entry reads (``_entry``) and the seat for which it reads otherwise
    (``_owner``, ``-1``: none)."""

    _history_book: Book | None
    _event_log: list[Event]
    _sampled_past: Past | None

    @property
    def outcome(self) -> JSON | None:
        """The outcome, ``None`` until the game is over."""
        ...

    def _entry(self, i: int, seat: int | None) -> JSON: ...

    def _owner(self, i: int) -> int: ...


def history_of(
    state: Chronicled, seat: int | None, count: int, card_text: Sequence[str]
) -> list[JSON]:
    """``seat``'s history of ``state``'s ``count`` moves (docs/design.md: view ``history``),
    built incrementally and kept in the state's ``_history_book``.

    The same entries as :func:`attach` over every ``_entry(i, seat)``, but each entry is
    built once: the book keeps each seat's entries built so far and how many events they
    hold, and only the moves and events added since are built now.  A seat's entry that
    differs from the public one neither by its move (``_owner(i)``: the seat for which
    move ``i`` itself reads otherwise, e.g. its own draw) nor by an event (a seat's own
    draw or dreck, the events a sampled state kept from its seat's view) is the public
    entry itself.  Entries are shared between successive histories and between seats
    (read them, never change them); the list is new.
    """
    book = state._history_book
    if book is None:
        book = state._history_book = {}
    events = state._event_log
    total = len(events)
    public = book.get(None)
    if public is None or len(public.entries) != count or public.events_used != total:
        public = _grow(state, book, count, card_text)
    if seat is None:
        return public.entries[:]
    kept = book.get(seat)
    if kept is None:
        kept = book[seat] = Chapter()
    entries = kept.entries
    start, done = len(entries), kept.events_used
    private: list[int] = []
    for k in range(done, total):
        event = events[k]
        i = event.moves - 1
        if 0 <= i < start:  # an event for an entry handed out: build this seat's again
            del book[seat]
            return history_of(state, seat, count, card_text)
        if _private(event, seat):
            private.append(i)
    if start < count:
        past = state._sampled_past
        if private or seat in public.owners[start:count] or (past is not None and past[0] == seat):
            _extend_own(state, kept, public, seat, count, done, card_text, private)
        else:
            entries += public.entries[start:count]
    kept.events_used = total
    return entries[:]


def hand_on(parent: Chronicled, child: Chronicled, moves: int, child_moves: int) -> bool:
    """Move ``parent``'s built history (its ``_history_book``) to ``child``, a copy of
    ``parent`` played on (``moves`` and ``child_moves``: how many moves each has played),
    so that ``child``'s views extend it by the moves since instead of building it again
    (the web server plays each move on a copy and swaps the copy in).  ``parent`` builds
    its own again if it is asked for a history after this.

    Nothing moves, and it returns ``False``, where ``child`` has a history of its own
    already, ``parent`` has none, or ``child`` is not ``parent`` played on: fewer moves or
    events, a past of its own, or not the same events so far (their last shared one is
    not the same record).
    """
    book = parent._history_book
    if book is None or child._history_book is not None or child_moves < moves:
        return False
    mine, theirs = parent._event_log, child._event_log
    shared = len(mine)
    if len(theirs) < shared or child._sampled_past is not parent._sampled_past:
        return False
    if shared and theirs[shared - 1] is not mine[shared - 1]:
        return False
    child._history_book = book
    parent._history_book = None
    return True


def _extend_own(
    state: Chronicled,
    kept: Chapter,
    public: Chapter,
    seat: int,
    count: int,
    done: int,
    text: Sequence[str],
    private: list[int],
) -> None:
    """``kept``'s entries up to ``count`` moves where some read otherwise for ``seat``:
    those built for it (with the events from the ``done``-th on), the others the public
    ones."""
    entries, shared, owners = kept.entries, public.entries, public.owners
    past = state._sampled_past
    start = len(entries)
    mine = set(private)
    if past is not None and past[0] == seat:
        lists = past[1]
        mine.update(i for i in range(start, min(count, len(lists))) if lists[i])
    mine.update(i for i in range(start, min(count, len(owners))) if owners[i] == seat)
    for i in range(start, count):
        entries.append(_fresh_entry(state._entry, i, seat, past) if i in mine else shared[i])
    events = state._event_log
    for k in range(done, len(events)):
        event = events[k]
        if event.moves - 1 in mine:
            _add(entries[event.moves - 1], event, seat, text, lambda: state.outcome)


def _private(event: Event, seat: int) -> bool:
    """Whether ``seat`` sees ``event`` otherwise than the public does."""
    if isinstance(event, Draw):
        return event.seat == seat
    return isinstance(event, Dreck) and bool(event.received[seat])


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


def _grow(state: Chronicled, book: Book, count: int, text: Sequence[str]) -> Chapter:
    """The public chapter, its entries brought up to ``count`` moves and every event."""
    kept = book.get(None)
    if kept is None:
        kept = book[None] = Chapter()
    entries = kept.entries
    start = len(entries)
    if start < count:
        past = state._sampled_past
        entry = state._entry
        if past is None:
            for i in range(start, count):
                entries.append(entry(i, None))
        else:
            entries.extend([_fresh_entry(entry, i, None, past) for i in range(start, count)])
        owner = state._owner
        kept.owners.extend([owner(i) for i in range(start, count)])
    events = state._event_log
    for k in range(kept.events_used, len(events)):
        event = events[k]
        i = event.moves - 1
        made = entries[i]
        if i < start:  # an entry already handed out: change a copy, never it
            entries[i] = made = dict(made)
            if "events" in made:
                made["events"] = list(made["events"])
        js = event.cache[0]
        if js is None:
            js = to_json(event, None, text, lambda: state.outcome)
        got = made.get("events")
        if got is None:
            made["events"] = [js]
        else:
            got.append(js)
    kept.events_used = len(events)
    return kept


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
        if isinstance(event, (Trick, Falls, VoidTie)):
            js = to_json(event, None, text, lambda: None)
            return _trick_of(js, event.moves - 1)
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
