"""Arena statistics: deal-clustered intervals (Mückenstich) and per-move think times."""

from __future__ import annotations

import pytest

from tikki import arena


def _result(index: int, deal: int, scores: list[int], times: list[list[float]]) -> arena.GameResult:
    seats = ["a", "b", "b", "b"][index % 4 :] + ["a", "b", "b", "b"][: index % 4]
    return arena.GameResult(
        index=index,
        deal=deal,
        seats=seats,
        outcome={"scores": scores, "rounds": [{}] * 4, "abandoned": False},
        moves=10,
        think=[sum(t) for t in times],
        decisions=[len(t) for t in times],
        record={},
        move_seconds=times,
    )


def test_mueckenstich_interval_counts_each_duplicate_deal_once() -> None:
    """Four games of one deal give four correlated values: the interval must be that of
    the per-deal means (three deals), wider than treating twelve values as independent."""
    results = []
    deal_scores = [[40, 0, 0, 0], [8, 0, 0, 0], [-20, 0, 0, 0]]
    for deal, base in enumerate(deal_scores):
        for k in range(4):
            index = deal * 4 + k
            seats = _result(index, deal, [0] * 4, [[0.0]] * 4).seats
            scores = [base[0] if name == "a" else 0 for name in seats]
            results.append(_result(index, deal, scores, [[0.001]] * 4))
    stats = {s.bot: s.as_dict() for s in arena.summarize(results, ["a", "b"])}
    a = stats["a"]
    per_deal = [b[0] / 4 for b in deal_scores]
    mean, ci = arena.mean_ci(per_deal)
    assert a["mean_score_per_round"] == pytest.approx(mean)
    assert a["score_ci"] == pytest.approx(ci)
    assert a["deals"] == 3
    naive = arena.mean_ci([v for v in per_deal for _ in range(4)])[1]
    assert ci[1] - ci[0] > naive[1] - naive[0]


def test_think_time_quantiles_per_bot() -> None:
    times = [[0.1 * k for k in range(1, 11)], [0.5], [0.5], [0.5]]
    results = [_result(0, 0, [0, 0, 0, 0], times)]
    a = {s.bot: s.as_dict() for s in arena.summarize(results, ["a", "b"])}["a"]
    assert (a["think_p50"], a["think_p90"], a["think_max"]) == pytest.approx((0.5, 0.9, 1.0))


def test_real_arena_reports_quantiles_and_deals() -> None:
    spec = arena.ArenaSpec("mueckenstich", 4, {}, ("heuristic", "random", "random", "random"), 8, 1)
    figures = [s.as_dict() for s in arena.summarize(arena.run(spec), spec.lineup)]
    for f in figures:
        assert 0 < f["think_p50"] <= f["think_p90"] <= f["think_max"]
        assert f["deals"] == 2


def test_register_bot_before_first_use_keeps_the_builtin_bots() -> None:
    """A fresh process that registers its own bot first can still make the built-in ones."""
    import subprocess
    import sys

    code = (
        "from tikki import bots\n"
        "class B:\n"
        "    name = 'mine'\n"
        "    def __init__(self, seed=None): pass\n"
        "bots.register_bot('mine', B)\n"
        "print(bots.make('heuristic', seed=1).name, bots.make('mine').name)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[1] == "mine"


def test_ratings_against_fixed_anchors_keep_the_anchors() -> None:
    """A level added to the anchors is rated against them; their ratings do not move."""
    from tikki.arena import GameResult, ratings

    def won_by(first: str, second: str, i: int) -> GameResult:
        outcome = {"out_order": [1, 0], "abandoned": False}  # seat 1 goes out first: wins
        return GameResult(i, i, [second, first], outcome, 10, [0.0, 0.0], [5, 5], {})

    results = [won_by("new", "anchor", i) for i in range(6)]
    fixed = {"anchor": (30.0, 5.0)}
    rated = ratings(results, fixed=fixed)
    assert rated["anchor"][1:] == (30.0, 5.0)
    assert rated["new"][1] > 30.0  # it beat the anchor every time
    free = ratings(results)
    assert free["anchor"][1] < 25.0  # without the anchor kept it would have sunk
