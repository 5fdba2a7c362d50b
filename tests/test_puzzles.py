"""Puzzles proven by the exact endgame solver: the verdict, the build, the check, no leaks."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tikki import puzzles
from tikki.bots.endgame import LOSS
from tikki.cli import app
from tikki.core import Game, State, load
from tikki.puzzles import line, points
from tikki.testing.checks import shown

runner = CliRunner()

UNIQUE_DECK = ["9S", "JH", "TH", "KS", "QH", "TS", "JS", "8H", "9H", "QS", "8S", "KH", "AS", "AH"]
"""Two players, 7 ranks × 2 suits: after 21 first-legal moves seat 0 holds only TH (hearts
are trump) and seat 1 has led TS. TH beats it and empties the hand: seat 0 is out and
seat 1 the loser. Taking TS keeps seat 0 in the game with cards against a longer hand
that the solver proves lost."""
SEVERAL_DECK = ["TH", "JS", "AS", "KH", "JH", "8H", "9H", "QS", "TS", "KS", "QH", "9S", "8S", "AH"]
"""After 23 first-legal moves seat 0 holds JH and AH (trumps) against QS: either trump
beats it, and both escape: two winning moves, not a puzzle."""


def _small() -> Game:
    return load("myllymatti", 2, ranks=7, suits=2)


def _after(deck: list[str], moves: int) -> State:
    state = _small().new_state(deck=deck)
    for _ in range(moves):
        state.play(state.legal_moves()[0])
    return state


def test_the_unique_escape_known_by_hand() -> None:
    state = _after(UNIQUE_DECK, 21)
    view = state.view(state.current_player)
    assert view["seat"] == 0 and view["hand"] == ["TH"] and view["trump"] == "H"
    assert view["trick"]["plays"] == [{"seat": 1, "cards": ["TS"]}]
    found = puzzles.verdict(state.game, view)
    assert found.reason == "unique" and found.answer == "TH"
    assert found.counts()["take"] == {"win": 0, "draw": 0, "loss": 1}


def test_two_winning_moves_are_rejected() -> None:
    state = _after(SEVERAL_DECK, 23)
    view = state.view(state.current_player)
    assert sorted(view["legal_moves"]) == ["AH", "JH", "take"]
    found = puzzles.verdict(state.game, view)
    assert found.answer is None and found.reason == "several"


def test_worlds_are_every_deal_the_view_allows() -> None:
    state = _after(UNIQUE_DECK, 21)
    view = state.view(0)
    found = puzzles.worlds(state.game, view)
    assert len(found) == 1 and found[0].view(0) == view  # every hand is public here


def _build(tmp_path: Path, name: str, seed: int) -> Path:
    out = tmp_path / name
    result = runner.invoke(
        app, ["puzzles", "build", "mattis", "--count", "2", "--seed", str(seed), "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    return out


def test_build_is_reproducible_and_checks(tmp_path: Path) -> None:
    first = _build(tmp_path, "a.json.gz", 3)
    second = _build(tmp_path, "b.json.gz", 3)
    assert first.read_bytes() == second.read_bytes()
    document = puzzles.read(first)
    assert document["count"] == 2 and document["format"] == puzzles.FORMAT
    for puzzle in document["puzzles"]:
        assert set(puzzle["explanation"]) == {"en", "fi", "de"}
        assert puzzle["answer"][0] in puzzle["view"]["legal_moves"]
    result = runner.invoke(app, ["puzzles", "check", str(first)])
    assert result.exit_code == 0, result.output
    assert "2 of 2" in result.output


def test_append_grows_a_set_seed_by_seed(tmp_path: Path) -> None:
    first = _build(tmp_path, "grown.json.gz", 3)
    again = runner.invoke(
        app,
        ["puzzles", "build", "mattis", "-n", "2", "--seed", "4", "--out", str(first), "--append"],
    )
    assert again.exit_code == 0, again.output
    grown = puzzles.read(first)
    fresh = puzzles.read(_build(tmp_path, "fresh.json.gz", 3))
    assert grown["count"] == 4 and grown["puzzles"][:2] == fresh["puzzles"]
    assert len({p["id"] for p in grown["puzzles"]}) == 4
    other = tmp_path / "other.json.gz"
    puzzles.dump({**fresh, "players": 4}, other)
    refused = runner.invoke(
        app, ["puzzles", "build", "mattis", "-n", "1", "--out", str(other), "--append"]
    )
    assert refused.exit_code != 0 and "not of one game" in refused.output


def test_merge_joins_sets_built_side_by_side(tmp_path: Path) -> None:
    """Seeds built in two files and merged give the set grown seed by seed with
    --append; a file of another game's players is refused in words."""
    odd, even = _build(tmp_path, "odd.json.gz", 3), _build(tmp_path, "even.json.gz", 4)
    grown = _build(tmp_path, "grown.json.gz", 3)
    args = ["puzzles", "build", "mattis", "-n", "2", "--seed", "4", "--out", str(grown)]
    assert runner.invoke(app, [*args, "--append"]).exit_code == 0
    out = tmp_path / "merged.json.gz"
    made = runner.invoke(app, ["puzzles", "merge", str(odd), str(even), "--out", str(out)])
    assert made.exit_code == 0 and "4 puzzles from 2 files" in made.output, made.output
    assert out.read_bytes() == grown.read_bytes()
    other = tmp_path / "other.json.gz"
    puzzles.dump({**puzzles.read(odd), "players": 4}, other)
    refused = runner.invoke(app, ["puzzles", "merge", str(odd), str(other), "--out", str(out)])
    assert refused.exit_code != 0 and "not of one game" in refused.output
    assert out.read_bytes() == grown.read_bytes()  # nothing written


