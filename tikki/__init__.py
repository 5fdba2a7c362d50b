"""tikki: card games played exactly by their rules; each game is a plug-in
(:func:`games` lists them, the README names them).

The public contract (``docs/design.md``); this example runs as a doctest on the game the
lobby offers first:

>>> import random
>>> import tikki
>>> name = next(n for n, info in tikki.games().items() if info["featured"])
>>> game = tikki.load(name, players=3)
>>> state, rng = game.new_state(seed=7), random.Random(7)
>>> while not state.is_over:
...     state.play(rng.choice(state.legal_moves()))
>>> print(state.outcome)
{'loser': 0, 'out_order': [2, 1], 'abandoned': False, 'returns': [-1.0, 0.5, 0.5]}
>>> len(tikki.games()) >= 3
True
"""

# The package tikki.games first: its import sets the attribute ``tikki.games`` to the
# package, once; the function ``games`` bound below replaces it for good (see that package).
import tikki.games as _games_package
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

core.registry.BUILT_IN.append(_games_package)  # a source tree never installed finds them

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
COMPILED: bool = not core.game.__file__.endswith(".py")
"""Whether the engine runs compiled (``TIKKI_MYPYC=1 pip install .``) or as pure
Python (the default): the same rules and results either way, only the speed differs."""
__version__ = "0.1.0"
"""The package version: the one place it is written (``pyproject.toml`` reads it from here)."""
