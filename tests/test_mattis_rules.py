"""Mattis rule scenarios, one or more per ruling (RULINGS AM-1..AM-14, C-4, C-5) and option.

Only the public contract is used: ``new_state(deck=…)``, ``play``, ``legal_moves``,
``view``, ``outcome`` (and ``reveal``/``sample_state`` for the determinizer).  Decks are in
dealing order (C-2): card ``i`` of the first ``3n`` goes to seat ``i % n``; the rest is
the stock, first card on top.  Positions that need a long phase 1 (the shown last card,
the dreck, phase 2) are found by playing fixed decks with a fixed policy.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import pytest

import tikki
from tikki import IllegalMove, State

pytestmark = [pytest.mark.engine, pytest.mark.newest, pytest.mark.compiled]

RANKS = "23456789TJQKA"


def deal(game: tikki.Game, hands: Sequence[Sequence[str]], stock: Sequence[str] = ()) -> list[str]:
    """A complete deck giving ``hands`` (3 cards per seat) and ``stock`` on top of the stock."""
    n = len(hands)
    order = [hands[s][i] for i in range(3) for s in range(n)]
    used = set(order) | set(stock)
    assert len(used) == len(order) + len(stock), "a card is given twice"
    return order + list(stock) + [c for c in game.deck() if c not in used]


def start(
    hands: Sequence[Sequence[str]],
    stock: Sequence[str] = (),
    rules: str | None = None,
    **options: Any,
) -> State:
    game = tikki.load("mattis", players=len(hands), rules=rules, **options)
    return game.new_state(deck=deal(game, hands, stock))


def refused(state: State, move: str, *fragments: str) -> str:
    """Play ``move``, expect a refusal naming every fragment, and the state unchanged."""
    before = state.view(state.current_player)
    with pytest.raises(IllegalMove) as err:
        state.play(move)
    message = str(err.value)
    for fragment in fragments:
        assert fragment in message, f"{fragment!r} not in {message!r}"
    assert state.view(state.current_player) == before
    return message


def rank(card: str) -> int:
    return RANKS.index(card[0])


def states(
    players: int = 3, seeds: range = range(40), **options: Any
) -> Iterator[tuple[State, State]]:
    """(state before, state after) for every move of random games from fixed decks."""
    game = tikki.load("mattis", players=players, **options)
    for seed in seeds:
        deck = game.deck()
        random.Random(seed).shuffle(deck)
        state = game.new_state(deck=deck, seed=seed)
        rng = random.Random(1000 + seed)
        while not state.is_over:
            before = state.clone()
            state.play(rng.choice(state.legal_moves()))
            yield before, state


def find(pred: Callable[[State], bool], **kw: Any) -> State:
    """The first position (before a move) of the random games for which ``pred`` holds."""
    for before, _ in states(**kw):
        if pred(before):
            return before
    raise AssertionError("no such position in the sample games")


# --- AM-1 ------------------------------------------------------------------------------


def test_am1_deal_three_each_forehand_leads_everyone_plays() -> None:
    """AM-1: 3 cards each in dealing order, the rest is the stock; seat 0 leads; all play."""
    s = start([["9H", "2C", "KD"], ["TS", "3D", "AH"], ["JC", "4S", "QH"]])
    assert s.phase == "collect" and s.current_player == 0
    assert sorted(s.view(1)["hand"]) == sorted(["TS", "3D", "AH"])
    assert s.view(None)["hand_sizes"] == [3, 3, 3] and s.view(None)["stock_size"] == 43
    s.play("9H")
    assert s.current_player == 1
    s.play("AH")
    assert s.current_player == 2  # 9 is losing, nobody holds a 9: no slough lap
    s.play("4S")
    assert s.current_player == 1, "seat 1 won with the ace and leads"


def test_am1_other_player_counts() -> None:
    """AM-1 with 2 and 5 players: 3 each, the rest is the stock."""
    for n in (2, 5):
        state = tikki.load("mattis", players=n).new_state(seed=3)
        view = state.view(0)
        assert view["hand_sizes"] == [3] * n and view["stock_size"] == 52 - 3 * n


# --- AM-2 ------------------------------------------------------------------------------


def test_am2_stock_turns_the_top_card_into_the_trick() -> None:
    """AM-2: `stock` plays the top stock card; the hand keeps its three cards."""
    s = start([["9H", "2C", "KD"], ["TS", "3D", "AH"], ["JC", "4S", "QH"]], stock=["7C"])
    s.play("stock")
    view = s.view(1)
    assert view["history"][-1] == {"seat": 0, "move": "stock", "card": "7C"}
    assert view["trick"]["cards"] == [{"seat": 0, "card": "7C", "how": "stock"}]
    assert view["hand_sizes"] == [3, 3, 3] and view["stock_size"] == 42


def test_am2_stock_needs_more_than_one_card() -> None:
    """AM-2: with one card left in the stock, `stock` is not legal."""
    s = find(
        lambda st: (
            st.phase == "collect"
            and st.view(None)["stock_size"] == 1
            and st.view(None)["trick"]["slough_lap"] is None
            and st.view(None)["trick"]["match_rank"] is None
        )
    )
    assert "stock" not in s.legal_moves()
    refused(s, "stock", "more than one", "AM-2")


# --- AM-3 ------------------------------------------------------------------------------


def test_am3_must_match_the_highest_rank() -> None:
    """AM-3: holding the rank of the highest card, a player must play such a card."""
    s = start([["7H", "2C", "9D"], ["7S", "KD", "3C"], ["JC", "4S", "QH"]])
    s.play("7H")
    assert s.legal_moves() == ["7S"]
    refused(s, "KD", "must match", "7S", "AM-3")
    refused(s, "stock", "must match", "AM-3")
    s.play("7s")  # forgiving input
    assert s.view(None)["history"][-1] == {"seat": 1, "move": "7S"}


def test_am3_matches_the_highest_card_not_the_led_one() -> None:
    """AM-3: the rank to match is that of the current highest card of the trick."""
    s = start([["5H", "2C", "8D"], ["9C", "KD", "3C"], ["5D", "9D", "AS"]])
    s.play("5H")
    s.play("9C")
    # seat 2 holds the losing 5D but has not played yet: not asked (AM-5, r2)
    assert s.current_player == 2 and s.legal_moves() == ["9D"]
    refused(s, "5D", "must match", "9D")


# --- AM-4 ------------------------------------------------------------------------------


def test_am4_war_among_the_tied_players_only() -> None:
    """AM-4: tied players play again in play order; the first is free; winner takes all."""
    s = start([["KH", "2C", "8D"], ["4S", "4D", "JC"], ["KS", "8C", "3D"]])
    s.play("KH")
    assert s.current_player == 1
    s.play("4S")
    assert s.current_player == 1 and s.legal_moves() == ["pass", "slough 4D"]
    s.play("slough 4D")  # nothing left to slough: the lap moves on
    assert s.current_player == 2 and s.legal_moves() == ["KS"]
    s.play("KS")
    # war between seats 0 and 2; seat 0 plays first and freely
    assert s.current_player == 0
    assert sorted(s.legal_moves()) == sorted(["2C", "8D", "stock"])
    s.play("8D")
    # 8D wins its war round, so 8 is not losing (AM-5, r2): seat 2 is not asked
    assert s.current_player == 2 and s.legal_moves() == ["8C"], "AM-3 within the war round"
    s.play("8C")
    assert s.current_player == 0, "another tie: another war round"
    s.play("2C")
    s.play("3D")
    view = s.view(None)
    assert sorted(view["piles"][2]) == sorted(["KH", "4S", "4D", "KS", "8D", "8C", "2C", "3D"])
    assert view["last_winner"] == 2 and s.current_player == 2


def test_am4_war_round_matches_its_own_highest_card() -> None:
    """AM-4: in a war, must-match applies to the highest card of that round."""
    s = start([["QH", "6C", "2D"], ["3S", "9H", "JD"], ["QS", "6D", "TC"]])
    s.play("QH")
    s.play("3S")
    s.play("QS")
    s.play("6C")
    assert s.current_player == 2 and s.legal_moves() == ["6D"]
    refused(s, "TC", "must match", "6D", "AM-3")


def test_am4_war_match_trick_binds_the_whole_tricks_highest_rank() -> None:
    """AM-4 option war_match=trick: in a war round too, a player holding the trick's
    highest rank must play it; with the default (round) the war round's first card is
    free and must-match binds to that round's highest card."""
    hands = [["KH", "KD", "2C"], ["KS", "5D", "KC"], ["4H", "9C", "7S"]]
    assert tikki.load("mattis").options["war_match"] == "round"
    for war_match, first in (("round", ["2C", "KD", "stock"]), ("trick", ["KD"])):
        s = start(hands, war_match=war_match)
        s.play("KH")
        s.play("KS")
        s.play("4H")
        assert s.current_player == 0, "war between seats 0 and 1"
        assert s.legal_moves() == first, war_match
    s = start([["KH", "3D", "2C"], ["KS", "5D", "KC"], ["4H", "9C", "7S"]], war_match="trick")
    s.play("KH")
    s.play("KS")
    s.play("4H")
    s.play("2C")  # seat 0 holds no king: free
    assert s.view(None)["trick"]["match_rank"] == "K"
    assert [s.view(None)["move_count"] - 1, 0, "K", "no-match"] in s.view(None)["facts"]
    assert s.current_player == 1 and s.legal_moves() == ["KC"]
    refused(s, "5D", "must match", "KC", "AM-3")
    s.play("KC")
    assert s.view(None)["last_winner"] == 1
    r = start([["KH", "3D", "2C"], ["KS", "5D", "KC"], ["4H", "9C", "7S"]])
    for move in ("KH", "KS", "4H", "2C"):
        r.play(move)
    assert r.current_player == 1 and sorted(r.legal_moves()) == ["5D", "KC", "stock"]


