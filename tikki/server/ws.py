"""The WebSocket ``/ws/tables/{id}``: its first message, ``hello``, carries the seat token
to play a seat (none to watch): the token never appears in a URL.

Each connection has a reader (this handler: client messages, in order) and a writer task
that sends the connection's outbox, so a slow client never holds up a table; one that
falls behind is dropped (:mod:`tikki.server.outbox`), and ``sync`` is rate-limited.

In a cluster, a socket of a table another process owns is relayed there
(:mod:`tikki.server.relay`): any process serves any socket, and the table stays put.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from typing import Any, NamedTuple

from fastapi import APIRouter, WebSocket
from starlette.types import Message
from starlette.websockets import WebSocketDisconnect
from websockets.asyncio.client import ClientConnection

from tikki import i18n
from tikki.i18n import _
from tikki.server import outbox, relay
from tikki.server.cluster import Hop
from tikki.server.errors import ApiError
from tikki.server.friends.presence import at_table
from tikki.server.notices import turns
from tikki.server.quota import CAP_RETRY, RateLimiter, Throttles, client_key, rate_limited
from tikki.server.tables import MOVED, Connection, Table, TableManager, storage
from tikki.server.tables.ownership import ROUTE_PAUSE
from tikki.server.tables.registry import table_moving

log = logging.getLogger("tikki.server")

CLOSE_CODES = {
    "bad_message": 4400,
    "bad_token": 4403,
    "unknown_table": 4404,
    "rate_limited": 4429,
    "unavailable": 4503,
    "moved": MOVED,
}
"""WebSocket close codes for a refused connection (docs/protocol.md); a refusal of
another code closes with :data:`REFUSED`."""
REFUSED = 4000
"""The close code of a refused connection whose error code has none of its own."""
IDLE = 4408
"""The close code of a watcher's connection that saw no table change and sent nothing
but pings for ``--watcher-idle`` seconds (the page connects again when its person acts)."""
TYPES = "move, hint, sync, ping, resign, hand_over or back"
HELLO = 'send {"type": "hello", "token": TOKEN} first to play a seat, {"type": "hello"} to watch'
HELLO_SECONDS = 30.0
"""How long a new connection may take to send its ``hello``."""
DELTA = "delta"
"""The ``hello``'s ``"history"`` that asks for history deltas (docs/protocol.md)."""
SYNC_BURST = 10
"""``sync`` messages a connection may send at once before the rate limit applies; one that
sends as many more while refused is closed with 1008."""


router = APIRouter()
"""The WebSocket route."""


@router.websocket("/ws/tables/{table_id}")
async def table_socket(websocket: WebSocket, table_id: str) -> None:
    """Play a seat (``hello`` with its token) or watch a table (``hello`` without); a
    signed-in browser's account is online at the table meanwhile."""
    async with at_table(websocket, table_id):
        await serve_socket(websocket, table_id)


async def serve_socket(websocket: WebSocket, table_id: str) -> None:
    """Accept, authenticate (``hello``), then read messages until the client goes away."""
    throttles: Throttles = websocket.app.state.throttles
    address = socket_address(websocket)
    await websocket.accept()
    try:
        throttles.open_socket(address)
    except ApiError as err:
        await _refuse(websocket, err)
        return
    try:
        await _serve(websocket, table_id, address)
    finally:
        throttles.close_socket(address)


def _relayed(websocket: WebSocket) -> bool:
    """Whether the socket comes relayed from another process of the cluster (it shows
    this process's secret)."""
    manager: TableManager = websocket.app.state.manager
    return manager.ownership.relayed(websocket.headers.get(relay.SECRET))


def socket_address(websocket: WebSocket) -> str:
    """The key of the client's limits: its address, or for a socket relayed by another
    process of the cluster the address that process saw."""
    if _relayed(websocket):
        forwarded = websocket.headers.get(relay.CLIENT, "")
        if 0 < len(forwarded) <= 64:
            return forwarded
    return client_key(websocket.client.host if websocket.client is not None else None)


async def _refuse(websocket: WebSocket, err: ApiError) -> None:
    """Send the refusal as an ``error`` message, then close with its code."""
    with contextlib.suppress(Exception):
        await websocket.send_text(json.dumps(err.message_json()))
        await websocket.close(CLOSE_CODES.get(err.code, REFUSED))


