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
* ``seed`` ``str``: the game's seed in decimal (a seed may exceed 64 bits); ``deck``
  ``str``: the record's fixed first deal as JSON, ``""`` when the seed dealt it;
  ``record_id`` ``str``: :func:`record_id` of the game (16 hex digits); ``bots`` ``str
  (rows, players)``: the bot spec of each seat (``""`` where the input does not say; a
  record saved by ``tikki play`` says ``you`` for the person);
* ``returns`` ``float32 (episodes, players)``: each game's ``outcome["returns"]``;
* ``meta``: JSON text: game, players, options, reward mode, the action texts, the
  observation's feature slices, and where each episode came from.

A row alone, with the rows of its game's earlier moves, rebuilds its exact state:
:func:`state_of` deals the game from ``seed`` (and ``deck``) and plays the moves before
it; :func:`record_of` rebuilds a whole game's record (checked against its ``record_id``).
A dataset holds full games, seeds included: it is a research artefact, never served to a
player.

Records are replayed and verified (``tikki.replay``) before they are encoded; bot games
come from the arena (:func:`tikki.arena.play_game`), so a seed gives the same games
whatever ``jobs`` is.  The ``.npz`` is written with fixed timestamps: the same games give
the same file, byte for byte.  :func:`save` writes Parquet instead for a path ending in
``.parquet`` (``pip install 'tikki[parquet]'``, pyarrow): one table of the same rows,
``returns`` repeated on each row of its game, ``meta`` in the schema's metadata
(``b"tikki"``); :func:`load` reads either back to the same arrays.
"""

# ruff: noqa: E402  (the extra is checked before its imports)
from __future__ import annotations

from tikki.extras import require

require("gym", "the dataset writer (NumPy)", ("numpy",))

import hashlib
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
from tikki.errors import IllegalMove
from tikki.extras import MissingExtra
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
    "seed",
    "deck",
    "record_id",
    "bots",
)
"""The arrays of a dataset (besides ``meta``)."""
FORMAT = 2
"""``meta["format"]``: 2 added ``seed``, ``deck``, ``record_id`` and ``bots``."""
FORMATS = ("npz", "parquet")
"""The files a dataset is written as."""

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


def record_id(record: Mapping[str, Any]) -> str:
    """A game's stable id: the first 16 hex digits of the SHA-256 of its canonical JSON
    (game, players, options as the game takes them, seed, deck and moves; not the
    outcome, seats or other notes a record may carry)."""
    game = tikki.load(record["game"], record["players"], **dict(record.get("options") or {}))
    return _digest(game, record)


def _digest(game: tikki.Game, record: Mapping[str, Any]) -> str:
    played = {
        "game": game.name,
        "players": game.players,
        "options": dict(game.options),
        "seed": int(record["seed"]),
        "deck": None if record.get("deck") is None else list(record["deck"]),
        "moves": list(record["moves"]),
    }
    text = json.dumps(played, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _bots_of(record: Mapping[str, Any], given: Sequence[str] | None, players: int) -> list[str]:
    """Each seat's bot spec: ``given``, else the record's ``seats`` (``tikki play``), else
    ``""`` for each seat."""
    found = given if given is not None else record.get("seats")
    if isinstance(found, list | tuple) and len(found) == players:
        specs = [spec for spec in found if isinstance(spec, str)]
        if len(specs) == players:
            return specs
    return [""] * players


def _episode(
    rows: _Rows,
    record: Mapping[str, Any],
    episode: int,
    mode: str,
    abandoned_reward: float,
    seats: Sequence[str] | None = None,
) -> list[float]:
    """Encode one verified record's decisions into ``rows``; return its returns."""
    final = tikki.replay(record)  # verifies every move; a bad record fails clearly here
    game = final.game
    enc = encoder_for(game)
    state = game.new_state(seed=record["seed"], deck=record.get("deck"))
    deck = record.get("deck")
    origin = {
        "seed": str(int(record["seed"])),
        "deck": "" if deck is None else json.dumps(list(deck), separators=(",", ":")),
        "record_id": _digest(game, record),
        "bots": _bots_of(record, seats, game.players),
    }
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
        rows.add(next_index=-1, terminated=False, truncated=False, reward=0.0, **origin)
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
    seats: Sequence[Sequence[str] | None] | None = None,
) -> dict[str, Any]:
    """A dataset (the arrays of the module notes) of ``records``, all of one game;
    ``on_episode()`` after each record is encoded (a progress bar); ``seats``: each
    record's bot specs, one per seat (else a record's own ``seats``, else unknown)."""
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
        given = seats[episode] if seats is not None else None
        returns.append(_episode(rows, record, episode, reward, abandoned_reward, given))
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
        "format": FORMAT,
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
        "seed": np.asarray(c["seed"], str),
        "deck": np.asarray(c["deck"], str),
        "record_id": np.asarray(c["record_id"], str),
        "bots": np.asarray(c["bots"], str).reshape(len(c["action"]), game.players),
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
    lineups = [list(r.seats) for r in results]
    return from_records(records, reward, abandoned_reward, sources, on_episode, lineups)


