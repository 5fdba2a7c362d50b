"""Mückenstich rules scenarios, one or more per ruling (RULINGS MS-1..MS-11), and the
determinizer.

Every scenario starts from a fixed deck (``new_state(deck=...)``) and uses only the public
contract: ``play``, ``legal_moves``, ``view``, ``outcome`` (plus ``score_round``, the
scoring function the game module offers on its own).  Refused moves are checked with
their messages.
"""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

import pytest
from hypothesis import given
from hypothesis import strategies as st

import tikki
from tests.conftest import shared_path
from tikki.games.mueckenstich import score_round

pytestmark = [pytest.mark.engine, pytest.mark.newest, pytest.mark.compiled]

SIZES = {3: 10, 4: 15, 5: 12, 6: 10}
COLOURS = "RBGK"


def game(players: int) -> tikki.Game:
    return tikki.load("mueckenstich", players=players)


def canonical() -> list[str]:
    return list(game(4).deck())


def make_deck(
    n: int,
    hands: Mapping[int, Sequence[str]] | None = None,
    avoid: Mapping[int, str] | None = None,
    second: Mapping[int, Sequence[str]] | None = None,
    avoid2: Mapping[int, str] | None = None,
    unused: Sequence[str] = (),
    forehand: int = 0,
) -> list[str]:
    """A complete deck whose deal gives seat ``s`` the cards ``hands[s]`` (then filled up
    from the rest in canonical order, skipping the colours ``avoid[s]``); with 3 players
    ``second`` and ``avoid2`` shape the second deal; ``unused`` end the deck (MS-3)."""
    size = SIZES[n]
    left = canonical()
    for group in (hands or {}, second or {}):
        for cards in group.values():
            for c in cards:
                left.remove(c)
    for c in unused:
        left.remove(c)

    def fill(spec: Mapping[int, Sequence[str]], skip: Mapping[int, str]) -> list[list[str]]:
        out = []
        for s in range(n):
            hand = list(spec.get(s, []))
            for c in list(left):
                if len(hand) >= size:
                    break
                if c[-1] not in skip.get(s, ""):
                    hand.append(c)
                    left.remove(c)
            assert len(hand) == size, f"cannot fill seat {s}"
            out.append(hand)
        return out

    def dealt(hs: list[list[str]]) -> list[str]:
        return [hs[(forehand + i) % n][i // n] for i in range(size * n)]

    deck = dealt(fill(hands or {}, avoid or {}))
    if n == 3:
        deck += dealt(fill(second or {}, avoid2 or {}))
    deck += left + list(unused)
    assert len(deck) == 64 and Counter(deck) == Counter(canonical())
    return deck


def shuffled(k: int) -> list[str]:
    deck = canonical()
    random.Random(k).shuffle(deck)
    return deck


def hand(state: tikki.State, seat: int) -> list[str]:
    return list(state.view(seat)["hand"])


def refuse(state: tikki.State, move: str, *words: str) -> None:
    """``move`` is refused with every one of ``words`` in the message; nothing changes."""
    before = json.dumps(state.view(state.current_player), sort_keys=True)
    with pytest.raises(tikki.IllegalMove) as err:
        state.play(move)
    for word in words:
        assert word in str(err.value), f"{word!r} not in {str(err.value)!r}"
    assert json.dumps(state.view(state.current_player), sort_keys=True) == before


def low_card(state: tikki.State, avoid_colours: str = "") -> str:
    """The first legal card that is no mosquito and not of ``avoid_colours``."""
    for move in state.legal_moves():
        if not move.startswith("M") and move[-1] not in avoid_colours:
            return move
    raise AssertionError(f"no suitable card in {state.legal_moves()}")


def random_policy(rng: random.Random) -> Callable[[tikki.State], str]:
    return lambda state: rng.choice(state.legal_moves())


def first_legal(state: tikki.State) -> str:
    return state.legal_moves()[0]


def per_round(decks: Sequence[Sequence[str]]) -> Sequence[str]:
    """A Mückenstich deck given round by round (MS-3: one deck a round), which
    ``Game.new_state(deck=...)`` accepts although its signature names a list of card texts."""
    return cast("Sequence[str]", decks)


def moves_reach(stop: int) -> Callable[[tikki.State], bool]:
    """A stop condition for :func:`run_until`: the game has ``stop`` moves."""
    return lambda s: len(s.moves) >= stop


def run_until(
    state: tikki.State, stop: Callable[[tikki.State], bool], policy: Callable[[tikki.State], str]
) -> None:
    while not state.is_over and not stop(state):
        state.play(policy(state))


def discard_all(state: tikki.State, keep: Sequence[str] = ()) -> None:
    """Every seat discards two cards, never one of ``keep`` (a mosquito only if forced)."""
    while state.phase == "discard":
        moves = state.legal_moves()
        good = [m for m in moves if m.split()[1] not in keep and not m.split()[1].startswith("M")]
        state.play((good or moves)[-1])


# --- MS-1 cards ---------------------------------------------------------------------------


def test_ms1_the_deck_has_64_cards() -> None:
    """MS-1: four colours, 1–11 once, 12 twice, the mosquito three times."""
    deck = Counter(canonical())
    assert sum(deck.values()) == 64
    for colour in COLOURS:
        for number in range(1, 12):
            assert deck[f"{number}{colour}"] == 1
        assert deck[f"12{colour}"] == 2
        assert deck[f"M{colour}"] == 3
    bad = canonical()
    bad[bad.index("MR")] = "12R"
    with pytest.raises(tikki.RulesError, match="complete 64-card deck"):
        game(4).new_state(deck=bad)
    with pytest.raises(tikki.RulesError, match="not a card"):
        game(4).new_state(deck=[*canonical()[:-1], "13R"])
    with pytest.raises(tikki.RulesError):
        game(4).new_state(deck=canonical()[:-1])


def test_ms1_card_texts_are_forgiving_and_canonical() -> None:
    """MS-1 / C-3: ``m r``, ``07g`` and ``12b`` are accepted; output is canonical."""
    deck = make_deck(6, {0: ["MR", "7G", "12B"]})
    state = game(6).new_state(deck=deck)
    assert {"MR", "7G", "12B"} <= set(state.legal_moves())
    state.play("07g")
    assert state.view(None)["trick"] == [{"seat": 0, "card": "7G"}]
    assert state.view(None)["history"][-1] == {"seat": 0, "move": "7G"}


# --- MS-2 a match -------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_ms2_as_many_rounds_as_players_dealer_moves_left(players: int) -> None:
    """MS-2 / C-1: n rounds; the dealer of round r is seat n-1+r, its left neighbour leads."""
    decks = [shuffled(100 + r) for r in range(players)]
    state = game(players).new_state(deck=per_round(decks))
    seen_rounds: list[int] = []
    rng = random.Random(players)
    while not state.is_over:
        view = state.view(None)
        if not seen_rounds or seen_rounds[-1] != view["round"]:
            r = view["round"]
            seen_rounds.append(r)
            assert view["dealer"] == (players - 1 + r) % players
            assert view["forehand"] == r % players
            assert view["to_act"] == r % players  # discards (or the lead) start left of the dealer
            assert view["trump"] is None
        state.play(rng.choice(state.legal_moves()))
    assert seen_rounds == list(range(players))
    outcome = state.outcome
    assert outcome is not None and len(outcome["rounds"]) == players
    assert state.phase == "over" and state.current_player is None


def test_ms2_later_rounds_come_from_the_given_decks_then_the_seed() -> None:
    """MS-2 / docs/design.md: a list of decks fixes each round; one deck the first, the seed
    the rest."""
    decks = [shuffled(1), shuffled(2)]
    state = game(4).new_state(seed=5, deck=per_round(decks))
    run_until(state, lambda s: s.view(None)["round"] == 1, first_legal)
    assert hand(state, 1) == sorted_hand(state, decks[1][0:60:4])
    same = game(4).new_state(seed=5, deck=decks[0])
    other = game(4).new_state(seed=5)
    for s in (same, other):
        run_until(s, lambda s: s.view(None)["round"] == 1, first_legal)
    assert hand(same, 0) == hand(other, 0)  # the seed deals round 2 either way
    record = json.loads(json.dumps(state.record()))
    assert record["deck"] == decks
    assert tikki.replay(record).view(0) == state.view(0)
    with pytest.raises(tikki.RulesError, match="rounds"):
        game(3).new_state(deck=per_round([shuffled(k) for k in range(4)]))


def sorted_hand(state: tikki.State, cards: Sequence[str]) -> list[str]:
    """``cards`` in the order a view lists a hand."""
    order = {c: i for i, c in enumerate(canonical())}
    return sorted(cards, key=order.__getitem__)


# --- MS-3 the deal ------------------------------------------------------------------------


@pytest.mark.parametrize("players", [4, 5, 6])
def test_ms3_deal_sizes(players: int) -> None:
    """MS-3 / C-2: 15, 12 or 10 cards each, dealt one at a time from the forehand."""
    deck = shuffled(players)
    state = game(players).new_state(deck=deck)
    size = SIZES[players]
    for seat in range(players):
        assert hand(state, seat) == sorted_hand(state, deck[seat : size * players : players])
    assert state.view(None)["stock_size"] == 64 - size * players == 4


def test_ms3_three_players_deal_twice_from_one_deck() -> None:
    """MS-3: 3 players get 10 each, then deck cards 31–60 after the first ten tricks; the
    last 4 cards are never used nor seen; the forehand of round 2 is dealt first."""
    decks = [shuffled(7), shuffled(8)]
    state = game(3).new_state(deck=per_round(decks))
    for seat in range(3):
        assert hand(state, seat) == sorted_hand(state, decks[0][seat:30:3])
    assert state.view(None)["stock_size"] == 34
    run_until(state, lambda s: s.view(None)["deal"] == 1, first_legal)
    assert state.phase == "discard" and state.view(None)["round"] == 0
    for seat in range(3):
        assert hand(state, seat) == sorted_hand(state, decks[0][30 + seat : 60 : 3])
    assert state.view(None)["stock_size"] == 4
    run_until(state, lambda s: s.view(None)["round"] == 1, first_legal)
    unused = set(decks[0][60:]) - set(decks[0][:60])
    assert unused
    for seat in range(3):  # the whole of round 1 is in the history: no unused card in it
        played = {h["move"].split()[-1] for h in state.view(seat)["history"]}
        assert not played & unused
    for seat in range(3):  # round 2: seat 1 is the forehand and is dealt first
        assert hand(state, seat) == sorted_hand(state, decks[1][(seat - 1) % 3 : 30 : 3])


# --- MS-4 discards ------------------------------------------------------------------------


def test_ms4_two_discards_each_forehand_first_hidden_from_others() -> None:
    """MS-4: each player makes both discards in turn, forehand first; they are out of the
    round, hidden from everyone else (history ``discard ?``), visible to their owner."""
    deck = make_deck(4, {0: ["3R", "12R", "12R"], 1: ["5B"]})
    state = game(4).new_state(deck=deck)
    assert state.phase == "discard" and state.current_player == 0
    legal = state.legal_moves()
    assert all(m.startswith("discard ") for m in legal)
    assert legal.count("discard 12R") == 1  # identical cards: one move
    assert len(legal) == len(set(hand(state, 0)))
    refuse(state, "3R", "two cards aside", "MS-4")
    refuse(state, "discard 5B", "5B is not in seat 0's hand")
    refuse(state, "trump R", "MS-4")
    state.play("Discard 3r")
    assert state.current_player == 0  # both discards in turn
    state.play("discard 12R")
    assert state.current_player == 1
    assert "12R" in hand(state, 0) and "3R" not in hand(state, 0)
    own = state.view(0)
    assert own["discards"] == ["3R", "12R"]
    assert [h["move"] for h in own["history"]] == ["discard 3R", "discard 12R"]
    for other in (1, 2, 3, None):
        view = state.view(other)
        assert view["discards"] == []
        assert [h["move"] for h in view["history"]] == ["discard ?", "discard ?"]
        assert view["discard_counts"] == [2, 0, 0, 0]
        assert "3R" not in json.dumps(view)
    state.play("discard 5B")
    refuse(state, "discard 5B", "5B is not in seat 1's hand")
    state.play(state.legal_moves()[0])
    assert state.current_player == 2
    discard_all(state)
    assert state.phase == "play" and state.current_player == 0
    assert state.view(None)["hand_sizes"] == [13, 13, 13, 13]
    refuse(state, "discard 12R", "before the first trick")


def test_ms4_no_discards_with_six_players() -> None:
    """MS-4: with 6 players nobody discards; the forehand leads at once."""
    state = game(6).new_state(deck=shuffled(3))
    assert state.phase == "play" and state.current_player == 0
    assert not any(m.startswith("discard") for m in state.legal_moves())
    refuse(state, "discard " + hand(state, 0)[0], "before the first trick")


def test_ms4_three_players_discard_again_before_the_second_deal() -> None:
    """MS-4: 3 players discard after each of their two deals (four cards a round)."""
    state = game(3).new_state(deck=shuffled(11))
    assert state.phase == "discard"
    run_until(state, lambda s: s.view(None)["deal"] == 1, first_legal)
    view = state.view(None)
    assert state.phase == "discard" and view["hand_sizes"] == [10, 10, 10]
    assert view["discard_counts"] == [2, 2, 2]
    discard_all(state)
    assert state.view(None)["discard_counts"] == [4, 4, 4]
    assert state.view(None)["hand_sizes"] == [8, 8, 8]
    assert len(state.view(2)["discards"]) == 4


# --- MS-5 the lead ------------------------------------------------------------------------


def test_ms5_forehand_leads_and_three_player_second_deal_led_by_last_winner() -> None:
    """MS-5: the forehand leads the first trick; with 3 players the second deal's first
    trick is led by whoever won the first deal's last trick."""
    state = game(3).new_state(deck=per_round([shuffled(21), shuffled(22)]))
    discard_all(state)
    assert state.phase == "play" and state.current_player == 0
    run_until(state, lambda s: s.view(None)["deal"] == 1, first_legal)
    winner = state.view(None)["last_trick"]["winner"]
    assert state.view(None)["trick"] == []
    discard_all(state)
    assert state.current_player == winner
    assert state.view(None)["leader"] == winner
    run_until(state, lambda s: s.view(None)["round"] == 1, first_legal)
    discard_all(state)
    assert state.current_player == 1  # round 2: the new forehand


# --- MS-6 following -----------------------------------------------------------------------


def test_ms6_follow_the_colour_led_mosquito_included() -> None:
    """MS-6: a player holding the colour led must play it (a mosquito is of its colour);
    a player without it plays any card."""
    deck = make_deck(6, {0: ["5G"], 1: ["3G", "MG", "4R"]}, avoid={2: "G"})
    state = game(6).new_state(deck=deck)
    state.play("5G")
    greens = [c for c in hand(state, 1) if c.endswith("G")]
    assert "MG" in greens and set(state.legal_moves()) == set(greens)
    refuse(state, "4R", "must follow green", "MS-6")
    refuse(state, "1K", "1K is not in seat 1's hand")
    state.play("3G")
    assert state.view(None)["voids"][1] == []
    assert not any(c.endswith("G") for c in hand(state, 2))
    assert state.legal_moves() == sorted_unique(hand(state, 2))
    state.play(low_card(state))
    assert state.view(None)["voids"][2] == ["G"]  # public: seat 2 holds no green (C-4)


def sorted_unique(cards: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(cards))


def test_ms6_leader_plays_any_card() -> None:
    """MS-6: the first card of a trick is free."""
    state = game(6).new_state(deck=shuffled(5))
    assert state.legal_moves() == sorted_unique(hand(state, 0))


# --- MS-7 ranks ---------------------------------------------------------------------------


def play_off(state: tikki.State, seats: int, avoid: str) -> None:
    """``seats`` players in turn play a low card not of ``avoid``."""
    for _ in range(seats):
        state.play(low_card(state, avoid))


def test_ms7_twelve_beats_eleven_and_the_second_twelve_bites_the_first() -> None:
    """MS-7: 1 < … < 11 < 12 < M; of the two 12s the later one is higher."""
    deck = make_deck(6, {0: ["12R"], 1: ["12R"], 2: ["11R"]}, avoid={s: "R" for s in (3, 4, 5)})
    state = game(6).new_state(deck=deck)
    state.play("12R")
    state.play("12R")
    state.play("11R")
    play_off(state, 3, "R")
    view = state.view(None)
    assert view["last_trick"]["winner"] == 1 and view["tricks"][1] == 1
    assert state.current_player == 1


def test_ms7_later_mosquito_bites_the_earlier_ones() -> None:
    """MS-7: the mosquito is the highest card of its colour; the second bites the first
    and the third the second."""
    deck = make_deck(
        6, {0: ["MB"], 1: ["MB"], 2: ["MB"], 3: ["12B"]}, avoid={s: "B" for s in (4, 5)}
    )
    state = game(6).new_state(deck=deck)
    for _ in range(3):
        state.play("MB")
        state.play("trump R")
    state.play("12B")
    play_off(state, 2, "RB")
    assert state.view(None)["last_trick"]["winner"] == 2
    assert state.view(None)["mosquitoes"] == [0, 0, 3, 0, 0, 0]


def test_ms7_one_is_lowest_and_numbers_rank_by_value() -> None:
    """MS-7: the number decides within a colour (1 lowest, 10 below 11)."""
    deck = make_deck(
        6,
        {0: ["10K", "2K", "3K", "4K", "5K", "6K", "7K", "8K"], 1: ["1K"], 2: ["11K"]}
        | {3: ["9K", "12K"]},
        unused=("12K", "MK", "MK", "MK"),
    )
    state = game(6).new_state(deck=deck)
    for card in ("10K", "1K", "11K", "9K"):
        state.play(card)
    play_off(state, 2, "K")
    assert state.view(None)["last_trick"]["winner"] == 2


# --- MS-8 trumps --------------------------------------------------------------------------


def test_ms8_mosquito_player_names_the_trump_at_once() -> None:
    """MS-8: right after a mosquito its player names a colour (any of four); nothing else
    may happen first; ``trump`` is refused at any other time."""
    deck = make_deck(6, {0: ["MG", "5G"], 1: ["3G"]})
    state = game(6).new_state(deck=deck)
    assert state.view(None)["trump"] is None  # a deal starts without trump
    refuse(state, "trump G", "only right after playing a mosquito", "MS-8")
    state.play("MG")
    assert state.current_player == 0 and state.phase == "play"
    assert sorted(state.legal_moves()) == ["trump B", "trump G", "trump K", "trump R"]
    assert state.view(None)["naming_trump"] is True
    refuse(state, "5G", "must name the trump first", "MS-8")
    refuse(state, "trump X", "not a move")
    state.play("trump black")
    assert state.view(None)["trump"] == "K" and state.current_player == 1
    assert state.view(None)["history"][-1] == {
        "seat": 0,
        "move": "trump K",
        "events": [{"type": "trump", "suit": "K", "seat": 0}],
    }


def test_ms8_trump_holds_across_tricks_until_the_next_mosquito() -> None:
    """MS-8 / MS-9: a trump named in one trick decides later tricks; a new mosquito
    renames it (here to the same colour, which is allowed)."""
    deck = make_deck(
        6,
        {0: ["MR", "5B"], 1: ["1R", "2K"], 2: ["2R", "9B"], 3: ["3R", "1B"], 4: ["4R", "2B"]}
        | {5: ["6R", "3B"]},
        avoid={1: "B"},
    )
    state = game(6).new_state(deck=deck)
    state.play("MR")
    state.play("trump K")
    for card in ("1R", "2R", "3R", "4R", "6R"):
        state.play(card)
    assert state.view(None)["last_trick"]["winner"] == 0
    assert state.view(None)["trump"] == "K"
    state.play("5B")
    state.play("2K")  # seat 1 holds no blue: its black card is a trump now
    state.play("9B")
    play_off(state, 3, "K")
    assert state.view(None)["last_trick"]["winner"] == 1
    assert state.view(None)["trump"] == "K"


def test_ms8_mosquito_as_last_card_decides_its_own_trick() -> None:
    """MS-8 / MS-9: a mosquito as a trick's last card names the trump that decides it."""
    deck = make_deck(
        6, {0: ["5R"], 1: ["1R"], 2: ["2R"], 3: ["3R"], 4: ["4R"], 5: ["MB"]}, avoid={5: "R"}
    )
    state = game(6).new_state(deck=deck)
    state.play("5R")
    for _ in range(4):
        state.play(low_card(state, "B"))
    state.play("MB")
    assert state.view(None)["trick"][-1] == {"seat": 5, "card": "MB"}
    assert state.view(None)["last_trick"] is None  # the trick waits for the trump
    state.play("trump B")
    assert state.view(None)["last_trick"]["winner"] == 5
    assert state.current_player == 5


def test_ms8_a_mosquito_names_a_trump_for_another_seats_card() -> None:
    """MS-8 / MS-9: the trump after the last card decides, and the mosquito itself is of
    its own colour: here seat 2's mosquito makes seat 1's 3K the winner."""
    blacks = ["1K", "2K", "4K", "5K", "6K", "7K", "8K", "9K", "10K"]
    deck = make_deck(
        6,
        {0: ["5R", *blacks], 1: ["3K", "11K", "12K", "12K", "MK", "MK", "MK"], 2: ["MG"]},
        avoid={1: "R", 2: "R"},
    )
    state = game(6).new_state(deck=deck)
    state.play("5R")
    state.play("3K")
    state.play("MG")
    state.play("trump K")
    for _ in range(3):
        state.play(low_card(state, "K"))
    assert state.view(None)["last_trick"]["winner"] == 1


def test_ms8_trump_changes_within_a_trick() -> None:
    """MS-8: a later mosquito in the same trick replaces the trump named by an earlier one."""
    deck = make_deck(6, {0: ["MR"], 1: ["MB"]}, avoid={1: "R"})
    state = game(6).new_state(deck=deck)
    state.play("MR")
    state.play("trump R")
    state.play("MB")
    state.play("trump B")
    for _ in range(4):
        state.play(low_card(state, "B"))
    assert state.view(None)["last_trick"]["winner"] == 1


def test_ms8_every_round_starts_without_trump_and_three_players_carry_it() -> None:
    """MS-8 (r2): every round starts with no trump; with 3 players the trump in force at
    the end of the first deal carries into the second deal (r1: reset for every deal)."""
    for rules, carried in (("r2", True), ("r1", False)):
        state = tikki.load("mueckenstich", players=3, rules=rules).new_state(
            deck=per_round([shuffled(31), shuffled(32)])
        )
        assert state.view(None)["trump"] is None
        run_until(state, lambda s: s.view(None)["deal"] == 1, first_legal)
        history = state.view(None)["history"]
        named = [h["move"][-1] for h in history if h["move"].startswith("trump")]
        assert named, "a trump was named in the first deal"
        assert state.view(None)["trump"] == (named[-1] if carried else None), rules
        run_until(state, lambda s: s.view(None)["round"] == 1, first_legal)
        assert state.view(None)["trump"] is None, rules


def test_ms8_the_carried_trump_decides_a_second_deal_trick() -> None:
    """MS-8 (r2): red, named in the first deal, is still trump in the second: 12R wins
    the second deal's second trick (the round's tenth, 8 tricks a deal) against the led
    12B; under r1 there is no trump yet and 12B wins."""
    winners = {}
    for rules in ("r2", "r1"):
        state = tikki.load("mueckenstich", players=3, rules=rules).new_state(deck=shuffled(29))
        run_until(state, lambda s: sum(s.view(None)["tricks"]) == 10, first_legal)
        view = state.view(None)
        assert view["deal"] == 1
        cards = {c["card"]: c["seat"] for c in view["last_trick"]["cards"]}
        assert list(cards) == ["12B", "12R", "6B"]
        assert not any(h["move"].startswith("trump") for h in view["history"][-4:])
        winners[rules] = (view["last_trick"]["winner"], cards)
    assert winners["r2"][0] == winners["r2"][1]["12R"]
    assert winners["r1"][0] == winners["r1"][1]["12B"]


def test_ms8_trump_is_named_on_the_deals_last_trick() -> None:
    """MS-8: a mosquito in the deal's very last trick still names a trump (a move)."""
    for k in range(200):
        state = game(6).new_state(deck=shuffled(k))
        run_until(state, lambda s: s.view(None)["hand_sizes"] == [0] * 6, first_legal)
        if state.view(None)["naming_trump"]:
            break
    else:
        pytest.fail("no deck with a mosquito in the last trick")
    assert state.phase == "play"
    assert sorted(state.legal_moves()) == ["trump B", "trump G", "trump K", "trump R"]
    state.play("trump R")
    assert state.view(None)["last_trick"] is not None


# --- MS-9 the trick winner ----------------------------------------------------------------


def test_ms9_highest_of_the_led_colour_wins_without_trump() -> None:
    """MS-9: without a trump, off-colour cards never win, however high."""
    deck = make_deck(6, {0: ["2R"], 1: ["3R"], 2: ["12B"]}, avoid={2: "R", 3: "R", 4: "R", 5: "R"})
    state = game(6).new_state(deck=deck)
    state.play("2R")
    state.play("3R")
    state.play("12B")
    state.play(low_card(state, "R"))
    for _ in range(2):
        state.play(low_card(state))
    assert state.view(None)["last_trick"]["winner"] == 1
    assert state.current_player == 1 and state.view(None)["leader"] == 1


def test_ms9_trump_not_in_the_trick_leaves_the_led_colour_deciding() -> None:
    """MS-9: with a trump in force but none of it in the trick, the led colour decides."""
    blacks = ["1K", "2K", "3K", "4K", "5K", "6K", "7K", "8K"]
    deck = make_deck(
        6,
        {
            0: ["MK", "4R", *blacks],
            1: ["9R", "9K", "10K", "11K", "12K", "12K", "MK", "MK"],
            2: ["12B"],
            4: ["1B", "2B"],
            5: ["3B", "4B"],
        },
        avoid={2: "RK", 3: "K", 4: "K", 5: "K"},
        unused=("MR", "MR", "MR", "12R"),
    )
    state = game(6).new_state(deck=deck)
    state.play("MK")
    state.play("trump G")
    for _ in range(5):
        state.play(low_card(state, "G"))
    assert state.view(None)["last_trick"]["winner"] == 0
    state.play("4R")
    state.play("9R")
    state.play("12B")
    for _ in range(3):
        state.play(low_card(state, "G"))
    assert state.view(None)["last_trick"]["winner"] == 1


def test_ms9_the_highest_trump_wins() -> None:
    """MS-9: several trumps in the trick: the highest wins; the mosquito naming the trump
    is of its own colour, and the trump counts for trumps played before it was named."""
    deck = make_deck(
        6,
        {0: ["1R"], 1: ["2G"], 2: ["MK"], 3: ["9G"], 4: ["4G"]},
        avoid={s: "R" for s in (1, 2, 3, 4)},
    )
    state = game(6).new_state(deck=deck)
    state.play("1R")
    state.play("2G")
    state.play("MK")
    state.play("trump G")
    state.play("9G")
    state.play("4G")
    state.play(low_card(state, "G"))
    assert state.view(None)["last_trick"]["winner"] == 3


# --- MS-10 scoring ------------------------------------------------------------------------


def test_ms10_seed_scoring_example_exactly() -> None:
    """MS-10 / MS-11: the seed's example — Arne 10, Geli −1, Ernst −10, Harald −3, Fritz 10."""
    arne = ["2R", "4R", "8R", "12R", "12R"]
    geli = ["2B", "4B", "5B", "11B", "12B", "12B", "12G", "1R", "MB", "MG"]
    ernst = ["1B", "9B", "7K", "2G", "10G", "11G", "MG", "MG", "MB", "MR"]
    harald = ["1K", "11K", "12K", "5G", "3R", "5R", "6R", "MK", "MK", "MR"]
    fritz = ["3B", "8B", "10B", "2K", "4K", "6K", "1G", "6G", "9G", "12G"]
    fritz += ["7R", "9R", "10R", "11R", "MK"]
    piles = [arne, geli, ernst, harald, fritz]
    assert score_round(piles, doubled="R", dropped="K") == [10, -1, -10, -3, 10]
    assert score_round(piles) == [5, -2, -9, -3, 9]
    with pytest.raises(tikki.RulesError, match="differ"):
        score_round(piles, doubled="R", dropped="R")
    with pytest.raises(tikki.RulesError):
        score_round([["13R"]])


def test_ms10_first_mosquito_per_colour_counts() -> None:
    """MS-10: −5 for the first mosquito of each colour only; at most −20."""
    assert score_round([["MR", "MR", "MR"]]) == [-5]
    assert score_round([["MR", "MB", "MG", "MK", "MK"]], doubled="G") == [-20]
    assert score_round([["12R", "MR"]], doubled="R") == [-3]
    assert score_round([["12R", "5R"]], dropped="R") == [0]


def find_round(players: int, want: Callable[[dict[str, Any]], bool]) -> tikki.State:
    for k in range(400):
        state = game(players).new_state(deck=per_round([shuffled(k)] * players))
        run_until(state, lambda s: s.phase == "score" or s.view(None)["round"] == 1, first_legal)
        if state.phase == "score" and want(state.view(None)):
            return state
    pytest.fail("no deck gives the wanted scoring situation")


def strict(values: Sequence[int], target: int) -> int | None:
    seats = [s for s, v in enumerate(values) if v == target]
    return seats[0] if len(seats) == 1 else None


def pile_score(view: Mapping[str, Any], doubled: str | None, dropped: str | None) -> list[int]:
    return score_round(view["piles"], doubled, dropped)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_ms10_fewest_tricks_doubles_then_most_mosquitoes_drops(players: int) -> None:
    """MS-10: the strict fewest-tricks player names the doubled colour, then the strict
    most-mosquitoes player a dropped colour other than it; scores follow."""

    def both(view: Mapping[str, Any]) -> bool:
        tricks, mosq = view["tricks"], view["mosquitoes"]
        doubler = strict(tricks, min(tricks))
        dropper = strict(mosq, max(mosq))
        return doubler is not None and dropper is not None and doubler != dropper

    state = find_round(players, both)
    view = state.view(None)
    tricks = {3: 16, 4: 13, 5: 10, 6: 10}[players]  # both deals count with 3 players
    assert sum(view["tricks"]) == tricks
    assert view["mosquitoes"] == [sum(c.startswith("M") for c in p) for p in view["piles"]]
    doubler = strict(view["tricks"], min(view["tricks"]))
    dropper = strict(view["mosquitoes"], max(view["mosquitoes"]))
    assert state.current_player == doubler
    assert sorted(state.legal_moves()) == ["double B", "double G", "double K", "double R"]
    refuse(state, "drop R", "names the doubled colour first")
    refuse(state, "7R", "name a colour")
    state.play("double g")
    assert state.current_player == dropper and state.phase == "score"
    assert sorted(state.legal_moves()) == ["drop B", "drop K", "drop R"]
    refuse(state, "drop G", "G is doubled", "MS-10")
    refuse(state, "double R", "not a doubled one")
    expected = pile_score(view, "G", "K")
    state.play("drop K")
    after = state.view(None)
    assert after["round"] == 1 and after["round_scores"] == [expected]
    assert after["sheet"][0]["doubled"] == "G" and after["sheet"][0]["dropped"] == "K"


def test_ms10_the_view_carries_each_choice_s_score_for_its_own_seat() -> None:
    """While the double or the drop is chosen, each seat's view says what
    every open colour would make its own won cards score (the round's own scoring); the
    public view names the choice but no seat's figures; outside scoring there is none."""

    def both(view: Mapping[str, Any]) -> bool:
        tricks, mosq = view["tricks"], view["mosquitoes"]
        doubler = strict(tricks, min(tricks))
        dropper = strict(mosq, max(mosq))
        return doubler is not None and dropper is not None and doubler != dropper

    state = find_round(4, both)
    piles = state.view(None)["piles"]
    doubler = state.current_player
    assert state.view(None)["scoring_choice"] == {"verb": "double", "seat": doubler, "scores": None}
    for seat in range(4):
        choice = state.view(seat)["scoring_choice"]
        assert choice["verb"] == "double" and choice["seat"] == doubler
        assert choice["scores"] == {c: score_round([piles[seat]], c)[0] for c in "RBGK"}
    state.play("double G")
    dropper = state.current_player
    for seat in range(4):
        choice = state.view(seat)["scoring_choice"]
        assert choice["verb"] == "drop" and choice["seat"] == dropper
        assert choice["scores"] == {c: score_round([piles[seat]], "G", c)[0] for c in "RBK"}
    state.play("drop K")
    assert all(state.view(s)["scoring_choice"] is None for s in (None, 0, 1, 2, 3))


def test_ms10_one_player_may_do_both() -> None:
    """MS-10: the same player can have the fewest tricks and the most mosquitoes."""

    def same(view: Mapping[str, Any]) -> bool:
        tricks, mosq = view["tricks"], view["mosquitoes"]
        doubler = strict(tricks, min(tricks))
        return doubler is not None and doubler == strict(mosq, max(mosq)) and max(mosq) > 0

    state = find_round(4, same)
    seat = state.current_player
    state.play("double R")
    assert state.current_player == seat
    assert sorted(state.legal_moves()) == ["drop B", "drop G", "drop K"]


def test_ms10_tie_for_fewest_tricks_no_doubling() -> None:
    """MS-10: a tie for the fewest tricks: nobody doubles; the dropper may drop any colour."""

    def tie(view: Mapping[str, Any]) -> bool:
        tricks, mosq = view["tricks"], view["mosquitoes"]
        return strict(tricks, min(tricks)) is None and strict(mosq, max(mosq)) is not None

    state = find_round(4, tie)
    view = state.view(None)
    assert state.current_player == strict(view["mosquitoes"], max(view["mosquitoes"]))
    assert sorted(state.legal_moves()) == ["drop B", "drop G", "drop K", "drop R"]
    seat = state.current_player
    assert state.view(seat)["scoring_choice"] == {
        "verb": "drop",
        "seat": seat,
        "scores": {c: score_round([view["piles"][seat]], None, c)[0] for c in "RBGK"},
    }
    refuse(state, "double R", "not a doubled one")
    state.play("drop R")
    assert state.view(None)["round_scores"] == [pile_score(view, None, "R")]


def test_ms10_tie_for_most_mosquitoes_no_dropping() -> None:
    """MS-10: a tie for the most mosquitoes: nobody drops; the round is scored after the
    doubling."""

    def tie(view: Mapping[str, Any]) -> bool:
        tricks, mosq = view["tricks"], view["mosquitoes"]
        return strict(tricks, min(tricks)) is not None and strict(mosq, max(mosq)) is None

    state = find_round(4, tie)
    view = state.view(None)
    state.play("double B")
    assert state.phase == "discard" and state.view(None)["round"] == 1
    assert state.view(None)["round_scores"] == [pile_score(view, "B", None)]
    assert state.view(None)["sheet"][0]["dropped"] is None


def test_ms10_neither_choice_scores_at_once() -> None:
    """MS-10: with neither a doubler nor a dropper the round is scored with no move."""

    def neither(view: Mapping[str, Any]) -> bool:
        sheet = view["sheet"]
        return bool(sheet) and sheet[0]["doubled"] is None and sheet[0]["dropped"] is None

    for k in range(400):
        state = game(4).new_state(deck=per_round([shuffled(k)] * 4))
        run_until(state, lambda s: s.phase == "score" or s.view(None)["round"] == 1, first_legal)
        if state.phase != "score":
            break
    else:
        pytest.fail("no deck scores at once")
    view = state.view(None)
    assert neither(view)
    moves = [h["move"] for h in view["history"]]
    assert not any(m.startswith(("double", "drop")) for m in moves)
    entry = view["sheet"][0]
    tricks, mosq = entry["tricks"], entry["mosquitoes"]
    assert strict(tricks, min(tricks)) is None
    assert max(mosq) == 0 or strict(mosq, max(mosq)) is None


# --- MS-11 the match ----------------------------------------------------------------------


def test_ms11_totals_add_up_and_ties_share_the_win() -> None:
    """MS-11: the golden match of 3 players ending −5, −5, −6 has two winners."""
    path = shared_path("playthroughs", "mueckenstich.jsonl")
    row = json.loads(path.read_text().splitlines()[0])
    state = game(3).new_state(deck=row["deck"])
    for step in row["steps"]:
        state.play(step["move"])
    outcome = state.outcome
    assert outcome is not None
    assert outcome["scores"] == [-5, -5, -6]
    assert outcome["rounds"] == [[7, 0, -3], [-12, -1, -6], [0, -4, 3]]
    assert outcome["winners"] == [0, 1]
    assert outcome["abandoned"] is False and outcome["returns"] == [-5, -5, -6]
    totals = [sum(r[s] for r in outcome["rounds"]) for s in range(3)]
    assert totals == outcome["scores"] == state.view(2)["scores"]
    refuse_over(state)


def refuse_over(state: tikki.State) -> None:
    with pytest.raises(tikki.IllegalMove, match="over"):
        state.play("7R")
    assert state.legal_moves() == [] and state.current_player is None


@pytest.mark.parametrize("players", [4, 5])
def test_ms11_outcome_of_a_whole_match(players: int) -> None:
    """MS-11: scores per round add up to the totals; the highest total wins."""
    state = game(players).new_state(deck=per_round([shuffled(60 + r) for r in range(players)]))
    rng = random.Random(3)
    while not state.is_over:
        state.play(rng.choice(state.legal_moves()))
    outcome = state.outcome
    assert outcome is not None and len(outcome["rounds"]) == players
    totals = [sum(r[s] for r in outcome["rounds"]) for s in range(players)]
    assert outcome["scores"] == totals
    assert outcome["winners"] == [s for s in range(players) if totals[s] == max(totals)]


# --- determinizer -------------------------------------------------------------------------


def test_sample_state_reproduces_every_view() -> None:
    """sample_state(view).view(seat) == view, at every step of a whole 3-player match."""
    g = game(3)
    state = g.new_state(seed=4)
    rng = random.Random(1)
    step = 0
    while not state.is_over:
        seat = step % 3
        view = state.view(seat)
        sampled = g.sample_state(view, random.Random(step))
        assert sampled.view(seat) == view
        for _ in range(5):
            if sampled.is_over:
                break
            sampled.play(rng.choice(sampled.legal_moves()))
        state.play(rng.choice(state.legal_moves()))
        step += 1


def test_sample_state_respects_void_colours() -> None:
    """C-4: a seat that did not follow a colour is dealt none of it by the determinizer."""
    g = game(4)
    checked = 0
    for k in range(30):
        state = g.new_state(deck=shuffled(200 + k))
        stop = 8 + 4 * random.Random(k).randrange(3, 9)
        run_until(state, moves_reach(stop), first_legal)
        view = state.view(0)
        voids = view["voids"]
        if not any(voids[1:]):
            continue
        for i in range(20):
            sampled = g.sample_state(view, random.Random(i))
            reveal = sampled.reveal()
            for seat in (1, 2, 3):
                held = {c[-1] for c in reveal["zones"][f"hand {seat}"]}
                assert not held & set(voids[seat]), f"seat {seat} void in {voids[seat]}"
            assert sampled.view(0) == view
        checked += 1
    assert checked >= 5


def test_sample_state_hides_discards_and_keeps_their_count() -> None:
    """MS-4: another seat's discards are sampled (their count is public, not their faces);
    two states differing only in them give the same view and the same samples."""
    g = game(4)
    deck = make_deck(4, {1: ["1R", "2R"]}, unused=("3K", "4K", "5K", "6K"))
    a = g.new_state(deck=deck)
    a.play("discard " + hand(a, 0)[0])
    a.play("discard " + hand(a, 0)[1])
    a.play("discard 1R")
    a.play("discard 2R")
    view = a.view(0)
    assert view["discard_counts"] == [2, 2, 0, 0]
    faces: set[tuple[str, ...]] = set()
    for i in range(30):
        sampled = g.sample_state(view, random.Random(i)).reveal()["zones"]
        assert len(sampled["discards 1"]) == 2
        faces.add(tuple(sorted(sampled["discards 1"])))
    assert len(faces) > 10  # not the true ones every time: they are unknown
    swapped = make_deck(4, {1: ["3K", "4K"]}, unused=("1R", "2R", "5K", "6K"))
    b = g.new_state(deck=swapped)
    for move in a.moves[:2]:
        b.play(move)
    b.play("discard 3K")
    b.play("discard 4K")
    assert b.view(0) == view
    assert (
        g.sample_state(view, random.Random(9)).reveal()
        == g.sample_state(b.view(0), random.Random(9)).reveal()
    )


def test_sample_state_is_uniform_on_a_small_position() -> None:
    """The determinizer deals uniformly among all consistent deals (chi-square against
    an exact enumeration of the last trick of a 6-player deal, voids included)."""
    g = game(6)
    for k in range(100):
        state = g.new_state(deck=shuffled(300 + k))
        run_until(
            state,
            lambda s: s.view(None)["hand_sizes"] == [1] * 6 and not s.view(None)["trick"],
            first_legal,
        )
        view = state.view(0)
        if sum(map(len, view["voids"][1:])) >= 4:
            break
    else:
        pytest.fail("no position with voids")
    voids = view["voids"]
    seen = Counter(view["hand"]) + Counter(c for p in view["piles"] for c in p)
    pool = sorted((Counter(canonical()) - seen).elements())
    assert len(pool) == 9  # five hidden hand cards and the four unused
    expected: list[Counter[str]] = [Counter() for _ in range(6)]
    for perm in itertools.permutations(range(len(pool)), 5):
        cards = [pool[i] for i in perm]
        if all(cards[s - 1][-1] not in voids[s] for s in range(1, 6)):
            for s in range(1, 6):
                expected[s][cards[s - 1]] += 1
    draws = 3000
    got: list[Counter[str]] = [Counter() for _ in range(6)]
    for i in range(draws):
        zones = g.sample_state(view, random.Random(i)).reveal()["zones"]
        for s in range(1, 6):
            got[s][zones[f"hand {s}"][0]] += 1
    for s in range(1, 6):
        assert set(got[s]) <= set(expected[s]), f"seat {s} got a card it cannot hold"
        total = sum(expected[s].values())
        chi2 = sum(
            (got[s][c] - draws * n / total) ** 2 / (draws * n / total)
            for c, n in expected[s].items()
        )
        cells = len(expected[s]) - 1
        if cells:
            assert chi2 < critical(cells), f"seat {s}: chi2 {chi2:.1f}, {cells} d.o.f."


def critical(df: int, z: float = 3.09) -> float:
    """The chi-square value exceeded with probability ~0.001 (Wilson–Hilferty)."""
    k = 2 / (9 * df)
    return float(df * (1 - k + z * k**0.5) ** 3)


@pytest.mark.parametrize("players", [3, 4, 6])
def test_later_rounds_leak_nothing_by_equivalence(players: int) -> None:
    """C-4 / MS-4: in a later round, swapping two cards of one colour between other
    seats' hands (or the unused cards) in that round's deck changes nothing seat 0 sees,
    nor what the determinizer makes of it."""
    g = game(players)
    checked = 0
    for k in range(12):
        decks = [shuffled(500 + 10 * k + r) for r in range(players)]
        state = g.new_state(deck=per_round(decks))
        rng = random.Random(k)
        policy = random_policy(rng)
        run_until(state, lambda s: s.view(None)["round"] == 1, policy)
        stop = len(state.moves) + rng.randrange(4, 40)
        run_until(state, moves_reach(stop), first_legal)
        if state.view(None)["round"] != 1:
            continue
        zones = state.reveal()["zones"]
        places = [f"hand {s}" for s in range(1, players)] + ["stock"]
        where: dict[str, set[str]] = {}
        for name, cards in zones.items():
            for c in cards:
                where.setdefault(c, set()).add(name)
        counts = Counter(decks[1])
        candidates = sorted(
            c for c, at in where.items() if len(at) == 1 and next(iter(at)) in places
        )
        pairs = [
            (a, b)
            for a, b in itertools.combinations(candidates, 2)
            if a[-1] == b[-1] and counts[a] == counts[b] and where[a] != where[b]
        ]
        if not pairs:
            continue
        a, b = pairs[rng.randrange(len(pairs))]
        other_decks = [list(d) for d in decks]
        other_decks[1] = [b if c == a else a if c == b else c for c in decks[1]]
        other = g.new_state(deck=per_round(other_decks))
        for move in state.moves:
            other.play(move)
        assert other.view(0) == state.view(0), f"seat 0 can tell {a} from {b}"
        assert other.reveal()["zones"] != zones
        sample_a = g.sample_state(state.view(0), random.Random(k)).reveal()
        sample_b = g.sample_state(other.view(0), random.Random(k)).reveal()
        assert sample_a == sample_b
        checked += 1
    assert checked >= 6


# --- fast rollouts ------------------------------------------------------------------------


@pytest.mark.parametrize("greedy", [0.0, 0.7])
@pytest.mark.parametrize("players", [3, 4, 6])
def test_random_playout_plays_legal_moves_to_the_end(players: int, greedy: float) -> None:
    """The rollout fast path only makes legal moves and ends the match like ``play``."""
    g = game(players)
    for k in range(5):
        state = g.new_state(seed=k)
        stop = random.Random(k).randrange(150)
        run_until(state, moves_reach(stop), first_legal)
        fast = state.clone()
        fast.random_playout(random.Random(k), greedy=greedy)
        assert fast.is_over and fast.outcome is not None
        slow = state.clone()
        for move in fast.moves[len(state.moves) :]:
            assert move in slow.legal_moves()
            slow.play(move)
        assert slow.outcome == fast.outcome
        assert slow.reveal() == fast.reveal()


def test_random_playout_is_uniform_over_the_legal_moves() -> None:
    """With greedy=0 the first move is distributed like rng.choice(legal_moves())."""
    last = make_deck(3, {2: ["12R", "12R", "MR", "MR"]}, forehand=2)
    state = game(3).new_state(deck=per_round([shuffled(1), shuffled(2), last]))
    run_until(state, lambda s: s.view(None)["round"] == 2, first_legal)
    discard_all(state, keep=("12R",))
    assert state.current_player == 2  # the last round, so that the playouts are short
    legal = state.legal_moves()
    assert len(legal) < len(hand(state, 2))  # identical cards are one move
    draws = 4000
    got: Counter[str] = Counter()
    for i in range(draws):
        trial = state.clone()
        trial.random_playout(random.Random(i))
        got[trial.moves[len(state.moves)]] += 1
    assert set(got) == set(legal)
    expected = draws / len(legal)
    chi2 = sum((got[m] - expected) ** 2 / expected for m in legal)
    assert chi2 < critical(len(legal) - 1)


@given(
    st.permutations(canonical()),
    st.lists(st.integers(0, 64), min_size=3, max_size=5),
    st.sampled_from([*COLOURS, None]),
    st.sampled_from([*COLOURS, None]),
)
def test_ms10_scoring_properties(
    deck: list[str], cuts: list[int], doubled: str | None, dropped: str | None
) -> None:
    """MS-10 as properties: a doubled colour adds its number cards once more, a dropped one
    takes them away; each mosquito colour present costs 5 once."""
    if doubled is not None and doubled == dropped:
        dropped = None
    bounds = [0, *sorted(cuts), 64]
    piles = [deck[a:b] for a, b in itertools.pairwise(bounds)]
    plain = score_round(piles)
    scored = score_round(piles, doubled, dropped)
    for pile, base, score in zip(piles, plain, scored, strict=True):
        numbers = Counter(c[-1] for c in pile if not c.startswith("M"))
        bites = {c[-1] for c in pile if c.startswith("M")}
        assert base == sum(numbers.values()) - 5 * len(bites)
        extra = numbers[doubled] if doubled else 0
        lost = numbers[dropped] if dropped else 0
        assert score == base + extra - lost
        assert score >= -20


def test_ms10_one_colour_has_no_colour_left_to_drop() -> None:
    """A research deck of one colour: once it is doubled no other colour can be dropped,
    so the round is scored at once (the most-mosquitoes seat had no legal move before)."""
    game = tikki.load(
        "mueckenstich", 3, colours=1, values=5, mosquitoes=3, hand=3, discards=False, rounds=1
    )
    deck = ["10R", "11R", "12R", "12R", "8R", "9R", "MR", "MR", "MR"]
    state = game.new_state(seed=0, deck=deck)
    for move in ["10R", "8R", "9R", "12R", "MR", "trump R", "12R", "11R", "MR", "trump R"]:
        state.play(move)
    state.play("MR")
    state.play("trump R")
    assert state.legal_moves() == ["double R"]
    state.play("double R")
    assert state.outcome is not None
    assert state.current_player is None
