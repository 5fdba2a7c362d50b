"""``tikki games``: the games, their player counts, variants and options."""

from __future__ import annotations

from typing import Any

from rich.table import Table
from rich.text import Text

from tikki import i18n
from tikki.cli.shared import (
    LangOption,
    use_lang,
)
from tikki.commandline import console
from tikki.core import games, localized_games
from tikki.core import split_rulings as core_split_rulings
from tikki.i18n import _, ngettext
from tikki.tui import common

_TYPE_WORDS = {
    "int": i18n.N_("a whole number"),
    "bool": i18n.N_("true or false"),
    "str": i18n.N_("text"),
}


def games_command(lang: LangOption = None) -> None:
    """List the games, their player counts, variants and options.

    Example: [bold]tikki games[/]
    """
    use_lang(lang)
    for name, info in localized_games(games()).items():
        p = info["players"]
        if p["min"] == p["max"]:
            span = ngettext("{n} player", "{n} players", p["min"])
        else:
            span = _(
                "{min}–{max} players (default {default})",
                min=p["min"],
                max=p["max"],
                default=p["default"],
            )
        title = f"{name} — {info['title']}, {span}"
        if not info["options"]:
            console.print(Text(title, style="italic"))
            console.print(_("No options: every table plays the same rules."))
        else:
            console.print(_options_table(title, info["options"]))
        variants = [f"{k} ({common.value_text(v)})" for k, v in info["variants"].items() if v]
        if variants:
            console.print(_("variants: {variants}", variants="; ".join(variants)), markup=False)
        console.print()


def _options_table(title: str, options: list[dict[str, Any]]) -> Table:
    """A game's options: name, default, values and meaning (in words, no ruling ids)."""
    table = Table(title=title, title_justify="left")
    table.add_column(_("Option"), no_wrap=True)
    table.add_column(_("Default"), no_wrap=True)
    table.add_column(_("Values"))
    table.add_column(_("Meaning"))
    for spec in options:
        values = common.value_text(spec.get("choices", [])) or _(
            _TYPE_WORDS.get(spec["type"], spec["type"])
        )
        meaning = spec.get("text") or core_split_rulings(spec["help"])[0]
        meaning = meaning.replace("( ", "(")  # an id taken out at the start: "(MM-1 deals 3)"
        table.add_row(spec["name"], common.value_text(spec["default"]), values, meaning)
    return table