# --- AM-5 ------------------------------------------------------------------------------


def test_am5_only_players_who_can_slough_are_asked() -> None:
    """AM-5: after a play, one lap from the player who just played; only holders are asked."""
    s = start([["3S", "3C", "KD"], ["4D", "9C", "4H"], ["7H", "QH", "QS"]])
    s.play("3S")
    assert s.current_player == 1, "one card in the trick: nothing is losing"
    s.play("4D")
    assert s.current_player == 0 and s.legal_moves() == ["pass", "slough 3C"]
    refused(s, "KD", "slough", "pass", "AM-5")
    refused(s, "slough KD", "cannot be sloughed", "AM-5")
    refused(s, "slough 4H", "not in seat 0's hand")
    refused(s, "stock", "AM-5")
    s.play("pass")
    assert s.current_player == 2
    s.play("QS")
    assert s.current_player == 0 and s.legal_moves() == ["pass", "slough 3C"]
    s.play("slough 3C")
    assert s.current_player == 1 and s.legal_moves() == ["pass", "slough 4H"]
    s.play("slough 4H")
    view = s.view(None)
    assert view["last_winner"] == 2, "sloughs never change who wins"
    assert sorted(view["piles"][2]) == sorted(["3S", "4D", "QS", "3C", "4H"])
    assert s.current_player == 2
    refused(s, "pass", "no slough lap", "AM-5")


