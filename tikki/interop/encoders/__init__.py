"""Each game's state encoder, one module per game (NumPy, the ``gym`` extra).

A game names its encoder in its declaration (:attr:`tikki.core.InteropParts.encoder`,
``"module:Class"``); :func:`tikki.interop.observations.encoder_for` loads it, and a game
without one gets the generic :class:`~tikki.interop.observations.ViewBasedEncoder`.
"""
