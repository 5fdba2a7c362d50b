"""The end of a shedding game in the terminal (``tui.common.shed_result``, shared by the
two shedding games' presenters): the seats in the order they went out and the game's own
line for the loser, in the current language."""

from __future__ import annotations

import random

from rich.console import Console

import tikki
from tikki import i18n
from tikki.tui import mattis, myllymatti


def _over(game: str, seed: int) -> dict[str, object]:
    state = tikki.load(game, 3).new_state(seed=seed)
    rng = random.Random(seed)
    while not state.is_over:
        state.play(rng.choice(state.legal_moves()))
    view: dict[str, object] = state.view(0)
    return view


def _text(panel: object) -> str:
    console = Console(width=80, record=True, color_system=None)
    console.print(panel)
    return console.export_text()


def test_the_order_out_and_each_games_word_for_the_loser() -> None:
    names = ["Anna", "Ben", "Cid"]
    for module, line in ((mattis, "Loser: "), (myllymatti, "Myllymatti: ")):
        view = _over(module.__name__.rsplit(".", 1)[1], 4)
        out = _text(module.result(view, names))
        order: list[int] = view["out_order"]  # type: ignore[assignment]
        assert all(f"{i}. {names[s]}" in out for i, s in enumerate(order, 1)), out
        loser: int = view["loser"]  # type: ignore[assignment]
        assert line + names[loser] in out and "Game over" in out, out
    with i18n.use("fi"):
        out = _text(mattis.result(_over("mattis", 4), names))
    assert "Peli päättyi" in out and "Häviäjä: " in out, out