def save(path: str | Path, data: Mapping[str, Any]) -> Path:
    """Write ``data`` as an ``.npz`` (deflated, fixed timestamps: same data, same bytes), or
    as Parquet when ``path`` ends in ``.parquet`` (the ``parquet`` extra; the same data
    gives the same bytes under one pyarrow version)."""
    path = Path(path)
    if path.suffix.lower() == ".parquet":
        return _save_parquet(path, data)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name in (*COLUMNS, "meta"):
            if name not in data:
                continue  # a dataset of an older format, without the newer columns
            value = data[name]
            array = np.asarray(value) if name != "meta" else np.asarray(str(value))
            buffer = io.BytesIO()
            np.lib.format.write_array(buffer, array, allow_pickle=False)
            info = zipfile.ZipInfo(f"{name}.npy", date_time=_EPOCH)
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, buffer.getvalue())
    return path


def load(path: str | Path) -> dict[str, Any]:
    """Read a dataset written by :func:`save`, ``.npz`` or Parquet (``meta`` parsed from its
    JSON)."""
    path = Path(path)
    with path.open("rb") as file:
        if file.read(4) == b"PAR1":
            return _load_parquet(path)
    with np.load(path, allow_pickle=False) as npz:
        data: dict[str, Any] = {name: npz[name] for name in COLUMNS if name in npz.files}
        data["meta"] = json.loads(str(npz["meta"]))
    return data


def _meta(data: Mapping[str, Any]) -> dict[str, Any]:
    """A dataset's ``meta`` as a dict, whether the writers' JSON text or :func:`load`'s dict."""
    meta = data["meta"]
    parsed: dict[str, Any] = json.loads(meta) if isinstance(meta, str) else meta
    return parsed


def _meta_text(data: Mapping[str, Any]) -> str:
    return json.dumps(_meta(data), sort_keys=True, ensure_ascii=False)


def _save_parquet(path: Path, data: Mapping[str, Any]) -> Path:
    """Write ``data`` as one Parquet table of its rows (the module notes)."""
    require("parquet", "a Parquet dataset", ("pyarrow",))
    import pyarrow as pa
    import pyarrow.parquet as pq

    episode = np.asarray(data["episode"])
    columns = {}
    for name in COLUMNS:
        if name in data:
            value = np.asarray(data[name])
            columns[name] = _arrow(value[episode] if name == "returns" else value)
    table = pa.table(columns, metadata={b"tikki": _meta_text(data).encode("utf-8")})
    pq.write_table(table, path, compression="zstd")
    return path


def _arrow(value: npt.NDArray[Any]) -> Any:
    """A NumPy column as an Arrow array: a matrix as fixed-size lists, text as strings."""
    import pyarrow as pa

    if value.ndim == 2:
        return pa.FixedSizeListArray.from_arrays(_arrow(value.reshape(-1)), value.shape[1])
    if value.dtype.kind == "U":
        return pa.array(value.tolist(), pa.string())
    return pa.array(value)


