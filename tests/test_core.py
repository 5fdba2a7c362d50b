"""The public contract (docs/design.md) on Myllymatti: errors, options, records, views, sampling.

* Unknown games, options, values and variants, bad player counts and bad decks raise
  ``RulesError`` naming what is valid.
* Records survive JSON and ``tikki.replay``; tampering is caught and the message names
  the first bad field or move; a seat's record holds no seed, deck or move list.
* ``view(seat)`` shows no other seat's hand in phase 1 (checked by equivalence too) and
  every hand in phase 2.
* ``sample_state``: its state shows the same view, plays on legally, depends on the view
  only, and is uniform over the unseen cards (a chi-square test on a small position).
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from itertools import combinations
from typing import Any

import pytest

import tikki
from tikki import IllegalMove, RulesError, State

pytestmark = [pytest.mark.engine, pytest.mark.newest, pytest.mark.compiled]

CARDS = [r + s for s in "SHDC" for r in "23456789TJQKA"]
OPTION_NAMES = [
    "variant",
    "take",
    "runs",
    "duel",
    "trump_requires_void",
    "max_moves",
    "ranks",
    "suits",
    "hand",
]
CONFIGS: list[dict[str, Any]] = [
    {"players": 2},
    {"players": 3},
    {"players": 4},
    {"players": 3, "variant": "koira"},
    {"players": 4, "runs": True, "take": "all", "trump_requires_void": True},
    {"players": 2, "variant": "koira", "take": "top", "duel": True},
    {"players": 3, "max_moves": 40},
]


def load(config: dict[str, Any]) -> tikki.Game:
    options = dict(config)
    return tikki.load("myllymatti", players=options.pop("players"), **options)


def playout(state: State, rng: random.Random, moves: int) -> State:
    """Play up to ``moves`` random legal moves."""
    for _ in range(moves):
        if state.is_over:
            break
        state.play(rng.choice(state.legal_moves()))
    return state


def tokens(value: Any) -> set[str]:
    """Every card-like token of a JSON value."""
    return set(re.findall(r"[0-9A-Za-z]+", json.dumps(value)))


# --- loading: games, options, players --------------------------------------------------------


def test_unknown_game_names_the_games() -> None:
    with pytest.raises(RulesError, match=r"no game 'mylly'.*myllymatti"):
        tikki.load("mylly")


def test_game_name_is_forgiving_about_case() -> None:
    assert tikki.load(" Myllymatti ").name == "myllymatti"


def test_unknown_option_names_the_valid_options() -> None:
    with pytest.raises(RulesError) as info:
        tikki.load("myllymatti", players=3, trumps=True)
    message = str(info.value)
    assert "'trumps'" in message
    for name in OPTION_NAMES:
        assert name in message


@pytest.mark.parametrize(
    ("option", "value", "needle"),
    [
        ("take", "sideways", "valid values are top, bottom, all"),
        ("take", 3, "takes text"),
        ("runs", "maybe", "true or false"),
        ("duel", 2, "true or false"),
        ("trump_requires_void", None, "true or false"),
        ("max_moves", "lots", "whole number"),
        ("max_moves", 0, "at least 1"),
        ("max_moves", True, "whole number"),
    ],
)
def test_bad_option_value_names_what_is_valid(option: str, value: Any, needle: str) -> None:
    with pytest.raises(RulesError, match=re.escape(needle)):
        tikki.load("myllymatti", **{option: value})


def test_option_text_values_are_read() -> None:
    as_text: dict[str, Any] = {"players": "4", "runs": "true", "duel": "off", "max_moves": "99"}
    game = tikki.load("myllymatti", **as_text)
    assert game.players == 4
    assert game.options["runs"] is True and game.options["duel"] is False
    assert game.options["max_moves"] == 99


def test_unknown_variant_names_the_variants() -> None:
    with pytest.raises(RulesError, match=r"no variant 'dog'.*standard, koira"):
        tikki.load("myllymatti", variant="dog")


@pytest.mark.parametrize("players", [0, 1, 5, 9, -3, "x", 2.5, True])
def test_players_out_of_range(players: Any) -> None:
    with pytest.raises(RulesError, match="2–4"):
        tikki.load("myllymatti", players=players)


def test_options_include_every_option_with_defaults_and_variant() -> None:
    game = tikki.load("myllymatti")
    assert game.name == "myllymatti" and game.players == 3
    assert game.options == {
        "variant": "standard",
        "take": "top",
        "runs": False,
        "duel": True,
        "trump_requires_void": False,
        "max_moves": 2000,
        "ranks": 13,
        "suits": 4,
        "hand": 3,
    }
    game.options["take"] = "all"  # a copy: the game stays immutable
    assert game.options["take"] == "top"
    assert tikki.load("myllymatti", variant=None).options["variant"] == "standard"


def test_games_lists_myllymatti_with_option_specs() -> None:
    listing = tikki.games()
    assert "myllymatti" in listing
    info = listing["myllymatti"]
    assert info["players"] == {"min": 2, "max": 4, "default": 3}
    assert info["variants"]["koira"] == {"duel": False, "take": "bottom", "runs": True}
    specs = {spec["name"]: spec for spec in info["options"]}
    assert sorted(specs) == sorted(OPTION_NAMES[1:])
    assert specs["take"]["choices"] == ["top", "bottom", "all"]
    assert specs["take"]["default"] == "top" and specs["take"]["type"] == "str"
    assert specs["runs"]["default"] is False and specs["runs"]["type"] == "bool"
    assert specs["max_moves"]["default"] == 2000 and specs["max_moves"]["minimum"] == 1
    assert all(spec["help"] for spec in specs.values())
    # the research options (a short deck, short hands) say so: the lobby keeps them apart
    assert {name for name, spec in specs.items() if spec.get("research")} == {
        "ranks",
        "suits",
        "hand",
    }
    json.dumps(listing)


# --- decks ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("deck", "needle"),
    [
        (CARDS[:51], "got 51 cards; missing ['AC']"),
        ([*CARDS, "2S"], "extra ['2S']"),
        ([*CARDS[:51], "2S"], "missing ['AC']; extra ['2S']"),
        ([*CARDS[:51], "1C"], "deck card 52 ('1C') is not a card"),
        ([*CARDS[:51], 7], "deck card 52 (7) is not a card"),
        ("2S3S", "a deck is a list"),
        ([], "got 0 cards"),
    ],
)
def test_incomplete_or_wrong_deck_is_refused(deck: Any, needle: str) -> None:
    with pytest.raises(RulesError, match=re.escape(needle)):
        tikki.load("myllymatti").new_state(deck=deck)


def test_seed_must_be_a_whole_number() -> None:
    with pytest.raises(RulesError, match="seed"):
        tikki.load("myllymatti").new_state(seed="7")


def test_same_seed_same_game_and_deck_fixes_the_deal() -> None:
    game = tikki.load("myllymatti")
    assert game.new_state(seed=5).reveal() == game.new_state(seed=5).reveal()
    assert game.new_state(seed=5).reveal() != game.new_state(seed=6).reveal()
    state = game.new_state(deck=CARDS)
    assert state.reveal()["deal_order"] == CARDS
    assert state.record()["seed"] == 0 and state.record()["deck"] == CARDS


# --- records ----------------------------------------------------------------------------------


def finished(config: dict[str, Any], seed: int, deck: bool = False) -> State:
    game = load(config)
    if deck:
        order = CARDS[:]
        random.Random(seed).shuffle(order)
        state = game.new_state(deck=order)
    else:
        state = game.new_state(seed=seed)
    return playout(state, random.Random(seed), 10_000)


@pytest.mark.parametrize("config", CONFIGS)
def test_record_json_replay_round_trip(config: dict[str, Any]) -> None:
    for seed, deck in ((1, False), (2, True)):
        state = finished(config, seed, deck)
        record = json.loads(json.dumps(state.record()))
        assert record["format"] == 1 and record["rules"] == tikki.RULES_REVISION
        assert record["game"] == "myllymatti" and record["options"] == load(config).options
        assert ("deck" in record) == deck and record["outcome"] == state.outcome
        again = tikki.replay(record)
        assert again.reveal() == state.reveal() and again.outcome == state.outcome
        assert again.record() == state.record()


def test_unfinished_record_replays_to_the_same_position() -> None:
    state = playout(tikki.load("myllymatti").new_state(seed=3), random.Random(3), 30)
    record = json.loads(json.dumps(state.record()))
    assert "outcome" not in record
    again = tikki.replay(record)
    assert again.reveal() == state.reveal() and again.legal_moves() == state.legal_moves()


def record_of(seed: int = 4) -> dict[str, Any]:
    record: dict[str, Any] = json.loads(json.dumps(finished({"players": 3}, seed).record()))
    return record


def test_tampered_move_names_the_first_bad_move() -> None:
    record = record_of()
    state = tikki.load("myllymatti").new_state(seed=record["seed"])
    for move in record["moves"][:7]:
        state.play(move)
    bad = next(c for c in CARDS if c not in state.legal_moves())
    seat = state.current_player
    record["moves"][7] = bad
    record["moves"][9] = "nonsense"
    with pytest.raises(RulesError, match=re.escape(f"record move 8, {bad} by seat {seat}, is")):
        tikki.replay(record)
    record["moves"][7] = 42
    with pytest.raises(RulesError, match=r"record move 8 is a number \(42\), not a move text"):
        tikki.replay(record)


def test_moves_after_the_end_are_refused() -> None:
    record = record_of()
    record["moves"].append("take")
    n = len(record["moves"])
    with pytest.raises(RulesError, match=rf"record move {n} \(take\) comes after the end"):
        tikki.replay(record)


@pytest.mark.parametrize(
    ("field", "value", "needle"),
    [
        ("format", 2, "record format 2 is not supported"),
        ("format", "1", "record format '1' is not supported"),
        ("rules", "r0", "played under rules 'r0'; this tikki replays 'r1', 'r2'"),
        ("rules", None, "played under rules None"),
        ("options", {"take": "sideways"}, "option take cannot be 'sideways'"),
        ("options", [], "'options' must be an object"),
        ("moves", "2S 3S", "'moves' must be a list"),
        ("game", "chess", "no game 'chess'"),
        ("players", 7, "not 7"),
    ],
)
def test_tampered_field_is_named(field: str, value: Any, needle: str) -> None:
    record = record_of()
    record[field] = value
    with pytest.raises(RulesError, match=re.escape(needle)):
        tikki.replay(record)


def test_a_file_that_is_no_record_says_so() -> None:
    """Any other JSON object (no ``format``) is not taken for a record of an odd format."""
    for other in ({"x": 1}, {"game": "myllymatti"}):
        with pytest.raises(RulesError) as caught:
            tikki.replay(other)
        assert "not a tikki game record" in str(caught.value)
        assert "None" not in str(caught.value)


@pytest.mark.parametrize("key", ["format", "rules", "game", "players", "options", "seed", "moves"])
def test_missing_key_is_named(key: str) -> None:
    record = record_of()
    del record[key]
    with pytest.raises(RulesError, match=key):
        tikki.replay(record)


def test_changed_outcome_is_caught() -> None:
    record = record_of()
    outcome = record["outcome"]
    loser = outcome["loser"]
    outcome["loser"] = (loser + 1) % 3
    with pytest.raises(RulesError, match=r"the record's outcome \(seat \d loses\) is not the"):
        tikki.replay(record)


def test_changed_seed_or_deck_is_caught() -> None:
    record = record_of()
    record["seed"] = record["seed"] + 1
    with pytest.raises(RulesError, match=r"record move|record's outcome"):
        tikki.replay(record)
    decked = json.loads(json.dumps(finished({"players": 3}, 5, deck=True).record()))
    decked["deck"] = decked["deck"][:-1]
    with pytest.raises(RulesError, match="missing"):
        tikki.replay(decked)


def test_seat_record_has_no_seed_deck_or_moves_and_does_not_replay() -> None:
    state = playout(tikki.load("myllymatti").new_state(deck=CARDS), random.Random(1), 25)
    for seat in range(3):
        record = json.loads(json.dumps(state.record(seat)))
        assert record["seat"] == seat and record["history"] == state.view(seat)["history"]
        assert not {"seed", "deck", "moves"} & set(record)
        with pytest.raises(RulesError, match="one seat's record"):
            tikki.replay(record)
    for bad in (3, -1, True, "0"):
        with pytest.raises(RulesError):
            state.record(bad)


def test_replay_refuses_non_records() -> None:
    with pytest.raises(RulesError, match="JSON object"):
        tikki.replay(["2S"])  # type: ignore[arg-type]


# --- views ------------------------------------------------------------------------------------


@pytest.mark.parametrize("config", CONFIGS)
def test_phase_1_view_never_shows_another_seats_hand(config: dict[str, Any]) -> None:
    game = load(config)
    for seed in range(4):
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        while state.phase == "collect":
            zones = state.reveal()["zones"]
            for seat in range(game.players):
                view = state.view(seat)
                assert view["hands"] is None
                secret = set(zones["stock"]) | set(zones["aside"])
                for other in range(game.players):
                    if other != seat:
                        secret |= set(zones[f"hand {other}"])
                assert not tokens(view) & secret, f"seat {seat} sees {tokens(view) & secret}"
                assert sorted(view["hand"]) == sorted(zones[f"hand {seat}"])
            public = set(zones["stock"]) | set(zones["aside"])
            for s in range(game.players):
                public |= set(zones[f"hand {s}"])
            assert not tokens(state.view(None)) & public
            state.play(rng.choice(state.legal_moves()))


@pytest.mark.parametrize("config", [c for c in CONFIGS if "max_moves" not in c])
def test_phase_2_view_shows_every_hand(config: dict[str, Any]) -> None:
    game = load(config)
    for seed in range(6):
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        while state.phase == "collect":
            state.play(rng.choice(state.legal_moves()))
        if state.phase != "shed":
            continue
        zones = state.reveal()["zones"]
        hands = [sorted(zones[f"hand {s}"]) for s in range(game.players)]
        for seat in [*range(game.players), None]:
            view = state.view(seat)
            assert [sorted(h) for h in view["hands"]] == hands
            assert view["trump"] is not None and view["aside_card"] is not None
        return
    pytest.fail("no game reached phase 2")


def test_view_of_a_bad_seat_is_refused() -> None:
    state = tikki.load("myllymatti").new_state(seed=1)
    for seat in (3, -1, "1", True):
        with pytest.raises(RulesError):
            state.view(seat)  # type: ignore[arg-type]


def swapped_twin(state: State, seat: int, rng: random.Random) -> State | None:
    """The same game dealt from a deck with two cards hidden from ``seat`` swapped."""
    hidden = sorted(set(state.reveal()["hidden"][str(seat)]))
    if len(hidden) < 2:
        return None
    a, b = rng.sample(hidden, 2)
    deck = [b if c == a else a if c == b else c for c in state.reveal()["deal_order"]]
    twin = state.game.new_state(deck=deck)
    for move in state.moves:
        twin.play(move)
    assert twin.reveal() != state.reveal()
    return twin


@pytest.mark.parametrize("config", CONFIGS)
def test_hidden_cards_change_neither_view_nor_sample(config: dict[str, Any]) -> None:
    """Equivalence: states differing only in cards hidden from a seat give that seat the
    same view, and sample_state gives the same state for the same rng seed."""
    game = load(config)
    checked = 0
    for seed in range(12):
        order = CARDS[:]
        random.Random(seed).shuffle(order)
        rng = random.Random(seed)
        state = playout(game.new_state(deck=order), rng, rng.randrange(0, 45))
        seat = rng.randrange(game.players)
        twin = swapped_twin(state, seat, rng)
        if twin is None:
            continue
        assert twin.view(seat) == state.view(seat)
        one = game.sample_state(state.view(seat), random.Random(seed)).reveal()
        two = game.sample_state(twin.view(seat), random.Random(seed)).reveal()
        assert one == two
        checked += 1
    assert checked >= 8


# --- the determinizer ---------------------------------------------------------------------------


@pytest.mark.parametrize("config", CONFIGS)
def test_sample_state_agrees_with_view_and_plays_on_legally(config: dict[str, Any]) -> None:
    game = load(config)
    for seed in range(8):
        rng = random.Random(seed)
        state = playout(game.new_state(seed=seed), rng, rng.randrange(0, 90))
        for seat in range(game.players):
            view = state.view(seat)
            sample = game.sample_state(view, random.Random(seed * 10 + seat))
            assert sample.view(seat) == view
            assert sample.phase == state.phase and sample.current_player == state.current_player
            if seat == state.current_player:
                assert sample.legal_moves() == state.legal_moves()
            zones = sample.reveal()["zones"]
            assert Counter(c for cards in zones.values() for c in cards) == Counter(CARDS)
            if view["hands"] is not None:  # phase 2: nothing is hidden
                assert sample.reveal()["zones"] == state.reveal()["zones"]
            play_rng = random.Random(seed)
            while not sample.is_over:
                legal = sample.legal_moves()
                assert legal
                sample.play(play_rng.choice(legal))
            assert sample.outcome is not None


def test_sample_state_needs_a_seats_view_of_this_game() -> None:
    game = tikki.load("myllymatti")
    state = game.new_state(seed=1)
    with pytest.raises(RulesError, match="seat's view"):
        game.sample_state(state.view(None), random.Random(0))
    other = tikki.load("myllymatti", variant="koira")
    with pytest.raises(RulesError, match="other players or options"):
        other.sample_state(state.view(0), random.Random(0))


def test_sample_state_is_uniform_over_unseen_cards() -> None:
    """On a small position (2 players, two stock cards left; seat 0 cannot see seat 1's 3
    cards nor the 2 stock cards) every 3-of-5 split for seat 1's hand is equally likely:
    chi-square over the 10 splits, 9 degrees of freedom, critical value 27.88 (p = 0.001);
    and each unseen card is in seat 1's hand 3/5 of the time."""
    game = tikki.load("myllymatti", players=2)
    state = game.new_state(deck=CARDS)
    while state.view(None)["stock_size"] > 2:
        state.play(state.legal_moves()[0])
    assert state.phase == "collect" and state.view(None)["hand_sizes"] == [3, 3]
    view = state.view(0)
    unseen = sorted(state.reveal()["hidden"]["0"])
    assert len(unseen) == 5
    draws = 4000
    splits: Counter[tuple[str, ...]] = Counter()
    rng = random.Random(2024)
    for _ in range(draws):
        sample = game.sample_state(view, rng)
        opponent = tuple(sorted(sample.reveal()["zones"]["hand 1"]))
        assert set(opponent) <= set(unseen)
        splits[opponent] += 1
    categories = list(combinations(unseen, 3))
    assert set(splits) <= set(categories)
    expected = draws / len(categories)
    chi2 = sum((splits[c] - expected) ** 2 / expected for c in categories)
    assert chi2 < 27.88, f"chi-square {chi2:.1f} over {dict(splits)}"
    for card in unseen:
        share = sum(n for split, n in splits.items() if card in split) / draws
        assert abs(share - 0.6) < 0.04, (card, share)


