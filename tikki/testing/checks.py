"""The conformance kit's checks: seeded random playouts of one game configuration, checked
after every move against the rules in :mod:`tikki.testing.rules`.

Nothing here names a game, a phase or a move word: what a game must declare for the
checks stands in its :class:`tikki.core.HarnessParts`.  Each check raises
:class:`~tikki.testing.rules.ConformanceError` naming the rule it found broken.
"""

from __future__ import annotations

import itertools
import json
import random
import re
import string
from collections import Counter
from collections.abc import Iterable
from typing import Any

import tikki
from tikki.core import Game, IllegalMove, State, game_class
from tikki.testing.rules import ConformanceError, check

Config = tuple[str, int, dict[str, Any]]
"""One configuration to play: ``(game name, players, options)``."""

GARBAGE = ["", "   ", "xyz", "7", "H7", "11H", "xyz xyz", "+", "7H+", "None", "🂡", "xyz 7H"]
"""Texts that are no move of most games (one that is legal now is skipped)."""


def configs(name: str | None = None) -> list[Config]:
    """The configurations a game declares (``HarnessParts.conformance``), else each player
    count with the defaults and each variant at the default count; every registered game's
    when ``name`` is None."""
    names = [name] if name is not None else list(tikki.games())
    out: list[Config] = []
    for game in names:
        cls = game_class(game)
        declared = [(p, dict(o)) for p, o in cls.harness.conformance]
        if not declared:
            declared = [(p, {}) for p in range(cls.min_players, cls.max_players + 1)]
            for variant in tikki.games()[game]["variants"]:
                if variant != "standard":
                    declared.append((players_for(game, variant), {"variant": variant}))
        out += [(game, players, options) for players, options in declared]
    return out


def players_for(name: str, variant: str) -> int:
    """The default player count, or else the fewest that ``variant`` takes."""
    cls = game_class(name)
    counts: list[int] = [cls.default_players, *range(cls.min_players, cls.max_players + 1)]
    for players in counts:
        try:
            tikki.load(name, players, variant=variant)
        except tikki.RulesError:
            continue
        return players
    raise ConformanceError("someone-acts", f"{name} variant {variant} takes no player count")


def config_id(config: Config) -> str:
    """``mygame-3p-option=value``: a configuration's name in test ids."""
    name, players, options = config
    extra = ",".join(f"{k}={v}" for k, v in options.items())
    return f"{name}-{players}p" + (f"-{extra}" if extra else "")


# --- after every move --------------------------------------------------------------------


def check_zones(state: State, deck: Counter[str]) -> None:
    """``cards-conserved``."""
    zones = state.reveal()["zones"]
    seen = Counter(itertools.chain.from_iterable(zones.values()))
    # counts from counting are all above 0: equal items are equal multisets (and far
    # cheaper to compare than Counter's ==, which also equates a count of 0 with none)
    if seen.items() != deck.items():
        check(False, "cards-conserved", f"{seen - deck} extra, {deck - seen} missing")


def _fingerprint(state: State) -> str:
    return json.dumps(state.reveal(), sort_keys=True)


def _illegal(state: State, deck: list[str], known: set[str], rng: random.Random) -> str | None:
    """A well-formed move that is not legal now: a card, or a move seen legal before."""
    legal = set(state.legal_moves())
    candidates = sorted({c for c in deck if c not in legal} | (known - legal))
    return rng.choice(candidates) if candidates else None


def check_refusals(
    state: State, deck: list[str], known: set[str], rng: random.Random, deep: bool
) -> None:
    """``refusals``: a garbage text and an illegal move are refused, changing nothing."""
    legal = set(state.legal_moves())
    before = _fingerprint(state) if deep else None
    count = len(state.moves)
    garbage = [g for g in GARBAGE if g not in legal]
    for bad in (rng.choice(garbage), _illegal(state, deck, known, rng)):
        if bad is None:
            continue
        try:
            state.play(bad)
        except IllegalMove as err:
            check(str(err), "refusals", f"the IllegalMove for {bad!r} says nothing")
        else:
            raise ConformanceError("refusals", f"{bad!r} was accepted (legal: {sorted(legal)})")
        check(len(state.moves) == count, "refusals", f"refusing {bad!r} added a move")
    if deep:
        check(_fingerprint(state) == before, "refusals", "a refused move changed reveal()")


