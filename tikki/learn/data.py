"""Training positions from self-play of the search bots: seeded, chunked, resumable.

:func:`generate` plays games of one game among copies of one search bot (``ismcts``, by
default ``ismcts:iterations=200`` so that data comes quickly, or ``expert``) and records
every decision with at least two legal moves:

* ``observation`` ``float32 (rows, size)``: the acting seat's observation
  (:func:`tikki.interop.observations.encoder_for`: only what the seat may know);
* ``mask`` ``int8 (rows, A)``: its legal actions (the fixed ids of
  :mod:`tikki.interop.encoding`);
* ``visits`` ``float32 (rows, A)``: the search's visit distribution over the root moves
  (sums to 1; a move the bot decided without searching, e.g. ``expert``'s moves by rule or
  proof, is one-hot);
* ``action`` ``int64``: the move played (the most visited);
* ``value`` ``float32``: the seat's *gain* from this position, what the search's rollouts
  score: its points of the round in progress (a game scored in points) or its return at the
  end of the game (the shedding games: −1 for the loser, ``1/(n−1)`` for the others);
* ``seat``, ``game`` ``int64``: the acting seat and the game's index.

Chunk ``k`` (``chunk-0000k.npz``) holds games ``k·chunk … (k+1)·chunk − 1``; each game is
fixed by ``(seed, index)`` (its deal and every bot's seed), so a run stopped at any point
and started again with the same arguments writes only the chunks missing and gives the
same files.  A chunk is written to a temporary name and renamed when whole.
"""

# ruff: noqa: E402  (the extra is checked before its imports)
from __future__ import annotations

from tikki.extras import require

require("models", "the learning tools (NumPy)", ("numpy",))

import hashlib
import json
import os
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

import tikki
from tikki import bots as botlib
from tikki.bots.expert import ExpertBot
from tikki.bots.ismcts import ISMCTSBot
from tikki.core import Game, RulesError, State
from tikki.i18n import _ as _t
from tikki.interop.observations import encoder_for

DEFAULT_BOT = "ismcts:iterations=200"
"""The self-play bot of :func:`generate` (cheap: data comes quickly)."""
DEFAULT_PLAYERS = {name: info["players"]["default"] for name, info in tikki.games().items()}
"""The player count each game's shipped model is trained for: its default (the strength
protocol's)."""


def derive(seed: int, *parts: int) -> int:
    """A 64-bit seed from ``seed`` and ``parts`` (stable across runs and machines)."""
    text = ",".join(str(p) for p in (seed, *parts)).encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")


@dataclass(frozen=True)
class Decision:
    """One searched decision: the move played and the search's visit share of each move."""

    move: str
    visits: dict[str, float]


def decide(bot: Any, game: Game, view: Mapping[str, Any]) -> Decision:
    """The move ``bot`` plays from ``view`` and its search's visit distribution.

    ``ismcts`` runs its whole budget (:meth:`~tikki.bots.ismcts.ISMCTSBot.search`, no
    early stop) and plays the most visited move; ``expert`` plays as always and its root's
    visits are read where it searched (else the move played gets them all); any other bot
    (``heuristic``: imitation data) gives its move all of them."""
    legal = [str(m) for m in view["legal_moves"]]
    if isinstance(bot, ISMCTSBot):
        children = bot.search(game, view).children
        counts = {m: float(children[m].visits) if m in children else 0.0 for m in legal}
        move = max(legal, key=lambda m: counts[m])
    elif isinstance(bot, ExpertBot):
        move = bot.choose(game, view)
        children = bot._root.children if bot.last.get("how") == "search" else {}
        counts = {m: float(children[m].visits) if m in children else 0.0 for m in legal}
    else:  # a bot without a search (heuristic): its move is the whole distribution
        move = bot.choose(game, view)
        counts = {move: 1.0}
    total = sum(counts.values())
    if total <= 0:
        counts, total = {move: 1.0}, 1.0
    return Decision(move, {m: c / total for m, c in counts.items() if c > 0})


def _gains(state: State) -> list[float]:
    """The running totals where a round or the game ended (as the rollouts score)."""
    outcome = state.outcome
    if outcome is not None:
        return [float(r) for r in outcome["returns"]]
    return list(state.returns_so_far())


