"""Myllymatti rules scenarios: one or more fixed-deck tests per ruling (RULINGS C-*, MM-*).

Only the public contract is used: ``new_state(deck=...)``, ``play``, ``legal_moves``,
``current_player``, ``phase``, ``view``, ``outcome``, ``is_over``, ``record``,
``tikki.replay`` and ``reveal`` (for where cards are).

Decks are built in dealing order (C-2).  :func:`scripted_deck` turns a phase-1 script,
``[(seat, card), (seat, "stock:7H"), ...]``, into the one deck that makes every scripted
play possible: a seat plays its cards in the order it received them (the three dealt
cards, then one drawn card after each hand play, MM-5), a ``stock:`` move turns the named
card, and the player who would draw the last stock card sets ``aside`` aside (MM-6).
:func:`play_script` then checks that the engine gives the turn to the scripted seat
before each move, so every script also pins who plays when (MM-2, MM-7, MM-8, MM-18).

:func:`sink_script` builds the long part of phase 1 cheaply: seat 0 beats seat 1 in duel
after duel (the same two keep playing, MM-7), so a scenario only spells out its last few
duels and the phase-2 hands that follow from them.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

import tikki
from tikki import IllegalMove, State

pytestmark = [pytest.mark.engine, pytest.mark.newest, pytest.mark.compiled]

RANKS = "23456789TJQKA"
SUITS = "SHDC"
CARDS = [r + s for s in SUITS for r in RANKS]
"""The 52 cards, by suit then rank: the filler order of :func:`deck_with`."""

Script = Sequence[tuple[int, str]]


# --- helpers ------------------------------------------------------------------------------


def rank(card: str) -> int:
    """Rank index of a card text (0 = two, 12 = ace)."""
    return RANKS.index(card[0])


def deck_with(placed: Mapping[int, str]) -> list[str]:
    """A complete deck with ``placed[i]`` at position ``i``; the rest in :data:`CARDS` order."""
    chosen = set(placed.values())
    assert len(chosen) == len(placed), "a card placed twice"
    assert all(0 <= i < 52 for i in placed)
    rest = iter(c for c in CARDS if c not in chosen)
    return [placed[i] if i in placed else next(rest) for i in range(52)]


def dealt(n: int, hands: Sequence[Sequence[str]], stock: Sequence[str] = ()) -> list[str]:
    """A deck dealing ``hands[s]`` to seat ``s`` (C-2) with ``stock`` first in the stock."""
    placed = {k * n + seat: c for seat, cards in enumerate(hands) for k, c in enumerate(cards)}
    placed.update({3 * n + i: c for i, c in enumerate(stock)})
    return deck_with(placed)


def scripted_deck(
    n: int,
    script: Script,
    keep: Mapping[int, Sequence[str]] | None = None,
    aside: str | None = None,
) -> list[str]:
    """The deck that lets ``script`` be played in phase 1 (see the module notes).

    ``keep[s]``: cards seat ``s`` still holds after the script (shown at the end, MM-9).
    """
    stock_len = 52 - 3 * n
    slots = {s: [s, s + n, s + 2 * n] for s in range(n)}
    demand: dict[int, list[str]] = {s: [] for s in range(n)}
    placed: dict[int, str] = {}
    used = 0
    for seat, move in script:
        if move.startswith("stock:"):
            assert stock_len - used >= 2, "stock needs two cards (MM-3)"
            placed[3 * n + used] = move[6:]
            used += 1
            continue
        demand[seat].append(move)
        if stock_len - used >= 2:
            slots[seat].append(3 * n + used)
            used += 1
        elif stock_len - used == 1:
            if aside is not None:
                placed[3 * n + used] = aside
            used += 1
    for seat, cards in (keep or {}).items():
        demand[seat].extend(cards)
    for seat in range(n):
        assert len(demand[seat]) <= len(slots[seat]), f"seat {seat} plays cards it never gets"
        placed.update(zip(slots[seat], demand[seat], strict=False))
    return deck_with(placed)


def play_script(state: State, script: Script) -> None:
    """Play ``script``, checking that the scripted seat is the one to act each time."""
    for i, (seat, move) in enumerate(script):
        where = f"script move {i + 1} {move!r}"
        assert state.current_player == seat, f"{where}: seat {state.current_player} to act"
        if move.startswith("stock:"):
            state.play("stock")
            turned = dict(state.view(None)["history"][-1])
            turned.pop("events", None)  # what the move did: checked by tests/test_events.py
            assert turned == {"seat": seat, "move": "stock", "card": move[6:]}, where
        else:
            state.play(move)


def sink_script(
    n: int, tail: Script, keep: Mapping[int, Sequence[str]] | None = None, aside: str = ""
) -> tuple[list[str], list[tuple[int, str]]]:
    """Seat 0 beats seat 1 in the first ``(53 - 3n) // 2`` duels, then ``tail`` is played.

    The aside falls inside the sink duels: seat 1 sets it aside with 2 or 4 players, seat
    0 with 3 (MM-6).  Returns the deck and the whole script.
    """
    k = (53 - 3 * n) // 2
    special = [c for _, c in tail] + [c for cs in (keep or {}).values() for c in cs] + [aside]
    assert len(set(special)) == len(special)
    pool = sorted((c for c in CARDS if c not in special), key=rank)
    assert len(pool) == 2 * k, f"the tail and keep must use {52 - 2 * k - 1} cards"
    low, high = pool[:k], pool[k:]
    script: list[tuple[int, str]] = []
    for hi, lo in zip(high, low, strict=True):
        script += [(0, hi), (1, lo)]
    script += tail
    return scripted_deck(n, script, keep, aside), script


def new(players: int, deck: Sequence[str], **options: Any) -> State:
    """A fresh state of Myllymatti dealt from ``deck``."""
    return tikki.load("myllymatti", players=players, **options).new_state(deck=list(deck))


def refused(state: State, move: str, *needles: str) -> str:
    """Assert ``move`` is refused, the message names ``needles`` and the legal moves, and
    the state is unchanged; return the message."""
    before = json.dumps(state.reveal(), sort_keys=True)
    legal = state.legal_moves()
    with pytest.raises(IllegalMove) as info:
        state.play(move)
    message = str(info.value)
    for needle in needles:
        assert needle in message, f"{needle!r} not in {message!r}"
    if legal:
        assert "Legal moves: " + ", ".join(legal) in message
    assert json.dumps(state.reveal(), sort_keys=True) == before, "a refused move changed state"
    assert state.legal_moves() == legal
    return message


def hand(state: State, seat: int) -> list[str]:
    """Seat ``seat``'s hand as that seat sees it."""
    return list(state.view(seat)["hand"])


def zones(state: State) -> dict[str, list[str]]:
    """Where every card is (``reveal``)."""
    return dict(state.reveal()["zones"])


def trick_plays(state: State) -> list[tuple[int, list[str]]]:
    """Phase-2 trick as ``(seat, cards)`` plays, bottom first."""
    return [(p["seat"], p["cards"]) for p in state.view(None)["trick"]["plays"]]


def by_deck(cards: Sequence[str]) -> list[str]:
    """``cards`` sorted like :data:`CARDS` (suit, then rank): the phase-2 hand order."""
    return sorted(cards, key=CARDS.index)


