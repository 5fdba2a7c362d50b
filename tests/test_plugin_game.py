"""The proof that a game is a plug-in: Tricklet, a small trick game in
its own folder (``examples/plugin_game``), registered by its entry point and installed
nowhere, works everywhere a game does with no line of its own outside that folder.

It is listed by ``tikki games``, played whole in the terminal (the generic presenter) and
in the arena by random, ISMCTS and expert bots, passes the conformance harness,
OpenSpiel's ``random_sim_test`` and PettingZoo's ``api_test``.  The browser game at the
web table is ``tests/test_web_plugin_e2e.py``.
"""

from __future__ import annotations

import importlib
import json
import os
import random
import subprocess
import sys
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

import tikki
from tests import _plugin, _server
from tikki import arena, i18n
from tikki import bots as botlib
from tikki.bots.heuristic import plain, policy_for
from tikki.core import TerminalParts, WebParts
from tikki.rules import players_text, rules_games, rules_text
from tikki.tui import app as tui_app
from tikki.tui import common, generic


@pytest.fixture(scope="module", autouse=True)
def plugged() -> Iterator[None]:
    """The plug-in's folder on ``sys.path`` for this module's tests, and off it after."""
    with _plugin.plugged():
        yield


def _need(module: str, extra: str) -> Any:
    """``module``, imported; skip loudly without it, fail under CI (``CI=true``)."""
    try:
        return importlib.import_module(module)
    except ImportError as err:
        if os.environ.get("CI") == "true":
            raise
        pytest.skip(f"!!! {err}: pip install -e '.[{extra}]' !!!")


