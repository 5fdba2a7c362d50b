"""Datasets of decisions for offline learning: records, or games bots play, as ``.npz``
(``pip install 'tikki[gym]'`` for NumPy).

::

    from tikki.interop import dataset          # also tikki.rl.dataset

    data = dataset.from_bots(name, 3, ["heuristic", "random"], games=30, seed=1)
    dataset.save("games.npz", data)            # the same inputs give the same bytes
    data = dataset.load("games.npz")
    data["observation"].shape                  # (decisions, observation size)

Or from the shell: ``python -m tikki.interop.dataset GAME -p 3 --bots heuristic,random
-n 30 --seed 1 -o games.npz``, or ``--records a.json b.json`` / ``--db arena.sqlite``.

One row per decision (a move of a seat), in game order, games in the order given:

* ``observation`` ``float32 (rows, size)``: the acting seat's observation before its move
  (:func:`tikki.interop.observations.encoder_for`, ``docs/observations.md``), nothing a
  seat may not know;
* ``action_mask`` ``int8 (rows, A)``: its legal actions; ``action`` ``int64``: the move
  taken (the fixed ids of :mod:`tikki.interop.encoding`, the table in
  ``docs/observations.md``);
* ``reward`` ``float32``: as ``tikki.rl`` pays it to that seat (``reward="game"``: its
  return on its last decision, 0 before; ``"round"``: the change of its running total
  until its next decision; an abandoned game, C-5, pays ``abandoned_reward``, default 0);
* ``terminated``, ``truncated`` ``bool``: the seat's last decision of a game that ended,
  or reached its move cap;
* ``episode``, ``step``, ``seat`` ``int64``: the game's index, the move's index in it, the
  acting seat; ``next_index`` ``int64``: the row of the same seat's next decision in the
  same game (its next observation), −1 after its last;
* ``returns`` ``float32 (episodes, players)``: each game's ``outcome["returns"]``;
* ``meta``: JSON text: game, players, options, reward mode, the action texts, the
  observation's feature slices, and where each episode came from.

Records are replayed and verified (``tikki.replay``) before they are encoded; bot games
come from the arena (:func:`tikki.arena.play_game`), so a seed gives the same games
whatever ``jobs`` is.  The ``.npz`` is written with fixed timestamps: the same games give
the same file, byte for byte.
"""

# ruff: noqa: E402  (the extra is checked before its imports)
from __future__ import annotations

from tikki.extras import require

require("gym", "the dataset writer (NumPy)", ("numpy",))

import io
import json
import os
import sqlite3
import sys
import zipfile
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

import numpy as np
import numpy.typing as npt
import typer

import tikki
from tikki import arena
from tikki.commandline import fail, run
from tikki.core import RulesError
from tikki.interop.observations import encoder_for

COLUMNS = (
    "observation",
    "action_mask",
    "action",
    "reward",
    "terminated",
    "truncated",
    "episode",
    "step",
    "seat",
    "next_index",
    "returns",
)
"""The arrays of a dataset (besides ``meta``)."""

_EPOCH = (1980, 1, 1, 0, 0, 0)


@dataclass
class _Rows:
    """The columns being collected, one list per column."""

    obs: list[npt.NDArray[np.float32]] = field(default_factory=list)
    mask: list[npt.NDArray[np.int8]] = field(default_factory=list)
    cols: dict[str, list[Any]] = field(default_factory=dict)

    def add(self, **values: Any) -> None:
        for key, value in values.items():
            self.cols.setdefault(key, []).append(value)


