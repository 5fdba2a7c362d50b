"""The judge's adaptive budget: a verdict not settled by its stated error gets more
iterations (up to a cap), and a label is given only when settled (tikki.analysis)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

import tikki
from tikki import analysis
from tikki.bots.expert import Appraisal, ExpertBot
from tikki.bots.random_bot import RandomBot
from tikki.core import Game

pytestmark = pytest.mark.compiled


class Noisy(ExpertBot):
    """A judge whose two moves have fixed values and errors that shrink as 0.5/√visits
    (as a chance's would): ``best`` at 0.6 and ``played`` at 0.6 − ``loss``."""

    def __init__(self, loss: float, visits: int) -> None:
        super().__init__(seed=0, iterations=100)
        self.loss = loss
        self.seen = {"best": visits, "played": visits}
        self.asked: list[int] = []

    def current(self, game: Game, view: Mapping[str, Any]) -> Appraisal:
        values = {"best": 0.6, "played": 0.6 - self.loss}
        return Appraisal(
            kind="not_loser",
            values=values,
            errors={m: 0.5 / math.sqrt(n) for m, n in self.seen.items()},
            visits=dict(self.seen),
            proven={},
            best="best",
            how="search",
        )

    def extend(
        self, game: Game, view: Mapping[str, Any], moves: Sequence[str], n: int
    ) -> Appraisal:
        self.asked.append(n)
        for move in moves:
            self.seen[move] += n
        return self.current(game, view)


GAME = tikki.load("mattis", 3)


def test_bands_and_settled_verdicts_follow_the_thresholds() -> None:
    """A loss whose interval (± one error) lies in one band is settled, with today's label;
    one that straddles a threshold is not, and gets no label."""
    assert analysis.band("not_loser", 0.0) == 0
    assert analysis.band("not_loser", 0.1) == 2
    assert analysis.band("points", 4.5) == 3
    assert analysis.verdict("not_loser", 0.5, 0.01) == ("blunder", True)
    assert analysis.verdict("not_loser", 0.15, 0.02) == ("mistake", True)
    assert analysis.verdict("not_loser", 0.01, 0.02) == (None, True)
    assert analysis.verdict("not_loser", 0.12, 0.03) == (None, False)  # 0.09–0.15
    assert analysis.verdict("not_loser", 0.21, 0.02) == (None, False)  # 0.19–0.23
    assert analysis.verdict("points", 2.5, 0.4) == ("mistake", True)
    assert analysis.verdict("points", 2.2, 0.4) == (None, False)
    assert analysis.label_for("not_loser", 0.12, 0.03) == "inaccuracy"  # the old rule spoke


def test_a_straddling_label_gets_more_iterations_until_settled() -> None:
    """Loss 0.12 at 100 visits a move (error 0.071: 0.05–0.19) straddles two thresholds: the
    two moves' iterations double until the interval lies inside the mistake band."""
    bot = Noisy(0.12, 100)
    spent = analysis.settle_label(bot, GAME, {}, "played", cap=100_000)
    assert bot.asked == [100, 200, 400, 800]  # 1,600 each: error 0.0177, 0.102–0.138
    assert spent == 2 * sum(bot.asked)
    found = bot.current(GAME, {})
    loss, error = analysis.loss_of(found, "played")
    assert analysis.verdict("not_loser", loss, error) == ("mistake", True)


def test_a_settled_label_gets_no_more_iterations() -> None:
    bot = Noisy(0.5, 100)  # 0.43–0.57: a blunder, surely
    assert analysis.settle_label(bot, GAME, {}, "played", cap=100_000) == 0
    assert bot.asked == []
    assert analysis.settle_label(Noisy(0.12, 100), GAME, {}, "best", cap=100_000) == 0


def test_the_cap_holds_and_an_unsettled_verdict_has_no_label() -> None:
    bot = Noisy(0.10, 100)  # right on the threshold: never settles
    spent = analysis.settle_label(bot, GAME, {}, "played", cap=1000)
    assert spent <= 1000 and bot.asked == [100, 200, 200]
    found = bot.current(GAME, {})
    loss, error = analysis.loss_of(found, "played")
    assert analysis.verdict("not_loser", loss, error) == (None, False)
    decision = analysis.judge(7, 0, "play", "played", found, spent)
    assert decision.label is None and not decision.settled and decision.extra == spent


def test_best_settled_needs_a_separated_or_an_equal_rival() -> None:
    def appraisal(best: float, other: float, error: float) -> Appraisal:
        return Appraisal(
            kind="not_loser",
            values={"a": best, "b": other},
            errors={"a": error, "b": error},
            visits={"a": 600, "b": 400},
            proven={},
            best="a",
            how="search",
        )

    assert analysis.best_settled(appraisal(0.7, 0.5, 0.02))  # apart
    assert analysis.best_settled(appraisal(0.51, 0.50, 0.01))  # surely within 0.05
    assert not analysis.best_settled(appraisal(0.53, 0.50, 0.03))  # neither
    assert not analysis.best_settled(appraisal(0.50, 0.60, 0.01))  # the rival is better
    proven = appraisal(0.53, 0.50, 0.03)
    assert analysis.best_settled(Appraisal(**{**proven.__dict__, "how": "proof"}))


def weak_game(seed: int) -> dict[str, Any]:
    """A Mattis game of random bots (a beginner's game)."""
    state = GAME.new_state(seed=seed)
    bots = [RandomBot(seed=seed + s) for s in range(3)]
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        state.play(bots[seat].choose(GAME, state.view(seat)))
    return state.record()


def test_a_real_game_settles_what_it_can_within_the_cap() -> None:
    """At a small budget, on a random player's game: a decision whose verdict the plain
    search settles gets no extra work and the old verdict; the others get extra work, at
    most ``EXTRA`` times the search's; every label given is settled; the result does not
    depend on the run (seeded)."""
    record = weak_game(11)
    game, found = analysis.decisions_of(record, 0)
    iterations = 30
    plain_unsettled = extended = 0
    for number, _phase, played, view in found[:30]:
        seed = analysis.decision_seed(5, number)
        base = ExpertBot(seed=seed, iterations=iterations).appraise(game, view)
        old = ExpertBot(seed=seed, iterations=iterations).appraise(game, view, (played,))
        loss, error = analysis.loss_of(old, played)
        settled = analysis.best_settled(base) and (
            played == old.best or analysis.label_settled(old.kind, loss, error)
        )
        new, extra = analysis.settled_appraise(game, view, iterations, seed, played)
        decision = analysis.judge(number, 0, "play", played, new, extra)
        budget = round(iterations * (0.75, 1.0, 1.25, 1.5)[min(len(view["legal_moves"]), 5) - 2])
        assert 0 <= extra <= analysis.EXTRA * budget
        assert decision.settled or decision.label is None
        if settled:
            assert extra == 0 and new.values == old.values and new.best == old.best
        else:
            plain_unsettled += 1
            extended += extra > 0
    assert plain_unsettled > 0 and extended == plain_unsettled
    again = analysis.analyse(record, 0, iterations, seed=5).decisions[:30]
    assert [d.label for d in again] == [d.label for d in analysis.analyse(
        record, 0, iterations, seed=5).decisions[:30]]  # fmt: skip