def _check_room(manager: TableManager, table: Table) -> None:
    """``rate_limited`` when the table has as many connections as it may."""
    most = manager.policy.watchers_per_table
    if len(table.connections) >= most:
        raise rate_limited(
            _("table {id} has {n} connections, its limit: watch it later", id=table.id, n=most),
            CAP_RETRY,
        )


async def _serve(websocket: WebSocket, table_id: str, address: str) -> None:
    """Authenticate (``hello``), then read messages until the client goes away (or
    relay them to the process of the cluster that owns the table)."""
    manager: TableManager = websocket.app.state.manager
    limit: int = websocket.app.state.max_message
    try:
        found = await _reach(websocket, manager, table_id, address)
        if not isinstance(found, Table):
            await relay.relay(websocket, found)
            return
        table = found
        _check_room(manager, table)
        said = await hello(websocket, limit)
        seat = table.seat_of(said.token)
        _check_room(manager, table)
    except WebSocketDisconnect:
        return
    except ApiError as err:
        await _refuse(websocket, err)
        return
    throttles: Throttles = websocket.app.state.throttles
    if seat is None:
        try:
            throttles.watch()
        except ApiError as err:
            await _refuse(websocket, err)
            return
    try:
        await _attend(websocket, manager, table, seat, limit, address, said.deltas)
    finally:
        if seat is None:
            throttles.unwatch()


async def _reach(
    websocket: WebSocket, manager: TableManager, table_id: str, address: str
) -> Table | ClientConnection:
    """The table, served here, or a socket to the process that owns it (the client's
    is relayed there).  An owner that cannot be reached (it stopped or died) is looked
    up again after pauses that double, for up to
    :data:`~tikki.server.tables.storage.OUTAGE_WAIT` seconds (the table's next owner,
    maybe this process), then ``unavailable``: the client connects again later."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + storage.OUTAGE_WAIT
    pause = storage.FIRST_PAUSE
    while True:
        found = await manager.route(table_id, _relayed(websocket))
        if not isinstance(found, Hop):
            return found
        try:
            return await relay.open_hop(found, table_id, websocket, address)
        except relay.HopFailed as err:
            log.warning("relaying a socket of table %s failed: %s", table_id, err,
                        extra={"table": table_id})  # fmt: skip
            if loop.time() + pause > deadline:
                raise table_moving(table_id) from None
        await asyncio.sleep(pause)
        pause = min(2 * pause, ROUTE_PAUSE)


async def _attend(
    websocket: WebSocket,
    manager: TableManager,
    table: Table,
    seat: int | None,
    limit: int,
    address: str,
    deltas: bool = False,
) -> None:
    """Serve an admitted connection (``deltas``: it takes history deltas): its writer,
    then its messages until it goes."""
    await turns.opened(websocket.app, table, seat)  # its "your move" notice is read
    conn = manager.connect(table, seat, i18n.current(), deltas)
    try:
        await manager.come_back(table, seat)  # a stand-in bot stops: the person is back
    except ApiError as err:
        conn.push(json.dumps(err.message_json()))
    writer = asyncio.create_task(
        outbox.write(outbox.peer(websocket), conn.outbox, outbox.aborter(websocket.scope))
    )
    session = Session(manager, table, conn, limit)
    session.throttles = websocket.app.state.throttles
    session.address = address
    try:
        while conn.close_code != outbox.TOO_SLOW:
            message = await session.receive(websocket)
            if message is None or message["type"] == "websocket.disconnect":
                break
            await session.handle(message.get("text"), message.get("bytes"))
    except WebSocketDisconnect:
        pass
    finally:
        manager.disconnect(table, conn)
        if conn.close_code in (outbox.TOO_SLOW, IDLE):  # let the writer close or drop it
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer, 2 * outbox.CLOSE_TIMEOUT)
        writer.cancel()
        for task in session.tasks:
            task.cancel()


class Hello(NamedTuple):
    """What a connection's ``hello`` said."""

    token: str | None
    """The seat's token (``None``: a spectator)."""
    deltas: bool = False
    """It said ``"history": "delta"``: its state messages carry only the history entries
    it was not sent yet, and ``history_from`` (docs/protocol.md)."""


