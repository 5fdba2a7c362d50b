"""``tikki ratings``: the bot levels' anchored ratings."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich import box
from rich.console import Console
from rich.table import Table

from tikki.cli.shared import (
    ALL_GAMES_HELP,
    game_name,
)
from tikki.commandline import fail
from tikki.i18n import _

BOT_RATINGS = Path(__file__).resolve().parent.parent / "server" / "bot_ratings.json"
"""The bot levels' anchored ratings (written by ``benchmarks/anchors.py``)."""


def ratings_command(
    game: Annotated[str | None, typer.Argument(help=ALL_GAMES_HELP)] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the ratings as JSON")] = False,
) -> None:
    """The bot levels' anchored ratings: the fixed points of the web table's rating scale
    (OpenSkill from arena runs of the levels against each other)."""
    try:
        data = json.loads(BOT_RATINGS.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        raise fail(
            _("no bot ratings at {path}: run benchmarks/anchors.py", path=BOT_RATINGS)
        ) from None
    found: dict[str, dict[str, Any]] = data.get("ratings", {})
    if game is not None:
        name = game_name(game)
        if name not in found:
            raise fail(_("no bot ratings for {game} yet", game=name))
        found = {name: found[name]}
    if as_json:
        typer.echo(json.dumps(found, indent=1))
        return
    table = Table(box=box.SIMPLE)
    for head in (_("game"), _("level"), _("bot"), _("rating"), "mu", "sigma"):
        table.add_column(head)
    for name, levels in found.items():
        ordered = sorted(levels.items(), key=lambda kv: -(kv[1]["mu"] - 3 * kv[1]["sigma"]))
        for spec, r in ordered:
            rating, level = r["mu"] - 3 * r["sigma"], str(r["label"])
            table.add_row(
                name, _(level), spec, f"{rating:.1f}", f"{r['mu']:.1f}", f"{r['sigma']:.1f}"
            )
    Console().print(table)
    typer.echo(
        _(
            "rating = mu - 3 sigma; {games} games per pairing (seed {seed}); a person's "
            "rating at the web table is on the same scale",
            games=data.get("games", "?"),
            seed=data.get("seed", "?"),
        )
    )
    for level, run in sorted(data.get("added", {}).items()):
        typer.echo(_added(level, run))


def _added(level: str, run: dict[str, Any]) -> str:
    """How a level added later (``anchors.py --add``) was rated, in words."""
    against = run.get("against", "all")
    if against == "all":
        return _(
            "{level} was added later, rated against the others kept as they were: "
            "{games} games per pairing (seed {seed})",
            level=_(level),
            games=run.get("games", "?"),
            seed=run.get("seed", "?"),
        )
    return _(
        "{level} was added later, rated against {against} only, the anchors kept as they were: "
        "{games} games per pairing (seed {seed})",
        level=_(level),
        against=", ".join(_(a) for a in against),
        games=run.get("games", "?"),
        seed=run.get("seed", "?"),
    )