@pytest.mark.parametrize("config", CONFIGS)
def test_sampler_draws_like_sample_state(config: dict[str, Any]) -> None:
    """Game.sampler(view) (many draws from one view): each draw shows the same view, holds
    every card once, depends on the view only, and plays on legally."""
    game = load(config)
    for seed in range(6):
        order = CARDS[:]
        random.Random(seed).shuffle(order)
        rng = random.Random(seed)
        state = playout(game.new_state(deck=order), rng, rng.randrange(0, 60))
        seat = rng.randrange(game.players)
        view = state.view(seat)
        draw = game.sampler(view)
        twin = swapped_twin(state, seat, rng)
        for k in range(3):
            sample = draw(random.Random(k))
            assert sample.view(seat) == view
            zones = sample.reveal()["zones"]
            assert Counter(c for cards in zones.values() for c in cards) == Counter(CARDS)
            if twin is not None:
                other = game.sampler(twin.view(seat))(random.Random(k))
                assert other.reveal() == sample.reveal()
            playout(sample, random.Random(k), 10_000)
            assert sample.is_over


def test_sampler_is_uniform_over_unseen_cards() -> None:
    """The sampler's splits of 5 unseen cards (as in the sample_state test) are uniform."""
    game = tikki.load("myllymatti", players=2)
    state = game.new_state(deck=CARDS)
    while state.view(None)["stock_size"] > 2:
        state.play(state.legal_moves()[0])
    unseen = sorted(state.reveal()["hidden"]["0"])
    draw = game.sampler(state.view(0))
    rng = random.Random(7)
    draws = 4000
    splits = Counter(tuple(sorted(draw(rng).reveal()["zones"]["hand 1"])) for _ in range(draws))
    categories = list(combinations(unseen, 3))
    assert set(splits) <= set(categories)
    expected = draws / len(categories)
    chi2 = sum((splits[c] - expected) ** 2 / expected for c in categories)
    assert chi2 < 27.88, f"chi-square {chi2:.1f} over {dict(splits)}"