def test_am5_lap_starts_with_the_player_who_just_played() -> None:
    """AM-5: the player who just played (here from the stock) is asked first."""
    s = start([["5H", "2C", "8D"], ["5S", "9C", "5C"], ["JD", "4S", "QH"]], stock=["KC"])
    s.play("5H")
    assert s.current_player == 1 and sorted(s.legal_moves()) == ["5C", "5S"]
    refused(s, "stock", "must match")
    s.play("5S")
    s.play("JD")
    # seat 2 just played and holds no 5, nor does seat 0: seat 1 is asked
    assert s.current_player == 1 and s.legal_moves() == ["pass", "slough 5C"]
    s2 = start([["9H", "2C", "8D"], ["4C", "4S", "JC"], ["JD", "4D", "QH"]])
    s2.play("9H")
    s2.play("4C")  # 4 is losing; seat 1 holds 4S and is asked first
    assert s2.current_player == 1 and s2.legal_moves() == ["pass", "slough 4S"]
    s2.play("pass")
    # seat 2 holds 4D but has not played to this trick: it is not asked (AM-5, r2)
    assert s2.current_player == 2 and sorted(s2.legal_moves()) == ["4D", "JD", "QH", "stock"]


def test_am5_several_sloughs_in_one_turn_only_after_playing() -> None:
    """AM-5 (r2): any number of sloughs, one per move, only by a player who has already
    played to this trick; a player yet to play is not asked."""
    s = start([["6H", "2C", "8D"], ["KC", "9C", "JC"], ["6S", "6D", "QH"]])
    s.play("6H")
    s.play("KC")
    assert s.current_player == 2, "seat 2 holds two losing 6s but has not played"
    assert sorted(s.legal_moves()) == ["6D", "6S", "QH", "stock"]
    refused(s, "slough 6S", "no slough lap", "AM-5")
    s.play("QH")
    assert s.current_player == 2, "now seat 2 has played: the lap asks it first"
    assert sorted(s.legal_moves()) == ["pass", "slough 6D", "slough 6S"]
    s.play("slough 6S")
    assert s.current_player == 2 and s.legal_moves() == ["pass", "slough 6D"]
    s.play("slough 6D")
    view = s.view(None)
    assert view["last_winner"] == 1 and s.current_player == 1
    assert sorted(view["piles"][1]) == sorted(["6H", "KC", "QH", "6S", "6D"])


def test_am5_a_player_left_out_of_a_war_may_slough() -> None:
    """AM-5 (r2): a player left out of a war has played, so he is asked in the war's laps;
    the card winning the war round is not losing, the tied rank below it is."""
    s = start([["KH", "7C", "2D"], ["KS", "5C", "9D"], ["3S", "7D", "5H"]])
    s.play("KH")
    s.play("KS")
    s.play("3S")
    assert s.current_player == 0, "war between seats 0 and 1"
    s.play("7C")
    # 7C wins the war round: 7 is not losing, though seat 2 holds 7D (AM-5, r2);
    # 3 is losing but nobody holds one
    assert s.current_player == 1 and sorted(s.legal_moves()) == ["5C", "9D", "stock"]
    s.play("9D")
    # 9D now wins the round: 7 is losing; seat 2 (out of the war) is asked after seat 0
    assert s.view(None)["trick"]["losing_ranks"] == "37"
    assert s.current_player == 2 and s.legal_moves() == ["pass", "slough 7D"]
    s.play("slough 7D")
    assert s.view(None)["last_winner"] == 1


def test_am5_r1_readings_stay_for_r1_games() -> None:
    """AM-5 as read in r1 (records of r1 replay under it): a war round's winning card is
    losing when below the trick's highest rank, and a player yet to play may slough."""
    s = start([["KH", "2C", "8D"], ["4S", "4D", "JC"], ["KS", "8C", "3D"]], rules="r1")
    assert s.game.rules == "r1" and s.record()["rules"] == "r1"
    s.play("KH")
    s.play("4S")
    s.play("slough 4D")
    s.play("KS")
    s.play("8D")
    assert s.current_player == 2 and s.legal_moves() == ["pass", "slough 8C"]
    s.play("slough 8C")  # r1 lets seat 2 slough the very card must-match would force
    assert s.current_player == 2 and sorted(s.legal_moves()) == ["3D", "stock"]
    t = start([["6H", "2C", "8D"], ["KC", "9C", "JC"], ["6S", "6D", "QH"]], rules="r1")
    t.play("6H")
    t.play("KC")
    assert t.current_player == 2 and sorted(t.legal_moves()) == ["pass", "slough 6D", "slough 6S"]
    again = tikki.replay(t.record())
    assert again.game.rules == "r1" and again.legal_moves() == t.legal_moves()


def test_am5_the_shown_last_card_can_be_sloughed() -> None:
    """AM-5: the face-up last stock card in hand may be sloughed when its rank is losing."""

    def pred(st: State) -> bool:
        v = st.view(None)
        lap = v["trick"].get("losing_ranks")
        return bool(
            lap
            and v["shown_in_hand"]
            and v["to_act"] == v["shown_owner"]
            and v["shown_card"][0] in lap
        )

    s = find(pred, seeds=range(200))
    card = s.view(None)["shown_card"]
    assert f"slough {card}" in s.legal_moves()


