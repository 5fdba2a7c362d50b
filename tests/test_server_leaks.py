"""No message the server sends to a seat holds a card hidden from that seat.

Whole games of each game are played over the WebSocket: the human seats by test clients
choosing random legal moves (and asking for hints now and then), the others by bots, with
a spectator watching.  Every message each connection receives is recorded.  Afterwards
the game is replayed from its record, and for every message the cards hidden from its
receiver at that seq (the engine's ``reveal()["hidden"]``; for a spectator, the cards
hidden from any seat) must not appear in it as a whole token.  Seat tokens never appear
in any message, and the seed only once the game is over.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import pytest

import tikki
from tests._server import TestClient, client, create, join, pick, socket

TOKEN = re.compile(r"[A-Za-z0-9]+")
Key = int | None

GAMES = [
    ("myllymatti", {"players": 3}, ["open", "open", "heuristic"], 3_141_592_653),
    (
        "myllymatti",
        {"players": 4, "variant": "koira"},
        ["open", "random", "open", "random"],
        2_718_281_828,
    ),
    ("mattis", {"players": 3}, ["open", "random", "heuristic"], 1_618_033_988),
    ("mueckenstich", {"players": 4}, ["open", "open", "heuristic", "random"], 1_414_213_562),
]


@pytest.fixture(scope="module")
def c(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with client(tmp_path_factory.mktemp("leaks")) as test_client:
        yield test_client


class Table:
    """Connections to one table and every message each of them received."""

    def __init__(self, c: TestClient, stack: ExitStack, table_id: str, tokens: dict[int, str]):
        self.log: dict[Key, list[str]] = {}
        self.latest: dict[Key, dict[str, Any]] = {}
        self.sockets: dict[Key, Any] = {}
        for key, token in [(None, None), *tokens.items()]:
            self.log[key] = []
            self.sockets[key] = stack.enter_context(socket(c, table_id, token))

    def read(self, key: Key) -> dict[str, Any]:
        text = self.sockets[key].receive_text()
        self.log[key].append(text)
        message: dict[str, Any] = json.loads(text)
        if message["type"] == "state":
            self.latest[key] = message
        return message

    def catch_up(self, key: Key, seq: int) -> dict[str, Any]:
        while key not in self.latest or self.latest[key]["seq"] < seq:
            self.read(key)
        return self.latest[key]


def play_whole_game(c: TestClient, table: Table, rng: random.Random) -> int:
    """Play until the spectator sees the end; return the final seq."""
    moved: set[int] = set()
    while True:
        watched = table.read(None)
        if watched["type"] != "state":
            continue
        seq, to_act = watched["seq"], watched["table"]["to_act"]
        if watched["status"] == "finished":
            for key in table.sockets:
                table.catch_up(key, seq)
            return int(seq)
        if to_act not in table.sockets or seq in moved:
            continue
        mine = table.catch_up(to_act, seq)
        assert mine["seq"] == seq and mine["view"]["legal_moves"], mine
        if rng.random() < 0.05:
            table.sockets[to_act].send_json({"type": "hint"})
        move = pick(mine["view"], seq, rng.randrange(1000))
        table.sockets[to_act].send_json({"type": "move", "move": move, "seq": seq})
        moved.add(seq)


def hidden_by_seq(record: dict[str, Any]) -> list[dict[Key, set[str]]]:
    """For each seq, the cards hidden from each seat and from spectators."""
    game = tikki.load(record["game"], record["players"], **record["options"])
    out = [_hidden(game.new_state(seed=record["seed"]))]
    tikki.replay(record, on_move=lambda _i, _move, state: out.append(_hidden(state)))
    return out


def _hidden(state: tikki.State) -> dict[Key, set[str]]:
    per_seat: dict[Key, set[str]] = {
        int(seat): set(cards) for seat, cards in state.reveal()["hidden"].items()
    }
    per_seat[None] = set().union(*per_seat.values())
    return per_seat


@pytest.mark.timeout(120)
@pytest.mark.parametrize(("game", "setup", "seats", "seed"), GAMES, ids=lambda v: str(v)[:12])
def test_no_hidden_card_reaches_a_seat(
    c: TestClient, game: str, setup: dict[str, Any], seats: list[str], seed: int
) -> None:
    wanted = [{"kind": "open"} if s == "open" else {"kind": "bot", "bot": s} for s in seats]
    tid = create(c, game, wanted, seed=seed, **setup)["table"]["id"]
    tokens = {i: join(c, tid, i, f"P{i}") for i, s in enumerate(seats) if s == "open"}
    with ExitStack() as stack:
        table = Table(c, stack, tid, tokens)
        final = play_whole_game(c, table, random.Random(seed))
    record = c.get(f"/api/tables/{tid}/record").json()
    assert len(record["moves"]) == final and record["seed"] == seed
    hidden = hidden_by_seq(record)
    checked = 0
    for key, texts in table.log.items():
        seq = 0
        for text in texts:
            message = json.loads(text)
            seq = message.get("seq", seq)
            words = set(TOKEN.findall(text))
            leaked = words & hidden[seq][key]
            assert not leaked, f"{game}: seat {key} got hidden {sorted(leaked)} at seq {seq}"
            assert not any(token in text for token in tokens.values()), "a seat token was sent"
            if message.get("status") != "finished":
                assert str(seed) not in words, f"the seed reached seat {key} before the end"
            checked += 1
    assert final > 50 and checked >= final * len(table.log)