_TOKEN = re.compile(r"[0-9A-Za-z]+")


def tokens(value: Any) -> set[str]:
    """Every card-like token in a JSON value (strings split on '+' and spaces)."""
    return set(_TOKEN.findall(json.dumps(value, ensure_ascii=False, check_circular=False)))


_TOKEN_CHARS = frozenset(string.ascii_letters + string.digits)


def shown(value: Any, cards: Iterable[str]) -> set[str]:
    """The ``cards`` that are tokens of a JSON value: ``tokens(value) & set(cards)``, found
    without splitting the whole text into tokens (nor writing it for no card)."""
    wanted = {card for card in cards if _TOKEN.fullmatch(card)}
    if not wanted:
        return set()
    text = json.dumps(value, ensure_ascii=False, check_circular=False)
    return {card for card in wanted if _is_token_of(card, text)}


def _is_token_of(token: str, text: str) -> bool:
    """Whether ``token`` stands in ``text`` with no token character on either side."""
    at = text.find(token)
    while at >= 0:
        end = at + len(token)
        before = at > 0 and text[at - 1] in _TOKEN_CHARS
        if not before and (end == len(text) or text[end] not in _TOKEN_CHARS):
            return True
        at = text.find(token, at + 1)
    return False


def check_views(state: State, game: Game, seats: Iterable[int]) -> None:
    """``no-leak`` and ``view-shape`` for ``seats`` and the public view."""
    hidden = state.reveal()["hidden"]
    for seat in seats:
        view = state.view(seat)
        leaked = shown(view, hidden[str(seat)])
        check(not leaked, "no-leak", f"the view of seat {seat} shows {sorted(leaked)}")
        check(
            view["seat"] == seat and view["phase"] == state.phase,
            "view-shape",
            f"seat {seat}'s view says seat {view['seat']}, phase {view['phase']!r}",
        )
        expected = state.legal_moves() if seat == state.current_player else []
        check(view["legal_moves"] == expected, "view-shape", f"seat {seat}'s legal_moves")
    public = state.view(None)
    every = set.intersection(*(set(h) for h in hidden.values())) if hidden else set()
    leaked = shown(public, every)
    check(not leaked, "no-leak", f"the public view shows {sorted(leaked)}")


def check_sample(state: State, game: Game, rng: random.Random) -> None:
    """``sample-agrees`` for a seat drawn at random."""
    seat = rng.randrange(game.players)
    view = state.view(seat)
    sampled = game.sample_state(view, random.Random(rng.random()))
    check(sampled.view(seat) == view, "sample-agrees", f"seat {seat}'s view differs")
    check_zones(sampled, Counter(game.deck()))
    for _ in range(40):
        if sampled.is_over:
            break
        legal = sampled.legal_moves()
        check(legal, "sample-agrees", "a sampled state has no legal move")
        sampled.play(rng.choice(legal))


def removes(move: str, deck: set[str]) -> int:
    """Cards a move takes out of the mover's hand: the deck's cards it names (words and
    cards joined by ``+`` or spaces: ``7H``, ``5H+6H``, ``slough 7H``)."""
    return sum(part in deck for part in _PARTS.split(move))


_PARTS = re.compile(r"[+\s]+")


def _check_draw(event: dict[str, Any], after: dict[str, Any], seat: int, dreck: bool) -> None:
    if event["seat"] == seat:
        check(len(event["cards"]) == event["count"], "draw-event", f"{event}")
        if not dreck:
            check(set(event["cards"]) <= set(after["hand"]), "draw-event", "cards not in hand")
    else:
        check("cards" not in event, "draw-event", "another seat's draw shows its cards")


def _check_trick(event: dict[str, Any], after: dict[str, Any]) -> None:
    piles = after.get("piles")
    if not isinstance(piles, list):
        return
    cards = Counter(c["card"] for c in event["cards"])
    check(not cards - Counter(piles[event["winner"]]), "trick-event", "not on the pile")
    if "last_winner" in after:
        check(after["last_winner"] == event["winner"], "trick-event", "last_winner")