def _run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = _plugin.env({"LANG": "C.UTF-8", "COLUMNS": "100", "PATH": "/usr/bin:/bin"})
    return subprocess.run(
        [sys.executable, "-m", "tikki.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )


def test_the_game_is_found_by_its_entry_point_and_nothing_is_installed() -> None:
    assert _plugin.NAME in tikki.games()
    assert tikki.games()[_plugin.NAME]["title"] == "Tricklet"
    found = subprocess.run(
        [sys.executable, "-c", "import tikki; print(sorted(tikki.games()))"],
        capture_output=True,
        text=True,
        check=True,
        cwd=_plugin.ROOT,
    )
    assert _plugin.NAME not in found.stdout, "the plug-in must not be installed in the venv"


def test_tikki_games_lists_it() -> None:
    done = _run("games")
    assert done.returncode == 0, done.stderr
    assert "tricklet — Tricklet, 2–4 players" in done.stdout
    assert "last_bonus" in done.stdout


def test_its_rules_texts_are_its_own_in_each_language() -> None:
    assert _plugin.NAME in rules_games()
    assert rules_text(_plugin.NAME, "en").startswith("# Tricklet")
    assert "Maahan tunnustaminen" in rules_text(_plugin.NAME, "fi")
    assert "Farbe bekennen" in players_text(_plugin.NAME, "de-DE")
    assert "Im Terminal" not in players_text(_plugin.NAME, "de")
    done = _run("rules", _plugin.NAME, "--lang", "fi")
    assert done.returncode == 0 and "Pisteet" in done.stdout, done.stderr


def test_a_whole_game_in_the_terminal() -> None:
    """A person types the first legal move's number at every prompt until the game ends;
    the generic presenter draws the table, the moves and the result."""
    done = _run(
        "play", _plugin.NAME, "--seed", "3", "--no-record", "--bots", "random", stdin="1\n" * 12
    )
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert "Tricklet" in out and "Legal moves: 1:" in out and "Points" in out
    assert "You play" in out and "Game over." in out
    assert " win with " in out or " wins with " in out or "share the win" in out
    assert "Traceback" not in out + done.stderr


def test_the_server_offers_it_and_says_it_has_no_renderer_of_its_own(tmp_path: Path) -> None:
    """``/api/games`` lists it; ``renderer`` false: the web table (``renderers.js``) draws
    it with ``render/generic.js``; tikki's own games load their own."""
    with _server.client(tmp_path) as c:
        games = c.get("/api/games").json()["games"]
        rules = c.get(f"/api/games/{_plugin.NAME}/rules?lang=de")
    assert games[_plugin.NAME]["renderer"] is False
    own = {n for n in games if tikki.core.game_class(n).__module__.startswith("tikki.games.")}
    assert {n: g["renderer"] for n, g in games.items() if n in own} == {
        "mattis": True,
        "mueckenstich": True,
        "myllymatti": True,
    }
    assert rules.status_code == 200 and "Farbe bekennen" in rules.text


def test_it_ships_its_own_translations(tmp_path: Path) -> None:
    """Tricklet declares its texts' fi/de translations and its phase titles in its own
    package (``Game.translations``, ``Game.phase_titles``): ``/api/games`` and ``tikki
    games`` speak them in Finnish and German, English stays the declared text."""
    with _server.client(tmp_path) as c:
        said = {
            lang: c.get(f"/api/games?lang={lang}").json()["games"][_plugin.NAME]
            for lang in ("en", "fi", "de")
        }
    assert said["en"]["phase_titles"] == {"play": "playing tricks"}
    assert said["en"]["summary"].startswith("2–4 players, two minutes.")
    assert said["fi"]["phase_titles"] == {"play": "tikkejä pelataan"}
    assert said["fi"]["summary"].startswith("2–4 pelaajaa, kaksi minuuttia.")
    assert said["fi"]["goals"]["play"].startswith("Voita tikkejä")
    assert said["de"]["phase_titles"] == {"play": "Stiche werden gespielt"}
    assert said["de"]["options"][0]["text"] == "der letzte Stich zählt zwei Punkte statt einem"
    assert said["de"]["goals"]["play"].startswith("Gewinne Stiche")
    done = _run("games", "--lang", "fi")
    assert done.returncode == 0, done.stderr
    assert "viimeinen tikki on kahden pisteen arvoinen" in done.stdout.replace("\n", " ")


def test_a_declared_move_title_is_served_and_explained_in_its_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A move that is no card shows as its game names it (``Game.move_titles``, in the
    game's own translations): in ``/api/games`` and the generic presenter's ``explain``;
    a move without a title stays ``play MOVE``."""
    cls = tikki.core.game_class(_plugin.NAME)
    monkeypatch.setattr(cls, "move_titles", {"knock": "knock on the table"})
    texts = {lang: dict(t) for lang, t in cls.translations.items()}
    texts["de"]["knock on the table"] = "auf den Tisch klopfen"
    monkeypatch.setattr(cls, "translations", texts)
    with _server.client(tmp_path) as c:
        games = c.get("/api/games?lang=de").json()["games"]
    assert games[_plugin.NAME]["move_titles"] == {"knock": "auf den Tisch klopfen"}
    view = tikki.load(_plugin.NAME).new_state(seed=1).view(0)
    with i18n.use("de"):
        assert generic.explain(view, "knock") == "auf den Tisch klopfen"
        assert generic.explain(view, "QH") == "QH spielen"


def test_a_whole_game_in_the_terminal_in_german() -> None:
    """The generic presenter titles the phase by the game's declaration, in the game's own
    German; the game's own refusal of a move is German too."""
    done = _run(
        "play",
        _plugin.NAME,
        "--seed",
        "3",
        "--no-record",
        "--bots",
        "random",
        "--lang",
        "de",
        stdin="9S\n" + "1\n" * 12,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert "Tricklet · Stiche werden gespielt" in out
    assert "Nicht erlaubt: '9♠' ist keine Karte von Tricklet (z. B. Q♥, 10♠)" in out
    assert "Erlaubte Züge: 1:" in out and "Traceback" not in out + done.stderr


def test_its_views_have_the_keys_of_its_declared_view_type() -> None:
    shape: Any = importlib.import_module(_plugin.NAME).TrickletView
    keys = shape.__required_keys__ | shape.__optional_keys__
    assert getattr(tikki.core.game_class(_plugin.NAME), "view_type", None) is shape
    state = tikki.load(_plugin.NAME, 2).new_state(seed=1)
    while not state.is_over:
        for seat in (None, 0, 1):
            assert set(state.view(seat)) == keys
        state.play(state.legal_moves()[-1])


def test_a_plug_in_may_ship_its_own_renderers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game declares a terminal presenter module and a web renderer file in its own
    package; the terminal uses the first, the server serves the second as
    ``/static/render/<name>.js`` and ``/api/games`` says it has one."""
    cls = tikki.core.game_class(_plugin.NAME)
    game = tikki.load(_plugin.NAME)
    own = importlib.import_module("tikki.tui.mueckenstich").PRESENTER
    monkeypatch.setattr(cls, "terminal", TerminalParts(presenter="tikki.tui.mueckenstich"))
    assert tui_app.presenter(game) is own
    monkeypatch.setattr(cls, "terminal", TerminalParts(presenter="tikki_no_such_presenter"))
    with pytest.raises(ModuleNotFoundError):
        tui_app.presenter(game)  # a declared module that is missing is an error, loudly
    monkeypatch.setattr(cls, "web", WebParts(renderer="tikki.web:static/render/generic.js"))
    with _server.client(tmp_path) as c:
        assert c.get("/api/games").json()["games"][_plugin.NAME]["renderer"] is True
        served = c.get(f"/static/render/{_plugin.NAME}.js")
        assert served.status_code == 200 and "javascript" in served.headers["content-type"]
        assert served.text.startswith("// @ts-check")
        monkeypatch.setattr(cls, "web", WebParts(renderer="tikki.web:static/render/none.js"))
        assert c.get(f"/static/render/{_plugin.NAME}.js").status_code == 404
        assert c.get("/api/games").json()["games"][_plugin.NAME]["renderer"] is False


def test_the_generic_presenter_draws_the_declared_view() -> None:
    game = tikki.load(_plugin.NAME, 3)
    state = game.new_state(seed=5)
    state.play(state.legal_moves()[0])
    assert tui_app.presenter(game) is generic.PRESENTER
    console = Console(width=100, record=True, color_system=None)
    view = state.view(1)
    console.print(generic.render(view, ["Anna", "You", "Ben"]))
    text = console.export_text()
    assert "Tricklet" in text and "Points" in text and "Stock: 8 cards" in text
    assert f"Trick: Anna {common.card(state.moves[0]).plain}" in text
    assert "Your hand: " + common.cards(view["hand"]).plain in text
    legal = "  ".join(f"{i}:{common.card(m).plain}" for i, m in enumerate(view["legal_moves"], 1))
    assert "Legal moves: " + legal in text


def test_the_arena_plays_it_with_random_ismcts_and_expert_bots() -> None:
    bots = ("random", "ismcts:iterations=60", "expert:iterations=60")
    spec = arena.ArenaSpec(_plugin.NAME, 3, {}, bots, games=3, seed=7)
    results = arena.run(spec)
    assert len(results) == 3
    for result in results:
        assert result.forfeit is None, result.error
        assert result.outcome is not None and not result.abandoned
        assert sorted(result.seats) == sorted(bots)
        assert tikki.replay(result.record).outcome == result.outcome


def test_the_conformance_kit_runs_in_the_plugins_own_tests_with_one_class(
    tmp_path: Path,
) -> None:
    """A plug-in's author runs the kit as the docs say: one class in a test module of
    their own folder (which has a ``tests`` folder of its own), pytest, nothing of tikki's
    checkout; every configuration it declares passes."""
    own = tmp_path / "tests"
    own.mkdir()
    (own / "__init__.py").write_text("")
    (own / "test_conformance.py").write_text(
        "from tikki.testing import ConformanceSuite\n\n\n"
        f"class TestTricklet(ConformanceSuite):\n    game = {_plugin.NAME!r}\n"
    )
    environment = _plugin.env()
    environment["PYTHONPATH"] = str(_plugin.FOLDER)  # the plug-in; tikki as installed
    environment.update(TIKKI_CONFORMANCE_GAMES="30", TIKKI_CONFORMANCE_DEEP="4")
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", *_plugin.QUIET_PYTEST, "tests"],
        cwd=tmp_path,
        env=environment,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    declared = tikki.core.game_class(_plugin.NAME).harness.conformance
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert f"{4 * len(declared)} passed" in run.stdout


def test_openspiel_random_sim_test() -> None:
    pyspiel = _need("pyspiel", "openspiel")
    from tikki.interop import openspiel

    assert "python_tikki_" + _plugin.NAME in openspiel.register()
    for players in (2, 3, 4):
        game = pyspiel.load_game(f"python_tikki_{_plugin.NAME}", {"players": players})
        pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


def test_pettingzoo_api_test() -> None:
    pz_test = _need("pettingzoo.test", "pettingzoo")
    from tests.test_interop_pettingzoo import DICT_OBSERVATION_WARNINGS
    from tikki.interop import pettingzoo as tikki_pz

    for players in (2, 4):
        env = tikki_pz.env(_plugin.NAME, players=players, render_mode="ansi")
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            pz_test.api_test(env, num_cycles=100)
        others = {str(w.message) for w in caught} - DICT_OBSERVATION_WARNINGS
        assert not others, f"api_test warned: {sorted(others)}"


def test_the_levels_of_a_game_without_a_heuristic_are_distinct(tmp_path: Path) -> None:
    """Without a heuristic of its own, the Medium level (``heuristic``) would be Easy's
    random move: the server runs a modest search for it instead (``botplay.level_spec``),
    named Medium; tikki's own games keep their heuristic."""
    from tikki.server import botplay

    game = tikki.load(_plugin.NAME, 3)
    run = [botplay.check_spec(spec, game) for spec in botplay.offered(game)]  # no Learned
    assert run[1] == botplay.MEDIUM_SEARCH and len(set(run)) == len(run), run
    assert [botplay.level(spec) for spec in run] == ["Easy", "Medium", "Hard", "Expert"]
    assert botplay.check_spec("heuristic", tikki.load("mattis", 3)) == "heuristic"
    assert botplay.check_spec(run[1], game) == run[1]  # a rematch asks for the stored spec
    assert not botplay.is_cheap(run[1])  # a search: a worker decides, never the event loop
    with _server.client(tmp_path) as c:
        seats: _server.Seats = [{"kind": "open"}, {"kind": "bot", "bot": "heuristic"}]
        made = _server.create(c, _plugin.NAME, seats)
        table = c.get(f"/api/tables/{made['table']['id']}").json()
    assert table["seats"][1]["bot"] == botplay.MEDIUM_SEARCH
    assert table["seats"][1]["name"].endswith("(Medium)"), table["seats"]


def test_the_heuristic_level_plays_a_game_that_ships_no_heuristic() -> None:
    """The one move a turn timer makes for a person is ``heuristic``'s (it decides on the
    event loop): a game without a heuristic of its own gets a legal move at random there."""
    game = tikki.load(_plugin.NAME, 3)
    assert policy_for(game) is plain
    state = game.new_state(seed=2)
    bots = [botlib.make("heuristic", seed=s) for s in range(3)]
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        state.play(bots[seat].choose(game, state.view(seat)))
    assert state.outcome is not None


def test_a_seat_sees_no_hidden_card_and_a_sample_respects_voids() -> None:
    """A seat that did not follow suit holds none of it in any state drawn from a view."""
    game = tikki.load(_plugin.NAME, 4)
    rng = random.Random(1)
    checked = 0
    for seed in range(30):
        state = game.new_state(seed=seed)
        while not state.is_over and len(state.moves) < 9:
            state.play(rng.choice(state.legal_moves()))
        view: dict[str, Any] = state.view(0)
        hidden = set(state.reveal()["hidden"]["0"])
        assert not hidden & set(json.dumps(view).replace('"', " ").split())
        led = None
        for i, entry in enumerate(view["history"]):
            if i % 4 == 0:
                led = entry["move"][-1]
            elif entry["move"][-1] != led:
                for _ in range(5):
                    sampled = game.sample_state(view, rng)
                    held = sampled.reveal()["zones"][f"hand{entry['seat']}"]
                    assert all(card[-1] != led for card in held)
                    checked += 1
    assert checked > 0


def test_a_person_who_resigns_a_game_without_a_heuristic_gets_a_medium_search(
    tmp_path: Path,
) -> None:
    """The stand-in for a resigned person is the Medium level: in a game without a
    heuristic of its own that is the modest search (``botplay.level_spec``), not a random
    move, and the game plays to its end."""
    from tikki.server import botplay

    with _server.client(tmp_path) as c:
        seats: _server.Seats = [{"kind": "open"}, {"kind": "open"}]
        made = _server.create(c, _plugin.NAME, seats)
        tid = made["table"]["id"]
        tokens = [_server.join(c, tid, seat, name) for seat, name in enumerate(("A", "B"))]
        for token in tokens:
            r = c.post(f"/api/tables/{tid}/resign", headers=_server.auth(token))
            assert r.is_success, r.text
        table = c.get(f"/api/tables/{tid}").json()
        assert [t["bot"] for t in table["takeovers"]] == [botplay.MEDIUM_SEARCH] * 2, table
        for _try in range(400):
            if c.get(f"/api/tables/{tid}").json()["status"] == "finished":
                break
            time.sleep(0.05)
        assert c.get(f"/api/tables/{tid}").json()["status"] == "finished"


def test_the_help_names_the_plugin_and_stays_in_the_asked_language() -> None:
    """``tikki --help`` lists every registered game, and a plug-in does not turn the
    translated help back into English (the sentence is composed from its parts)."""
    english = _run("--help")
    finnish = _run("--lang", "fi", "--help")
    german = _run("--lang", "de", "play", "--help")
    assert english.returncode == finnish.returncode == german.returncode == 0
    assert "Mückenstich and Tricklet, played exactly by their rules" in english.stdout
    assert "Mückenstich ja Tricklet tarkalleen sääntöjensä mukaan" in finnish.stdout
    assert "played exactly" not in finnish.stdout
    assert "gewonnene" in german.stdout and "show won tricks" not in german.stdout
