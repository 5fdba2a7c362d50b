"""The features the two-phase shedding games' encoders share, in the order both lay them
out: what opens the observation (phase, turn, hand, sizes, stock), the table in the middle
(piles, the known hands, the trick, the play to beat, the leader) and what closes it
(fallen cards, who is out, moves played).  Each game's encoder puts its own features
between them; the layout is what trained models read, so the order stays."""

from __future__ import annotations

from tikki.interop.observations import Feature, card_feature


def opening(n: int, d: int) -> list[Feature]:
    """Phase, the seat to act, the hand, the hand sizes and the stock (``n`` seats, ``d``
    cards in the deck)."""
    return [
        Feature("phase", (2,), 0, 1, "one-hot: collect (phase 1), shed (phase 2)"),
        Feature("to_act", (n,), 0, 1, "one-hot: the relative seat to act"),
        card_feature("hand", 1, d, "the observer's hand"),
        Feature("hand_sizes", (n,), 0, 1, "cards in each relative seat's hand / 52"),
        Feature("stock_size", (1,), 0, 1, "cards in the stock / 52"),
    ]


def table(n: int, d: int, hands: str, trick: str, top: str) -> list[Feature]:
    """The piles, the other hands (``hands``: what the observer knows of them), the trick,
    the play to beat and the leader, with the game's own words for the last three."""
    return [
        card_feature("piles", n, d, "phase 1: each relative seat's pile"),
        card_feature("hands", n - 1, d, hands),
        card_feature("trick", n, d, trick),
        card_feature("top", 1, d, top),
        Feature("leader", (n,), 0, 1, "one-hot: the relative seat that led the trick"),
    ]


def closing(n: int, d: int) -> list[Feature]:
    """The fallen cards, the seats that are out and the moves played."""
    return [
        card_feature("fallen", 1, d, "phase 2: cards out of the game (fallen tricks)"),
        Feature("out", (n,), 0, 1, "relative seats that have shed every card"),
        Feature("moves", (1,), 0, 1, "moves played / max_moves"),
    ]


__all__ = ["closing", "opening", "table"]
