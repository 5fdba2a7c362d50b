"""What every ``tikki`` command shares: the typer app, the consoles, ``error:`` lines,
the ``--lang`` option, game and option parsing, and writing output files.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from tikki import i18n
from tikki.commandline import COMPOSED, Gettext, console, errors, fail
from tikki.core import Game, RulesError, game_class, load, lobby_order, memory_aid_titles
from tikki.i18n import N_, _
from tikki.tui import outputs


def _listed(words: list[str], last: str) -> str:
    """``a, b or c`` (``last`` the joining word), in English: the help is translated whole."""
    return f"{', '.join(words[:-1])} {last} {words[-1]}" if len(words) > 1 else "".join(words)


def _games_help(gettext: Gettext) -> str:
    return _listed(lobby_order(), gettext(N_("or")))


def _all_games_help(gettext: Gettext) -> str:
    return gettext(N_("{games} (default: all)")).format(games=_games_help(gettext))


GAMES_HELP = _games_help(str)
"""The games' names for a GAME argument's help, from the registry (``a, b or c``)."""
ALL_GAMES_HELP = _all_games_help(str)
"""A GAME argument's help where leaving it out means every game."""
COMPOSED[GAMES_HELP] = _games_help
COMPOSED[ALL_GAMES_HELP] = _all_games_help
VARIANT_HELP = "a preset, e.g. " + next(
    (v for n in lobby_order() for v in game_class(n).variants), "standard"
)
"""The --variant help, with the first game's first preset as the example."""


def _memory_aids_help(gettext: Gettext) -> str:
    return gettext(
        N_("{games}: show won tricks, the last trick and mosquito counts during a round")
    ).format(games=memory_aid_titles())


def _app_help(gettext: Gettext) -> str:
    titles = [game_class(n).title for n in lobby_order()]
    return gettext(N_("{games}, played exactly by their rules.")).format(
        games=_listed(titles, gettext(N_("and")))
    )


MEMORY_AIDS_HELP = _memory_aids_help(str)
"""The --memory-aids help: the games whose tables offer it (:attr:`Game.memory_aids`)."""
APP_HELP = _app_help(str)
"""What tikki is, in one line: the registered games' titles."""
COMPOSED[MEMORY_AIDS_HELP] = _memory_aids_help
COMPOSED[APP_HELP] = _app_help

app = typer.Typer(
    name="tikki",
    help=APP_HELP,
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode="rich",
)
LANG_HELP = "language: en, fi or de (default: LC_ALL, LC_MESSAGES or LANG; else English)"
LangOption = Annotated[str | None, typer.Option("--lang", help=LANG_HELP, show_default=False)]
"""The ``--lang`` option, taken by ``tikki`` itself and by each command."""

PlayersOption = Annotated[int | None, typer.Option("--players", "-p", help="number of players")]
"""``--players``: the number of players (default: the game's or the variant's)."""
JobsOption = Annotated[int, typer.Option("--jobs", "-j", help="worker processes")]
"""``--jobs``: worker processes."""
ArenaSeedOption = Annotated[int, typer.Option("--seed", help="arena seed (deals and bot seeds)")]
"""``--seed`` of a run of bot games (its deals and its bots' seeds)."""
GameOptionsOption = Annotated[
    list[str], typer.Option("--option", "-o", help="game option KEY=VALUE (repeatable)")
]
"""``--option KEY=VALUE``: the game's options (repeatable)."""


def set_language(lang: str | None) -> str:
    """Speak ``--lang`` (checked: a clear error for an unknown one), else the environment's
    language, for the rest of the command; return it."""
    if lang is not None:
        i18n.activate(i18n.resolve(None))  # an unknown --lang is refused in this one
    try:
        chosen = i18n.resolve(lang)  # the one choice of language (tikki.i18n)
    except ValueError as err:
        raise fail(str(err)) from None
    i18n.activate(chosen)
    return chosen


def use_lang(lang: str | None) -> None:
    """A command's own ``--lang`` (it overrides ``tikki --lang``)."""
    if lang is not None:
        set_language(lang)


def choose_language(lang: LangOption = None) -> None:
    """The games, played exactly by their rules (the app's help, :data:`APP_HELP`)."""
    set_language(lang)


choose_language.__doc__ = APP_HELP  # the callback's docstring is the app's help too


def parse_options(pairs: list[str]) -> dict[str, str]:
    """``["take=all", "runs=true"]`` → ``{"take": "all", "runs": "true"}``."""
    out: dict[str, str] = {}
    for pair in pairs:
        key, eq, value = pair.partition("=")
        if not eq or not key.strip():
            raise RulesError(
                _("option {pair!r} is not KEY=VALUE (for example take=all)", pair=pair)
            )
        out[key.strip()] = value.strip()
    return out


def game_name(text: str) -> str:
    """A game name as typed (its title with umlauts, or in capitals) → its registered name."""
    name = text.strip().casefold()
    for umlaut, letters in (("ü", "ue"), ("ö", "oe"), ("ä", "ae")):
        name = name.replace(umlaut, letters)
    return name


def make_game(name: str, players: int | None, variant: str | None, option: list[str]) -> Game:
    """The game a command line asks for: its name, player count, preset and options."""
    options: dict[str, Any] = parse_options(option)
    if variant is not None:
        options["variant"] = variant
    return load(game_name(name), players=players, **options)


def complain(message: str) -> None:
    """Print one ``error:`` line on standard error (the command goes on)."""
    label = _("error:")
    errors.print(f"[bold red]{escape(label)}[/] {escape(message)}", soft_wrap=True)


def write_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` as UTF-8."""
    with path.open("w", encoding="utf-8") as file:
        file.write(text)


def write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path``."""
    with path.open("wb") as file:
        file.write(data)


def render_chart(output: outputs.Output, draw: Any) -> bytes:
    """A chart drawn by ``draw(path)`` into a temporary file of ``output``'s format, as
    bytes (matplotlib does not report every failed write; :func:`write_bytes` does)."""
    suffix = output.path.suffix.lower()
    suffix = suffix if suffix in outputs.SUFFIXES["plot"] else ".png"
    with tempfile.TemporaryDirectory(prefix="tikki-plot-") as folder:
        path = Path(folder) / f"chart{suffix}"
        draw(path)
        return path.read_bytes()


def write_output(output: outputs.Output, done: str, write: Any) -> bool:
    """Write ``output`` (a spare file if that fails) and say where it went."""
    written: list[Path] = []

    def tracked(path: Path) -> None:
        write(path)
        written.append(path)

    ok = outputs.save(output, tracked, complain)
    if written:
        console.print(done.format(file=written[-1]), markup=False, soft_wrap=True)
    return ok


def progress_bar() -> Progress:
    """The progress bars of a long run (``arena``, ``dataset``): what, how far, the time
    taken and the time left, on the command's console."""
    columns = (
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn(_("ETA")),
        TimeRemainingColumn(),
    )
    return Progress(*columns, console=console)
