"""Deal seeds at the web table.

A table's seed drives its whole game: every deal and every later random event, and the
bots' seeds (:func:`tikki.server.botplay.bot_seed`).  Whoever knows it knows every hidden
card, so the server draws it with :data:`SEED_BITS` random bits from :mod:`secrets` (a
seated player cannot search the seeds from the cards he sees) and publishes it only when
the game is over.  A client may choose the seed only for a table whose seats are all bots,
where nobody has anything to hide.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence

from tikki.i18n import _
from tikki.server.errors import ApiError

SEED_BITS = 128
"""Random bits in a server-drawn seed."""
SEED_MAX = 2**SEED_BITS - 1
"""The largest seed (drawn or given)."""
SEED_DIGITS = len(str(SEED_MAX))
"""Decimal digits of the largest seed (39): the stored seed's width."""


def draw() -> int:
    """A fresh seed: :data:`SEED_BITS` random bits from the operating system."""
    return secrets.randbits(SEED_BITS)


def deal_seed(given: int | None, kinds: Sequence[str], client_seeds: bool = False) -> int:
    """The seed of a new table whose seats have ``kinds`` (``open``, ``bot``).

    ``given`` is the client's seed: accepted when every seat is a bot (or the server was
    started with ``--allow-client-seeds``), else :class:`ApiError` ``seed_not_allowed``.
    Without it, a fresh seed is drawn.
    """
    if given is None:
        return draw()
    if client_seeds or all(kind == "bot" for kind in kinds):
        return given
    raise ApiError(
        "seed_not_allowed",
        _(
            "a seed may be given only for a table whose seats are all bots: whoever knows "
            "the seed knows every hand; leave out seed and the server draws a secret one "
            "(published when the game is over)"
        ),
    )


__all__ = ["SEED_BITS", "SEED_DIGITS", "SEED_MAX", "deal_seed", "draw"]