def _load_parquet(path: Path) -> dict[str, Any]:
    """Read a Parquet dataset back to the arrays :func:`load` gives for an ``.npz``."""
    require("parquet", "a Parquet dataset", ("pyarrow",))
    import pyarrow.parquet as pq

    table = pq.read_table(path)
    meta = json.loads(table.schema.metadata[b"tikki"])
    data: dict[str, Any] = {}
    for name in COLUMNS:
        if name in table.column_names:
            data[name] = _numpy(table.column(name).combine_chunks(), table.num_rows)
    episode, per_row = data["episode"], data["returns"]
    returns = np.zeros((int(episode.max()) + 1 if len(episode) else 0, meta["players"]))
    returns[episode] = per_row
    data["returns"] = returns.astype(per_row.dtype)
    data["meta"] = meta
    return data


def _numpy(column: Any, rows: int) -> npt.NDArray[Any]:
    """An Arrow column as the NumPy array :func:`save` was given."""
    import pyarrow as pa

    if pa.types.is_fixed_size_list(column.type):
        return _numpy(column.flatten(), -1).reshape(rows, column.type.list_size)
    if pa.types.is_string(column.type):
        return np.asarray(column.to_pylist(), str)
    return np.asarray(column.to_numpy(zero_copy_only=False))


def game_of(data: Mapping[str, Any]) -> tikki.Game:
    """The game a dataset (from :func:`load` or the writers) holds, from its ``meta``."""
    meta = _meta(data)
    return tikki.load(meta["game"], meta["players"], **meta["options"])


def state_of(data: Mapping[str, Any], index: int) -> tikki.State:
    """The exact state before row ``index``'s move, rebuilt from the dataset alone: its
    game dealt from the row's ``seed`` (and ``deck``), then the moves of the rows before it
    in the same game (same ``episode`` and ``record_id``, ``step`` 0 to its own).

    ``encoder_for(game).encode(state_of(data, i), data["seat"][i])`` is the stored
    ``observation`` of row ``i``.  A dataset without those columns or rows, or one that
    does not replay, is a :class:`~tikki.core.RulesError` saying so.
    """
    count = len(data["action"])
    if not 0 <= index < count:
        raise RulesError(f"no row {index}: the dataset has rows 0 to {count - 1}")
    if "seed" not in data:
        raise RulesError("the dataset has no seed column (an older format): write it again")
    step = data["step"]
    same = (data["episode"] == data["episode"][index]) & (
        data["record_id"] == data["record_id"][index]
    )
    before = np.flatnonzero(same & (step < step[index]))
    before = before[np.argsort(step[before], kind="stable")]
    if step[before].tolist() != list(range(int(step[index]))):
        raise RulesError(
            f"row {index} is move {int(step[index])} of game {int(data['episode'][index])}, "
            "but the dataset lacks some of the moves before it"
        )
    return _replayed(data, index, before)


def _replayed(
    data: Mapping[str, Any], first: int, rows: Sequence[int] | npt.NDArray[Any]
) -> tikki.State:
    """The game of row ``first`` dealt from its seed and deck, ``rows``' moves played."""
    game = game_of(data)
    actions = _meta(data)["actions"]
    deck = str(data["deck"][first])
    state = game.new_state(seed=int(data["seed"][first]), deck=json.loads(deck) if deck else None)
    for row in rows:
        try:
            state.play(actions[int(data["action"][row])])
        except IllegalMove as err:
            raise RulesError(f"row {int(row)} does not replay: {err}") from None
    return state


def record_of(data: Mapping[str, Any], episode: int) -> dict[str, Any]:
    """The record of game ``episode`` rebuilt from the dataset alone (replayable by
    :func:`tikki.replay`; ``seats`` added where the dataset knows the bots), checked
    against its ``record_id``; a game the dataset does not hold whole is a
    :class:`~tikki.core.RulesError`."""
    rows = np.flatnonzero(data["episode"] == episode)
    rows = rows[np.argsort(data["step"][rows], kind="stable")]
    if not len(rows) or data["step"][rows].tolist() != list(range(len(rows))):
        raise RulesError(f"the dataset does not hold every move of game {episode}")
    state = _replayed(data, int(rows[0]), rows)
    record: dict[str, Any] = state.record()
    if not state.is_over or _digest(state.game, record) != str(data["record_id"][rows[0]]):
        raise RulesError(f"game {episode} does not replay to its record id")
    bots = [str(b) for b in data["bots"][rows[0]]]
    if any(bots):
        record["seats"] = bots
    return record


