"""The rules the conformance kit checks, each with its name: a failure names its rule.

The texts are the kit's documentation (``docs/writing-a-game.md`` lists them): a game
that breaks one reads here what it must do instead.
"""

from __future__ import annotations

RULES: dict[str, str] = {
    "cards-conserved": (
        "every card of deck() is in exactly one zone of reveal()['zones'] after every move"
    ),
    "someone-acts": (
        "while the game is not over, current_player is a seat and legal_moves() is a "
        "non-empty list without repeats; once it is over, current_player is None, "
        "legal_moves() is [], phase is 'over' and the outcome has one return per seat"
    ),
    "refusals": (
        "play() refuses a text that is no move, and a move that is not legal now, with an "
        "IllegalMove that says why, and the state is unchanged (moves and reveal())"
    ),
    "legal-is-playable": "every move in legal_moves() is accepted by play() on a clone",
    "ends": (
        "a game of random legal moves ends within its max_moves option (5,000 moves "
        "without one), and fewer than one in ten of them are abandoned at the move cap"
    ),
    "no-leak": (
        "no seat's view (events included) names a card in reveal()['hidden'][seat], and "
        "the public view names no card hidden from every seat. reveal()'s hidden lists "
        "only what the seat has no way to name: leave out its own cards and any card "
        "already named in its view's history (a game dealt again each round must leave "
        "out the cards played in earlier rounds)"
    ),
    "view-shape": (
        "view(seat)['seat'] is seat and view(seat)['phase'] is state.phase; the seat to "
        "act sees legal_moves() in its view, every other seat sees []"
    ),
    "sample-agrees": (
        "sample_state(view(seat)) is a state whose view(seat) equals the view it came "
        "from, whose cards are conserved, and which plays on with legal moves"
    ),
    "draw-event": (
        "a 'draw' event's count is the cards drawn; its 'cards' are shown only in the "
        "drawer's view, and are then in the drawer's hand"
    ),
    "trick-event": (
        "a 'trick' event's cards are on its winner's pile in the view ('piles'), and "
        "'last_winner' (where the view has it) is the winner"
    ),
    "falls-event": "a 'falls' event's cards end the view's 'fallen' list, in order",
    "take-event": "a 'take' event's seat is the mover and its cards are in that seat's hand",
    "tie-event": "after a 'tie' event in the same phase, the tie's first seat acts",
    "trump-event": (
        "a 'trump' event's suit is the view's 'trump' after the move (unless the same "
        "move ends the round or the game)"
    ),
    "last-card-event": (
        "a 'last_card' event's seat and card are the view's 'aside_owner' (or "
        "'shown_owner') and 'shown_card'"
    ),
    "dreck-event": "a 'dreck' event's counts, given and cards are the view's 'dreck'",
    "phase-event": (
        "the last 'phase' event of a move names the phase the state is now in, and its "
        "'leader' is the seat to act next (declare phases where every seat acts at once "
        "in HarnessParts.leaderless_phases)"
    ),
    "hand-size": (
        "a move that names cards of the deck (joined by '+' or spaces) takes exactly those "
        "out of "
        "the mover's hand, and hands change otherwise only by 'draw' events (declare "
        "phases where hands change in other ways in HarnessParts.free_hand_phases)"
    ),
    "game-events": (
        "a finished game's history has exactly one 'over' event, on its last move, with "
        "the outcome; 'out' events follow outcome['out_order'] with places 1, 2, ...; "
        "'last_trick' is the last 'trick'/'falls'/'void_tie' event; 'round' events carry "
        "outcome['rounds'] and the last one's totals are outcome['scores']; private "
        "'cards' fields stand only in their owner's view"
    ),
    "after-over": "play() refuses every move once the game is over",
    "record-replays": (
        "state.record(), written as JSON and read back by tikki.replay(), gives the same "
        "game (equal reveal())"
    ),
    "seeded": (
        "the same seed and the same moves give the same game; seeds 1 and 2 give different deals"
    ),
    "seed-and-deck": (
        "a game started from a seed and a dealing order (new_state(seed=s, deck=d)) draws "
        "its random numbers exactly as one started from the seed alone: given its own "
        "dealing order, it is the same game"
    ),
    "hidden-swap": (
        "swapping two cards a seat cannot see changes nothing that seat sees, nor the "
        "states sample_state() draws for it"
    ),
    "clone-is-apart": (
        "playing a clone to its end (move by move, and by random_playout) leaves the "
        "original's reveal() and views as they were, and so does playing a clone of a "
        "sampled state"
    ),
}
"""Every rule of the kit by name, in the order it checks them."""


class ConformanceError(AssertionError):
    """A game broke a rule of the kit: the message names the rule and says what it asks."""

    def __init__(self, rule: str, detail: str) -> None:
        self.rule = rule
        """The rule's name, a key of :data:`RULES`."""
        super().__init__(f"[{rule}] {detail}\n  the rule: {RULES[rule]}")


def check(ok: object, rule: str, detail: str) -> None:
    """Raise :class:`ConformanceError` for ``rule`` with ``detail`` unless ``ok``."""
    if not ok:
        raise ConformanceError(rule, detail)
