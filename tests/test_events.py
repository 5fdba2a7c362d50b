"""Events (docs/design.md: Events): what each move did, from the engine, as each seat may know it.

The conformance harness checks events against the state over every configuration; these
tests pin the cases the issues name: the winner of the last phase-1 trick and the cards
going back when phase 1 ends mid-trick are announced (in the engine, the terminal and
``tikki replay``), a seat's own draws show its cards and nobody else's, and every view
has ``last_trick``.
"""

from __future__ import annotations

import importlib.util
import json
import random
import sys
import types
import typing
from pathlib import Path
from typing import Any, cast

import pytest
from typer.testing import CliRunner

import tikki
import tikki.events
from tikki.cli import app
from tikki.core import State, TableState
from tikki.events import Event

pytestmark = [pytest.mark.engine, pytest.mark.newest, pytest.mark.compiled]

runner = CliRunner()


def _random_game(name: str, players: int, seed: int) -> State:
    state = tikki.load(name, players=players).new_state(seed=seed)
    rng = random.Random(seed)
    while not state.is_over:
        state.play(rng.choice(state.legal_moves()))
    return state


def _events(history: list[dict[str, Any]]) -> list[tuple[int, dict[str, Any]]]:
    return [(i, e) for i, h in enumerate(history) for e in h.get("events", [])]


def test_the_move_ending_phase_one_carries_the_trick_then_the_phase() -> None:
    """The last phase-1 trick has a winner before phase 2 begins."""
    for name in ("myllymatti", "mattis"):
        checked = 0
        for seed in range(60):  # games whose phase 1 ends with a finished trick
            history = _random_game(name, 3, seed).history(None)
            (i, phase), *_ = [(i, e) for i, e in _events(history) if e["type"] == "phase"]
            kinds = [e["type"] for e in history[i].get("events", [])]
            if "void_tie" in kinds:
                continue  # phase 1 ended mid-trick (AM-8): nobody won that trick
            assert kinds.index("trick") < kinds.index("phase"), kinds
            trick = next(e for e in history[i]["events"] if e["type"] == "trick")
            assert phase["leader"] == trick["winner"]
            checked += 1
        assert checked >= 5, (name, checked)


def test_phase_one_ending_mid_trick_returns_the_cards() -> None:
    """AM-8: the unfinished trick goes back to who played it, and the event says so."""
    state = _random_game("mattis", 3, 1)
    voids = [e for _, e in _events(state.history(None)) if e["type"] == "void_tie"]
    assert voids and voids[0]["why"] == "phase_end" and voids[0]["cards"]
    kina = _random_game("myllymatti", 3, 4)
    voids = [e for _, e in _events(kina.history(None)) if e["type"] == "void_tie"]
    assert voids and voids[0]["why"] == "kina" and len(voids[0]["seats"]) >= 2


def test_own_draws_show_cards_and_others_only_counts() -> None:
    state = _random_game("myllymatti", 3, 7)
    draws = {
        seat: [e for _, e in _events(state.history(seat)) if e["type"] == "draw"]
        for seat in (None, 0, 1, 2)
    }
    assert draws[0] and len(draws[0]) == len(draws[None])
    for seat in (0, 1, 2):
        for e in draws[seat]:
            assert ("cards" in e) == (e["seat"] == seat)
    assert all("cards" not in e for e in draws[None])
    record = state.record(1)
    recorded = [e for _, e in _events(record["history"]) if e["type"] == "draw"]
    assert recorded == draws[1], "a seat's record holds exactly that seat's view of its draws"


def test_mattis_dreck_cards_only_for_their_receiver() -> None:
    for seed in range(300):  # a dreck is rare in random play (4 games in 60)
        state = _random_game("mattis", 3, seed)
        drecks = [e for _, e in _events(state.history(None)) if e["type"] == "dreck"]
        if drecks:
            break
    else:
        raise AssertionError("no dreck in 300 games")
    assert "cards" not in drecks[0]
    for seat in range(3):
        (mine,) = [e for _, e in _events(state.history(seat)) if e["type"] == "dreck"]
        assert ("cards" in mine) == (mine["counts"][seat] > 0)
        assert len(mine.get("cards", [])) == mine["counts"][seat]


def test_every_view_has_last_trick() -> None:
    for name, players in (("myllymatti", 3), ("mattis", 3), ("mueckenstich", 4)):
        state = tikki.load(name, players=players).new_state(seed=3)
        assert state.view(0)["last_trick"] is None
        rng = random.Random(3)
        while not state.is_over and state.view(None)["last_trick"] is None:
            state.play(rng.choice(state.legal_moves()))
        last = state.view(1)["last_trick"]
        assert last is not None and last["cards"], name
        events = _events(state.history(None))
        trick = [e for _, e in events if e["type"] == "trick"][-1]
        assert last["winner"] == trick["winner"] and last["cards"] == trick["cards"]


