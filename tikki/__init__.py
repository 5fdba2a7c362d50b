"""tikki: Myllymatti, Mattis and Mückenstich played exactly by their rules.

The public contract (``docs/design.md``); this example runs as a doctest:

>>> import tikki
>>> game = tikki.load("myllymatti", players=3, variant="koira")
>>> state = game.new_state(seed=7)
>>> while not state.is_over:
...     state.play(state.legal_moves()[0])
>>> print(state.outcome)
{'loser': 2, 'out_order': [0, 1], 'abandoned': False, 'returns': [0.5, 0.5, -1.0]}
>>> sorted(tikki.games())
['mattis', 'mueckenstich', 'myllymatti']
"""

# The package tikki.games first: its import sets the attribute ``tikki.games`` to the
# package, once; the function ``games`` bound below replaces it for good (see that package).
import tikki.games as _games_package  # noqa: F401
from tikki import bots, core
from tikki.core import (
    RULES_REVISION,
    RULES_REVISIONS,
    Game,
    IllegalMove,
    OptionSpec,
    RulesError,
    State,
    games,
    load,
    replay,
)

__all__ = [
    "COMPILED",
    "RULES_REVISION",
    "RULES_REVISIONS",
    "Game",
    "IllegalMove",
    "OptionSpec",
    "RulesError",
    "State",
    "bots",
    "games",
    "load",
    "replay",
]
COMPILED: bool = not core.__file__.endswith(".py")
"""Whether the engine runs compiled (``TIKKI_MYPYC=1 pip install .``, issue 17) or as pure
Python (the default): the same rules and results either way, only the speed differs."""
__version__ = "0.1.0"
"""The package version: the one place it is written (``pyproject.toml`` reads it from here)."""
