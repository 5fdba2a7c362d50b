"""The game modules, one per game; each registers its Game class with the core.

``tikki.games()`` is a function (:func:`tikki.core.games`, the registry listing) and this
package shares its name. ``tikki/__init__.py`` imports this package *before* it binds the
function, so the import system's "set the package as an attribute of its parent" happens
once, early, and importing a game module later (``import tikki.games.<game>``,
``from tikki.games import <game>``) leaves ``tikki.games`` the function. Reach the game
modules by importing them, not as attributes of ``tikki.games``.
"""