# --- AM-6 / AM-7 -----------------------------------------------------------------------


def test_am6_draw_back_to_three_winner_first_then_clockwise() -> None:
    """AM-6/AM-7: the winner draws first, then clockwise; the winner leads."""
    s = start(
        [["3S", "3C", "KD"], ["4D", "9C", "4H"], ["7H", "QH", "QS"]],
        stock=["6C", "KH", "TC", "AC", "2S"],
    )
    for move in ("3S", "4D", "slough 3C", "QS", "pass"):
        s.play(move)
    assert s.current_player == 2, "AM-7: the winner leads"
    assert sorted(s.view(2)["hand"]) == sorted(["7H", "QH", "6C"])
    assert sorted(s.view(0)["hand"]) == sorted(["KD", "KH", "TC"])
    assert sorted(s.view(1)["hand"]) == sorted(["9C", "4H", "AC"])
    assert s.view(None)["stock_size"] == 52 - 9 - 5 + 1


def test_am6_last_stock_card_is_shown_to_all() -> None:
    """AM-6: who draws the last stock card shows it; its suit is trump."""
    s = find(lambda st: st.view(None)["stock_size"] == 0 and st.phase == "collect")
    public = s.view(None)
    card, owner = public["shown_card"], public["shown_owner"]
    assert card is not None and public["trump"] == card[1]
    for seat in range(3):
        assert s.view(seat)["shown_card"] == card
    if public["shown_in_hand"]:
        assert card in s.view(owner)["hand"]


# --- AM-8 ------------------------------------------------------------------------------


def test_am8_empty_handed_player_draws_when_due() -> None:
    """AM-8: a player due to play with no card draws one automatically (not a move)."""
    s = start([["KH", "2C", "8D"], ["KC", "3D", "3C"], ["3S", "9C", "JC"]], stock=["7D"])
    s.play("KH")
    s.play("KC")
    s.play("3S")
    for card in ("3D", "3C"):
        s.play(f"slough {card}")
    assert s.current_player == 0, "war between seats 0 and 1"
    s.play("8D")
    assert s.current_player == 1, "seat 1 sloughed its last cards and is due: it drew"
    view = s.view(1)
    assert view["hand"] == ["7D"] and view["move_count"] == 6
    assert sorted(s.legal_moves()) == ["7D", "stock"]


def test_am8_phase_one_ends_and_the_unfinished_trick_goes_back() -> None:
    """AM-8: due with no card and no stock: trick cards go back; last winner leads."""
    for before, after in states(seeds=range(60)):
        if before.phase == "collect" and after.phase != "collect":
            trick = before.view(None)["trick"]["cards"]
            pub = after.view(None)
            if pub["dreck"] is not None or not trick or after.is_over:
                continue
            if pub["last_winner"] != before.view(None)["last_winner"]:
                continue  # the last move finished a trick: nothing was unfinished
            last = before.clone()
            move = after.view(None)["history"][-1]
            for entry in trick:
                assert entry["card"] in pub["hands"][entry["seat"]]
            if move["move"] not in ("pass",) and not move["move"].startswith("slough"):
                card = move.get("card", move["move"])
                assert card in pub["hands"][move["seat"]]
            winner = pub["last_winner"]
            leader = winner if winner is not None else 0
            while not pub["hands"][leader]:
                leader = (leader + 1) % 3
            assert after.current_player == leader
            assert last.phase == "collect"
            return
    raise AssertionError("no phase-1 end with an unfinished trick and no dreck")


# --- AM-9 ------------------------------------------------------------------------------


def _dreck_states(players: int) -> Iterator[tuple[State, State]]:
    for before, after in states(players=players, seeds=range(80)):
        if (
            before.phase == "collect"
            and after.phase != "collect"
            and after.view(None)["dreck"] is not None
        ):
            yield before, after


@pytest.mark.parametrize("players", [3, 5])
def test_am9_dreck_from_six_or_more_to_fewer_than_six(players: int) -> None:
    """AM-9: 6+ give 2–5s and the 6 of trumps; dealt round to those who had fewer than 6."""
    checked = 0
    for _, after in _dreck_states(players):
        pub = after.view(None)
        full = after.reveal()["zones"]
        dreck = pub["dreck"]
        trump = pub["trump"]
        sizes = pub["hand_sizes"]
        began = [sizes[s] + dreck["given"][s] - dreck["received"][s] for s in range(players)]
        receivers = [s for s in range(players) if began[s] < 6]
        assert [s for s in range(players) if dreck["given"][s]] == [
            s for s in range(players) if began[s] >= 6 and dreck["given"][s]
        ]
        for s in range(players):
            hand = full[f"hand {s}"]
            if dreck["given"][s]:
                assert dreck["received"][s] == 0, "a giver receives nothing"
                assert not [c for c in hand if rank(c) <= 3 or c == "6" + trump]
        counts = [dreck["received"][s] for s in receivers]
        assert sum(counts) == len(dreck["cards"])
        assert max(counts) - min(counts) <= 1, "dealt one at a time, round and round"
        assert counts == sorted(counts, reverse=True), "from the forehand clockwise"
        checked += 1
    assert checked >= 3