# --- positions used by several tests -------------------------------------------------------

# P3: three players.  Seat 0 beats seat 1 for 22 duels (seat 0 sets the aside, by default
# 5C, at move 43); then 0-1 (1 wins), 1-2 (2 wins), 2-0 (0 wins); seat 2 shows its last card.
P3_A, P3_B = "3D", "9C"  # duel 23: seat 0 plays 3D, seat 1 wins with 9C
P3_C, P3_D = "8C", "TC"  # duel 24: seat 1 plays 8C, seat 2 wins with TC
P3_F, P3_G = "2H", "3H"  # duel 25: seat 2 plays 2H, seat 0 wins with 3H
P3_E = "AD"  # seat 2's last card, shown (MM-9)
P3_ASIDE = "5C"  # clubs are trump


def p3_tail(a: str, b: str, c: str, d: str, f: str, g: str) -> list[tuple[int, str]]:
    """Duel 23 (0 v 1, 1 wins), duel 24 (1 v 2, 2 wins), duel 25 (2 v 0, 0 wins)."""
    return [(0, a), (1, b), (1, c), (2, d), (2, f), (0, g)]


def p3(
    a: str = P3_A,
    b: str = P3_B,
    c: str = P3_C,
    d: str = P3_D,
    e: str = P3_E,
    f: str = P3_F,
    g: str = P3_G,
    aside: str = P3_ASIDE,
    **options: Any,
) -> State:
    """Phase 2 with 3 players: seat 1 holds ``a b``, seat 2 ``c d e``, seat 0 the other 47
    (the aside included); seat 0 won the last duel and leads."""
    deck, script = sink_script(3, p3_tail(a, b, c, d, f, g), {2: [e]}, aside)
    state = new(3, deck, **options)
    play_script(state, script)
    assert state.phase == "shed" and state.current_player == 0
    hands = state.view(None)["hands"]
    assert hands[1] == by_deck([a, b]) and hands[2] == by_deck([c, d, e])
    assert len(hands[0]) == 47 and aside in hands[0]
    return state


# P4: four players.  Seat 0 beats seat 1 for 20 duels (seat 1 sets 9H aside at move 40);
# then 0-1 (1 wins), 1-2 (2 wins), 2-3 (3 wins), 3-0 (0 wins), 0-2 (2 wins: seat 1 has no
# cards), and seat 3 shows its last card.  Hearts are trump; seat 2 leads phase 2.
P4_TAIL = [
    (0, "3S"),
    (1, "8D"),  # seat 1 wins 3S 8D
    (1, "2D"),
    (2, "5S"),  # seat 2 wins 2D 5S
    (2, "4D"),
    (3, "7S"),  # seat 3 wins 4D 7S
    (3, "2C"),
    (0, "3C"),  # seat 0 wins 2C 3C
    (0, "JH"),
    (2, "AH"),  # seat 2 wins JH AH (its last card: the duel against seat 0 ends phase 1)
]
P4_KEEP = {3: ["KH"]}
P4_ASIDE = "9H"
P4_HANDS = {1: ["3S", "8D", "9H"], 2: ["2D", "5S", "JH", "AH"], 3: ["4D", "7S", "KH"]}


def p4(**options: Any) -> State:
    """Phase 2 with 4 players; hands :data:`P4_HANDS`, seat 0 the other 42; seat 2 leads."""
    deck, script = sink_script(4, P4_TAIL, P4_KEEP, P4_ASIDE)
    state = new(4, deck, **options)
    play_script(state, script)
    assert state.phase == "shed" and state.current_player == 2
    hands = state.view(None)["hands"]
    for seat, cards in P4_HANDS.items():
        assert hands[seat] == by_deck(cards)
    assert len(hands[0]) == 42
    return state


# P2: two players.  Seat 0 wins every duel (seat 1 sets the aside at move 46); seat 0 shows
# its last card.  Seat 1's phase-2 hand is the aside alone.
def p2(aside: str = "QH", shown: str = "KS", **options: Any) -> State:
    """Phase 2 with 2 players: seat 1 holds only the aside, seat 0 the other 51; 0 leads."""
    tail = [(0, "AS"), (1, "2S"), (0, "AD"), (1, "2D")]
    deck, script = sink_script(2, tail, {0: [shown]}, aside)
    state = new(2, deck, **options)
    play_script(state, script)
    return state


# --- common conventions ------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_c1_forehand_is_seat_0_and_leads(players: int) -> None:
    """C-1: seats 0..n-1; the dealer is seat n-1, so seat 0 (the forehand) acts first."""
    state = new(players, CARDS)
    assert state.current_player == 0 and state.phase == "collect"
    for seat in range(players):
        view = state.view(seat)
        assert view["seat"] == seat and view["to_act"] == 0
        assert (view["legal_moves"] != []) == (seat == 0)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_c2_mm1_deal_one_at_a_time_rest_is_stock(players: int) -> None:
    """C-2, MM-1: one card at a time clockwise from seat 0, three each; the rest is the
    stock in deck order, its first card drawn first."""
    deck = list(reversed(CARDS))
    state = new(players, deck)
    for seat in range(players):
        expected = [deck[seat], deck[seat + players], deck[seat + 2 * players]]
        assert sorted(hand(state, seat)) == sorted(expected)
    assert zones(state)["stock"] == deck[3 * players :]
    view = state.view(None)
    assert view["stock_size"] == 52 - 3 * players
    assert view["hand_sizes"] == [3] * players
    state.play(deck[0])
    assert sorted(hand(state, 0)) == sorted([deck[players], deck[2 * players], deck[3 * players]])


def test_c3_card_text_forgiving_input_canonical_output() -> None:
    """C-3: rank then suit, T for ten; input accepts 10H, lower case and spaces; every
    output (legal moves, history, record) is canonical."""
    deck = dealt(2, [["TH", "QS", "2C"], ["9D", "4H", "AC"]])
    state = new(2, deck)
    assert state.legal_moves() == ["2C", "TH", "QS", "stock"]
    state.play("10h")
    state.play(" 9d ")
    assert [(h["seat"], h["move"]) for h in state.view(None)["history"]] == [
        (0, "TH"),
        (1, "9D"),
    ]
    state.play("q s")
    assert state.moves == ["TH", "9D", "QS"]
    assert state.record()["moves"] == ["TH", "9D", "QS"]
    refused(state, "11h", "is not a move")
    refused(state, "1H", "is not a move")
    refused(state, "H4", "is not a move")
    refused(state, "4X", "is not a move")
    refused(state, "", "is not a move")
    refused(state, "QS", "QS is not in seat 1's hand")
    state.play("Stock")
    assert state.moves[-1] == "stock"


def test_c3_deck_in_forgiving_text_is_canonical() -> None:
    """C-3: a deck given as 10h / lower case is read as the canonical cards."""
    loose = [c.lower().replace("t", "10") for c in CARDS]
    state = new(3, loose)
    assert state.record()["deck"] == CARDS
    assert hand(state, 0) == ["2S", "5S", "8S"]


