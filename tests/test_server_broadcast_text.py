"""The state messages a table sends are ``json.dumps``'s, byte for byte.

:meth:`tikki.server.tables.table.Table.broadcast` encodes each message's history once per
entry (:mod:`tikki.server.tables.texts`) and each (seat, language) once.  These tests hold
every queued text to ``json.dumps`` of :meth:`Table.state_message` through whole games of
every game, with the table's settings and stand-ins changed under it (a stand-in, a turn
timer, another game at the same table, the end), in English and in Finnish, for seats and
spectators.
"""

from __future__ import annotations

import json
import random
from datetime import datetime

import pytest

import tikki
from tikki.i18n import use
from tikki.server.db import StoredSeat
from tikki.server.tables.table import Connection, Table, Takeover


def _table(name: str, players: int, seed: int) -> Table:
    """A playing table: a person at seat 0 (connected in English and in Finnish, with a
    spectator), bots in the other seats."""
    game = tikki.load(name, players=players)
    seats = [StoredSeat(0, "human", 'Åsa "ö" ✓', None, "x" * 64)]
    seats += [StoredSeat(s, "bot", f"Bot {s}", "heuristic") for s in range(1, players)]
    table = Table(f"t{seed}", game, game.new_state(seed=seed), seed, seats, "playing",
                  datetime(2026, 1, 1))  # fmt: skip
    table.connections |= {Connection(0), Connection(0, lang="fi"), Connection(None)}
    return table


def _check(table: Table) -> None:
    """Every connection's queued text is ``json.dumps`` of its message in its language."""
    table.broadcast()
    for conn in table.connections:
        with use(conn.lang):
            expected = json.dumps(table.state_message(conn.seat))
        assert conn.outbox._state == expected, (conn.seat, conn.lang, table.seq)


@pytest.mark.parametrize(
    ("name", "players"), [("myllymatti", 3), ("mattis", 3), ("mueckenstich", 4)]
)
def test_every_message_of_a_game_is_json_dumps(name: str, players: int) -> None:
    """After every move of a game, with settings changed midway, each text is json.dumps's."""
    table = _table(name, players, 1)
    rng = random.Random(1)
    while not table.state.is_over:
        copy = table.state.clone()
        copy.play(rng.choice(copy.legal_moves()))
        copy.take_history(table.state)
        table.state = copy
        table.seq += 1
        if table.seq == 3:
            table.takeovers.append(Takeover(0, 3, "heuristic", "away"))
        if table.seq == 5:
            table.turn_timer = 30  # the fixed entries change: each on its own
        if table.seq == 6:
            table.on_timeout = "bot"
        if table.seq == 7:
            table.takeovers[-1].end = 7
            table.memory_aids = True
        _check(table)
    table.status, table.finished, table.rematch = "finished", datetime(2026, 1, 2), "r1"
    _check(table)


def test_another_game_at_the_same_table_is_encoded_anew() -> None:
    """A table whose game object is replaced (another deal) sends the new game's texts."""
    table = _table("myllymatti", 3, 2)
    _check(table)
    table.game = tikki.load("myllymatti", players=3, variant="standard")
    table.state = table.game.new_state(seed=3)
    table.history_texts.clear()
    _check(table)
    table.id = "another"
    _check(table)