def test_check_catches_a_tampered_answer(tmp_path: Path) -> None:
    path = _build(tmp_path, "p.json.gz", 4)
    document: dict[str, Any] = puzzles.read(path)
    puzzle = document["puzzles"][0]
    other = next(m for m in puzzle["view"]["legal_moves"] if m not in puzzle["answer"])
    puzzle["answer"] = [other]
    tampered = tmp_path / "tampered.json"
    tampered.write_bytes(puzzles.dumps(document))
    result = runner.invoke(app, ["puzzles", "check", str(tampered)])
    assert result.exit_code == 1
    assert f"puzzle {puzzle['id']} fails: answer" in result.output


def test_no_hidden_card_in_a_stored_puzzle(tmp_path: Path) -> None:
    built = puzzles.build("mattis", 3, seed=5)
    text = json.dumps(built.document)
    assert "seed" not in json.loads(text)  # where the games came from stays private
    game = load("mattis", built.document["players"])
    for puzzle in built.document["puzzles"]:
        seat = puzzle["seat"]
        private = built.private[puzzle["id"]]
        state = game.new_state(seed=private["seed"])
        number = private["move"]
        replayed = _replay_to(game, state, private["bots"], number)
        assert replayed.view(seat) == puzzle["view"]
        assert not shown(line.first_step(puzzle), replayed.reveal()["hidden"][str(seat)])
        _no_leak_in_later_steps(replayed, puzzle)


def _no_leak_in_later_steps(state: State, puzzle: dict[str, Any]) -> None:
    """Each later step, played on from the real deal, is the seat's view then, and neither
    it nor its answer shows a card hidden from the seat then."""
    seat = puzzle["seat"]
    for i, step in enumerate(puzzle.get("steps", [])):
        state.play(puzzle["answer"][i])
        for other, move in step["replies"]:
            assert state.current_player == other != seat
            state.play(move)
        assert state.view(seat) == step["view"]
        hidden = state.reveal()["hidden"][str(seat)]
        assert not shown({**step, "answer": [puzzle["answer"][i + 1]]}, hidden)


