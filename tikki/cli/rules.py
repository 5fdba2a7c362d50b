"""``tikki rules``: a game's rules in English, Finnish or German."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.markdown import Markdown

from tikki import i18n, rules
from tikki.cli.shared import (
    game_name,
    use_lang,
)
from tikki.commandline import console, fail
from tikki.core import game_class


def rules_command(
    game: Annotated[str, typer.Argument(help="the game")],
    lang: Annotated[
        str | None,
        typer.Option("--lang", help="en, fi or de (default: LC_ALL, LC_MESSAGES or LANG, else en)"),
    ] = None,
) -> None:
    """Print the rules of a game, in English, Finnish or German.

    Example: [bold]tikki rules myllymatti --lang fi[/]
    """
    use_lang(lang)  # tikki --lang (already spoken) or this command's own --lang
    try:
        name = game_class(game_name(game)).name
        text = rules.rules_text(name, i18n.current())
    except ValueError as err:  # an unknown game (RulesError) or --lang
        raise fail(str(err)) from None
    console.print(Markdown(text))
