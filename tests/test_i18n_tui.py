"""The terminal in Finnish and German: whole games, prompts, errors, help, arena.

Games are played through typer's runner and, for the language of the environment and
the prompt, through a real pseudo-terminal (pexpect).  The pseudo-locale run finds any
text that does not go through a translation.
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

import pexpect
import pytest
from typer.testing import CliRunner

from tikki.cli import app

runner = CliRunner()
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]|\r")

GAMES = [
    ("mueckenstich", "3", "5", "1\n" * 400),
    ("myllymatti", "3", "4", "1\n" * 600),
    ("mattis", "3", "2", "1\n" * 1500),
]

EXPECTED = {
    "fi": {
        "mueckenstich": ["Siirtosi:", "Kätesi:", "Tikki", "Pistetaulukko", "Ottelu päättyi"],
        "myllymatti": ["Siirtosi:", "Kätesi:", "Pakka:", "vaihe 1 — keräys", "Peli päättyi"],
        "mattis": ["Siirtosi:", "Sallitut siirrot:", "voittaa tikin", "Peli päättyi"],
    },
    "de": {
        "mueckenstich": ["Dein Zug:", "Deine Hand:", "Stich", "Punkteliste", "Partie vorbei"],
        "myllymatti": ["Dein Zug:", "Deine Hand:", "Talon:", "Phase 1 — Sammeln", "Spiel vorbei"],
        "mattis": ["Dein Zug:", "Erlaubte Züge:", "gewinnt den Stich", "Spiel vorbei"],
    },
}
ENGLISH = ["Your move", "Your hand", "Legal moves", "wins the trick", "Game over", "Seat 1"]


def _play(args: list[str], keys: str) -> tuple[int, str]:
    result = runner.invoke(app, args, input=keys)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, " ".join(result.output.split())


@pytest.mark.parametrize("lang", ["fi", "de"])
@pytest.mark.parametrize(("game", "players", "seed", "keys"), GAMES)
def test_a_whole_game_in_finnish_and_german(
    lang: str, game: str, players: str, seed: str, keys: str
) -> None:
    args = ["play", game, "--players", players, "--seed", seed, "--no-record", "--no-auto"]
    code, text = _play([*args, "--lang", lang], "help\n" + keys)
    assert code == 0, text[-2000:]
    for phrase in EXPECTED[lang][game]:
        assert phrase in text, phrase
    for phrase in ENGLISH:
        assert phrase not in text, phrase


ALLOWED = {"Mattis", "Myllymatti", "Mückenstich", "MYLLYMATTI", "random", "take", "stock"}
ALLOWED |= {"pass", "slough", "discard", "trump", "double", "drop"}
"""Words that stay as they are in every language: game names, bot specs, move texts."""


@pytest.mark.parametrize(("game", "players", "seed", "keys"), GAMES)
def test_no_text_escapes_translation(game: str, players: str, seed: str, keys: str) -> None:
    """In the pseudo-locale every text is ⟦marked⟧: what is left once the marked parts
    are gone is cards, numbers, move texts and names."""
    args = ["--lang", "pseudo", "play", game, "--players", players, "--seed", seed]
    code, text = _play([*args, "--no-record", "--no-auto"], "help\nlog\npile\n" + keys)
    assert code == 0, text[-2000:]
    assert "⟦" in text
    inner = re.compile(r"⟦[^⟦⟧]*⟧")
    left = ""
    while left != text:
        left, text = text, inner.sub("", text)
    words = Counter(re.findall(r"[A-Za-zÄÖÜäöüß]{3,}", text)) - Counter(
        dict.fromkeys(ALLOWED, 10**6)
    )
    assert not words, words.most_common(10)


def test_every_text_asked_for_is_in_the_catalogs() -> None:
    """A text given to ``_()`` that the catalog extraction does not see (built at run
    time, or hidden in an f-string) would stay English: every text the pseudo-locale was
    asked for while the games above were played is in the Finnish and German catalogs."""
    babel = pytest.importorskip("babel", reason="Babel comes with the test extra")
    assert babel
    from babel.messages.pofile import read_po

    from tikki import i18n
    from tools import catalogs

    pseudo = i18n.translator("pseudo")
    assert isinstance(pseudo, i18n.Pseudo)
    pseudo.asked.clear()  # only this game's texts (a plug-in's asked earlier are its own)
    code, _text = _play(
        ["--lang", "pseudo", "play", "mattis", "--seed", "2", "--no-auto"],
        "help\nlog\nzz\n" + "1\n" * 1500,
    )
    assert code == 0
    asked = set(pseudo.asked)
    assert len(asked) > 50, asked  # the game asked for its texts
    for lang in ("fi", "de"):
        with catalogs.po_path(lang).open("rb") as src:
            catalog = read_po(src, locale=lang)
        known = {m.id if isinstance(m.id, str) else m.id[0] for m in catalog if m.id}
        known |= {m.id[1] for m in catalog if isinstance(m.id, tuple)}
        missing = sorted(asked - known)
        assert not missing, missing[:10]


def test_errors_of_the_command_line_are_translated() -> None:
    result = runner.invoke(app, ["--lang", "de", "play", "myllymatti", "--seat", "9"])
    assert result.exit_code == 2
    assert "Platz 9 gibt es nicht: die Plätze sind 0–2" in " ".join(result.output.split())
    result = runner.invoke(app, ["play", "myllymatti", "--lang", "fi", "-o", "take"])
    assert result.exit_code == 2 and "ei ole muotoa AVAIN=ARVO" in result.output


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("fi", "Ei sallittu: 9♠ ei ole kädessäsi. Sallitut siirrot: 2♠, 6♥, Q♠, stock"),
        ("de", "Nicht erlaubt: 9♠ ist nicht auf deiner Hand. Erlaubte Züge: 2♠, 6♥, Q♠, stock"),
        ("en", "Not legal: 9♠ is not in your hand. Legal moves: 2♠, 6♥, Q♠, stock"),
    ],
)
def test_an_illegal_move_is_explained_in_the_language(lang: str, expected: str) -> None:
    args = ["play", "myllymatti", "--players", "3", "--seed", "7", "--no-record", "--lang", lang]
    code, text = _play(args, "9s\nquit\n")
    assert code == 0 and expected in text, text


def test_an_unknown_language_says_which_there_are() -> None:
    result = runner.invoke(app, ["--lang", "sv", "games"])
    assert result.exit_code == 2
    assert "unknown language 'sv': choose en, fi, de" in " ".join(result.output.split())


def test_games_lists_options_in_the_language() -> None:
    code, text = _play(["games", "--lang", "de"], "")
    assert code == 0 and "Spieler (Standard 3)" in text and "Bedeutung" in text
    assert "MM-14" not in text and "C-5" not in text  # words, not ruling ids
    code, text = _play(["games", "--lang", "fi"], "")
    assert code == 0 and "pelaajaa (oletus 3)" in text and "kokonaisluku" in text


def test_replay_and_its_outcome_in_german(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    args = ["play", "myllymatti", "--players", "2", "--seed", "3", "--record", str(record)]
    code, _ = _play([*args, "--lang", "fi"], "1\n" * 300)
    assert code == 0 and json.loads(record.read_text())["game"] == "myllymatti"
    code, text = _play(["replay", str(record), "--lang", "de"], "")
    assert code == 0, text
    assert "Züge von Myllymatti geprüft: Spiel vorbei." in text
    assert "Ergebnis" in text and "Platz 1" in text


def test_arena_tables_in_finnish() -> None:
    args = ["arena", "myllymatti", "-p", "2", "--bots", "random", "-n", "4", "--lang", "fi"]
    code, text = _play(args, "")
    assert code == 0, text
    assert "myllymatti, 2 pelaajaa, 4 peliä, siemen 0" in text
    assert "Satunnaisbotin odotettu häviö-osuus on 50.0%." in text


def _spawn(args: list[str], cwd: Path, env: dict[str, str]) -> pexpect.spawn:
    base = {"TERM": "xterm", "COLUMNS": "110", "LINES": "50", "PATH": "/usr/bin:/bin"}
    return pexpect.spawn(
        sys.executable,
        ["-m", "tikki.cli", *args],
        cwd=str(cwd),
        env={**base, **env},
        encoding="utf-8",
        timeout=60,
        dimensions=(50, 110),
    )


@pytest.mark.parametrize(
    ("args", "env", "prompt", "end", "offer"),
    [
        (
            ["play", "myllymatti", "--lang", "fi"],
            {"LANG": "de_DE.UTF-8"},
            "Siirtosi:",
            "Peli päättyi",
            r"Analysoidaanko siirtosi nyt\? .* \(k/E\)",
        ),
        (
            ["play", "myllymatti"],
            {"LANG": "de_DE.UTF-8"},
            "Dein Zug:",
            "Spiel vorbei",
            r"Deine Züge jetzt analysieren\? .* \(j/N\)",
        ),
    ],
)
def test_a_terminal_game_to_the_end(
    tmp_path: Path, args: list[str], env: dict[str, str], prompt: str, end: str, offer: str
) -> None:
    """A whole game in a real terminal: ``--lang`` wins over the environment's language;
    at the end the analysis is offered in it (declined here)."""
    child = _spawn([*args, "--players", "2", "--seed", "5", "--no-record"], tmp_path, env)
    seen = ""
    offered = 0
    for _turn in range(400):
        index = child.expect([prompt, offer, pexpect.EOF])
        seen += ANSI.sub("", child.before or "")
        if index == 2:
            break
        offered += index == 1
        child.sendline("e" if index == 1 else "1")
    child.close()
    text = " ".join(seen.split())
    assert child.exitstatus == 0, text[-2000:]
    assert end in text and offered == 1


def test_help_of_the_command_line_is_translated(tmp_path: Path) -> None:
    child = _spawn(["--lang", "de", "play", "--help"], tmp_path, {})
    child.expect(pexpect.EOF)
    text = " ".join(ANSI.sub("", child.before or "").split())
    assert "Ein Spiel im Terminal gegen Bots spielen." in text
    assert "Anzahl der Spieler" in text and "Optionen" in text
    assert "Diese Hilfe zeigen und beenden." in text
    child = _spawn(["--help"], tmp_path, {"LC_ALL": "fi_FI.UTF-8"})
    child.expect(pexpect.EOF)
    text = " ".join(ANSI.sub("", child.before or "").split())
    assert "Pelaa peliä päätteessä botteja vastaan." in text


@pytest.mark.parametrize(
    ("lang", "worst", "summary"),
    [
        ("fi", "siirto 100: take (törkeä virhe); A♠ olisi ollut 100% ±0% parempi", "Tarkkuus "),
        ("de", "Zug 100: take (grober Fehler); A♠ wäre um 100% ±0% besser gewesen", "Genauigkeit "),
    ],
)
def test_the_analysis_speaks_the_language(
    tmp_path: Path, lang: str, worst: str, summary: str
) -> None:
    """``tikki analyse``: the table's title and columns, the verdicts and the summary are
    translated; the moves and the JSON's labels are not."""
    from tests.test_analysis import endgame

    record, out = tmp_path / "endgame.json", tmp_path / "analysis.json"
    record.write_text(json.dumps(endgame("take")))
    args = ["analyse", str(record), "--iterations", "50", "--from", "80", "--json", str(out)]
    result = runner.invoke(
        app, ["--lang", lang, *args] if lang == "fi" else [*args, "--lang", lang]
    )
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert worst in text and summary in text, text
    assert "blunder" not in text and "Accuracy" not in text
    assert json.loads(out.read_text())["decisions"][-1]["label"] == "blunder"


def test_pseudo_marks_every_line_of_the_analysis(tmp_path: Path) -> None:
    from tests.test_analysis import endgame

    record = tmp_path / "endgame.json"
    record.write_text(json.dumps(endgame("take")))
    args = ["--lang", "pseudo", "analyse", str(record), "--iterations", "50", "--from", "80"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    for marked in (
        "⟦Myllymatti, seat 0: chance of not losing⟧",
        "⟦move⟧ ⟦phase⟧ ⟦played⟧",
        "⟦loss⟧",
        "⟦Accuracy ",
        "⟦1 blunder⟧",
        "⟦move 100: take (⟦blunder⟧); A♠ was better by 100% ±0%⟧",
    ):
        assert marked in text, (marked, text)