def play_game(game: Game, spec: str, seed: int, index: int) -> dict[str, list[Any]]:
    """One self-play game's decisions (the columns of the module notes, as lists)."""
    enc = encoder_for(game)
    size = len(enc.actions)
    state = game.new_state(seed=derive(seed, index, 0) % 2**63)
    bots = [botlib.make(spec, seed=derive(seed, index, 1 + s)) for s in range(game.players)]
    cols: dict[str, list[Any]] = {k: [] for k in ("observation", "mask", "visits", "action")}
    cols.update(value=[], seat=[], game=[])
    pending: list[tuple[int, int, float, int]] = []  # row, seat, total then, round
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        view = state.view(seat)
        if len(view["legal_moves"]) < 2:
            state.play(view["legal_moves"][0])
        else:
            decision = decide(bots[seat], game, view)
            mask = enc.legal_mask(state, seat, np.zeros(size, np.int8))
            dist = np.zeros(size, np.float32)
            for move, share in decision.visits.items():
                dist[enc.actions.to_id(move)] = share
            pending.append((len(cols["action"]), seat, _gains(state)[seat], state.round))
            cols["observation"].append(enc.encode(state, seat))
            cols["mask"].append(mask)
            cols["visits"].append(dist)
            cols["action"].append(enc.actions.to_id(decision.move))
            cols["value"].append(0.0)
            cols["seat"].append(seat)
            cols["game"].append(index)
            state.play(decision.move)
        if state.is_over or (pending and state.round != pending[0][3]):
            totals = _gains(state)
            for row, s, before, _round in pending:
                cols["value"][row] = totals[s] - before
            pending = []
    return cols


COLUMNS = ("observation", "mask", "visits", "action", "value", "seat", "game")
"""The arrays of a chunk (and of :func:`load`'s answer), ``meta`` aside."""


def chunk_path(out: Path, k: int) -> Path:
    """The file of chunk ``k`` under ``out``."""
    return out / f"chunk-{k:05d}.npz"


def write_chunk(path: Path, cols: Mapping[str, list[Any]], meta: Mapping[str, Any]) -> None:
    """Write one chunk's arrays (compressed) to ``path`` atomically."""
    arrays: dict[str, npt.NDArray[Any]] = {
        "observation": np.asarray(cols["observation"], np.float32),
        "mask": np.asarray(cols["mask"], np.int8),
        "visits": np.asarray(cols["visits"], np.float32),
        "action": np.asarray(cols["action"], np.int64),
        "value": np.asarray(cols["value"], np.float32),
        "seat": np.asarray(cols["seat"], np.int64),
        "game": np.asarray(cols["game"], np.int64),
        "meta": np.asarray(json.dumps(meta, sort_keys=True)),
    }
    tmp = path.with_suffix(".tmp.npz")
    np.savez_compressed(tmp, **arrays)  # type: ignore[arg-type]
    os.replace(tmp, path)


