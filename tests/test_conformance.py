"""The conformance harness: seeded random playouts over every game, variant and player count.

Each configuration in :data:`CONFIGS` is played :data:`GAMES` times with random legal moves.
Every game checks, after every move: every card is in exactly one place (``reveal``), the
seat to act has legal moves, a garbage text and an illegal well-formed move are refused
with the state unchanged, and the game ends.  Every game is replayed from its record and
from the same seed.  A subset (:data:`DEEP`) also checks that every legal move is accepted,
that no view holds a card hidden from its seat, and that ``sample_state(view)`` agrees
with the view and plays on legally.

Events (docs/design.md: Events) are checked against the state: in the deep games after every move
(a ``trick`` matches the winner's pile, a ``draw`` the hand sizes and the drawer's hand,
``falls`` the fallen cards, ``take`` the taker's hand, ``phase``/``trump``/``dreck``/
``last_card`` the view), and at the end of every game (``out`` gives the outcome's out
order, ``over`` the outcome, ``round`` the score sheet, ``last_trick`` the last trick
event; private fields only in their owner's view).

A new game is played here as it declares (``Game.harness``), with no line here.
"""

from __future__ import annotations

import json
import os
import random
import re
from collections import Counter
from typing import Any

import pytest

import tikki
from tests._configs import conformance_configs
from tikki.core import IllegalMove, State

pytestmark = [pytest.mark.engine, pytest.mark.newest, pytest.mark.compiled]

CONFIGS: list[tuple[str, int, dict[str, Any]]] = conformance_configs()
"""Every game's configurations, as each declares them (``Game.harness``)."""
GAMES = int(os.environ.get("TIKKI_CONFORMANCE_GAMES", "150"))
"""Random playouts per configuration (3,300 games in all; raise it for a longer campaign,
e.g. ``TIKKI_CONFORMANCE_GAMES=2000 pytest tests/test_conformance.py``)."""
DEEP = int(os.environ.get("TIKKI_CONFORMANCE_DEEP", "12"))
"""Of those, how many check every legal move and every seat's view after each move (the
costly part; ``make check`` runs a small campaign with fewer)."""
GARBAGE = ["", "   ", "xyz", "7", "H7", "11H", "stock stock", "+", "7H+", "None", "🂡", "take 7H"]


def _ids(config: tuple[str, int, dict[str, Any]]) -> str:
    name, players, options = config
    extra = ",".join(f"{k}={v}" for k, v in options.items())
    return f"{name}-{players}p" + (f"-{extra}" if extra else "")


def _check_zones(state: State, deck: Counter[str]) -> None:
    zones = state.reveal()["zones"]
    seen = Counter(card for cards in zones.values() for card in cards)
    assert seen == deck, f"cards not conserved: {seen - deck} extra, {deck - seen} missing"


def _fingerprint(state: State) -> str:
    return json.dumps(state.reveal(), sort_keys=True)


def _illegal_card(state: State, deck: list[str], rng: random.Random) -> str | None:
    legal = set(state.legal_moves())
    candidates = [c for c in deck if c not in legal]
    for word in ("stock", "take", "pass"):
        if word not in legal:
            candidates.append(word)
    return rng.choice(candidates) if candidates else None


def _check_refusals(state: State, deck: list[str], rng: random.Random, deep: bool) -> None:
    before = _fingerprint(state) if deep else None
    count = len(state.moves)
    for bad in (rng.choice(GARBAGE), _illegal_card(state, deck, rng)):
        if bad is None:
            continue
        try:
            state.play(bad)
        except IllegalMove as err:
            assert str(err), "an IllegalMove must explain itself"
        else:
            raise AssertionError(f"{bad!r} was accepted")
        assert len(state.moves) == count
    if deep:
        assert _fingerprint(state) == before, "a refused move changed the state"


_TOKEN = re.compile(r"[0-9A-Za-z]+")


def _tokens(value: Any) -> set[str]:
    """Every card-like token in a JSON value (strings split on '+' and spaces); a value
    JSON cannot write fails here."""
    return set(_TOKEN.findall(json.dumps(value, ensure_ascii=False, check_circular=False)))


