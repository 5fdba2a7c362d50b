"""The engine's two errors, at the bottom of tikki's modules (it imports none of them).

Both are :class:`ValueError`\\ s whose message says what was wrong and what would be legal
(docs/design.md: errors); :mod:`tikki.core` and the package ``tikki`` re-export them.
"""

from __future__ import annotations


class RulesError(ValueError):
    """A game, option, value, deck or record that the rules do not allow."""


class IllegalMove(ValueError):
    """A move that is malformed or not legal now; the state is left unchanged."""


__all__ = ["IllegalMove", "RulesError"]