async def hello(websocket: WebSocket, limit: int) -> Hello:
    """What the connection's first message, ``{"type": "hello", "token": T}``, said
    (token ``None``: a spectator); :class:`ApiError` for anything else.  A ``"lang"`` in
    it (``en``, ``fi``, ``de``) sets the connection's language; without one it is the
    upgrade request's (``?lang=``, ``Accept-Language``).  ``"history": "delta"`` asks for
    history deltas (any other value: whole histories, as without it)."""
    if "token" in websocket.query_params:
        raise ApiError("bad_token", _("never put the seat token in the URL: {hello}", hello=HELLO))
    try:
        message = await asyncio.wait_for(websocket.receive(), HELLO_SECONDS)
    except TimeoutError:
        raise ApiError(
            "bad_message",
            _("no hello within {seconds} s: {hello}", seconds=HELLO_SECONDS, hello=HELLO),
        ) from None
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    data = None
    if text is not None and len(text.encode()) <= limit:
        with contextlib.suppress(ValueError, RecursionError):
            data = json.loads(text)
    if not isinstance(data, dict) or data.get("type") != "hello":
        raise ApiError("bad_message", _("the first message must be a hello: {hello}", hello=HELLO))
    lang = data.get("lang")
    if lang is not None:
        chosen = i18n.known(lang) if isinstance(lang, str) else None
        if chosen is None:
            names = ", ".join(i18n.LANGUAGES)
            raise ApiError("bad_message", _("a hello's lang is one of {names}", names=names))
        i18n.activate(chosen)  # this connection's language from now on
    token = data.get("token")
    if token is not None and not isinstance(token, str):
        raise ApiError(
            "bad_token", _("a token is the text returned when you joined: {hello}", hello=HELLO)
        )
    return Hello(token, data.get("history") == DELTA)