def _replay_to(game: Game, state: State, specs: list[str], number: int) -> State:
    from tikki import bots

    seed = state.seed
    assert seed is not None
    players = [bots.make(spec, seed=seed + s) for s, spec in enumerate(specs)]
    while len(state.moves) + 1 < number:
        seat = state.current_player
        assert seat is not None
        state.play(players[seat].choose(game, state.view(seat)))
    return state


LINE_SEED = 4
"""Myllymatti, two puzzles from seed 4: the second takes three moves (two later steps)."""


def _line_build() -> puzzles.Built:
    built = puzzles.build("myllymatti", 2, seed=LINE_SEED)
    assert [len(p["answer"]) for p in built.document["puzzles"]] == [1, 3]
    return built


def test_a_puzzle_of_several_moves_builds_and_checks(tmp_path: Path) -> None:
    built = _line_build()
    one, three = built.document["puzzles"]
    assert "steps" not in one and len(one["answer"]) == 1  # one step: today's shape
    assert len(three["steps"]) == 2 and "several-moves" in three["themes"]
    assert three["steps"][0]["replies"] == [[0, "AD"], [0, "6D"]]  # seat 0 beat, led again
    assert three["steps"][1]["replies"] == []  # the seat's answer fell the trick: it leads
    game = load("myllymatti", built.document["players"])
    for answer, step in zip(three["answer"][1:], three["steps"], strict=True):
        assert answer in step["view"]["legal_moves"]
        assert set(step["explanation"]) == {"en", "fi", "de"}
        again = puzzles.verdict(game, step["view"])  # each step a puzzle of its own
        assert again.answer == answer and again.counts() == step["values"]
    path = tmp_path / "line.json.gz"
    args = ["puzzles", "build", "myllymatti", "-n", "2", "--seed", str(LINE_SEED)]
    made = runner.invoke(app, [*args, "--out", str(path)])
    assert made.exit_code == 0 and puzzles.read(path) == built.document, made.output
    assert "1 of the new puzzles take several moves" in made.output
    result = runner.invoke(app, ["puzzles", "check", str(path)])
    assert result.exit_code == 0 and "2 of 2" in result.output, result.output
    private = built.private[three["id"]]
    state = game.new_state(seed=private["seed"])
    replayed = _replay_to(game, state, private["bots"], private["move"])
    _no_leak_in_later_steps(replayed, three)  # the leak checker at every step


def test_steps_one_builds_every_puzzle_as_one_move(tmp_path: Path) -> None:
    """``--steps 1`` builds what the sets' first seeds were built as: the same puzzles,
    each one move (the first step of a line is its whole puzzle); ``--steps 0`` is refused
    in words."""
    lines = _line_build()
    path = tmp_path / "one.json.gz"
    args = ["puzzles", "build", "myllymatti", "-n", "2", "--seed", str(LINE_SEED)]
    made = runner.invoke(app, [*args, "--steps", "1", "--out", str(path)])
    assert made.exit_code == 0, made.output
    ones = puzzles.read(path)["puzzles"]
    assert [p["id"] for p in ones] == [p["id"] for p in lines.document["puzzles"]]
    assert all("steps" not in p and len(p["answer"]) == 1 for p in ones)
    assert ones[1]["answer"][0] == lines.document["puzzles"][1]["answer"][0]
    refused = runner.invoke(app, [*args, "--steps", "0", "--out", str(path)])
    assert refused.exit_code != 0 and "--steps is 1 or more, not 0" in refused.output