def test_c5_max_moves_abandons_with_no_loser_and_all_returns_minus_one() -> None:
    """C-5: the game is abandoned when it reaches max_moves: no loser, returns -1 for every
    seat, phase over, no moves; a move before the limit does not end it."""
    state = new(3, CARDS, max_moves=5)
    for _ in range(4):
        state.play(state.legal_moves()[0])
    assert not state.is_over and state.outcome is None
    state.play(state.legal_moves()[0])
    assert state.is_over and state.phase == "over" and state.current_player is None
    assert state.outcome == {
        "loser": None,
        "out_order": [],
        "abandoned": True,
        "returns": [-1.0, -1.0, -1.0],
    }
    assert state.legal_moves() == []
    refused(state, "stock", "over")
    assert state.view(1)["legal_moves"] == [] and state.view(1)["abandoned"] is True
    record = json.loads(json.dumps(state.record()))
    assert record["outcome"]["abandoned"] is True
    assert tikki.replay(record).outcome == state.outcome


def test_c5_abandoned_in_phase_2_keeps_who_went_out() -> None:
    """C-5 (with MM-11): every move of both phases counts; an abandoned game lists the
    seats already out but has no loser, and every return is -1."""
    full = p4()
    play_script(full, P4_SCENARIO[:12])
    moves = len(full.moves)
    assert full.view(None)["out_order"] == [1, 3] and not full.is_over
    state = p4(max_moves=moves)
    play_script(state, P4_SCENARIO[:12])
    assert state.outcome == {
        "loser": None,
        "out_order": [1, 3],
        "abandoned": True,
        "returns": [-1.0, -1.0, -1.0, -1.0],
    }


def test_c5_natural_end_on_last_allowed_move_keeps_result() -> None:
    """C-5: a game that ends naturally on its last allowed move keeps its natural result;
    one move fewer allowed and it is abandoned."""
    deck, script = koira_sweep()
    natural = new(3, deck, variant="koira")
    play_script(natural, script)
    assert natural.outcome is not None and natural.outcome["loser"] == 1
    count = len(natural.moves)
    exact = new(3, deck, variant="koira", max_moves=count)
    play_script(exact, script)
    assert exact.outcome == natural.outcome and exact.outcome["abandoned"] is False
    short = new(3, deck, variant="koira", max_moves=count - 1)
    play_script(short, script[:-1])
    assert short.is_over and short.outcome is not None
    assert short.outcome["abandoned"] is True and short.outcome["loser"] is None
    assert short.outcome["returns"] == [-1.0, -1.0, -1.0]


def test_c6_koira_preset_and_explicit_options_override_it() -> None:
    """C-6: variant koira presets duel=False, take=bottom, runs=True; an option given
    beside it wins; the play follows the resolved options."""
    koira = tikki.load("myllymatti", players=3, variant="koira")
    assert koira.options == {
        "variant": "koira",
        "take": "bottom",
        "runs": True,
        "duel": False,
        "trump_requires_void": False,
        "max_moves": 2000,
        "ranks": 13,
        "suits": 4,
        "hand": 3,
    }
    mixed = tikki.load("myllymatti", players=3, variant="koira", duel=True, take="all")
    assert mixed.options["duel"] is True and mixed.options["take"] == "all"
    assert mixed.options["runs"] is True and mixed.options["variant"] == "koira"
    deck = dealt(3, [["5S", "6S", "7S"], ["2H", "3H", "4H"], ["8D", "9D", "TD"]])
    everyone = koira.new_state(deck=deck)
    everyone.play("5S")
    everyone.play("2H")
    assert everyone.current_player == 2  # koira: every player plays to the trick
    duel = mixed.new_state(deck=deck)
    duel.play("5S")
    duel.play("2H")
    assert duel.current_player == 0  # duel=True beside the preset: seat 0 won the duel
    assert duel.view(None)["piles"][0] == ["5S", "2H"]


def test_c6_phase_is_over_when_game_ends() -> None:
    """C-6: when the game is over its phase is "over" (and stays so)."""
    state = p2()
    state.play("KS")
    state.play("QH")  # seat 1 beats with its only card, a trump, and goes out
    assert state.is_over and state.phase == "over"
    assert state.view(0)["phase"] == "over" and state.view(None)["to_act"] is None


# --- phase 1 --------------------------------------------------------------------------------


def test_mm2_forehand_duels_next_player_others_wait() -> None:
    """MM-2: a phase-1 trick is a duel: the forehand leads against the next player."""
    state = new(4, CARDS)
    trick = state.view(None)["trick"]
    assert trick["kind"] == "duel" and trick["round"] == [0, 1] and trick["leader"] == 0
    state.play(hand(state, 0)[0])
    assert state.current_player == 1
    assert state.view(2)["legal_moves"] == [] and state.view(3)["legal_moves"] == []


def test_mm3_stock_turns_top_card_into_the_duel() -> None:
    """MM-3: `stock` turns the top stock card face up into the duel; it counts like a
    played card (here it wins the duel for the seat that turned it)."""
    deck = dealt(2, [["2S", "3S", "4S"], ["KH", "5H", "6H"]], stock=["AD", "7C"])
    state = new(2, deck)
    state.play("stock")
    assert state.view(None)["trick"]["cards"] == [{"seat": 0, "card": "AD", "stock": True}]
    assert state.view(1)["history"] == [{"seat": 0, "move": "stock", "card": "AD"}]
    assert hand(state, 0) == ["2S", "3S", "4S"]  # MM-5: a stock play draws nothing
    state.play("KH")
    assert state.view(None)["piles"] == [["AD", "KH"], []]
    assert state.current_player == 0  # seat 0 won with the turned ace (MM-7)
    assert "7C" in hand(state, 1)  # seat 1 played KH from hand and drew (MM-5)


def test_mm3_stock_needs_at_least_two_cards() -> None:
    """MM-3: `stock` is legal while the stock holds two or more cards, never with one: the
    last stock card is always drawn (set aside, MM-6)."""
    deck, script = giant_kina()
    state = new(2, deck)
    play_script(state, script[:44])
    assert state.view(None)["stock_size"] == 2
    assert "stock" in state.legal_moves()
    play_script(state, script[44:45])
    assert state.view(None)["stock_size"] == 1
    assert "stock" not in state.legal_moves()
    refused(state, "stock", "1 card(s)", "at least two")


def test_mm4_higher_rank_wins_suits_do_not_matter_ace_high() -> None:
    """MM-4: the higher rank wins whatever the suits; ace is high, two is low."""
    deck = dealt(2, [["2S", "AH", "9C"], ["KS", "3D", "8S"]], stock=["4C", "5C", "6C", "7C"])
    state = new(2, deck)
    state.play("2S")
    state.play("3D")  # a three of another suit beats a two of spades
    assert state.view(None)["piles"] == [[], ["2S", "3D"]]
    assert state.current_player == 1  # the winner leads (MM-7)
    state.play("KS")
    state.play("AH")  # the ace beats the king
    assert state.view(None)["piles"] == [["KS", "AH"], ["2S", "3D"]]
    assert state.current_player == 0