def test_am9_dreck_split_is_hidden_and_seeded() -> None:
    """AM-9: who got which dreck card is hidden from the others; the seed drives it."""
    checked = 0
    for _, after in _dreck_states(5):
        dreck = after.view(None)["dreck"]
        takers = [s for s in range(5) if dreck["received"][s]]
        givers = [s for s in range(5) if dreck["given"][s]]
        if len(takers) < 2 or not givers:
            continue
        giver = givers[0]
        record = after.record()
        game = after.game
        splits = {}
        views = []
        for seed in range(6):
            other = game.new_state(deck=record["deck"], seed=seed)
            for move in record["moves"]:
                other.play(move)
            splits[seed] = tuple(tuple(x) for x in other.reveal()["secret"])
            views.append(other.view(giver))
            again = game.new_state(deck=record["deck"], seed=seed)
            for move in record["moves"]:
                again.play(move)
            assert again.reveal() == other.reveal(), "same seed, same dreck"
        assert len(set(splits.values())) > 1, "the seed drives the shuffle"
        assert all(v == views[0] for v in views), "a giver cannot tell the splits apart"
        pub = after.view(None)
        for s in takers:
            mine = after.view(s)["dreck"]["mine"]
            assert mine and not set(mine) & set(pub["hands"][s])
            assert set(mine) <= set(after.view(s)["hand"])
        samples = [game.sample_state(v, random.Random(4)).reveal() for v in views]
        assert all(x == samples[0] for x in samples), "the determinizer sees no split"
        checked += 1
        if checked >= 3:
            break
    assert checked >= 1


# --- AM-10 / AM-11 ----------------------------------------------------------------------


def _oracle(view: dict[str, Any], max_seq: int) -> set[str]:
    """The legal phase-2 moves, computed independently from a view (AM-10..AM-12)."""
    hand = view["hand"]
    by_suit: dict[str, list[int]] = {}
    for c in hand:
        by_suit.setdefault(c[1], []).append(rank(c))
    plays: list[list[str]] = [[c] for c in hand]
    for suit, ranks in by_suit.items():
        held = set(ranks)
        for low in ranks:
            for length in range(2, max_seq + 1):
                if all(low + i in held for i in range(length)):
                    plays.append([RANKS[low + i] + suit for i in range(length)])
    trick = view["trick"]["plays"]
    if not trick:
        return {"+".join(p) for p in plays}
    top = trick[-1]["cards"]
    trump = view["trump"]
    out = {"take"}
    for p in plays:
        suit = p[0][1]
        trumping = top[0][1] != trump and suit == trump
        beating = suit == top[0][1] and (
            rank(p[0]) > rank(top[-1]) or (len(top) > 1 and len(p) > len(top))
        )
        if trumping or beating:
            out.add("+".join(p))
    return out


@pytest.mark.parametrize("max_seq", [2, 3])
def test_am10_am11_phase_two_moves_match_the_rules(max_seq: int) -> None:
    """AM-10/AM-11/AM-12: every phase-2 position's legal moves (option max_sequence)."""
    seen_trump = 0
    for before, _ in states(seeds=range(25), max_sequence=max_seq):
        if before.phase != "shed":
            continue
        view = before.view(before.current_player)
        assert set(before.legal_moves()) == _oracle(view, max_seq)
        assert all(m.count("+") < max_seq for m in before.legal_moves())
        top = view["trick"]["plays"][-1]["cards"] if view["trick"]["plays"] else None
        for move in before.legal_moves():
            if top and move != "take" and move[1] == view["trump"] != top[0][1]:
                seen_trump += 1
    assert seen_trump


def test_am10_sequence_refusals() -> None:
    """AM-10: a sequence is 2–max_sequence cards of one suit in a row, low to high."""
    s = find(lambda st: st.phase == "shed" and not st.view(None)["trick"]["plays"])
    hand = s.view(s.current_player)["hand"]
    refused(s, "+".join(hand[:4]) if len(hand) >= 4 else "2S+3S+4S+5S", "AM-10")
    two = find(
        lambda st: (
            st.phase == "shed"
            and not st.view(None)["trick"]["plays"]
            and any(m.count("+") == 1 for m in st.legal_moves())
        ),
        max_sequence=2,
    )
    seq = next(m for m in two.legal_moves() if "+" in m)
    low, high = seq.split("+")
    nxt = RANKS[rank(high) + 1] + high[1] if rank(high) < 12 else None
    if nxt and nxt in two.view(two.current_player)["hand"]:
        refused(two, f"{seq}+{nxt}", "2–2", "AM-10")
    refused(two, f"{high}+{low}", "AM-10")


def test_am11_longer_sequence_beats_whatever_its_ranks_but_never_a_single_card() -> None:
    """AM-11: on a sequence a longer one of its suit beats; on a single card only higher."""

    def pred(st: State) -> bool:
        if st.phase != "shed":
            return False
        plays = st.view(None)["trick"]["plays"]
        if (
            not plays
            or len(plays[-1]["cards"]) != 2
            or plays[-1]["cards"][0][1] == st.view(None)["trump"]
        ):
            return False
        top = plays[-1]["cards"]
        return any(
            m.count("+") == 2 and m[1] == top[0][1] and rank(m) < rank(top[0])
            for m in st.legal_moves()
        )

    s = find(pred, seeds=range(150))
    top = s.view(None)["trick"]["plays"][-1]["cards"]
    low = [m for m in s.legal_moves() if m.count("+") == 2 and rank(m) < rank(top[0])]
    assert low, "a lower but longer sequence beats a sequence"
    for m in s.legal_moves():
        if m != "take" and m[1] == top[0][1] and m.count("+") <= 1:
            assert rank(m) > rank(top[-1])
    hand = s.view(s.current_player)["hand"]
    lower = [c for c in hand if c[1] == top[0][1] and rank(c) < rank(top[-1])]
    if lower:
        refused(s, lower[0], "must beat", "AM-11")


