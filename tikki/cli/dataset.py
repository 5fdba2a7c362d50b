"""``tikki dataset``: records, an arena's games or new bot games as a ``.npz`` (or Parquet)
of decisions.

A thin front to :mod:`tikki.interop.dataset` (the columns, rewards and determinism are
described there and in ``docs/research.md``): every input and the output file are checked
before any game is played or encoded, and long runs show a progress bar.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from tikki import arena, extras, i18n
from tikki import bots as botlib
from tikki.cli.shared import (
    ArenaSeedOption,
    GameOptionsOption,
    JobsOption,
    LangOption,
    PlayersOption,
    complain,
    make_game,
    progress_bar,
    use_lang,
)
from tikki.commandline import console, fail
from tikki.core import RulesError
from tikki.i18n import _
from tikki.tui import outputs

REWARDS = ("game", "round")
"""The reward modes of :func:`tikki.interop.dataset.from_records`."""
FORMATS = ("npz", "parquet")
"""The files ``--format`` writes (:data:`tikki.interop.dataset.FORMATS`)."""


def dataset_command(
    out: Annotated[
        Path, typer.Option("--out", help="the file to write: .npz, or .parquet with --format")
    ],
    game: Annotated[
        str | None,
        typer.Argument(help="the game the bots play (with --bots; tikki games lists them)"),
    ] = None,
    bots: Annotated[
        str | None,
        typer.Option("--bots", help="play new games: lineup, one spec per seat, the last repeated"),
    ] = None,
    bot: Annotated[
        list[str], typer.Option("--bot", help="one spec per seat (repeatable), as --bots")
    ] = [],  # noqa: B006
    players: PlayersOption = None,
    games_count: Annotated[int, typer.Option("--games", "-n", help="games the bots play")] = 100,
    seed: ArenaSeedOption = 0,
    jobs: JobsOption = 1,
    variant: Annotated[
        str | None, typer.Option("--variant", help="a preset (tikki games lists them)")
    ] = None,
    option: GameOptionsOption = [],  # noqa: B006
    records: Annotated[
        list[Path], typer.Option("--records", help="a record file (JSON; repeatable)")
    ] = [],  # noqa: B006
    db: Annotated[
        Path | None, typer.Option("--db", help="an arena database: all its stored games")
    ] = None,
    reward: Annotated[
        str, typer.Option("--reward", help="game: the return at the end; round: each round's")
    ] = "game",
    fmt: Annotated[
        str, typer.Option("--format", help="npz, or parquet (Parquet needs pyarrow)")
    ] = "npz",
    lang: LangOption = None,
) -> None:
    """Write a dataset of decisions (.npz): observations, legal-move masks, moves, rewards.

    The games are new bot games (--bots) or stored ones (--records, --db), all of one game
    and one set of options. The same inputs give the same file, byte for byte.

    Examples: [bold]tikki dataset GAME -p 3 --bots heuristic,random -n 30 --out games.npz[/],
    [bold]tikki dataset --db results.sqlite --reward round --out games.npz[/]
    """
    use_lang(lang)
    lineup = bot or [s for s in (bots or "").split(",") if s.strip()]
    try:
        extras.require("gym", "tikki dataset", ("numpy",))
        target = _checked_out(out, fmt)
        if reward not in REWARDS:
            raise RulesError(_("--reward is game or round, not {reward!r}", reward=reward))
        if lineup:
            options = _bot_options(game, players, variant, option, lineup, games_count, jobs)
        else:
            _check_stored(game, records, db)
    except (RulesError, outputs.OutputError, extras.MissingExtra) as err:
        raise fail(str(err)) from None
    if lineup:
        data = _from_bots(options, lineup, games_count, seed, jobs, reward)
    else:
        data = _from_stored(records, db, reward)
    _save(target, data)


def _checked_out(out: Path, fmt: str) -> outputs.Output:
    """``--out`` and ``--format``, checked before the work starts: an ``.npz`` (or, with
    pyarrow installed, ``.parquet``) file in a folder that exists."""
    if fmt not in FORMATS:
        raise RulesError(_("--format is npz or parquet, not {value!r}", value=fmt))
    if fmt == "parquet":
        extras.require("parquet", "tikki dataset --format parquet", ("pyarrow",))
    return outputs.check("--out", out, fmt)


def _bot_options(
    game: str | None,
    players: int | None,
    variant: str | None,
    option: list[str],
    lineup: list[str],
    games_count: int,
    jobs: int,
) -> dict[str, Any]:
    """Check a run of new bot games before it starts; the game's ``tikki.load`` arguments."""
    if game is None:
        raise RulesError(_("--bots plays new games: name the game first (tikki games lists them)"))
    g = make_game(game, players, variant, option)
    for spec in set(arena.lineup_for(g.players, lineup)):
        botlib.make(spec, seed=0)  # unknown bots and parameters, before any game
    if games_count < 1 or jobs < 1:
        raise RulesError(_("--games and --jobs must be at least 1"))
    return {"game": g.name, "players": g.players, **g.options}


def _check_stored(game: str | None, records: list[Path], db: Path | None) -> None:
    """Check the stored games to encode: the files exist and can be read."""
    if not records and db is None:
        raise RulesError(
            _("nothing to write: give --bots (new games), --records FILE or --db FILE")
        )
    if game is not None:
        raise RulesError(
            _("{game}: a game name goes with --bots; stored games name their own", game=game)
        )
    for path in records:
        outputs.check_input("--records", path, "json")
    if db is not None:
        outputs.check_input("--db", db)


def _from_bots(
    options: dict[str, Any], lineup: list[str], games_count: int, seed: int, jobs: int, reward: str
) -> dict[str, Any]:
    """New games between ``lineup``, played and encoded under progress bars."""
    from tikki.interop import dataset

    game, players = options.pop("game"), options.pop("players")
    with progress_bar() as progress:
        played = progress.add_task(_("playing {game}", game=game), total=games_count)
        encoded = progress.add_task(_("encoding"), total=games_count)
        try:
            return dataset.from_bots(
                game, players, lineup, games_count, seed, jobs, reward,
                on_game=lambda: progress.advance(played),
                on_episode=lambda: progress.advance(encoded),
                **options,
            )  # fmt: skip
        except RulesError as err:
            raise fail(str(err), 1) from None


def _from_stored(records: list[Path], db: Path | None, reward: str) -> dict[str, Any]:
    """The stored games of ``records`` and ``db``, encoded under a progress bar."""
    from tikki.interop import dataset

    try:
        found, sources, seats = dataset.read_games(records, db)
        with progress_bar() as progress:
            encoded = progress.add_task(_("encoding"), total=len(found))
            return dataset.from_records(
                found,
                reward,
                sources=sources,
                on_episode=lambda: progress.advance(encoded),
                seats=seats,
            )
    except RulesError as err:
        raise fail(str(err), 1) from None


def _save(target: outputs.Output, data: dict[str, Any]) -> None:
    """Write the dataset (a spare file if that fails) and say what it holds."""
    from tikki.interop import dataset

    written: list[Path] = []

    def write(path: Path) -> None:
        written.append(dataset.save(path, data))

    ok = outputs.save(target, write, complain)
    if written:
        done = i18n.ngettext(
            "Dataset written to {file}: {rows} decisions of {n} game",
            "Dataset written to {file}: {rows} decisions of {n} games",
            len(data["returns"]),
            file=written[-1],
            rows=len(data["action"]),
        )
        console.print(
            done,
            markup=False,
            soft_wrap=True,
        )
    if not ok:
        raise typer.Exit(1)