def test_sampled_state_has_no_record() -> None:
    game = tikki.load("myllymatti")
    sample = game.sample_state(game.new_state(seed=2).view(1), random.Random(0))
    assert sample.reveal()["deal_order"] == []
    with pytest.raises(RulesError, match="sampled state has no record"):
        sample.record()
    assert sample.record(1)["history"] == []


def test_sample_state_is_not_the_truth() -> None:
    """The sampler really samples: over many draws seat 1's sampled hand varies, and the
    true hand is not favoured (a leak would make it come up every time)."""
    game = tikki.load("myllymatti", players=3)
    state = playout(game.new_state(seed=11), random.Random(11), 6)
    view = state.view(0)
    truth = sorted(state.reveal()["zones"]["hand 1"])
    hands = [
        sorted(game.sample_state(view, random.Random(k)).reveal()["zones"]["hand 1"])
        for k in range(200)
    ]
    assert len({tuple(h) for h in hands}) > 150
    assert hands.count(truth) < 3


def test_illegal_move_leaves_state_unchanged_and_explains() -> None:
    """Errors: a refused move says what is wrong and what is legal; nothing changes."""
    state = tikki.load("myllymatti").new_state(deck=CARDS)
    before = json.dumps(state.reveal(), sort_keys=True)
    for move, needle in [("3S", "3S is not in seat 0's hand"), ("take", "phase-2"), ("zz", "")]:
        with pytest.raises(IllegalMove) as info:
            state.play(move)
        assert needle in str(info.value)
        assert "Legal moves: 2S, 5S, 8S, stock" in str(info.value)
        assert isinstance(info.value, ValueError)
    with pytest.raises(IllegalMove, match="a move is a text"):
        state.play(None)  # type: ignore[arg-type]
    assert json.dumps(state.reveal(), sort_keys=True) == before
    assert issubclass(RulesError, ValueError)


