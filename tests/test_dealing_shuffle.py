"""The games' own shuffle (:func:`tikki.games.dealing.shuffle`) is ``random.Random.shuffle``:
the same order and the same draws, so a seed deals the same game as before."""

from __future__ import annotations

import random

from tikki.games.dealing import shuffle


def test_shuffle_matches_random_shuffle_and_leaves_the_generator_alike() -> None:
    """Every length (none, one card, the decks of 52 and 64) and many seeds, an int's and
    a text's: the same order, and the generator's next draw is the same."""
    for seed in [*range(300), "mueckenstich:7:3"]:
        for length in (0, 1, 2, 3, 13, 52, 64):
            mine, theirs = list(range(length)), list(range(length))
            rng, ref = random.Random(seed), random.Random(seed)
            shuffle(rng, mine)
            ref.shuffle(theirs)
            assert mine == theirs, (seed, length)
            assert rng.random() == ref.random(), (seed, length)


class _Reversing(random.Random):
    """A generator with a shuffle of its own."""

    def shuffle(self, x: list[int]) -> None:  # type: ignore[override]
        x.reverse()


def test_shuffle_leaves_other_generators_to_their_own_shuffle() -> None:
    """A subclass of ``random.Random`` shuffles by its own method."""
    cards = [1, 2, 3, 4]
    shuffle(_Reversing(5), cards)
    assert cards == [4, 3, 2, 1]