def test_mm4_kina_same_two_replay_same_leader_winner_takes_all() -> None:
    """MM-4: equal ranks are a kina: the same two play again, the same player leading,
    until a round is unequal; the winner takes every card of every round."""
    deck = dealt(
        3,
        [["7S", "QS", "2C"], ["7H", "QH", "3C"], ["AS", "AH", "AD"]],
        stock=["4D", "5D", "6D", "8D", "9D", "TD"],
    )
    state = new(3, deck)
    state.play("7S")
    state.play("7H")
    assert state.current_player == 0  # kina: seat 0 leads again, seat 2 does not join
    assert state.view(None)["trick"]["round"] == [0, 1]
    assert [c["card"] for c in state.view(None)["trick"]["cards"]] == ["7S", "7H"]
    state.play("QS")
    state.play("QH")
    assert state.current_player == 0  # a second kina
    state.play("2C")
    state.play("3C")
    assert state.view(None)["piles"][1] == ["7S", "7H", "QS", "QH", "2C", "3C"]
    assert state.view(None)["trick"]["cards"] == []
    assert state.current_player == 1 and state.view(None)["trick"]["round"] == [1, 2]


def test_mm5_hand_play_draws_next_stock_card_stock_play_does_not() -> None:
    """MM-5: playing a hand card draws the next stock card at once (three in hand while
    the stock lasts); `stock` draws nothing."""
    deck = dealt(3, [["2S", "3S", "4S"], ["5S", "6S", "7S"], ["8S", "9S", "TS"]])
    stock = deck[9:]
    state = new(3, deck)
    state.play("2S")
    assert sorted(hand(state, 0)) == sorted(["3S", "4S", stock[0]])
    state.play("stock")  # seat 1 turns stock[1]
    assert sorted(hand(state, 1)) == ["5S", "6S", "7S"]
    last = state.view(None)["history"][-1]
    assert {k: v for k, v in last.items() if k != "events"} == {
        "seat": 1,
        "move": "stock",
        "card": stock[1],
    }
    assert state.view(None)["piles"][1] == ["2S", stock[1]]
    assert state.view(None)["stock_size"] == len(stock) - 2
    assert state.view(None)["hand_sizes"] == [3, 3, 3]


def test_mm6_last_stock_card_set_aside_unseen_then_trump_and_owners() -> None:
    """MM-6: whoever would draw the last stock card sets it aside: in no hand, pile, trick
    or view (not even its owner's), hidden from everyone; in phase 2 its suit is trump and
    it joins its owner's hand (MM-10)."""
    deck, script = sink_script(3, p3_tail(P3_A, P3_B, P3_C, P3_D, P3_F, P3_G), {2: [P3_E]}, "5C")
    state = new(3, deck)
    play_script(state, script[:42])
    assert state.view(None)["stock_size"] == 1 and state.view(None)["hand_sizes"] == [3, 3, 3]
    play_script(state, script[42:43])  # seat 0 plays and would draw the last card
    view = state.view(None)
    assert view["stock_size"] == 0 and view["hand_sizes"] == [2, 3, 3]
    assert view["aside_owner"] == 0 and view["aside_card"] is None and view["trump"] is None
    assert zones(state)["aside"] == ["5C"]
    for seat in range(3):
        assert "5C" in state.reveal()["hidden"][str(seat)]
        assert "5C" not in json.dumps(state.view(seat))
    assert "5C" not in json.dumps(state.view(None))
    play_script(state, script[43:])
    assert state.phase == "shed"
    view = state.view(1)
    assert view["trump"] == "C" and view["aside_card"] == "5C"
    assert "5C" in view["hands"][0] and zones(state)["aside"] == []


def test_mm7_winner_leads_against_next_player_from_him() -> None:
    """MM-7: the winner leads the next duel against the next player clockwise from him:
    seat 1 wins and duels seat 2, seat 2 wins and duels seat 0."""
    deck = dealt(
        3,
        [["2S", "3S", "4S"], ["9H", "2H", "3H"], ["KD", "QD", "8D"]],
        stock=["5C", "6C", "7C", "8C", "9C", "TC"],
    )
    state = new(3, deck)
    state.play("2S")
    state.play("9H")
    assert state.current_player == 1 and state.view(None)["trick"]["round"] == [1, 2]
    state.play("2H")
    assert state.current_player == 2
    state.play("KD")
    assert state.current_player == 2 and state.view(None)["trick"]["round"] == [2, 0]
    assert state.view(None)["piles"] == [[], ["2S", "9H"], ["2H", "KD"]]


def test_mm2_mm7_opponent_is_next_player_clockwise_with_cards() -> None:
    """MM-2, MM-7: each winner duels the next player clockwise from him who has cards; a
    seat without cards is passed over."""
    deck, script = sink_script(4, P4_TAIL, P4_KEEP, P4_ASIDE)
    state = new(4, deck)
    start = len(script) - len(P4_TAIL)
    play_script(state, script[:start])
    assert state.view(None)["trick"]["round"] == [0, 1]
    rounds = []
    for i in range(start, len(script), 2):
        play_script(state, script[i : i + 2])
        rounds.append(state.view(None)["trick"]["round"] if state.phase == "collect" else None)
    assert rounds == [[1, 2], [2, 3], [3, 0], [0, 2], None]
    assert state.view(None)["last_winner"] == 2


def test_mm7_winner_without_cards_lead_passes_clockwise() -> None:
    """MM-7: a winner with no cards left cannot lead: the lead passes to the next player
    clockwise with cards, who duels the next one clockwise from him."""
    tail = [(0, "3D"), (1, "9C"), (1, "8C"), (2, "7C"), (2, "2H"), (0, "3H")]
    deck, script = sink_script(3, tail, {2: ["AD"]}, "5C")
    state = new(3, deck)
    play_script(state, script[:-2])  # seat 1 won its duel with its last card
    view = state.view(None)
    assert view["hand_sizes"] == [1, 0, 2] and view["last_winner"] == 1
    assert view["piles"][1] == ["3D", "9C", "8C", "7C"]
    assert state.current_player == 2 and view["trick"]["round"] == [2, 0]
    play_script(state, script[-2:])
    assert state.phase == "shed"


def test_mm8_void_duel_returns_own_cards_incl_turned_stock_mm9_mm12_forehand() -> None:
    """MM-8: a kina whose player has no card is void at once: each moves the cards he put
    into it (turned stock cards included) onto his own pile.  MM-9: the last hand card is
    shown onto its owner's pile.  MM-12: no duel was won, so the forehand leads phase 2."""
    deck, script = giant_kina()
    state = new(2, deck)
    play_script(state, script)
    assert state.phase == "shed" and state.current_player == 0
    stock_0 = [m[6:] for s, m in script if s == 0 and m.startswith("stock:")]
    stock_1 = [m[6:] for s, m in script if s == 1 and m.startswith("stock:")]
    assert len(stock_0) == 23 and len(stock_1) == 22
    hands = state.view(None)["hands"]
    assert hands[0] == by_deck([*stock_0, "QD", "KS", "KD"])  # KD: shown (MM-9)
    assert hands[1] == by_deck([*stock_1, "QH", "QC", "KH", "KC"])  # KC: the aside
    assert state.view(None)["last_winner"] is None and state.view(None)["trump"] == "C"


