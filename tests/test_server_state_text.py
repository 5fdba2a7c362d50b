"""A state message's text, its history encoded once per entry, is ``json.dumps``'s.

:func:`tikki.server.tables.texts.state_text` encodes a seat's history entry by entry and
keeps the texts for the next message (:class:`~tikki.server.tables.texts.HistoryText`).
These tests hold it, byte for byte, to ``json.dumps`` of the whole message on recorded
games of every game (every seat and the public, after every move, the state played as
the server plays it: each move on a copy that takes over the history), and on the cases
where the kept texts no longer fit: a new game in the same seat, an entry replaced, a
shorter history, texts outside ASCII, a message without a view.
"""

from __future__ import annotations

import json
import random

import pytest

import tikki
from tikki.core import JSON, State
from tikki.server.tables.texts import HistoryText, dumps, state_text


def _message(state: State, seat: int | None, seq: int) -> JSON:
    """A message shaped as ``Table.state_message``'s (the keys around the view)."""
    view = state.view(seat)
    history = view.get("history") or []
    return {
        "type": "state",
        "seq": seq,
        "seat": seat,
        "status": "playing",
        "table": {"id": "t1", "seats": [{"name": 'Åsa "ö" ✓'}], "options": {}},
        "view": view,
        "last": history[-1] if history else None,
        "forced": [],
        "devices": 1,
    }


@pytest.mark.parametrize(
    ("name", "players"),
    [("myllymatti", 3), ("myllymatti", 2), ("mattis", 3), ("mattis", 5), ("mueckenstich", 4)],
)
def test_every_message_of_recorded_games_is_json_dumps(name: str, players: int) -> None:
    """After every move of two games, each seat's text is ``json.dumps(message)``."""
    game = tikki.load(name, players=players)
    seats: list[int | None] = [None, *range(players)]
    kept = {seat: HistoryText() for seat in seats}
    for seed in (1, 2):  # the second game in the same seats: every kept text replaced
        rng = random.Random(seed)
        state = game.new_state(seed=seed)
        seq = 0
        while True:
            for seat in seats:
                message = _message(state, seat, seq)
                assert state_text(message, kept[seat]) == json.dumps(message), (seat, seq)
            if state.is_over:
                break
            copy = state.clone()
            copy.play(rng.choice(copy.legal_moves()))
            copy.take_history(state)
            state, seq = copy, seq + 1


def test_replaced_and_shorter_histories_are_encoded_again() -> None:
    """An entry that is another object (an event added to it), a history cut short, and
    one that starts over read as ``json.dumps`` says."""
    kept = HistoryText()
    first: list[JSON] = [{"seat": 0, "move": "a"}, {"seat": 1, "move": "b"}]
    assert kept.encode(first) == json.dumps(first)
    grown = [first[0], {"seat": 1, "move": "b", "events": [{"type": "out", "seat": 1}]}]
    assert kept.encode(grown) == json.dumps(grown)
    assert kept.encode(grown[:1]) == json.dumps(grown[:1])
    assert kept.encode([]) == "[]"
    other: list[JSON] = [{"seat": 2, "move": "kortti ✓"}]
    assert kept.encode(other) == json.dumps(other)


def test_messages_without_a_history_are_json_dumps() -> None:
    """A message with no view, or a view without a history list, is ``json.dumps``'s."""
    kept = HistoryText()
    for message in (
        {"type": "error", "message": "ei ✓"},
        {"type": "state", "view": None},
        {"type": "state", "view": {"seat": 0, "history": None}},
    ):
        assert state_text(message, kept) == json.dumps(message)


@pytest.mark.parametrize(
    "value",
    [
        {"a": [1, 2.5, -0.0, 1e300, None, True, False], "b": {"c": "ä\u2603\n\"'\\"}},
        [float("nan"), float("inf"), float("-inf")],
        {1: "int key", 2.5: "float key", None: "none key", False: "bool key"},
        "a text",
        [],
        {},
        [[[[{"deep": ["er"]}]]]],
    ],
)
def test_dumps_is_json_dumps(value: object) -> None:
    assert dumps(value) == json.dumps(value)


def test_dumps_refuses_what_json_dumps_refuses() -> None:
    with pytest.raises(TypeError):
        dumps({"a": {1, 2}})