def _episode(
    rows: _Rows,
    record: Mapping[str, Any],
    episode: int,
    mode: str,
    abandoned_reward: float,
) -> list[float]:
    """Encode one verified record's decisions into ``rows``; return its returns."""
    final = tikki.replay(record)  # verifies every move; a bad record fails clearly here
    game = final.game
    enc = encoder_for(game)
    state = game.new_state(seed=record["seed"], deck=record.get("deck"))
    start = len(rows.cols.get("action", []))
    last: dict[int, int] = {}
    banked: list[float] = []
    for step, move in enumerate(record["moves"]):
        seat = state.current_player
        assert seat is not None
        row = start + step
        if seat in last:
            rows.cols["next_index"][last[seat]] = row
        last[seat] = row
        rows.obs.append(enc.encode(state, seat))
        rows.mask.append(enc.legal_mask(state, seat, np.zeros(len(enc.actions), np.int8)))
        banked.append(float(state.returns_so_far()[seat]) if mode == "round" else 0.0)
        rows.add(action=enc.actions.to_id(move), episode=episode, step=step, seat=seat)
        rows.add(next_index=-1, terminated=False, truncated=False, reward=0.0)
        state.play(move)
    outcome = final.outcome
    if outcome is None:
        raise RulesError(f"record {episode} is of an unfinished game: a dataset needs whole games")
    returns = [float(r) for r in outcome["returns"]]
    cut = bool(outcome.get("abandoned"))
    _rewards(rows, start, banked, returns, mode, cut, abandoned_reward)
    return returns


def _rewards(
    rows: _Rows,
    start: int,
    banked: list[float],
    returns: list[float],
    mode: str,
    cut: bool,
    abandoned_reward: float,
) -> None:
    """Fill the reward and end columns of one game's rows (``tikki.rl``'s rewards)."""
    cols = rows.cols
    for k, before in enumerate(banked):
        row = start + k
        nxt = cols["next_index"][row]
        seat = cols["seat"][row]
        if nxt >= 0:
            cols["reward"][row] = banked[nxt - start] - before if mode == "round" else 0.0
        elif cut:
            cols["reward"][row] = abandoned_reward
            cols["truncated"][row] = True
        else:
            cols["reward"][row] = returns[seat] - before if mode == "round" else returns[seat]
            cols["terminated"][row] = True


def from_records(
    records: Iterable[Mapping[str, Any]],
    reward: str = "game",
    abandoned_reward: float = 0.0,
    sources: Sequence[str] | None = None,
    on_episode: Callable[[], None] | None = None,
) -> dict[str, Any]:
    """A dataset (the arrays of the module notes) of ``records``, all of one game;
    ``on_episode()`` after each record is encoded (a progress bar)."""
    if reward not in ("game", "round"):
        raise RulesError(f"reward must be 'game' or 'round', not {reward!r}")
    rows = _Rows()
    returns: list[list[float]] = []
    first: tikki.Game | None = None
    for episode, record in enumerate(records):
        game = tikki.replay(record).game if first is None else None
        first = first or game
        assert first is not None
        here = (record.get("game"), record.get("players"), dict(record.get("options", {})))
        if here != (first.name, first.players, dict(first.options)):
            raise RulesError(
                f"record {episode} is a game of {here[0]} ({here[1]} players, {here[2]}); "
                f"a dataset holds one game: {first!r}"
            )
        returns.append(_episode(rows, record, episode, reward, abandoned_reward))
        if on_episode is not None:
            on_episode()
    if first is None:
        raise RulesError("no records: give at least one game")
    return _arrays(rows, returns, first, reward, sources)


def _arrays(
    rows: _Rows,
    returns: list[list[float]],
    game: tikki.Game,
    reward: str,
    sources: Sequence[str] | None,
) -> dict[str, Any]:
    enc = encoder_for(game)
    c = rows.cols
    meta = {
        "format": 1,
        "game": game.name,
        "players": game.players,
        "options": dict(game.options),
        "reward": reward,
        "actions": list(enc.actions.texts),
        "features": {
            f.name: [enc.slices[f.name].start, enc.slices[f.name].stop] for f in enc.features
        },
        "sources": list(sources) if sources is not None else None,
    }
    return {
        "observation": np.stack(rows.obs).astype(np.float32),
        "action_mask": np.stack(rows.mask).astype(np.int8),
        "action": np.asarray(c["action"], np.int64),
        "reward": np.asarray(c["reward"], np.float32),
        "terminated": np.asarray(c["terminated"], bool),
        "truncated": np.asarray(c["truncated"], bool),
        "episode": np.asarray(c["episode"], np.int64),
        "step": np.asarray(c["step"], np.int64),
        "seat": np.asarray(c["seat"], np.int64),
        "next_index": np.asarray(c["next_index"], np.int64),
        "returns": np.asarray(returns, np.float32),
        "meta": json.dumps(meta, sort_keys=True, ensure_ascii=False),
    }