def test_watch_announces_the_last_phase_one_trick_myllymatti() -> None:
    """As reported: ``tikki play myllymatti --watch --seed 4``."""
    args = ["play", "myllymatti", "--watch", "--delay", "0", "--seed", "4", "--no-record"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    phase = next(i for i, line in enumerate(lines) if line.startswith("Phase 2 begins"))
    assert "wins the trick" in lines[phase - 1], lines[phase - 3 : phase + 1]
    assert "Trump is" in result.output and "is out (1st)." in result.output


def test_watch_announces_the_last_phase_one_trick_mattis() -> None:
    """As reported: ``tikki play mattis --watch --bots heuristic --seed 2``."""
    args = ["play", "mattis", "--watch", "--bots", "heuristic", "--delay", "0"]
    result = runner.invoke(app, [*args, "--seed", "2", "--no-record"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    phase = next(i for i, line in enumerate(lines) if line.startswith("Phase 2 begins"))
    assert any("wins the trick" in line for line in lines[phase - 3 : phase]), lines[phase - 3 :]
    assert "draws the last stock card and shows it" in result.output


def test_replay_announces_cards_going_back_when_phase_one_ends_mid_trick(
    tmp_path: Path,
) -> None:
    state = _random_game("mattis", 3, 1)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(state.record()))
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Phase 1 ends mid-trick: the cards go back" in out
    assert "wins the trick" in out and "The trick falls" in out and "Game over." in out
    assert "draws a card" in out and "is out (1st)" in out


def test_replay_prints_rounds_of_a_match(tmp_path: Path) -> None:
    state = _random_game("mueckenstich", 3, 2)
    path = tmp_path / "match.json"
    path.write_text(json.dumps(state.record()))
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    for r in (1, 2, 3):
        assert f"Round {r} is scored." in result.output
    assert "wins the trick" in result.output


DRECK_SEED = 42
"""A random Mattis game with a dreck (rare in random play)."""


def _held(value: object, hint: object) -> bool:
    """Whether ``value`` is of the declared field type ``hint`` (its outer type)."""
    if hint is int:
        return isinstance(value, int)
    args = typing.get_args(hint)
    if isinstance(hint, types.UnionType):
        return any(_held(value, h) for h in args)
    if hint is type(None):
        return value is None
    return isinstance(value, cast(type, typing.get_origin(hint) or hint))


def _declared() -> dict[str, dict[str, Any]]:
    """Each event record's field types as ``tikki/events.py`` declares them (a compiled
    build keeps only their outer classes at run time), by record name."""
    path = Path(tikki.events.__file__ or "").with_name("events.py")
    spec = importlib.util.spec_from_file_location("_events_source", path)
    assert spec is not None and spec.loader is not None
    source = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = source  # where get_type_hints resolves the names
    try:
        spec.loader.exec_module(source)
        return {c.__name__: typing.get_type_hints(c) for c in typing.get_args(source.Event)}
    finally:
        del sys.modules[spec.name]


def test_an_event_is_a_typed_immutable_record() -> None:
    """An event is a typed record, one ``NamedTuple`` per event type (in the
    compiled build too): every field holds its declared type, none is ``Any``, and
    assigning a field or an item raises.  A take is kept with its move by the games
    that have one (Myllymatti, Mattis: tikki/events.py allows it): its record is made
    only for a history, by the same constructor, checked here as made."""
    declared = _declared()
    kinds: set[type] = set()
    kept_with_moves: list[Event] = [tikki.events.take_event(7, 1, [3, 4])]
    for name, seed in (
        ("myllymatti", 4),
        ("mattis", 1),
        ("mattis", DRECK_SEED),
        ("mueckenstich", 2),
    ):
        state = _random_game(name, 3, seed)
        assert isinstance(state, TableState)
        for event in [*state._event_log, *kept_with_moves]:
            kinds.add(type(event))
            hints = declared[type(event).__name__]
            assert list(hints) == list(event._fields) and hints["moves"] is int, event
            for field, hint in hints.items():
                assert hint is not Any and Any not in typing.get_args(hint), (event, field)
                assert _held(getattr(event, field), hint), (event, field, hint)
                with pytest.raises(AttributeError):
                    setattr(event, field, 0)
            with pytest.raises(TypeError):
                cast(list[object], event)[0] = 0
            assert isinstance(event.cache, list) and event.moves >= 0
    assert kinds == set(typing.get_args(Event)), set(typing.get_args(Event)) - kinds
    assert {k.__name__ for k in kinds} == set(declared)


def test_a_deal_is_marked_as_a_deal_and_a_draw_is_not() -> None:
    """A Mückenstich deal after the first emits ``draw`` events marked ``"deal": true``
    (in every view, the dealt cards only in their receiver's); a draw from the stock (a
    Myllymatti or Mattis phase-1 draw) has no ``deal``."""
    state = _random_game("mueckenstich", 3, 2)
    for seat in (None, 0, 1, 2):
        draws = [e for _, e in _events(state.history(seat)) if e["type"] == "draw"]
        assert draws, seat
        assert all(e.get("deal") is True for e in draws), (seat, draws[:2])
        assert all(("cards" in e) == (e["seat"] == seat) for e in draws), seat
    for name in ("myllymatti", "mattis"):
        stock = _random_game(name, 3, 4)
        draws = [e for _, e in _events(stock.history(0)) if e["type"] == "draw"]
        assert draws and all("deal" not in e for e in draws), name


def test_the_terminal_says_a_deal_is_dealt_not_drawn() -> None:
    from tikki.tui.events import event_text

    names = ["You", "Aino (Medium)"]
    other = event_text({"type": "draw", "seat": 1, "count": 15, "deal": True}, names)
    dealt = {"type": "draw", "seat": 0, "count": 2, "cards": ["7H", "8H"], "deal": True}
    mine = event_text(dealt, names)
    assert other is not None and mine is not None
    assert other.plain == "Aino (Medium) is dealt 15 cards", other.plain
    assert mine.plain.startswith("You are dealt "), mine.plain
    drawn = event_text({"type": "draw", "seat": 1, "count": 1}, names)
    assert drawn is not None and drawn.plain == "Aino (Medium) draws a card"
