"""The conformance harness over every registered game, variant and player count: the kit
that plug-ins run too (:mod:`tikki.testing`), with tikki's own campaign size.

Each configuration a game declares (``Game.harness``) is played
``TIKKI_CONFORMANCE_GAMES`` times (150) with random legal moves, checked after every move
by the rules of :data:`tikki.testing.RULES` (``TIKKI_CONFORMANCE_DEEP``, 12, of them
deeply: every legal move, every view, the events, samples), replayed from its record and
its seed; then one seed one game, the hidden swap and clones.  A new game is played here
as it declares, with no line here (C-5: fewer than one in ten random games abandoned).
"""

from __future__ import annotations

import pytest

from tikki.testing import ConformanceSuite

pytestmark = [pytest.mark.engine, pytest.mark.newest, pytest.mark.compiled]


class TestEveryGame(ConformanceSuite):
    """Every registered game (``game = None``)."""