def _check_event(
    event: dict[str, Any],
    events: list[dict[str, Any]],
    after: dict[str, Any],
    seat: int,
    mover: int,
    same_phase: bool,
) -> None:
    kind = event["type"]
    ends_round = any(e["type"] in ("round", "over") for e in events)
    if kind == "draw":
        _check_draw(event, after, seat, any(e["type"] == "dreck" for e in events))
    elif kind == "trick" and same_phase:
        _check_trick(event, after)
    elif kind == "falls":
        cards = [c["card"] for c in event["cards"]]
        check(after["fallen"][len(after["fallen"]) - len(cards) :] == cards, "falls-event", "")
    elif kind == "take":
        check(event["seat"] == mover, "take-event", f"taken by {event['seat']}, not {mover}")
        hands = after.get("hands")
        if isinstance(hands, list):
            check(not Counter(event["cards"]) - Counter(hands[mover]), "take-event", "")
    elif kind == "tie" and same_phase:
        check(after["to_act"] == event["seats"][0], "tie-event", f"{after['to_act']} acts")
    elif kind == "trump" and after["phase"] != "over" and not ends_round:
        check(after.get("trump") == event["suit"], "trump-event", f"{after.get('trump')}")
    elif kind == "last_card":
        owner = after.get("aside_owner", after.get("shown_owner"))
        check(owner == event["seat"], "last-card-event", f"owner {owner}")
        check(event.get("card") == after.get("shown_card"), "last-card-event", "card")
    elif kind == "dreck":
        dreck = after["dreck"]
        check(event["counts"] == dreck["received"], "dreck-event", "counts")
        check(event["given"] == dreck["given"], "dreck-event", "given")
        check(event.get("cards", []) == dreck["mine"], "dreck-event", "cards")


def check_move_events(
    game: Game, before: dict[str, Any], after: dict[str, Any], seat: int, removed: int
) -> None:
    """The events of the move just played agree with ``seat``'s view after it; ``removed``:
    the cards the move names (:func:`removes`), which leave the mover's hand."""
    entry = after["history"][-1]
    events: list[dict[str, Any]] = entry.get("events", [])
    mover = entry["seat"]
    phases = [e for e in events if e["type"] == "phase"]
    same_phase = not phases and before["phase"] == after["phase"]
    for event in events:
        _check_event(event, events, after, seat, mover, same_phase)
    if phases and after["phase"] != "over":
        last = phases[-1]
        check(last["phase"] == after["phase"], "phase-event", f"{last} but {after['phase']}")
        leaderless = after["phase"] in game.harness.leaderless_phases
        check(
            leaderless or last["leader"] == after["to_act"],
            "phase-event",
            f"leader {last['leader']} but seat {after['to_act']} acts",
        )
    if same_phase and after["phase"] not in game.harness.free_hand_phases:
        _check_hand_sizes(before, after, entry, events, removed)


def _check_hand_sizes(
    before: dict[str, Any],
    after: dict[str, Any],
    entry: dict[str, Any],
    events: list[dict[str, Any]],
    removed: int,
) -> None:
    if "hand_sizes" not in after or any(e["type"] == "take" for e in events):
        return
    drawn = Counter[int]()
    for event in events:
        if event["type"] == "draw":
            drawn[event["seat"]] += event["count"]
    sizes = zip(before["hand_sizes"], after["hand_sizes"], strict=True)
    for s, (a, b) in enumerate(sizes):
        played = removed if s == entry["seat"] else 0
        check(
            b - a == drawn[s] - played,
            "hand-size",
            f"seat {s}: {a} -> {b} cards after {entry['move']!r} ({drawn[s]} drawn)",
        )


# --- at the end --------------------------------------------------------------------------


def check_game_events(state: State, game: Game) -> None:
    """``game-events`` over every seat's view and the public one."""
    outcome = state.outcome
    assert outcome is not None
    for seat in [None, *range(game.players)]:
        view = state.view(seat)
        history = view["history"]
        events = [(i, e) for i, h in enumerate(history) for e in h.get("events", [])]
        overs = [(i, e) for i, e in events if e["type"] == "over"]
        check(len(overs) == 1 and overs[0][0] == len(history) - 1, "game-events", "one over")
        check(overs[0][1]["outcome"] == outcome, "game-events", "the over event's outcome")
        for _, e in events:
            if e["type"] in ("draw", "dreck") and "cards" in e:
                private = seat is not None and e.get("seat", seat) == seat
                check(private, "game-events", f"seat {seat} sees a private {e['type']}")
        if "out_order" in outcome:
            _check_outs(view, events, outcome)
        else:
            rounds = [e for _, e in events if e["type"] == "round"]
            check([e["scores"] for e in rounds] == outcome["rounds"], "game-events", "rounds")
            if rounds:
                check(rounds[-1]["totals"] == outcome["scores"], "game-events", "totals")