def read_records(paths: Sequence[Path], db: Path | None) -> tuple[list[Any], list[str]]:
    """The records of the JSON files ``paths``, then of the arena database ``db``, and where
    each came from; a file that is not a JSON record or a database that is not an arena's
    is a :class:`~tikki.core.RulesError`."""
    records, sources, _seats = read_games(paths, db)
    return records, sources


def read_games(
    paths: Sequence[Path], db: Path | None
) -> tuple[list[Any], list[str], list[list[str] | None]]:
    """As :func:`read_records`, with each game's bot specs, one per seat (the arena
    database's ``seats``; ``None`` for a record file: its own ``seats``, if any, count)."""
    records, sources = [], []
    seats: list[list[str] | None] = []
    for path in paths:
        try:
            text = path.read_text(encoding="utf-8")
            records.append(json.loads(text))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
            raise RulesError(f"{path} is not a readable JSON record: {err}") from None
        sources.append(str(path))
        seats.append(None)
    if db is not None:
        if not db.is_file():
            raise RulesError(f"no database {db}")
        try:
            with sqlite3.connect(db) as conn:
                query = "SELECT id, record, seats FROM games ORDER BY id"
                rows = conn.execute(query).fetchall()
        except sqlite3.DatabaseError as err:
            raise RulesError(f"{db} is not an arena database: {err}") from None
        for game_id, text, lineup in rows:
            records.append(json.loads(text))
            sources.append(f"{db} game {game_id}")
            seats.append(json.loads(lineup) if lineup else None)
    return records, sources, seats


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


@app.command(help="Write a dataset of decisions (.npz or Parquet).")
def dataset_command(
    out: Annotated[Path, typer.Option("-o", "--out", help="the file to write: .npz, or .parquet")],
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
    fmt: Annotated[
        str, typer.Option("--format", help="npz, or parquet (the parquet extra: pyarrow)")
    ] = "npz",
) -> None:
    """Write a dataset of decisions (.npz or Parquet) from new bot games, records or an
    arena's games."""
    try:
        _check_out(out, fmt)
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
            stored, sources, seats = read_games(records, db)
            data = from_records(stored, reward, sources=sources, seats=seats)
        _write(out, data)
    except (RulesError, MissingExtra) as err:
        raise fail(str(err)) from None
    rows, episodes = len(data["action"]), len(data["returns"])
    print(f"{out}: {rows} decisions of {episodes} games")


def _check_out(out: Path, fmt: str = "npz") -> None:
    """Refuse ``--out`` (and ``--format``) before any game is played or read: an ``.npz``
    or ``.parquet`` file as ``fmt`` says (not a folder) in a folder that exists and can be
    written, and pyarrow installed for Parquet."""
    if fmt not in FORMATS:
        raise RulesError(f"--format is npz or parquet, not {fmt!r}")
    if fmt == "parquet":
        require("parquet", "--format parquet", ("pyarrow",))
    if out.is_dir():
        raise RulesError(f"--out {out} is a folder: give a file name, e.g. {out / 'games.npz'}")
    if out.suffix != f".{fmt}":
        article, hint = ("an", " (or give --format parquet)") if fmt == "npz" else ("a", "")
        hint = hint if out.suffix == ".parquet" else ""
        raise RulesError(
            f"--out {out}: the dataset is {article} .{fmt} file, e.g. games.{fmt}{hint}"
        )
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

__all__ = [
    "COLUMNS",
    "FORMAT",
    "FORMATS",
    "from_bots",
    "from_records",
    "game_of",
    "load",
    "main",
    "read_games",
    "read_records",
    "record_id",
    "record_of",
    "save",
    "state_of",
]