def _check_views(state: State, game: tikki.Game, seats: range | list[int]) -> None:
    hidden = state.reveal()["hidden"]
    for seat in seats:
        view = state.view(seat)
        leaked = _tokens(view) & set(hidden[str(seat)])  # _tokens writes it as JSON
        assert not leaked, f"view of seat {seat} shows hidden cards {sorted(leaked)}"
        assert view["seat"] == seat and view["phase"] == state.phase
        if seat == state.current_player:
            assert view["legal_moves"] == state.legal_moves()
        else:
            assert view["legal_moves"] == []
    public = state.view(None)
    every_hidden = set.intersection(*(set(h) for h in hidden.values())) if hidden else set()
    assert not _tokens(public) & every_hidden, "the public view shows a card nobody may see"


_HAND_PHASES = ("collect", "play", "discard")


def _removes(move: str) -> int:
    """Cards a phase-1 (or Mückenstich) move takes out of the mover's hand."""
    if move in ("stock", "pass", "take") or move.startswith("trump"):
        return 0
    return 1


def _check_move_events(before: dict[str, Any], after: dict[str, Any], seat: int) -> None:
    """The events of the move just played agree with the state it led to (seat's views)."""
    entry = after["history"][-1]
    events = entry.get("events", [])
    mover = entry["seat"]
    phases = [e["phase"] for e in events if e["type"] == "phase"]
    same_phase = not phases and before["phase"] == after["phase"]
    drawn = Counter[int]()
    for event in events:
        kind = event["type"]
        if kind == "draw":
            drawn[event["seat"]] += event["count"]
            if event["seat"] == seat:
                assert len(event["cards"]) == event["count"]
                if not any(e["type"] == "dreck" for e in events):
                    assert set(event["cards"]) <= set(after["hand"]), "drawn cards not in hand"
            else:
                assert "cards" not in event, "another seat's draw shows its cards"
        elif kind == "trick" and same_phase and after["phase"] == "collect":
            cards = [c["card"] for c in event["cards"]]
            pile = after["piles"][event["winner"]]
            assert pile[len(pile) - len(cards) :] == cards, "trick cards not on the winner's pile"
            assert after["last_winner"] == event["winner"]
        elif kind == "trick" and after["game"] == "mueckenstich" and same_phase:
            pile = Counter(after["piles"][event["winner"]])
            assert not Counter(c["card"] for c in event["cards"]) - pile
        elif kind == "falls":
            cards = [c["card"] for c in event["cards"]]
            assert after["fallen"][len(after["fallen"]) - len(cards) :] == cards
        elif kind == "take":
            assert event["seat"] == mover
            assert not Counter(event["cards"]) - Counter(after["hands"][mover])
        elif kind == "tie" and same_phase:
            assert after["to_act"] == event["seats"][0], "a tie goes on with its first seat"
        elif (
            kind == "trump"
            and after["phase"] != "over"
            and (same_phase or after["game"] != "mueckenstich")
        ):
            assert after["trump"] == event["suit"]
        elif kind == "last_card":
            owner = after.get("aside_owner", after.get("shown_owner"))
            assert owner == event["seat"]
            assert event.get("card") == after.get("shown_card")
        elif kind == "dreck":
            assert event["counts"] == after["dreck"]["received"]
            assert event["given"] == after["dreck"]["given"]
            assert event.get("cards", []) == after["dreck"]["mine"]
    if phases and after["phase"] != "over":
        assert phases[-1] == after["phase"], "the last phase event is the phase now"
        leader = [e["leader"] for e in events if e["type"] == "phase"][-1]
        assert leader == after["to_act"] or after["phase"] in ("discard", "score")
    if same_phase and after["phase"] in _HAND_PHASES:
        for s, (a, b) in enumerate(zip(before["hand_sizes"], after["hand_sizes"], strict=True)):
            played = _removes(entry["move"]) if s == mover else 0
            assert b - a == drawn[s] - played, f"seat {s}'s hand size does not match its draws"