def test_am11_refusal_names_what_would_beat() -> None:
    """AM-11: a card that does not beat is refused with the rule in the message."""

    def pred(st: State) -> bool:
        if st.phase != "shed" or not st.view(None)["trick"]["plays"]:
            return False
        legal = set(st.legal_moves())
        return any(c not in legal for c in st.view(st.current_player)["hand"])

    s = find(pred)
    legal = set(s.legal_moves())
    card = next(c for c in s.view(s.current_player)["hand"] if c not in legal)
    refused(s, card, "must beat", "or take", "AM-11")


# --- AM-12 / AM-13 / AM-14 --------------------------------------------------------------


def test_am12_take_picks_up_the_whole_trick_and_the_next_player_leads() -> None:
    """AM-12: take moves every card of the trick into the taker's hand; next seat leads."""
    for before, after in states(seeds=range(20)):
        if before.phase != "shed" or after.view(None)["history"][-1]["move"] != "take":
            continue
        plays = before.view(None)["trick"]["plays"]
        if len(plays) < 2:
            continue
        seat = before.current_player
        assert seat is not None
        cards = [c for p in plays for c in p["cards"]]
        hand = after.view(seat)["hand"]
        assert set(cards) <= set(hand)
        assert len(hand) == len(before.view(seat)["hand"]) + len(cards)
        assert after.view(None)["trick"]["plays"] == []
        nxt = (seat + 1) % 3
        while not after.view(None)["hand_sizes"][nxt]:
            nxt = (nxt + 1) % 3
        assert after.current_player == nxt
        return
    raise AssertionError("no take of a two-play trick found")


def test_am12_take_is_not_a_lead() -> None:
    """AM-12: leading a trick, there is nothing to take."""
    s = find(lambda st: st.phase == "shed" and not st.view(None)["trick"]["plays"])
    assert "take" not in s.legal_moves()
    refused(s, "take", "nothing to take")


def test_am13_trick_finishes_after_as_many_plays_as_players_with_cards() -> None:
    """AM-13: a trick finished with one play per player with cards; its player leads."""
    done = 0
    for before, after in states(seeds=range(20)):
        if before.phase != "shed":
            continue
        pb, pa = before.view(None), after.view(None)
        if pa["history"][-1]["move"] == "take" or after.is_over:
            continue
        if pb["trick"]["plays"]:
            size = pb["trick"]["size"]
        else:
            size = sum(1 for h in pb["hand_sizes"] if h)
        if len(pb["trick"]["plays"]) + 1 == size:
            assert pa["trick"]["plays"] == []
            assert len(pa["fallen"]) > len(pb["fallen"])
            seat = pa["history"][-1]["seat"]
            while not pa["hand_sizes"][seat]:
                seat = (seat + 1) % 3
            assert after.current_player == seat
            done += 1
        else:
            assert len(pa["trick"]["plays"]) == len(pb["trick"]["plays"]) + 1
    assert done > 10


def test_am14_out_order_and_loser() -> None:
    """AM-14: empty hands are out in order; the last holder loses; returns per docs/design.md."""
    for seed in range(10):
        state = tikki.load("mattis").new_state(seed=seed)
        rng = random.Random(seed)
        outs: list[int] = []
        while not state.is_over:
            state.play(rng.choice(state.legal_moves()))
            pub = state.view(None)
            if state.phase != "collect":
                for s, size in enumerate(pub["hand_sizes"]):
                    if size == 0 and s not in outs:
                        outs.append(s)
        outcome = state.outcome
        assert outcome is not None and not outcome["abandoned"]
        assert outcome["out_order"] == outs
        loser = outcome["loser"]
        assert loser is not None and loser not in outs
        assert state.view(None)["hand_sizes"][loser] > 0
        assert outcome["returns"][loser] == -1.0
        assert state.phase == "over" and state.legal_moves() == []


def test_am14_c5_every_move_counts_including_sloughs_and_passes() -> None:
    """AM-14/C-5: max_moves counts slough and pass; reaching it abandons the game."""
    s = start([["3S", "3C", "KD"], ["4D", "9C", "4H"], ["7H", "QH", "QS"]], max_moves=5)
    for move in ("3S", "4D", "pass", "QS"):
        s.play(move)
    assert not s.is_over
    s.play("slough 3C")
    assert s.is_over and s.phase == "over"
    assert s.outcome == {
        "loser": None,
        "out_order": [],
        "abandoned": True,
        "returns": [-1.0, -1.0, -1.0],
    }
    with pytest.raises(IllegalMove, match="over"):
        s.play("pass")


def test_options_validated() -> None:
    """Options: max_sequence is 2 or 3 (default 3); max_moves at least 1; 2–5 players."""
    assert tikki.load("mattis").options["max_sequence"] == 3
    assert tikki.load("mattis").options["max_moves"] == 2000
    with pytest.raises(tikki.RulesError, match="valid values are 2, 3"):
        tikki.load("mattis", max_sequence=4)
    with pytest.raises(tikki.RulesError, match="valid values are round, trick"):
        tikki.load("mattis", war_match="hand")
    with pytest.raises(tikki.RulesError, match="at least 1"):
        tikki.load("mattis", max_moves=0)
    with pytest.raises(tikki.RulesError, match="2–5"):
        tikki.load("mattis", players=6)


# --- C-4 and the determinizer -----------------------------------------------------------


