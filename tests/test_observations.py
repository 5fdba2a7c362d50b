"""The fast observation encoders: nothing hidden, relative seats, ranges, names, docs."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import tikki
from tikki.interop.observations import (
    DOC_CONFIGS,
    MueckenstichEncoder,
    MyllymattiEncoder,
    ViewBasedEncoder,
    document,
    encoder_for,
)

pytestmark = pytest.mark.compiled

ROOT = Path(__file__).resolve().parent.parent
CONFIGS = [
    ("myllymatti", 2, {}),
    ("myllymatti", 3, {}),
    ("myllymatti", 4, {"variant": "koira"}),
    ("myllymatti", 3, {"runs": True, "take": "all"}),
    ("mattis", 2, {}),
    ("mattis", 3, {}),
    ("mattis", 4, {"war_match": "trick"}),
    ("mattis", 5, {}),
    ("mueckenstich", 3, {}),
    ("mueckenstich", 4, {}),
    ("mueckenstich", 6, {}),
]


def _positions(game: tikki.Game, games: int, seed: int) -> list[tikki.State]:
    """States at random points of random games (every 7th move, and the end)."""
    rng = random.Random(seed)
    out: list[tikki.State] = []
    for g in range(games):
        state = game.new_state(seed=seed * 1000 + g)
        k = 0
        while not state.is_over:
            if k % 7 == 3:
                out.append(state.clone())
            state.play(rng.choice(state.legal_moves()))
            k += 1
        out.append(state)
    return out


@pytest.mark.parametrize(("name", "players", "options"), CONFIGS)
def test_encoding_holds_only_what_the_seat_knows(
    name: str, players: int, options: dict[str, Any]
) -> None:
    """Worlds sampled from a seat's view differ in every card it cannot see, yet encode
    the same for it (and for the public observer)."""
    game = tikki.load(name, players, **options)
    enc = encoder_for(game)
    assert not isinstance(enc, ViewBasedEncoder)
    rng = random.Random(5)
    differed = 0
    for state in _positions(game, 3, players):
        for seat in range(players):
            mine = enc.encode(state, seat)
            public = enc.encode(state, None)
            for _ in range(2):
                world = game.sample_state(state.view(seat), rng)
                if world.reveal()["zones"] != state.reveal()["zones"]:
                    differed += 1
                np.testing.assert_array_equal(enc.encode(world, seat), mine)
                np.testing.assert_array_equal(enc.encode(world, None), public)
    assert differed > 20  # the test compares genuinely different worlds


@pytest.mark.parametrize(("name", "players", "options"), CONFIGS)
def test_ranges_relative_seats_and_no_constant_feature(
    name: str, players: int, options: dict[str, Any]
) -> None:
    game = tikki.load(name, players, **options)
    enc = encoder_for(game)
    vectors = []
    out = enc.empty()
    for state in _positions(game, 6, 11):
        for seat in range(players):
            vec = enc.encode(state, seat, out).copy()
            assert vec.dtype == np.float32 and vec.shape == (enc.size,)
            parts = enc.split(vec)
            for f in enc.features:
                block = parts[f.name]
                assert f.low <= block.min() and block.max() <= f.high, f.name
            if state.current_player is not None:
                assert parts["to_act"][(state.current_player - seat) % players] == 1
                assert parts["to_act"].sum() == 1
            vectors.append(vec)
    matrix = np.stack(vectors)
    for feature in enc.features:
        block = matrix[:, enc.slices[feature.name]]
        assert np.ptp(block) > 0, f"{name} {players}p: feature {feature.name} is constant"


def test_hand_block_is_the_hand() -> None:
    game = tikki.load("myllymatti", 3)
    state = game.new_state(seed=3)
    enc = MyllymattiEncoder(game)
    parts = enc.split(enc.encode(state, 1))
    hand = [enc.actions.cards[i] for i in np.flatnonzero(parts["hand"])]
    assert sorted(hand) == sorted(state.view(1)["hand"])
    assert parts["hand_sizes"].tolist() == pytest.approx([3 / 52] * 3)


def test_mueckenstich_counts_identical_cards_by_copies() -> None:
    game = tikki.load("mueckenstich", 4)
    enc = MueckenstichEncoder(game)
    for seed in range(40):
        state = game.new_state(seed=seed)
        hand = state.view(0)["hand"]
        if hand.count("MR") >= 2:
            parts = enc.split(enc.encode(state, 0))
            col = enc.actions.cards.index("MR")
            assert parts["hand"][col] == pytest.approx(hand.count("MR") / 3)
            return
    pytest.fail("no deal with two red mosquitoes in seat 0's hand in 40 seeds")


def test_the_view_encoder_serves_a_game_without_a_state_encoder() -> None:
    game = tikki.load("mattis", 3)
    assert not isinstance(encoder_for(game), ViewBasedEncoder)  # every game has its own
    enc = ViewBasedEncoder(game)
    state = game.new_state(seed=1)
    vec = enc.encode(state, 0)
    assert vec.shape == (enc.size,) and set(enc.split(vec)) == set(enc.slices)


def test_observation_doc_is_up_to_date() -> None:
    doc = (ROOT / "docs" / "observations.md").read_text(encoding="utf-8")
    assert doc == document(), (
        "docs/observations.md is stale: python -m tikki.interop.observations > docs/observations.md"
    )


def test_the_muckenstich_colour_one_hots_are_in_r_b_g_k_order_as_documented() -> None:
    """The docs said the led colour order was "E, G, R, S"; it is R, B, G, K."""
    game = tikki.load("mueckenstich", 4)
    enc = encoder_for(game)
    described = {f.name: f.meaning for f in enc.features}
    for name in ("led", "trump", "doubled", "dropped"):
        assert "R, B, G, K" in described[name], described[name]
    state, rng = game.new_state(seed=3), random.Random(3)
    checked: set[tuple[str, str]] = set()
    while not state.is_over and len(checked) < 8:
        view = state.view(0)
        parts = enc.split(enc.encode(state, 0))
        for name in ("led", "trump"):
            if view[name] is not None:
                assert int(np.argmax(parts[name])) == "RBGK".index(view[name])
                checked.add((name, view[name]))
        state.play(rng.choice(state.legal_moves()))
    assert len(checked) >= 4


def test_the_action_id_tables_cover_every_id_in_order() -> None:
    doc = (ROOT / "docs" / "observations.md").read_text(encoding="utf-8")
    for name, players, options in DOC_CONFIGS:
        space = encoder_for(tikki.load(name, players, **options)).actions
        section = doc[doc.index(f"## {name} ({len(space)} actions)") :]
        rows = [r for r in section.splitlines() if r.startswith("| ") and r[2].isdigit()]
        at = 0
        for row in rows:
            ids = row.split("|")[1].strip()
            first, _, last = ids.partition("–")
            if int(first) != at:
                break
            assert f"`{space.to_text(int(first))}`" in row
            at = int(last or first) + 1
        assert at == len(space), (name, at, len(space))
