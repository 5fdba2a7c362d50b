"""The engine core: errors, option specs, the Game/State contract, the registry, records.

Every part of tikki (bots, terminal, server, adapters) reaches the games only through the
names defined here (see ``docs/design.md``):

* :func:`load` makes an immutable :class:`Game` (name, players, options);
* :meth:`Game.new_state` makes a :class:`State`, the whole truth of one game;
* :meth:`State.view` projects what one seat may know; :meth:`Game.sample_state` goes back
  from such a view to a full state consistent with it (for search bots);
* :meth:`State.record` and :func:`replay` store and verify whole games.

Game modules register their Game subclass with :func:`register`.  A game module does no
I/O and uses no global randomness: a state owns a seeded ``random.Random``.

The names live in four modules, each importing only those below it: :mod:`.options`
(option specs), :mod:`.game` (the Game/State contract and what a game declares),
:mod:`.registry` (the games there are) and :mod:`.records` (replaying records).  Under
them are :mod:`tikki.errors`, :mod:`tikki.views`, :mod:`tikki.events` and
:mod:`tikki.i18n`, none of which imports the engine.
"""

from __future__ import annotations

from tikki.core.game import (
    DEFAULT_MAX_LENGTH,
    RECORD_FORMAT,
    RULES_REVISION,
    RULES_REVISIONS,
    VALUE_KINDS,
    BotParts,
    Game,
    HarnessParts,
    InteropParts,
    MoveGrammar,
    State,
    TableState,
    TerminalParts,
    WebParts,
    check_revision,
    describe_game,
    illegal,
    move_title,
    shedding_bounds,
    shedding_outcome,
)
from tikki.core.options import RULING_ID, OptionSpec, max_moves_option, split_rulings
from tikki.core.records import outcome_words, replay
from tikki.core.registry import (
    GAMES_GROUP,
    built_in,
    game_class,
    games,
    load,
    lobby_order,
    localized_games,
    memory_aid_titles,
    register,
    registered,
    tactics,
    view_types,
)
from tikki.errors import IllegalMove, RulesError
from tikki.views import JSON

__all__ = [
    "DEFAULT_MAX_LENGTH",
    "GAMES_GROUP",
    "JSON",
    "RECORD_FORMAT",
    "RULES_REVISION",
    "RULES_REVISIONS",
    "RULING_ID",
    "VALUE_KINDS",
    "BotParts",
    "Game",
    "HarnessParts",
    "IllegalMove",
    "InteropParts",
    "MoveGrammar",
    "OptionSpec",
    "RulesError",
    "State",
    "TableState",
    "TerminalParts",
    "WebParts",
    "built_in",
    "check_revision",
    "describe_game",
    "game_class",
    "games",
    "illegal",
    "load",
    "lobby_order",
    "localized_games",
    "max_moves_option",
    "memory_aid_titles",
    "move_title",
    "outcome_words",
    "register",
    "registered",
    "replay",
    "shedding_bounds",
    "shedding_outcome",
    "split_rulings",
    "tactics",
    "view_types",
]
