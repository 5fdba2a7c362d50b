"""Views built incrementally say exactly what a full rebuild says.

``view()`` keeps each seat's history entries as moves are played and shares them between
successive views.  These tests hold it to the construction it replaced, kept here as a
slow reference builder (every entry and event rebuilt from the state's move list and
event log on every call), over random games of every game, variant and player count,
for every seat and the public view, at every position, with views asked at random
moments (so the cache is extended by one move or by many), on clones and on states
sampled from a view.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import tikki
from tikki.cards import CARD_TEXT
from tikki.core import JSON, RulesError, State, game_class
from tikki.events import attach
from tikki.games.mattis import _take_json
from tikki.games.mueckenstich import CARD_TEXT as MUECKENSTICH_CARD_TEXT
from tikki.games.myllymatti import _draw_event, _take_event

pytestmark = pytest.mark.compiled


def _configs() -> list[tuple[str, int, str]]:
    """tikki's own games (their incremental views are what this tests; a plug-in beside
    tikki builds its views its own way), each player count and variant."""
    out: list[tuple[str, int, str]] = []
    for name, spec in tikki.games().items():
        cls = game_class(name)
        if not cls.__module__.startswith("tikki.games."):
            continue
        for players in range(cls.min_players, cls.max_players + 1):
            for variant in spec["variants"]:
                if _playable(name, players, variant):
                    out.append((name, players, variant))
    return out


def _playable(name: str, players: int, variant: str) -> bool:
    """Whether the game takes this many players in this variant (``mini``'s deck is short)."""
    try:
        tikki.load(name, players=players, variant=variant)
    except RulesError:
        return False
    return True


def reference_history(state: Any, seat: int | None) -> list[JSON]:
    """The history as the engine built it before views were incremental: everything, every call."""
    name = state.game.name
    if name == "myllymatti":
        entries: list[JSON] = []
        for s, move, card, got in state._hist:
            entry: JSON = {"seat": s, "move": move}
            if card >= 0:
                entry["card"] = CARD_TEXT[card]
            if got:
                entry["events"] = [
                    _take_event(s, got) if move == "take" else _draw_event(s, got[0], s == seat)
                ]
            entries.append(entry)
    elif name == "mattis":
        entries = []
        for s, move, card in state._hist:
            entry = {"seat": s, "move": move}
            if card >= 0 and move == "take":  # a take keeps its event (cards) with the move
                entry["events"] = [_take_json(s, state._taken[card])]
            elif card >= 0:
                entry["card"] = CARD_TEXT[card]
            entries.append(entry)
    else:
        entries = [
            {"seat": s, "move": "discard ?" if s != seat and move[:2] == "di" else move}
            for s, move in zip(state._seats, state._moves, strict=True)
        ]
    text = MUECKENSTICH_CARD_TEXT if name == "mueckenstich" else CARD_TEXT  # its own cards
    return attach(entries, state._event_log, state._sampled_past, seat, text, lambda: state.outcome)


def _same(state: State, seat: int | None, view: JSON | None = None) -> None:
    """``state``'s view (or ``view``) of ``seat`` holds the reference history, and the
    whole view is the one a cold state (a clone, nothing built yet) gives."""
    got = state.view(seat) if view is None else view
    want = reference_history(state, seat)
    assert json.dumps(got["history"]) == json.dumps(want), (state, seat)
    assert json.dumps(state.history(seat)) == json.dumps(want), (state, seat)
    cold = state.clone()  # a clone keeps none of the parts built for earlier views
    assert json.dumps(got) == json.dumps(cold.view(seat)), (state, seat)


@pytest.mark.parametrize(("name", "players", "variant"), _configs())
def test_incremental_history_matches_the_full_rebuild(
    name: str, players: int, variant: str
) -> None:
    """Every seat's history, asked at random moments, equals the reference's."""
    game = tikki.load(name, players=players, variant=variant)
    seats: list[int | None] = [None, *range(players)]
    for seed in range(2):
        rng = random.Random(seed)
        state = game.new_state(seed=seed)
        kept: list[tuple[State, int | None, JSON, str]] = []
        while not state.is_over:
            if rng.random() < 0.15:
                seat = rng.choice(seats)
                view = state.view(seat)
                _same(state, seat, view)
                kept.append((state.clone(), seat, view, json.dumps(view)))
            if rng.random() < 0.05:
                state = state.clone()  # a clone starts without the parent's built entries
            state.play(rng.choice(state.legal_moves()))
        for seat in seats:
            _same(state, seat)
        for old_state, seat, old_view, text in kept:  # later moves changed no earlier view
            assert json.dumps(old_view) == text
            assert json.dumps(old_state.view(seat)) == text


@pytest.mark.parametrize(("name", "players", "variant"), _configs())
def test_sampled_states_keep_the_views_events(name: str, players: int, variant: str) -> None:
    """A state sampled from a view builds its history as the reference does."""
    game = tikki.load(name, players=players, variant=variant)
    rng = random.Random(7)
    for seed in range(3):
        state = game.new_state(seed=seed)
        steps = 0
        while not state.is_over:
            seat = state.current_player
            if seat is not None and steps % 17 == 5:
                sampled = game.sample_state(state.view(seat), rng)
                for _ in range(3):
                    for who in (None, seat, (seat + 1) % players):
                        _same(sampled, who)
                    if sampled.is_over:
                        break
                    sampled.play(rng.choice(sampled.legal_moves()))
            state.play(rng.choice(state.legal_moves()))
            steps += 1


@pytest.mark.parametrize(("name", "players", "variant"), _configs())
def test_views_kept_at_every_move_never_change(name: str, players: int, variant: str) -> None:
    """Every view handed out, of every seat and the public, after every move, reads the
    same at the end of the game (views share parts built once per move, event or change:
    the state never changes what it handed out), and each is what a cold clone says."""
    game = tikki.load(name, players=players, variant=variant)
    seats: list[int | None] = [None, *range(players)]
    rng = random.Random(3)
    state = game.new_state(seed=3)
    kept: list[tuple[JSON, str]] = []
    while not state.is_over:
        order = [state.current_player, *rng.sample(seats, len(seats))]
        for seat in order:
            view = state.view(seat)
            text = json.dumps(view)
            assert text == json.dumps(state.clone().view(seat)), (state, seat)
            kept.append((view, text))
        state.play(rng.choice(state.legal_moves()))
    for seat in seats:
        kept.append((state.view(seat), json.dumps(state.view(seat))))
    assert all(json.dumps(view) == text for view, text in kept)
