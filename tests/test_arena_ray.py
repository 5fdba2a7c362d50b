"""The arena on Ray: the same seed gives the same results as --jobs 1."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import pytest
import ray
from typer.testing import CliRunner

from tikki import arena, bots
from tikki.cli import app
from tikki.core import Game


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield
    finally:
        ray.shutdown()


@pytest.mark.timeout(600)
def test_ray_results_equal_jobs_1(local_ray: None) -> None:
    spec = arena.ArenaSpec("myllymatti", 3, {}, ("heuristic", "random", "random"), 12, 5)
    seen: list[int] = []
    on_ray = arena.run(spec, ray="auto", on_result=lambda r: seen.append(r.index))
    assert sorted(seen) == list(range(12))
    plain = arena.run(spec, 1)
    key = [(r.index, r.outcome, r.seats, r.record) for r in on_ray]
    assert key == [(r.index, r.outcome, r.seats, r.record) for r in plain]


@pytest.mark.timeout(600)
def test_cli_arena_on_ray(local_ray: None) -> None:
    args = ["arena", "mueckenstich", "--bots", "heuristic,random", "-n", "4", "--seed", "2"]
    on_ray = CliRunner().invoke(app, [*args, "--ray", "auto"])
    plain = CliRunner().invoke(app, args)
    assert on_ray.exit_code == 0, on_ray.output
    rows = [next(x for x in r.output.splitlines() if "heuristic" in x) for r in (on_ray, plain)]
    assert rows[0].split()[:4] == rows[1].split()[:4]


@pytest.mark.timeout(600)
def test_a_bot_registered_in_the_driver_plays_on_ray(local_ray: None) -> None:
    """A bot registered in the driver was unknown in Ray workers ("no bot")."""

    class First:  # defined here: Ray's workers cannot import it, it travels by value
        name = "first_local"

        def __init__(self, seed: int | None = None) -> None:
            pass

        def choose(self, game: Game, view: Mapping[str, Any]) -> str:
            return str(view["legal_moves"][0])

    bots.register_bot("first_local", First)
    bots.register_bot("first_path", "tests._py_bots:FirstMove")
    try:
        spec = arena.ArenaSpec("myllymatti", 3, {}, ("first_local", "first_path", "random"), 6, 2)
        on_ray = arena.run(spec, ray="auto")
        plain = arena.run(spec, 1)
    finally:
        bots._FACTORIES.pop("first_local", None)
        bots._FACTORIES.pop("first_path", None)
    assert [r.error for r in on_ray] == [None] * 6
    key = [(r.index, r.outcome, r.record) for r in on_ray]
    assert key == [(r.index, r.outcome, r.record) for r in plain]
