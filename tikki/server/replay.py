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

A replay is the server's most expensive answer (every position of the game), so
:class:`Replays` bounds it: a record of more than :data:`MAX_MOVES` moves is refused
(``422 too_long``; a larger body than :data:`MAX_RECORD` is ``413 too_large`` before it is
read), the answer is built in a worker process (:func:`render`, never on the event loop)
in the asking address's fair turn among the crowd's work, a finished table's answers (and
an uploaded record's) are kept in a bounded cache (:class:`Cache`), and each address may
have :data:`REPLAYS_PER_MINUTE` answers built a minute (a cached answer costs nothing).
"""

from __future__ import annotations

import gzip
import hashlib
import json
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from fastapi import Response

from tikki.core import JSON, Game, RulesError, State, load, replay
from tikki.i18n import _, current, use
from tikki.server.errors import STATUS, ApiError
from tikki.server.quota import RateLimiter

ALL = "all"
"""The ``seat`` that shows every hand (a finished game only)."""
MAX_RECORD = 65536
"""The largest record (bytes of JSON) a player may upload to replay."""
MAX_MOVES = 2000
"""The most moves a replayed record may have: the default end of the shedding games
(``max_moves``, RULINGS C-5); no game at its standard options lasts longer."""
REPLAYS_PER_MINUTE = 20.0
"""Replay answers one address may have built a minute (cached answers are free)."""
REPLAY_BURST = 10.0
"""Replay answers one address may have built at once before the rate applies."""
CACHE_BYTES = 32 * 1024 * 1024
"""The most bytes of answers the replay cache keeps."""
CACHE_ENTRIES = 256
"""The most answers the replay cache keeps."""
GZIP_OVER = 1024
"""Answers larger than this (bytes) go gzipped to a client that accepts it: a whole
game's positions are some 300–450 KiB of JSON, about 10 KiB gzipped."""


STATUS.update({"too_long": 422})

Built = tuple[bytes, bytes]
"""A replay's answer: its JSON and the same gzipped."""


def answer(built: Built, accept_encoding: str | None) -> Response:
    """The replay's JSON, gzipped when the client accepts it (``Accept-Encoding``)."""
    body, zipped = built
    headers = {"Vary": "Accept-Encoding"}
    if len(body) > GZIP_OVER and "gzip" in (accept_encoding or "").lower():
        body = zipped
        headers["Content-Encoding"] = "gzip"
    return Response(body, media_type="application/json", headers=headers)


def check_length(record: Mapping[str, Any]) -> None:
    """``too_long`` (422) for a record of more than :data:`MAX_MOVES` moves."""
    moves = record.get("moves") if isinstance(record, Mapping) else None
    if isinstance(moves, list) and len(moves) > MAX_MOVES:
        raise ApiError(
            "too_long",
            _(
                "this record has {n} moves: a replay shows at most {most} (the end of a game "
                "at its standard options)",
                n=len(moves),
                most=MAX_MOVES,
            ),
        )


def render(
    record: Mapping[str, Any], seat: int | str | None, extra: JSON, lang: str, upload: bool
) -> Built | tuple[str, str]:
    """The replay's answer built from ``record`` (in a worker process): the JSON of
    :func:`frames` with ``extra`` added and the same gzipped; ``(code, message)`` when it
    is refused (``upload``: an uploaded record, whose hidden cards :func:`allowed` checks
    once it is replayed)."""
    with use(lang):
        try:
            out = frames(record, seat)
            if upload:
                allowed(seat, bool(out["over"]), None)
        except ApiError as err:
            return err.code, err.message
    out.update(extra)
    body = json.dumps(out, separators=(",", ":")).encode()
    return body, gzip.compress(body, compresslevel=5) if len(body) > GZIP_OVER else body


class Cache:
    """Replay answers by key, the least recently used forgotten first, within
    ``entries`` answers and ``size`` bytes (an answer over a quarter of it is not kept)."""

    def __init__(self, entries: int = CACHE_ENTRIES, size: int = CACHE_BYTES) -> None:
        self.entries = entries
        self.size = size
        self.held = 0
        """Bytes held."""
        self._answers: OrderedDict[str, Built] = OrderedDict()

    def __len__(self) -> int:
        return len(self._answers)

    def get(self, key: str) -> Built | None:
        """The answer kept under ``key`` (now the most recently used), if any."""
        built = self._answers.get(key)
        if built is not None:
            self._answers.move_to_end(key)
        return built

    def put(self, key: str, built: Built) -> None:
        """Keep ``built`` under ``key``, forgetting the oldest answers beyond the bounds."""
        cost = _cost(built)
        if cost > self.size // 4 or key in self._answers:
            return
        self._answers[key] = built
        self.held += cost
        while len(self._answers) > self.entries or self.held > self.size:
            _key, old = self._answers.popitem(last=False)
            self.held -= _cost(old)


def _cost(built: Built) -> int:
    body, zipped = built
    return len(body) + (len(zipped) if zipped is not body else 0)


Runner = Callable[[str, str, Callable[..., Any], tuple[Any, ...]], Awaitable[Any]]
"""How :class:`Replays` runs a build: ``(address, key, fn, args)`` -> ``fn(*args)``, in a
worker process in the address's fair turn (the table manager's crowd pool)."""


class Replays:
    """Replay answers: bounded, built off the event loop, cached, limited per address."""

    def __init__(self, runner: Runner) -> None:
        self.runner = runner
        self.cache = Cache()
        self.per_address = RateLimiter(REPLAYS_PER_MINUTE, REPLAY_BURST)
        self.built = 0
        """Answers built (cache misses)."""

    async def build(
        self,
        address: str,
        key: str | None,
        record: Mapping[str, Any],
        seat: int | str | None,
        extra: JSON,
        upload: bool = False,
    ) -> Built:
        """The answer for ``record`` from ``seat``'s view (``key``: where the cache keeps
        it; ``None``: not kept).  ``too_long``, ``rate_limited``, or the build's own
        refusal (``bad_record``, ``not_finished``)."""
        check_length(record)
        if key is not None and (kept := self.cache.get(key)) is not None:
            return kept
        self.per_address.spend(
            address,
            lambda: _("your address may have {n:g} replays built a minute", n=REPLAYS_PER_MINUTE),
        )
        self.built += 1
        args = (dict(record), seat, extra, current(), upload)
        out: Built | tuple[str, str] = await self.runner(address, key or "upload", render, args)
        body, zipped = out
        if isinstance(body, str) or isinstance(zipped, str):
            raise ApiError(str(body), str(zipped))
        built = (body, zipped)
        if key is not None:
            self.cache.put(key, built)
        return built


def key_of(*parts: Any) -> str:
    """A cache key of ``parts`` (JSON-able), as a digest."""
    text = json.dumps(parts, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


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


__all__ = [
    "ALL",
    "GZIP_OVER",
    "MAX_MOVES",
    "MAX_RECORD",
    "Cache",
    "Replays",
    "allowed",
    "answer",
    "check_length",
    "frames",
    "key_of",
    "parse_seat",
    "render",
]