def _known_none(view: dict[str, Any], seat: int) -> set[str]:
    """Ranks ``seat`` is publicly known to lack now (facts since its last draw)."""
    last = max((3 * t + 1 for t, s, _ in view["draws"] if s == seat), default=-1)
    out: set[str] = set()
    for t, s, ranks, kind in view["facts"]:
        when = 3 * t + 2 if kind == "no-match" else 3 * t
        if s == seat and kind != "holds" and when > last:
            out.update(ranks)
    return out


def test_c4_facts_follow_from_play() -> None:
    """C-4: a seat that did not match, or was not asked to slough, holds no such card."""
    checked = 0
    for before, _ in states(seeds=range(15)):
        if before.phase != "collect":
            continue
        view = before.view(None)
        hands = before.reveal()["zones"]
        for seat in range(3):
            lacking = _known_none(view, seat)
            held = {c[0] for c in hands[f"hand {seat}"]}
            assert not lacking & held
            checked += bool(lacking)
        lap = view["trick"].get("losing_ranks")
        if lap:
            actor = view["to_act"]
            assert any(c[0] in lap for c in hands[f"hand {actor}"])
    assert checked > 100


def test_sample_state_respects_the_view_and_c4_facts() -> None:
    """Determinizer: the sample's view is the view; unseen cards obey every C-4 fact."""
    checked = 0
    for i, (before, _) in enumerate(states(seeds=range(8))):
        if i % 3:
            continue
        for seat in range(3):
            view = before.view(seat)
            sample = before.game.sample_state(view, random.Random(i * 3 + seat))
            assert sample.view(seat) == view
            zones = sample.reveal()["zones"]
            if before.phase == "collect":
                for other in range(3):
                    held = {c[0] for c in zones[f"hand {other}"]}
                    assert not _known_none(view, other) & held
                lap = view["trick"].get("losing_ranks")
                if lap:
                    assert any(c[0] in lap for c in zones[f"hand {view['to_act']}"])
                checked += 1
            clone = sample.clone()
            for _ in range(20):
                if clone.is_over:
                    break
                clone.play(random.Random(i).choice(clone.legal_moves()))
    assert checked > 100


def test_sample_state_varies_and_uses_only_the_view() -> None:
    """Determinizer: different rngs give different deals; same view and rng, same state."""
    state = tikki.load("mattis").new_state(seed=5)
    rng = random.Random(5)
    for _ in range(20):
        state.play(rng.choice(state.legal_moves()))
    view = state.view(0)
    deals = {
        tuple(state.game.sample_state(view, random.Random(k)).reveal()["zones"]["hand 1"])
        for k in range(20)
    }
    assert len(deals) > 1
    a = state.game.sample_state(view, random.Random(7)).reveal()
    b = state.game.sample_state(view, random.Random(7)).reveal()
    assert a == b


def test_c4_r2_only_a_seat_that_has_played_holds_no_sloughable_card() -> None:
    """C-4 with AM-5 (r2): a seat that has not played is not asked, which says nothing
    about its hand, so the determinizer may deal it a losing rank; under r1 the same
    lap tells that it holds none."""
    hands = [["3H", "2C", "8D"], ["KC", "9C", "JC"], ["QH", "6D", "TS"]]
    for rules, possible in (("r2", True), ("r1", False)):
        s = start(hands, rules=rules)
        s.play("3H")
        s.play("KC")
        assert s.current_player == 2 and s.phase == "collect"
        view = s.view(0)
        facts = {(seat, kind) for _, seat, ranks, kind in view["facts"] if "3" in ranks}
        assert ((2, "none") in facts) is not possible, rules
        threes = 0
        for k in range(60):
            sample = s.game.sample_state(view, random.Random(k))
            assert sample.view(0) == view
            threes += any(c[0] == "3" for c in sample.reveal()["zones"]["hand 2"])
        assert (threes > 0) is possible, rules


def test_am9_a_sampled_world_keeps_the_public_dreck_secrets() -> None:
    """AM-9: a world drawn from a receiver's view (C-4) keeps the *other* receivers' dreck
    cards secret too, so its public view is the real one, also after dreck cards were shed
    (a shed dreck card is secret no more)."""
    checked = 0
    rng = random.Random(3)
    for _, after in _dreck_states(5):
        takers = [s for s in range(5) if after.view(None)["dreck"]["received"][s]]
        if len(takers) < 2:
            continue
        state = after.clone()
        for step in range(12):
            for seat in takers:
                world = state.game.sample_state(state.view(seat), rng)
                assert world.view(None) == state.view(None), f"seat {seat}, step {step}"
                checked += 1
            if state.is_over:
                break
            state.play(rng.choice(state.legal_moves()))
    assert checked >= 20


def test_am1_research_hand_and_short_deck_deal_by_the_same_rule() -> None:
    """AM-1 deals three each; the research options (``variant=mini``: two suits of two
    ranks, ``hand=1``) deal one each by the same rule, the rest is the stock, and a deck
    too small to keep a stock is refused."""
    game = tikki.load("mattis", players=2, variant="mini")
    assert sorted(game.deck()) == sorted(["AS", "KS", "AH", "KH"])
    view = game.new_state(deck=["KH", "AS", "KS", "AH"]).view(None)
    assert view["hand_sizes"] == [1, 1] and view["stock_size"] == 2
    with pytest.raises(tikki.RulesError, match="too small for 4 players"):
        tikki.load("mattis", players=4, variant="mini")


def _held_masks(state: Any) -> list[int]:
    """Each hand as a bit mask, from the hands themselves."""
    return [sum(1 << c for c in hand) for hand in state._hands]