def _check_game_events(state: State, game: tikki.Game) -> None:
    """The whole game's events agree with its outcome, sheet and last trick."""
    outcome = state.outcome
    assert outcome is not None
    for seat in [None, *range(game.players)]:
        view = state.view(seat)
        history = view["history"]
        events = [(i, e) for i, h in enumerate(history) for e in h.get("events", [])]
        json.dumps(events)
        overs = [(i, e) for i, e in events if e["type"] == "over"]
        assert len(overs) == 1 and overs[0][0] == len(history) - 1, "one over, at the end"
        assert overs[0][1]["outcome"] == outcome
        for _, e in events:
            if e["type"] in ("draw", "dreck") and "cards" in e:
                assert seat is not None and e.get("seat", seat) == seat, "a private field leaked"
        if "out_order" in outcome:
            outs = [e for _, e in events if e["type"] == "out"]
            assert [e["seat"] for e in outs] == outcome["out_order"]
            assert [e["place"] for e in outs] == list(range(1, len(outs) + 1))
            tricks = [(i, e) for i, e in events if e["type"] in ("trick", "falls", "void_tie")]
            last = view["last_trick"]
            if not tricks:
                assert last is None
            else:
                i, e = tricks[-1]
                assert last == {
                    "kind": e["type"],
                    "winner": e.get("winner"),
                    "cards": e["cards"],
                    "move": i,
                }
            if "draws" in view:  # Mattis: the draw events are the public draw counts
                counts = [[t + 1, e["seat"], e["count"]] for t, e in events if e["type"] == "draw"]
                assert counts == [d for d in view["draws"] if d[0] > 0]
        else:
            rounds = [e for _, e in events if e["type"] == "round"]
            assert [e["scores"] for e in rounds] == outcome["rounds"]
            assert rounds[-1]["totals"] == outcome["scores"]


def _check_sample(state: State, game: tikki.Game, rng: random.Random) -> None:
    seat = rng.randrange(game.players)
    view = state.view(seat)
    sampled = game.sample_state(view, random.Random(rng.random()))
    assert sampled.view(seat) == view, "sample_state disagrees with the view it came from"
    deck = Counter(game.deck())
    _check_zones(sampled, deck)
    for _ in range(40):
        if sampled.is_over:
            break
        sampled.play(rng.choice(sampled.legal_moves()))


def _playout(game: tikki.Game, seed: int, deep: bool) -> State:
    rng = random.Random(seed * 7919 + 1)
    deck_list = game.deck()
    deck = Counter(deck_list)
    state = game.new_state(seed=seed)
    limit = game.options.get("max_moves", 5000) + 1
    steps = 0
    while not state.is_over:
        assert state.current_player is not None and state.outcome is None
        legal = state.legal_moves()
        assert legal, "no legal move while the game is not over"
        assert len(set(legal)) == len(legal), f"duplicate legal moves {legal}"
        _check_zones(state, deck)
        _check_refusals(state, deck_list, rng, deep)
        if deep:
            for move in legal:
                trial = state.clone()
                trial.play(move)
            seats = range(game.players) if steps % 5 == 0 else [steps % game.players]
            _check_views(state, game, seats)
            if steps % 9 == 0:
                _check_sample(state, game, rng)
            watcher = steps % game.players
            before = state.view(watcher)
        state.play(rng.choice(legal))
        if deep:
            _check_move_events(before, state.view(watcher), watcher)
        steps += 1
        assert steps <= limit, "the game did not end"
    _check_zones(state, deck)
    assert state.current_player is None and state.legal_moves() == []
    assert state.phase == "over" and state.outcome is not None
    assert len(state.outcome["returns"]) == game.players
    if deep:
        _check_views(state, game, range(game.players))
    _check_game_events(state, game)
    with pytest.raises(IllegalMove):
        state.play(deck_list[0])
    return state


@pytest.mark.parametrize("config", CONFIGS, ids=_ids)
def test_random_playouts(config: tuple[str, int, dict[str, Any]]) -> None:
    name, players, options = config
    game = tikki.load(name, players=players, **options)
    abandoned = 0
    for seed in range(GAMES):
        state = _playout(game, seed, deep=seed < DEEP)
        record = json.loads(json.dumps(state.record()))
        again = tikki.replay(record)
        assert again.reveal() == state.reveal(), "record -> replay gave another game"
        same = game.new_state(seed=seed)
        for move in state.moves:
            assert move in same.legal_moves()
            same.play(move)
        assert same.reveal() == state.reveal(), "the same seed and moves gave another game"
        abandoned += bool(state.outcome and state.outcome["abandoned"])
    if "max_moves" not in options:
        assert abandoned < GAMES // 10, f"{abandoned} of {GAMES} games abandoned (C-5)"