def _check_outs(
    view: dict[str, Any], events: list[tuple[int, dict[str, Any]]], outcome: dict[str, Any]
) -> None:
    outs = [e for _, e in events if e["type"] == "out"]
    check([e["seat"] for e in outs] == outcome["out_order"], "game-events", "out order")
    check([e["place"] for e in outs] == list(range(1, len(outs) + 1)), "game-events", "places")
    tricks = [(i, e) for i, e in events if e["type"] in ("trick", "falls", "void_tie")]
    last = view.get("last_trick")
    if not tricks:
        check(last is None, "game-events", "a last_trick without a trick")
    else:
        i, e = tricks[-1]
        expected = {"kind": e["type"], "winner": e.get("winner"), "cards": e["cards"], "move": i}
        check(last == expected, "game-events", f"last_trick {last}, not {expected}")
    if "draws" in view:
        counts = [[t + 1, e["seat"], e["count"]] for t, e in events if e["type"] == "draw"]
        check(counts == [d for d in view["draws"] if d[0] > 0], "game-events", "draws")


# --- whole games -------------------------------------------------------------------------


def playout(game: Game, seed: int, deep: bool) -> State:
    """Play one seeded game of random legal moves, checking it after every move (every
    legal move, the views, events and samples too when ``deep``)."""
    rng = random.Random(seed * 7919 + 1)
    deck_list = game.deck()
    deck, deck_set = Counter(deck_list), set(deck_list)
    known: set[str] = set()
    state = game.new_state(seed=seed)
    limit = game.options.get("max_moves", 5000) + 1
    steps = 0
    while not state.is_over:
        legal = _check_someone_acts(state)
        known.update(legal)
        check_zones(state, deck)
        check_refusals(state, deck_list, known, rng, deep)
        watcher, before = steps % game.players, None
        if deep:
            _check_deep(state, game, rng, steps)
            before = state.view(watcher)
        state.play(rng.choice(legal))
        if before is not None:
            removed = removes(state.moves[-1], deck_set)
            check_move_events(game, before, state.view(watcher), watcher, removed)
        steps += 1
        check(steps <= limit, "ends", f"still going after {steps} moves")
    _check_over(state, game, deck, deck_list, deep)
    return state


def _check_someone_acts(state: State) -> list[str]:
    check(state.current_player is not None and state.outcome is None, "someone-acts", "")
    legal = state.legal_moves()
    check(legal, "someone-acts", "no legal move while the game is not over")
    check(len(set(legal)) == len(legal), "someone-acts", f"repeated moves in {legal}")
    return legal


def _check_deep(state: State, game: Game, rng: random.Random, steps: int) -> None:
    for move in state.legal_moves():
        try:
            state.clone().play(move)
        except IllegalMove as err:
            raise ConformanceError("legal-is-playable", f"{move!r}: {err}") from None
    seats = range(game.players) if steps % 5 == 0 else [steps % game.players]
    check_views(state, game, seats)
    if steps % 9 == 0:
        check_sample(state, game, rng)


def _check_over(
    state: State, game: Game, deck: Counter[str], deck_list: list[str], deep: bool
) -> None:
    check_zones(state, deck)
    check(state.current_player is None and state.legal_moves() == [], "someone-acts", "")
    check(state.phase == "over" and state.outcome is not None, "someone-acts", state.phase)
    assert state.outcome is not None
    returns = state.outcome["returns"]
    check(len(returns) == game.players, "someone-acts", f"{len(returns)} returns")
    if deep:
        check_views(state, game, range(game.players))
    check_game_events(state, game)
    try:
        state.play(deck_list[0])
    except IllegalMove:
        pass
    else:
        raise ConformanceError("after-over", f"{deck_list[0]!r} was accepted")