def test_mm8_void_at_once_leader_without_cards_passes_lead() -> None:
    """MM-8: the void happens at once, before anyone plays again; its leader leads next,
    or (having no cards) the next player clockwise with cards."""
    tail = [(0, "3D"), (1, "9C"), (1, "8C"), (2, "8H"), (2, "2H"), (0, "3H")]
    deck, script = sink_script(3, tail, {2: ["AD"]}, "5C")
    state = new(3, deck)
    play_script(state, script[:-3])  # seat 1 leads its last card 8C
    assert state.current_player == 2 and state.view(None)["hand_sizes"] == [1, 0, 3]
    before = state.view(None)["piles"]
    play_script(state, script[-3:-2])  # seat 2 ties with 8H: the kina cannot go on
    view = state.view(None)
    assert view["phase"] == "collect" and view["trick"]["cards"] == []
    assert view["piles"][1] == [*before[1], "8C"] and view["piles"][2] == [*before[2], "8H"]
    assert view["last_winner"] == 1  # a void duel is won by nobody
    assert state.current_player == 2 and view["trick"]["round"] == [2, 0]
    play_script(state, script[-2:])
    assert state.phase == "shed" and state.current_player == 0  # seat 0 won the last duel


def test_mm9_duel_in_progress_runs_to_its_end() -> None:
    """MM-9: phase 1 ends only after a duel is decided: a player emptying his hand while
    leading does not end it, and the cards still held are shown onto the piles."""
    tail = [(0, "3D"), (1, "AD"), (1, "2D"), (0, "KD")]
    deck, script = sink_script(2, tail, {0: ["KS"]}, "QH")
    state = new(2, deck)
    play_script(state, script[:-1])  # seat 1 led its last card
    view = state.view(None)
    assert view["hand_sizes"] == [2, 0] and state.phase == "collect"
    assert state.current_player == 0
    play_script(state, script[-1:])
    assert state.phase == "shed"
    hands = state.view(None)["hands"]
    assert hands[1] == by_deck(["3D", "AD", "QH"])  # won duel 24, plus the aside
    assert "KS" in hands[0] and len(hands[0]) == 49  # KS shown onto seat 0's pile
    assert state.current_player == 0  # seat 0 won the last duel (MM-12)


def test_mm9_mm12_last_duel_winner_leads_phase_2_not_last_void() -> None:
    """MM-9, MM-12: phase 2 is led by the player who last won a duel."""
    state = p4()
    assert state.view(None)["last_winner"] == 2 and state.current_player == 2


def test_mm10_hands_public_aside_joins_owner_one_out_at_once() -> None:
    """MM-10: each hand is the pile (plus the aside for its owner); every hand is public
    to every seat; a player with no cards is out at once."""
    state = p3()
    for seat in (0, 1, 2, None):
        view = state.view(seat)
        assert view["hands"] == state.view(None)["hands"]
        if seat is not None:
            assert view["hand"] == view["hands"][seat]
    assert all(cards == [] for cards in state.reveal()["hidden"].values())
    assert state.view(None)["out_order"] == []


def test_mm10_seat_without_cards_is_out_at_once() -> None:
    """MM-10: a seat that ends phase 1 with no cards is out as phase 2 starts."""
    tail = [(0, "AS"), (1, "2S"), (0, "AD"), (1, "2D")]
    deck, script = sink_script(3, tail, {2: ["KS", "KH", "KD"]}, "QH")
    state = new(3, deck)
    play_script(state, script)
    view = state.view(None)
    assert state.phase == "shed" and view["hand_sizes"] == [49, 0, 3]
    assert view["out_order"] == [1] and state.current_player == 0
    state.play("2C")
    assert state.current_player == 2  # seat 1 is skipped (MM-16)


def test_mm10_mm11_several_out_at_once_in_seat_order_game_over() -> None:
    """MM-10, MM-11: several seats without cards are out together, listed in seat order
    (seat 2 ran out before seat 0 here); only one seat holds cards, so the game is over at
    once and he is the myllymatti."""
    deck, script = koira_sweep()
    state = new(3, deck, variant="koira")
    play_script(state, script)
    assert state.is_over and state.phase == "over"
    assert state.outcome == {
        "loser": 1,
        "out_order": [0, 2],
        "abandoned": False,
        "returns": [0.5, -1.0, 0.5],
    }
    assert state.view(None)["hands"][1] == CARDS


# --- phase 2: P4 scenario -----------------------------------------------------------------

P4_SCENARIO: list[tuple[int, str]] = [
    (2, "2D"),
    (3, "4D"),
    (0, "6D"),
    (1, "8D"),  # T1 falls at 4 plays, seat 1 leads
    (1, "3S"),
    (2, "5S"),
    (3, "7S"),
    (0, "9S"),  # T2 falls, seat 0 leads
    (0, "2H"),
    (1, "9H"),  # seat 1 plays its last card, a higher trump: out
    (2, "JH"),
    (3, "KH"),  # seat 3 out with the fourth play: the trick falls
    (0, "3H"),
    (2, "AH"),  # seat 2 out: only seat 0 holds cards
]


def test_mm15_trick_falls_at_player_count_fallen_cards_leave_game() -> None:
    """MM-15: a trick falls when it holds as many cards as there were players with cards
    at its first card; its cards leave the game; the player of its last card leads."""
    state = p4()
    play_script(state, P4_SCENARIO[:3])
    assert trick_plays(state) == [(2, ["2D"]), (3, ["4D"]), (0, ["6D"])]
    assert state.view(None)["trick"]["size"] == 4 and state.current_player == 1
    play_script(state, P4_SCENARIO[3:4])
    view = state.view(None)
    assert view["trick"]["plays"] == [] and view["fallen"] == ["2D", "4D", "6D", "8D"]
    assert zones(state)["fallen"] == ["2D", "4D", "6D", "8D"]
    assert not any(c in h for h in view["hands"] for c in ("2D", "4D", "6D", "8D"))
    assert state.current_player == 1


def test_mm15_mm16_count_fixed_when_players_go_out_leader_passes() -> None:
    """MM-15, MM-16: the fall count is fixed at the trick's first card even when a player
    goes out during it; a player out is skipped; if the last card's player is out, the
    next player clockwise with cards leads."""
    state = p4()
    play_script(state, P4_SCENARIO[:10])
    view = state.view(None)
    assert view["out_order"] == [1] and view["hand_sizes"][1] == 0
    assert view["trick"]["size"] == 4 and len(view["trick"]["plays"]) == 2
    assert state.current_player == 2  # three players left, two plays: not fallen
    play_script(state, P4_SCENARIO[10:12])
    view = state.view(None)
    assert view["out_order"] == [1, 3] and view["trick"]["plays"] == []
    assert state.current_player == 0  # seat 3 played the last card but is out
    state.play("3H")
    assert state.current_player == 2  # seats 1 and 3 are skipped


def test_mm15_leader_who_leads_his_last_card_is_counted() -> None:
    """MM-15, MM-16: the count is the number of players with cards when the first card was
    played: a leader who goes out with that card still counts."""
    state = p3()  # seat 1: 3D 9C; seat 2: 8C TC AD; clubs trump
    play_script(state, [(0, "2D"), (1, "3D"), (2, "AD")])  # falls on seat 2
    play_script(state, [(2, "8C"), (0, "take")])  # empty: seat 1 leads
    assert hand(state, 1) == ["9C"] and state.current_player == 1
    state.play("9C")
    view = state.view(None)
    assert view["out_order"] == [1] and view["trick"]["size"] == 3
    assert state.current_player == 2 and state.legal_moves() == ["TC", "take"]
    state.play("TC")
    assert state.outcome is not None
    assert state.outcome["loser"] == 0 and state.outcome["out_order"] == [1, 2]


