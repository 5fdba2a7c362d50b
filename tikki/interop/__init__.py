"""Adapters that plug tikki's games into other projects' tools (optional extras).

* :mod:`tikki.interop.openspiel` — every game as an OpenSpiel Python game
  (``pip install tikki[openspiel]``);
* :mod:`tikki.interop.pettingzoo` — every game as a PettingZoo AEC environment
  (``pip install tikki[pettingzoo]``);
* :mod:`tikki.interop.encoding` — the fixed action ids and observation tensors both share.

The adapters are clients of the public contract (``docs/design.md``) only.  Nothing here is
imported by ``import tikki``: the core keeps no dependency on NumPy, OpenSpiel or
PettingZoo.
"""
