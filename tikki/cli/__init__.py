"""The ``tikki`` command: play, replay, analyse, rules, games, arena, dataset, serve, ratings,
train, db, cluster, puzzles.

Every command reports bad input (an unknown game, option, bot or a broken record) with a
clear message and exit status 2 (usage) or 1 (bad record), never a traceback.

One module per command (:mod:`tikki.cli.play`, :mod:`tikki.cli.replay`, …), what they
share in :mod:`tikki.cli.shared`, and the console script (translated help, one-line usage
errors) in :mod:`tikki.cli.entry`. The commands are registered here, in the order the help
lists them.
"""

from __future__ import annotations

from tikki.cli import (
    analyse,
    arena,
    cluster,
    dataset,
    db,
    games,
    play,
    puzzles,
    ratings,
    replay,
    rules,
    serve,
    train,
)
from tikki.cli.entry import bare_options, main
from tikki.cli.shared import app, choose_language, parse_options

app.callback()(choose_language)
app.command("play")(play.play)
app.command("replay")(replay.replay_command)
app.command("analyse")(analyse.analyse_command)
app.command("rules")(rules.rules_command)
app.command("games")(games.games_command)
app.command("arena")(arena.arena_command)
app.command("dataset")(dataset.dataset_command)
app.command("serve")(serve.serve_command)
app.command("ratings")(ratings.ratings_command)
app.command("train")(train.train_command)
app.add_typer(db.app, name="db")
app.add_typer(cluster.app, name="cluster")
app.add_typer(puzzles.app, name="puzzles")

__all__ = ["app", "bare_options", "main", "parse_options"]
