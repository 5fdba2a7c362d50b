"""The arena's Ray backend: games as Ray tasks on a local or existing cluster
(``pip install 'tikki[ray]'``; ``tikki arena … --ray local|auto|ADDRESS``).

It receives what it runs: :func:`tikki.arena.run` passes its spec, the function that plays
a chunk of game indices (:func:`tikki.arena.play_chunk`, the one ``--jobs`` uses) and how
to pack the driver's bots, so a seed gives the same results whatever the backend: every
game's deal and bot seeds come from the arena seed and the game's index, never from where
it runs.

``address``: ``"local"`` starts a Ray instance on this machine for the run (``num_cpus``
workers, default all cores) and stops it afterwards; ``"auto"`` joins the cluster this
machine belongs to (``ray start`` was run here); anything else is a Ray address
(``ray://head:10001``, ``head:6379``).  If this process already called ``ray.init``, that
Ray is used as it is.  Every node needs tikki installed, at the same version.  Bots
registered in the driver (``bots.register_bot``) go with each task, by value (Ray's
cloudpickle), so a bot class defined in the driver's script works on every node.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

from tikki.extras import require


class Spec(Protocol):
    """What a run needs of the arena's spec: how many games it plays."""

    @property
    def games(self) -> int:
        """The number of games, indexed from 0."""
        ...


class Result(Protocol):
    """What a run needs of a game's result: its index, to put the results in order."""

    @property
    def index(self) -> int:
        """The game's index."""
        ...


S = TypeVar("S", bound=Spec)
R = TypeVar("R", bound=Result)
B = TypeVar("B")


def run(
    spec: S,
    play_chunk: Callable[[S, Sequence[int], B], list[R]],
    pack_bots: Callable[[Callable[[Any], bytes]], B],
    address: str = "local",
    on_result: Callable[[R], None] | None = None,
    num_cpus: int | None = None,
) -> list[R]:
    """Play every game of ``spec`` as Ray tasks; results in game order.

    Each task calls ``play_chunk(spec, indices, bots)``, where ``bots`` is what
    ``pack_bots`` returns given Ray's pickler (the driver's own bots, checked to travel).
    """
    require("ray", "arena --ray")
    import ray

    # the driver's own bots, registered in each task (cloudpickle: by value from __main__)
    bots = pack_bots(ray.cloudpickle.dumps)
    started = False
    if not ray.is_initialized():
        kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
        if address == "local":
            kwargs["num_cpus"] = num_cpus
        else:
            kwargs["address"] = address
        ray.init(**kwargs)
        started = True
    try:
        resources = ray.cluster_resources()  # type: ignore[no-untyped-call]
        cpus = max(1, int(resources.get("CPU", 1)))
        size = max(1, min(50, spec.games // (cpus * 8)))
        remote = ray.remote(num_cpus=1)(play_chunk)
        pending = [
            remote.remote(spec, range(start, min(start + size, spec.games)), bots)
            for start in range(0, spec.games, size)
        ]
        results: list[R] = []
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for result in ray.get(done[0]):
                results.append(result)
                if on_result:
                    on_result(result)
    finally:
        if started:
            ray.shutdown()
    results.sort(key=lambda r: r.index)
    return results


__all__ = ["Result", "Spec", "run"]