def test_mm11_loser_is_last_holder_out_order_as_they_went_out() -> None:
    """MM-11: the game ends when at most one player holds cards: he is the myllymatti; the
    others rank in the order they went out."""
    state = p4()
    play_script(state, P4_SCENARIO)
    assert state.outcome == {
        "loser": 0,
        "out_order": [1, 3, 2],
        "abandoned": False,
        "returns": [-1.0, 1 / 3, 1 / 3, 1 / 3],
    }
    assert state.phase == "over" and state.current_player is None
    assert state.view(None)["loser"] == 0


def test_mm15_takes_lower_the_count() -> None:
    """MM-15: a take lowers the number of cards in the trick: it falls only when it holds
    the count again."""
    state = p4()
    play_script(state, [(2, "2D"), (3, "4D"), (0, "take")])
    assert trick_plays(state) == [(2, ["2D"])] and "4D" in hand(state, 0)
    assert state.current_player == 1
    play_script(state, [(1, "8D"), (2, "JH")])  # four cards played, three held
    assert trick_plays(state) == [(2, ["2D"]), (1, ["8D"]), (2, ["JH"])]
    assert state.view(None)["fallen"] == [] and state.current_player == 3
    play_script(state, [(3, "KH")])
    assert state.view(None)["fallen"] == ["2D", "8D", "JH", "KH"]
    assert trick_plays(state) == [] and state.current_player == 3


# --- phase 2: beating (MM-13) --------------------------------------------------------------


def test_mm13_beat_higher_same_suit_or_any_trump_else_take() -> None:
    """MM-13: on a non-trump: a higher card of its suit or any trump (even while holding
    the suit); a lower card of the suit or another suit is refused."""
    state = p3()  # clubs trump; seat 1 holds 3D 9C
    state.play("5D")
    assert state.legal_moves() == ["9C", "take"]
    refused(state, "3D", "must beat 5D", "higher diamond or a trump (C)", "or take")
    refused(state, "AD", "AD is not in seat 1's hand")
    state.play("9C")
    assert state.current_player == 2


def test_mm13_on_a_trump_only_a_higher_trump() -> None:
    """MM-13: on a trump only a higher trump beats: a lower trump or a higher card of the
    first card's suit does not."""
    state = p3()  # seat 2 holds 8C TC AD
    state.play("5D")
    state.play("9C")
    assert state.legal_moves() == ["TC", "take"]
    refused(state, "8C", "must beat 9C", "higher trump (C)")
    refused(state, "AD", "must beat 9C", "higher trump (C)")


def test_mm13_turn_comes_round_to_player_of_top_card() -> None:
    """MM-13: the player who played the top card is included when the turn comes round to
    him: he must beat his own card or take."""
    state = p3()
    play_script(state, [(0, "5D"), (1, "9C"), (2, "take")])
    assert trick_plays(state) == [(0, ["5D"])] and state.current_player == 0
    legal = state.legal_moves()
    assert legal[-1] == "take" and "4D" not in legal and "6D" in legal and "2C" in legal


def test_mm13_trump_requires_void_option() -> None:
    """MM-13 option trump_requires_void: a trump beats a non-trump only when the player
    holds none of its suit; a trump on a trump is unaffected."""
    state = p3(trump_requires_void=True)  # seat 1 holds 3D 9C
    state.play("5D")
    assert state.legal_moves() == ["take"]
    refused(state, "9C", "must beat 5D", "only when you hold none of its suit")
    void = p3(trump_requires_void=True)
    void.play("5S")  # seat 1 has no spade: the trump is allowed
    assert void.legal_moves() == ["9C", "take"]
    void.play("9C")
    assert void.legal_moves() == ["TC", "take"]  # seat 2: trump on trump as before


# --- phase 2: taking (MM-14) ---------------------------------------------------------------


def test_mm14_take_top_picks_up_last_card_turn_passes() -> None:
    """MM-14 take=top (default): the last card played goes to the taker's hand; the turn
    passes to the next player with cards, who must beat the new top card."""
    state = p3()
    play_script(state, [(0, "5D"), (1, "9C"), (2, "take")])
    assert hand(state, 2) == by_deck(["8C", "9C", "TC", "AD"])
    assert trick_plays(state) == [(0, ["5D"])]
    assert state.view(None)["trick"]["size"] == 3


def test_mm14_take_bottom_picks_up_first_card_still_in_trick() -> None:
    """MM-14 take=bottom: the taker picks up the bottom card still in the trick; the top
    card stays and must be beaten."""
    state = p3(take="bottom")
    play_script(state, [(0, "5D"), (1, "9C"), (2, "take")])
    assert hand(state, 2) == by_deck(["5D", "8C", "TC", "AD"])
    assert trick_plays(state) == [(1, ["9C"])]
    assert state.current_player == 0
    legal = state.legal_moves()
    assert "TC" not in legal and "JC" in legal and "AS" not in legal  # on 9C: higher trumps


def test_mm14_take_all_picks_up_trick_next_player_leads() -> None:
    """MM-14 take=all: the taker picks up the whole trick; it is empty, so the next player
    clockwise with cards leads a new trick."""
    state = p3(take="all")
    play_script(state, [(0, "5D"), (1, "9C"), (2, "take")])
    assert hand(state, 2) == by_deck(["5D", "8C", "9C", "TC", "AD"])
    assert trick_plays(state) == [] and state.current_player == 0
    assert "take" not in state.legal_moves()
    refused(state, "take", "nothing to take")


def test_mm14_empty_after_take_next_player_leads_new_trick() -> None:
    """MM-14: with take=top, taking the only card empties the trick: the next player leads
    a new trick, counted afresh (MM-15)."""
    state = p3()
    play_script(state, [(0, "5D"), (1, "take")])
    assert hand(state, 1) == by_deck(["3D", "5D", "9C"])
    assert trick_plays(state) == [] and state.current_player == 2
    assert "take" not in state.legal_moves()
    state.play("AD")
    assert trick_plays(state) == [(2, ["AD"])] and state.view(None)["trick"]["size"] == 3


def test_mm14_take_is_phase_2_only() -> None:
    """MM-14: `take` is a phase-2 move."""
    state = new(3, CARDS)
    refused(state, "take", "take is a phase-2 move")


# --- phase 2: runs (MM-17) -----------------------------------------------------------------


def runs_state(**options: Any) -> State:
    """P3 with runs: seat 1 holds 5S 6S, seat 2 7S 8S 9S, hearts trump (2H aside)."""
    return p3(a="5S", b="6S", c="7S", d="9S", e="8S", f="3D", g="4D", aside="2H", **options)


