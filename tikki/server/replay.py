"""Replays at the web table: a game's positions, move by move, as one seat saw them.

:func:`frames` rebuilds a game from its full record (:func:`tikki.core.replay`, every move
verified) and answers the view after each move: ``frames[k]`` is the position after ``k``
moves (``frames[0]``: the deal), without its history; ``history`` is the whole game's
log from the same perspective, so the page shows ``history[:k]`` beside ``frames[k]``.

Who sees what:

* ``seat`` ``None``: the spectators' view (no hand is ever shown);
* ``seat`` ``N``: what seat ``N`` saw at each moment (its own hand, nobody else's);
* ``seat`` ``"all"``: every hand (``hands``) and every move face up: a finished game only.

A game that is not over shows its spectators' view only (its own seat to a seated
person, who asks with the seat's token: :func:`allowed`), so a replay never shows more
than the live table does.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Mapping
from typing import Any

from fastapi import Response

from tikki.core import JSON, Game, RulesError, State, load, replay
from tikki.i18n import _
from tikki.server.errors import ApiError

ALL = "all"
"""The ``seat`` that shows every hand (a finished game only)."""
MAX_RECORD = 65536
"""The largest record (bytes of JSON) a player may upload to replay."""
GZIP_OVER = 1024
"""Answers larger than this (bytes) go gzipped to a client that accepts it: a whole
game's positions are some 300–450 KiB of JSON, about 10 KiB gzipped."""


def answer(out: JSON, accept_encoding: str | None) -> Response:
    """The replay as JSON, gzipped when the client accepts it (``Accept-Encoding``)."""
    body = json.dumps(out, separators=(",", ":")).encode()
    headers = {"Vary": "Accept-Encoding"}
    if len(body) > GZIP_OVER and "gzip" in (accept_encoding or "").lower():
        body = gzip.compress(body, compresslevel=5)
        headers["Content-Encoding"] = "gzip"
    return Response(body, media_type="application/json", headers=headers)


def parse_seat(text: str | None, players: int) -> int | str | None:
    """The ``seat`` query parameter: ``None`` (spectators), ``"all"`` or a seat number."""
    if text is None or text == "":
        return None
    if text == ALL:
        return ALL
    if text.isascii() and text.isdigit() and len(text) <= 3 and int(text) < players:
        return int(text)
    raise ApiError(
        "unknown_seat",
        _(
            "no seat {seat!r}: give a seat 0–{last}, 'all' (every hand, after the end) "
            "or none (the spectators' view)",
            seat=text[:20],
            last=players - 1,
        ),
    )


def allowed(seat: int | str | None, over: bool, own: int | None) -> None:
    """Refuse a perspective that would show hidden cards of a game that is not over
    (``own``: the seat the asker holds, if any)."""
    if over or seat is None or seat == own:
        return
    raise ApiError(
        "not_finished",
        _(
            "the game is not over: its replay shows the spectators' view (or your own "
            "seat, with its token); every hand is shown once it ends"
        ),
    )


def _history(state: State, seat: int | str | None) -> list[JSON]:
    if seat != ALL:
        return list(state.view(seat if isinstance(seat, int) else None).get("history") or [])
    views = {s: state.view(s).get("history") or [] for s in range(state.game.players)}
    public = state.view(None).get("history") or []
    return [views[e["seat"]][i] if e.get("seat") in views else e for i, e in enumerate(public)]


def _frame(state: State, seat: int | str | None) -> JSON:
    view = dict(state.view(seat if isinstance(seat, int) else None))
    view.pop("history", None)
    if seat == ALL:
        view["hands"] = [state.view(s).get("hand") or [] for s in range(state.game.players)]
    return view


def frames(record: Mapping[str, Any], seat: int | str | None) -> JSON:
    """The replay of a full ``record`` from ``seat``'s perspective (see the module);
    ``bad_record`` when the record cannot be replayed."""
    shots: list[JSON] = []
    try:
        game = _start(record)
        first = game.new_state(seed=record["seed"], deck=record.get("deck"))
        shots.append(_frame(first, seat))
        state = replay(record, lambda _i, _move, now: shots.append(_frame(now, seat)))
    except ApiError:
        raise
    except (RulesError, TypeError, ValueError, KeyError, AttributeError) as err:
        raise ApiError(
            "bad_record", _("this record cannot be replayed: {err}", err=str(err)[:300])
        ) from None
    return {
        "game": state.game.name,
        "title": type(state.game).title,
        "players": state.game.players,
        "options": state.game.options,
        "rules": state.game.rules,
        "seat": seat,
        "over": state.is_over,
        "outcome": state.outcome if state.is_over else None,
        "history": _history(state, seat),
        "frames": shots,
    }


def _start(record: Mapping[str, Any]) -> Game:
    """The game of a record (a record without its keys goes to :func:`tikki.core.replay`
    first, which names the first one missing)."""
    if (
        not isinstance(record, Mapping)
        or not all(k in record for k in ("game", "players", "options", "seed", "moves", "rules"))
        or not isinstance(record.get("options"), Mapping)
    ):
        replay(record)  # raises the RulesError naming what is missing
        raise RulesError(_("a record is a JSON object with game, players, options, seed, moves"))
    options = {k: v for k, v in record["options"].items() if k != "rules"}
    return load(record["game"], record["players"], rules=record["rules"], **options)


__all__ = ["ALL", "GZIP_OVER", "MAX_RECORD", "allowed", "answer", "frames", "parse_seat"]