class Session:
    """One connection's message handling: parse, check, dispatch, answer."""

    def __init__(self, manager: TableManager, table: Table, conn: Connection, limit: int) -> None:
        self.manager = manager
        self.table = table
        self.conn = conn
        self.limit = limit
        self.tasks: set[asyncio.Task[None]] = set()
        self.syncs = RateLimiter(manager.policy.sync_per_minute, SYNC_BURST)
        self.refused = 0
        self.throttles: Throttles = Throttles(manager.policy)
        """The address's hint limit (the app's, shared with HTTP, once :meth:`serve_socket`
        sets it)."""
        self.address = "unknown"
        self.spoke = time.monotonic()
        """When the client last sent a message other than ``ping``."""

    async def receive(self, websocket: WebSocket) -> Message | None:
        """The client's next message; ``None`` once a watcher has been idle (no table
        change, no message but ``ping``) for ``--watcher-idle`` seconds: it is closed
        with :data:`IDLE`.  A seated person's connection never idles out."""
        while True:
            left = self.idle_left()
            if left is not None and left <= 0:
                self.conn.close(IDLE)
                return None
            try:
                if left is None:  # a seat's connection: no timer
                    message = await websocket.receive()
                else:
                    message = await asyncio.wait_for(websocket.receive(), left)
            except TimeoutError:
                continue
            if not _is_ping(message.get("text")):
                self.spoke = time.monotonic()
            return message

    def idle_left(self) -> float | None:
        """Seconds until this watcher idles out (``None``: a seat's connection)."""
        if self.conn.seat is not None:
            return None
        since = max(self.spoke, self.conn.changed)
        return self.manager.policy.watcher_idle - (time.monotonic() - since)

    def send(self, message: dict[str, Any]) -> None:
        """Queue one message for this connection (states coalesce)."""
        self.conn.push(json.dumps(message), state=message.get("type") == "state")

    def error(self, code: str, message: str) -> None:
        """Queue an error message (with the table's seq)."""
        self.send(ApiError(code, message, self.table.seq).message_json())

    async def handle(self, text: str | None, data: bytes | None) -> None:
        """Handle one client message; every refusal is an ``error`` message."""
        size = len(data) if text is None and data is not None else len((text or "").encode())
        if size > self.limit:
            self.error(
                "too_large",
                _(
                    "the message has {size} bytes: send at most {limit}",
                    size=size,
                    limit=self.limit,
                ),
            )
            return
        if text is None:
            self.error(
                "bad_message", _("send text frames with a JSON object of type {types}", types=TYPES)
            )
            return
        parsed = _parse(text)
        if isinstance(parsed, str):
            self.error("bad_message", parsed)
            return
        kind = parsed["type"]
        if kind == "move":
            await self._move(parsed)
        elif kind == "hint":
            task = asyncio.create_task(self._hint())
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)
        elif kind == "sync":
            self._sync()
        elif kind in ("resign", "hand_over", "back"):
            await self._leave(kind, parsed)
        else:
            self.send({"type": "pong"})

    def _sync(self) -> None:
        wait = self.syncs.take("sync")
        if wait > 0:
            self.refused += 1
            if self.refused > SYNC_BURST:  # it ignores the refusals: drop it
                self.conn.close(outbox.TOO_SLOW)
                return
            err = rate_limited(
                _(
                    "send sync at most {sync_per_minute:g} times a minute (state "
                    "messages come by themselves)",
                    sync_per_minute=self.manager.policy.sync_per_minute,
                ),
                wait,
            )
            self.send(err.message_json())
            return
        self.refused = 0
        self.table.push_state(self.conn)

    async def _move(self, message: dict[str, Any]) -> None:
        move, seq = message.get("move"), message.get("seq")
        if not isinstance(move, str) or not move.strip():
            self.error("bad_message", _('a move message needs "move": a move text such as "7H"'))
            return
        if isinstance(seq, bool) or not isinstance(seq, int):
            self.error(
                "bad_message",
                _(
                    'a move message needs "seq": the state it was made against (now {seq})',
                    seq=self.table.seq,
                ),
            )
            return
        try:
            await self.manager.move(self.table, self.conn.seat, move, seq)
        except ApiError as err:
            self.send(err.message_json())
            if err.code == "stale":
                self.table.push_state(self.conn)

    async def _leave(self, kind: str, message: dict[str, Any]) -> None:
        """``resign``, ``hand_over`` (``seat``: the away person's) or ``back``."""
        seat = message.get("seat")
        if kind == "hand_over" and (isinstance(seat, bool) or not isinstance(seat, int)):
            self.error("bad_message", 'a hand_over message needs "seat": the away seat\'s number')
            return
        try:
            if kind == "resign":
                await self.manager.resign(self.table, self.conn.seat)
            elif kind == "hand_over":
                assert isinstance(seat, int)
                await self.manager.hand_to_bot(self.table, self.conn.seat, seat)
            elif not await self.manager.come_back(self.table, self.conn.seat):
                self.error("bad_message", "no bot plays your seat: there is nothing to take back")
        except ApiError as err:
            self.send(err.message_json())

    async def _hint(self) -> None:
        try:
            self.throttles.hint(self.address)
            move = await self.manager.hint(self.table, self.conn.seat, self.address)
        except ApiError as err:
            self.send(err.message_json())
            return
        self.send({"type": "hint", "move": move, "bot": self.manager.hint_bot})


def _is_ping(text: str | None) -> bool:
    """Whether a client message is a ``ping`` (it keeps no watcher's connection open)."""
    if text is None or len(text) >= 64 or ("ping" not in text and "\\u" not in text):
        return False  # only a text with "ping" in it (or escaped) can parse as a ping
    return _parse(text) == {"type": "ping"}


def _parse(text: str) -> dict[str, Any] | str:
    """The message as a dict with a known ``type``, or what is wrong with it."""
    try:
        data = json.loads(text)
    except ValueError as err:
        return _(
            "the message is not JSON ({error}): send a JSON object of type {types}",
            error=err,
            types=TYPES,
        )
    except RecursionError:
        return _(
            "the message nests too deeply: send a flat JSON object of type {types}", types=TYPES
        )
    if not isinstance(data, dict):
        return _("the message is not a JSON object: send an object of type {types}", types=TYPES)
    kind = data.get("type")
    if kind not in ("move", "hint", "sync", "ping", "resign", "hand_over", "back"):
        return _("unknown message type {kind!r}: the types are {types}", kind=kind, types=TYPES)
    return data


__all__ = [
    "CLOSE_CODES",
    "DELTA",
    "HELLO_SECONDS",
    "IDLE",
    "REFUSED",
    "Hello",
    "Session",
    "hello",
    "router",
    "serve_socket",
    "socket_address",
]
