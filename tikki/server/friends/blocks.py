"""What a block means outside the friends' own routes: a blocked account's chat is not
shown to the account that blocked it (nor the other way), and neither may join a table
the other sits at."""

from __future__ import annotations

import asyncio

from fastapi import Request

from tikki.i18n import _
from tikki.server.accounts import accounts_of
from tikki.server.errors import STATUS, ApiError
from tikki.server.friends.store import Friends

STATUS.update({"blocked": 403})


def friends_of(request: Request) -> Friends:
    """The app's :class:`~tikki.server.friends.store.Friends`."""
    friends: Friends = request.app.state.friends
    return friends


async def hidden_senders(request: Request, table_id: str, seat: int | None) -> set[str]:
    """The chat senders a reader does not see: the seats and accounts of those it blocked
    or that blocked it.  The reader is its seat's account, else the signed-in account of
    the request; a guest hides nothing."""
    friends = friends_of(request)
    seated = await asyncio.to_thread(friends.seated, table_id) if seat is not None else {}
    reader = seated.get(seat) if seat is not None else None
    if reader is None:
        account = await accounts_of(request).current(request)
        reader = None if account is None else account.id
    if reader is None:
        return set()
    shunned = await asyncio.to_thread(friends.shunned, reader)
    if not shunned:
        return set()
    if seat is None:
        seated = await asyncio.to_thread(friends.seated, table_id)
    hidden = {f"account:{other}" for other in shunned}
    hidden |= {f"seat:{s}" for s, other in seated.items() if other in shunned}
    return hidden


async def check_join(request: Request, table_id: str) -> None:
    """Refuse (``blocked``) a signed-in account's join at a table where an account it
    blocked, or one that blocked it, holds a seat."""
    account = await accounts_of(request).current(request)
    if account is None:
        return
    friends = friends_of(request)
    shunned = await asyncio.to_thread(friends.shunned, account.id)
    if not shunned:
        return
    seated = set((await asyncio.to_thread(friends.seated, table_id)).values()) & shunned
    for other in seated:
        mine, _theirs = await asyncio.to_thread(friends.blocks, account.id, other)
        if mine:
            raise ApiError(
                "blocked",
                _("you blocked a player at this table: unblock them first to sit here"),
            )
        raise ApiError("blocked", _("a player at this table has blocked you: you cannot sit here"))


__all__ = ["check_join", "friends_of", "hidden_senders"]