@pytest.mark.parametrize("config", CONFIGS, ids=_ids)
def test_same_seed_same_game(config: tuple[str, int, dict[str, Any]]) -> None:
    name, players, options = config
    game = tikki.load(name, players=players, **options)
    for seed in (1, 2, 3):
        a, b = game.new_state(seed=seed), game.new_state(seed=seed)
        rng_a, rng_b = random.Random(seed), random.Random(seed)
        while not a.is_over:
            assert a.legal_moves() == b.legal_moves()
            a.play(rng_a.choice(a.legal_moves()))
            b.play(rng_b.choice(b.legal_moves()))
        assert a.reveal() == b.reveal() and a.outcome == b.outcome
    assert game.new_state(seed=1).reveal() != game.new_state(seed=2).reveal()


@pytest.mark.parametrize("config", CONFIGS, ids=_ids)
def test_hidden_swap_is_invisible(config: tuple[str, int, dict[str, Any]]) -> None:
    """Leaks by equivalence: swapping two cards a seat cannot see changes nothing it sees."""
    name, players, options = config
    game = tikki.load(name, players=players, **options)
    rng = random.Random(99)
    checked = 0
    for seed in range(40):
        state = game.new_state(seed=seed)
        stop = rng.randrange(1, 80)
        while not state.is_over and len(state.moves) < stop:
            state.play(rng.choice(state.legal_moves()))
        seat = rng.randrange(players)
        hidden = state.reveal()["hidden"][str(seat)]
        record = state.record()
        deck = record.get("deck") or _deck_of(state)
        if len(set(hidden)) < 2 or deck is None:
            continue
        pool = sorted(set(hidden))
        counts = Counter(deck)
        if len({counts[c] for c in pool}) > 1:  # identical copies (Mückenstich): like for like
            size = counts[rng.choice(pool)]
            pool = [c for c in pool if counts[c] == size]
            if len(pool) < 2:
                continue
        a, b = rng.sample(pool, 2)
        swapped = [b if c == a else a if c == b else c for c in deck]
        other = game.new_state(seed=record["seed"], deck=swapped)
        seats = [entry["seat"] for entry in state.history(None)]
        try:
            for move, mover in zip(state.moves, seats, strict=True):
                if other.current_player != mover:  # e.g. another seat asked to slough
                    raise IllegalMove("the swap changed who acts")
                other.play(move)
            if other.current_player != state.current_player:
                raise IllegalMove("the swap changed who acts next")
        except IllegalMove:
            continue  # the swap changed what was legal for someone: not comparable
        assert other.view(seat) == state.view(seat), f"seat {seat} can tell {a} from {b}"
        sample_rng = random.Random(seed)
        same_a = game.sample_state(state.view(seat), sample_rng).reveal()
        sample_rng = random.Random(seed)
        same_b = game.sample_state(other.view(seat), sample_rng).reveal()
        assert same_a == same_b, "the determinizer used a card the seat cannot see"
        checked += 1
    assert checked >= 10, "too few comparable swaps to test anything"


def _deck_of(state: State) -> list[str] | None:
    """The dealing order of a seeded game, read from the state's own first deal."""
    initial = state.game.new_state(seed=state.seed)
    order = initial.reveal().get("deal_order")
    return list(order) if order else None


@pytest.mark.parametrize("config", CONFIGS, ids=_ids)
def test_playing_on_a_clone_leaves_the_original(config: tuple[str, int, dict[str, Any]]) -> None:
    """A clone shares nothing that play changes: playing a clone to its end (move by move,
    and by the fast playout) leaves the original's ``reveal()`` and views as they were;
    likewise for a clone of a state sampled from a view (the determinizer's template)."""
    name, players, options = config
    game = tikki.load(name, players=players, **options)
    for seed in range(3):
        state, rng = game.new_state(seed=seed), random.Random(seed)
        step = 0
        while not state.is_over:
            if step % 7 == 0:
                seat = state.current_player
                before = json.dumps([state.reveal(), state.view(seat), state.view(None)])
                by_moves, fast = state.clone(), state.clone()
                while not by_moves.is_over:
                    by_moves.play(rng.choice(by_moves.legal_moves()))
                fast.random_playout(rng, greedy=0.5)
                after = json.dumps([state.reveal(), state.view(seat), state.view(None)])
                assert after == before, f"playing a clone changed the original (seed {seed})"
                assert seat is not None
                sampled = game.sample_state(state.view(seat), rng)
                known = json.dumps(sampled.reveal())
                copy = sampled.clone()
                copy.random_playout(rng)
                assert json.dumps(sampled.reveal()) == known, "a sampled state's clone leaked"
            state.play(rng.choice(state.legal_moves()))
            step += 1