def from_bots(
    game: str,
    players: int,
    bots: Sequence[str],
    games: int,
    seed: int = 0,
    jobs: int = 1,
    reward: str = "game",
    abandoned_reward: float = 0.0,
    on_game: Callable[[], None] | None = None,
    on_episode: Callable[[], None] | None = None,
    **options: Any,
) -> dict[str, Any]:
    """A dataset of ``games`` arena games of ``game`` between ``bots`` (a lineup, the last
    repeated; seats rotated over duplicate deals), seeded by ``seed``; ``on_game()`` after
    each game is played, ``on_episode()`` after each is encoded (progress bars)."""
    g = tikki.load(game, players, **options)
    spec = arena.ArenaSpec(
        g.name, g.players, g.options, arena.lineup_for(g.players, bots), games, seed
    )
    results = arena.run(spec, jobs, on_result=None if on_game is None else lambda _r: on_game())
    bad = [r for r in results if r.error]
    if bad:
        raise RulesError(f"game {bad[0].index} was forfeited: {bad[0].error}")
    sources = [f"arena seed {seed} game {r.index}: {','.join(r.seats)}" for r in results]
    records = [r.record for r in results]
    return from_records(records, reward, abandoned_reward, sources, on_episode)


def save(path: str | Path, data: Mapping[str, Any]) -> Path:
    """Write ``data`` as an ``.npz`` (deflated, fixed timestamps: same data, same bytes)."""
    path = Path(path)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name in (*COLUMNS, "meta"):
            value = data[name]
            array = np.asarray(value) if name != "meta" else np.asarray(str(value))
            buffer = io.BytesIO()
            np.lib.format.write_array(buffer, array, allow_pickle=False)
            info = zipfile.ZipInfo(f"{name}.npy", date_time=_EPOCH)
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, buffer.getvalue())
    return path


def load(path: str | Path) -> dict[str, Any]:
    """Read a dataset written by :func:`save` (``meta`` parsed from its JSON)."""
    with np.load(Path(path), allow_pickle=False) as npz:
        data: dict[str, Any] = {name: npz[name] for name in COLUMNS}
        data["meta"] = json.loads(str(npz["meta"]))
    return data


def read_records(paths: Sequence[Path], db: Path | None) -> tuple[list[Any], list[str]]:
    """The records of the JSON files ``paths``, then of the arena database ``db``, and where
    each came from; a file that is not a JSON record or a database that is not an arena's
    is a :class:`~tikki.core.RulesError`."""
    records, sources = [], []
    for path in paths:
        try:
            text = path.read_text(encoding="utf-8")
            records.append(json.loads(text))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
            raise RulesError(f"{path} is not a readable JSON record: {err}") from None
        sources.append(str(path))
    if db is not None:
        if not db.is_file():
            raise RulesError(f"no database {db}")
        try:
            with sqlite3.connect(db) as conn:
                rows = conn.execute("SELECT id, record FROM games ORDER BY id").fetchall()
        except sqlite3.DatabaseError as err:
            raise RulesError(f"{db} is not an arena database: {err}") from None
        for game_id, text in rows:
            records.append(json.loads(text))
            sources.append(f"{db} game {game_id}")
    return records, sources


PROG = "python -m tikki.interop.dataset"
"""How the command line is called."""
KNOWN = ", ".join(tikki.games())
"""The registered games, for the GAME argument's help and its error."""

