"""No game is named outside its own places: the shared code reads what a game
declares (:class:`tikki.core.Game`) instead of testing its name, so that a plug-in game
needs no edit elsewhere.

The words come from the registry: each game's name, its title (also with ``ü`` written
``ue``) and the variants only it has (Myllymatti's ``koira``).  A game's own places are
its rules module(s) ``tikki/games/<game>.py`` / ``<game>_*.py`` / ``<game>/``, its rules
texts, its heuristic ``tikki/bots/heuristic/<game>.py``, its terminal renderer
``tikki/tui/<game>.py``, its web renderer ``tikki/web/static/render/<game>.js`` and the
translation catalogs (which are not scanned: only ``.py``, ``.js``, ``.html`` and ``.css``
are).  Even a game's own places name no *other* game.
"""

from __future__ import annotations

import re
import subprocess
import unicodedata
from pathlib import Path

import pytest

from tikki import core

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "tikki"
SCANNED = (".py", ".js", ".html", ".css")

ALLOWED: dict[str, tuple[str, ...]] = {
    # Measurements name the game they were made in (saying "a game" would overclaim).
    "tikki/bots/expert.py": ("the median myllymatti move",),
    "tikki/interop/spiel.py": ("second in myllymatti",),
    "tikki/server/run.py": ("(200 mattis",),
    "tikki/web/index.html": ("over 300 myllymatti games",),
    # The colour deck's functions keep their public names (tests and plug-ins import them
    # from tikki.cards); the module's words about them do not name the game.
    "tikki/cards.py": ("mueckenstich_deck", "normalize_mueckenstich", "mueckenstich_word"),
    # A command's help ends with a real command line to copy (the help goldens and the
    # catalogs hold them); the arguments' help comes from the registry.
    **{
        f"tikki/cli/{command}.py": (
            "example: [bold]tikki",
            "examples: [bold]tikki",
            "example: tikki",
        )
        for command in ("play", "replay", "analyse", "rules", "arena", "train", "puzzles")
    },
}
"""Lines outside every game's own places that may still name a game, by file: each line
must contain one of the (lower-case) phrases.  Keep this short: each entry needs a reason
a reviewer accepts, in a comment above it."""


def _fold(text: str) -> str:
    """``Mückenstich`` → ``Mueckenstich`` (the German spelling without umlauts)."""
    return text.replace("ü", "ue").replace("ö", "oe").replace("ä", "ae").replace("Ü", "Ue")


def game_words() -> dict[str, set[str]]:
    """Each registered game's words: name, title, title without umlauts, own variants."""
    registry = core.registered()
    variant_owners: dict[str, set[str]] = {}
    for name, cls in registry.items():
        for variant in cls.variants:
            variant_owners.setdefault(variant, set()).add(name)
    words: dict[str, set[str]] = {}
    for name, cls in registry.items():
        own = {name, cls.title, _fold(cls.title), cls.__name__}
        own |= {v for v in cls.variants if variant_owners[v] == {name}}
        plain = {unicodedata.normalize("NFC", w).lower() for w in own if len(w) >= 4}
        words[name] = plain
    return words


def _named(word: str, text: str) -> bool:
    """Whether ``word`` starts a word of ``text`` (``MattisView`` names Mattis; a state class
    ``MyllymattiState`` does not name it)."""
    return re.search(rf"(?<![^\W\d_]){re.escape(word)}", text) is not None


def own_place(path: str, game: str) -> bool:
    """Whether ``path`` (relative to the repository) is one of ``game``'s own places."""
    patterns = (
        rf"tikki/games/{game}(_\w+)?\.py",
        rf"tikki/games/{game}/.*",
        rf"tikki/rules/{game}\.\w+\.md",
        rf"tikki/bots/heuristic/{game}\.py",
        rf"tikki/tui/{game}\.py",
        rf"tikki/web/static/render/{game}\.js",
        # its optional observation encoder for learning, found through its declaration
        # (Game.interop) as its renderer is: the same kind of optional view
        rf"tikki/interop/encoders/{game}(_\w+)?\.py",  # and its compiled lists (_rows)
    )
    return any(re.fullmatch(p, path) for p in patterns)


def _files() -> list[Path]:
    """The repository's files under ``tikki/`` (git's list where there is one: another
    engineer's uncommitted files are not the repository's), else every file there."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "-z", "tikki"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
            timeout=60,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return sorted(PACKAGE.rglob("*"))
    return sorted(ROOT / name for name in listed.split("\0") if name)


def occurrences() -> list[str]:
    """``path:line: text`` for every game word outside the game's own places."""
    words = game_words()
    found: list[str] = []
    for file in _files():
        if file.suffix not in SCANNED or not file.is_file() or "__pycache__" in file.parts:
            continue
        path = file.relative_to(ROOT).as_posix()
        lines = file.read_text(encoding="utf-8").splitlines()
        for number, line in enumerate(lines, 1):
            low = unicodedata.normalize("NFC", line).lower()
            if any(phrase in low for phrase in ALLOWED.get(path, ())):
                continue
            for game, own in words.items():
                if not own_place(path, game) and any(_named(w, low) for w in own):
                    found.append(f"{path}:{number}: {line.strip()[:120]}")
                    break
    return found


def test_words_come_from_the_registry() -> None:
    """The check knows every registered game, spelled both ways, and its own variants."""
    words = game_words()
    assert {"myllymatti", "mattis", "mueckenstich"} <= set(words)
    assert {"mückenstich", "mueckenstich"} <= words["mueckenstich"]
    assert "koira" in words["myllymatti"]
    assert "mini" not in words["myllymatti"]  # shared by two games: not a game's name


@pytest.mark.parametrize(
    ("path", "game", "own"),
    [
        ("tikki/games/mattis.py", "mattis", True),
        ("tikki/games/mattis_sampler.py", "mattis", True),
        ("tikki/tui/mueckenstich.py", "mueckenstich", True),
        ("tikki/web/static/render/myllymatti.js", "myllymatti", True),
        ("tikki/games/mattis.py", "myllymatti", False),
        ("tikki/views.py", "mattis", False),
        ("tikki/web/static/table.js", "myllymatti", False),
    ],
)
def test_own_places(path: str, game: str, own: bool) -> None:
    """A game's files are its own; another game's files and shared files are not."""
    assert own_place(path, game) is own


def test_no_game_named_outside_its_own_places() -> None:
    """Shared code, docstrings and comments included, names no game."""
    found = occurrences()
    assert not found, f"{len(found)} lines name a game outside its own places:\n" + "\n".join(found)