def test_check_catches_a_tampered_later_step() -> None:
    built = _line_build()
    game = load("myllymatti", built.document["players"])
    three = built.document["puzzles"][1]
    assert puzzles.check_one(game, three) is None
    last = three["steps"][-1]
    wrong = next(m for m in last["view"]["legal_moves"] if m != three["answer"][-1])
    tampered = {**three, "answer": [*three["answer"][:-1], wrong]}
    assert puzzles.check_one(game, tampered) == "answer"
    other = three["steps"][0]["replies"][-1]
    moved = next(m for m in three["view"]["hand"] if m not in three["answer"])
    replies = [*three["steps"][0]["replies"][:-1], [other[0], moved]]
    step = {**three["steps"][0], "replies": replies}  # a reply the deal did not hold
    assert puzzles.check_one(game, {**three, "steps": [step, *three["steps"][1:]]}) == "steps"
    swapped = {**three, "steps": three["steps"][::-1], "answer": [three["answer"][0],
               three["answer"][2], three["answer"][1]]}  # fmt: skip
    assert puzzles.check_one(game, swapped) == "steps"
    shorter = {**three, "answer": three["answer"][:2]}
    assert puzzles.check_one(game, shorter) == "answer"
    counted = {**last, "worlds": last["worlds"] + 1}
    assert puzzles.check_one(game, {**three, "steps": [three["steps"][0], counted]}) == "values"


