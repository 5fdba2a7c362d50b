"""The Learned level at the web table: the lobby offers it only where
the game has a shipped model for that player count and NumPy imports; a table that asks
for it anywhere else is refused in words (400, never a 500), naming why and the levels
that play there."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import tikki
from tests import _plugin
from tests._server import TestClient, client, create, error_of
from tikki.core import RulesError
from tikki.server import botplay

SHIPPED = {
    "myllymatti": {"players": [3], "variants": ["standard", "koira"]},
    "mattis": {"players": [3], "variants": ["standard"]},
    "mueckenstich": {"players": [4], "variants": ["standard"]},
}
"""The games, player counts and variants of the shipped models (tikki/models): a research
variant (mini) has a smaller deck, so its seats see other observations."""


@pytest.fixture
def c(tmp_path: Path) -> Iterator[TestClient]:
    with client(tmp_path) as test_client:
        yield test_client


def _learned(levels: list[dict[str, Any]]) -> dict[str, Any] | None:
    return next((b for b in levels if b["spec"] == "learned"), None)


def test_the_lobby_offers_learned_where_a_model_is_shipped(c: TestClient) -> None:
    bots = c.get("/api/games").json()["bots"]
    assert [b["spec"] for b in bots][-1] == "learned"
    learned = _learned(bots)
    assert learned is not None and learned["label"] == "Learned"
    assert learned["games"] == SHIPPED
    assert all(b["games"] is None for b in bots if b["spec"] != "learned")
    medium = next(b for b in bots if b["spec"] == "heuristic")
    assert medium["aliases"] == [botplay.MEDIUM_SEARCH]  # served, not dropped by the schema
    fi = _learned(c.get("/api/games", headers={"Accept-Language": "fi"}).json()["bots"])
    assert fi is not None and fi["label"] == "Opittu"


@pytest.mark.parametrize(
    ("name", "players"), [("myllymatti", 3), ("mattis", 3), ("mueckenstich", 4)]
)
def test_learned_is_a_level_of_the_shipped_games(name: str, players: int) -> None:
    game = tikki.load(name, players)
    assert "learned" in botplay.offered(game)
    assert botplay.check_spec("learned", game) == "learned"
    assert botplay.level("learned") == "Learned"
    assert botplay.label("learned", 1) == "Eero (Learned)"


def test_learned_is_not_offered_without_a_model() -> None:
    assert "learned" not in botplay.offered(tikki.load("myllymatti", 2))
    assert "learned" not in botplay.offered(tikki.load("mueckenstich", 3))
    assert "learned" in botplay.offered(tikki.load("myllymatti", 3, variant="koira"))
    assert "learned" not in botplay.offered(tikki.load("mattis", 3, variant="mini"))
    assert "learned" not in botplay.offered(tikki.load("mattis", 3, ranks=7))
    with _plugin.plugged():
        assert botplay.offered(tikki.load(_plugin.NAME, 3)) == [
            spec for spec, _label in botplay.LEVELS if spec != "learned"
        ]
        with pytest.raises(RulesError, match="Learned level plays only") as err:
            botplay.check_spec("learned", tikki.load(_plugin.NAME, 3))
    assert "Easy, Medium, Hard or Expert" in str(err.value)


@pytest.mark.parametrize(
    ("game", "players", "where"),
    [("myllymatti", 2, "Myllymatti with 2 players"), ("mueckenstich", 3, "Mückenstich with 3")],
)
def test_a_table_asking_for_learned_without_a_model_is_refused_in_words(
    c: TestClient, game: str, players: int, where: str
) -> None:
    seats = [{"kind": "open"}] + [{"kind": "bot", "bot": "learned"}] * (players - 1)
    status, code, message = error_of(c.post("/api/tables", json={"game": game, "seats": seats}))
    assert (status, code) == (400, "bad_bot")
    assert "Learned level plays only" in message and where in message, message
    assert "Myllymatti with 3 players" in message, message  # where it does play
    assert "choose Easy, Medium, Hard or Expert" in message, message
    assert c.get("/api/tables?status=all").json()["tables"] == []


@pytest.mark.parametrize(
    ("body", "options"), [({"variant": "mini"}, {}), ({}, {"ranks": 7})], ids=["mini", "ranks"]
)
def test_a_table_whose_rules_the_model_was_not_trained_for_is_refused_in_words(
    c: TestClient, body: dict[str, Any], options: dict[str, Any]
) -> None:
    seats = [{"kind": "open"}, {"kind": "bot", "bot": "learned"}, {"kind": "open"}]
    answer = c.post(
        "/api/tables", json={"game": "mattis", "seats": seats, "options": options, **body}
    )
    status, code, message = error_of(answer)
    assert (status, code) == (400, "bad_bot")
    assert "trained on other rules than this table's" in message, message
    assert "choose Easy, Medium, Hard or Expert" in message, message


def test_without_numpy_learned_is_not_offered_and_refused_in_words(
    c: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "numpy", None)  # as a bare install: NumPy not found
    assert _learned(c.get("/api/games").json()["bots"]) is None
    assert "learned" not in botplay.offered(tikki.load("mattis", 3))
    seats = [{"kind": "open"}, {"kind": "bot", "bot": "learned"}, {"kind": "open"}]
    status, code, message = error_of(c.post("/api/tables", json={"game": "mattis", "seats": seats}))
    assert (status, code) == (400, "bad_bot")
    assert "Learned level needs NumPy" in message and "tikki[models]" in message, message
    assert "choose Easy, Medium, Hard or Expert" in message, message


def test_a_learned_table_plays_to_the_end(c: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    """A table of Learned bots (and a Medium one) plays a whole game, no bot failing (a
    failed bot would play at random and log it); the seats say Learned, in Finnish too."""
    seats = [
        {"kind": "bot", "bot": "learned"},
        {"kind": "bot", "bot": "heuristic"},
        {"kind": "bot", "bot": "learned"},
    ]
    tid = create(c, "mattis", seats, seed=4)["table"]["id"]
    deadline = time.monotonic() + 60
    while (table := c.get(f"/api/tables/{tid}").json())["status"] != "finished":
        assert time.monotonic() < deadline, table["status"]
        time.sleep(0.02)
    names = [s["name"] for s in table["seats"]]
    assert names == ["Aino (Learned)", "Eero (Medium)", "Helmi (Learned)"]
    fi = c.get(f"/api/tables/{tid}", headers={"Accept-Language": "fi"}).json()
    assert fi["seats"][0]["name"] == "Aino (Opittu)"
    assert not table["outcome"].get("abandoned")
    assert not [r.getMessage() for r in caplog.records if "failed" in r.getMessage()]