def test_mm17_runs_legal_written_low_to_high() -> None:
    """MM-17: with runs, a player may lead or beat with two or more consecutive cards of
    one suit, written low to high; a run beats when its lowest card beats."""
    state = runs_state(runs=True)
    lead = state.legal_moves()
    assert "2S+3S+4S" in lead and "2S+3S" in lead and "3S+4S" in lead
    assert "4S+5S" not in lead  # 5S is seat 1's
    assert "QS+KS+AS" in lead and "KS+AS" in lead
    refused(state, "AS+2S", "not a run")  # ace high only, no wrap
    refused(state, "KS+AS+2S", "not a run")
    refused(state, "2S+4S", "not a run")
    refused(state, "AS+2H", "not a run")
    state.play("3S+4S")
    assert state.legal_moves() == ["5S", "6S", "5S+6S", "take"]
    refused(state, "6S+5S", "not a run", "low to high")
    state.play("5s + 6s")
    assert trick_plays(state) == [(0, ["3S", "4S"]), (1, ["5S", "6S"])]
    assert state.legal_moves() == ["7S", "8S", "9S", "7S+8S", "7S+8S+9S", "8S+9S", "take"]


def test_mm17_run_texts_are_the_runs_of_the_hand_in_both_builds() -> None:
    """MM-17: the texts of a phase-2 hand's runs (``_run_texts``: a walk along the sorted
    hand compiled, a set interpreted) are those of ``_runs``, in its order, for random
    sorted hands and every ordered part of them as the runs' lowest cards."""
    module = sys.modules[tikki.load("myllymatti").new_state(seed=0).__module__]
    texts_of, runs_of = module._run_texts, module._runs
    card_text = module.CARD_TEXT
    rng = random.Random(17)
    checked = 0
    for _ in range(400):
        hand = sorted(rng.sample(range(52), rng.randint(1, 26)))
        for starts in (hand, [c for c in hand if rng.random() < 0.4], hand[-1:], []):
            want = ["+".join(card_text[c] for c in run) for run in runs_of(hand, starts)]
            assert texts_of(hand, starts) == want, (hand, starts)
            checked += len(want)
    assert checked > 1000  # runs were found, long ones included


def test_mm17_run_counts_as_one_play_for_the_fall() -> None:
    """MM-17 with MM-15: a run is one play: a 3-player trick falls at its third play,
    however many cards it holds."""
    state = runs_state(runs=True)
    state.play("2S+3S+4S")
    assert state.current_player == 1 and state.view(None)["trick"]["size"] == 3
    state.play("5S+6S")
    assert state.current_player == 2 and len(trick_plays(state)) == 2
    assert state.view(None)["out_order"] == [1]  # seat 1 went out with its run
    state.play("7S+8S")
    assert state.view(None)["fallen"] == ["2S", "3S", "4S", "5S", "6S", "7S", "8S"]
    assert trick_plays(state) == [] and state.current_player == 2


def test_mm17_take_top_takes_highest_card_of_top_play() -> None:
    """MM-17 take=top: take picks up the highest card of the top play; the rest of the run
    stays one play and the next player must beat its (new) highest card."""
    state = runs_state(runs=True)
    play_script(state, [(0, "2S+3S+4S"), (1, "take")])
    assert trick_plays(state) == [(0, ["2S", "3S"])] and "4S" in hand(state, 1)
    play_script(state, [(2, "7S"), (0, "take")])
    assert trick_plays(state) == [(0, ["2S", "3S"])] and "7S" in hand(state, 0)
    legal = state.legal_moves()  # seat 1 must beat 3S, the highest card left in the run
    assert legal == ["4S", "5S", "6S", "4S+5S", "4S+5S+6S", "5S+6S", "take"]
    play_script(state, [(1, "4S+5S")])
    assert state.view(None)["fallen"] == [] and state.current_player == 2
    play_script(state, [(2, "8S+9S")])  # the third play: the cut run counted as one
    assert state.view(None)["fallen"] == ["2S", "3S", "4S", "5S", "8S", "9S"]
    assert state.view(None)["out_order"] == [2] and state.current_player == 0


def test_mm17_take_bottom_takes_lowest_card_of_bottom_play() -> None:
    """MM-17 take=bottom: take picks up the lowest card of the bottom play; it stays one
    play while it has a card."""
    state = runs_state(runs=True, take="bottom")
    play_script(state, [(0, "2S+3S+4S"), (1, "5S+6S"), (2, "take")])
    assert trick_plays(state) == [(0, ["3S", "4S"]), (1, ["5S", "6S"])]
    assert "2S" in hand(state, 2) and state.current_player == 0
    legal = state.legal_moves()  # seat 0 must beat 6S, the top play's highest card
    assert "TS" in legal and "AH" in legal and "6D" not in legal
    play_script(state, [(0, "take"), (2, "take")])  # seat 1 is out: seat 2 follows seat 0
    assert trick_plays(state) == [(1, ["5S", "6S"])]  # 3S then 4S taken: the play is gone
    assert state.view(None)["trick"]["size"] == 3  # still the same trick (MM-15)
    assert "3S" in hand(state, 0) and {"2S", "4S"} <= set(hand(state, 2))


def test_mm17_take_all_takes_every_card() -> None:
    """MM-17 take=all: take picks up every card of every play."""
    state = runs_state(runs=True, take="all")
    play_script(state, [(0, "2S+3S+4S"), (1, "5S+6S"), (2, "take")])
    assert trick_plays(state) == []
    assert hand(state, 2) == by_deck(["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S"])
    assert state.current_player == 0


def test_mm17_runs_off_by_default_and_never_in_phase_1() -> None:
    """MM-17: without option runs a run is refused; runs are never phase-1 moves."""
    state = runs_state()
    assert all("+" not in m for m in state.legal_moves())
    refused(state, "2S+3S", "runs are not played here")
    koira = new(3, CARDS, variant="koira")
    assert all("+" not in m for m in koira.legal_moves())
    refused(koira, "2S+5S", "runs are not played here")


def test_mm17_trump_run_beats_non_trump_and_respects_trump_requires_void() -> None:
    """MM-17, MM-13: a run of trumps beats a non-trump; with trump_requires_void it needs
    the player to hold none of the led suit."""
    cards = dict(a="2H", b="3H", c="4D", d="5D", e="6D", f="3C", g="4C", aside="7H")
    state = p3(runs=True, **cards)  # seat 1: 2H 3H (trumps)
    state.play("2S")
    assert state.legal_moves() == ["2H", "3H", "2H+3H", "take"]
    strict = p3(runs=True, trump_requires_void=True, **cards)
    strict.play("2S")
    assert strict.legal_moves() == ["2H", "3H", "2H+3H", "take"]  # void in spades
    state.play("2H+3H")
    assert state.current_player == 2 and state.legal_moves() == ["take"]


# --- koira (MM-18) --------------------------------------------------------------------------


def test_mm18_everyone_plays_highest_wins_all_and_leads() -> None:
    """MM-18: with duel=False every player plays to each trick, clockwise from the leader;
    the highest wins all and leads the next trick."""
    deck = dealt(3, [["5S", "2C", "3C"], ["9H", "4C", "5C"], ["7D", "6C", "7C"]])
    state = new(3, deck, duel=False)
    assert state.view(None)["trick"]["round"] == [0, 1, 2]
    play_script(state, [(0, "5S"), (1, "9H"), (2, "7D")])
    assert state.view(None)["piles"] == [[], ["5S", "9H", "7D"], []]
    assert state.current_player == 1 and state.view(None)["trick"]["round"] == [1, 2, 0]