def test_a_file_that_is_not_a_puzzle_file_is_refused_in_words(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json.gz"
    bad.write_bytes(gzip.compress(b"[1, 2]"))
    result = runner.invoke(app, ["puzzles", "check", str(bad)])
    assert result.exit_code == 2 and "not a tikki puzzle file" in result.output


SAMPLE = 30
"""How many puzzles of each shipped set the suite proves again (every one: the saved run
benchmarks/runs/puzzles-check.txt, ``tikki puzzles check`` over each file)."""
STEPS_SAMPLE = 5
"""How many more of a set's puzzles of several moves the suite proves again."""


def _sample(document: dict[str, Any]) -> dict[str, Any]:
    """A seeded sample of ``SAMPLE`` puzzles of a set, and every puzzle of a sort (its
    ``kind``, with or without hidden cards) that has ``SAMPLE`` or fewer, and a seeded
    sample of ``STEPS_SAMPLE`` of its puzzles of several moves."""
    import random

    sorts: dict[tuple[str, bool], list[dict[str, Any]]] = {}
    for puzzle in document["puzzles"]:
        sorts.setdefault((puzzle["kind"], puzzle["worlds"] > 1), []).append(puzzle)
    few = [p for group in sorts.values() if len(group) <= SAMPLE for p in group]
    many = [p for group in sorts.values() if len(group) > SAMPLE for p in group]
    picked = random.Random(0).sample(many, min(SAMPLE, len(many)))
    chosen = {p["id"] for p in few + picked}
    lines = [p for p in document["puzzles"] if "steps" in p and p["id"] not in chosen]
    picked += random.Random(0).sample(lines, min(STEPS_SAMPLE, len(lines)))
    return {**document, "puzzles": few + picked}


def test_every_shipped_set_is_proved_again_from_its_stored_views() -> None:
    """The sets shipped with tikki: a sample of each proved again, as `tikki puzzles check`
    does, from its views alone (worlds enumerated afresh, solved afresh, nothing hidden
    shown)."""
    for name in ("myllymatti", "mattis", "mueckenstich"):
        document = puzzles.read(puzzles.shipped(name))
        assert document["game"] == name and len(document["puzzles"]) == document["count"] >= 30
        assert len({p["id"] for p in document["puzzles"]}) == document["count"]
        sample = _sample(document)
        assert len(sample["puzzles"]) >= SAMPLE
        if name == "myllymatti":  # the shipped puzzles of several moves are proved too
            assert sum("steps" in p for p in sample["puzzles"]) >= STEPS_SAMPLE
        assert puzzles.check(sample) == [], name


# --- points puzzles (Mückenstich) ---------------------------------------------------------


def _late_mueckenstich(seed: int, cards: int) -> State:
    """A 4-player Mückenstich round played at random until at most ``cards`` cards are
    left in the hands (play phase)."""
    import random

    from tikki.bots.endgame import cards_in_hands

    rng = random.Random(seed)
    state = load("mueckenstich", 4).new_state(seed=seed)
    while state.phase != "play" or cards_in_hands(state) > cards:
        state.play(rng.choice(state.legal_moves()))
    return state


def _round_points(state: State, seat: int, end: Any) -> int:
    """The seat's exact points this round by plain minimax (no table, no pruning)."""
    done = end(state, seat)
    if done is not None:
        return int(done)
    values = []
    for move in state.legal_moves():
        child = state.clone()
        child.play(move)
        values.append(_round_points(child, seat, end))
    return max(values) if state.current_player == seat else min(values)


def test_hand_worlds_are_every_way_the_other_hands_may_lie() -> None:
    import random

    for seed in (1, 2, 3):
        state = _late_mueckenstich(seed, 4)
        seat = state.current_player
        view = state.view(seat)
        found = points.hand_worlds(state.game, view, most=5000)
        keys = {tuple(tuple(w.reveal()["zones"][f"hand {s}"]) for s in range(4)) for w in found}
        assert len(keys) == len(found) >= 2
        assert all(w.view(seat) == view for w in found)
        sample = state.game.sampler(view)
        rng = random.Random(seed)
        for _ in range(200):  # every deal the determinizer makes is one of the worlds
            drawn = sample(rng).reveal()["zones"]
            assert tuple(tuple(drawn[f"hand {s}"]) for s in range(4)) in keys


def test_worlds_are_counted_as_many_as_are_listed() -> None:
    """The count that turns a view away before listing its worlds agrees with the list,
    and a view with too many worlds is turned away."""
    from tikki.core import tactics

    compared = too_many = 0
    for seed in range(1, 9):
        for cards in (4, 8, 12):
            state = _late_mueckenstich(seed, cards)
            view = state.view(state.current_player)
            parts = tactics(state.game.name)
            _, pool, places = parts.hidden_places(state.game, view, int(view["seat"]))
            counted = points.count_worlds(pool, places[0:-1:2], 5000)
            if counted <= 5000:
                assert counted == len(points.hand_worlds(state.game, view, most=5000))
                compared += 1
            else:
                too_many += 1
                with pytest.raises(points.TooMany):
                    points.hand_worlds(state.game, view, most=5000)
    assert compared >= 8 and too_many >= 1


def test_the_points_solver_agrees_with_plain_minimax() -> None:
    from tikki.bots.endgame import Solver

    compared = 0
    for seed in range(6):
        state = _late_mueckenstich(seed, 4)
        for seat in range(4):
            end = points.RoundEnd(state)
            exact = _round_points(state, seat, end)
            assert Solver(seat, end=end, bounds=points.BOUNDS).value(state) == exact
            compared += 1
    assert compared == 24


def test_the_margin_rule() -> None:
    legal = ["1R", "5R", "MR"]
    ahead = {"1R": [3, 4], "5R": [1, 2], "MR": [-2, 0]}
    answer, reason, values = points.judge(legal, ahead)
    assert (answer, reason) == ("1R", "unique") and values["5R"] == [LOSS] * 2
    close = {"1R": [3, 4], "5R": [1, 3], "MR": [-2, 0]}  # one point ahead in one world
    assert points.judge(legal, close)[0] is None


def test_mueckenstich_points_puzzles_build_and_check() -> None:
    built = puzzles.build("mueckenstich", 1, seed=1)
    document = built.document
    assert document["count"] == 1
    for puzzle in document["puzzles"]:
        assert puzzle["kind"] == "points" and puzzle["margin"] >= points.MARGIN
        assert puzzle["answer"][0] in puzzle["points"]
        assert set(puzzle["explanation"]) == {"en", "fi", "de"}
    assert puzzles.check(document) == []
    tampered = json.loads(json.dumps(document))
    first = tampered["puzzles"][0]
    first["points"][first["answer"][0]] = [99, 99]
    assert puzzles.check(tampered)[0][1] == "values"