def generate(
    name: str,
    out: Path,
    games: int,
    seed: int = 1,
    players: int | None = None,
    bot: str = DEFAULT_BOT,
    chunk: int = 2,
    progress: Callable[[str], None] | None = None,
    **options: Any,
) -> list[Path]:
    """Write the chunks of ``games`` self-play games (rounded up to whole chunks) of
    ``name`` under ``out`` (only those missing: see the module notes); return every chunk's
    path."""
    game = tikki.load(name, players or DEFAULT_PLAYERS.get(name), **options)
    botlib.make(bot, seed=0)  # a bad spec fails here, clearly
    out.mkdir(parents=True, exist_ok=True)
    meta = {
        "game": game.name,
        "players": game.players,
        "options": game.options,
        "bot": bot,
        "seed": seed,
        "chunk": chunk,
        "value_kind": game.value_kind,
    }
    paths = []
    for k in range(-(-games // chunk)):
        path = chunk_path(out, k)
        paths.append(path)
        if path.exists():
            _check_same_run(path, meta)
            continue
        cols: dict[str, list[Any]] = {}
        for index in range(k * chunk, (k + 1) * chunk):  # whole chunks, so resumable
            for key, values in play_game(game, bot, seed, index).items():
                cols.setdefault(key, []).extend(values)
        write_chunk(path, cols, meta)
        if progress is not None:
            progress(f"{path}: {len(cols['action'])} positions")
    return paths


def _check_same_run(path: Path, meta: Mapping[str, Any]) -> None:
    """Refuse to resume into a chunk another run (game, bot, seed, chunk size) wrote."""
    with np.load(path) as f:
        theirs = json.loads(str(f["meta"]))
    keys = ("game", "players", "bot", "seed", "chunk")
    if any(theirs.get(k) != meta[k] for k in keys):
        raise RulesError(
            _t(
                "{path} holds another run's data ({theirs}); resume with the same game, bot,"
                " seed and chunk size, or give another folder",
                path=str(path),
                theirs=", ".join(f"{k}={theirs.get(k)}" for k in keys),
            )
        )


def chunks(out: Path) -> Iterator[Path]:
    """The whole chunks under ``out``, in order."""
    yield from sorted(p for p in out.glob("chunk-*.npz") if ".tmp" not in p.name)


def load(out: Path | list[Path]) -> dict[str, Any]:
    """Every chunk under ``out`` (or the given files) joined: the arrays and ``meta``."""
    paths = list(chunks(out)) if isinstance(out, Path) else out
    if not paths:
        raise RulesError(
            _t("no data chunks (chunk-*.npz) in {folder}: generate them first", folder=str(out))
        )
    parts = [np.load(p) for p in paths]
    data: dict[str, Any] = {key: np.concatenate([p[key] for p in parts]) for key in COLUMNS}
    data["meta"] = json.loads(str(parts[0]["meta"]))
    return data


def check_folders(folders: Sequence[Path], name: str, players: int | None = None) -> None:
    """Refuse, before anything is generated or trained, a data folder whose chunks hold
    another game's positions than ``name``'s (or, with ``players``, another player count):
    a model trained on them is that game's, whatever it is called."""
    for folder in folders:
        first = next(chunks(folder), None) if folder.is_dir() else None
        if first is None:
            continue
        with np.load(first) as f:
            meta = json.loads(str(f["meta"]))
        if meta.get("game") != name:
            raise RulesError(
                _t(
                    "{folder} holds {theirs}'s data, not {game}'s: a model trained on it would"
                    " play {theirs}; give a folder of {game}'s data",
                    folder=str(folder),
                    theirs=str(meta.get("game")),
                    game=name,
                )
            )
        if players is not None and meta.get("players") != players:
            raise RulesError(
                _t(
                    "{folder} holds {game}'s data for {theirs} players; the shipped model plays"
                    " {players} (--ship): give data of {players} players, or --out a file",
                    folder=str(folder),
                    game=name,
                    theirs=str(meta.get("players")),
                    players=players,
                )
            )


GAMES_APART = 1_000_000
"""How far apart :func:`join` numbers the games of successive folders."""


def join(folders: Sequence[Path]) -> dict[str, Any]:
    """The data of several folders as one (:func:`load` each): folder ``i``'s games are
    numbered ``i·GAMES_APART`` on, so the held-out split still takes whole games; ``meta``
    is the first folder's, with ``bot`` naming every folder's bot (``+`` between)."""
    parts = [load(folder) for folder in folders]
    sizes = {p["observation"].shape[1] for p in parts}
    if len(sizes) > 1 or len({p["meta"]["game"] for p in parts}) > 1:
        raise RulesError(_t("the data folders hold different games or player counts"))
    data: dict[str, Any] = {
        key: np.concatenate(
            [p[key] + (i * GAMES_APART if key == "game" else 0) for i, p in enumerate(parts)]
        )
        for key in COLUMNS
    }
    data["meta"] = {**parts[0]["meta"], "bot": "+".join(str(p["meta"]["bot"]) for p in parts)}
    return data


def rng_for(seed: int) -> random.Random:
    """A generator seeded from ``seed`` (the trainer's splits and shuffles)."""
    return random.Random(derive(seed, 99))
