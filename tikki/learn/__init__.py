"""Learned play: policies and values trained on the search bots' self-play.

* :mod:`tikki.learn.data` — self-play positions (observation, legal mask, the search's
  visit distribution, the result), seeded, chunked ``.npz`` files, resumable;
* :mod:`tikki.learn.policy` — a model on the adapters' observations (Gymnasium,
  PettingZoo);
* :mod:`tikki.learn.train` — training in NumPy (no other library);
* :mod:`tikki.learn.reinforce` — policy-gradient fine-tuning against fixed opponents;
* ``python -m tikki.learn data|train|reinforce|eval GAME`` — the command line.

The models themselves are :mod:`tikki.inference`, a floor below the bots and this
package: a small MLP per game with a policy head (a softmax over the game's fixed action
ids, masked to the legal moves) and a value head (the seat's expected gain); inference is
pure NumPy, the weights ship as ``tikki/models/<game>.npz``.  The bots that use the models
are ``learned`` (:mod:`tikki.bots.learned`) and ``expert`` with ``priors=1`` /
``value=1``.  Everything here needs NumPy: ``pip install 'tikki[gym]'``.
"""