app = typer.Typer(name=PROG, add_completion=False, rich_markup_mode="rich")


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m tikki.interop.dataset``: write a dataset (see the module notes)."""
    args = list(sys.argv[1:] if argv is None else argv)
    return run(app, _spread(args, "--records"), PROG)


def _spread(args: list[str], option: str) -> list[str]:
    """``args`` with ``option a b`` written ``option a option b``: ``--records`` takes the
    files that follow it, where a typer option takes one value each time."""
    out: list[str] = []
    taking = False
    for arg in args:
        if arg == option:
            taking = True
        elif taking and (arg == "-" or not arg.startswith("-")):
            out += [option, arg]
        else:
            taking = False
            out.append(arg)
    return out


@app.command(help="Write a dataset of decisions (.npz).")
def dataset_command(
    out: Annotated[Path, typer.Option("-o", "--out", help="the .npz to write")],
    game: Annotated[
        str | None,
        typer.Argument(metavar="GAME", help=f"one of {KNOWN} (for --bots)", show_default=False),
    ] = None,
    players: Annotated[int | None, typer.Option("-p", "--players")] = None,
    bots: Annotated[
        str | None, typer.Option("--bots", help="lineup, e.g. heuristic,random (plays new games)")
    ] = None,
    games: Annotated[int, typer.Option("-n", "--games")] = 100,
    seed: Annotated[int, typer.Option("--seed")] = 0,
    jobs: Annotated[int, typer.Option("-j", "--jobs")] = 1,
    records: Annotated[list[Path], typer.Option("--records", help="record files")] = [],  # noqa: B006
    db: Annotated[
        Path | None, typer.Option("--db", help="an arena database (tikki arena --db)")
    ] = None,
    reward: Annotated[str, typer.Option("--reward")] = "game",
) -> None:
    """Write a dataset of decisions (.npz) from new bot games, records or an arena's games."""
    try:
        _check_out(out)
        if reward not in ("game", "round"):
            raise RulesError(f"--reward is game or round, not {reward!r}")
        if bots:
            if not game:
                raise RulesError(f"--bots plays new games: name the game, one of {KNOWN}")
            if records or db:
                raise RulesError("give --bots (new games) or --records/--db, not both")
            lineup = [s for s in bots.split(",") if s.strip()]
            count = players or tikki.load(game).players
            data = from_bots(game, count, lineup, games, seed, jobs, reward)
        elif not records and db is None:
            raise RulesError("nothing to write: give --bots (new games), --records or --db")
        else:
            stored, sources = read_records(records, db)
            data = from_records(stored, reward, sources=sources)
        _write(out, data)
    except RulesError as err:
        raise fail(str(err)) from None
    rows, episodes = len(data["action"]), len(data["returns"])
    print(f"{out}: {rows} decisions of {episodes} games")


def _check_out(out: Path) -> None:
    """Refuse ``--out`` before any game is played or read: an ``.npz`` file (not a folder)
    in a folder that exists and can be written."""
    if out.is_dir():
        raise RulesError(f"--out {out} is a folder: give a file name, e.g. {out / 'games.npz'}")
    if out.suffix != ".npz":
        raise RulesError(f"--out {out}: the dataset is an .npz file, e.g. games.npz")
    folder = out.parent
    if not folder.is_dir():
        raise RulesError(f"--out {out}: there is no folder {folder} (create it first)")
    if not os.access(out if out.exists() else folder, os.W_OK):
        what = out if out.exists() else f"the folder {folder}"
        raise RulesError(f"--out {out}: {what} is not writable")


def _write(out: Path, data: Mapping[str, Any]) -> None:
    """:func:`save`, a failed write said in words (the system's reason, not its errno)."""
    try:
        save(out, data)
    except OSError as err:
        raise RulesError(f"could not write {out}: {err.strerror or err}") from None


if __name__ == "__main__":
    raise SystemExit(main())

__all__ = ["COLUMNS", "from_bots", "from_records", "load", "main", "read_records", "save"]