def _in_order(state: Any) -> bool:
    """Whether every hand lists its cards low to high."""
    return all(hand == sorted(hand) for hand in state._hands)


def test_phase_two_hand_masks_follow_the_hands() -> None:
    """Phase 2 keeps each hand also as a bit mask (its legal moves read it), and each
    hand in order (a lead's legal moves and a view's hand read it as it is): after every
    play and take of random games, in their clones and in states sampled from a seat's
    view (the dreck dealt anew), the masks are the hands and the hands are in order."""
    checked = 0
    rng = random.Random(11)
    for seed, players in ((1, 3), (2, 4), (3, 5), (4, 2)):
        state: Any = tikki.load("mattis", players=players).new_state(seed=seed)
        while not state.is_over:
            if state.phase == "shed":
                assert state._held == _held_masks(state), f"seed {seed}, move {len(state.moves)}"
                assert _in_order(state), f"seed {seed}, move {len(state.moves)}"
                clone: Any = state.clone()
                assert clone._held == _held_masks(clone) and _in_order(clone)
                seat = state.current_player
                world: Any = state.game.sample_state(state.view(seat), rng)
                assert world._held == _held_masks(world) and _in_order(world)
                checked += 1
            state.play(rng.choice(state.legal_moves()))
    assert checked >= 100


def _phase_two_parts(state: Any) -> tuple[Any, ...]:
    """What a phase-2 move changes, to compare two ways of making it."""
    return (
        state._hands,
        state._held,
        state._secret,
        state._plays,
        state._trick_size,
        state._out,
        state._fallen,
        state._taken,
        state._hist,
        state._to_act,
        state._phase,
        state.is_over,
        state._far_from_end,
        len(state._event_log),
    )


def test_play_makes_phase_two_moves_as_shed_and_take_do() -> None:
    """``play`` of a phase-2 move is ``_shed`` or ``_take`` (``random_playout`` calls them;
    they go through ``play``, which holds phase 2's moves): after every phase-2 move
    of random games (2-5 players, max_sequence 2 and 3), a clone that made the same move
    by ``_shed`` or ``_take`` is the same state (the public view, hands, masks, trick, history)."""
    shed_cards = sys.modules[tikki.load("mattis").new_state(seed=0).__module__]._SHED_CARDS
    checked = 0
    rng = random.Random(5)
    for seed, players, longest in ((1, 3, 3), (2, 4, 2), (3, 5, 3), (4, 2, 3), (5, 3, 2)):
        game = tikki.load("mattis", players=players, max_sequence=longest)
        state: Any = game.new_state(seed=seed)
        while not state.is_over:
            move = rng.choice(state.legal_moves())
            if state.phase != "shed":
                state.play(move)
                continue
            other: Any = state.clone()
            if move == "take":
                other._take()
            else:
                other._shed(shed_cards[move], move)
            state.play(move)
            assert _phase_two_parts(other) == _phase_two_parts(state), f"seed {seed}: {move}"
            assert other.view(None) == state.view(None), f"seed {seed}: {move}"
            checked += 1
    assert checked >= 500


@pytest.mark.parametrize("max_moves", [2000, 60])
def test_is_over_follows_the_phase_in_play_clones_and_samples(max_moves: int) -> None:
    """``is_over`` (an attribute, set where the game ends: finished or abandoned at
    max_moves, C-5) agrees with the phase after every move, in a clone and in a state
    sampled from a view; a view of the ended game samples an ended state."""
    game = tikki.load("mattis", players=3, max_moves=max_moves)
    for seed in range(4):
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        while True:
            over = state.phase == "over"
            assert state.is_over is over and state.clone().is_over is over
            seat = 0 if over else state.current_player
            assert game.sample_state(state.view(seat), rng).is_over is over
            if over:
                break
            state.play(rng.choice(state.legal_moves()))
        assert state.outcome is not None and state.outcome["abandoned"] is (max_moves == 60)


def _moves_until_over(game: tikki.Game, seed: int, playout: bool) -> tuple[int, bool]:
    """The moves a game of ``seed`` lasts, uniform moves through the text API (or
    ``random_playout``), and whether it was abandoned."""
    state: Any = game.new_state(seed=seed)
    rng = random.Random(seed)
    if playout:
        state.random_playout(rng)
    while state.phase != "over":
        state.play(rng.choice(state.legal_moves()))
    outcome = state.outcome
    assert outcome is not None
    return len(state._hist), bool(outcome["abandoned"])


@pytest.mark.parametrize("playout", [False, True])
def test_c5_abandoned_exactly_at_max_moves_near_and_far_from_it(playout: bool) -> None:
    """C-5: with any max_moves, a game is the same game cut at exactly max_moves moves:
    also where max_moves is more than phase 1's most and a take's span (the moves that
    need no count) and where it is reached only after takes, through ``play`` and
    ``random_playout``."""
    cuts = 0
    for players, max_seq in ((2, 3), (3, 2), (3, 3), (4, 3)):
        full = tikki.load("mattis", players=players, max_sequence=max_seq)
        for seed in range(6):
            length, abandoned = _moves_until_over(full, seed, playout)
            assert not abandoned
            for cut in {length + 1, length, length - 1, length - 2, length - 53, length - 54}:
                if cut < 1:
                    continue
                game = tikki.load("mattis", players=players, max_sequence=max_seq, max_moves=cut)
                got = _moves_until_over(game, seed, playout)
                assert got == ((cut, True) if cut < length else (length, False))
                cuts += cut < length
    assert cuts >= 80