# --- rulings revisions -------------------------------------------------------------------


def test_new_games_play_the_current_revision_and_records_name_it() -> None:
    """New games play RULES_REVISION (r2); a game made for r1 plays r1 and says so."""
    assert tikki.RULES_REVISION == "r2" and tikki.RULES_REVISIONS == ("r1", "r2")
    game = tikki.load("mattis")
    assert game.rules == "r2" and game.new_state(seed=1).record()["rules"] == "r2"
    old = tikki.load("mattis", rules="r1")
    assert old.rules == "r1" and old.new_state(seed=1).record()["rules"] == "r1"
    assert old != game and old.options == game.options and "rules='r1'" in repr(old)
    with pytest.raises(RulesError, match=r"rules revision .r9. is not supported: .*r1, r2"):
        tikki.load("mattis", rules="r9")


@pytest.mark.parametrize("rules", ["r1", "r2"])
def test_a_record_replays_under_its_own_revision(rules: str) -> None:
    """A record of r1 replays under r1 (never silently under r2), and back to itself."""
    game = tikki.load("mattis", rules=rules)
    state = playout(game.new_state(seed=6), random.Random(6), 10_000)
    record = json.loads(json.dumps(state.record()))
    assert record["rules"] == rules
    again = tikki.replay(record)
    assert again.game.rules == rules and again.record() == record


def test_a_record_under_the_wrong_revision_is_caught() -> None:
    """Replaying an r1 Mattis record as r2 fails at the first move the rulings changed."""
    for seed in range(40):
        state = playout(
            tikki.load("mattis", rules="r1").new_state(seed=seed), random.Random(seed), 10_000
        )
        record = json.loads(json.dumps(state.record()))
        record["rules"] = "r2"
        try:
            tikki.replay(record)
        except RulesError as err:
            assert "record move" in str(err) or "record's outcome" in str(err)
            return
    raise AssertionError("no r1 game in the sample differs under r2")


def test_record_options_may_not_smuggle_a_revision() -> None:
    record = record_of()
    record["options"] = {**record["options"], "rules": "r1"}
    with pytest.raises(RulesError, match="'options' holds 'rules'"):
        tikki.replay(record)
