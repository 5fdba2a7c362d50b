"""Terminal play: render a seat's view with rich and read moves from the keyboard.

Each game may have a *presenter* module ``tikki.tui.<game name>`` with

* ``render(view, names) -> RenderableType``: the table as that seat sees it;
* ``explain(view, move) -> str``: what a legal move would do (the ``help`` command);
* ``event(entry, names) -> str`` (optional): one history entry as a sentence;
* ``result(view, names) -> RenderableType`` (optional): the end of the game.

Games without one use :mod:`tikki.tui.generic`.  Presenters see only views, never states.
"""