def test_mm18_kina_among_tied_only_in_play_order() -> None:
    """MM-18: only the players tied for the highest rank hold the kina, in play order
    (here seat 2 before seat 0, the trick being led by seat 1)."""
    deck = dealt(
        3, [["8S", "KH", "2C"], ["9H", "3C", "4C"], ["7D", "KS", "5C"]], stock=["AS", "AH"]
    )
    state = new(3, deck, variant="koira")
    play_script(state, [(0, "8S"), (1, "9H"), (2, "7D")])  # seat 1 wins and leads
    play_script(state, [(1, "3C"), (2, "KS"), (0, "KH")])
    view = state.view(None)
    assert view["trick"]["round"] == [2, 0] and state.current_player == 2
    play_script(state, [(2, "5C"), (0, "2C")])
    assert state.view(None)["piles"][2] == ["3C", "KS", "KH", "5C", "2C"]
    assert state.current_player == 2


def test_mm18_void_trick_returns_every_players_cards_leader_leads() -> None:
    """MM-18: a kina that cannot go on is void: every player (the untied one too) moves
    his own cards of the trick onto his pile; the void trick's leader leads next."""
    deck, script = koira_void()
    state = new(3, deck, variant="koira")
    play_script(state, script[:47])  # the round 45-47: seats 0 and 1 tie with kings
    assert state.view(None)["trick"]["round"] == [0, 1] and state.current_player == 0
    piles = state.view(None)["piles"]
    play_script(state, script[47:49])  # tie again: seat 1 has no card, the kina is void
    view = state.view(None)
    assert view["piles"][0] == [*piles[0], "KS", "QS"]
    assert view["piles"][1] == [*piles[1], "KH", "QH"]
    assert view["piles"][2] == [*piles[2], "3D"]
    assert view["hand_sizes"] == [1, 0, 1] and view["trick"]["cards"] == []
    assert state.current_player == 0 and view["trick"]["round"] == [0, 2]
    play_script(state, script[49:])
    assert state.phase == "shed" and state.current_player == 0


def test_mm18_duel_false_alone_keeps_other_defaults() -> None:
    """MM-18 option duel=False alone: everyone plays, but take stays top and runs off."""
    game = tikki.load("myllymatti", players=4, duel=False)
    assert game.options["take"] == "top" and game.options["runs"] is False
    state = game.new_state(deck=CARDS)
    for seat in range(4):
        assert state.current_player == seat
        state.play(hand(state, seat)[0])
    assert state.view(None)["trick"]["cards"] == []


# --- phase-1 scripts ------------------------------------------------------------------------


def giant_kina() -> tuple[list[str], list[tuple[int, str]]]:
    """2 players, one duel for all of phase 1: every round ties (both turn stock cards of
    one rank), then hand cards; seat 1 runs out in a kina: void (MM-8)."""
    pairs = [r + s for r in "23456789TJA" for s in SUITS]  # 44 cards, in rank pairs
    script = [(i % 2, "stock:" + c) for i, c in enumerate(pairs)]
    script += [(0, "stock:QS"), (1, "QH"), (0, "QD"), (1, "QC"), (0, "KS"), (1, "KH")]
    deck = scripted_deck(2, script, keep={0: ["KD"]}, aside="KC")
    return deck, script


def koira_sweep() -> tuple[list[str], list[tuple[int, str]]]:
    """Koira, 3 players: seat 1 wins every trick (and sets the aside, move 43); all run
    out together, seat 2 first in play order."""
    by_rank = sorted(CARDS, key=rank)
    low, aside, high = by_rank[:34], by_rank[34], by_rank[35:]
    script: list[tuple[int, str]] = []
    order = [0, 1, 2]
    lows, highs = iter(low), iter(high)
    for _ in range(17):
        script += [(s, next(highs) if s == 1 else next(lows)) for s in order]
        order = [1, 2, 0]
    return scripted_deck(3, script, aside=aside), script


def koira_void() -> tuple[list[str], list[tuple[int, str]]]:
    """Koira, 3 players: seat 0 wins every trick but one; after a two-player kina early on,
    seat 1 sets the aside (move 43); the round 45-47 is a kina of seats 0 and 1 that
    cannot go on (seat 1 runs out): void; seat 0 then leads the last trick against seat 2."""
    special = ["AS", "AH", "2S", "KS", "KH", "3D", "QS", "QH", "AD", "2D", "5C"]
    pool = sorted((c for c in CARDS if c not in special), key=rank)
    lows, highs = iter(pool[:27]), iter(pool[27:])
    script = [(0, "AS"), (1, "AH"), (2, "2S"), (0, next(highs)), (1, next(lows))]
    while len(script) < 44:
        script += [(0, next(highs)), (1, next(lows)), (2, next(lows))]
    script = script[:44]
    script += [(0, "KS"), (1, "KH"), (2, "3D"), (0, "QS"), (1, "QH"), (0, "AD"), (2, "2D")]
    return scripted_deck(3, script, aside="5C"), script


def test_mm1_research_hand_and_short_deck_deal_by_the_same_rule() -> None:
    """MM-1 deals three each; the research options (``variant=mini``: two suits of two
    ranks, ``hand=1``) deal one each by the same rule, the rest is the stock, and a deck
    too small to keep a stock is refused."""
    game = tikki.load("myllymatti", players=2, variant="mini")
    assert sorted(game.deck()) == sorted(["AS", "KS", "AH", "KH"])
    state = game.new_state(deck=["KH", "AS", "KS", "AH"])
    assert hand(state, 0) == ["KH"] and hand(state, 1) == ["AS"]
    assert zones(state)["stock"] == ["KS", "AH"]
    assert state.view(None)["hand_sizes"] == [1, 1]
    with pytest.raises(tikki.RulesError, match="too small for 4 players"):
        tikki.load("myllymatti", players=4, variant="mini")


@pytest.mark.parametrize(
    "options",
    [{}, {"take": "all"}, {"take": "bottom"}, {"variant": "koira"}, {"runs": True}],
)
def test_view_hand_in_its_order_in_every_position(options: dict[str, Any]) -> None:
    """Every seat's view lists its hand, the cards ``reveal()`` puts there, in phase 1's
    order (rank, then suit) until a trump is turned, then by suit and rank: in every
    position of random games, and in the views of states sampled from a view (the view
    reads phase 2's hands as kept, in order, without sorting them, and the seat to act's
    from its legal moves where they begin with its hand)."""
    import random

    from tikki.cards import RANK_OF, SUIT_OF, TEXT_CARD

    def rank_first(text: str) -> tuple[int, int]:
        return (RANK_OF[TEXT_CARD[text]], SUIT_OF[TEXT_CARD[text]])

    game = tikki.load("myllymatti", players=3, **options)
    for seed in range(1, 13):
        state, rng = game.new_state(seed=seed), random.Random(seed)
        while not state.is_over:
            zones = state.reveal()["zones"]
            for seat in range(3):
                view = state.view(seat)
                assert sorted(view["hand"]) == sorted(zones[f"hand {seat}"])
                order = rank_first if view["trump"] is None else TEXT_CARD.__getitem__
                assert view["hand"] == sorted(view["hand"], key=order)
                sampled = game.sample_state(view, rng).view(seat)
                assert sampled["hand"] == view["hand"]
            state.play(rng.choice(state.legal_moves()))
