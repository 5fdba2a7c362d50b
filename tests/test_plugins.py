"""Games are plug-ins: found through the ``tikki.games`` entry-point group, tikki's
own three included, and the rest of the system reads what a game declares about itself
(memory aids, the kind of value, the phases the expert plays by rule, its rollout tactics)
instead of testing its name."""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Iterator
from dataclasses import replace
from importlib.metadata import EntryPoint, entry_points

import pytest
from typer.testing import CliRunner

import tikki
from tikki import core
from tikki.bots.expert import rule_phases, value_kind
from tikki.cli import app
from tikki.games.myllymatti import Myllymatti

pytestmark = pytest.mark.engine


class Plugged(Myllymatti):
    """A game from a plug-in: Myllymatti's rules under another name, with other facts."""

    name = "plugged"
    title = "Plugged"
    memory_aids = True
    value_kind = "points"
    bots = replace(Myllymatti.bots, rule_phases=frozenset({"collect"}))


def _point(name: str, value: str) -> EntryPoint:
    return EntryPoint(name=name, value=value, group=core.GAMES_GROUP)


@pytest.fixture
def plugins(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[EntryPoint]]:
    """Extra entry points of the group, loaded afresh; the registry is restored after."""
    extra: list[EntryPoint] = []
    real = list(entry_points(group=core.GAMES_GROUP))

    def fake(*, group: str) -> list[EntryPoint]:
        assert group == core.GAMES_GROUP
        return real + extra

    saved = dict(core.registry._REGISTRY)
    monkeypatch.setattr(core.registry, "entry_points", fake)
    core.registry._load_modules.cache_clear()
    yield extra
    core.registry._REGISTRY.clear()
    core.registry._REGISTRY.update(saved)
    core.registry._load_modules.cache_clear()


def _own(names: Iterable[str]) -> list[str]:
    """tikki's own games among ``names`` (a plug-in installed beside tikki left out)."""
    return sorted(n for n in names if core.built_in(n))


def test_the_three_games_register_through_the_entry_point_group() -> None:
    every = {p.name: p.value for p in entry_points(group=core.GAMES_GROUP)}
    points = {n: v for n, v in every.items() if v.startswith("tikki.")}
    assert points == {
        "myllymatti": "tikki.games.myllymatti:Myllymatti",
        "mattis": "tikki.games.mattis:Mattis",
        "mueckenstich": "tikki.games.mueckenstich:Mueckenstich",
    }
    assert _own(tikki.games()) == sorted(points)
    assert not hasattr(core, "GAME_MODULES")


def test_a_plug_in_game_is_found_loaded_and_played(plugins: list[EntryPoint]) -> None:
    plugins.append(_point("plugged", f"{__name__}:Plugged"))
    assert "plugged" in tikki.games()
    state = tikki.load("plugged", 3).new_state(seed=1)
    state.play(state.legal_moves()[0])
    assert tikki.replay(state.record()).view(0) == state.view(0)
    result = CliRunner().invoke(app, ["games"])
    assert result.exit_code == 0 and "Plugged" in result.output


def test_a_broken_plug_in_is_left_out_with_a_warning(plugins: list[EntryPoint]) -> None:
    plugins.append(_point("ghost", "tikki_no_such_module:Game"))
    plugins.append(_point("notagame", "tikki.core:RulesError"))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        names = sorted(tikki.games())
    assert _own(names) == ["mattis", "mueckenstich", "myllymatti"]
    assert "ghost" not in names and "notagame" not in names
    messages = [str(w.message) for w in caught]
    assert any("'ghost' (tikki_no_such_module:Game) did not load" in m for m in messages)
    assert any("'notagame' (tikki.core:RulesError) is not a Game class" in m for m in messages)


def test_games_declare_their_facts() -> None:
    facts = {
        name: (cls.memory_aids, cls.value_kind, cls.bots.rule_phases, cls.bots.tactics)
        for name, cls in ((n, core.game_class(n)) for n in _own(tikki.games()))
    }
    assert facts == {
        "mattis": (False, "not_loser", frozenset(), "tikki.games.mattis_tactics"),
        "mueckenstich": (
            True,
            "points",
            frozenset({"discard"}),
            "tikki.games.mueckenstich_tactics",
        ),
        "myllymatti": (False, "not_loser", frozenset(), "tikki.games.myllymatti_tactics"),
    }
    endgames = {
        n: (c.bots.endgame_phase, c.bots.endgame_hidden)
        for n, c in core.registered().items()
        if n in _own(core.registered())
    }
    assert endgames == {
        "myllymatti": ("shed", False),
        "mattis": ("shed", True),
        "mueckenstich": ("", False),
    }
    assert all(cls.value_kind in core.VALUE_KINDS for cls in map(core.game_class, facts))


def test_the_expert_and_the_analysis_read_the_declarations() -> None:
    plugged = Plugged(3)
    assert value_kind(plugged) == "points" and rule_phases(plugged) == {"collect"}
    assert value_kind(tikki.load("myllymatti", 3)) == "not_loser"
    assert core.tactics("myllymatti").__name__ == "tikki.games.myllymatti_tactics"


def test_the_lobby_learns_which_games_offer_memory_aids() -> None:
    """``tikki.games()`` (and so ``/api/games``, which the lobby reads) says it per game."""
    own = _own(tikki.games())
    assert {n: g["memory_aids"] for n, g in tikki.games().items() if n in own} == {
        "mattis": False,
        "mueckenstich": True,
        "myllymatti": False,
    }


def test_the_memory_aids_check_reads_the_declaration(plugins: list[EntryPoint]) -> None:
    """``--memory-aids`` is refused for a game that shows every card, and accepted for one
    that declares memory aids, whatever its name."""
    plugins.append(_point("plugged", f"{__name__}:Plugged"))
    runner = CliRunner()
    args = ["play", "--no-record", "--watch", "--seed", "1", "--memory-aids"]
    refused = runner.invoke(app, [*args[:1], "mattis", *args[1:]], env={"LANG": "C"})
    assert refused.exit_code == 2 and "--memory-aids" in refused.output
    taken = runner.invoke(app, [*args[:1], "plugged", *args[1:]], env={"LANG": "C"})
    assert "--memory-aids" not in taken.output and "Traceback" not in taken.output
