"""Terminal play: render a seat's view with rich and read moves from the keyboard.

Each game may have a *presenter* module (``tikki.tui.<game name>`` for tikki's own, the
module a plug-in names in :attr:`tikki.core.TerminalParts.presenter`) that declares
``PRESENTER``, a :class:`tikki.tui.presenter.Presenter`: ``render(view, names)`` (the table
as that seat sees it) and ``explain(view, move)`` (what a legal move would do, for
``help``), and where the game needs them ``event``, ``result``, ``pile``, ``table_view``,
``round_scored`` and ``score_sheet`` (:class:`tikki.tui.presenter.Hooks` gives the
defaults).

Games without one use :mod:`tikki.tui.generic`, which draws any view from its common
keys.  Presenters see only views, never states.
"""
